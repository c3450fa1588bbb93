"""Panning the battle map with held keys, by time rather than by frames: the picture moves at
:data:`PAN_SCREENS_PER_SECOND` view widths (or heights) a second whatever the frame rate, so a screen's
width takes under a second (issue 13: "key panning is fast"). A press nudges at once by one
:data:`NUDGE_SECONDS`' worth, so a tap that is let go before the next frame still moves the map.
"""

from __future__ import annotations

from typing import Final

from game.ui.camera import Camera

__all__ = ["NUDGE_SECONDS", "PAN_SCREENS_PER_SECOND", "HeldPan"]

PAN_SCREENS_PER_SECOND: Final = 1.25  # a view's width in 0.8 s
NUDGE_SECONDS: Final = 1 / 20


class HeldPan:
    """The pan keys held down and the way each moves the map picture ((1, 0): the map moves right)."""

    def __init__(self) -> None:
        self.held: dict[int, tuple[int, int]] = {}

    def press(self, key: int, direction: tuple[int, int], camera: Camera) -> None:
        first = key not in self.held
        self.held[key] = direction
        if first:
            self._move(camera, (direction,), NUDGE_SECONDS)

    def release(self, key: int) -> None:
        self.held.pop(key, None)

    def clear(self) -> None:
        self.held.clear()

    def scroll(self, camera: Camera, dt: float) -> None:
        """A frame of ``dt`` seconds with the held keys down."""
        if self.held and dt > 0:
            self._move(camera, tuple(self.held.values()), min(dt, 0.25))  # a stall does not fling the map

    @staticmethod
    def _move(camera: Camera, directions: tuple[tuple[int, int], ...], seconds: float) -> None:
        dx = sum(d[0] for d in directions)
        dy = sum(d[1] for d in directions)
        dx, dy = max(-1, min(1, dx)), max(-1, min(1, dy))
        step = PAN_SCREENS_PER_SECOND * seconds
        camera.pan_screen(dx * camera.view_w * step, dy * camera.view_h * step)
