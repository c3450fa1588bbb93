"""The game window: a stack of scenes, one frame per :meth:`App.step`."""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
import time
import weakref
from pathlib import Path
from types import FrameType
from typing import Any

import pygame

from game.mapcheck import load_checked
from game.problems import print_problems
from game.ui import settings
from game.ui.live_map import LiveMapScene, window_title
from game.ui.render import ensure_pygame
from game.ui.scenes import Action, Pop, Push, Quit, Replace, Scene, Unwind

TERMINATED = 128 + signal.SIGTERM  # the exit status after a SIGTERM, as a shell reports a killed program

# SIGTERM (a logout, a `kill`) quits the open windows at once, asking nothing: a battle is autosaved after
# every command. Left to SDL it became a window close, and the battle's "Leave the battle?" kept the
# program alive, waiting for a click no one would give. One handler for every open window, installed with
# the first and the one before it put back with the last; with no window open it does what that one did.
_OPEN: weakref.WeakSet[App] = weakref.WeakSet()
_BEFORE: list[Any] = []  # the SIGTERM handler before the first window, while one is open


def _on_terminate(signum: int, frame: FrameType | None) -> None:
    windows = list(_OPEN)
    for app in windows:
        app.terminated = True
    if not windows:  # a window dropped without close(): the handler from before does the job
        _restore_terminate()
        os.kill(os.getpid(), signum)


def _restore_terminate() -> None:
    if _BEFORE and threading.current_thread() is threading.main_thread():
        before = _BEFORE.pop()
        signal.signal(
            signal.SIGTERM, before if callable(before) or isinstance(before, int) else signal.SIG_DFL
        )


class App:
    """Owns the window and the scene stack. ``step()`` runs exactly one frame (the benchmark's unit)."""

    def __init__(
        self, size: tuple[int, int] = settings.WINDOW_SIZE, title: str = settings.WINDOW_TITLE
    ) -> None:
        ensure_pygame()
        pygame.display.init()
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption(title)
        self.size = self.screen.get_size()
        self.scenes: list[Scene] = []
        self._litter = False  # a screen has left for good since the last collection (:meth:`collect`)
        self.clock = pygame.time.Clock()
        self.running = True
        self.exit_code = 0
        self.idle = False  # no input and nothing moving for a while: the window polls and draws seldom
        self.frames_drawn = 0
        self._last_input = time.monotonic()
        self._waited = 0.0  # seconds since the last frame was run, while idle
        self._held: set[tuple[int, int]] = set()  # keys and mouse buttons down now
        self.terminated = False  # a SIGTERM came: the next frame quits (_on_terminate)
        if not _BEFORE and threading.current_thread() is threading.main_thread():
            _BEFORE.append(signal.signal(signal.SIGTERM, _on_terminate))
        _OPEN.add(self)

    def push(self, scene: Scene) -> None:
        if self.scenes:
            self.scenes[-1].hush()  # no tooltip of the screen below hangs over the new one
        scene.resize(self.size)
        self.scenes.append(scene)

    def _reveal(self) -> None:
        """The top screen is on top again: its stale tooltips gone, then its own refresh."""
        self.scenes[-1].hush()
        self.scenes[-1].revealed()

    @property
    def top(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def apply(self, action: Action | None) -> None:
        if action is None:
            return
        if isinstance(action, Push):
            self.push(action.scene)
        elif isinstance(action, Pop):
            if self.scenes:
                self._left(self.scenes.pop())
            if not self.scenes:
                self.running = False
            else:
                self._reveal()
        elif isinstance(action, Replace):
            if self.scenes:
                self._left(self.scenes.pop())
            self.push(action.scene)
        elif isinstance(action, Unwind):
            keep = max(0, action.keep)
            if len(self.scenes) > keep:
                for scene in reversed(self.scenes[keep:]):
                    self._left(scene)
                del self.scenes[keep:]
                if action.scene is None and self.scenes:
                    self._reveal()
            if action.scene is not None:
                self.push(action.scene)
            elif not self.scenes:
                self.running = False
        elif isinstance(action, Quit):
            self.running = False
            self.exit_code = action.exit_code

    def close_requested(self) -> None:
        """The window's close button: the scenes are asked from the top down (a battle asks before it is
        left, and its question answers a second close with Quit); nobody answering quits."""
        for scene in reversed(self.scenes):
            action = scene.on_close_request()
            if action is not None:
                self.apply(action)
                return
        self.apply(Quit(self.exit_code))

    def handle_events(self) -> int:
        """Hand the waiting events to the top scene; how many there were."""
        events = pygame.event.get()
        for event in events:
            if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
                self._held.add((event.type, getattr(event, "key", getattr(event, "button", 0))))
            elif event.type in (pygame.KEYUP, pygame.MOUSEBUTTONUP):
                down = pygame.KEYDOWN if event.type == pygame.KEYUP else pygame.MOUSEBUTTONDOWN
                self._held.discard((down, getattr(event, "key", getattr(event, "button", 0))))
            elif event.type == pygame.WINDOWFOCUSLOST:
                self._held.clear()
            if event.type == pygame.QUIT:
                self.close_requested()
            elif event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
                self._resized()
            elif self.top is not None:
                self.apply(self.top.handle(event))
        return len(events)

    def _resized(self) -> None:
        surface = pygame.display.get_surface()
        if surface is None:
            return
        self.screen = surface
        self.size = surface.get_size()
        for scene in self.scenes:
            scene.resize(self.size)

    def set_display(self, size: tuple[int, int], fullscreen: bool = False) -> None:
        """Switch the window to ``size`` (or to fullscreen at the desktop size) and re-lay-out every scene.

        If the display refuses fullscreen, the window stays windowed at ``size``.
        """
        try:
            if fullscreen:
                self.screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            else:
                self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        except pygame.error:
            self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self._resized()

    def draw(self) -> None:
        first = 0
        for i in range(len(self.scenes) - 1, -1, -1):
            if self.scenes[i].opaque:
                first = i
                break
        for scene in self.scenes[first:]:
            scene.draw(self.screen)

    def step(self, dt: float | None = None) -> bool:
        """One frame: events, update, draw, flip. Returns False once the app should close.

        With ``dt`` None (the real window) the frame is paced by the clock, and while :attr:`idle` a step
        only waits for input (1 / IDLE_POLL_FPS s, asleep) and runs a frame when input came or
        IDLE_REDRAW_SECONDS have passed; an explicit ``dt`` (tests, screenshots) always runs one."""
        if dt is None:
            rate = settings.IDLE_POLL_FPS if self.idle else settings.FPS_LIMIT
            self._waited += self.clock.tick(rate) / 1000
            waiting = self.idle and not self.terminated and self._waited < settings.IDLE_REDRAW_SECONDS
            if waiting and not pygame.event.peek():
                return self.running
            elapsed, self._waited = self._waited, 0.0
        else:
            elapsed = dt
        if self.terminated:
            self.apply(Quit(TERMINATED))
            return False
        events = self.handle_events()
        if events:
            self._last_input = time.monotonic()
        if self.running and self.top is not None:
            self.apply(self.top.update(elapsed))
        if self.running:
            self.draw()
            pygame.display.flip()
            self.frames_drawn += 1
        if self._litter and not events:
            self.collect()
        self.idle = dt is None and self._quiet()
        return self.running

    def _left(self, scene: Scene) -> None:
        """A screen leaves the stack for good: it is told (:meth:`Scene.closed`), and what it held is freed
        in the next frame without input (:meth:`collect`)."""
        scene.closed()
        self._litter = True

    def collect(self) -> None:
        """Free what the screens left for good held, now, between screens: a battle's widgets and pictures
        are some 10,000 objects in reference cycles (pygame-gui's), which only Python's cyclic collector
        frees. Left to itself it ran in whatever came next, the next battle's opening among them (a full
        collection there took 55-80 ms, docs/PERFORMANCE.md)."""
        gc.collect()
        self._litter = False

    def _quiet(self) -> bool:
        """No input for IDLE_AFTER seconds, no key or mouse button held, nothing on screen moving."""
        if time.monotonic() - self._last_input < settings.IDLE_AFTER:
            return False
        if self._held:
            return False
        return not any(scene.animating() for scene in self.scenes)

    def run(self, frames: int | None = None) -> int:
        count = 0
        while self.running and (frames is None or count < frames):
            # With a frame budget (tests, screenshots) do not wait for vsync-like pacing.
            self.step(1 / settings.FPS_LIMIT if frames is not None else None)
            count += 1
        return self.exit_code

    def close(self) -> None:
        """The window is closing: every screen left is told (:meth:`Scene.closed`), the top one first; with
        the last window closed, SIGTERM is handled as it was before the first opened."""
        while self.scenes:
            self.scenes.pop().closed()
        _OPEN.discard(self)
        if not _OPEN:
            _restore_terminate()

    def save_screenshot(self, path: Path) -> None:
        pygame.image.save(self.screen, str(path))


def run_app(
    map_path: str | Path,
    size: tuple[int, int] = settings.WINDOW_SIZE,
    frames: int | None = None,
    screenshot: Path | None = None,
    mouse: tuple[int, int] | None = None,
    *,
    watch: bool = True,
) -> int:
    """Open the window on a map; returns the exit status (1 when the map still has problems at the end).

    A broken map is reported on stderr and shown in the window, problem by problem (no traceback). The
    view is live (:class:`~game.ui.live_map.LiveMapScene`, ``watch``): it reloads when the map's files
    change on disk, and shows the problems instead of the map while the file is broken.
    ``mouse`` posts a pointer move to that window position first, so a headless screenshot shows the
    hover outline and status line as a player would see them.
    """
    path = Path(map_path)
    checked = load_checked(path)
    if checked.problems:
        verdict = "cannot open" if checked.tmap is None else "problems in"
        print_problems(f"hexslinger: {verdict} {path}:", checked.problems, err=True)
    try:
        app = App(size, window_title(checked.tmap, path))
    except pygame.error as error:
        print(f"hexslinger: cannot open a window: {error}", file=sys.stderr)
        return 1
    try:
        scene = LiveMapScene(path, app.size, checked=checked, watch=watch)
        app.push(scene)
        if mouse is not None:
            pygame.event.post(
                pygame.event.Event(pygame.MOUSEMOTION, pos=mouse, rel=(0, 0), buttons=(0, 0, 0))
            )
        code = app.run(frames)
        if screenshot is not None:
            try:
                app.save_screenshot(screenshot)
            except (pygame.error, OSError) as error:
                print(f"hexslinger: cannot write {screenshot}: {error}", file=sys.stderr)
                code = 1
        return 1 if scene.problems else code
    finally:
        app.close()
        pygame.display.quit()
