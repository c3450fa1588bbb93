"""Which hex centres a Tiled shape covers (deploy zones, objective areas), in time that grows with the
hexes covered and the shape's edges, never with the map times the shapes.

A hex belongs to a shape when its centre lies inside (:func:`shape_contains`: rotation honoured, a
rectangle's or ellipse's edge counts as inside, a polygon is even-odd). Testing every centre of a 512 x 512
map against every shape took seconds per shape; here the centres are taken a *line* at a time (centres of
equal y: a row of a pointy-top map, every other column's cells of a row of a flat-top one):

* a polygon is rasterised: each edge is added to the lines it crosses (found by bisection), so each line
  gets its sorted crossing points and the centres inside are those with an odd number of crossings to
  their right -- the same comparisons, on the same numbers, as :func:`game.hexgrid.polygon_contains`
  (an unrotated polygon is worked in its own coordinates, exactly as the per-point test does; a rotated one
  in map coordinates, so a centre within rounding error of an edge may fall either way);
* a rectangle or an ellipse is convex: each line gets an interval from a polygon around the shape, widened
  by a margin, and only the centres in it are tested exactly with :func:`shape_contains`.

The work (edges times the lines they cross, plus centres tested) is counted against a :class:`Budget`; a
shape that would overrun it is not rasterised and the caller reports it.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from game.hexgrid import StaggerAxis, TiledHexGeometry, polygon_contains
from game.tiledmap import MapObject

__all__ = ["Budget", "CentreLines", "covered_cells", "rotate", "shape_contains"]

_ELLIPSE_POINTS = 64  # the polygon inscribed in an ellipse to find its lines' intervals


def rotate(dx: float, dy: float, degrees: float) -> tuple[float, float]:
    """Rotate an offset clockwise on screen (y down), as Tiled rotates objects about their origin."""
    if not degrees:
        return dx, dy
    t = math.radians(degrees)
    c, s = math.cos(t), math.sin(t)
    return dx * c - dy * s, dx * s + dy * c


def shape_contains(obj: MapObject, layer_offset: tuple[float, float], px: float, py: float) -> bool:
    """Whether a pixel lies inside an object's shape (rotation honoured; edges count as inside)."""
    lx, ly = rotate(px - obj.x - layer_offset[0], py - obj.y - layer_offset[1], -obj.rotation)
    w, h = obj.width, obj.height
    if obj.shape == "rectangle":
        return 0 <= lx <= w and 0 <= ly <= h
    if obj.shape == "tile":
        return 0 <= lx <= w and -h <= ly <= 0
    if obj.shape == "ellipse":
        if w <= 0 or h <= 0:
            return False
        ex, ey = (lx - w / 2) / (w / 2), (ly - h / 2) / (h / 2)
        return ex * ex + ey * ey <= 1.0
    if obj.shape == "polygon" and obj.points:
        local = [(x - obj.x, y - obj.y) for x, y in obj.points]
        return polygon_contains(local, lx, ly)
    return False


@dataclass
class Budget:
    """Work left for rasterising shapes (one unit: an edge meeting a line, or a centre tested)."""

    left: int

    def spend(self, amount: int) -> bool:
        """Take ``amount`` if it is there; False (and nothing taken) if not."""
        if amount > self.left:
            return False
        self.left -= amount
        return True


@dataclass(frozen=True, slots=True)
class _Line:
    y: float  # the centres' y, exactly as TiledHexGeometry.cell_center gives it
    row: int
    first: int  # column of the first centre on the line
    step: int  # columns between neighbouring centres (1 pointy-top, 2 flat-top)
    count: int
    x0: float  # x of the first centre
    dx: float  # x distance between neighbouring centres


class CentreLines:
    """The hex centres of a ``width`` x ``height`` map in lines of equal y, sorted by y."""

    def __init__(self, geo: TiledHexGeometry, width: int, height: int) -> None:
        self.geo = geo
        lines: list[_Line] = []
        if width > 0 and height > 0:
            if geo.axis is StaggerAxis.Y:
                starts = [(row, 0, 1, width) for row in range(height)]
            else:
                starts = [
                    (row, p, 2, (width - p + 1) // 2) for row in range(height) for p in (0, 1) if p < width
                ]
            for row, first, step, count in starts:
                x0, y = geo.cell_center(first, row)
                dx = geo.cell_center(first + step, row)[0] - x0
                lines.append(_Line(y, row, first, step, count, x0, dx))
        lines.sort(key=lambda line: line.y)
        self.lines = lines
        self.ys = [line.y for line in lines]

    def x_of(self, line: _Line, i: int) -> float:
        return self.geo.cell_center(line.first + i * line.step, line.row)[0]

    def span(self, line: _Line, lo: float, hi: float) -> range:
        """Indexes of the centres on ``line`` whose x may lie in [lo, hi] (one more at each end)."""
        first = _index_at_or_below((lo - line.x0) / line.dx) - 1
        last = _index_at_or_below((hi - line.x0) / line.dx) + 1
        return range(max(0, first), min(line.count - 1, last) + 1)


def _index_at_or_below(value: float) -> int:
    if math.isnan(value):  # an edge too far out to compute with; nothing on this side of it
        return -1
    if value > 1 << 30:
        return 1 << 30
    if value < -(1 << 30):
        return -(1 << 30)
    return math.floor(value)


def _crossings(
    points: Sequence[tuple[float, float]], ys: list[float], budget: Budget
) -> list[list[float]] | None:
    """For each line y in ``ys`` (sorted), the sorted x where the polygon's edges cross it under
    :func:`~game.hexgrid.polygon_contains`'s rule (an edge counts when ``(yi > y) != (yj > y)``, at
    ``(xj - xi) * (y - yi) / (yj - yi) + xi``). None if that is more work than ``budget`` has left."""
    n = len(points)
    spans: list[tuple[int, int]] = []
    work = n
    j = n - 1
    for i in range(n):
        yi, yj = points[i][1], points[j][1]
        low, high = (yi, yj) if yi < yj else (yj, yi)
        start, end = bisect_left(ys, low), bisect_left(ys, high)  # lines with low <= y < high
        spans.append((start, end))
        work += max(0, end - start)
        j = i
    if not budget.spend(work):
        return None
    out: list[list[float]] = [[] for _ in ys]
    j = n - 1
    for i in range(n):
        xi, yi = points[i]
        xj, yj = points[j]
        start, end = spans[i]
        for k in range(start, end):
            y = ys[k]
            if (yi > y) != (yj > y):
                out[k].append((xj - xi) * (y - yi) / (yj - yi) + xi)
        j = i
    for xs in out:
        xs.sort()
    return out


def _polygon_cells(
    obj: MapObject, offset: tuple[float, float], lines: CentreLines, budget: Budget
) -> list[tuple[int, int]] | None:
    ox, oy = offset
    if obj.rotation:
        # map coordinates: the polygon turned about the object's origin
        base_x, base_y = obj.x + ox, obj.y + oy
        points = []
        for x, y in obj.points or ():
            rx, ry = rotate(x - obj.x, y - obj.y, obj.rotation)
            points.append((base_x + rx, base_y + ry))
        line_ys = list(lines.ys)

        def local_x(px: float) -> float:
            return px

        to_world = 0.0
    else:
        # the object's own coordinates, computed as shape_contains computes them
        points = [(x - obj.x, y - obj.y) for x, y in obj.points or ()]
        line_ys = [y - obj.y - oy for y in lines.ys]

        def local_x(px: float) -> float:
            return px - obj.x - ox

        to_world = obj.x + ox
    if len(points) < 3:
        return []
    crossing = _crossings(points, line_ys, budget)
    if crossing is None:
        return None
    cells: list[tuple[int, int]] = []
    for line, xs in zip(lines.lines, crossing, strict=True):
        m = len(xs)
        for t in range(m - 1, -1, -2):  # inside: an odd number of crossings to the right, [xs[t-1], xs[t])
            hi = xs[t]
            lo = xs[t - 1] if t > 0 else -math.inf
            span = lines.span(line, lo + to_world if t > 0 else -math.inf, hi + to_world)
            if not budget.spend(len(span)):
                return None
            for i in span:
                lx = local_x(lines.x_of(line, i))
                if lo <= lx < hi:
                    cells.append((line.first + i * line.step, line.row))
    return cells


def _outline(obj: MapObject, offset: tuple[float, float]) -> tuple[list[tuple[float, float]], float]:
    """A polygon in map coordinates around (or inscribed in, for an ellipse) a rectangle or ellipse, and
    the margin that covers the difference and the inclusive edges."""
    w, h = obj.width, obj.height
    if obj.shape == "ellipse":
        local = [
            (
                w / 2 + w / 2 * math.cos(2 * math.pi * k / _ELLIPSE_POINTS),
                h / 2 + h / 2 * math.sin(2 * math.pi * k / _ELLIPSE_POINTS),
            )
            for k in range(_ELLIPSE_POINTS)
        ]
        margin = 1.0 + 0.01 * max(abs(w), abs(h))
    else:
        local = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
        margin = 1.0
    base_x, base_y = obj.x + offset[0], obj.y + offset[1]
    points = []
    for x, y in local:
        rx, ry = rotate(x, y, obj.rotation)
        points.append((base_x + rx, base_y + ry))
    return points, margin


def _convex_cells(
    obj: MapObject, offset: tuple[float, float], lines: CentreLines, budget: Budget
) -> list[tuple[int, int]] | None:
    points, margin = _outline(obj, offset)
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    if not all(math.isfinite(v) for v in (*xs, *ys)):
        return []
    y_low, y_high = min(ys), max(ys)
    first = bisect_left(lines.ys, y_low - margin)
    last = bisect_right(lines.ys, y_high + margin)
    band = lines.ys[first:last]
    if not budget.spend(len(points) + len(band)):
        return None
    # each line's slice of the outline, taken at the nearest y inside it (lines just outside the outline
    # may still hold centres on an inclusive edge)
    inside = [min(max(y, y_low + 1e-9 * (y_high - y_low)), y_high - 1e-9 * (y_high - y_low)) for y in band]
    order = sorted(range(len(inside)), key=inside.__getitem__)
    sorted_ys = [inside[k] for k in order]
    crossing: list[list[float]] | None = [[] for _ in sorted_ys]
    if y_high > y_low:
        crossing = _crossings(points, sorted_ys, budget)
        if crossing is None:
            return None
    assert crossing is not None
    cells: list[tuple[int, int]] = []
    for position, k in enumerate(order):
        line = lines.lines[first + k]
        cut = crossing[position]
        lo, hi = (cut[0], cut[-1]) if cut else (min(xs), max(xs))
        span = lines.span(line, lo - margin, hi + margin)
        if not budget.spend(len(span)):
            return None
        for i in span:
            if shape_contains(obj, offset, lines.x_of(line, i), line.y):
                cells.append((line.first + i * line.step, line.row))
    return cells


def covered_cells(
    obj: MapObject, offset: tuple[float, float], lines: CentreLines, budget: Budget
) -> list[tuple[int, int]] | None:
    """The (col, row) of every centre inside the shape (rectangle, ellipse or polygon), in no particular
    order; None if rasterising it would overrun ``budget``."""
    if obj.shape == "polygon":
        return _polygon_cells(obj, offset, lines, budget)
    if obj.shape in ("rectangle", "ellipse"):
        return _convex_cells(obj, offset, lines, budget)
    return []
