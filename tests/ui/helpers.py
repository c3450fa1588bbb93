"""Drive the menu screens the way a player does: posted mouse and key events only."""

from __future__ import annotations

import pygame

from game.ui.app import App
from game.ui.gui import Shell
from game.ui.prefs import Prefs
from game.ui.settings_screen import SettingsScene
from game.ui.sound import SoundBank
from game.ui.title import TitleScene


def make_shell(app: App, prefs: Prefs | None = None, sounds: SoundBank | None = None) -> Shell:
    return Shell(
        prefs=prefs or Prefs(),
        sounds=sounds,
        apply_display=lambda p: app.set_display(p.window_size, p.fullscreen),
    )


def title_with_settings(app: App, shell: Shell, **kwargs: object) -> TitleScene:
    title = TitleScene(shell, open_settings=lambda: SettingsScene(shell), **kwargs)  # type: ignore[arg-type]
    app.push(title)
    return title


def step(app: App, frames: int = 1, dt: float = 1 / 60) -> None:
    for _ in range(frames):
        app.step(dt)


def post(kind: int, **attrs: object) -> None:
    pygame.event.post(pygame.event.Event(kind, **attrs))


def move(pos: tuple[int, int]) -> None:
    post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))


def click(app: App, pos: tuple[int, int], frames: int = 2) -> None:
    """Point, press and release the left button at ``pos`` (window coordinates), then run frames."""
    move(pos)
    post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
    post(pygame.MOUSEBUTTONUP, pos=pos, button=1)
    step(app, frames)


def press(app: App, key: int, frames: int = 1, mod: int = 0) -> None:
    name = pygame.key.name(key)
    post(pygame.KEYDOWN, key=key, mod=mod, unicode=name if len(name) == 1 else "", scancode=0)
    post(pygame.KEYUP, key=key, mod=mod, unicode=name if len(name) == 1 else "", scancode=0)
    step(app, frames)
