"""An idle window sleeps (issue 13: an idle title screen or quiet battle took ~60% of a core): after a while
with no input and nothing moving, App.step polls for input at a low rate, asleep in between, and draws a
frame only now and then; the first input brings the full rate back."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import math
from collections.abc import Iterator

import pygame
import pytest

from game.ui import settings
from game.ui.app import App
from game.ui.scenes import Scene


class Still(Scene):
    def __init__(self) -> None:
        self.moving = False
        self.updates = 0

    def animating(self) -> bool:
        return self.moving

    def update(self, dt: float) -> None:
        self.updates += 1


class SpyClock:
    """Records the frame rates asked of it instead of sleeping."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    def tick(self, fps: int = 0) -> int:
        self.asked.append(fps)
        return 1000 // fps if fps else 0


@pytest.fixture
def app(monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    monkeypatch.setattr(settings, "IDLE_AFTER", 0.0)
    app = App((320, 240), "idle")
    app.clock = SpyClock()  # type: ignore[assignment]
    try:
        yield app
    finally:
        pygame.display.quit()


def test_a_quiet_window_polls_at_the_idle_rate_and_draws_seldom(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    scene = Still()
    app.push(scene)
    app.step()
    assert app.idle
    drawn = app.frames_drawn
    clock = app.clock
    assert isinstance(clock, SpyClock)
    polls = math.ceil(settings.IDLE_REDRAW_SECONDS * 1000 / (1000 // settings.IDLE_POLL_FPS))
    for _ in range(polls - 1):
        app.step()
    assert app.frames_drawn == drawn  # nothing drawn while waiting
    assert clock.asked[-(polls - 1) :] == [settings.IDLE_POLL_FPS] * (polls - 1)  # asleep between polls
    app.step()
    assert app.frames_drawn == drawn + 1  # a frame now and then (a tooltip, the acting token's pulse)
    # input: a frame at once, and the full rate again for IDLE_AFTER seconds
    monkeypatch.setattr(settings, "IDLE_AFTER", 60.0)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(1, 1), buttons=(0, 0, 0)))
    app.step()
    assert app.frames_drawn == drawn + 2
    assert not app.idle
    app.step()
    assert clock.asked[-1] == settings.FPS_LIMIT and app.frames_drawn == drawn + 3


def test_a_moving_screen_or_a_held_key_keeps_the_full_rate(app: App) -> None:
    scene = Still()
    scene.moving = True
    app.push(scene)
    for _ in range(5):
        app.step()
    assert not app.idle and app.frames_drawn == 5
    scene.moving = False
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode="a", scancode=0))
    app.step()
    app.step()
    assert not app.idle  # the key is still down (a pan key held)
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_a, mod=0, unicode="a", scancode=0))
    app.step()
    assert app.idle


def test_frames_with_a_given_time_step_never_idle(app: App) -> None:
    """Tests and screenshots step with an explicit dt: every step is a frame."""
    app.push(Still())
    for _ in range(10):
        app.step(1 / 60)
    assert app.frames_drawn == 10 and not app.idle
