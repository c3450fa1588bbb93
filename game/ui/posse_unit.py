"""The posse builder's unit columns (:class:`UnitEditor`, the base of
:class:`~game.ui.posse_screen.PosseScreen`): the selected unit's name and fields - a Frontier unit's weapon;
a Rifter's tabs for attitude and level, weapons, talents and skills; nothing for a goon - and the sheet
summing the unit up (a column of its own on a wide window, else a tab or under the choices).

Every option comes from ``draft.choices_for`` and is picked through the screen's ``_choose``; the rules
decide, this module only lays the options out.
"""

from __future__ import annotations

import math
from typing import Any, Final

import pygame
from pygame_gui.core import ObjectID
from pygame_gui.elements import UILabel, UIPanel, UIScrollingContainer, UITextBox, UITextEntryLine

from game.posses import FIELD_LABELS, Choice, PosseDraft
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
        attitudes = (unit.character.attitude,) if unit.character is not None else ()
        side = self._side_index()
        return TokenArt.shared().token_surface(
            icon_key(unit.kind, attitudes), side, side_color(side, self.draft.faction), diameter
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
        fields = draft.fields(index)
        if "attitude" in fields:
            tabs = [
                ("attitude", "Attitude", None),
                ("weapons", "Weapons", None),
                ("talents", *self._todo_tab("Talents", draft.talents_left(index), "talent")),
                ("skills", *self._todo_tab("Skills", draft.skill_points_left(index), "skill point")),
            ]
            if not self.wide:
                tabs.append(("sheet", "Sheet", None))
            if self.tab not in {t[0] for t in tabs}:
                self.tab = "attitude"
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
        if "attitude" in fields:
            {
                "attitude": self._attitude_tab,
                "weapons": self._weapons_tab,
                "talents": self._talents_tab,
                "skills": self._skills_tab,
                "sheet": self._sheet_tab,
            }[self.tab](flow, index)
        elif "weapon" in fields:
            self._frontier_weapon(flow, index)
            if not self.wide:
                flow.card()
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
    def _todo_tab(title: str, left: int, what: str) -> tuple[str, str | None]:
        if left > 0:
            return f"{title} ({left})", f"{left} {what}{'s' if left != 1 else ''} still to choose"
        if left < 0:
            return f"{title} (\u2212{-left})", f"{-left} {what}{'s' if left != -1 else ''} too many"
        return title, None

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

    def _frontier_weapon(self, flow: Flow, index: int) -> None:
        draft = self.draft
        choices = draft.choices_for(index, "weapon")
        flow.caption(FIELD_LABELS["weapon"])
        gap, height = self.px(8), self.px(36)
        bw = min(self.px(170), flow.width // 3)
        for choice in choices:
            self.choice_buttons[("weapon", "", choice.id)] = self.choice_button(
                pygame.Rect(0, flow.y, bw, height),
                choice.label,
                lambda c=choice: self._choose(index, "weapon", c.id),  # type: ignore[misc]
                object_id="#weapon",
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
                object_id=ObjectID("#weapon_detail", "@detail"),
            )
            if box.rect.height < height:
                box.set_relative_position((box.relative_rect.x, flow.y + (height - box.rect.height) // 2))
            flow.y += max(height, box.rect.height) + gap
        flow.y += self.px(8)
        faction = next((c for c in draft.choices_for(None, "faction") if c.selected), None)
        if faction is not None and faction.detail:
            flow.caption(f"{faction.label}: the posse's limits")
            flow.text(esc(faction.detail), "@fine_print")

    def _attitude_tab(self, flow: Flow, index: int) -> None:
        draft = self.draft
        flow.caption(FIELD_LABELS["attitude"])
        self._grid(flow, index, "attitude", draft.choices_for(index, "attitude"), min_width=150, max_cols=3)
        flow.caption(FIELD_LABELS["level"])
        levels = draft.choices_for(index, "level")
        current = next((k for k, c in enumerate(levels) if c.selected), 0)
        height, bw = self.px(32), self.px(44)
        for key, k, text in (("level_down", current - 1, "\u2212"), ("level_up", current + 1, "+")):
            x = 0 if key == "level_down" else bw + self.px(120)
            choice = levels[k] if 0 <= k < len(levels) else None
            self.widgets[key] = self.choice_button(
                pygame.Rect(x, flow.y, bw, height),
                text,
                (lambda c=choice: self._choose(index, "level", c.id)) if choice else None,  # type: ignore[misc]
                object_id=f"#{key}",
                tooltip=tooltip_for(choice) if choice else "The rules have no such level.",
                enabled=choice is not None and choice.enabled,
                container=flow.container,
            )
        self.widgets["level"] = self._caption(
            flow.container, pygame.Rect(bw, flow.y, self.px(120), height), levels[current].label, "@level"
        )
        detail_x = 2 * bw + self.px(132)
        self._caption(
            flow.container,
            pygame.Rect(detail_x, flow.y, flow.width - detail_x, height),
            levels[current].detail,
            "@fine",
        )
        flow.y += height + self.px(14)
        flow.caption(FIELD_LABELS["second_attitude"])
        self._grid(flow, index, "second_attitude", draft.choices_for(index, "second_attitude"), min_width=120)
        flow.caption(FIELD_LABELS["level7"])
        self._grid(flow, index, "level7", draft.choices_for(index, "level7"), min_width=9999, max_cols=1)

    def _weapons_tab(self, flow: Flow, index: int) -> None:
        draft = self.draft
        choices = draft.choices_for(index, "weapons")
        carried = [c.label for c in choices if c.selected]
        bw = self.px(150)
        flow.caption(f"{FIELD_LABELS['weapons']} \u2014 carrying {len(carried)}", right=bw + self.px(8))
        self.widgets["reset_weapons"] = self.button(
            pygame.Rect(flow.width - bw, flow.y - self.px(30), bw, self.px(28)),
            "Defaults",
            lambda: self._edit(self.draft.reset_weapons(index)),
            object_id="#reset_weapons",
            class_id="@choice",
            tooltip="Back to the weapons the attitude starts with.",
            container=flow.container,
        )
        # the numbers beside each weapon must fit at any UI scale: the buttons give way, then the columns
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
            self.choice_buttons[("weapons", "", choice.id)] = self.choice_button(
                pygame.Rect(x, y, bw, height),
                choice.label,
                lambda c=choice: self._choose(index, "weapons", c.id),  # type: ignore[misc]
                object_id="#weapons",
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

    def _talents_tab(self, flow: Flow, index: int) -> None:
        draft = self.draft
        left = draft.talents_left(index)
        state = (
            f"{left} still to pick"
            if left > 0
            else f"{-left} too many: take some away"
            if left < 0
            else "all picked"
        )
        flow.caption(f"{FIELD_LABELS['talents']} \u2014 {state}")
        self._grid(flow, index, "talents", draft.choices_for(index, "talents"), min_width=200, max_cols=3)

    def _skills_tab(self, flow: Flow, index: int) -> None:
        draft = self.draft
        left = draft.skill_points_left(index)
        state = (
            f"{left} points left"
            if left > 0
            else f"{-left} points too many"
            if left < 0
            else "every point spent"
        )
        bw = self.px(150)
        flow.caption(f"Skills \u2014 {state}", right=bw + self.px(8))
        self.widgets["auto_skills"] = self.button(
            pygame.Rect(flow.width - bw, flow.y - self.px(30), bw, self.px(28)),
            "Auto",
            lambda: self._edit(self.draft.auto_skills(index)),
            object_id="#auto_skills",
            class_id="@choice",
            tooltip="Spend the points left on the skills in order (or take back the excess).",
            container=flow.container,
        )
        height, gap = self.px(30), self.px(4)
        for sid, name, _rank in draft.skills(index):
            ranks = draft.choices_for(index, "skill", sid)
            rw = self.px(38)
            label_w = max(self.px(120), flow.width - len(ranks) * (rw + self.px(4)))
            self._caption(flow.container, pygame.Rect(0, flow.y, label_w, height), name, "@fine")
            for k, choice in enumerate(ranks):
                self.choice_buttons[("skill", sid, choice.id)] = self.choice_button(
                    pygame.Rect(label_w + k * (rw + self.px(4)), flow.y, rw, height),
                    choice.label,
                    lambda c=choice, s=sid: self._choose(index, "skill", c.id, s),  # type: ignore[misc]
                    object_id="#skill",
                    tooltip=tooltip_for(choice),
                    enabled=choice.enabled,
                    selected=choice.selected,
                    container=flow.container,
                )
            flow.y += height + gap

    def _sheet_tab(self, flow: Flow, index: int) -> None:
        flow.card()

    # the sheet
    def _card_html(self, index: int | None) -> str:
        draft = self.draft
        if index is None:
            return f"<i>{esc(NO_UNIT_TEXT)}</i>"
        unit = draft.units[index]
        lines: list[str] = []

        def picked(field: str) -> list[Choice]:
            return [c for c in draft.choices_for(index, field) if c.selected]

        kind = next((c for c in draft.choices_for(None, "add") if c.id == unit.kind), None)
        if unit.character is not None:
            ch = unit.character
            for c in [*picked("attitude"), *(c for c in picked("second_attitude") if c.id)]:
                lines += [f"<b>{esc(c.label)}</b>", esc(c.detail), ""]
            level7 = [c.label for c in picked("level7")]
            if ch.level >= 7 and level7:
                lines += ["<b>Level 7</b>", esc(level7[0]), ""]
            lines.append("<b>Weapons</b>")
            lines += [f"\u2022 {esc(c.label)}  <i>{esc(c.detail)}</i>" for c in picked("weapons")]
            talents = ", ".join(c.label for c in picked("talents"))
            lines += ["", "<b>Talents</b>", esc(talents) if talents else "<i>none</i>"]
            skills = ", ".join(f"{name} {rank}" for _sid, name, rank in draft.skills(index) if rank)
            lines += ["", "<b>Skills</b>", esc(skills) if skills else "<i>none</i>"]
            fielded = draft.fielded(index)
            if len(fielded) > 1:
                lines += ["", "<b>Takes the field with</b>", esc(", ".join(fielded[1:]))]
        else:
            weapon = picked("weapon")
            if weapon:
                lines += ["<b>Weapon</b>", f"{esc(weapon[0].label)}: {esc(weapon[0].detail)}", ""]
            if kind is not None and kind.detail:
                lines += ["<b>Profile</b>", esc(kind.detail)]
        problems = draft.unit_problems(index)
        if problems:
            lines.append("")
            lines += [f"<font color='{RED_INK}'>\u2022 {esc(p)}</font>" for p in problems]
        return "<br>".join(lines)

    def _card_kind(self, index: int) -> str:
        """The line under a unit's name on its sheet: its kind, a Rifter's attitude(s) and level."""
        draft = self.draft
        unit = draft.units[index]
        text = draft.kind_label(index)
        if unit.character is not None:
            attitudes = [
                c.label
                for field in ("attitude", "second_attitude")
                for c in draft.choices_for(index, field)
                if c.selected and c.id
            ]
            return f"{text}: {' & '.join(attitudes)}, level {unit.character.level}"
        faction = next((c.label for c in draft.choices_for(None, "faction") if c.selected), "")
        return f"{text} \u2014 {faction}" if faction else text

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
