"""The New Battle screen: the ruleset, the map (with a picture of it), who plays each side, each side's
posse from the posse library, and the seed; Start hands a :class:`BattleSetup` to the caller.

The screen decides no rule and names no ruleset: the rulesets are the installed plugins
(:mod:`game.engine.registry`), in their order; the maps are those that suit the chosen ruleset (a map's
``rulesets`` property; none: every ruleset) with their check-map problems (a broken map shows them in a
message and cannot be started); the posses come from :mod:`game.posses` (saved ones and the defaults),
and the caller builds the match. The map pictures are rendered once per map version and kept in memory
and in the user's cache folder (``platformdirs.user_cache_dir("hexslinger")/thumbnails``;
``$HEXSLINGER_CACHE_DIR`` overrides it).
"""

from __future__ import annotations

import dataclasses
import html
import importlib
import importlib.util
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.elements import UIDropDownMenu, UIImage, UILabel, UIPanel, UITextBox, UITextEntryLine

from game.engine import registry
from game.engine.match import Match
from game.posses import PosseEntry, PosseFileError, buildable_rulesets, list_posses, load_posse
from game.rules import PosseSpec, get_ruleset
from game.ui import settings
from game.ui.dialogs import MessageDialog, problems_html
from game.ui.encounter_screen import EncounterSupport, Scenario
from game.ui.gui import GuiManager, Shell, TipButton
from game.ui.library import MAPS_DIR, MapInfo, inspect_map, list_maps, ruleset_title
from game.ui.map_thumbs import framed, map_thumbnail, zone_badge
from game.ui.posse_common import entry_label
from game.ui.scenes import Action, Pop, Push
from game.ui.seats import (
    HUMAN,
    SeatChoice,
    coarse,
    is_ai,
    personality_choices,
    seat_choices,
    seat_level,
    seat_personality,
    with_level,
    with_personality,
)
from game.ui.sheet import Column, Row, RowList, fit_text

__all__ = ["BattleSetup", "NewBattleScene", "rulesets", "seat_key"]

SEED_LIMIT: Final = 2**31
POSSE_SCREEN: Final = "game.ui.posse_screen"
DROP_ARROW: Final = 20  # the width of a drop-down's open button (pygame-gui's, not scaled by the theme)


def rulesets() -> list[tuple[str, str]]:
    """The rulesets to pick, as (id, title): every installed one whose posses can be built, in menu order."""
    return [(rid, registry.plugin(rid).title) for rid in buildable_rulesets()]


@dataclass(slots=True)
class BattleSetup:
    """Everything a battle is started from (and a rematch repeats)."""

    ruleset: str
    map_path: Path
    posses: list[PosseSpec]
    seed: int
    seats: dict[str, str] = field(default_factory=dict)  # side -> "human" / "ai:normal" (game.ui.seats)
    side_names: dict[str, str] = field(default_factory=dict)
    scenario: Scenario | None = None  # an encounter file's rules (game.ui.encounter_screen)


def new_seed() -> int:
    return secrets.randbelow(SEED_LIMIT - 1) + 1


def default_ruleset() -> str:
    """The first installed ruleset (the screen's pick when none is given)."""
    ids = registry.ruleset_ids()
    return ids[0] if ids else ""


# == the screen ====================================================================================


def seat_key(index: int, seat: str) -> str:
    """The name of side ``index``'s button for ``seat`` ("seat_1_human", "seat_1_ai_hard")."""
    return f"seat_{index}_{seat.replace(':', '_')}"


@dataclass(slots=True)
class _Side:
    posse: str = ""  # the chosen library posse's name
    seat: str = HUMAN  # who plays it: "human" or a computer player ("ai:normal")
    custom: PosseSpec | None = None  # a posse from the posse builder, not saved in the library

    def custom_label(self) -> str:
        return f"\u270e {self.custom.name} (this battle)" if self.custom is not None else ""


def posse_screen_available() -> bool:
    """Whether this version has the posse builder (the Edit\u2026 buttons are hidden without it)."""
    try:
        return importlib.util.find_spec(POSSE_SCREEN) is not None
    except (ImportError, ValueError):
        return False


class NewBattleScene(EncounterSupport):
    """See the module text. ``on_start(setup)`` gives the action that opens the battle."""

    heading = "New Battle"
    sheet_size = (1180, 700)

    def __init__(
        self,
        shell: Shell,
        *,
        on_start: Callable[[BattleSetup], Action | None],
        maps_dir: Path = MAPS_DIR,
        ruleset: str = "",
        map_name: str = "",
        seed: int | None = None,
        size: tuple[int, int] = settings.WINDOW_SIZE,
    ) -> None:
        self.on_start = on_start
        self.maps_dir = maps_dir
        self.ruleset = ruleset if ruleset in registry.ruleset_ids() else default_ruleset()
        self.all_maps: list[Path] = list_maps(maps_dir)
        self._infos: dict[Path, MapInfo] = {}
        self.maps: list[Path] = []
        self.map_index = 0
        self._list_maps(map_name)
        self.sides: list[_Side] = [_Side(), _Side()]
        self.seed_text = str(seed if seed is not None else new_seed())
        self.note = ""
        self.posse_entries: list[PosseEntry] = []
        self.buttons: dict[str, TipButton] = {}
        self.dropdowns: list[UIDropDownMenu] = []
        self.person_drops: dict[int, UIDropDownMenu] = {}  # an AI side's personality, by side index
        self.map_list: RowList | None = None
        self.seed_entry: UITextEntryLine | None = None
        self.thumbnail: UIImage | None = None
        self.note_label: UILabel | None = None
        self.wide = True  # the layout with room for labels beside the controls
        self.details: UITextBox | None = None
        self._shown_problems: set[Path] = set()
        super().__init__(shell, size)
        self._load_posses()

    # -- model
    def _list_maps(self, keep: str = "") -> None:
        """The maps that suit the ruleset (a map that cannot be read is listed for every ruleset, with its
        problems); the map called ``keep`` stays picked if it is still listed."""
        self.maps = [p for p in self.all_maps if self.map_info(p).suits(self.ruleset)]
        names = [p.stem for p in self.maps]
        self.map_index = names.index(keep) if keep in names else 0

    @property
    def current_map(self) -> Path | None:
        return self.maps[self.map_index] if self.maps else None

    def map_info(self, path: Path) -> MapInfo:
        info = self._infos.get(path)
        if info is None:
            info = self._infos[path] = inspect_map(path)
        return info

    @property
    def info(self) -> MapInfo | None:
        path = self.current_map
        return self.map_info(path) if path is not None else None

    def side_ids(self) -> list[str]:
        info = self.info
        sides = list(info.sides[:2]) if info is not None and len(info.sides) >= 2 else []
        return sides or ["side1", "side2"]

    def _load_posses(self) -> None:
        """The library's posses for the ruleset; each side keeps its pick if it is still there, else gets
        a default (side 1 the first built-in posse, side 2 the second)."""
        try:
            self.posse_entries = list_posses(self.ruleset)
        except PosseFileError:  # a ruleset the posse library cannot list: no posses to pick (Start says so)
            self.posse_entries = []
        usable = [e.name for e in self.posse_entries if e.error is None]
        builtin = [e.name for e in self.posse_entries if e.builtin]
        for i, side in enumerate(self.sides):
            if side.posse not in usable and side.custom is None:
                pool = builtin or usable
                side.posse = pool[min(i, len(pool) - 1)] if pool else ""

    def _fit_option(self, label: str, width: int) -> str:
        """A drop-down entry cut to ``width`` pixels: the posse's name gives way before " \u2014 4 units
        \u2022 saved", so what the entry says about the posse stays readable."""
        manager = self.manager
        font = manager.get_theme().get_font(["drop_down_menu.button"]) if manager is not None else None
        if font is None or font.size(label)[0] <= width:
            return label
        for sep in (" \u2014 ", " ("):
            name, found, rest = label.rpartition(sep)
            if found and name:
                tail = found + rest
                cut = fit_text(font, name, width - font.size(tail)[0])
                if cut.endswith("\u2026") and len(cut) > 1:
                    return cut + tail
        return fit_text(font, label, width)

    def posse_labels(self) -> list[str]:
        return [entry_label(e, short=not self.wide) for e in self.posse_entries]

    def side_options(self, index: int) -> list[str]:
        """The drop-down's entries for side ``index``: its builder-made posse first, then the library."""
        side = self.sides[index]
        custom = [side.custom_label()] if side.custom is not None else []
        return custom + self.posse_labels()

    def seed(self) -> int | None:
        text = self.seed_entry.get_text() if self.seed_entry is not None else self.seed_text
        text = text.strip()
        if not text.isdigit():
            return None
        value = int(text)
        return value if 0 <= value < SEED_LIMIT else None

    def start_problem(self) -> str | None:
        """Why Start cannot be pressed now, or None."""
        info = self.info
        if info is None:
            return f"no maps for {ruleset_title(self.ruleset)} found in {self.maps_dir}"
        if info.problems:
            return f"{info.title} has problems: fix them in Tiled (check-map lists them) or pick another map"
        if not info.playable:
            return f"{info.title} needs deploy zones for two sides"
        if not info.suits(self.ruleset):
            names = ", ".join(ruleset_title(r) for r in info.rulesets)
            return f"{info.title} is made for {names}, not {ruleset_title(self.ruleset)}"
        for i, side in enumerate(self.sides):
            if not side.posse and side.custom is None:
                return f"side {i + 1} has no posse: build one in the posse builder"
        if self.seed() is None:
            return f"the seed must be a whole number from 0 to {SEED_LIMIT - 1}"
        return None

    def setup(self) -> BattleSetup:
        """The battle as chosen (PosseFileError if a posse file went bad meanwhile)."""
        path = self.current_map
        info = self.info
        assert path is not None and info is not None
        sides = self.side_ids()
        posses = []
        for side_id, side in zip(sides, self.sides, strict=True):
            if side.custom is not None:
                posses.append(dataclasses.replace(side.custom, side=side_id, controller=coarse(side.seat)))
                continue
            draft = load_posse(self.ruleset, side.posse, side_id)
            posses.append(draft.spec(side=side_id, controller=coarse(side.seat)))
        names = [p.name or info.side_name(s) for p, s in zip(posses, sides, strict=True)]
        if len(set(names)) < len(names):
            names = [f"{n} ({info.side_name(s)})" for n, s in zip(names, sides, strict=True)]
        seed = self.seed()
        assert seed is not None
        return BattleSetup(
            ruleset=self.ruleset,
            map_path=path.resolve(),
            posses=posses,
            seed=seed,
            seats={s: side.seat for s, side in zip(sides, self.sides, strict=True)},
            side_names=dict(zip(sides, names, strict=True)),
            scenario=self.encounter_scenario(),
        )

    # -- layout
    def build_sheet(self, manager: GuiManager, panel: UIPanel) -> None:
        inner, pad = self.inner, self.pad
        self.buttons = {}
        self.dropdowns = []
        self.person_drops = {}
        top = self.content_top
        bar_h = self.px(46)
        body = pygame.Rect(pad, top, inner.width - 2 * pad, inner.height - top - bar_h - self.px(24))
        gap = self.px(26)
        self.wide = body.width >= self.px(900)
        left_w = round((body.width - gap) * (0.46 if self.wide else 0.43))  # room for the posses' names
        left = pygame.Rect(body.x, body.y, left_w, body.height)
        right = pygame.Rect(left.right + gap, body.y, body.width - left_w - gap, body.height)
        self._build_maps(manager, panel, left)
        self._build_rules(manager, panel, right)
        self._build_bar(panel, bar_h)

    def _build_maps(self, manager: GuiManager, panel: UIPanel, rect: pygame.Rect) -> None:
        self.section(rect, "The Battlefield")
        y = rect.y + self.px(34)
        rows = []
        for path in self.maps:
            info = self.map_info(path)
            size = f"{info.size[0]} \u00d7 {info.size[1]}" if info.size[0] else "\u2014"
            if info.problems:
                count = len(info.problems)
                size = f"{count} problem{'s' if count != 1 else ''}"
            cells = (info.title, size) if self.wide else (info.title,)
            tip = path.name if self.wide else f"{path.name}: {size}"
            rows.append(Row(cells, tooltip=tip, warning=bool(info.problems)))
        row_h = 32
        list_h = self.px(24) + self.px(row_h) * min(4, max(1, len(rows))) + self.px(4)
        self.map_list = RowList(
            self,
            pygame.Rect(rect.x, y, rect.width, list_h),
            panel,
            [Column("Map", 0.72), Column("Hexes", 0.28, "right")] if self.wide else [Column("Map", 1.0)],
            rows,
            on_select=self.pick_map,
            selected=self.map_index if self.maps else None,
            name="map",
            row_height=row_h,
            empty_text=f"No .tmx maps for {ruleset_title(self.ruleset)} in {self.maps_dir}",
        )
        y += list_h + self.px(10)
        remaining = rect.bottom - y
        current = self.info
        picture = map_thumbnail(current) if current is not None else None
        aspect = picture.get_width() / max(1, picture.get_height()) if picture is not None else 1.5
        desc_min = self.px(100) if self.wide else self.px(84)
        thumb_h = max(self.px(60), min(remaining - desc_min - self.px(8), round(rect.width / aspect) + 8))
        message = "the map cannot be drawn" if current is not None else "no map"
        frame = framed(picture, (rect.width, thumb_h), message)
        self.thumbnail = UIImage(
            pygame.Rect(rect.x, y, rect.width, thumb_h),
            frame,
            manager=manager,
            container=panel,
            object_id=ObjectID("#thumbnail"),
        )
        y += thumb_h + self.px(8)
        self.details = UITextBox(
            self._details_html(),
            pygame.Rect(rect.x, y, rect.width, rect.bottom - y),
            manager=manager,
            container=panel,
            object_id=ObjectID("#map_details", "@paper_text"),
        )

    def _details_html(self) -> str:
        info = self.info
        if info is None:
            return f"<i>No maps in {html.escape(str(self.maps_dir))}.</i>"
        parts = []
        if info.size[0]:
            facts = f"{info.size[0]} \u00d7 {info.size[1]} hexes, {info.orientation}"
            if info.rulesets:
                facts += " \u00b7 for " + " and ".join(ruleset_title(r) for r in info.rulesets)
            parts.append(f"<i>{html.escape(facts)}</i>")
        else:
            parts.append(f"<b>{html.escape(info.title)}</b>")
        if info.problems:
            count = len(info.problems)
            parts.append(
                f"<font color='#8C1E14'><b>{count} problem{'s' if count != 1 else ''}</b>: "
                f"{html.escape(info.problems[0].what)}</font>"
            )
        elif info.description:
            parts.append(html.escape(info.description))
        return "<br>".join(parts)

    def _build_rules(self, manager: GuiManager, panel: UIPanel, rect: pygame.Rect) -> None:
        self.section(rect, "Rules & Posses")
        y = rect.y + self.px(36)
        choices = rulesets()  # two a row: each title has the room "Through the Rift" needs
        cols = max(1, min(2, len(choices)))
        ai_rows = sum(1 for side in self.sides[: len(self.side_ids())] if seat_level(side.seat))
        # an AI side's personality is a row more: rows and gaps a little tighter when they would not fit
        sides = len(self.side_ids())
        rule_rows = (len(choices) + cols - 1) // cols
        needs = 36 * (rule_rows + 2 * sides + ai_rows + 1) + 6 * (rule_rows - 1) + 36 + 14 + (30 + 22) * sides
        tight = self.px(needs + 8 * ai_rows) > rect.height
        row_h = self.px(31 if tight else 36)
        row_gap = self.px(5 if tight else 8)
        label_w = min(round(rect.width * 0.27), self.px(112)) if self.wide else self.px(90)
        indent = self.px(12) if self.wide else 0  # a narrow column has no room to indent "Played by"
        control = pygame.Rect(rect.x + label_w, y, rect.width - label_w, row_h)
        rules = control if self.wide else pygame.Rect(rect.x, y, rect.width, row_h)
        rules_w = (rules.width - self.px(8) * (cols - 1)) // cols
        # more rulesets than one row holds, in a tight column: their rows are a little lower still
        squeeze = tight and rule_rows > 1
        rule_h = self.px(27) if squeeze else row_h
        rule_gap = self.px(3 if squeeze else 6)
        if self.wide:
            self.label(pygame.Rect(rect.x, y, label_w, row_h), "Ruleset")
        for i, (rid, title) in enumerate(choices):
            r, c = divmod(i, cols)
            button = self.button(
                pygame.Rect(
                    rules.x + c * (rules_w + self.px(8)), y + r * (rule_h + rule_gap), rules_w, rule_h
                ),
                title,
                lambda r=rid: self.pick_ruleset(r),  # type: ignore[misc]
                object_id=f"#ruleset_{rid}",
                class_id="@choice",
            )
            if rid == self.ruleset:
                button.set_selected(True)
            self.buttons[f"ruleset_{rid}"] = button
        y += (len(choices) - 1) // cols * (rule_h + rule_gap)
        y += rule_h + self.px(8 if squeeze else 14)
        shown = self.info
        edit_w = self.px(72) if self.wide else self.px(68)
        can_edit = posse_screen_available()
        for i, side_id in enumerate(self.side_ids()):
            side = self.sides[i]
            name = shown.side_name(side_id) if shown is not None else f"Side {i + 1}"
            chip = self.px(24)
            UIImage(
                pygame.Rect(rect.x, y + self.px(2), chip, chip),
                zone_badge(i, chip),
                manager=manager,
                container=panel,
                object_id=ObjectID(f"#zone_{i}"),
            )
            self.label(
                pygame.Rect(rect.x + chip + self.px(8), y, rect.width - chip - self.px(8), self.px(28)),
                f"{name} \u2014 deploys in zone {i + 1}" if self.wide else name,
                class_id="@subsection",
                object_id=f"#side_{i}_title",
            )
            y += self.px(30)
            if self.wide:
                self.label(pygame.Rect(rect.x + indent, y, label_w - indent, row_h), "Played by")
                seats = pygame.Rect(control.x, y, control.width, row_h)
            else:  # a narrow column: the whole width for the four choices (they say what they are)
                seats = pygame.Rect(rect.x, y, rect.width, row_h)
            self._build_seats(i, side, seats)
            y += row_h + row_gap
            if is_ai(side.seat) and seat_level(side.seat):
                self.label(
                    pygame.Rect(rect.x + indent, y, label_w - indent, row_h),
                    "AI plays as" if self.wide else "Plays as",
                )
                self._build_personality(i, side, pygame.Rect(control.x, y, control.width, row_h))
                y += row_h + row_gap
            self.label(pygame.Rect(rect.x + indent, y, label_w - indent, row_h), "Posse")
            drop_w = control.width - (edit_w + self.px(8) if can_edit else 0)
            current = side.custom_label() or next(
                (
                    entry_label(e, short=not self.wide)
                    for e in self.posse_entries
                    if e.name == side.posse and e.error is None
                ),
                None,
            )
            labels = self.side_options(i) or ["(no posse)"]
            # shown cut to the control (a long name gives way first), told apart by the whole label
            room = drop_w - DROP_ARROW - self.px(30)
            options: list[str | tuple[str, str]] = [(self._fit_option(t, room), t) for t in labels]
            chosen = current if current in labels else labels[0]
            dropdown = UIDropDownMenu(
                options,
                (self._fit_option(chosen, room), chosen),
                pygame.Rect(control.x, y, drop_w, row_h),
                manager=manager,
                container=panel,
                object_id=ObjectID(f"#posse_{i}"),
                expansion_height_limit=max(self.px(80), self.inner.height - y - row_h - self.px(70)),
            )
            self.dropdowns.append(dropdown)
            if can_edit:
                self.buttons[f"edit_{i}"] = self.button(
                    pygame.Rect(control.right - edit_w, y, edit_w, row_h),
                    "Edit\u2026",
                    lambda i=i: self.edit_posse(i),  # type: ignore[misc]
                    object_id=f"#edit_{i}",
                    tooltip="Open this posse in the posse builder",
                )
            y += row_h + (row_gap + self.px(4) if tight else self.px(14))
        self.label(pygame.Rect(rect.x, y, label_w, row_h), "Seed")
        roll_w = self.px(84)
        self.seed_entry = UITextEntryLine(
            pygame.Rect(control.x, y, control.width - roll_w - self.px(8), row_h),
            manager=manager,
            container=self.panel,
            object_id=ObjectID("#seed"),
            initial_text=self.seed_text,
        )
        self.seed_entry.set_allowed_characters("numbers")
        self.seed_entry.length_limit = 10
        self.buttons["roll"] = self.button(
            pygame.Rect(control.right - roll_w, y, roll_w, row_h),
            "Roll",
            self.roll_seed,
            object_id="#roll",
            tooltip="A new random seed (the same seed, posses and map replay the same dice)",
        )
        y += row_h + self.px(6)
        if not tight and y + self.px(40) <= rect.bottom:
            self.label(
                pygame.Rect(rect.x, y, rect.width, self.px(40)),
                "The seed decides every die and card; a replay uses the same one.",
                class_id="@fine_note",
            )

    def _build_seats(self, index: int, side: _Side, rect: pygame.Rect) -> None:
        """Who plays side ``index``, in ``rect``: [Human]  AI: [Easy] [Normal] [Hard] — a human, or the
        computer at one of its difficulties (the profile's summary is the button's tooltip)."""
        choices: list[SeatChoice] = seat_choices()
        gap = self.px(6)
        mark_w = self.px(34)  # the "AI:" before the difficulties
        manager = self.manager
        face = manager.get_theme().get_font(["button"]) if manager is not None else None
        texts = [c.label.removeprefix("AI: ") for c in choices]
        room = rect.width - mark_w - gap * len(choices)
        # each button as wide as its word needs, the room left shared out evenly
        needs = [(face.size(t)[0] if face is not None else 0) + self.px(18) for t in texts]
        spare = (room - sum(needs)) // len(needs)
        widths = [n + spare for n in needs] if spare >= 0 else [room // len(needs)] * len(needs)
        x = rect.x
        for j, (choice, text, width) in enumerate(zip(choices, texts, widths, strict=True)):
            if j == 1:
                self.label(
                    pygame.Rect(x, rect.y, mark_w, rect.height),
                    "AI:",
                    class_id="@subsection",
                    object_id=f"#seat_{index}_ai_mark",
                )
                x += mark_w + gap
            button = self.button(
                pygame.Rect(x, rect.y, width, rect.height),
                fit_text(face, text, width - self.px(12)) if face is not None else text,
                lambda i=index, s=choice.seat: self.pick_seat(i, s),  # type: ignore[misc]
                object_id=f"#{seat_key(index, choice.seat)}",
                class_id="@choice",
                tooltip=choice.tooltip,
            )
            button.tip_left = True  # below or above, the tooltip would cover a posse row and its Edit…
            if side.seat == choice.seat or (
                seat_level(choice.seat) and seat_level(choice.seat) == seat_level(side.seat)
            ):
                button.set_selected(True)
            self.buttons[seat_key(index, choice.seat)] = button
            x += width + gap

    def personality_options(self) -> list[SeatChoice]:
        """The personalities an AI seat may take in this ruleset ("by unit" first)."""
        title = dict(rulesets()).get(self.ruleset, "")
        return personality_choices(title)

    def _build_personality(self, index: int, side: _Side, rect: pygame.Rect) -> None:
        """An AI side's personality: by unit (each unit's kind decides, the AI's default) or one for all,
        each with what it weighs as its tooltip."""
        manager = self.manager
        assert manager is not None and self.panel is not None
        choices = self.personality_options()
        current = seat_personality(side.seat)
        chosen = next((c for c in choices if c.seat == current), choices[0])
        options: list[str | tuple[str, str]] = [(c.label, c.seat or "by_unit") for c in choices]
        drop = UIDropDownMenu(
            options,
            (chosen.label, chosen.seat or "by_unit"),
            rect,
            manager=manager,
            container=self.panel,
            object_id=ObjectID(f"#personality_{index}"),
            expansion_height_limit=max(self.px(80), self.inner.height - rect.bottom - self.px(70)),
        )
        button = getattr(drop.current_state, "selected_option_button", None)  # the closed menu's face
        if button is not None:
            button.set_tooltip(chosen.tooltip)
        self.person_drops[index] = drop

    def _build_bar(self, panel: UIPanel, bar_h: int) -> None:
        inner, pad = self.inner, self.pad
        bw = self.px(150)
        y = inner.height - bar_h - self.px(14)
        problem = self.start_problem()
        self.buttons["start"] = self.button(
            pygame.Rect(inner.width - pad - bw, y, bw, bar_h),
            "Start",
            self.start,
            object_id="#start",
            class_id="@primary",
            tooltip=problem or "Deal the cards and ride out (Enter)",
            enabled=problem is None,
            sound="card",
        )
        self.buttons["back"] = self.button(
            pygame.Rect(inner.width - pad - 2 * bw - self.px(12), y, bw, bar_h),
            "Back",
            lambda: self.act(Pop()),
            object_id="#back",
            tooltip="Back to the title (Esc)",
        )
        self.note_label = self.label(
            pygame.Rect(pad, y, inner.width - 2 * pad - 2 * bw - self.px(30), bar_h),
            self.note or (problem or ""),
            class_id="@note_left",
            object_id="#note",
        )
        self.build_encounter_buttons(y, bar_h)

    # -- changes
    def _sync(self) -> None:
        """Read the seed box into the model (the drop-downs report their changes by events)."""
        if self.seed_entry is not None and self.seed_entry.alive():  # type: ignore[no-untyped-call]
            self.seed_text = self.seed_entry.get_text()

    def _refresh(self) -> None:
        self._sync()
        self.rebuild()

    def pick_map(self, index: int) -> None:
        self._sync()
        self.map_index = index
        self.note = ""
        info = self.info
        self.rebuild()
        if info is not None and info.problems and info.path not in self._shown_problems:
            self._shown_problems.add(info.path)
            self.show_problems(info)

    def show_problems(self, info: MapInfo) -> None:
        count = len(info.problems)
        self.act(
            Push(
                MessageDialog(
                    self.shell,
                    f"{count} problem{'s' if count != 1 else ''} in {info.path.name}",
                    problems_html(info.problems)
                    + "<br><br><i>Fix the map in Tiled (hexslinger check-map lists the same), or pick "
                    "another map.</i>",
                    size=self.size,
                )
            )
        )

    def pick_ruleset(self, ruleset: str) -> None:
        if ruleset == self.ruleset:
            return
        self._sync()
        current = self.current_map
        self.ruleset = ruleset
        self._list_maps(current.stem if current is not None else "")
        offered = {c.seat for c in self.personality_options()}
        for side in self.sides:
            side.posse = ""
            side.custom = None
            if seat_personality(side.seat) not in offered:  # the other rulebook's: each unit by kind again
                side.seat = with_personality(side.seat, "")
        self._load_posses()
        self.note = ""
        self.rebuild()

    def pick_seat(self, index: int, seat: str) -> None:
        """A seat button: a human, or the AI at a difficulty (an AI side keeps its personality)."""
        self._sync()
        side = self.sides[index]
        level = seat_level(seat)
        side.seat = with_level(side.seat, level) if level and seat_level(side.seat) else seat
        self.rebuild()

    def pick_personality(self, index: int, person: str) -> None:
        """An AI side's personality ("" for each unit by its kind)."""
        self._sync()
        self.sides[index].seat = with_personality(self.sides[index].seat, person)
        self.rebuild()

    def roll_seed(self) -> None:
        self._sync()
        self.seed_text = str(new_seed())
        self.rebuild()

    def _posse_changed(self, index: int, text: str) -> None:
        labels = self.posse_labels()
        if text not in labels:
            return  # the side's own builder-made posse, or the placeholder
        entry = self.posse_entries[labels.index(text)]
        if entry.error is not None:
            self.act(
                Push(
                    MessageDialog(
                        self.shell,
                        "This posse cannot be used",
                        f"<b>{html.escape(entry.name)}</b>: "
                        + html.escape(entry.error).replace(" -- ", "<br><br><i>What to do:</i> "),
                        size=self.size,
                    )
                )
            )
            self.rebuild()  # back to the side's usable posse
            return
        self.sides[index].posse = entry.name
        self.sides[index].custom = None
        self.note = ""
        self._refresh()

    def edit_posse(self, index: int) -> None:
        """The posse builder, if this version has it, starting from the side's posse."""
        self._sync()
        try:
            module: Any = importlib.import_module(POSSE_SCREEN)
        except ImportError:
            return
        side_id = self.side_ids()[index]
        side = self.sides[index]
        spec: PosseSpec | None = side.custom
        if spec is None and side.posse:
            try:
                spec = load_posse(self.ruleset, side.posse, side_id).spec(side=side_id)
            except PosseFileError:
                spec = None

        def done(result: PosseSpec, name: str) -> Action | None:
            """The builder's Done: the posse fights this battle (saved in the library or not). A posse the
            library holds as it is (unchanged, or just saved) is picked there, not listed a second time."""
            built = dataclasses.replace(result, name=name or result.name)
            try:
                kept = load_posse(self.ruleset, built.name, side_id).spec(side=side_id)
            except PosseFileError:
                kept = None
            if kept is not None and dataclasses.replace(built, controller=kept.controller) == kept:
                side.custom, side.posse = None, kept.name
            else:
                side.custom = built
            return None  # the builder closes itself; revealed() refreshes this screen

        screen = module.PosseScreen(self.shell, self.ruleset, side_id, on_done=done, start=spec)
        self.act(Push(screen))

    def revealed(self) -> None:
        """Back from the posse builder or a message: the library may have changed."""
        self._sync()
        self._load_posses()
        self.rebuild()

    def start(self) -> None:
        self._sync()
        problem = self.start_problem()
        if problem is not None:
            self.set_note(problem)
            return
        try:
            setup = self.setup()
        except PosseFileError as error:
            self.set_note(f"{error.what} -- {error.fix}")
            return
        problems = Match.posse_problems(get_ruleset(setup.ruleset), setup.posses)
        if problems:  # the ruleset would refuse them: say why here rather than start
            self.set_note("; ".join(problems))
            return
        action = self.on_start(setup)
        if action is not None:
            self.act(action)

    def set_note(self, text: str) -> None:
        self.note = text
        if self.note_label is not None:
            self.note_label.set_text(text or " ")

    # -- events
    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if (
            event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED
            and event.ui_element in self.person_drops.values()
        ):
            index = next(i for i, d in self.person_drops.items() if d is event.ui_element)
            person = getattr(event, "selected_option_id", "") or ""
            self.pick_personality(index, "" if person == "by_unit" else person)
            return self._take()
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element in self.dropdowns:
            label = getattr(event, "selected_option_id", None) or event.text  # the whole label
            self._posse_changed(self.dropdowns.index(event.ui_element), label)
            return self._take()
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and event.ui_element is self.seed_entry:
            self.seed_text = self.seed_entry.get_text()
            start = self.buttons.get("start")
            if start is not None:
                problem = self.start_problem()
                start.set_enabled(problem is None)
                start.set_tooltip(problem or "Deal the cards and ride out (Enter)")
                self.set_note(problem or "")
            return None
        if event.type == pygame.KEYDOWN and not consumed:
            if event.key == pygame.K_ESCAPE:
                return Pop()
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and not (
                self.seed_entry is not None and self.seed_entry.is_focused
            ):
                self.start()
                return self._take()
        return None
