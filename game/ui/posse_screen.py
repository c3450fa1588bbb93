"""The posse builder: a posse of one ruleset built unit by unit, every choice checked by the rules.

The screen draws :class:`game.posses.PosseDraft` and decides no rule. Each option comes from
``draft.choices_for``; one the rules refuse is shown greyed with the rules' reason as its tooltip (a
:class:`ChoiceButton` shows its tooltip while disabled or selected). Layout, left to right:

- the posse: its name, its faction, its units (click one to edit it; Remove), and the unit kinds to
  recruit (a kind the rules refuse says why);
- the selected unit: its name and its fields. A Frontier unit picks its weapon; a Through the Rift Rifter
  has tabs for attitude and level (second attitude, level-7 pick), weapons, talents and skills (ranks,
  points left, Auto); a goon has nothing to choose;
- on a wide window, a sheet summing the unit up (on a narrow one it is a tab or follows the choices);
- along the bottom, the posse's problems in the rules' words ("Ready to fight" when none), and Load,
  Save, Back and Done (only when nothing is wrong; calls ``on_done(spec, name)``).

Saved posses live in the library (:mod:`game.posses`): Save writes the draft under the name typed (a
clash with another saved posse asks first), Load opens :class:`LoadPosseScene` over the builder, listing
the saved and built-in posses of the ruleset; a file that cannot be used is listed with its error and
cannot be picked. Every library failure is a sentence on the screen, never a traceback.
"""

from __future__ import annotations

import copy
import html
import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Final

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.elements import UIImage, UILabel, UIPanel, UIScrollingContainer, UITextBox, UITextEntryLine

from game.posses import (
    FIELD_LABELS,
    Choice,
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
from game.ui.gui import (
    FALLBACK_FONT,
    THEME_FONT,
    GuiManager,
    GuiScene,
    Shell,
    TipButton,
    display_font,
    find_serif_fonts,
)
from game.ui.scenes import Action, Pop, Push
from game.ui.tokens import TokenArt, icon_key, side_color

OnDone = Callable[[PosseSpec, str], Action | None]

READY: Final = "Ready to fight"
UNSAVED_NOTE: Final = "This posse has unsaved changes: Save it, or press Back again to leave without it."
NO_UNIT_TEXT: Final = "Recruit a unit from the list on the left, then pick its gear here."
GOON_TEXT: Final = "A goon comes as the rules make it: there is nothing to choose."
SCROLL_BAR: Final = 20  # pygame-gui's scroll bar width (not themed)

INK: Final = "#342110"
RED_INK: Final = "#8C1E14"
GREEN_INK: Final = "#2F5A22"
RULE: Final = (140, 96, 52)
INSET_FILL: Final = (226, 206, 160, 150)
INSET_EDGE: Final = (122, 82, 48)
CARD_FILL: Final = (251, 244, 226)

# Theme blocks of this screen, added to the western theme (assets/ui/theme.json) for its managers only.
# Fonts named like the theme's are resolved and scaled the same way (gui.theme_data).
_PARCHMENT_BUTTON: Final = {
    "normal_bg": "#F6ECD2,#E2CFA2,90",
    "hovered_bg": "#FFF6DC,#EED9A6,90",
    "active_bg": "#E8C76A,#C9A043,90",
    "selected_bg": "#8C2A18,#5C1A10,90",
    "disabled_bg": "#DCD0B4,#CFC2A4,90",
    "normal_text": INK,
    "hovered_text": INK,
    "active_text": INK,
    "selected_text": "#FFF4D6",
    "disabled_text": "#9C8B70",
    "normal_text_shadow": "#00000000",
    "hovered_text_shadow": "#00000000",
    "active_text_shadow": "#00000000",
    "selected_text_shadow": "#00000000",
    "disabled_text_shadow": "#00000000",
    "normal_border": "#7A5230",
    "hovered_border": RED_INK,
    "active_border": RED_INK,
    "selected_border": "#C9A043",
    "disabled_border": "#B8A684",
}
EXTRA_THEME: Final[dict[str, Any]] = {
    "@choice": {
        "font": {"name": THEME_FONT, "size": "15", "bold": "1"},
        "colours": _PARCHMENT_BUTTON,
        "misc": {
            "shape": "rounded_rectangle",
            "shape_corner_radius": "4",
            "border_width": "2",
            "shadow_width": "0",
            "tool_tip_delay": "0.35",
        },
    },
    "@row": {
        "font": {"name": THEME_FONT, "size": "15", "bold": "1"},
        "colours": _PARCHMENT_BUTTON,
        "misc": {
            "shape": "rounded_rectangle",
            "shape_corner_radius": "4",
            "border_width": "2",
            "shadow_width": "0",
            "text_horiz_alignment": "left",
            "text_horiz_alignment_padding": "10",
            "tool_tip_delay": "0.35",
        },
    },
    "@unit_row": {
        "font": {"name": THEME_FONT, "size": "15", "bold": "1"},
        "colours": _PARCHMENT_BUTTON,
        "misc": {
            "shape": "rounded_rectangle",
            "shape_corner_radius": "4",
            "border_width": "2",
            "shadow_width": "0",
            "text_horiz_alignment": "left",
            "text_horiz_alignment_padding": "38",
            "tool_tip_delay": "0.35",
        },
    },
    "@tab": {
        "font": {"name": THEME_FONT, "size": "16", "bold": "1"},
        "colours": {
            "selected_bg": "#F6ECD2,#EAD9B0,90",
            "selected_text": "#5C1A10",
            "selected_text_shadow": "#00000000",
            "selected_border": "#C9A043",
        },
        "misc": {
            "shape": "rounded_rectangle",
            "shape_corner_radius": "6",
            "border_width": "2",
            "shadow_width": "0",
            "tool_tip_delay": "0.35",
        },
    },
    "@caption": {
        "font": {"name": THEME_FONT, "size": "17", "bold": "1"},
        "colours": {"normal_text": "#6B4526"},
    },
    "@level": {
        "font": {"name": THEME_FONT, "size": "20", "bold": "1"},
        "colours": {"normal_text": "#5C1A10"},
        "misc": {"text_horiz_alignment": "center"},
    },
    "@fine": {
        "font": {"name": THEME_FONT, "size": "14", "italic": "1"},
        "colours": {"normal_text": "#5A3A1E"},
    },
    "@fine_right": {
        "font": {"name": THEME_FONT, "size": "14", "italic": "1"},
        "colours": {"normal_text": "#5A3A1E"},
        "misc": {"text_horiz_alignment": "right"},
    },
    "@card_name": {
        "font": {"name": THEME_FONT, "size": "21", "bold": "1"},
        "colours": {"normal_text": "#5C1A10"},
    },
    "@card_body": {
        "font": {"name": THEME_FONT, "size": "15"},
        "colours": {"dark_bg": "#00000000", "normal_text": INK, "normal_border": "#00000000"},
        "misc": {
            "shape": "rounded_rectangle",
            "shape_corner_radius": "4",
            "border_width": "0",
            "shadow_width": "0",
            "padding": "12,2",
        },
    },
    "@problems": {
        "font": {"name": THEME_FONT, "size": "15"},
        "colours": {"dark_bg": "#F3E4C0", "normal_text": INK, "normal_border": "#7A5230"},
        "misc": {
            "shape": "rounded_rectangle",
            "shape_corner_radius": "4",
            "border_width": "2",
            "shadow_width": "0",
            "padding": "8,4",
        },
    },
    "@detail": {
        "font": {"name": THEME_FONT, "size": "14", "italic": "1"},
        "colours": {"dark_bg": "#00000000", "normal_text": "#5A3A1E", "normal_border": "#00000000"},
        "misc": {"border_width": "0", "shadow_width": "0", "padding": "0,0"},
    },
    "@error": {
        "font": {"name": THEME_FONT, "size": "14", "italic": "1"},
        "colours": {"dark_bg": "#00000000", "normal_text": RED_INK, "normal_border": "#00000000"},
        "misc": {"border_width": "0", "shadow_width": "0", "padding": "2,0"},
    },
    "tool_tip.text_box": {  # opaque here: tool tips often cover the unit's sheet
        "colours": {"dark_bg": "#2A1A0E", "normal_text": "#F4E6C4", "normal_border": "#C9A043"},
    },
    "text_entry_line": {
        "font": {"name": THEME_FONT, "size": "17"},
        "colours": {
            "dark_bg": "#FBF4E2",
            "normal_text": INK,
            "selected_text": "#FFF4D6",
            "selected_bg": RED_INK,
            "text_cursor": INK,
            "normal_border": "#7A5230",
            "disabled_dark_bg": "#DCD0B4",
            "disabled_text": "#9C8B70",
            "disabled_border": "#B8A684",
        },
        "misc": {
            "shape": "rounded_rectangle",
            "shape_corner_radius": "4",
            "border_width": "2",
            "shadow_width": "0",
            "padding": "8,4",
        },
    },
}


def screen_theme(scale: float) -> dict[str, Any]:
    """:data:`EXTRA_THEME` with its fonts resolved like the western theme's, sizes times ``scale``."""
    theme = copy.deepcopy(EXTRA_THEME)
    files = find_serif_fonts()
    for block in theme.values():
        font = block.get("font")
        if not isinstance(font, dict) or font.get("name") != THEME_FONT:
            continue
        font["size"] = str(max(8, round(int(font["size"]) * scale)))
        if files is None:
            font["name"] = FALLBACK_FONT
        else:
            font["name"] = f"{THEME_FONT}_{files.family}"
            font["regular_path"] = files.regular
            font["bold_path"] = files.bold
            font["italic_path"] = files.italic
            font["bold_italic_path"] = files.bold_italic
    return theme


def _apply_theme(manager: GuiManager, scale: float) -> None:
    if getattr(manager, "_posse_theme", None) != scale:
        manager.get_theme().load_theme(screen_theme(scale))
        manager._posse_theme = scale  # type: ignore[attr-defined]


def esc(text: str) -> str:
    """Text for a pygame-gui text box or tooltip (which read a little HTML)."""
    return html.escape(text, quote=False)


def tooltip_for(choice: Choice) -> str | None:
    """A disabled choice: the rules' reason; otherwise what the option is (its detail), if anything."""
    if not choice.enabled:
        return f"<b>Not allowed.</b> {esc(choice.reason or 'the rules refuse it')}"
    if choice.detail:
        return f"<b>{esc(choice.label)}</b><br>{esc(choice.detail)}"
    return None


def same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


class ChoiceButton(TipButton):
    """A toggle-like button for an option: shows its tooltip even when selected or disabled, and keeps
    its selected look while hovered (so the current pick stays visible under the pointer)."""

    def can_hover(self) -> bool:
        return bool(self.alive()) and not self.held  # type: ignore[no-untyped-call]

    def on_hovered(self) -> None:
        super().on_hovered()
        if self.is_selected and self.drawable_shape is not None:
            self.drawable_shape.set_active_state("selected")

    def _get_appropriate_state_name(self) -> str:
        if self.is_selected:
            return "selected"
        if not self.is_enabled:
            return "disabled"
        return "hovered" if self.hovered else "normal"


class _Picture(UIImage):
    """A token picture laid over other widgets; it never takes the hover from the button under it."""

    def can_hover(self) -> bool:
        return False

    def hover_point(self, hover_x: float, hover_y: float) -> bool:
        return False


def _fit(font: Any, text: str, width: int) -> str:
    """``text`` shortened with an ellipsis until it fits ``width`` pixels in ``font``."""
    if font is None or font.size(text)[0] <= width:
        return text
    cut = text
    while cut and font.size(cut + "\u2026")[0] > width:
        cut = cut[:-1]
    return cut.rstrip() + "\u2026"


class _Scene(GuiScene):
    """Shared helpers of the builder and its load dialog."""

    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self.scrollers: dict[str, UIScrollingContainer] = {}
        self._fonts: dict[str, Any] = {}

    def theme(self, manager: GuiManager) -> None:
        _apply_theme(manager, self.scale)
        self._fonts = {}
        self.scrollers = {}

    def font(self, class_id: str) -> Any:
        if class_id not in self._fonts:
            manager = self.manager
            self._fonts[class_id] = (
                None if manager is None else manager.get_theme().get_font([class_id, "button"])
            )
        return self._fonts[class_id]

    def choice_button(
        self,
        rect: pygame.Rect,
        text: str,
        command: Callable[[], None] | None,
        *,
        class_id: str = "@choice",
        object_id: str | None = None,
        tooltip: str | None = None,
        enabled: bool = True,
        selected: bool = False,
        container: Any = None,
        inset: int = 0,
    ) -> ChoiceButton:
        """A :class:`ChoiceButton` whose text is shortened to fit (``inset``: room kept at the left);
        ``command`` runs after the event."""

        def pressed() -> None:
            if command is not None:
                self.shell.play("click")
                self._deferred.append(command)

        label = _fit(self.font(class_id), text, rect.width - self.px(18) - inset)
        widget = ChoiceButton(
            rect,
            label,
            manager=self.manager,
            container=container,
            tool_tip_text=tooltip if tooltip is not None or label == text else esc(text),
            object_id=ObjectID(object_id=object_id, class_id=class_id),
            command=pressed,
        )
        widget.set_enabled(enabled)
        if selected:
            widget.set_selected(True)
        return widget

    def scroller(self, name: str, rect: pygame.Rect, container: Any) -> UIScrollingContainer:
        widget = UIScrollingContainer(
            rect,
            manager=self.manager,
            container=container,
            allow_scroll_x=False,
            object_id=ObjectID(f"#{name}"),
        )
        self.scrollers[name] = widget
        return widget

    def rebuild_keeping_scroll(self) -> None:
        """Build again, each list scrolled where it was."""
        kept = {
            name: s.vert_scroll_bar.start_percentage
            for name, s in self.scrollers.items()
            if s.vert_scroll_bar is not None and s.alive()  # type: ignore[no-untyped-call]
        }
        self.rebuild()
        for name, start in kept.items():
            scroller = self.scrollers.get(name)
            bar = scroller.vert_scroll_bar if scroller is not None else None
            if scroller is not None and bar is not None and start > 0:
                bar.set_scroll_from_start_percentage(start)
                bar.has_moved_recently = True
                scroller.update(0.0)  # moves the list now (the bar forgets the move on its next update)


class PosseScreen(_Scene):
    """The posse builder for ``ruleset_name`` ("frontier" or "rift"), the posse fighting on ``side``.

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
        self.tab = "attitude"
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

    def _unit_index(self) -> int | None:
        if self.selected is not None and 0 <= self.selected < len(self.draft.units):
            return self.selected
        return None

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

    def _inset(self, rect: pygame.Rect, origin: tuple[int, int]) -> None:
        self._insets.append(rect.move(origin).inflate(self.px(8), self.px(8)))

    def _caption(self, container: Any, rect: pygame.Rect, text: str, class_id: str = "@caption") -> UILabel:
        return UILabel(
            rect, text, manager=self.manager, container=container, object_id=ObjectID(None, class_id)
        )

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
            _Picture(
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

    def _unit_text(self, i: int) -> str:
        draft = self.draft
        unit = draft.units[i]
        if not unit.name:
            unit = replace(unit, name=draft.kind_label(i))
        if unit.character is not None:
            ch = unit.character
            attitude = next((c.label for c in draft.choices_for(i, "attitude") if c.selected), ch.attitude)
            if same_name(unit.name, attitude):
                return f"{unit.name} \u00b7 level {ch.level}"
            return f"{unit.name} \u00b7 {attitude} {ch.level}"
        if unit.weapon:
            weapon = next((c.label for c in draft.choices_for(i, "weapon") if c.selected), unit.weapon)
            return f"{unit.name} \u00b7 {weapon}"
        kind = draft.kind_label(i)
        return unit.name if same_name(unit.name, kind) else f"{unit.name} \u00b7 {kind}"

    def _unit_tip(self, i: int) -> str:
        draft = self.draft
        parts = [f"<b>{esc(draft.units[i].name)}</b>, {esc(draft.kind_label(i))}"]
        parts += [f"\u2022 {esc(p)}" for p in draft.unit_problems(i)]
        return "<br>".join(parts)

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
        flow = _Flow(self, content, area.width - SCROLL_BAR - self.px(8))
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
        flow: _Flow,
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

    def _frontier_weapon(self, flow: _Flow, index: int) -> None:
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

    def _attitude_tab(self, flow: _Flow, index: int) -> None:
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

    def _weapons_tab(self, flow: _Flow, index: int) -> None:
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

    def _talents_tab(self, flow: _Flow, index: int) -> None:
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

    def _skills_tab(self, flow: _Flow, index: int) -> None:
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

    def _sheet_tab(self, flow: _Flow, index: int) -> None:
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
            _Picture(
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
                _fit(self.font("@fine"), kind, width - (text_x - x) - self.px(10)),
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
                    _fit(self.font("@unit_row"), self._unit_text(index), button.rect.width - self.px(48))
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


class _Flow:
    """Widgets placed one under another in a scrolling container (``y`` grows)."""

    def __init__(self, scene: _Scene, container: UIScrollingContainer, width: int) -> None:
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
        if isinstance(self.scene, PosseScreen):
            self.y = self.scene._build_card(self.container, 0, self.y, self.width, None) + self.scene.px(8)


class LoadPosseScene(_Scene):
    """Over the builder: the saved and built-in posses of a ruleset; a file that cannot be used is listed
    with its error and cannot be picked. ``on_pick`` returns None when the posse was taken, else why not."""

    opaque = False

    def __init__(
        self,
        shell: Shell,
        ruleset: str,
        on_pick: Callable[[PosseEntry], str | None],
        *,
        title: str = "",
    ) -> None:
        super().__init__(shell)
        self.ruleset = ruleset
        self.on_pick = on_pick
        self.title = title
        self.note = ""
        self.entries: list[PosseEntry] = []
        self.entry_buttons: list[ChoiceButton] = []
        self.error_boxes: dict[int, UITextBox] = {}
        self.widgets: dict[str, Any] = {}
        self._panel = pygame.Rect(0, 0, 1, 1)
        self._shade: pygame.Surface | None = None

    def build(self, manager: GuiManager) -> None:
        self.theme(manager)
        self._shade = None
        self.widgets = {}
        self.entry_buttons = []
        self.error_boxes = {}
        try:
            self.entries = list_posses(self.ruleset)
        except (PosseFileError, OSError) as failure:
            self.entries = []
            self.note = f"The posses cannot be listed: {failure}"
        w, h = self.size
        pw, ph = min(w - self.px(60), self.px(660)), min(h - self.px(50), self.px(560))
        self._panel = rect = pygame.Rect((w - pw) // 2, (h - ph) // 2, pw, ph)
        frame = self.px(8)
        panel = UIPanel(rect.inflate(-2 * frame, -2 * frame), manager=manager, object_id=ObjectID("#sheet"))
        inner = panel.get_container().get_rect()
        pad = self.px(18)
        UILabel(
            pygame.Rect(pad, self.px(4), inner.width - 2 * pad, self.px(46)),
            "Load a Posse",
            manager=manager,
            container=panel,
            object_id=ObjectID("#heading", "@heading"),
        )
        UILabel(
            pygame.Rect(pad, self.px(62), inner.width - 2 * pad, self.px(24)),
            f"{self.title} posses: saved ones first, then the built-in ones",
            manager=manager,
            container=panel,
            object_id=ObjectID("#subtitle", "@note"),
        )
        bh = self.px(42)
        top = self.px(96)
        list_rect = pygame.Rect(pad, top, inner.width - 2 * pad, inner.height - top - bh - self.px(48))
        scroller = self.scroller("posse_list", list_rect, panel)
        width = list_rect.width - SCROLL_BAR
        y = 0
        height = self.px(34)
        meta_w = self.px(150)
        for k, entry in enumerate(self.entries):
            kind = "built in" if entry.builtin else "saved"
            error = entry.error.replace(" -- ", " \u2014 ") if entry.error else None
            tip = (
                f"<b>Cannot be loaded.</b> {esc(error)}"
                if error
                else f"{esc(str(entry.path))}"
                if entry.path is not None
                else "Built into Hexslinger."
            )
            self.entry_buttons.append(
                self.choice_button(
                    pygame.Rect(0, y, width - meta_w - self.px(8), height),
                    entry.name,
                    lambda e=entry: self.pick(e),  # type: ignore[misc]
                    class_id="@row",
                    object_id="#posse_entry",
                    tooltip=tip,
                    enabled=entry.error is None,
                    container=scroller,
                )
            )
            meta = "cannot be loaded" if entry.error else f"{entry.units} units, {kind}"
            UILabel(
                pygame.Rect(width - meta_w, y, meta_w, height),
                meta,
                manager=manager,
                container=scroller,
                object_id=ObjectID(None, "@fine_right"),
            )
            y += height + self.px(4)
            if error:
                box = UITextBox(
                    esc(error),
                    pygame.Rect(self.px(10), y, width - self.px(10), -1),
                    manager=manager,
                    container=scroller,
                    object_id=ObjectID("#entry_error", "@error"),
                )
                self.error_boxes[k] = box
                y += box.rect.height + self.px(6)
        if not self.entries:
            UILabel(
                pygame.Rect(0, 0, width, height),
                "No posses to load.",
                manager=manager,
                container=scroller,
                object_id=ObjectID(None, "@note"),
            )
        scroller.set_scrollable_area_dimensions((width, max(1, y)))
        self.widgets["note"] = UILabel(
            pygame.Rect(pad, inner.height - bh - self.px(42), inner.width - 2 * pad, self.px(28)),
            self.note or " ",
            manager=manager,
            container=panel,
            object_id=ObjectID("#note", "@note"),
        )
        self.widgets["cancel"] = self.button(
            pygame.Rect(inner.width - pad - self.px(130), inner.height - bh - self.px(10), self.px(130), bh),
            "Cancel",
            lambda: self.act(Pop()),
            object_id="#cancel",
            container=panel,
        )

    def pick(self, entry: PosseEntry) -> None:
        problem = self.on_pick(entry)
        if problem is None:
            self.act(Pop())
            return
        self.note = problem
        label = self.widgets.get("note")
        if isinstance(label, UILabel):
            label.set_text(_fit(self.font("@note"), problem, label.rect.width))

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return Pop()
        return None

    def resize(self, size: tuple[int, int]) -> None:
        super().resize(size)
        self._shade = None

    def draw_background(self, surface: pygame.Surface) -> None:
        if self._shade is None or self._shade.get_size() != self.size:
            self._shade = pygame.Surface(self.size, pygame.SRCALPHA)
            self._shade.fill((12, 6, 4, 150))
            draw_parchment(self._shade, self._panel, frame=self.px(8))
            draw_ornament(
                self._shade,
                (self._panel.centerx, self._panel.y + self.px(62)),
                min(self.px(200), self._panel.width // 3),
                RULE,
            )
        surface.blit(self._shade, (0, 0))
