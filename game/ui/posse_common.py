"""What the posse builder (:mod:`game.ui.posse_screen`) and its load dialog (:mod:`game.ui.posse_load`)
share: their theme, the ink colours, the toggle-like :class:`ChoiceButton`, token pictures, text cut to a
width, and :class:`PosseScene` (a themed :class:`~game.ui.gui.GuiScene` with scrolling lists that keep
their place across rebuilds).

The theme blocks of these screens live in ``assets/ui/posse_theme.json`` and are added to the western
theme (``assets/ui/theme.json``) for their managers only; fonts called ``hexslinger_serif`` are resolved
and scaled the same way (:func:`game.ui.gui.resolve_theme_fonts`). Its ``tool_tip.text_box`` block makes
tooltips opaque here: they often cover the unit's sheet.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import pygame
from pygame_gui.core import ObjectID
from pygame_gui.elements import UIImage, UIScrollingContainer

from game.engine.builder import same_name
from game.posses import Choice, PosseEntry
from game.ui.gui import GuiManager, GuiScene, Shell, TipButton, find_serif_fonts, resolve_theme_fonts

__all__ = [
    "CARD_FILL",
    "GREEN_INK",
    "INSET_EDGE",
    "INSET_FILL",
    "POSSE_THEME_PATH",
    "RED_INK",
    "RULE",
    "SCROLL_BAR",
    "ChoiceButton",
    "PosseScene",
    "TokenPicture",
    "entry_label",
    "esc",
    "fit_text",
    "same_name",
    "screen_theme",
    "tooltip_for",
]

POSSE_THEME_PATH: Final = Path(__file__).resolve().parents[2] / "assets" / "ui" / "posse_theme.json"
SCROLL_BAR: Final = 20  # pygame-gui's scroll bar width (not themed)

RED_INK: Final = "#8C1E14"
GREEN_INK: Final = "#2F5A22"
RULE: Final = (140, 96, 52)
INSET_FILL: Final = (226, 206, 160, 150)
INSET_EDGE: Final = (122, 82, 48)
CARD_FILL: Final = (251, 244, 226)


def screen_theme(scale: float) -> dict[str, Any]:
    """The posse screens' theme blocks (``assets/ui/posse_theme.json``) with their fonts resolved like the
    western theme's, sizes times ``scale``."""
    with POSSE_THEME_PATH.open(encoding="utf-8") as handle:
        theme: dict[str, Any] = json.load(handle)
    return resolve_theme_fonts(theme, scale, find_serif_fonts())


def _apply_theme(manager: GuiManager, scale: float) -> None:
    if getattr(manager, "_posse_theme", None) != scale:
        manager.get_theme().load_theme(screen_theme(scale))
        manager._posse_theme = scale  # type: ignore[attr-defined]


def esc(text: str) -> str:
    """Text for a pygame-gui text box or tooltip (which read a little HTML)."""
    return html.escape(text, quote=False)


def tooltip_for(choice: Choice) -> str | None:
    """What the option is (its detail), if anything; a disabled choice first says the rules' reason."""
    if not choice.enabled:
        why = f"<b>Not allowed.</b> {esc(choice.reason or 'the rules refuse it')}"
        return why + (f"<br><b>{esc(choice.label)}</b>: {esc(choice.detail)}" if choice.detail else "")
    if choice.detail:
        return f"<b>{esc(choice.label)}</b><br>{esc(choice.detail)}"
    return None


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


class TokenPicture(UIImage):
    """A token picture laid over other widgets; it never takes the hover from the button under it."""

    def can_hover(self) -> bool:
        return False

    def hover_point(self, hover_x: float, hover_y: float) -> bool:
        return False


def fit_text(font: Any, text: str, width: int) -> str:
    """``text`` shortened with an ellipsis until it fits ``width`` pixels in ``font``."""
    if font is None or font.size(text)[0] <= width:
        return text
    cut = text
    while cut and font.size(cut + "\u2026")[0] > width:
        cut = cut[:-1]
    return cut.rstrip() + "\u2026"


class PosseScene(GuiScene):
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

        label = fit_text(self.font(class_id), text, rect.width - self.px(18) - inset)
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


def entry_label(entry: PosseEntry, short: bool = False) -> str:
    """How a posse is listed: its name, its size, and whether it is one of the player's saved posses."""
    if entry.error is not None:
        return f"{entry.name} (damaged)"
    if short:
        return f"{entry.name} ({entry.units})"
    units = f"{entry.units} unit{'s' if entry.units != 1 else ''}"
    return f"{entry.name} \u2014 {units}" + ("" if entry.builtin else " \u2022 saved")
