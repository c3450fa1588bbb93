"""Hex math: Red Blob Games' reference cases, Tiled's pixel geometry, and hypothesis properties."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.hexgrid import (
    FractionalHex,
    Hex,
    StaggerAxis,
    StaggerIndex,
    TiledHexGeometry,
    axial_to_offset,
    hex_add,
    hex_direction,
    hex_distance,
    hex_lerp,
    hex_line,
    hex_lines,
    hex_neighbor,
    hex_neighbors,
    hex_ring,
    hex_rotate_left,
    hex_rotate_right,
    hex_round,
    hex_scale,
    hex_spiral,
    hex_subtract,
    hexes_within,
    offset_to_axial,
    polygon_contains,
)

VARIANTS = [(axis, index) for axis in StaggerAxis for index in StaggerIndex]

# --------------------------------------------------------------------------------------------------
# Red Blob Games' reference cases (redblobgames.com/grids/hexagons/implementation.html, its test suite)


def test_redblob_hex_arithmetic() -> None:
    assert hex_add(Hex(1, -3), Hex(3, -7)) == Hex(4, -10)
    assert hex_subtract(Hex(1, -3), Hex(3, -7)) == Hex(-2, 4)
    assert Hex(4, -10).s == 6
    assert hex_scale(Hex(1, -3), 2) == Hex(2, -6)


def test_redblob_hex_direction() -> None:
    assert hex_direction(2) == Hex(0, -1)


def test_redblob_hex_neighbor() -> None:
    assert hex_neighbor(Hex(1, -2), 2) == Hex(1, -3)


def test_redblob_hex_distance() -> None:
    assert hex_distance(Hex(3, -7), Hex(0, 0)) == 7


def test_redblob_hex_rotate_right() -> None:
    assert hex_rotate_right(Hex(1, -3)) == Hex(3, -2)


def test_redblob_hex_rotate_left() -> None:
    assert hex_rotate_left(Hex(1, -3)) == Hex(-2, -1)


def test_redblob_hex_round() -> None:
    a = FractionalHex(0.0, 0.0, 0.0)
    b = FractionalHex(1.0, -1.0, 0.0)
    c = FractionalHex(0.0, -1.0, 1.0)
    assert hex_round(hex_lerp(FractionalHex(0.0, 0.0, 0.0), FractionalHex(10.0, -20.0, 10.0), 0.5)) == Hex(
        5, -10
    )
    assert hex_round(hex_lerp(a, b, 0.499)) == hex_round(a)
    assert hex_round(hex_lerp(a, b, 0.501)) == hex_round(b)
    mix_a = FractionalHex(
        a.q * 0.4 + b.q * 0.3 + c.q * 0.3,
        a.r * 0.4 + b.r * 0.3 + c.r * 0.3,
        a.s * 0.4 + b.s * 0.3 + c.s * 0.3,
    )
    mix_c = FractionalHex(
        a.q * 0.3 + b.q * 0.3 + c.q * 0.4,
        a.r * 0.3 + b.r * 0.3 + c.r * 0.4,
        a.s * 0.3 + b.s * 0.3 + c.s * 0.4,
    )
    assert hex_round(mix_a) == hex_round(a)
    assert hex_round(mix_c) == hex_round(c)


def test_redblob_hex_linedraw() -> None:
    assert hex_line(Hex(0, 0), Hex(1, -5)) == [
        Hex(0, 0),
        Hex(0, -1),
        Hex(0, -2),
        Hex(1, -3),
        Hex(1, -4),
        Hex(1, -5),
    ]


def test_redblob_offset_from_cube() -> None:
    # Red Blob's even-q / odd-q are Tiled's staggeraxis=x with staggerindex even / odd.
    assert axial_to_offset(Hex(1, 2), StaggerAxis.X, StaggerIndex.EVEN) == (1, 3)
    assert axial_to_offset(Hex(1, 2), StaggerAxis.X, StaggerIndex.ODD) == (1, 2)


def test_redblob_offset_to_cube() -> None:
    assert offset_to_axial(1, 3, StaggerAxis.X, StaggerIndex.EVEN) == Hex(1, 2)
    assert offset_to_axial(1, 2, StaggerAxis.X, StaggerIndex.ODD) == Hex(1, 2)


@pytest.mark.parametrize(("axis", "index"), VARIANTS)
def test_redblob_offset_roundtrip(axis: StaggerAxis, index: StaggerIndex) -> None:
    a = Hex(3, 4)
    b = (1, -3)
    assert offset_to_axial(*axial_to_offset(a, axis, index), axis, index) == a
    assert axial_to_offset(offset_to_axial(*b, axis, index), axis, index) == b


# --------------------------------------------------------------------------------------------------
# Rings, spirals, ranges, ambiguous lines


def test_ring_and_spiral_sizes() -> None:
    centre = Hex(2, -1)
    assert hex_ring(centre, 0) == [centre]
    for k in range(1, 6):
        ring = hex_ring(centre, k)
        assert len(ring) == 6 * k
        assert len(set(ring)) == 6 * k
        assert all(hex_distance(centre, h) == k for h in ring)
    spiral = hex_spiral(centre, 4)
    assert len(spiral) == 3 * 4 * 5 + 1
    assert [hex_distance(centre, h) for h in spiral] == sorted(hex_distance(centre, h) for h in spiral)
    assert set(spiral) == set(hexes_within(centre, 4))
    with pytest.raises(ValueError, match="radius"):
        hex_ring(centre, -1)


def test_neighbors_are_distance_one() -> None:
    h = Hex(-3, 7)
    assert len(set(hex_neighbors(h))) == 6
    assert all(hex_distance(h, n) == 1 for n in hex_neighbors(h))


def test_both_lines_differ_exactly_on_an_ambiguous_line() -> None:
    """Through the Rift: "In the event the shortest line is ambiguous, the target is still considered
    to have the effects of the cover" -- so both candidate lines must be available."""
    # (0,0) -> (2,-1) runs exactly along the edge between (1,0) and (1,-1).
    first, second = hex_lines(Hex(0, 0), Hex(2, -1))
    assert {first[1], second[1]} == {Hex(1, 0), Hex(1, -1)}
    # A line through hex centres is not ambiguous: both candidates agree.
    first, second = hex_lines(Hex(0, 0), Hex(3, 0))
    assert first == second == [Hex(0, 0), Hex(1, 0), Hex(2, 0), Hex(3, 0)]


# --------------------------------------------------------------------------------------------------
# Tiled's pixel geometry (values worked out from Tiled's hexagonalrenderer.cpp)


def test_tiled_pointy_top_even_size_layout() -> None:
    g = TiledHexGeometry.create(64, 74, 36, StaggerAxis.Y, StaggerIndex.ODD)
    assert (g.side_offset_x, g.column_width, g.tile_width) == (32, 32, 64)
    assert (g.side_offset_y, g.row_height, g.tile_height) == (19, 55, 74)
    assert g.cell_origin(0, 0) == (0, 0)
    assert g.cell_origin(0, 1) == (32, 55)  # odd rows shifted right by a column width
    assert g.cell_origin(3, 2) == (192, 110)
    assert g.map_pixel_size(40, 30) == (40 * 64 + 32, 30 * 55 + 19)
    assert g.cell_polygon(0, 0) == [(0, 55), (0, 19), (32, 0), (64, 19), (64, 55), (32, 74)]


def test_tiled_flat_top_even_index_layout() -> None:
    g = TiledHexGeometry.create(74, 64, 36, StaggerAxis.X, StaggerIndex.EVEN)
    assert (g.side_offset_x, g.column_width, g.tile_width) == (19, 55, 74)
    assert (g.row_height, g.tile_height) == (32, 64)
    assert g.cell_origin(0, 0) == (0, 32)  # even columns are the shifted ones
    assert g.cell_origin(1, 0) == (55, 0)
    assert g.map_pixel_size(60, 60) == (60 * 55 + 19, 60 * 64 + 32)
    assert g.map_pixel_origin(60, 60) == (0, 0)


def test_tiled_odd_tile_sizes_follow_current_tiled() -> None:
    """Tiled >= 1.10.1 keeps odd tile sizes (1.8 rounded them down to even with `& ~1`)."""
    g = TiledHexGeometry.create(63, 73, 35, StaggerAxis.Y, StaggerIndex.ODD)
    assert (g.side_offset_x, g.column_width, g.tile_width) == (31, 31, 62)
    assert (g.side_offset_y, g.row_height, g.tile_height) == (19, 54, 73)
    assert g.map_pixel_size(10, 10) == (651, 559)
    # Tiled 1.8.2 would use a 72-high tile: side offset 18, row height 53 -> a 548-high map.


def test_tiled_tall_tile_is_anchored_bottom_left() -> None:
    g = TiledHexGeometry.create(64, 74, 36, StaggerAxis.Y, StaggerIndex.ODD)
    assert g.tile_image_position(1, 1, 74) == (96, 55)
    assert g.tile_image_position(1, 1, 128) == (96, 55 + 74 - 128)


def test_tiled_pixel_to_cell_known_points() -> None:
    g = TiledHexGeometry.create(64, 74, 36, StaggerAxis.Y, StaggerIndex.ODD)
    assert g.pixel_to_cell(32, 37) == (0, 0)
    assert g.pixel_to_cell(96 + 32, 55 + 37) == (1, 1)  # odd row: origin (96, 55)
    assert g.pixel_to_cell(96, 92) == (0, 1)  # exactly between two centres: Tiled keeps the first
    assert g.pixel_to_cell(1, 1) == (-1, -1)  # the top-left corner belongs to the row above, shifted
    assert g.pixel_to_hex(32, 37) == Hex(0, 0)


def test_bad_geometry_is_rejected_with_a_reason() -> None:
    with pytest.raises(ValueError, match="tile size"):
        TiledHexGeometry.create(0, 10, 0, StaggerAxis.Y, StaggerIndex.ODD)
    with pytest.raises(ValueError, match="hexsidelength"):
        TiledHexGeometry.create(10, 10, -1, StaggerAxis.Y, StaggerIndex.ODD)


def test_polygon_contains() -> None:
    square = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
    assert polygon_contains(square, 5, 5)
    assert not polygon_contains(square, 15, 5)


# --------------------------------------------------------------------------------------------------
# Properties

coords = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex, coords, coords)
axes = st.sampled_from(list(StaggerAxis))
indexes = st.sampled_from(list(StaggerIndex))


@st.composite
def geometries(draw: st.DrawFn) -> TiledHexGeometry:
    axis = draw(axes)
    index = draw(indexes)
    w = draw(st.integers(min_value=8, max_value=130))
    h = draw(st.integers(min_value=8, max_value=130))
    across = w if axis is StaggerAxis.X else h
    side = draw(st.integers(min_value=0, max_value=across - 4))
    return TiledHexGeometry.create(w, h, side, axis, index)


@given(coords, coords, axes, indexes)
def test_offset_axial_offset_roundtrip(col: int, row: int, axis: StaggerAxis, index: StaggerIndex) -> None:
    assert axial_to_offset(offset_to_axial(col, row, axis, index), axis, index) == (col, row)


@given(hexes, axes, indexes)
def test_axial_offset_axial_roundtrip(h: Hex, axis: StaggerAxis, index: StaggerIndex) -> None:
    assert offset_to_axial(*axial_to_offset(h, axis, index), axis, index) == h


@given(coords, coords, axes, indexes)
def test_offset_neighbours_match_tiled(col: int, row: int, axis: StaggerAxis, index: StaggerIndex) -> None:
    """Tiled's HexagonalRenderer::topLeft/topRight/bottomLeft/bottomRight are axial neighbours."""
    odd = (row & 1) if axis is StaggerAxis.Y else (col & 1)
    staggered = bool(odd ^ (index is StaggerIndex.EVEN))
    if axis is StaggerAxis.Y:
        diagonals = (
            [(col, row - 1), (col + 1, row - 1), (col, row + 1), (col + 1, row + 1)]
            if staggered
            else [(col - 1, row - 1), (col, row - 1), (col - 1, row + 1), (col, row + 1)]
        )
    else:
        diagonals = (
            [(col - 1, row), (col + 1, row), (col - 1, row + 1), (col + 1, row + 1)]
            if staggered
            else [(col - 1, row - 1), (col + 1, row - 1), (col - 1, row), (col + 1, row)]
        )
    here = offset_to_axial(col, row, axis, index)
    for c, r in diagonals:
        assert hex_distance(here, offset_to_axial(c, r, axis, index)) == 1


@settings(max_examples=300)
@given(geometries(), st.integers(-20, 80), st.integers(-20, 80))
def test_cell_centre_to_pixel_to_same_cell(g: TiledHexGeometry, col: int, row: int) -> None:
    assert g.pixel_to_cell(*g.cell_center(col, row)) == (col, row)


@settings(max_examples=300)
@given(geometries(), st.integers(-5, 40), st.integers(-5, 40), st.floats(0, 1), st.floats(0, 1))
def test_pixel_inside_a_hex_picks_that_hex(
    g: TiledHexGeometry, col: int, row: int, u: float, v: float
) -> None:
    """A click anywhere in the inner half of a hex (the hexagon shrunk 50% about its centre) selects it."""
    cx, cy = g.cell_center(col, row)
    polygon = g.cell_polygon(col, row)
    # a random point of the polygon: blend two adjacent corners, then pull it halfway to the centre
    i = int(u * len(polygon)) % len(polygon)
    (ax, ay), (bx, by) = polygon[i], polygon[(i + 1) % len(polygon)]
    ex, ey = ax + (bx - ax) * v, ay + (by - ay) * v
    px, py = cx + (ex - cx) * 0.5, cy + (ey - cy) * 0.5
    assert g.pixel_to_cell(px, py) == (col, row)


@given(hexes, hexes)
def test_distance_symmetric(a: Hex, b: Hex) -> None:
    assert hex_distance(a, b) == hex_distance(b, a)
    assert (hex_distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_distance_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert hex_distance(a, c) <= hex_distance(a, b) + hex_distance(b, c)


@given(hexes, hexes)
def test_line_length_is_distance_plus_one(a: Hex, b: Hex) -> None:
    for line in hex_lines(a, b):
        assert len(line) == hex_distance(a, b) + 1
        assert line[0] == a
        assert line[-1] == b
        assert all(hex_distance(p, q) == 1 for p, q in itertools.pairwise(line))


@given(hexes)
def test_six_rotations_are_identity(h: Hex) -> None:
    r = h
    for _ in range(6):
        r = hex_rotate_right(r)
    assert r == h
    assert hex_rotate_left(hex_rotate_right(h)) == h
    assert hex_distance(Hex(0, 0), hex_rotate_left(h)) == hex_distance(Hex(0, 0), h)
