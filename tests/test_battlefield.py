"""Battlefield: terrain stacking, doors, zones, and the LOS / cover / movement queries on small maps."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.battlefield import Battlefield, Cover, Terrain
from game.engine.movement import reach
from game.hexgrid import Hex, hex_distance, hex_lines, hexes_within
from game.mapload import load_battlefield
from game.sightlines import offset_lines
from game.tiledmap import MapLoadError
from tests import maps_factory as mf


def field(tmp_path: Path, width: int = 8, height: int = 8, **kwargs: object) -> Battlefield:
    kwargs.setdefault("with_deploy", True)
    return load_battlefield(mf.standard_map(tmp_path, width, height, **kwargs), strict=False)  # type: ignore[arg-type]


def at(bf: Battlefield, col: int, row: int) -> Hex:
    return bf.geometry.to_hex(col, row)


# ------------------------------------------------------------------------------------------------
# terrain


def test_terrain_stacks_bottom_to_top_and_names_hexes(tmp_path: Path) -> None:
    bf = field(tmp_path, terrain={(2, 2): mf.WALL, (3, 2): mf.BARREL, (4, 2): mf.SCREE})
    assert bf.terrain_at(at(bf, 0, 0)) == Terrain("grass")
    assert bf.terrain_at(at(bf, 2, 2)) == Terrain(
        "wall", impassable=True, blocks_sight=True, cover=Cover.FULL
    )
    # the barrel sets cover and destructible only; its class names the hex
    assert bf.terrain_at(at(bf, 3, 2)) == Terrain("barrel", cover=Cover.HALF, destructible=True)
    assert bf.terrain_at(at(bf, 4, 2)).move_cost == 2
    assert len(bf.hexes) == 64 and bf.in_bounds(at(bf, 7, 7)) and not bf.in_bounds(Hex(-5, 0))


def test_decoration_and_hidden_layers_are_ignored_by_the_rules(tmp_path: Path) -> None:
    roof = mf.tile_layer("roof", mf.grid(8, 8, 0, {(2, 2): mf.WALL + 1}), props={"decoration": True})
    hidden = mf.tile_layer("wip", mf.grid(8, 8, 0, {(3, 2): mf.WALL + 1}), attrs='visible="0"')
    bf = field(tmp_path, extra_layers=[roof, hidden])
    assert bf.terrain_at(at(bf, 2, 2)).name == "grass"
    assert bf.line_of_sight(at(bf, 1, 2), at(bf, 4, 2))


def test_tile_objects_override_the_tiles_of_their_hex(tmp_path: Path) -> None:
    geo = load_battlefield(mf.standard_map(tmp_path / "g", with_deploy=True)).geometry
    x, y = geo.cell_origin(2, 2)
    boulder = mf.Obj(1, x, y + 74, shape="tile", gid=mf.BOULDER + 1)
    x, y = geo.cell_origin(4, 2)
    open_wall = mf.Obj(2, x, y + 74, shape="tile", gid=mf.WALL + 1, props={"blocks_sight": False})
    bf = field(tmp_path, objects=[boulder, open_wall])
    assert bf.terrain_at(at(bf, 2, 2)).cover is Cover.FULL
    wall = bf.terrain_at(at(bf, 4, 2))
    assert wall.impassable and not wall.blocks_sight


# ------------------------------------------------------------------------------------------------
# sight and cover


def test_a_wall_blocks_line_of_sight_and_endpoints_never_do(tmp_path: Path) -> None:
    bf = field(tmp_path, terrain={(3, 2): mf.WALL, (0, 2): mf.WALL})
    assert not bf.line_of_sight(at(bf, 1, 2), at(bf, 5, 2))
    assert not bf.line_of_sight(at(bf, 5, 2), at(bf, 1, 2))
    assert bf.line_of_sight(at(bf, 1, 4), at(bf, 5, 4))
    assert bf.line_of_sight(at(bf, 0, 2), at(bf, 2, 2))  # standing in a wall hex: it is an endpoint
    assert bf.sight_and_cover(at(bf, 1, 2), at(bf, 5, 2)) is None


def test_half_cover_behind_a_barrel(tmp_path: Path) -> None:
    bf = field(tmp_path, terrain={(3, 2): mf.BARREL})
    shooter, target = at(bf, 0, 2), at(bf, 4, 2)
    assert bf.line_of_sight(shooter, target)  # a barrel does not block sight
    assert bf.cover_between(shooter, target) is Cover.HALF
    assert bf.cover_between(target, shooter) is Cover.NONE  # the barrel is far from the shooter
    assert bf.cover_between(at(bf, 2, 2), at(bf, 4, 2)) is Cover.HALF
    assert bf.cover_between(at(bf, 3, 2), at(bf, 4, 2)) is Cover.NONE  # neighbours: no cover
    assert bf.sight_and_cover(shooter, target) is Cover.HALF


def test_set_terrain_changes_sight_cover_and_movement_and_is_recorded(tmp_path: Path) -> None:
    """Rules that destroy or deploy cover change the hex; queries follow at once."""
    bf = field(tmp_path, terrain={(3, 2): mf.BARREL, (2, 4): mf.WALL})
    shooter, target = at(bf, 0, 2), at(bf, 4, 2)
    assert bf.cover_between(shooter, target) is Cover.HALF
    bf.set_terrain(at(bf, 3, 2), Terrain("splintered barrel", move_cost=2))
    assert bf.cover_between(shooter, target) is Cover.NONE
    assert bf.move_cost(at(bf, 3, 2)) == 2
    assert not bf.line_of_sight(at(bf, 0, 4), at(bf, 4, 4))
    bf.set_terrain(at(bf, 2, 4), Terrain("rubble"))
    assert bf.line_of_sight(at(bf, 0, 4), at(bf, 4, 4))
    assert set(bf.terrain_changes) == {at(bf, 3, 2), at(bf, 2, 4)}


def test_ambiguous_lines_give_sight_if_either_is_clear_and_the_better_cover(tmp_path: Path) -> None:
    bf = field(tmp_path / "a")
    a = at(bf, 3, 3)
    b = a + Hex(1, 1)  # distance 2 along an edge: the lines pass either side
    line1, line2 = hex_lines(a, b)
    side1, side2 = line1[1], line2[1]
    assert side1 != side2
    c1, c2 = bf.geometry.to_cell(side1), bf.geometry.to_cell(side2)

    one_wall = field(tmp_path / "b", terrain={c1: mf.WALL})
    assert one_wall.line_of_sight(a, b) and one_wall.line_of_sight(b, a)
    assert one_wall.cover_between(a, b) is Cover.FULL  # the wall it grazes is cover ("still considered ...")
    two_walls = field(tmp_path / "c", terrain={c1: mf.WALL, c2: mf.WALL})
    assert not two_walls.line_of_sight(a, b)
    barrel = field(tmp_path / "d", terrain={c2: mf.BARREL})
    assert barrel.cover_between(a, b) is Cover.HALF and barrel.cover_between(b, a) is Cover.HALF


def test_visibility_batch_agrees_with_single_queries(tmp_path: Path) -> None:
    terrain = {(3, 2): mf.WALL, (4, 4): mf.BARREL, (2, 5): mf.BOULDER, (5, 1): mf.WALL, (1, 6): mf.BARREL}
    bf = field(tmp_path, terrain=terrain)
    hexes = sorted(bf.hexes)[::3]
    table = bf.visibility(hexes)
    for a in hexes:
        for b in hexes:
            if a != b:
                assert table.get((a, b)) == bf.sight_and_cover(a, b), (a, b)


def test_lines_equal_hexgrid_lines() -> None:
    """The battlefield's line pair for every offset to radius 40 is exactly hexgrid's pair (as a pair:
    lines of symmetric offsets are mapped from one stepped line pair and may come back swapped)."""
    for h in hexes_within(Hex(0, 0), 40):
        l1, l2 = hex_lines(Hex(0, 0), h)
        expected = {tuple((p.q, p.r) for p in l1), tuple((p.q, p.r) for p in l2)}
        f1, f2 = offset_lines(h.q, h.r)
        assert {tuple(f1), tuple(f2)} == expected, h


# ------------------------------------------------------------------------------------------------
# doors and movement


def test_closed_door_blocks_movement_and_sight_until_opened(tmp_path: Path) -> None:
    geo = load_battlefield(mf.standard_map(tmp_path / "g", with_deploy=True)).geometry
    walls = {(3, row): mf.WALL for row in range(8) if row != 3}
    x, y = geo.cell_center(3, 3)
    door = mf.Obj(7, x - 10, y - 10, 20, 20, props={"door": mf.Enum("closed", "Door"), "item": "Key"})
    bf = field(tmp_path, terrain=walls, objects=[door])
    left, right, gap = at(bf, 1, 3), at(bf, 5, 3), at(bf, 3, 3)
    assert bf.door_at(gap) is not None and not bf.door_at(gap).is_open
    assert bf.items_at(gap) == ("Key",)
    assert not bf.line_of_sight(left, right)
    assert bf.path(left, right) is None
    assert right not in bf.reachable(left, 30)
    assert not reach(bf, left, 30).reaches(right)  # the walks kept (reach_layers) as well
    assert bf.move_cost(gap) is None and not bf.is_passable(gap)
    bf.set_door(gap, True)
    assert bf.line_of_sight(left, right)
    assert bf.path(left, right) == [left, left + Hex(1, 0), gap, gap + Hex(1, 0), right]
    assert bf.reachable(left, 30)[right] == 4
    assert reach(bf, left, 30).cost_to(right) == 4
    bf.set_door(gap, False)
    assert not bf.line_of_sight(left, right) and bf.path(left, right) is None
    assert not reach(bf, left, 30).reaches(right)
    with pytest.raises(KeyError):
        bf.set_door(left, True)


def test_scree_costs_two_and_paths_go_around_it(tmp_path: Path) -> None:
    bf = field(tmp_path, terrain={(2, 2): mf.SCREE, (3, 2): mf.SCREE})
    start = at(bf, 1, 2)
    reach = bf.reachable(start, 2)
    assert reach[start] == 0 and reach[at(bf, 2, 2)] == 2 and at(bf, 3, 2) not in reach
    assert all(cost <= 2 for cost in reach.values())
    path = bf.path(start, at(bf, 4, 2))
    assert path is not None and bf.path_cost(path) == 4  # around the scree (4 hexes of cost 1)
    assert at(bf, 2, 2) not in path and at(bf, 3, 2) not in path


def test_blocked_hexes_and_walls_are_not_entered(tmp_path: Path) -> None:
    bf = field(tmp_path, terrain={(2, 2): mf.WALL})
    start = at(bf, 1, 2)
    blocked = frozenset({start + Hex(0, 1)})
    reach = bf.reachable(start, 1, blocked)
    assert set(reach) == {start, *[n for n in bf.neighbors(start) if n not in blocked and n != at(bf, 2, 2)]}
    assert bf.path(start, at(bf, 2, 2)) is None
    assert bf.path(start, start) == [start]
    assert bf.reachable(Hex(-9, -9), 3) == {} and bf.path(start, Hex(-9, -9)) is None


def test_neighbors_and_hexes_within_stay_on_the_map(tmp_path: Path) -> None:
    bf = field(tmp_path)
    corner = at(bf, 0, 0)
    assert all(bf.in_bounds(n) for n in bf.neighbors(corner)) and len(bf.neighbors(corner)) < 6
    assert len(bf.neighbors(at(bf, 3, 3))) == 6
    assert len(bf.hexes_within(at(bf, 3, 3), 1)) == 7
    assert all(bf.in_bounds(h) for h in bf.hexes_within(corner, 3))


# ------------------------------------------------------------------------------------------------
# zones, objectives, map facts


def test_rectangle_deploy_zones_hold_the_hexes_whose_centres_are_inside(tmp_path: Path) -> None:
    bf = field(tmp_path, 6, 5)
    zones = bf.deploy_zones
    # pointy-top, odd rows shifted right: the 32 px strip at the left edge holds column 0 of even rows
    assert zones["side1"] == frozenset(at(bf, 0, row) for row in (0, 2, 4))
    assert zones["side2"] == frozenset(at(bf, 5, row) for row in (1, 3))
    assert bf.side_name("side1") == "Side 1"


def test_polygon_and_rotated_zones(tmp_path: Path) -> None:
    geo = load_battlefield(mf.standard_map(tmp_path / "g", with_deploy=True)).geometry
    cx, cy = geo.cell_center(4, 4)
    triangle = mf.Obj(
        50, cx, cy - 20, shape="polygon", points=[(-20, 0), (20, 0), (0, 40)], props={"objective": "hold"}
    )
    # a 10 x 300 strip rotated 90 degrees clockwise about its origin: it hangs to the left of x = cx + 5
    x2, y2 = geo.cell_center(2, 1)
    strip = mf.Obj(51, x2 + 5, y2 - 5, 300, 10, rotation=90, props={"deploy": mf.Enum("side3", "Side")})
    bf = field(tmp_path, objects=[triangle, strip], props={"title": "Gulch", "rulesets": "frontier, Rift"})
    objective = next(o for o in bf.objectives if o.object_id == 50)
    assert objective.kind == "hold" and objective.hexes == frozenset({at(bf, 4, 4)})
    column = {at(bf, 2, row) for row in (1, 3, 5)}
    assert bf.deploy_zones["side3"] == frozenset(column)
    assert bf.title == "Gulch" and bf.rulesets == ("frontier", "rift")


def test_strict_refuses_convention_problems_and_lenient_builds_anyway(tmp_path: Path) -> None:
    """The core reads the 'rulesets' property but knows no ruleset: a name no plugin provides is not its
    problem (check-map reports it, tests/test_mapcheck.py)."""
    path = mf.standard_map(tmp_path, props={"rulesets": "chess"})
    with pytest.raises(MapLoadError) as info:
        load_battlefield(path)
    text = str(info.value)
    assert "no deploy zones" in text and "chess" not in text
    assert load_battlefield(path, strict=False).rulesets == ("chess",)


# ------------------------------------------------------------------------------------------------
# properties


@pytest.fixture(scope="module")
def prop_field(tmp_path_factory: pytest.TempPathFactory) -> Battlefield:
    d = tmp_path_factory.mktemp("prop")
    terrain = {(c, r): (c * 7 + r * 3) % 8 for c in range(9) for r in range(9) if (c * 5 + r * 11) % 4 == 0}
    terrain = {k: v for k, v in terrain.items() if v != mf.DOOR}
    return load_battlefield(mf.standard_map(d, 9, 9, terrain=terrain, with_deploy=True), strict=False)


hexes_strategy = st.tuples(st.integers(0, 8), st.integers(0, 8))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=hexes_strategy, b=hexes_strategy)
def test_line_of_sight_is_symmetric(prop_field: Battlefield, a: tuple[int, int], b: tuple[int, int]) -> None:
    ha, hb = at(prop_field, *a), at(prop_field, *b)
    assert prop_field.line_of_sight(ha, hb) == prop_field.line_of_sight(hb, ha)
    if hex_distance(ha, hb) <= 1:
        assert prop_field.line_of_sight(ha, hb)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(start=hexes_strategy, budget=st.integers(0, 8), blocked=st.sets(hexes_strategy, max_size=6))
def test_reachable_costs_fit_the_budget_and_match_paths(
    prop_field: Battlefield, start: tuple[int, int], budget: int, blocked: set[tuple[int, int]]
) -> None:
    s = at(prop_field, *start)
    block = frozenset(at(prop_field, *c) for c in blocked) - {s}
    reach = prop_field.reachable(s, budget, block)
    if not prop_field.is_passable(s):
        assert reach in ({s: 0}, {})
    for h, cost in reach.items():
        assert 0 <= cost <= budget and h not in block
        assert cost >= hex_distance(s, h)
        path = prop_field.path(s, h, block)
        assert path is not None and path[0] == s and path[-1] == h
        assert prop_field.path_cost(path) == cost
        assert len(path) - 1 >= hex_distance(s, h)
        assert all(hex_distance(x, y) == 1 for x, y in itertools.pairwise(path))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=hexes_strategy, b=hexes_strategy)
def test_paths_are_deterministic_and_no_longer_than_needed(
    prop_field: Battlefield, a: tuple[int, int], b: tuple[int, int]
) -> None:
    ha, hb = at(prop_field, *a), at(prop_field, *b)
    path = prop_field.path(ha, hb)
    assert path == prop_field.path(ha, hb)
    reach = prop_field.reachable(ha, 200)
    if path is None:
        assert hb not in reach or ha == hb
    else:
        assert len(path) - 1 >= hex_distance(ha, hb)
        assert prop_field.path_cost(path) == reach[hb]


def test_geometry_helpers_are_consistent(tmp_path: Path) -> None:
    bf = field(tmp_path)
    for h in bf.hexes:
        x, y = bf.geometry.hex_center(h)
        assert math.isfinite(x) and bf.geometry.pixel_to_hex(x, y) == h


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    start=hexes_strategy,
    budget=st.integers(0, 8),
    blocked=st.sets(hexes_strategy, max_size=8),
    moved=st.sets(hexes_strategy, max_size=3),
)
def test_walks_kept_are_the_walks_searched_afresh(
    prop_field: Battlefield,
    start: tuple[int, int],
    budget: int,
    blocked: set[tuple[int, int]],
    moved: set[tuple[int, int]],
) -> None:
    """``reach_layers`` keeps its answers for the blocked hexes within the budget's distance: asked again
    with other blocked hexes further away (units that moved out there) it gives the search's answer."""
    s = at(prop_field, *start)
    block = frozenset(at(prop_field, *c) for c in blocked) - {s}
    first = prop_field.reach_layers(s, budget, block)
    again = block | {at(prop_field, *c) for c in moved if hex_distance(s, at(prop_field, *c)) > budget}
    stop = 0
    for h in again:
        stop |= 1 << prop_field.key_at(h)
    fresh = prop_field._search(prop_field.key_at(s), budget, stop) if prop_field.is_passable(s) else first
    assert prop_field.reach_layers(s, budget, again) == fresh == first
