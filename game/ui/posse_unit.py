"""The posse builder's unit columns (:class:`UnitEditor`, the base of
:class:`~game.ui.posse_screen.PosseScreen`): the selected unit's name and fields, and the sheet summing the
unit up (a column of its own on a wide window, else a tab or under the choices).

What a unit has is its ruleset builder's (:class:`game.engine.builder.PosseBuilder`), read through the draft:
its field groups (one group is shown as it is, several as tabs, each tab with its to-do count: a Frontier
unit's weapon; a Rifter's attitude and level, weapons, talents and skills; nothing for a goon), each field
drawn by its layout ("list", "grid", "stepper", "checklist", "ranks"), a group's action as a button by its
heading, and the sheet's sections. Every option comes from ``draft.choices_for`` and is picked through the
screen's ``_choose``; the rules decide, this module only lays the options out.
"""

from __future__ import annotations

import math
from typing import Any, Final

import pygame
from pygame_gui.core import ObjectID
from pygame_gui.elements import UILabel, UIPanel, UIScrollingContainer, UITextBox, UITextEntryLine

from game.engine.builder import Choice, Field, FieldGroup, Todo
from game.posses import PosseDraft
from game.ui.gui import display_font
from game.ui.posse_common import (
    RED_INK,
    SCROLL_BAR,
    ChoiceButton,
    PosseScene,
    TokenPicture,
    esc,
    fit_text,
    same_name,
    tooltip_for,
)
from game.ui.tokens import TokenArt, icon_key, side_color

__all__ = ["GOON_TEXT", "NO_UNIT_TEXT", "Flow", "UnitEditor"]

NO_UNIT_TEXT: Final = "Recruit a unit from the list on the left, then pick its gear here."
GOON_TEXT: Final = "A goon comes as the rules make it: there is nothing to choose."
SHEET_TAB: Final = "sheet"  # the tab showing the unit's sheet when the window has no room for its column


class UnitEditor(PosseScene):
    """The selected unit's columns of the posse builder. The posse screen holds the state read here and
    does the picks (:meth:`_choose`, :meth:`_edit`, :meth:`show_tab`)."""

    draft: PosseDraft
    selected: int | None
    tab: str
    wide: bool
    widgets: dict[str, Any]
    tab_buttons: dict[str, ChoiceButton]
    choice_buttons: dict[tuple[str, str, str], ChoiceButton]
    _insets: list[pygame.Rect]

    def _choose(self, index: int | None, field: str, value: str, key: str = "") -> None:
        raise NotImplementedError

    def _edit(self, reason: str | None) -> None:
        raise NotImplementedError

    def show_tab(self, name: str) -> None:
        raise NotImplementedError

    def _unit_index(self) -> int | None:
        if self.selected is not None and 0 <= self.selected < len(self.draft.units):
            return self.selected
        return None

    def _inset(self, rect: pygame.Rect, origin: tuple[int, int]) -> None:
        self._insets.append(rect.move(origin).inflate(self.px(8), self.px(8)))

    def _caption(self, container: Any, rect: pygame.Rect, text: str, class_id: str = "@caption") -> UILabel:
        return UILabel(
            rect, text, manager=self.manager, container=container, object_id=ObjectID(None, class_id)
        )

    def _side_index(self) -> int:
        digits = "".join(c for c in self.draft.side if c.isdigit())
        return max(0, int(digits) - 1) if digits else 0

    def _token(self, i: int, diameter: int) -> pygame.Surface:
        """Unit ``i``'s token (the battle map's art) at ``diameter`` pixels."""
        unit = self.draft.units[i]
        side = self._side_index()
        return TokenArt.shared().token_surface(
            icon_key(unit.kind, self.draft.art(i)), side, side_color(side, self.draft.faction), diameter
        )

    # the selected unit
    def _build_unit(self, panel: UIPanel, middle: pygame.Rect, origin: tuple[int, int]) -> None:
        index = self._unit_index()
        draft = self.draft
        if index is None:
            box = UITextBox(
                f"<i>{esc(NO_UNIT_TEXT)}</i>",
                pygame.Rect(middle.x, middle.y, middle.width, self.px(60)),
                manager=self.manager,
                container=panel,
                object_id=ObjectID("#no_unit", "@fine_print"),
            )
            self.widgets["no_unit"] = box
            return
        unit = draft.units[index]
        row = self.px(32)
        y = middle.y
        cap_w = self.px(58)
        self._caption(panel, pygame.Rect(middle.x, y, cap_w, row), "Name")
        name_w = min(self.px(300), middle.width - cap_w - self.px(150))
        entry = UITextEntryLine(
            pygame.Rect(middle.x + cap_w, y, name_w, row),
            manager=self.manager,
            container=panel,
            object_id=ObjectID("#unit_name"),
            placeholder_text="Name this unit",
        )
        entry.set_text_length_limit(60)
        entry.set_text(unit.name)
        self.widgets["unit_name"] = entry
        kind_x = middle.x + cap_w + name_w + self.px(10)
        if not same_name(unit.name, draft.kind_label(index)):
            self._caption(
                panel,
                pygame.Rect(kind_x, y, middle.right - kind_x, row),
                draft.kind_label(index),
                "@fine_right",
            )
        y += row + self.px(10)
        groups = draft.groups(index)
        tabbed = len(groups) > 1  # one group is shown as it is, several as tabs
        if tabbed:
            tabs = [(g.id, *self._todo_tab(g.title, g.todo)) for g in groups]
            if not self.wide:
                tabs.append((SHEET_TAB, "Sheet", None))
            if self.tab not in {t[0] for t in tabs}:
                self.tab = groups[0].id
            tgap = self.px(4)
            widths = self._tab_widths([text for _, text, _ in tabs], middle.width - tgap * (len(tabs) - 1))
            for k, (name, text, tip) in enumerate(tabs):
                self.tab_buttons[name] = self.choice_button(
                    pygame.Rect(middle.x + sum(widths[:k]) + k * tgap, y, widths[k], self.px(34)),
                    text,
                    lambda n=name: self.show_tab(n),  # type: ignore[misc]
                    class_id="@tab",
                    object_id=f"#tab_{name}",
                    tooltip=tip,
                    selected=name == self.tab,
                    container=panel,
                )
            y += self.px(34)
        else:
            y += self.px(2)
        area = pygame.Rect(middle.x, y, middle.width, middle.bottom - y)
        self._inset(area, origin)
        content = self.scroller("fields", area, panel)
        flow = Flow(self, content, area.width - SCROLL_BAR - self.px(8))
        if tabbed:
            group = next((g for g in groups if g.id == self.tab), None)
            if group is None:
                flow.card()  # the Sheet tab
            else:
                self._group(flow, index, group)
        else:
            if groups:
                self._group(flow, index, groups[0])
                self._faction_limits(flow)
            else:
                flow.text(f"<i>{esc(GOON_TEXT)}</i>", "@fine_print")
            if not self.wide:
                flow.card()
        content.set_scrollable_area_dimensions((flow.width, max(1, flow.y)))

    def _tab_widths(self, texts: list[str], room: int) -> list[int]:
        """The tabs' widths in ``room`` pixels: each as wide as its name needs and the rest shared out
        evenly, so a long name ("Weapons") is not cut while a short one has room to spare; equal widths
        (names cut) only when the names cannot all fit."""
        font = self.font("@tab")
        equal = [room // len(texts)] * len(texts)
        if font is None:
            return equal
        need = [font.size(text)[0] + self.px(18) for text in texts]
        spare = room - sum(need)
        if spare < 0:
            return equal
        widths = [n + spare // len(texts) for n in need]
        widths[-1] += room - sum(widths)
        return widths

    @staticmethod
    def _todo_tab(title: str, todo: Todo | None) -> tuple[str, str | None]:
        """A tab's name with its to-do count, and the count in words as its tooltip."""
        if todo is None or todo.left == 0:
            return title, None
        if todo.left > 0:
            return f"{title} ({todo.left})", f"{todo.count()} still to choose"
        return f"{title} (\u2212{-todo.left})", f"{todo.count()} too many"

    def _group(self, flow: Flow, index: int, group: FieldGroup) -> None:
        """A group's fields, under its heading ("Weapons \u2014 carrying 2" and its action's button) if
        it has a status or an action, else each under its own label."""
        heading = bool(group.status) or group.action is not None
        if heading:
            action = group.action
            bw = self.px(150)
            title = f"{group.title} \u2014 {group.status}" if group.status else group.title
            flow.caption(title, right=bw + self.px(8) if action is not None else 0)
            if action is not None:
                self.widgets[action.id] = self.button(
                    pygame.Rect(flow.width - bw, flow.y - self.px(30), bw, self.px(28)),
                    action.label,
                    lambda: self._edit(self.draft.act(index, action.id)),
                    object_id=f"#{action.id}",
                    class_id="@choice",
                    tooltip=action.tip or None,
                    container=flow.container,
                )
        for field in group.fields:
            if not heading:
                flow.caption(field.label)
            if field.layout == "list":
                self._list_field(flow, index, field)
            elif field.layout == "stepper":
                self._stepper_field(flow, index, field)
            elif field.layout == "checklist":
                self._checklist_field(flow, index, field)
            elif field.layout == "ranks":
                self._ranks_field(flow, index, field)
            else:
                choices = self.draft.choices_for(index, field.id)
                self._grid(flow, index, field.id, choices, min_width=field.min_width, max_cols=field.columns)

    def _grid(
        self,
        flow: Flow,
        index: int | None,
        field: str,
        choices: list[Choice],
        *,
        min_width: int,
        key: str = "",
        max_cols: int = 4,
    ) -> None:
        if not choices:
            return
        cols = max(1, min(max_cols, len(choices), flow.width // self.px(min_width)))
        rows = math.ceil(len(choices) / cols)
        cols = math.ceil(len(choices) / rows)
        gap, height = self.px(6), self.px(32)
        bw = (flow.width - gap * (cols - 1)) // cols
        for k, choice in enumerate(choices):
            r, c = divmod(k, cols)
            rect = pygame.Rect(c * (bw + gap), flow.y + r * (height + gap), bw, height)
            self.choice_buttons[(field, key, choice.id)] = self.choice_button(
                rect,
                choice.label,
                lambda c=choice: self._choose(index, field, c.id, key),  # type: ignore[misc]
                object_id=f"#{field}",
                tooltip=tooltip_for(choice),
                enabled=choice.enabled,
                selected=choice.selected,
                container=flow.container,
            )
        flow.y += rows * (height + gap) + self.px(8)

    def _list_field(self, flow: Flow, index: int, field: Field) -> None:
        """One option a row, its detail (or the rules' reason) beside it: a Frontier unit's weapon."""
        choices = self.draft.choices_for(index, field.id)
        gap, height = self.px(8), self.px(36)
        bw = min(self.px(170), flow.width // 3)
        for choice in choices:
            self.choice_buttons[(field.id, "", choice.id)] = self.choice_button(
                pygame.Rect(0, flow.y, bw, height),
                choice.label,
                lambda c=choice: self._choose(index, field.id, c.id),  # type: ignore[misc]
                object_id=f"#{field.id}",
                tooltip=tooltip_for(choice),
                enabled=choice.enabled,
                selected=choice.selected,
                container=flow.container,
            )
            text = (
                esc(choice.detail)
                if choice.enabled
                else f"<font color='{RED_INK}'>{esc(choice.reason or '')}</font>"
            )
            box = UITextBox(
                text,
                pygame.Rect(bw + self.px(12), flow.y, flow.width - bw - self.px(12), -1),
                manager=self.manager,
                container=flow.container,
                object_id=ObjectID(f"#{field.id}_detail", "@detail"),
            )
            if box.rect.height < height:
                box.set_relative_position((box.relative_rect.x, flow.y + (height - box.rect.height) // 2))
            flow.y += max(height, box.rect.height) + gap
        flow.y += self.px(8)

    def _faction_limits(self, flow: Flow) -> None:
        """What the posse's faction allows, when the ruleset says (Frontier's unit limits)."""
        faction = next((c for c in self.draft.choices_for(None, "faction") if c.selected), None)
        if faction is not None and faction.detail:
            flow.caption(f"{faction.label}: the posse's limits")
            flow.text(esc(faction.detail), "@fine_print")

    def _stepper_field(self, flow: Flow, index: int, field: Field) -> None:
        """\u2212, the current option and +, its detail beside: a Rifter's level. The widgets are
        ``<field>_down``, ``<field>`` and ``<field>_up``."""
        options = self.draft.choices_for(index, field.id)
        if not options:
            return
        current = next((k for k, c in enumerate(options) if c.selected), 0)
        height, bw = self.px(32), self.px(44)
        down, up = f"{field.id}_down", f"{field.id}_up"
        for key, k, text in ((down, current - 1, "\u2212"), (up, current + 1, "+")):
            x = 0 if key == down else bw + self.px(120)
            choice = options[k] if 0 <= k < len(options) else None
            self.widgets[key] = self.choice_button(
                pygame.Rect(x, flow.y, bw, height),
                text,
                (lambda c=choice: self._choose(index, field.id, c.id)) if choice else None,  # type: ignore[misc]
                object_id=f"#{key}",
                tooltip=tooltip_for(choice) if choice else f"The rules have no such {field.label.lower()}.",
                enabled=choice is not None and choice.enabled,
                container=flow.container,
            )
        self.widgets[field.id] = self._caption(
            flow.container, pygame.Rect(bw, flow.y, self.px(120), height), options[current].label, "@level"
        )
        detail_x = 2 * bw + self.px(132)
        self._caption(
            flow.container,
            pygame.Rect(detail_x, flow.y, flow.width - detail_x, height),
            options[current].detail,
            "@fine",
        )
        flow.y += height + self.px(14)

    def _checklist_field(self, flow: Flow, index: int, field: Field) -> None:
        """Toggles in one or two columns, each option's detail beside it: a Rifter's weapons."""
        choices = self.draft.choices_for(index, field.id)
        # the numbers beside each option must fit at any UI scale: the buttons give way, then the columns
        fine = display_font(max(8, self.px(14)), bold=False, italic=True)
        widest = max((fine.size(c.detail)[0] for c in choices if c.detail), default=0) + self.px(14)
        cols = 2 if flow.width >= self.px(560) else 1
        colw = (flow.width - self.px(16) * (cols - 1)) // cols
        if cols == 2 and colw - widest < self.px(170):
            cols, colw = 1, flow.width
        gap, height = self.px(6), self.px(32)
        bw = max(self.px(120), min(round(colw * 0.68), colw - widest))
        for k, choice in enumerate(choices):
            r, c = divmod(k, cols)
            x = c * (colw + self.px(16))
            y = flow.y + r * (height + gap)
            self.choice_buttons[(field.id, "", choice.id)] = self.choice_button(
                pygame.Rect(x, y, bw, height),
                choice.label,
                lambda c=choice: self._choose(index, field.id, c.id),  # type: ignore[misc]
                object_id=f"#{field.id}",
                tooltip=tooltip_for(choice),
                enabled=choice.enabled,
                selected=choice.selected,
                container=flow.container,
            )
            self._caption(
                flow.container,
                pygame.Rect(x + bw + self.px(8), y, colw - bw - self.px(8), height),
                choice.detail,
                "@fine",
            )
        flow.y += math.ceil(len(choices) / cols) * (height + gap) + self.px(6)

    def _ranks_field(self, flow: Flow, index: int, field: Field) -> None:
        """A row per key, its name and its options in a line: a Rifter's skill ranks."""
        draft = self.draft
        height, gap = self.px(30), self.px(4)
        for key, name in draft.keys(index, field.id):
            ranks = draft.choices_for(index, field.id, key)
            rw = self.px(38)
            label_w = max(self.px(120), flow.width - len(ranks) * (rw + self.px(4)))
            self._caption(flow.container, pygame.Rect(0, flow.y, label_w, height), name, "@fine")
            for k, choice in enumerate(ranks):
                self.choice_buttons[(field.id, key, choice.id)] = self.choice_button(
                    pygame.Rect(label_w + k * (rw + self.px(4)), flow.y, rw, height),
                    choice.label,
                    lambda c=choice, s=key: self._choose(index, field.id, c.id, s),  # type: ignore[misc]
                    object_id=f"#{field.id}",
                    tooltip=tooltip_for(choice),
                    enabled=choice.enabled,
                    selected=choice.selected,
                    container=flow.container,
                )
            flow.y += height + gap

    # the sheet
    def _card_html(self, index: int | None) -> str:
        """The unit's sheet as its builder sums it up, section by section, then its problems."""
        draft = self.draft
        sheet = draft.sheet(index) if index is not None else None
        if index is None or sheet is None:
            return f"<i>{esc(NO_UNIT_TEXT)}</i>"
        lines: list[str] = []
        for k, section in enumerate(sheet.sections):
            if k:
                lines.append("")
            lines.append(f"<b>{esc(section.title)}</b>")
            lines += [esc(line) for line in section.lines]
            lines += [f"\u2022 {esc(label)}  <i>{esc(detail)}</i>" for label, detail in section.items]
            if not section.lines and not section.items and section.empty:
                lines.append(f"<i>{esc(section.empty)}</i>")
        problems = draft.unit_problems(index)
        if problems:
            lines.append("")
            lines += [f"<font color='{RED_INK}'>\u2022 {esc(p)}</font>" for p in problems]
        return "<br>".join(lines)

    def _card_kind(self, index: int) -> str:
        """The line under a unit's name on its sheet (its kind; a Rifter's attitudes and level)."""
        sheet = self.draft.sheet(index)
        return sheet.subtitle if sheet is not None else self.draft.kind_label(index)

    def _build_card(self, container: Any, x: int, y: int, width: int, height: int | None) -> int:
        """The selected unit's sheet at (x, y): its token, name and kind over what it has (height None:
        as tall as its text). Returns its bottom."""
        index = self._unit_index()
        head = self.px(84)
        if index is not None:
            d = self.px(64)
            TokenPicture(
                pygame.Rect(x + self.px(10), y + self.px(10), d, d),
                self._token(index, d),
                manager=self.manager,
                container=container,
                starting_height=3,
            )
            text_x = x + d + self.px(22)
            self.widgets["card_name"] = self._caption(
                container,
                pygame.Rect(text_x, y + self.px(12), width - (text_x - x) - self.px(6), self.px(30)),
                self.draft.units[index].name or self.draft.kind_label(index),
                "@card_name",
            )
            kind = self._card_kind(index)
            self._caption(
                container,
                pygame.Rect(text_x, y + self.px(44), width - (text_x - x) - self.px(6), self.px(24)),
                fit_text(self.font("@fine"), kind, width - (text_x - x) - self.px(10)),
                "@fine",
            )
        else:
            head = 0
        body = UITextBox(
            self._card_html(index),
            pygame.Rect(x, y + head, width, -1 if height is None else height - head),
            manager=self.manager,
            container=container,
            object_id=ObjectID("#card", "@card_body"),
        )
        self.widgets["card"] = body
        return int(body.relative_rect.bottom)


class Flow:
    """Widgets placed one under another in a scrolling container (``y`` grows)."""

    def __init__(self, scene: UnitEditor, container: UIScrollingContainer, width: int) -> None:
        self.scene = scene
        self.container = container
        self.width = width
        self.y = scene.px(4)

    def caption(self, text: str, right: int = 0) -> None:
        px = self.scene.px
        UILabel(
            pygame.Rect(0, self.y, self.width - right, px(28)),
            text,
            manager=self.scene.manager,
            container=self.container,
            object_id=ObjectID(None, "@caption"),
        )
        self.y += px(32)

    def text(self, html_text: str, class_id: str) -> UITextBox:
        box = UITextBox(
            html_text,
            pygame.Rect(0, self.y, self.width, -1),
            manager=self.scene.manager,
            container=self.container,
            object_id=ObjectID(None, class_id),
        )
        self.y += box.rect.height + self.scene.px(8)
        return box

    def card(self) -> None:
        """The selected unit's sheet, full width."""
        self.y = self.scene._build_card(self.container, 0, self.y, self.width, None) + self.scene.px(8)
