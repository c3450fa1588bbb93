"""The posse builder: a posse of one ruleset built unit by unit, every choice checked by the rules.

The screen draws :class:`game.posses.PosseDraft` and decides no rule. Each option comes from
``draft.choices_for``; one the rules refuse is shown greyed with the rules' reason as its tooltip (a
:class:`ChoiceButton` shows its tooltip while disabled or selected). Layout, left to right:

- the posse: its name, its faction, its units (click one to edit it; Remove), and the unit kinds to
  recruit (a kind the rules refuse says why);
- the selected unit: its name and its fields, as its ruleset's builder groups them (several groups are
  tabs, each with its to-do count). A Frontier unit picks its weapon; a Through the Rift Rifter has tabs
  for attitude and level (second attitude, level-7 pick), weapons, talents and skills (ranks, points left,
  Auto); a goon has nothing to choose;
- on a wide window, a sheet summing the unit up (on a narrow one it is a tab or follows the choices);
- along the bottom, the posse's problems in the rules' words ("Ready to fight" when none), and Load,
  Save, Back and Done (only when nothing is wrong; calls ``on_done(spec, name)``).

Saved posses live in the library (:mod:`game.posses`): Save writes the draft under the name typed (a
clash with another saved posse asks first), Load opens :class:`~game.ui.posse_load.LoadPosseScene` over the
builder, listing the saved and built-in posses of the ruleset; a file that cannot be used is listed with
its error and cannot be picked. Every library failure is a sentence on the screen, never a traceback.

This module lays the screen out and holds the posse column, the bottom bar, the edits, the library and
leaving; the unit columns and the sheet are :class:`~game.ui.posse_unit.UnitEditor`'s (its base class),
the theme and shared widgets :mod:`game.ui.posse_common`'s.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Final

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.elements import UILabel, UIPanel, UITextBox, UITextEntryLine

from game.posses import (
    DraftError,
    PosseDraft,
    PosseEntry,
    PosseFileError,
    list_posses,
    load_posse,
    read_posse_file,
    save_posse,
)
from game.rules import PosseSpec
from game.ui.backdrop import draw_backdrop, draw_ornament, draw_parchment
from game.ui.gui import GuiManager, Shell
from game.ui.posse_common import (
    CARD_FILL,
    GREEN_INK,
    INSET_EDGE,
    INSET_FILL,
    RED_INK,
    RULE,
    SCROLL_BAR,
    ChoiceButton,
    TokenPicture,
    esc,
    fit_text,
    same_name,
    tooltip_for,
)
from game.ui.posse_load import LoadPosseScene
from game.ui.posse_unit import UnitEditor
from game.ui.scenes import Action, Pop, Push

__all__ = ["READY", "UNSAVED_NOTE", "ChoiceButton", "LoadPosseScene", "OnDone", "PosseScreen"]

OnDone = Callable[[PosseSpec, str], Action | None]

READY: Final = "Ready to fight"
UNSAVED_NOTE: Final = "This posse has unsaved changes: Save it, or press Back again to leave without it."


class PosseScreen(UnitEditor):
    """The posse builder for ``ruleset_name`` (a ruleset of the registry with a builder), the posse fighting
    on ``side``.

    ``start``: a posse to begin with (else an empty one). Done calls ``on_done(spec, name)`` and does the
    action it returns (None, or no ``on_done``: the builder closes with Pop).
    """

    def __init__(
        self,
        shell: Shell,
        ruleset_name: str,
        side: str = "side1",
        *,
        on_done: OnDone | None = None,
        start: PosseSpec | None = None,
    ) -> None:
        super().__init__(shell)
        self.ruleset = ruleset_name
        self.side = side
        self.on_done = on_done
        self.note = ""
        self.draft = PosseDraft(ruleset_name, side)
        if start is not None:
            try:
                draft = PosseDraft.from_spec(ruleset_name, start)
            except DraftError as error:
                self.note = f"The posse given could not be opened ({error}); starting afresh."
            else:
                draft.side = side
                self.draft = draft
        self.selected: int | None = 0 if self.draft.units else None
        self.tab = ""  # the unit's field group shown (its first, until another tab is picked)
        self.origin: str | None = None  # the saved posse this one was loaded from or last saved as
        self._clean = self.draft.to_json()
        self._warned_unsaved = False
        self._replace_asked: str | None = None
        self.widgets: dict[str, Any] = {}
        self.unit_buttons: list[ChoiceButton] = []
        self.kind_buttons: dict[str, ChoiceButton] = {}
        self.faction_buttons: dict[str, ChoiceButton] = {}
        self.tab_buttons: dict[str, ChoiceButton] = {}
        self.choice_buttons: dict[tuple[str, str, str], ChoiceButton] = {}
        self._backdrop: pygame.Surface | None = None
        self._sheet = pygame.Rect(0, 0, 1, 1)
        self._insets: list[pygame.Rect] = []
        self._cards: list[pygame.Rect] = []  # the unit's sheet: paper drawn under its widgets
        self._rules: list[tuple[int, int, int]] = []  # vertical dividers (x, top, bottom)
        self._ornament = (0, 0, 1)  # centre x, y and half width of the rule under the heading
        self.wide = True

    # -- state -----------------------------------------------------------------------------------------
    @property
    def dirty(self) -> bool:
        return self.draft.to_json() != self._clean

    @property
    def problems(self) -> list[str]:
        return self.draft.problems()

    def _changed(self, note: str = "") -> None:
        self._warned_unsaved = False
        self._replace_asked = None
        self.note = note
        self.rebuild_keeping_scroll()

    def set_note(self, text: str) -> None:
        self.note = text
        label = self.widgets.get("note")
        if isinstance(label, UILabel):
            label.set_text(text or " ")

    # -- layout ----------------------------------------------------------------------------------------
    def build(self, manager: GuiManager) -> None:
        self.theme(manager)
        self._backdrop = None
        self.widgets = {}
        self.unit_buttons = []
        self.kind_buttons = {}
        self.faction_buttons = {}
        self.tab_buttons = {}
        self.choice_buttons = {}
        self._insets = []
        self._cards = []
        self._rules = []
        w, h = self.size
        margin, frame = self.px(10), self.px(8)
        self._sheet = sheet = pygame.Rect(margin, margin, w - 2 * margin, h - 2 * margin)
        panel = UIPanel(sheet.inflate(-2 * frame, -2 * frame), manager=manager, object_id=ObjectID("#sheet"))
        self.widgets["panel"] = panel
        origin = panel.get_container().get_rect().topleft
        iw = panel.get_container().get_rect().width
        ih = panel.get_container().get_rect().height
        pad = self.px(16)
        UILabel(
            pygame.Rect(pad, self.px(2), iw - 2 * pad, self.px(46)),
            f"Posse Builder \u2014 {self.draft.title}",
            manager=manager,
            container=panel,
            object_id=ObjectID("#heading", "@heading"),
        )
        body_top = self.px(64)
        bar_h = self.px(64)
        bar_y = ih - bar_h - self.px(8)
        note_h = self.px(24)
        body = pygame.Rect(pad, body_top, iw - 2 * pad, bar_y - note_h - self.px(8) - body_top)
        gap = self.px(14)
        left_w = max(self.px(218), min(self.px(300), round(body.width * 0.27)))
        left = pygame.Rect(body.x, body.y, left_w, body.height)
        rest = pygame.Rect(
            left.right + gap + self.px(6), body.y, body.right - left.right - gap - self.px(6), 0
        )
        rest.height = body.height
        self.wide = rest.width >= self.px(780)
        card: pygame.Rect | None = None
        middle = rest
        if self.wide:
            card_w = max(self.px(260), min(self.px(380), round(rest.width * 0.36)))
            middle = pygame.Rect(rest.x, rest.y, rest.width - card_w - gap, rest.height)
            card = pygame.Rect(middle.right + gap, rest.y, card_w, rest.height)
        divider_x = origin[0] + left.right + (gap + self.px(6)) // 2
        self._rules.append((divider_x, origin[1] + body.y, origin[1] + body.bottom))
        self._build_posse(panel, left, origin)
        self._build_unit(panel, middle, origin)
        if card is not None:
            self._cards.append(card.move(origin))
            self._build_card(panel, card.x, card.y, card.width, card.height)
        self._build_bar(panel, pygame.Rect(pad, bar_y, iw - 2 * pad, bar_h), note_h)
        self._ornament = (origin[0] + iw // 2, origin[1] + self.px(52), min(self.px(260), iw // 3))

    # the posse: name, faction, units, recruits
    def _build_posse(self, panel: UIPanel, left: pygame.Rect, origin: tuple[int, int]) -> None:
        manager = self.manager
        draft = self.draft
        row = self.px(32)
        y = left.y
        cap_w = self.px(58)
        self._caption(panel, pygame.Rect(left.x, y, cap_w, row), "Name")
        entry = UITextEntryLine(
            pygame.Rect(left.x + cap_w, y, left.width - cap_w, row),
            manager=manager,
            container=panel,
            object_id=ObjectID("#posse_name"),
            placeholder_text="Name the posse",
        )
        entry.set_text_length_limit(60)
        entry.set_text(draft.name)
        self.widgets["posse_name"] = entry
        y += row + self.px(8)
        factions = draft.choices_for(None, "faction")
        fgap = self.px(6)
        fw = (left.width - fgap * (len(factions) - 1)) // max(1, len(factions))
        for k, choice in enumerate(factions):
            self.faction_buttons[choice.id] = self.choice_button(
                pygame.Rect(left.x + k * (fw + fgap), y, fw, row),
                choice.label,
                lambda c=choice: self._choose(None, "faction", c.id),  # type: ignore[misc]
                object_id="#faction",
                tooltip=tooltip_for(choice),
                enabled=choice.enabled,
                selected=choice.selected,
                container=panel,
            )
        y += row + self.px(10)

        # the units under a caption with Remove, the recruits at the bottom of the column
        kinds = draft.choices_for(None, "add")
        cols = 2 if left.width >= self.px(200) else 1
        kind_h, kind_step = self.px(30), self.px(34)
        rows = math.ceil(len(kinds) / cols)
        cap_h = self.px(28)
        need = rows * kind_step - (kind_step - kind_h)
        room = left.bottom - y - 2 * cap_h - self.px(24)
        recruit_h = min(need, max(kind_step * 2 - (kind_step - kind_h), room // 2))
        recruit_top = left.bottom - recruit_h
        units_top = y + cap_h + self.px(4)
        units_h = recruit_top - cap_h - self.px(12) - units_top

        count = len(draft.units)
        fielded = sum(len(draft.fielded(i)) for i in range(count))
        extra = f", {fielded} on the field" if fielded != count else ""
        remove_w = self.px(86)
        self._caption(
            panel, pygame.Rect(left.x, y, left.width - remove_w, cap_h), f"The posse ({count}{extra})"
        )
        index = self._unit_index()
        self.widgets["remove"] = self.choice_button(
            pygame.Rect(left.right - remove_w, y, remove_w, cap_h),
            "Remove",
            self.remove_selected,
            object_id="#remove",
            enabled=index is not None,
            tooltip=(
                f"Take {esc(draft.units[index].name)} out of the posse."
                if index is not None
                else "Pick a unit of the posse first."
            ),
            container=panel,
        )
        units = self.scroller("unit_list", pygame.Rect(left.x, units_top, left.width, units_h), panel)
        self._inset(pygame.Rect(left.x, units_top, left.width, units_h), origin)
        step, height = self.px(38), self.px(34)
        width = left.width - (SCROLL_BAR if count * step > units_h else 0)
        for i in range(count):
            self.unit_buttons.append(
                self.choice_button(
                    pygame.Rect(0, i * step, width, height),
                    self._unit_text(i),
                    lambda i=i: self.select(i),  # type: ignore[misc]
                    class_id="@unit_row",
                    object_id="#unit",
                    tooltip=self._unit_tip(i),
                    selected=i == self.selected,
                    container=units,
                    inset=self.px(30),
                )
            )
            d = height - self.px(6)
            TokenPicture(
                pygame.Rect(self.px(5), i * step + (height - d) // 2, d, d),
                self._token(i, d),
                manager=manager,
                container=units,
                starting_height=3,
            )
        if not count:
            self._caption(
                units, pygame.Rect(self.px(8), 0, width - self.px(16), height), "No units yet.", "@fine"
            )
        units.set_scrollable_area_dimensions((width, max(1, count * step - (step - height))))
        self._caption(
            panel, pygame.Rect(left.x, recruit_top - cap_h - self.px(6), left.width, cap_h), "Recruit"
        )
        recruits = self.scroller(
            "recruit_list", pygame.Rect(left.x, recruit_top, left.width, recruit_h), panel
        )
        self._inset(pygame.Rect(left.x, recruit_top, left.width, recruit_h), origin)
        width = left.width - (SCROLL_BAR if need > recruit_h else 0)
        kgap = self.px(6)
        kw = (width - kgap * (cols - 1)) // cols
        for k, choice in enumerate(kinds):
            r, c = divmod(k, cols)
            self.kind_buttons[choice.id] = self.choice_button(
                pygame.Rect(c * (kw + kgap), r * kind_step, kw, kind_h),
                f"+ {choice.label}",
                lambda c=choice: self._choose(None, "add", c.id),  # type: ignore[misc]
                object_id="#recruit",
                tooltip=tooltip_for(choice),
                enabled=choice.enabled,
                container=recruits,
            )
        recruits.set_scrollable_area_dimensions((width, max(1, need)))

    def _unit_text(self, i: int) -> str:
        return self.draft.summary(i)

    def _unit_tip(self, i: int) -> str:
        draft = self.draft
        parts = [f"<b>{esc(draft.units[i].name)}</b>, {esc(draft.kind_label(i))}"]
        parts += [f"\u2022 {esc(p)}" for p in draft.unit_problems(i)]
        return "<br>".join(parts)

    # the bottom bar
    def _build_bar(self, panel: UIPanel, bar: pygame.Rect, note_h: int) -> None:
        self.widgets["note"] = UILabel(
            pygame.Rect(bar.x, bar.y - note_h - self.px(4), bar.width, note_h),
            self.note or " ",
            manager=self.manager,
            container=panel,
            object_id=ObjectID("#note", "@note"),
        )
        bw, bh, gap = self.px(104), self.px(42), self.px(8)
        names = ("load", "save", "back", "done")
        buttons_w = len(names) * bw + (len(names) - 1) * gap
        box_w = bar.width - buttons_w - self.px(14)
        self.widgets["problems"] = UITextBox(
            self._problems_html(),
            pygame.Rect(bar.x, bar.y, box_w, bar.height),
            manager=self.manager,
            container=panel,
            object_id=ObjectID("#problems", "@problems"),
        )
        problems = self.problems
        x = bar.right - buttons_w
        y = bar.y + (bar.height - bh) // 2
        specs: list[tuple[str, str, Callable[[], None], bool, str | None]] = [
            ("load", "Load", self.open_load, True, "Pick a saved or built-in posse of these rules."),
            ("save", "Save", self.save, True, "Keep this posse under the name typed at the top left."),
            ("back", "Back", self.back, True, None),
            (
                "done",
                "Done",
                self.done,
                not problems,
                "Take this posse into the fight." if not problems else "First fix what is listed here.",
            ),
        ]
        for k, (name, text, command, enabled, tip) in enumerate(specs):
            self.widgets[name] = self.button(
                pygame.Rect(x + k * (bw + gap), y, bw, bh),
                text,
                command,
                object_id=f"#{name}",
                tooltip=tip,
                enabled=enabled,
                container=panel,
            )

    def _problems_html(self) -> str:
        problems = self.problems
        if not problems:
            count = len(self.draft.units)
            return (
                f"<font color='{GREEN_INK}'><b>{READY}.</b></font> {count} unit{'s' if count != 1 else ''}."
            )
        return "<br>".join(f"<font color='{RED_INK}'>\u2022</font> {esc(p)}" for p in problems)

    # -- edits -----------------------------------------------------------------------------------------
    def _choose(self, index: int | None, field: str, value: str, key: str = "") -> None:
        reason = self.draft.choose(index, field, value, key)
        if reason is not None:
            self.set_note(f"Not allowed: {reason}")
            return
        if field == "add":
            self.selected = len(self.draft.units) - 1
        self._changed()

    def _edit(self, reason: str | None) -> None:
        if reason is not None:
            self.set_note(reason)
        else:
            self._changed()

    def select(self, index: int) -> None:
        self.selected = index
        self.rebuild_keeping_scroll()

    def show_tab(self, name: str) -> None:
        self.tab = name
        self.scrollers.pop("fields", None)
        self.rebuild_keeping_scroll()

    def remove_selected(self) -> None:
        index = self._unit_index()
        if index is None:
            return
        name = self.draft.units[index].name
        self.draft.remove_unit(index)
        count = len(self.draft.units)
        self.selected = min(index, count - 1) if count else None
        self._changed(f"{name} left the posse.")

    def _rename(self, text: str, unit: bool) -> None:
        index = self._unit_index()
        if unit and index is not None:
            problem = self.draft.set_name(index, text)
            if problem is None and index < len(self.unit_buttons):
                button = self.unit_buttons[index]
                button.set_text(
                    fit_text(self.font("@unit_row"), self._unit_text(index), button.rect.width - self.px(48))
                )
                name = self.widgets.get("card_name")
                if isinstance(name, UILabel):
                    name.set_text(text or " ")
        else:
            problem = self.draft.set_posse_name(text)
        self._replace_asked = None
        self.set_note(problem or "")
        self._refresh_problems()

    def _refresh_problems(self) -> None:
        box = self.widgets.get("problems")
        if isinstance(box, UITextBox):
            box.set_text(self._problems_html())

    # -- library ---------------------------------------------------------------------------------------
    def save(self) -> None:
        name = self.draft.name.strip()
        clash = (
            name
            and not (self.origin is not None and same_name(self.origin, name))
            and not (self._replace_asked is not None and same_name(self._replace_asked, name))
            and any(not e.builtin and same_name(e.name, name) for e in self._entries())
        )
        if clash:
            self._replace_asked = name
            self.set_note(f"A saved posse is already called \u201c{name}\u201d: Save again to replace it.")
            return
        try:
            path = save_posse(self.draft, name)
        except PosseFileError as error:
            self.set_note(f"Not saved: {error.what} \u2014 {error.fix}.")
            return
        except OSError as error:
            self.set_note(f"Not saved: {error.strerror or error}.")
            return
        self.origin = self.draft.name
        self._clean = self.draft.to_json()
        self._replace_asked = None
        self._warned_unsaved = False
        entry = self.widgets.get("posse_name")
        if isinstance(entry, UITextEntryLine) and entry.get_text() != self.draft.name:
            entry.set_text(self.draft.name)
        self.set_note(f"Saved \u201c{self.draft.name}\u201d to {path}")

    def _entries(self) -> list[PosseEntry]:
        try:
            return list_posses(self.ruleset)
        except (PosseFileError, OSError):
            return []

    def open_load(self) -> None:
        self.act(Push(LoadPosseScene(self.shell, self.ruleset, self.load_entry, title=self.draft.title)))

    def load_entry(self, entry: PosseEntry) -> str | None:
        """Make ``entry`` the posse being built; the reason it cannot be, if it cannot."""
        if entry.error is not None:
            return entry.error
        try:
            if entry.path is not None:
                draft = read_posse_file(entry.path, self.ruleset, self.side)
            else:
                draft = load_posse(self.ruleset, entry.name, self.side)
        except PosseFileError as error:
            return f"{error.what} \u2014 {error.fix}"
        except (OSError, DraftError) as error:
            return str(error)
        self.draft = draft
        self.origin = None if entry.builtin else draft.name
        self._clean = draft.to_json()
        self.selected = 0 if draft.units else None
        self.scrollers = {}
        self._warned_unsaved = False
        self._replace_asked = None
        self.note = f"Loaded \u201c{draft.name}\u201d ({len(draft.units)} units)."
        self.rebuild()
        return None

    # -- leaving ---------------------------------------------------------------------------------------
    def back(self) -> None:
        if self.dirty and not self._warned_unsaved:
            self._warned_unsaved = True
            self.set_note(UNSAVED_NOTE)
            return
        self.act(Pop())

    def done(self) -> None:
        problems = self.problems
        if problems:
            self.set_note(f"Not yet: {problems[0]}")
            return
        name = self.draft.name.strip()
        if not name:
            name = next((c.label for c in self.draft.choices_for(None, "faction") if c.selected), "Posse")
        spec = replace(self.draft.spec(), name=name)
        action = self.on_done(spec, name) if self.on_done is not None else None
        self.act(action if action is not None else Pop())

    # -- events ----------------------------------------------------------------------------------------
    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED:
            if event.ui_element is self.widgets.get("posse_name"):
                self._rename(event.text, unit=False)
            elif event.ui_element is self.widgets.get("unit_name"):
                self._rename(event.text, unit=True)
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.back()
            return self._take()
        return None

    def resize(self, size: tuple[int, int]) -> None:
        super().resize(size)
        self._backdrop = None

    # -- drawing ---------------------------------------------------------------------------------------
    def draw_background(self, surface: pygame.Surface) -> None:
        if self._backdrop is None or self._backdrop.get_size() != self.size:
            self._backdrop = draw_backdrop(self.size, dim=0.45)
            draw_parchment(self._backdrop, self._sheet, frame=self.px(8))
            x, y, half = self._ornament
            draw_ornament(self._backdrop, (x, y), half, RULE)
            for rect in self._insets:
                inset = pygame.Surface(rect.size, pygame.SRCALPHA)
                pygame.draw.rect(inset, INSET_FILL, inset.get_rect(), border_radius=self.px(6))
                self._backdrop.blit(inset, rect.topleft)
                pygame.draw.rect(self._backdrop, INSET_EDGE, rect, 1, border_radius=self.px(6))
            for rect in self._cards:
                pygame.draw.rect(self._backdrop, CARD_FILL, rect, border_radius=self.px(5))
                pygame.draw.rect(self._backdrop, INSET_EDGE, rect, 2, border_radius=self.px(5))
                pygame.draw.rect(self._backdrop, INSET_FILL, rect.inflate(-self.px(8), -self.px(8)), 1)
            for x, top, bottom in self._rules:
                pygame.draw.line(self._backdrop, RULE, (x, top), (x, bottom), 1)
        surface.blit(self._backdrop, (0, 0))
