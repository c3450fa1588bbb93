"""Screens as a stack (python-tcod tutorial style): a scene's handlers return what should happen next.

A handler returns None (stay), :class:`Push` (open a screen on top), :class:`Pop` (close this one),
:class:`Replace` (swap this one), :class:`Unwind` (close every screen above the bottom ones, then maybe open
one: "back to the title") or :class:`Quit`. Game commands for the match will travel the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from game.battlefield import Battlefield
from game.tiledmap import MapProblem, TiledMap
from game.ui import settings
from game.ui.hud import Segment, StatusBar, TextCache, status_segments
from game.ui.mapview import MapView
from game.ui.terrain import TerrainLookup


class Scene:
    """One screen. ``opaque`` scenes hide the scenes under them (only the top opaque one and above draw)."""

    opaque = True

    def handle(self, event: pygame.event.Event) -> Action | None:
        return None

    def update(self, dt: float) -> Action | None:
        return None

    def draw(self, surface: pygame.Surface) -> None:
        return None

    def resize(self, size: tuple[int, int]) -> None:
        return None

    def revealed(self) -> None:
        """Called when the screens above this one have closed and it is on top again."""
        return

    def animating(self) -> bool:
        """Whether something on this screen moves without input (dice rolling, a computer player, map
        pictures still being built): the window then keeps drawing at the full rate rather than idling."""
        return False

    def hush(self) -> None:
        """Called when a screen opens over this one and when this one is on top again: a screen with
        tooltips takes them down (:meth:`game.ui.gui.GuiScene.hush`)."""
        return

    def closed(self) -> None:
        """Called once when this screen leaves the stack for good (a screen watching files stops)."""
        return

    def on_close_request(self) -> Action | None:
        """The window's close button was pressed. The App asks the scenes from the top down; the first
        answer is applied (a battle asks before it is left). None from every scene: the game quits."""
        return None


@dataclass(frozen=True, slots=True)
class Push:
    scene: Scene


@dataclass(frozen=True, slots=True)
class Pop:
    pass


@dataclass(frozen=True, slots=True)
class Replace:
    scene: Scene


@dataclass(frozen=True, slots=True)
class Unwind:
    """Close the screens above the bottom ``keep`` (the title), then open ``scene`` if given."""

    scene: Scene | None = None
    keep: int = 1


@dataclass(frozen=True, slots=True)
class Quit:
    exit_code: int = 0


Action = Push | Pop | Replace | Unwind | Quit

_PAN_KEYS: dict[int, tuple[int, int]] = {
    pygame.K_a: (1, 0),
    pygame.K_LEFT: (1, 0),
    pygame.K_d: (-1, 0),
    pygame.K_RIGHT: (-1, 0),
    pygame.K_w: (0, 1),
    pygame.K_UP: (0, 1),
    pygame.K_s: (0, -1),
    pygame.K_DOWN: (0, -1),
}
KEY_PAN_NUDGE = 48  # screen pixels moved at once on a key press, before the held-key glide starts


class BattleScene(Scene):
    """The map with camera controls, the hovered hex outlined and its facts on the status line.

    Esc (or Q) returns ``back``: Quit by default; Pop when the map was opened from the title screen.
    """

    def __init__(
        self,
        tmap: TiledMap,
        size: tuple[int, int],
        battlefield: Battlefield | None = None,
        back: Action | None = None,
    ) -> None:
        self.back: Action = Quit() if back is None else back
        self.map = tmap
        self.size = size
        self.view = MapView(tmap, self._view_size(size))
        self.terrain = TerrainLookup(tmap, battlefield)
        self.status = StatusBar()
        self.title = str(tmap.properties.get("title") or tmap.path.stem)
        self._drag_button: int | None = None
        self._held: set[int] = set()
        self._mouse: tuple[int, int] | None = None

    @staticmethod
    def _view_size(size: tuple[int, int]) -> tuple[int, int]:
        return size[0], max(1, size[1] - settings.STATUS_HEIGHT)

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.view.resize(self._view_size(size))
        self._refresh_hover()

    def _refresh_hover(self) -> None:
        if self._mouse is None:
            self.view.hover = None
        else:
            self.view.set_hover_screen(*self._mouse)

    def handle(self, event: pygame.event.Event) -> Action | None:
        if event.type == pygame.MOUSEMOTION:
            self._mouse = event.pos
            if self._drag_button is not None:
                self.view.camera.pan_screen(*event.rel)
            self._refresh_hover()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in settings.DRAG_BUTTONS:
            self._drag_button = event.button
            self._mouse = event.pos
        elif event.type == pygame.MOUSEBUTTONUP and event.button == self._drag_button:
            self._drag_button = None
        elif event.type == pygame.MOUSEWHEEL:
            anchor = (
                self._mouse
                if self._mouse is not None
                else (self.view.camera.view_w // 2, self.view.camera.view_h // 2)
            )
            notches = event.precise_y if getattr(event, "precise_y", 0) else event.y
            self.view.zoom_by(notches, anchor)
            self._refresh_hover()
        elif event.type == pygame.WINDOWLEAVE:
            self._mouse = None
            self._refresh_hover()
        elif event.type == pygame.KEYDOWN:
            return self._key_down(event.key)
        elif event.type == pygame.KEYUP:
            self._held.discard(event.key)
        return None

    def _key_down(self, key: int) -> Action | None:
        if key in _PAN_KEYS:
            self._held.add(key)
            dx, dy = _PAN_KEYS[key]
            self.view.camera.pan_screen(dx * KEY_PAN_NUDGE, dy * KEY_PAN_NUDGE)
            self._refresh_hover()
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.view.zoom_by(1, self._center())
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.view.zoom_by(-1, self._center())
        elif key == pygame.K_0:
            self.view.set_zoom(1.0)
        elif key == pygame.K_g:
            self.view.toggle_grid()
        elif key == pygame.K_c:
            self.view.toggle_coords()
        elif key in (pygame.K_ESCAPE, pygame.K_q):
            return self.back
        return None

    def _center(self) -> tuple[int, int]:
        return self.view.camera.view_w // 2, self.view.camera.view_h // 2

    def animating(self) -> bool:
        return bool(self._held) or self.view.pending > 0

    def update(self, dt: float) -> Action | None:
        if self._held:
            dx = sum(_PAN_KEYS[k][0] for k in self._held)
            dy = sum(_PAN_KEYS[k][1] for k in self._held)
            step = settings.KEY_PAN_SPEED * min(dt, 0.1)
            if dx or dy:
                self.view.camera.pan_screen(dx * step, dy * step)
                self._refresh_hover()
        return None

    def status_segments(self) -> list[Segment]:
        report = None
        if self.view.hover is not None:
            report = self.terrain.report(*self.view.hover)
        return status_segments(
            report, f"{self.title}  \u2014  drag or WASD to pan, wheel to zoom, G grid, C coordinates"
        )

    def status_text(self) -> str:
        return "".join(s.text for s in self.status_segments())

    def draw(self, surface: pygame.Surface) -> None:
        self.view.draw(surface, (0, 0))
        bar = pygame.Rect(0, self.size[1] - settings.STATUS_HEIGHT, self.size[0], settings.STATUS_HEIGHT)
        self.status.draw(surface, bar, self.status_segments(), f"{round(self.view.camera.zoom * 100)}%")


class ErrorScene(Scene):
    """A map's problems, phrased for the GM, on a parchment panel: the same list `check-map` prints.

    Long lists scroll (wheel, arrow keys, Page Up/Down). When the map did load and only breaks the
    conventions, ``open_anyway`` lets the GM look at it regardless (Enter); Esc always closes.
    """

    def __init__(
        self,
        heading: str,
        problems: list[MapProblem] | list[str],
        open_anyway: Callable[[], Scene] | None = None,
    ) -> None:
        self.heading = heading
        self.lines = [str(p) for p in problems]
        self.open_anyway = open_anyway
        self.text = TextCache(settings.ERROR_FONT_SIZE)
        self.title_text = TextCache(settings.ERROR_FONT_SIZE + 6)
        self.size = settings.WINDOW_SIZE
        self.scroll = 0  # index of the first wrapped row shown
        self._wrapped: list[str] = []
        self._wrapped_width = -1
        self._rows_visible = 1

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    @property
    def hint(self) -> str:
        if self.open_anyway is not None:
            return "Fix the map in Tiled and open it again.  Enter: open it anyway.  Esc closes."
        return "Fix the map in Tiled and open it again.  Esc closes."

    def _scroll_by(self, rows: int) -> None:
        limit = max(0, len(self._wrapped) - self._rows_visible)
        self.scroll = max(0, min(limit, self.scroll + rows))

    def handle(self, event: pygame.event.Event) -> Action | None:
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_ESCAPE, pygame.K_q):
                return Quit(1)
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                return Replace(self.open_anyway()) if self.open_anyway is not None else Quit(1)
            steps = {
                pygame.K_DOWN: 1,
                pygame.K_UP: -1,
                pygame.K_PAGEDOWN: self._rows_visible - 1,
                pygame.K_PAGEUP: -(self._rows_visible - 1),
                pygame.K_END: len(self._wrapped),
                pygame.K_HOME: -len(self._wrapped),
            }
            if event.key in steps:
                self._scroll_by(steps[event.key])
        elif event.type == pygame.MOUSEWHEEL:
            self._scroll_by(-3 * event.y)
        return None

    def _layout(self, max_width: int) -> list[str]:
        """Wrapped rows, computed once per panel width (not per frame)."""
        if max_width != self._wrapped_width:
            self._wrapped = [
                row for line in self.lines for row in _wrap(self.text, "\u2022 " + line, max_width)
            ]
            self._wrapped_width = max_width
        return self._wrapped

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(settings.ERROR_BG)
        w, h = surface.get_size()
        panel = pygame.Rect(40, 40, w - 80, h - 80)
        pygame.draw.rect(surface, settings.ERROR_PANEL, panel, border_radius=6)
        pygame.draw.rect(surface, settings.STATUS_BORDER, panel, 4, border_radius=6)
        y = panel.y + 24
        title = self.title_text.render(self.heading, settings.ERROR_TITLE, bold=True)
        surface.blit(title, (panel.x + 24, y))
        y += title.get_height() + 16
        rows = self._layout(panel.width - 48)
        bottom = panel.bottom - 60
        self._rows_visible = max(1, (bottom - y) // self.text.line_height - 1)
        self._scroll_by(0)
        shown = rows[self.scroll : self.scroll + self._rows_visible]
        if self.scroll > 0:
            more = self.text.render(f"\u25b2 {self.scroll} more rows above", settings.STATUS_TEXT_DIM)
            surface.blit(more, (panel.right - 24 - more.get_width(), panel.y + 24))
        for row in shown:
            surface.blit(self.text.render(row, settings.ERROR_TEXT), (panel.x + 24, y))
            y += self.text.line_height
        below = len(rows) - self.scroll - len(shown)
        if below > 0:
            more = self.text.render(
                f"\u25bc {below} more rows below: scroll with the wheel or the arrow keys",
                settings.STATUS_TEXT_DIM,
            )
            surface.blit(more, (panel.x + 24, y + 4))
        hint = self.text.render(self.hint, settings.STATUS_TEXT_DIM)
        surface.blit(hint, (panel.x + 24, panel.bottom - 24 - hint.get_height()))


def _wrap(text_cache: TextCache, text: str, width: int) -> list[str]:
    words = text.split(" ")
    lines: list[str] = []
    current = ""
    for word in words:
        candidate = f"{current} {word}" if current else word
        if current and text_cache.render(candidate, settings.ERROR_TEXT).get_width() > width:
            lines.append(current)
            current = "   " + word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines
