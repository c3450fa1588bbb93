"""The battle screen's pygame-gui widgets: the side panel (the unit shown with its status chips, the combat
log) and the action bar (:mod:`game.ui.action_bar`'s buttons and the fixed buttons at its right end), laid
out for a :class:`~game.ui.battle_hud.Layout`. What they say and whether they are enabled is the
:class:`~game.ui.controller.BattleController`'s and :mod:`game.ui.action_bar`'s; this module only places
them and keeps their texts up to date.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pygame
import pygame_gui
from pygame_gui.core.text import HyperlinkTextChunk
from pygame_gui.elements import UILabel, UIPanel, UITextBox

from game.rules import LegalAction
from game.ui.action_bar import bar_buttons, fixed_buttons
from game.ui.battle_hud import Layout, fit_text, font
from game.ui.battle_words import esc, log_details, log_html, unit_html
from game.ui.controller import BattleController
from game.ui.gui import GuiManager, GuiScene, TipButton, _theme_cached
from game.ui.layout_fit import BarFit, fit_bar, fit_fixed
from game.ui.sheet import fit_text as fit_gui_text

__all__ = ["BAR_ROW", "BattleWidgets"]

BAR_ROW = 30  # a row of the action bar added when its buttons need one, at UI scale 1
BAR_FRAME = 22  # the action bar panel's frame, both sides (its container is this much narrower)


def _face(points: int) -> pygame.font.Font:
    """The action bar's type at a size (the theme's bold serif, as pygame-gui draws it)."""
    return font(points, bold=True)


def _line_height(points: int) -> int:
    return int(font(points, bold=True).get_linesize())


class BattleWidgets:
    """The widgets of one battle screen, built by :meth:`build` into ``scene``'s manager (their buttons
    run through ``scene.button``: a click sound, the command after pygame-gui is done with the event)."""

    def __init__(self, scene: GuiScene, controller: BattleController) -> None:
        self.scene = scene
        self.controller = controller
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self.action_buttons: list[tuple[pygame_gui.elements.UIButton, LegalAction]] = []
        self.choice_buttons: list[tuple[TipButton, str]] = []
        self.status_chips: list[tuple[TipButton, str]] = []
        self.unit_box: UITextBox | None = None
        self.log_box: UITextBox | None = None
        self._log_shown: object = None
        self.log_links: dict[str, str] = {}  # a linked log line's name -> its tooltip (a decision's why)
        self.log_tip: Any = None  # the tooltip up now, and the line it is for
        self.log_tip_for = ""

    def build(self, manager: GuiManager, lay: Layout, fixed: dict[str, Callable[[], None]]) -> None:
        """The panel and the bar for ``lay``; ``fixed`` runs each fixed button by its key (end_turn,
        auto_deploy, back, undo, menu)."""
        c = self.controller
        self.buttons = {}
        self.action_buttons = []
        self.choice_buttons = []
        self._preload_fonts(manager, lay.s)
        panel = UIPanel(lay.panel, manager=manager, object_id="#battle_panel")
        pw = lay.panel.width - lay.px(16)
        chips_h = self._build_status_chips(manager, panel, pw, lay)
        self.unit_box = UITextBox(
            "",
            pygame.Rect(lay.px(6), lay.px(6), pw, lay.px(250) - chips_h),
            manager=manager,
            container=panel,
            object_id="#unit_box",
        )
        UILabel(
            pygame.Rect(lay.px(6), lay.px(262), pw, lay.px(24)),
            "Combat log",
            manager=manager,
            container=panel,
            object_id="#panel_heading",
        )
        log_h = lay.panel.height - lay.px(300)
        self.log_box = UITextBox(
            "",
            pygame.Rect(lay.px(6), lay.px(288), pw, max(lay.px(60), log_h)),
            manager=manager,
            container=panel,
            object_id="#log_box",
        )
        self._log_shown = None
        self.log_tip, self.log_tip_for = None, ""  # the manager was cleared: the old tooltip went with it
        bar = UIPanel(lay.bar, manager=manager, object_id="#action_bar")
        entries = bar_buttons(c)
        fixed_w = lay.px(118)
        inner_w = bar.get_container().get_rect().width  # the bar inside its frame
        room = inner_w - lay.px(18) - fixed_w
        inner_h = lay.bar.height - lay.px(22)  # the panel's frame takes the rest
        fit = self.bar_fit(lay, [e.text for e in entries], room)
        row_h = min(lay.px(40), (inner_h - lay.px(4) * (fit.rows - 1)) // fit.rows)
        for entry, text, (row, x, width) in zip(entries, fit.texts, fit.places, strict=True):
            rect = pygame.Rect(lay.px(6) + x, lay.px(4) + row * (row_h + lay.px(4)), width, row_h)
            command = (
                functools.partial(c.choose, entry.action)
                if entry.action is not None
                else functools.partial(c.choose_option, entry.choice)
            )
            button = self.scene.button(
                rect,
                text,
                command,
                container=bar,
                tooltip=entry.tooltip,
                enabled=entry.enabled,
                object_id=fit.object_id,
                class_id="@action",
            )
            if entry.action is None:
                self.choice_buttons.append((button, entry.choice))
                continue
            if entry.selected:
                button.set_selected(True)
            self.action_buttons.append((button, entry.action))
        if c.pilot.active and c.session.spectating():  # nobody at the screen plays: a spectator's controls
            self._build_spectator(manager, bar, room, inner_h, lay)
        elif c.pilot.active:  # the computer has the decision: the bar says so instead of offering actions
            side = c.session.deciding_side() or ""
            who = f"{c.side_names.get(side, side)} ({c.session.seat_label(side)})"
            said = manager.get_theme().get_font(["label"])
            UILabel(
                pygame.Rect(lay.px(12), lay.px(4), room - lay.px(12), inner_h - lay.px(8)),
                fit_gui_text(said, f"{who} is playing \u2014 click or Space hurries it", room - lay.px(30)),
                manager=manager,
                container=bar,
                object_id="#ai_playing",
            )
        right = inner_w - lay.px(6)  # inside the panel's frame
        fixed_h = (inner_h - lay.px(8)) // 3
        for n, spec in enumerate(fixed_buttons(c)):
            rect = pygame.Rect(right - fixed_w, lay.px(4) + n * (fixed_h + lay.px(4)), fixed_w, fixed_h)
            object_id, text = fit_fixed(spec.text, fixed_w, lay.s, _face)
            self.buttons[spec.key] = self.scene.button(
                rect,
                text,
                fixed[spec.key],
                container=bar,
                tooltip=spec.tooltip,
                enabled=spec.enabled,
                object_id=object_id,
                class_id="@action",
            )

    @staticmethod
    def bar_fit(lay: Layout, texts: list[str], room: int) -> BarFit:
        """How the bar's buttons labelled ``texts`` lie in ``room`` pixels across the bar of ``lay``."""
        inner_h = lay.bar.height - lay.px(22)  # the panel's frame takes the rest
        rows = 3 + lay.bar_extra // max(1, lay.px(BAR_ROW))
        return fit_bar(texts, room, inner_h, lay.s, face_at=_face, line_height=_line_height, max_rows=rows)

    def bar_extra(self, lay: Layout) -> int:
        """The height the action bar needs beyond its usual one for the buttons up now, in rows of
        :data:`BAR_ROW` (0: it holds them); the room across is as :meth:`build` lays it out (the panel's
        frame, the margins and the fixed buttons' column taken off)."""
        texts = [e.text for e in bar_buttons(self.controller)]
        room = lay.bar.width - BAR_FRAME - lay.px(18) - lay.px(118)
        for more in range(4):
            grown = Layout(lay.size, lay.s, more * lay.px(BAR_ROW))
            if not self.bar_fit(grown, texts, room).cut:
                return grown.bar_extra
        return 0

    def _build_spectator(
        self, manager: GuiManager, bar: UIPanel, room: int, inner_h: int, lay: Layout
    ) -> None:
        """A battle between computer players: who plays now and at what pace on top, then Pause / Resume,
        Slower, Faster, Skip turn and a button per side to take its seat over (the battle goes on as a
        solo one)."""
        c = self.controller
        pilot = c.pilot
        side = c.session.deciding_side() or ""
        who = f"{c.side_names.get(side, side)} \u2014 {c.session.seat_label(side)}"
        state = "paused" if pilot.paused else f"pace {pilot.pace:g}\u00d7"
        said = manager.get_theme().get_font(["label"])
        top_h = (inner_h - lay.px(8)) // 2
        UILabel(
            pygame.Rect(lay.px(12), lay.px(2), room - lay.px(12), top_h),
            fit_gui_text(said, f"Watching: {who} is playing ({state})", room - lay.px(30)),
            manager=manager,
            container=bar,
            object_id="#ai_playing",
        )
        specs: list[tuple[str, str, Callable[[], None], str]] = [
            (
                "spectate_pause",
                "Resume" if pilot.paused else "Pause",
                pilot.toggle_pause,
                "Pause or resume (P)",
            ),
            ("spectate_slower", "Slower", lambda: pilot.faster(-1), "A slower pace ([)"),
            ("spectate_faster", "Faster", pilot.faster, "A faster pace (])"),
            ("spectate_skip", "Skip turn", pilot.skip, "Skip the waits and dice of this turn (Space)"),
        ]
        for s in c.session.seats:
            name = c.side_names.get(s, s)
            specs.append(
                (
                    f"take_over_{s}",
                    f"Play {name}",
                    functools.partial(c.take_over, s),
                    f"Take over {name} from its computer player: the battle goes on as a solo one",
                )
            )
        face = font(max(9, round(13 * lay.s)), bold=True)
        gap = lay.px(4)
        free = room - lay.px(6) - gap * (len(specs) - 1)
        # each button as wide as its words, the room left shared out (a long side name is cut last)
        needs = [face.size(text)[0] + lay.px(16) for _key, text, _command, _tip in specs]
        spare = (free - sum(needs)) // len(needs)
        if spare < 0:  # the controls take what they need first, the side buttons share the rest
            fixed = sum(needs[:4])
            rest = max(lay.px(40), (free - fixed) // max(1, len(specs) - 4))
            needs = needs[:4] + [rest] * (len(specs) - 4)
            if fixed + rest * (len(specs) - 4) > free:
                needs = [free // len(specs)] * len(specs)
            spare = 0
        y = lay.px(4) + top_h
        h = inner_h - lay.px(8) - top_h
        x = lay.px(6)
        for (key, text, command, tip), need in zip(specs, needs, strict=True):
            rect = pygame.Rect(x, y, need + spare, h)
            x = rect.right + gap
            self.buttons[key] = self.scene.button(
                rect,
                fit_text(face, text, rect.width - lay.px(10)),
                command,
                container=bar,
                tooltip=tip,
                class_id="@action",
            )

    def _build_status_chips(self, manager: GuiManager, panel: UIPanel, width: int, lay: Layout) -> int:
        """The selected unit's statuses as chips at the foot of the unit box, each with a tooltip quoting
        the rule it comes from; returns the height they take."""
        self.status_chips = []
        shown = self.controller.panel_unit()
        if shown is None or self.controller.covered:
            return 0
        statuses = self.controller.unit_view(shown).statuses
        if not statuses:
            return 0
        face = font(max(9, round(13 * lay.s)), bold=True)
        h, gap = lay.px(26), lay.px(4)
        rects: list[pygame.Rect] = []
        x, row = 0, 0
        for st in statuses:
            w = min(width, face.size(st.name)[0] + lay.px(22))
            if x and x + w > width:
                x, row = 0, row + 1
            rects.append(pygame.Rect(x, row * (h + gap), w, h))
            x += w + gap
        rows = row + 1
        top = lay.px(6) + lay.px(250) - rows * (h + gap)
        for st, rect in zip(statuses, rects, strict=True):
            detail = f"<br>{esc(st.detail)}" if st.detail else ""
            tip = f"<b>{esc(st.name)}</b>{detail}<br><i>\u201c{esc(st.rule)}\u201d</i>"
            chip = TipButton(
                rect.move(lay.px(6), top),
                fit_text(face, st.name, rect.width - lay.px(8)),
                manager=manager,
                container=panel,
                tool_tip_text=tip,
                object_id=pygame_gui.core.ObjectID(object_id="#status_chip", class_id="@status_chip"),
            )
            self.status_chips.append((chip, st.name))
        return rows * (h + gap)

    @staticmethod
    def _preload_fonts(manager: GuiManager, scale: float) -> None:
        """The unit panel's and log's rich text uses bold, italic and larger sizes of the text font:
        load them with the screen rather than on first use (pygame-gui warns otherwise)."""
        theme_font = _theme_cached(scale).get("text_box", {}).get("font", {})
        name, size = theme_font.get("name"), int(theme_font.get("size", 15))
        if not name:
            return
        fonts = manager.get_theme().get_font_dictionary()
        wanted = []
        for points, style in ((size, "bold"), (round(18 * scale), "bold"), (size, "italic")):
            font_id = fonts.create_font_id(points, name, style == "bold", style == "italic")
            if not fonts.check_font_preloaded(font_id):
                wanted.append({"name": name, "point_size": points, "style": style})
        if wanted:
            manager.preload_fonts(wanted)

    def update_panels(self) -> None:
        """The unit panel's and the log's texts now (set only when they changed)."""
        c = self.controller
        if self.unit_box is not None:
            text = self._unit_text()
            if text != self.unit_box.html_text:
                self.unit_box.set_text(text)
        log = c.feed.log
        shown = (len(log), id(log[-1]) if log else 0)  # the log keeps its newest lines: a length can repeat
        if self.log_box is not None and self._log_shown != shown:
            self.log_box.set_text(log_html(log))
            self.log_links = log_details(log)
            if self.log_box.scroll_bar is not None:
                self.log_box.scroll_bar.set_scroll_from_start_percentage(1.0)
            self._log_shown = shown
        self._update_log_tip()

    def _link_pieces(self) -> list[tuple[str, pygame.Rect]]:
        """Each piece of a linked log line (a long line wraps into several) and where it is on screen,
        the pieces scrolled out of the box left out."""
        box = self.log_box
        if box is None or not box.alive():  # type: ignore[no-untyped-call]
            return []
        x, y = box.get_text_layout_top_left()
        if box.scroll_bar is not None and box.text_box_layout is not None:
            y -= box.scroll_bar.start_percentage * box.text_box_layout.layout_rect.height
        pieces = []
        # every piece from the laid-out rows: pygame-gui's own hover list (link_hover_chunks) misses the
        # first pieces of a link that wraps
        rows = box.text_box_layout.layout_rows if box.text_box_layout is not None else []
        chunks = [item for row in rows for item in row.items if isinstance(item, HyperlinkTextChunk)]
        for chunk in chunks or box.link_hover_chunks:
            rect = pygame.Rect((int(x) + chunk.x, int(y) + chunk.y), chunk.size)
            if box.rect.contains(rect):
                pieces.append((str(chunk.href), rect))
        return pieces

    def link_rects(self) -> dict[str, pygame.Rect]:
        """Where each linked log line in view starts on screen (the pointer over it shows its tooltip)."""
        out: dict[str, pygame.Rect] = {}
        for href, rect in self._link_pieces():
            out.setdefault(href, rect)
        return out

    def hovered_link(self) -> str:
        """The name of the log's linked line under the pointer ("" when none)."""
        manager = self.scene.manager
        if manager is None or not self.log_links:
            return ""
        # the pointer of the newest event (pygame-gui's own position is a frame behind until it updates)
        pointer = manager.pointer if manager.pointer is not None else manager.get_mouse_position()
        for href, rect in self._link_pieces():
            if href in self.log_links and rect.collidepoint(pointer):
                return href
        return ""

    def _update_log_tip(self) -> None:
        """A computer player's line under the pointer shows why it decided so (its score breakdown)."""
        href = self.hovered_link()
        if href == self.log_tip_for:
            return
        if self.log_tip is not None:
            self.log_tip.kill()
        self.log_tip, self.log_tip_for = None, href
        manager = self.scene.manager
        if not href or manager is None or self.log_box is None:
            return
        x, y = manager.pointer if manager.pointer is not None else manager.get_mouse_position()
        tip = manager.create_tool_tip(
            self.log_links[href], (x, y), (0, 18), self.log_box, None, wrap_width=self.log_box.rect.width + 60
        )
        tip.find_valid_position(pygame.math.Vector2(x, y))
        self.log_tip = tip

    def _unit_text(self) -> str:
        c = self.controller
        if c.handover:
            return ""
        unit = c.panel_unit()
        if unit is None:
            return "<b>No decision to make</b>"
        v = c.unit_view(unit)
        return unit_html(v, c.side_names.get(v.side, v.side), looking_only=unit == c.inspected)
