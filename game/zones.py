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
* a rectangle or an ellipse is convex: each line gets an interval from a polygon that is the rectangle or is
  inscribed in the ellipse; the centres more than a margin inside it are inside, and only those within the
  margin of its ends are tested exactly with :func:`shape_contains`.

The work (edges times the lines they cross, crossings, centres tested one by one) is counted against a
:class:`Budget`; a shape that would overrun it is not rasterised and the caller reports it. Centres known
to be inside (between two crossings of a polygon, well inside a rectangle's or ellipse's slice) are taken a
range at a time, untested; the caller caps how many the shapes may cover in all.
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
        hw, hh = w / 2, h / 2
        if hw <= 0 or hh <= 0:  # also a size so small its half rounds to 0 (5e-324)
            return False
        ex, ey = (lx - hw) / hw, (ly - hh) / hh
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

    @staticmethod
    def x_of(line: _Line, i: int) -> float:
        """The x of centre ``i`` of ``line``: exactly ``cell_center``'s (integers and halves, so the sum
        is exact whichever way it is added up)."""
        return line.x0 + i * line.dx

    def within(self, line: _Line, lo: float, hi: float) -> range:
        """Indexes of the centres on ``line`` whose x lies in [lo, hi] (up to rounding: callers use it
        with a margin of a pixel); empty if ``lo > hi``."""
        if not lo <= hi:
            return range(0)
        first = _index_at_or_above((lo - line.x0) / line.dx)
        last = _index_at_or_below((hi - line.x0) / line.dx)
        return range(max(0, first), min(line.count - 1, last) + 1)

    def span(self, line: _Line, lo: float, hi: float) -> range:
        """Indexes of the centres on ``line`` whose x may lie in [lo, hi] (one more at each end)."""
        first = _index_at_or_below((lo - line.x0) / line.dx) - 1
        last = _index_at_or_below((hi - line.x0) / line.dx) + 1
        return range(max(0, first), min(line.count - 1, last) + 1)


def _index_at_or_above(value: float) -> int:
    return -_index_at_or_below(-value)


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
    x_of = lines.x_of

    def first_at_least(line: _Line, bound: float) -> int:
        """The first centre of ``line`` whose local x is >= ``bound`` (``line.count`` if none): a guess
        from the spacing, then exact comparisons (the local x grows with the index)."""
        if bound == -math.inf:
            return 0
        i = min(max(_index_at_or_below((bound + to_world - line.x0) / line.dx), 0), line.count)
        while i > 0 and local_x(x_of(line, i - 1)) >= bound:
            i -= 1
        while i < line.count and local_x(x_of(line, i)) < bound:
            i += 1
        return i

    for line, xs in zip(lines.lines, crossing, strict=True):
        m = len(xs)
        if not budget.spend(m):
            return None
        for t in range(m - 1, -1, -2):  # inside: an odd number of crossings to the right, [xs[t-1], xs[t])
            start = first_at_least(line, xs[t - 1] if t > 0 else -math.inf)
            end = first_at_least(line, xs[t])
            if end > start:
                first, step, row = line.first, line.step, line.row
                cells.extend((first + i * step, row) for i in range(start, end))
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
    x_of = lines.x_of
    for position, k in enumerate(order):
        line = lines.lines[first + k]
        cut = crossing[position]
        lo, hi = (cut[0], cut[-1]) if cut else (min(xs), max(xs))
        first_col, step, row = line.first, line.step, line.row
        if cut and y_low <= line.y <= y_high:
            # the outline's own slice: centres more than the margin inside it are inside the shape (the
            # outline is the rectangle, or inscribed in the ellipse); only the two ends are tested
            sure = lines.within(line, lo + margin, hi - margin)
            if len(sure) > 0:
                cells.extend((first_col + i * step, row) for i in sure)
                ends = [
                    lines.span(line, lo - margin, lo + margin),
                    lines.span(line, hi - margin, hi + margin),
                ]
                tested = [i for span in ends for i in span if i not in sure]
            else:
                tested = list(lines.span(line, lo - margin, hi + margin))
        else:
            tested = list(lines.span(line, lo - margin, hi + margin))
        if not budget.spend(len(tested) + 1):
            return None
        for i in sorted(set(tested)):
            if shape_contains(obj, offset, x_of(line, i), line.y):
                cells.append((first_col + i * step, row))
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
