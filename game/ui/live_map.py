"""Live maps on screen (issue 15): the map view and the New Battle preview follow their map's files.

A :class:`~game.livemap.MapWatcher` watches the map's ``.tmx``, tilesets and images on a background thread
and wakes the window (a posted :data:`WAKE_EVENT`); the scene's ``update`` on the main loop takes the
changes once the save is complete and reloads with :func:`game.mapcheck.load_checked`:

- :class:`LiveMapScene` (``hexslinger play MAP``): the map view, rebuilt from the new file with the same
  camera (centre, zoom) and the grid and coordinate toggles; while the file is broken, check-map's problems
  take the map's place (:class:`LiveProblems`), and the map comes back when the file is fixed.
- :class:`~game.ui.live_newbattle.LiveNewBattleScene`: the New Battle screen whose list, picture and
  details are read again when a map (or a tileset) changes; while the picked map has problems, they take
  the picture's place.

A battle in GM mode reloads the same way (:mod:`game.ui.live_battle`): the new board comes into the
battle as a GM edit, the camera kept as :func:`keep_camera` keeps it. The window's title follows the map's
(:func:`window_title`) after each reload, here and in a battle.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Final

import pygame

from game.livemap import MapWatcher, map_files
from game.mapcheck import CheckedMap, load_checked
from game.tiledmap import MapProblem, TiledMap
from game.ui import settings
from game.ui.hud import TextCache
from game.ui.mapview import MapView
from game.ui.scenes import Action, BattleScene, ErrorScene, Quit, Scene

__all__ = [
    "RELOADED_SECONDS",
    "WAKE_EVENT",
    "LiveMapScene",
    "LiveProblems",
    "keep_camera",
    "problems_picture",
    "set_window_title",
    "window_title",
]

WAKE_EVENT: Final = pygame.event.custom_type()  # posted by the watching thread: a map file changed
RELOADED_SECONDS: Final = 2.0  # how long "Reloaded" shows over the map


def post_wake() -> None:
    """Wake the window from idle (called on the watching thread; SDL's event queue is thread-safe)."""
    with contextlib.suppress(pygame.error):  # the window is closing
        pygame.event.post(pygame.event.Event(WAKE_EVENT))


def window_title(tmap: TiledMap | None, map_path: Path) -> str:
    """The window's title for a map: "Hexslinger — <the map's title>" (its file name without one)."""
    name = str(tmap.properties.get("title") or map_path.stem) if tmap is not None else map_path.name
    return f"{settings.WINDOW_TITLE}{settings.TITLE_SEPARATOR}{name}"


def set_window_title(title: str) -> None:
    """Give the window this title (nothing when no window is open)."""
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        pygame.display.set_caption(title)


def problem_heading(path: Path, checked: CheckedMap) -> str:
    if checked.tmap is None:
        return f"Cannot open {path.name}"
    count = len(checked.problems)
    return f"{count} problem{'s' if count != 1 else ''} in {path.name}"


class LiveProblems(ErrorScene):
    """check-map's problems in place of a live map: the same panel, saying the map reloads by itself."""

    @property
    def hint(self) -> str:
        if self.open_anyway is not None:
            return "Fix the map in Tiled and save: it reloads by itself.  Enter: show it anyway.  Esc closes."
        return "Fix the map in Tiled and save: it reloads by itself.  Esc closes."


def keep_camera(old: MapView, new: MapView) -> None:
    """Put ``new``'s camera where ``old``'s was (the same map point in the middle, the same zoom), kept on
    the new map if it shrank; the grid and coordinate toggles carry over too."""
    cam = new.camera
    cam.zoom = max(cam.min_zoom, min(settings.ZOOM_MAX, old.camera.zoom))
    cam.center_x, cam.center_y = old.camera.center_x, old.camera.center_y
    cam.clamp()
    new.show_grid, new.show_coords = old.show_grid, old.show_coords


class LiveMapScene(Scene):
    """The map view of ``hexslinger play MAP`` that reloads when the map's files change on disk.

    ``checked`` is the first load (loaded here when None). Esc (or Q) returns ``back`` (Quit by default),
    from the map and from the problem list alike. ``watch=False`` makes a plain, still view.
    """

    def __init__(
        self,
        path: str | Path,
        size: tuple[int, int],
        *,
        checked: CheckedMap | None = None,
        back: Action | None = None,
        watch: bool = True,
    ) -> None:
        self.path = Path(path)
        self.size = size
        self.back: Action = Quit() if back is None else back
        self.checked = checked if checked is not None else load_checked(self.path)
        self.view_scene: BattleScene | None = None  # the map (kept while the file is broken)
        self.inner: Scene = self._scene_for(self.checked)
        self.reloads = 0
        self.last_reload_ms = 0.0
        self._reloaded_at: float | None = None
        self._toast = TextCache(settings.ERROR_FONT_SIZE)
        self.watcher: MapWatcher | None = None
        if watch:
            self.watcher = MapWatcher(self._files(self.checked), loose=not self.checked.ok, wake=post_wake)

    # -- state
    @property
    def broken(self) -> bool:
        """The problems are on screen instead of the map."""
        return isinstance(self.inner, LiveProblems)

    @property
    def problems(self) -> list[MapProblem]:
        return self.checked.problems

    def _files(self, checked: CheckedMap) -> set[Path]:
        files = {self.path.resolve()}
        if checked.tmap is not None:
            files |= map_files(checked.tmap)
        elif self.watcher is not None:  # broken: keep following the files the map was made of
            files |= self.watcher.files
        return files

    def _scene_for(self, checked: CheckedMap) -> Scene:
        if checked.tmap is not None and not checked.problems:
            return self._view(checked)
        anyway = None
        if checked.tmap is not None:

            def anyway() -> Scene:
                return self._view(checked)

        problems = LiveProblems(problem_heading(self.path, checked), checked.problems, anyway)
        problems.resize(self.size)
        return problems

    def _view(self, checked: CheckedMap) -> BattleScene:
        assert checked.tmap is not None
        scene = BattleScene(checked.tmap, self.size, checked.battlefield, self.back)
        if self.view_scene is not None:
            keep_camera(self.view_scene.view, scene.view)
            scene._mouse = self.view_scene._mouse  # the pointer has not moved
            scene._refresh_hover()
        self.view_scene = scene
        return scene

    # -- reloading
    def reload(self) -> None:
        """Read the map again and show it, or its problems (the camera stays where it was)."""
        started = time.perf_counter()
        checked = load_checked(self.path)
        self.checked = checked
        self.inner = self._scene_for(checked)
        set_window_title(window_title(checked.tmap, self.path))
        self.reloads += 1
        self.last_reload_ms = (time.perf_counter() - started) * 1000
        self._reloaded_at = time.monotonic()
        if self.watcher is not None:
            self.watcher.watch(self._files(checked), loose=not checked.ok)

    def _poll(self) -> None:
        if self.watcher is not None and self.watcher.poll() is not None:
            self.reload()

    # -- the Scene protocol
    def handle(self, event: pygame.event.Event) -> Action | None:
        if event.type == WAKE_EVENT:
            return None
        if isinstance(self.inner, LiveProblems) and event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_ESCAPE, pygame.K_q):
                return self.back
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                if self.inner.open_anyway is not None:
                    self.inner = self.inner.open_anyway()
                return None
        return self.inner.handle(event)

    def update(self, dt: float) -> Action | None:
        self._poll()
        return self.inner.update(dt)

    @property
    def notice(self) -> str | None:
        """What the corner of the window says now: a reload just happened, or the watch has stopped."""
        if self.watcher is not None and self.watcher.error is not None:
            return f"Not following {self.path.name} any more ({self.watcher.error}): reopen it to see changes"
        if self._reloaded_at is not None and not self.broken:
            return f"Reloaded {self.path.name} from disk"
        return None

    def draw(self, surface: pygame.Surface) -> None:
        self.inner.draw(surface)
        if self._reloaded_at is not None and time.monotonic() - self._reloaded_at > RELOADED_SECONDS:
            self._reloaded_at = None
        notice = self.notice
        if notice is not None:
            self._draw_toast(surface, notice)

    def _draw_toast(self, surface: pygame.Surface, notice: str) -> None:
        text = self._toast.render(notice, settings.STATUS_TEXT, bold=True)
        box = text.get_rect(topleft=(12, 12)).inflate(20, 10)
        pygame.draw.rect(surface, settings.STATUS_BG, box, border_radius=5)
        pygame.draw.rect(surface, settings.STATUS_BORDER, box, 2, border_radius=5)
        surface.blit(text, text.get_rect(center=box.center))

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.inner.resize(size)
        if self.view_scene is not None and self.view_scene is not self.inner:
            self.view_scene.resize(size)

    def animating(self) -> bool:
        return self.inner.animating() or self._reloaded_at is not None

    def revealed(self) -> None:
        self.inner.revealed()

    def hush(self) -> None:
        self.inner.hush()

    def status_text(self) -> str:
        return self.view_scene.status_text() if self.view_scene is not None and not self.broken else ""

    def closed(self) -> None:
        if self.watcher is not None:
            self.watcher.close()


def problems_picture(heading: str, lines: list[str], size: tuple[int, int]) -> pygame.Surface:
    """check-map's problems drawn to fill a picture of ``size`` (New Battle's preview box): the heading,
    each problem wrapped to the width (long file names broken anywhere), and what to do."""
    w, h = max(40, size[0]), max(40, size[1])
    picture = pygame.Surface((w, h))
    picture.fill(settings.ERROR_PANEL)
    pygame.draw.rect(picture, settings.STATUS_BORDER, picture.get_rect(), 3)
    title = TextCache(settings.ERROR_FONT_SIZE + 2)
    text = TextCache(settings.ERROR_FONT_SIZE - 2)
    pad = 12
    y = pad
    picture.blit(title.render(heading, settings.ERROR_TITLE, bold=True), (pad, y))
    y += title.line_height + 4
    footer = text.render(
        "Fix it in Tiled and save: the picture comes back by itself.", settings.STATUS_TEXT_DIM
    )
    rows = [row for line in lines for row in _wrap_anywhere(text, "\u2022 " + line, w - 2 * pad)]
    room = max(1, (h - y - footer.get_height() - 2 * pad) // text.line_height)
    if len(rows) > room:
        rows = [
            *rows[: room - 1],
            f"\u2026 {len(rows) - room + 1} more rows: hexslinger check-map lists them",
        ]
    for row in rows:
        picture.blit(text.render(row, settings.ERROR_TEXT), (pad, y))
        y += text.line_height
    picture.blit(footer, (pad, h - pad - footer.get_height()))
    return picture


def _wrap_anywhere(text: TextCache, line: str, width: int) -> list[str]:
    """Rows of ``line`` no wider than ``width``: broken at spaces, and inside a word too long for a row."""
    rows: list[str] = []
    current = ""
    for word in line.split(" "):
        candidate = f"{current} {word}" if current else word
        if text.render(candidate, settings.ERROR_TEXT).get_width() <= width:
            current = candidate
            continue
        if text.render("  " + word, settings.ERROR_TEXT).get_width() <= width:
            if current:
                rows.append(current)
            current = "  " + word
            continue
        # a word too long for any row (a file's path): it starts on this row and is broken inside
        current = candidate
        while text.render(current, settings.ERROR_TEXT).get_width() > width and len(current) > 3:
            cut = len(current) - 1
            while cut > 3 and text.render(current[:cut], settings.ERROR_TEXT).get_width() > width:
                cut -= max(1, (cut - 3) // 8)
            rows.append(current[:cut])
            current = "  " + current[cut:]
    if current:
        rows.append(current)
    return rows
