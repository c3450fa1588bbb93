"""pygame-gui for the menu screens: the western theme, a manager per screen, and the scene base class.

The theme lives in ``assets/ui/theme.json`` (found through :mod:`game.resources`, never from the current
directory). Its fonts are all called ``hexslinger_serif``; :func:`theme_data` points that name at the serif
bundled in ``assets/fonts`` (DejaVu Serif, all four styles) and multiplies every font size by the player's
UI scale. The font is the game's own, not whichever serif a machine has, so every layout measures the same
everywhere (the fit tests measure text with it). Only if its files are missing (a broken install) does the
theme fall back to pygame-gui's bundled Noto Sans, so it still loads.

:class:`GuiScene` is a :class:`~game.ui.scenes.Scene` that owns a ``UIManager``: it forwards every event
to it, updates and draws it, and rebuilds its widgets when the window size or the UI scale changes.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.core.drawable_shapes import RoundedRectangleShape
from pygame_gui.core.text.text_box_layout import TextBoxLayout
from pygame_gui.elements import UIButton, UITooltip

from game.resources import ResourceError, asset, serif_font
from game.ui import settings
from game.ui.prefs import Prefs, save_prefs, settings_path
from game.ui.scenes import Action, Scene
from game.ui.sound import SoundBank

THEME_PATH: Final = asset("ui", "theme.json")
THEME_FONT: Final = "hexslinger_serif"
FALLBACK_FONT: Final = "noto_sans"  # bundled with pygame-gui
SERIF_FAMILY: Final = "dejavuserif"  # the bundled serif (game.resources.SERIF_FILES)
# (bold, italic) in FontFiles order
FONT_STYLES: Final = ((False, False), (True, False), (False, True), (True, True))
# Layouts are designed for this window; a smaller window shrinks the UI scale so everything still fits.
BASE_SIZE: Final = (800, 600)
MIN_LAYOUT_SCALE: Final = 0.6
OFFSCREEN: Final = (-10_000, -10_000)


@dataclass(frozen=True, slots=True)
class FontFiles:
    family: str
    regular: str
    bold: str
    italic: str
    bold_italic: str


@functools.cache
def find_serif_fonts() -> FontFiles | None:
    """The bundled serif's four styles, or None if its files are missing (a broken install)."""
    try:
        paths = [serif_font(bold=bold, italic=italic) for bold, italic in FONT_STYLES]
    except ResourceError:
        return None
    if not all(path.is_file() for path in paths):
        return None
    regular, bold, italic, bold_italic = (str(path) for path in paths)
    return FontFiles(SERIF_FAMILY, regular, bold, italic, bold_italic)


def _font_blocks(theme: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for block in theme.values():
        if not isinstance(block, dict):
            continue
        fonts = block.get("font")
        for font in fonts if isinstance(fonts, list) else [fonts]:
            if isinstance(font, dict):
                yield font


def theme_data(scale: float = 1.0, fonts: FontFiles | bool | None = True) -> dict[str, Any]:
    """The theme as pygame-gui's dictionary, fonts resolved and sizes scaled.

    ``fonts``: True uses the bundled serif (:func:`find_serif_fonts`); None forces pygame-gui's fallback.
    """
    with THEME_PATH.open(encoding="utf-8") as handle:
        theme: dict[str, Any] = json.load(handle)
    files = find_serif_fonts() if fonts is True else (fonts or None)
    return resolve_theme_fonts(theme, scale, files)


def resolve_theme_fonts(theme: dict[str, Any], scale: float, files: FontFiles | None) -> dict[str, Any]:
    """``theme`` (pygame-gui's dictionary) with every ``hexslinger_serif`` font pointed at ``files`` (None:
    pygame-gui's bundled fallback) and its size times ``scale``; changed in place and returned. A screen's
    own theme file (the posse builder's) goes through this like ``theme.json`` does."""
    for font in _font_blocks(theme):
        if font.get("name") != THEME_FONT:
            continue
        if "size" in font:
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


@functools.cache
def _theme_cached(scale: float) -> dict[str, Any]:
    return theme_data(scale)


def display_font(size: int, bold: bool = True, italic: bool = False) -> pygame.font.Font:
    """A pygame font in the theme's serif for drawn text (titles), or pygame's own font if it is missing."""
    if not pygame.font.get_init():
        pygame.font.init()
    files = find_serif_fonts()
    if files is None:
        font = pygame.font.Font(None, round(size * 1.3))
        font.bold = bold
        font.italic = italic
        return font
    path = {
        (False, False): files.regular,
        (True, False): files.bold,
        (False, True): files.italic,
        (True, True): files.bold_italic,
    }[(bold, italic)]
    return pygame.font.Font(path, size)


_handle_line_break_rect = TextBoxLayout._handle_line_break_rect


def _line_break_takes_no_room(layout: TextBoxLayout, row: Any, line_break: Any) -> Any:
    """pygame-gui 0.6 starts an empty row when a line ends within its line break's width (4 px) of the
    box's right edge, a stray blank line in any text box (the combat log, at some widths). A line break
    draws nothing, so it is narrowed to the room left; a line that overflows already is left alone."""
    room = layout.layout_rect.right - line_break.left
    if 0 <= room < line_break.width:
        line_break.width = room
    return _handle_line_break_rect(layout, row, line_break)  # type: ignore[no-untyped-call]


TextBoxLayout._handle_line_break_rect = _line_break_takes_no_room  # type: ignore[method-assign]


class GuiManager(pygame_gui.UIManager):
    """A UIManager that takes the pointer position from the events it is given.

    pygame-gui reads ``pygame.mouse.get_pos()`` for hovering; posted events (tests, ``--mouse``
    screenshots) do not move that pointer, so the position of the last mouse event is used instead —
    in a real window both are the same.
    """

    def __init__(self, size: tuple[int, int], theme: dict[str, Any]) -> None:
        super().__init__(size, theme_path=copy.deepcopy(theme), enable_live_theme_updates=False)
        self.pointer: tuple[int, int] | None = None

    def process_events(self, event: pygame.event.Event) -> bool:
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self.pointer = (int(event.pos[0]), int(event.pos[1]))
        elif event.type == pygame.WINDOWLEAVE:
            self.pointer = OFFSCREEN
        return bool(super().process_events(event))

    def _update_mouse_position(self) -> None:
        if self.pointer is None:
            super()._update_mouse_position()  # type: ignore[no-untyped-call]
        else:
            self.mouse_position = self.calculate_scaled_mouse_position(self.pointer)


def create_manager(size: tuple[int, int], ui_scale: float = 1.0) -> GuiManager:
    """A pygame-gui manager for a window of ``size`` with the western theme at ``ui_scale``."""
    return GuiManager(size, _theme_cached(round(ui_scale, 3)))


def layout_scale(size: tuple[int, int], ui_scale: float) -> float:
    """The player's UI scale, shrunk where the window is smaller than the layouts need at that scale."""
    fit = min(size[0] / BASE_SIZE[0], size[1] / BASE_SIZE[1])
    return round(max(MIN_LAYOUT_SCALE, min(ui_scale, max(fit, MIN_LAYOUT_SCALE))), 3)


class TipButton(UIButton):
    """A button whose tooltip shows even while it is disabled, so it can say why it is; with ``tip_left``
    its tooltip opens to its left, level with it, rather than below (where it would cover the row of
    controls under it, or above, the row over it)."""

    tip_left = False

    def while_hovering(self, time_delta: float, mouse_pos: Any) -> None:
        had = self.tool_tip is not None
        super().while_hovering(time_delta, mouse_pos)
        tip: Any = self.tool_tip  # a UITooltip (its interface does not declare the rect it has)
        if self.tip_left and not had and tip is not None:
            left = self.rect.left - 6 - tip.rect.width
            if left >= 0:  # find_valid_position puts its top at y + the hover distance
                top = max(0, self.rect.centery - tip.rect.height // 2)
                below = getattr(tip, "hover_distance_from_target", (0, 0))[1]
                tip.find_valid_position(pygame.math.Vector2(left, top - below))

    def can_hover(self) -> bool:
        return bool(self.alive()) and not self.is_selected and not self.held  # type: ignore[no-untyped-call]

    def on_hovered(self) -> None:
        super().on_hovered()  # type: ignore[no-untyped-call]
        if not self.is_enabled and self.drawable_shape is not None:
            self.drawable_shape.set_active_state("disabled")

    def set_selected(self, selected: bool) -> None:
        if selected:
            self.select()  # type: ignore[no-untyped-call]
        else:
            self.unselect()  # type: ignore[no-untyped-call]

    def set_enabled(self, enabled: bool) -> None:
        if enabled:
            self.enable()  # type: ignore[no-untyped-call]
        else:
            self.disable()  # type: ignore[no-untyped-call]

    def hide(self) -> None:
        """Hidden. pygame-gui's button leaves its hovered state on hiding, posting two "unhovered" events
        even when the pointer was not on it: a bar whose ten spare buttons are put away then sent twenty
        events through every widget the next frame (~1 ms, issue 13). Not hovered, it only hides."""
        if self.visible and not self.hovered:
            super(UIButton, self).hide()  # type: ignore[no-untyped-call]  # the element's own hide
            return
        super().hide()  # type: ignore[no-untyped-call]

    def relabel(self, text: str) -> None:
        """Another text on this button (as ``set_text``), its other states drawn only when shown."""
        if text != self.text:
            self.set_text(text)
            self.draw_states_when_shown()

    def draw_states_when_shown(self) -> None:
        """The states of this button not drawn since it was made or given its text (hovered, selected,
        active, disabled: pygame-gui draws one a frame after, ~1 ms each, the shaded frame drawn four
        times over for smoothness) left to be drawn when first shown, as pygame-gui draws a state it has
        not drawn yet when it becomes the one shown: a screen that makes or relabels a row of buttons
        after a command does not spend the next frames on faces mostly never seen (issue 13)."""
        shape = self.drawable_shape
        if shape is None:
            return
        for state_id in shape.states_to_redraw_queue:
            shape.states[state_id].generated = False  # drawn on demand (its old face had another text)
        shape.states_to_redraw_queue.clear()
        shape.set_active_state(shape.active_state.state_id)  # the one shown, drawn now if it is not


FACE_END: Final = 24  # the columns kept at each end of a face stretched to another width (stretch_faces)


def stretch_faces(template: UIButton, widths: Iterable[int], states: Iterable[str] | None = None) -> int:
    """Faces for buttons as tall as ``template`` at each of ``widths``, in ``states`` (None: every state
    the button has), put in pygame-gui's
    shape cache (where a button of that size takes its face from instead of drawing it) unless it has
    them: ``template``'s face for that state, its two ends kept and its middle column stretched between
    them. pygame-gui draws a face (the rounded, shaded frame) at four times its size and scales it down,
    ~1 ms a state; a stretched one costs ~0.05 ms. The theme's faces shade only from top to bottom, so the
    middle columns are all alike: from a template 136 px wide or more, the stretched face is pygame-gui's
    own pixel for pixel at those widths; narrower ones pygame-gui antialiases a little differently (at
    most 16 pixels of a face differ, by at most 23 levels of 255: ``tests/ui/test_button_faces.py``).
    Returns the faces added (issue 13: the first frame after a command showed bar buttons at sizes
    pygame-gui had not drawn)."""
    shape = template.drawable_shape
    if not isinstance(shape, RoundedRectangleShape) or "filled_bar" in shape.theming:
        return 0
    cache = shape.shape_cache
    tw, h = shape.containing_rect.size
    if tw < 2 * FACE_END + 1 or shape.has_been_resized:
        return 0
    added = 0
    wanted = sorted({w for w in widths if w >= 2 * FACE_END + 1})
    for state in shape.states if states is None else [s for s in states if s in shape.states]:
        ids = {
            w: cache.build_cache_id(
                "rounded_rectangle",
                (w, h),
                shape.shadow_width,
                shape.border_widths,
                shape.theming[f"{state}_border"],
                shape.theming[f"{state}_bg"],
                shape.shape_corner_radius,
            )
            for w in [tw, *wanted]
        }
        missing = [
            w
            for w in wanted
            if ids[w] not in cache.cache_short_term_lookup and ids[w] not in cache.cache_long_term_lookup
        ]
        if not missing:
            continue
        face = cache.find_surface_in_cache(ids[tw])
        if face is None:  # the template's own face for that state, drawn by pygame-gui (and cached)
            shape.redraw_state(state)
            face = cache.find_surface_in_cache(ids[tw])
            if face is None:
                continue
        middle = face.subsurface(pygame.Rect(FACE_END, 0, 1, h))
        for w in missing:
            out = pygame.Surface((w, h), flags=pygame.SRCALPHA, depth=32)
            out.fill((0, 0, 0, 0))
            add = pygame.BLEND_RGBA_ADD  # onto nothing: the pixels copied as they are, alpha and all
            out.blit(face, (0, 0), pygame.Rect(0, 0, FACE_END, h), special_flags=add)
            out.blit(pygame.transform.scale(middle, (w - 2 * FACE_END, h)), (FACE_END, 0), special_flags=add)
            out.blit(face, (w - FACE_END, 0), pygame.Rect(tw - FACE_END, 0, FACE_END, h), special_flags=add)
            cache.add_surface_to_cache(out, ids[w])
            added += 1
    return added


@dataclass(slots=True)
class Shell:
    """What the menu screens share: the preferences, the sounds, and how to apply a window change."""

    prefs: Prefs = field(default_factory=Prefs)
    sounds: SoundBank | None = None
    prefs_path: Path | None = None  # None: the user's config directory (prefs.settings_path())
    # Applies window size / fullscreen from the prefs to the real window (the App does it).
    apply_display: Callable[[Prefs], None] | None = None
    notice: str | None = None  # shown once on the title screen (a settings file that could not be used)

    @property
    def settings_file(self) -> Path:
        return self.prefs_path if self.prefs_path is not None else settings_path()

    def play(self, name: str) -> None:
        if self.sounds is not None:
            self.sounds.play(name)

    def save(self, prefs: Prefs) -> Path:
        """Make ``prefs`` current, apply what can be applied live, write them. OSError if not written."""
        old = self.prefs
        self.prefs = prefs.copy()
        if self.sounds is not None:
            self.sounds.set_volume(prefs.volume, prefs.muted)
        if self.apply_display is not None and (
            old.window_size != prefs.window_size or old.fullscreen != prefs.fullscreen
        ):
            self.apply_display(self.prefs)
        return save_prefs(self.prefs, self.prefs_path)


class GuiScene(Scene):
    """A screen made of pygame-gui widgets over a drawn background.

    Subclasses implement :meth:`build` (create the widgets for ``self.size`` at ``self.scale``) and may
    override :meth:`on_event` and :meth:`draw_background`. Widget callbacks call :meth:`act` to make the
    scene return an action (push a screen, close, quit) from the current event or frame.
    """

    def __init__(self, shell: Shell, size: tuple[int, int] = settings.WINDOW_SIZE) -> None:
        self.shell = shell
        self.size = size
        self.scale = 1.0
        self.manager: GuiManager | None = None
        self._built_for: tuple[tuple[int, int], float] | None = None
        self._pending: Action | None = None
        self._deferred: list[Callable[[], None]] = []
        self._fresh = False  # built, and not updated since (settle() before drawing it)
        self._hushed_at: tuple[int, int] | None = None  # no tooltip until the pointer leaves this spot

    # -- building
    def px(self, value: float) -> int:
        """A layout length at the current scale."""
        return round(value * self.scale)

    def build(self, manager: GuiManager) -> None:
        raise NotImplementedError

    def rebuild(self) -> None:
        """Throw the widgets away and build them again (after a state change that alters the layout)."""
        self._built_for = None
        self.ensure_built()

    def ensure_built(self) -> GuiManager:
        scale = layout_scale(self.size, self.shell.prefs.ui_scale)
        key = (self.size, scale)
        if self.manager is None or key != self._built_for:
            if self.manager is None or scale != self.scale:
                self.manager = create_manager(self.size, scale)
            else:
                self.manager.set_window_resolution(self.size)
                self.manager.clear_and_reset()  # type: ignore[no-untyped-call]
            self.scale = scale
            self._built_for = key
            self.build(self.manager)
            self._fresh = True
        return self.manager

    def settle(self) -> None:
        """Let pygame-gui lay out widgets built since the last update: a screen drawn under a dialog gets
        no update() (after a UI-scale change it would show its panels blank until the dialog closed)."""
        if self.manager is not None:
            self.manager.update(0.0)
        self._fresh = False

    def hush(self) -> None:
        """Take every tooltip down, and show none until the pointer moves: called when a screen opens over
        this one and when it is on top again (a tooltip of the button that opened a dialog would
        otherwise hang on over the dialog, or come back as it closes with the pointer still there)."""
        manager = self.manager
        if manager is None:
            return
        for sprite in manager.get_sprite_group().sprites():
            if isinstance(sprite, UITooltip):
                sprite.kill()  # type: ignore[no-untyped-call]
            elif getattr(sprite, "tool_tip", None) is not None:
                setattr(sprite, "tool_tip", None)  # noqa: B010 (pygame-gui's element, typed as a sprite)
        self._hushed_at = manager.pointer if manager.pointer is not None else manager.get_mouse_position()

    def _keep_hushed(self, manager: pygame_gui.UIManager) -> None:
        """While hushed, the element under the pointer never waits long enough to show its tooltip."""
        for sprite in manager.get_sprite_group().sprites():
            if getattr(sprite, "hovered", False) and hasattr(sprite, "hover_time"):
                sprite.hover_time = 0.0

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        # lay the widgets out again now and let pygame-gui settle them: a screen under a dialog gets no
        # update() until the dialog closes, and would be drawn with its old layout meanwhile
        self.ensure_built().update(0.0)

    def button(
        self,
        rect: pygame.Rect,
        text: str,
        command: Callable[[], None],
        *,
        object_id: str | None = None,
        class_id: str | None = None,
        tooltip: str | None = None,
        enabled: bool = True,
        container: Any = None,
        sound: str | None = "click",
    ) -> TipButton:
        """A themed button that plays a click and runs ``command`` when pressed.

        The command runs after pygame-gui has finished with the event, so it may rebuild the widgets.
        """

        def pressed() -> None:
            if sound is not None:
                self.shell.play(sound)
            self._deferred.append(command)

        widget = TipButton(
            rect,
            text,
            manager=self.manager,
            container=container,
            tool_tip_text=tooltip,
            object_id=ObjectID(object_id=object_id, class_id=class_id),
            command=pressed,
        )
        widget.set_enabled(enabled)
        return widget

    # -- actions
    def act(self, action: Action) -> None:
        self._pending = action

    def _take(self) -> Action | None:
        while self._deferred:
            self._deferred.pop(0)()
        action, self._pending = self._pending, None
        return action

    # -- the Scene protocol
    def handle(self, event: pygame.event.Event) -> Action | None:
        manager = self.ensure_built()
        moved = event.type == pygame.MOUSEMOTION and tuple(event.pos) != tuple(self._hushed_at or ())
        if self._hushed_at is not None and moved:
            self._hushed_at = None  # the pointer moved: tooltips as usual
        consumed = manager.process_events(event)
        action = self._take()
        if action is not None:
            return action
        return self.on_event(event, consumed)

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        return None

    def update(self, dt: float) -> Action | None:
        manager = self.ensure_built()
        if self._hushed_at is not None:
            self._keep_hushed(manager)
        manager.update(dt)
        self._fresh = False
        return self._take()

    def draw_background(self, surface: pygame.Surface) -> None:
        surface.fill(settings.ERROR_BG)

    def draw(self, surface: pygame.Surface) -> None:
        manager = self.ensure_built()
        if self._fresh:
            self.settle()
        self.draw_background(surface)
        manager.draw_ui(surface)
