"""The battle view's camera: which part of the map is on screen, and how big."""

from __future__ import annotations

import math
from dataclasses import dataclass

from game.ui import settings


def quantize_zoom(zoom: float, lowest: float = settings.ZOOM_MIN) -> float:
    """Clamp (to ``lowest`` .. ZOOM_MAX) and snap a zoom so nearby zooms share one cached rendering."""
    clamped = min(settings.ZOOM_MAX, max(lowest, zoom))
    return max(lowest, round(clamped / settings.ZOOM_QUANTUM) * settings.ZOOM_QUANTUM)


def fitting_zoom(size: tuple[float, float], view: tuple[int, int], margin: float = 0.0) -> float:
    """The largest zoom (on the quantum, rounded down) at which ``size`` map pixels, plus ``margin`` view
    pixels around them, fit a ``view`` of screen pixels."""
    w, h = max(1.0, size[0]), max(1.0, size[1])
    fit = min((view[0] - 2 * margin) / w, (view[1] - 2 * margin) / h)
    return max(settings.ZOOM_QUANTUM, math.floor(fit / settings.ZOOM_QUANTUM) * settings.ZOOM_QUANTUM)


@dataclass(slots=True)
class Camera:
    """Map pixel ``(center_x, center_y)`` is at the middle of a ``view_w`` x ``view_h`` screen area.

    At zoom ``z`` map pixel ``x`` lands on zoomed pixel ``round(x * z)``; the view shows zoomed pixels
    from ``scroll`` on. The centre is kept inside ``bounds`` so part of the map is always on screen.
    """

    center_x: float
    center_y: float
    zoom: float
    view_w: int
    view_h: int
    bounds: tuple[int, int, int, int]  # x, y, w, h of the map in map pixels

    @property
    def min_zoom(self) -> float:
        """The farthest out the camera goes: ZOOM_MIN, or further where the whole map needs it to fit."""
        whole = fitting_zoom((self.bounds[2], self.bounds[3]), (self.view_w, self.view_h))
        return min(settings.ZOOM_MIN, whole)

    @property
    def scroll(self) -> tuple[int, int]:
        """Zoomed-pixel coordinates of the view's top-left corner."""
        return (
            round(self.center_x * self.zoom - self.view_w / 2),
            round(self.center_y * self.zoom - self.view_h / 2),
        )

    def clamp(self) -> None:
        """Keep the view on the map; along an axis where the whole map fits in the view, centre it."""
        bx, by, bw, bh = self.bounds
        if bw * self.zoom <= self.view_w:
            self.center_x = bx + bw / 2
        else:  # the view stays on the map: no empty margin beside it
            half = self.view_w / (2 * self.zoom)
            self.center_x = min(bx + bw - half, max(bx + half, self.center_x))
        if bh * self.zoom <= self.view_h:
            self.center_y = by + bh / 2
        else:
            half = self.view_h / (2 * self.zoom)
            self.center_y = min(by + bh - half, max(by + half, self.center_y))

    def pan_screen(self, dx: float, dy: float) -> None:
        """Move the map picture by (dx, dy) screen pixels (a drag to the right moves the map right)."""
        self.center_x -= dx / self.zoom
        self.center_y -= dy / self.zoom
        self.clamp()

    def screen_to_map(self, sx: float, sy: float) -> tuple[float, float]:
        scroll_x, scroll_y = self.scroll
        return (sx + scroll_x) / self.zoom, (sy + scroll_y) / self.zoom

    def map_to_screen(self, mx: float, my: float) -> tuple[int, int]:
        scroll_x, scroll_y = self.scroll
        return round(mx * self.zoom) - scroll_x, round(my * self.zoom) - scroll_y

    def zoom_at(self, new_zoom: float, sx: float, sy: float) -> None:
        """Zoom so that the map point under screen pixel (sx, sy) stays under it."""
        new_zoom = quantize_zoom(new_zoom, self.min_zoom)
        if math.isclose(new_zoom, self.zoom):
            return
        mx, my = self.screen_to_map(sx, sy)
        self.zoom = new_zoom
        # Put (mx, my) at (sx, sy): sx = mx * z - (cx * z - w / 2)
        self.center_x = mx - (sx - self.view_w / 2) / new_zoom
        self.center_y = my - (sy - self.view_h / 2) / new_zoom
        self.clamp()

    def resize(self, view_w: int, view_h: int) -> None:
        self.view_w, self.view_h = max(1, view_w), max(1, view_h)
        self.clamp()
