"""Pure hex math, headless: axial hexes, lines, rings, and Tiled's hexagonal pixel geometry.

The hex algebra follows Red Blob Games (redblobgames.com/grids/hexagons): small value types, free
functions named as verbs, rounding that keeps ``q + r + s == 0`` and line drawing nudged by an epsilon.

The pixel geometry is *not* Red Blob's floating-point layout: it is Tiled's own integer layout
(``HexagonalRenderer`` in Tiled >= 1.10.1), so that a tile drawn here lands on exactly the pixel where
Tiled draws it, and a click is resolved to exactly the cell Tiled would select.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

__all__ = [
    "DIRECTIONS",
    "FractionalHex",
    "Hex",
    "StaggerAxis",
    "StaggerIndex",
    "TiledHexGeometry",
    "axial_to_offset",
    "hex_add",
    "hex_direction",
    "hex_distance",
    "hex_lerp",
    "hex_line",
    "hex_lines",
    "hex_neighbor",
    "hex_neighbors",
    "hex_ring",
    "hex_rotate_left",
    "hex_rotate_right",
    "hex_round",
    "hex_scale",
    "hex_spiral",
    "hex_subtract",
    "hexes_within",
    "offset_to_axial",
    "polygon_contains",
]


class Hex(NamedTuple):
    """An axial hex coordinate; the cube coordinate ``s`` is derived (q + r + s == 0)."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:  # type: ignore[override]
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def __str__(self) -> str:
        return f"({self.q},{self.r})"


@dataclass(frozen=True, slots=True)
class FractionalHex:
    """A point in cube space that need not lie on a hex centre (used for lines and pixel picking)."""

    q: float
    r: float
    s: float


# Directions in Red Blob's order: 0 = (+1, 0) and counter-clockwise in cube space.
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),
    Hex(1, -1),
    Hex(0, -1),
    Hex(-1, 0),
    Hex(-1, 1),
    Hex(0, 1),
)


def hex_add(a: Hex, b: Hex) -> Hex:
    return Hex(a.q + b.q, a.r + b.r)


def hex_subtract(a: Hex, b: Hex) -> Hex:
    return Hex(a.q - b.q, a.r - b.r)


def hex_scale(a: Hex, k: int) -> Hex:
    return Hex(a.q * k, a.r * k)


def hex_rotate_left(a: Hex) -> Hex:
    """Rotate 60 degrees counter-clockwise about the origin."""
    return Hex(-a.s, -a.q)


def hex_rotate_right(a: Hex) -> Hex:
    """Rotate 60 degrees clockwise about the origin."""
    return Hex(-a.r, -a.s)


def hex_direction(direction: int) -> Hex:
    return DIRECTIONS[direction % 6]


def hex_neighbor(a: Hex, direction: int) -> Hex:
    d = DIRECTIONS[direction % 6]
    return Hex(a.q + d.q, a.r + d.r)


def hex_neighbors(a: Hex) -> tuple[Hex, ...]:
    return tuple(Hex(a.q + d.q, a.r + d.r) for d in DIRECTIONS)


def hex_distance(a: Hex, b: Hex) -> int:
    dq = a.q - b.q
    dr = a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hex_ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes exactly ``radius`` steps from ``center`` (the centre itself for radius 0)."""
    if radius < 0:
        raise ValueError(f"ring radius must be >= 0, not {radius}")
    if radius == 0:
        return [center]
    results: list[Hex] = []
    cursor = hex_add(center, hex_scale(DIRECTIONS[4], radius))
    for side in range(6):
        for _ in range(radius):
            results.append(cursor)
            cursor = hex_neighbor(cursor, side)
    return results


def hex_spiral(center: Hex, radius: int) -> list[Hex]:
    """The centre, then ring 1, ring 2 ... ring ``radius``: every hex within ``radius``, nearest first."""
    results = [center]
    for k in range(1, radius + 1):
        results.extend(hex_ring(center, k))
    return results


def hexes_within(center: Hex, radius: int) -> Iterator[Hex]:
    """Every hex at distance <= radius, in row-major order (cheaper than a spiral when order is free)."""
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield Hex(center.q + dq, center.r + dr)


def hex_round(h: FractionalHex) -> Hex:
    """Round to the nearest hex, fixing the component with the largest rounding error."""
    qi = round(h.q)
    ri = round(h.r)
    si = round(h.s)
    dq = abs(qi - h.q)
    dr = abs(ri - h.r)
    ds = abs(si - h.s)
    if dq > dr and dq > ds:
        qi = -ri - si
    elif dr > ds:
        ri = -qi - si
    return Hex(int(qi), int(ri))


def hex_lerp(a: FractionalHex, b: FractionalHex, t: float) -> FractionalHex:
    return FractionalHex(a.q + (b.q - a.q) * t, a.r + (b.r - a.r) * t, a.s + (b.s - a.s) * t)


# Nudging both ends by the same tiny cube offset pushes a line that runs exactly along a hex edge to one
# side of it. Nudging by +eps and by -eps gives the two candidate lines of an ambiguous case.
_NUDGE = (1e-6, 2e-6, -3e-6)


def _line(a: Hex, b: Hex, sign: float) -> list[Hex]:
    n = hex_distance(a, b)
    eq, er, es = (sign * e for e in _NUDGE)
    a_n = FractionalHex(a.q + eq, a.r + er, a.s + es)
    b_n = FractionalHex(b.q + eq, b.r + er, b.s + es)
    if n == 0:
        return [a]
    step = 1.0 / n
    return [hex_round(hex_lerp(a_n, b_n, step * i)) for i in range(n + 1)]


def hex_line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes on the straight line from ``a`` to ``b`` inclusive (Red Blob's +epsilon nudge)."""
    return _line(a, b, 1.0)


def hex_lines(a: Hex, b: Hex) -> tuple[list[Hex], list[Hex]]:
    """Both epsilon-nudged lines from ``a`` to ``b``.

    They differ exactly where the centre-to-centre line runs along hex edges; Through the Rift needs
    both: "In the event the shortest line is ambiguous, the target is still considered to have the
    effects of the cover".
    """
    return _line(a, b, 1.0), _line(a, b, -1.0)


# --------------------------------------------------------------------------------------------------
# Tiled's offset coordinates


class StaggerAxis(Enum):
    """Tiled's ``staggeraxis``: ``x`` staggers columns (flat-top hexes), ``y`` staggers rows (pointy-top)."""

    X = "x"
    Y = "y"


class StaggerIndex(Enum):
    """Tiled's ``staggerindex``: which rows (or columns) are shifted by half a hex."""

    ODD = "odd"
    EVEN = "even"


def offset_to_axial(col: int, row: int, axis: StaggerAxis, index: StaggerIndex) -> Hex:
    """Tiled cell (col, row) -> axial hex, for any of Tiled's four hexagonal variants."""
    if axis is StaggerAxis.Y:
        # Pointy-top; the staggered rows are shifted right by half a hex.
        shift = (row + (row & 1)) // 2 if index is StaggerIndex.EVEN else (row - (row & 1)) // 2
        return Hex(col - shift, row)
    # Flat-top; the staggered columns are shifted down by half a hex.
    shift = (col + (col & 1)) // 2 if index is StaggerIndex.EVEN else (col - (col & 1)) // 2
    return Hex(col, row - shift)


def axial_to_offset(h: Hex, axis: StaggerAxis, index: StaggerIndex) -> tuple[int, int]:
    """Axial hex -> Tiled cell (col, row); the inverse of :func:`offset_to_axial`."""
    if axis is StaggerAxis.Y:
        row = h.r
        shift = (row + (row & 1)) // 2 if index is StaggerIndex.EVEN else (row - (row & 1)) // 2
        return h.q + shift, row
    col = h.q
    shift = (col + (col & 1)) // 2 if index is StaggerIndex.EVEN else (col - (col & 1)) // 2
    return col, h.r + shift


# --------------------------------------------------------------------------------------------------
# Tiled's pixel geometry


@dataclass(frozen=True, slots=True)
class TiledHexGeometry:
    """Tiled's integer hexagonal layout for one map (``HexagonalRenderer::RenderParams``).

    All values are integers, computed as Tiled >= 1.10.1 computes them, so odd tile sizes round the same
    way Tiled's own renderer rounds them (Tiled 1.8 first rounded odd tile sizes down to even).
    """

    map_tile_width: int
    map_tile_height: int
    hex_side_length: int
    axis: StaggerAxis
    index: StaggerIndex
    side_length_x: int
    side_length_y: int
    side_offset_x: int
    side_offset_y: int
    column_width: int
    row_height: int
    tile_width: int
    tile_height: int

    @classmethod
    def create(
        cls,
        tile_width: int,
        tile_height: int,
        hex_side_length: int,
        axis: StaggerAxis,
        index: StaggerIndex,
    ) -> TiledHexGeometry:
        if tile_width <= 0 or tile_height <= 0:
            raise ValueError(f"tile size must be positive, not {tile_width}x{tile_height}")
        if hex_side_length < 0:
            raise ValueError(f"hexsidelength must be >= 0, not {hex_side_length}")
        side_x = hex_side_length if axis is StaggerAxis.X else 0
        side_y = hex_side_length if axis is StaggerAxis.Y else 0
        # C++ integer division truncates toward zero; these operands are non-negative in valid maps.
        off_x = int((tile_width - side_x) / 2)
        off_y = int((tile_height - side_y) / 2)
        col_w = off_x + side_x
        row_h = off_y + side_y
        geometry = cls(
            map_tile_width=tile_width,
            map_tile_height=tile_height,
            hex_side_length=hex_side_length,
            axis=axis,
            index=index,
            side_length_x=side_x,
            side_length_y=side_y,
            side_offset_x=off_x,
            side_offset_y=off_y,
            column_width=col_w,
            row_height=row_h,
            tile_width=col_w + off_x,
            tile_height=row_h + off_y,
        )
        if geometry.column_width <= 0 or geometry.row_height <= 0:
            raise ValueError(
                f"hexsidelength {hex_side_length} does not fit tiles of {tile_width}x{tile_height}"
            )
        return geometry

    # -- stagger tests, exactly Tiled's doStaggerX / doStaggerY
    def _stagger_x(self, x: int) -> bool:
        return self.axis is StaggerAxis.X and bool((x & 1) ^ (self.index is StaggerIndex.EVEN))

    def _stagger_y(self, y: int) -> bool:
        return self.axis is StaggerAxis.Y and bool((y & 1) ^ (self.index is StaggerIndex.EVEN))

    # -- cells
    def cell_origin(self, col: int, row: int) -> tuple[int, int]:
        """Top-left pixel of a cell's hex bounding box (Tiled's ``tileToScreenCoords``)."""
        if self.axis is StaggerAxis.X:
            y = row * (self.tile_height + self.side_length_y)
            if self._stagger_x(col):
                y += self.row_height
            return col * self.column_width, y
        x = col * (self.tile_width + self.side_length_x)
        if self._stagger_y(row):
            x += self.column_width
        return x, row * self.row_height

    def cell_center(self, col: int, row: int) -> tuple[float, float]:
        """Centre pixel of a cell's hexagon."""
        x, y = self.cell_origin(col, row)
        return x + self.tile_width / 2, y + self.tile_height / 2

    def cell_polygon(self, col: int, row: int) -> list[tuple[int, int]]:
        """The hexagon outline of a cell, as Tiled's ``tileToScreenPolygon`` (duplicate corners dropped)."""
        x, y = self.cell_origin(col, row)
        points = [
            (x, y + self.row_height),
            (x, y + self.side_offset_y),
            (x + self.side_offset_x, y),
            (x + self.column_width, y),
            (x + self.tile_width, y + self.side_offset_y),
            (x + self.tile_width, y + self.row_height),
            (x + self.column_width, y + self.tile_height),
            (x + self.side_offset_x, y + self.tile_height),
        ]
        unique: list[tuple[int, int]] = []
        for p in points:
            if not unique or unique[-1] != p:
                unique.append(p)
        if len(unique) > 1 and unique[0] == unique[-1]:
            unique.pop()
        return unique

    def tile_image_position(self, col: int, row: int, image_height: int) -> tuple[int, int]:
        """Top-left pixel where Tiled draws a tile image of ``image_height`` in this cell.

        Tiled anchors tile images at the bottom-left of the cell, so taller images reach upward.
        """
        x, y = self.cell_origin(col, row)
        return x, y + self.tile_height - image_height

    def map_pixel_size(self, width: int, height: int) -> tuple[int, int]:
        """The pixel size of a ``width`` x ``height`` map (Tiled's ``mapBoundingRect``)."""
        if width <= 0 or height <= 0:
            return 0, 0
        if self.axis is StaggerAxis.X:
            w = width * self.column_width + self.side_offset_x
            h = height * (self.tile_height + self.side_length_y)
            if width > 1:
                h += self.row_height
            return w, h
        w = width * (self.tile_width + self.side_length_x)
        h = height * self.row_height + self.side_offset_y
        if height > 1:
            w += self.column_width
        return w, h

    def map_pixel_origin(self, width: int, height: int) -> tuple[int, int]:
        """Top-left of the map's bounding rectangle; (0, 0) for every finite map but Tiled computes it."""
        x, y = self.cell_origin(0, 0)
        if self.axis is StaggerAxis.X:
            if width > 1 and self._stagger_x(0):
                y -= self.row_height
        elif height > 1 and self._stagger_y(0):
            x -= self.column_width
        return x, y

    def pixel_to_cell(self, px: float, py: float) -> tuple[int, int]:
        """The cell a pixel falls in, exactly as Tiled's ``screenToTileCoords`` resolves it.

        Tiled picks the nearest of four candidate centres on a doubled grid; ties go to the first.
        """
        x, y = float(px), float(py)
        if self.axis is StaggerAxis.X:
            x -= self.tile_width if self.index is StaggerIndex.EVEN else self.side_offset_x
        else:
            y -= self.tile_height if self.index is StaggerIndex.EVEN else self.side_offset_y
        ref_x = math.floor(x / (self.column_width * 2))
        ref_y = math.floor(y / (self.row_height * 2))
        rel_x = x - ref_x * (self.column_width * 2)
        rel_y = y - ref_y * (self.row_height * 2)
        if self.axis is StaggerAxis.X:
            ref_x *= 2
            if self.index is StaggerIndex.EVEN:
                ref_x += 1
            left = int(self.side_length_x / 2)
            cx = left + self.column_width
            cy = int(self.tile_height / 2)
            centers = (
                (left, cy),
                (cx, cy - self.row_height),
                (cx, cy + self.row_height),
                (cx + self.column_width, cy),
            )
            offsets = ((0, 0), (1, -1), (1, 0), (2, 0))
        else:
            ref_y *= 2
            if self.index is StaggerIndex.EVEN:
                ref_y += 1
            top = int(self.side_length_y / 2)
            cx = int(self.tile_width / 2)
            cy = top + self.row_height
            centers = (
                (cx, top),
                (cx - self.column_width, cy),
                (cx + self.column_width, cy),
                (cx, cy + self.row_height),
            )
            offsets = ((0, 0), (-1, 1), (0, 1), (0, 2))
        nearest = 0
        best = math.inf
        for i, (ccx, ccy) in enumerate(centers):
            # Tiled compares float32 squared lengths; the distances here are small integers or halves,
            # exactly representable, so float64 gives the same order.
            d = (ccx - rel_x) ** 2 + (ccy - rel_y) ** 2
            if d < best:
                best = d
                nearest = i
        return ref_x + offsets[nearest][0], ref_y + offsets[nearest][1]

    # -- axial conveniences
    def to_hex(self, col: int, row: int) -> Hex:
        return offset_to_axial(col, row, self.axis, self.index)

    def to_cell(self, h: Hex) -> tuple[int, int]:
        return axial_to_offset(h, self.axis, self.index)

    def hex_center(self, h: Hex) -> tuple[float, float]:
        return self.cell_center(*self.to_cell(h))

    def pixel_to_hex(self, px: float, py: float) -> Hex:
        return self.to_hex(*self.pixel_to_cell(px, py))


def polygon_contains(polygon: Sequence[tuple[float, float]], x: float, y: float) -> bool:
    """Even-odd point-in-polygon test (used for deploy zones drawn as polygons in Tiled)."""
    inside = False
    n = len(polygon)
    j = n - 1
    for i in range(n):
        xi, yi = polygon[i]
        xj, yj = polygon[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside
