"""A screen left for good is freed between screens (``App.collect``), not whenever Python's cyclic
collector next runs — which was, now and then, in the middle of the next battle's opening
(docs/PERFORMANCE.md, issue 13: a full collection there took 55-80 ms)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable, Iterator

import pygame
import pytest

from game.ui.app import App
from game.ui.scenes import Pop, Replace, Scene, Unwind


class _Held:
    """Something a screen holds in a reference cycle (as pygame-gui's widgets are)."""

    def __init__(self) -> None:
        self.me = self


class _Heavy(Scene):
    def __init__(self) -> None:
        self.held = _Held()


@pytest.fixture
def no_automatic_collection() -> Iterator[None]:
    """Python's own collector off, so only the App's collection can free a cycle in the test."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@pytest.mark.parametrize("leave", [Pop(), Replace(Scene()), Unwind(keep=1)], ids=["pop", "replace", "unwind"])
def test_a_screen_left_is_freed_in_the_next_frame_without_input(
    make_app: Callable[[tuple[int, int]], App], no_automatic_collection: None, leave: object
) -> None:
    app = make_app((640, 400))
    app.push(Scene())  # the title under it
    heavy = _Heavy()
    held = weakref.ref(heavy.held)
    app.push(heavy)
    app.step(1 / 60)
    del heavy
    assert held() is not None
    app.apply(leave)  # type: ignore[arg-type]
    assert held() is not None  # a cycle: not freed by its last reference going
    app.step(1 / 60)  # the next frame, no input: the App frees it
    assert held() is None


def test_a_frame_with_input_waits_and_the_next_quiet_one_frees(
    make_app: Callable[[tuple[int, int]], App], no_automatic_collection: None
) -> None:
    app = make_app((640, 400))
    app.push(Scene())
    heavy = _Heavy()
    held = weakref.ref(heavy.held)
    app.push(heavy)
    del heavy
    app.apply(Pop())
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(10, 10), rel=(1, 1), buttons=(0, 0, 0)))
    app.step(1 / 60)  # the player is doing something: no pause for it now
    assert held() is not None
    app.step(1 / 60)
    assert held() is None
