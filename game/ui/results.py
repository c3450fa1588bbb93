"""The results screen: who won and why, and what every unit did (attacks, hits, damage dealt and taken,
how it left the fight, in the ruleset's words), read from the match by :func:`game.stats.battle_stats`.

Rematch starts the same posses on the same map under the same rules with a new seed; Save Replay writes
the whole battle to ``<data dir>/saves/<name>.json`` (``hexslinger replay FILE --verify`` replays it);
Title goes back to the title screen.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

import pygame
from pygame_gui.core import ObjectID
from pygame_gui.elements import UILabel, UIPanel, UIScrollingContainer

from game.engine.builder import same_name
from game.stats import UnitStats, battle_stats
from game.ui.dialogs import NameDialog
from game.ui.gui import GuiManager, Shell, TipButton
from game.ui.routes import BattleRoutes
from game.ui.scenes import Action, Push
from game.ui.session import BattleSession
from game.ui.sheet import PassLabel, ScrollAssist, SheetScene

__all__ = ["COLUMNS", "ResultsScene", "out_text"]

COLUMNS: Final = (
    ("Unit", 0.31, "left"),
    ("Attacks", 0.12, "right"),
    ("Hits", 0.1, "right"),
    ("Dealt", 0.11, "right"),
    ("Taken", 0.11, "right"),
    ("Fate", 0.25, "left"),
)


def out_text(out: str) -> str:
    """A unit's fate for the table: how it left the fight in the ruleset's words, else "standing"."""
    return out or "standing"


def _home_relative(path: Path) -> str:
    try:
        return "~/" + path.relative_to(Path.home()).as_posix()
    except ValueError:
        return str(path)


class ResultsScene(SheetScene):
    """See the module text."""

    sheet_size = (1060, 690)

    def __init__(
        self,
        shell: Shell,
        session: BattleSession,
        flow: BattleRoutes,
        *,
        side_names: dict[str, str] | None = None,
        map_title: str = "",
        size: tuple[int, int] = (1280, 720),
    ) -> None:
        self.session = session
        self.map_title = map_title
        self._asked: str | None = None  # the name whose replacing was asked about
        self.flow = flow
        match = session.match
        self.side_names = side_names or {p.side: p.name or p.side for p in match.posses}
        self.outcome = session.outcome
        self.stats: list[UnitStats] = battle_stats(match)
        winner = self.outcome.winner if self.outcome is not None else None
        if self.outcome is None:
            self.heading = "The Battle Is Not Over"
        elif winner is None:
            self.heading = "A Draw"
        else:
            self.heading = f"Victory for {self.side_names.get(winner, winner)}"
        self.note = ""
        self.buttons: dict[str, TipButton] = {}
        self.cells: dict[tuple[int, str], UILabel] = {}  # (unit, column) -> label (tests read them)
        self.totals: dict[tuple[str, str], UILabel] = {}  # (side, column) -> the posse's total
        self.note_label: UILabel | None = None
        self.table: UIScrollingContainer | None = None
        self.table_scroll: ScrollAssist | None = None
        super().__init__(shell, size)

    # -- layout
    def build_sheet(self, manager: GuiManager, panel: UIPanel) -> None:
        inner, pad = self.inner, self.pad
        match = self.session.match
        reason = self.outcome.reason if self.outcome is not None else "no side has won yet"
        map_name = self.map_title or (
            match.map_path.stem.replace("_", " ").title() if match.map_path is not None else ""
        )
        self.label(
            pygame.Rect(pad, self.content_top - self.px(4), inner.width - 2 * pad, self.px(26)),
            f"{reason[:1].upper()}{reason[1:]}.",
            class_id="@reason",
            object_id="#reason",
        )
        self.label(
            pygame.Rect(pad, self.content_top + self.px(22), inner.width - 2 * pad, self.px(22)),
            f"{match.ruleset_title} \u00b7 {map_name} \u00b7 {len(match.log)} moves \u00b7 seed {match.seed}",
            class_id="@note",
            object_id="#facts",
        )
        top = self.content_top + self.px(54)
        bar_h = self.px(44)
        table = pygame.Rect(pad, top, inner.width - 2 * pad, inner.height - top - bar_h - self.px(56))
        self._build_table(manager, panel, table)
        note_y = table.bottom + self.px(6)
        self.note_label = self.label(
            pygame.Rect(pad, note_y, inner.width - 2 * pad, self.px(26)),
            self.note,
            class_id="@note",
            object_id="#note",
        )
        bw, gap = self.px(180), self.px(14)
        by = inner.height - bar_h - self.px(14)
        specs = [
            (
                "title",
                "Title",
                lambda: self.act(self.flow.to_title()),
                "Back to the title screen (Esc)",
                None,
            ),
            (
                "save_replay",
                "Save Replay\u2026",
                self.save_replay,
                "Save the whole battle to watch or check later",
                None,
            ),
            ("rematch", "Rematch", self.rematch, "The same posses on the same map, new dice", "@primary"),
        ]
        x = (inner.width - len(specs) * bw - (len(specs) - 1) * gap) // 2
        self.buttons = {}
        for key, text, command, tip, class_id in specs:
            self.buttons[key] = self.button(
                pygame.Rect(x, by, bw, bar_h),
                text,
                command,
                object_id=f"#{key}",
                class_id=class_id,
                tooltip=tip,
                sound="card" if key == "rematch" else "click",
            )
            x += bw + gap

    def _build_table(self, manager: GuiManager, panel: UIPanel, rect: pygame.Rect) -> None:
        self.cells = {}
        self.totals = {}
        bar = self.px(20)
        widths = [round((rect.width - bar) * share) for _, share, _ in COLUMNS]
        widths[-1] = rect.width - bar - sum(widths[:-1])
        cell_pad = self.px(8)
        head_h = self.px(26)
        x = rect.x
        for (title, _share, align), width in zip(COLUMNS, widths, strict=True):
            UILabel(
                pygame.Rect(x + cell_pad, rect.y, width - 2 * cell_pad, head_h),
                title,
                manager=manager,
                container=panel,
                object_id=ObjectID(class_id=f"@column_head_{align}"),
            )
            x += width
        body = pygame.Rect(rect.x, rect.y + head_h, rect.width, rect.height - head_h)
        self.add_well(body.inflate(self.px(6), self.px(4)))
        scroller = UIScrollingContainer(
            body, manager=manager, container=panel, allow_scroll_x=False, object_id=ObjectID("#stats")
        )
        row_h = self.px(28)
        y = 0
        winner = self.outcome.winner if self.outcome is not None else None
        for posse in self.session.match.posses:
            side = posse.side
            units = [s for s in self.stats if s.side == side]
            won = " \u2014 the victors" if side == winner else ""
            PassLabel(
                pygame.Rect(cell_pad, y + self.px(4), rect.width - bar - 2 * cell_pad, row_h),
                f"{self.side_names.get(side, side)}{won}",
                manager=manager,
                container=scroller,
                object_id=ObjectID(f"#side_{side}", "@side_head_win" if side == winner else "@side_head"),
            )
            y += row_h + self.px(6)
            rows: list[tuple[int | None, tuple[str, ...], bool]] = [
                (
                    s.unit,
                    (
                        s.name,
                        str(s.attacks),
                        str(s.hits),
                        str(s.damage_dealt),
                        str(s.damage_taken),
                        out_text(s.out),
                    ),
                    bool(s.out),
                )
                for s in units
            ]
            lost = sum(1 for s in units if s.out)
            rows.append(
                (
                    None,
                    (
                        "Posse total",
                        str(sum(s.attacks for s in units)),
                        str(sum(s.hits for s in units)),
                        str(sum(s.damage_dealt for s in units)),
                        str(sum(s.damage_taken for s in units)),
                        f"{lost} of {len(units)} out",
                    ),
                    False,
                )
            )
            for unit, values, out in rows:
                cx = 0
                for (title, _share, align), width, text in zip(COLUMNS, widths, values, strict=True):
                    if unit is None:
                        klass = "@cell_total"
                    else:
                        klass = "@cell_bad" if (title == "Fate" and out) else "@cell"
                    label = PassLabel(
                        pygame.Rect(cx + cell_pad, y, width - 2 * cell_pad, row_h),
                        text,
                        manager=manager,
                        container=scroller,
                        object_id=ObjectID(class_id=f"{klass}_{align}"),
                    )
                    if unit is not None:
                        self.cells[(unit, title)] = label
                    else:
                        self.totals[(side, title)] = label
                    cx += width
                y += row_h
            y += self.px(12)
        scroller.set_scrollable_area_dimensions((rect.width - bar, max(1, y)))
        self.table = scroller
        self.table_scroll = ScrollAssist(scroller, row_h)

    # -- actions
    def set_note(self, text: str) -> None:
        self.note = text
        if self.note_label is not None:
            self.note_label.set_text(text or " ")

    def rematch(self) -> None:
        self.act(self.flow.rematch(self.session, self.side_names))

    def save_replay(self) -> None:
        default = f"Replay {self.flow.suggest_save_name(self.session)}"
        self.act(
            Push(
                NameDialog(
                    self.shell,
                    "Save the Replay",
                    "Name this replay:",
                    initial=default,
                    on_ok=self._save_as,
                )
            )
        )

    def _save_as(self, name: str) -> str | None:
        """Save as ``name``; a save already called so is replaced only when Save is pressed again on the
        question (a name that only maps to the same file name gets a file of its own)."""
        question = self.flow.replace_question(name)
        if question is not None and (self._asked is None or not same_name(self._asked, name)):
            self._asked = name
            return question
        self._asked = None
        problem = self.flow.save(self.session, name)
        if problem is None:
            path = self.flow.save_path(name)
            self.set_note(f"Saved to {_home_relative(path)}: hexslinger replay \u2026 --verify checks it")
        return problem

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if event.type == pygame.KEYDOWN and not consumed and event.key == pygame.K_ESCAPE:
            return self.flow.to_title()
        if self.table_scroll is not None:
            self.table_scroll.handle(event, consumed)  # the wheel over the table, a click on its arrows
        return None
