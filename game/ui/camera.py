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
    # screen pixels of the view covered by panels drawn over the map (left, top, right, bottom): the
    # camera lets the map's edge come out from under them (GM mode's panel and banner)
    insets: tuple[int, int, int, int] = (0, 0, 0, 0)

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
        """Keep the view on the map; along an axis where the whole map fits in the view, centre it. With
        ``insets``, the same for the part of the view the panels leave uncovered: every edge of the map
        can be brought out from under a panel, and a map that fits the uncovered part is centred in it."""
        bx, by, bw, bh = self.bounds
        left, top, right, bottom = self.insets
        self.center_x = self._along((bx, bw), self.view_w, (left, right), self.center_x)
        self.center_y = self._along((by, bh), self.view_h, (top, bottom), self.center_y)

    def _along(self, span: tuple[float, float], view: int, covered: tuple[int, int], centre: float) -> float:
        """One axis of :meth:`clamp`: the map spans ``start``..``start + size`` (map pixels; ``span``),
        the view ``view`` screen pixels of which ``covered`` ones are under panels at its two ends."""
        start, size = span
        before, after = max(0, covered[0]), max(0, covered[1])
        if before + after >= view:  # covered whole: nothing to keep clear
            before = after = 0
        z = self.zoom
        if size * z <= view - before - after:  # fits the uncovered part: in its middle
            return start + size / 2 + (after - before) / (2 * z)
        # no empty margin inside the uncovered part: the map's near edge at or before its start, the far
        # edge at or after its end
        low = start + (view / 2 - before) / z
        high = start + size - (view / 2 - after) / z
        return min(high, max(low, centre))

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
