"""Map loading and checking bounded in time and memory for every map (issue 11), asserted by counts, not by
the clock (times: docs/RELIABILITY.md, from ``python -m tests.hostile_maps``).

* reading: regular files only, 32 MB for a map and its tilesets together, the DTD check on the decoded
  text (a UTF-16 map cannot slip a DTD past it), tags and attributes counted before parsing;
* tilesets: at most MAX_TOTAL_TILES tiles in all (eight tilesets of 1,048,576 tiles each took 4 GB);
* layers: tiles stacked a layer at a time for all cells, each distinct (state, tile) pair worked out once;
* zones: rasterised by lines of centres, exactly the hexes the per-centre test picks, the work counted.
"""

from __future__ import annotations

import math
import os
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import game.battlefield as battlefield_module
import game.mapload as mapload_module
import game.zones as zones_module
from game.hexgrid import StaggerAxis, StaggerIndex, TiledHexGeometry
from game.mapcheck import check_map
from game.mapload import MAX_SHAPE_WORK, build_battlefield, load_battlefield
from game.tiledmap import MapLoadError, MapObject, load_tiled_map
from game.tiledmap.reading import (
    MAX_GROUP_DEPTH,
    MAX_LAYERS,
    MAX_SHAPE_POINTS,
    MAX_TILESET_TILES,
    MAX_TILESETS,
    MAX_TOTAL_TILES,
    MAX_XML_MARKUP,
    decode_xml,
)
from game.zones import Budget, CentreLines, covered_cells, shape_contains
from tests import hostile_maps
from tests import maps_factory as mf

ROOT = Path(__file__).resolve().parent.parent


def problems_of(path: Path) -> str:
    start = time.monotonic()
    with pytest.raises(MapLoadError) as caught:
        load_tiled_map(path)
    assert time.monotonic() - start < 10
    return "\n".join(str(p) for p in caught.value.problems)


# -- reading ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_map_cannot_hide_a_dtd(tmp_path: Path, encoding: str) -> None:
    """The old guard searched the bytes for b'<!DOCTYPE', which UTF-16 spells with NULs between."""
    text = '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE m [<!ENTITY a "aaaa">]><map>&a;</map>'
    path = tmp_path / "m.tmx"
    path.write_bytes(text.encode(encoding))
    assert b"<!DOCTYPE" not in path.read_bytes()
    assert "DTD" in problems_of(path)


def test_a_utf16_map_without_a_dtd_loads_like_its_utf8_self(tmp_path: Path) -> None:
    utf8 = mf.standard_map(tmp_path / "a", 5, 4, terrain={(1, 1): mf.WALL}, with_deploy=True)
    text = utf8.read_text(encoding="utf-8").replace('encoding="UTF-8"', 'encoding="UTF-16"')
    utf16 = utf8.with_name("b.tmx")
    utf16.write_bytes(text.encode("utf-16"))
    a, b = load_tiled_map(utf8), load_tiled_map(utf16)
    assert [layer.raw for layer in a.tile_layers()] == [layer.raw for layer in b.tile_layers()]
    assert a.file_hash != b.file_hash  # the hash is of the bytes, as saves record it


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ('<?xml version="1.0"?><map/>'.encode("utf-32"), "UTF-32"),
        (b'<?xml version="1.0" encoding="cp037"?><map/>', "declares the encoding 'cp037'"),
        (b'<?xml version="1.0" encoding="no-such"?><map/>', "unknown encoding"),
        (b'<?xml version="1.0" encoding="UTF-8"?><map name="\xff"/>', "not UTF-8 text"),
    ],
)
def test_encodings_tiled_never_writes_are_refused(tmp_path: Path, data: bytes, said: str) -> None:
    path = tmp_path / "m.tmx"
    path.write_bytes(data)
    assert said in problems_of(path)
    with pytest.raises(ValueError, match=said.split("'", maxsplit=1)[0].strip()):
        decode_xml(data)


@pytest.mark.skipif(os.name != "posix", reason="FIFOs and /dev are POSIX")
def test_maps_tilesets_and_images_that_are_not_regular_files_are_never_read(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.tmx"
    os.mkfifo(fifo)
    assert "not a regular file" in problems_of(fifo)
    zero = tmp_path / "zero.tmx"
    zero.symlink_to("/dev/zero")
    assert "not a regular file" in problems_of(zero)
    path = mf.standard_map(tmp_path / "m", with_deploy=True)
    (tmp_path / "m" / "terrain.tsx").unlink()
    (tmp_path / "m" / "terrain.tsx").symlink_to("/dev/zero")
    assert "tileset 'terrain.tsx'" in problems_of(path) and "not a regular file" in problems_of(path)
    (tmp_path / "m" / "terrain.tsx").unlink()
    mf.write_tsx(tmp_path / "m" / "terrain.tsx", mf.sheet_tileset_body(image="stdin.png"))
    (tmp_path / "m" / "stdin.png").symlink_to("/dev/stdin")
    assert "'stdin.png' does not exist" in problems_of(path)  # not a file: as good as missing


def test_a_map_and_its_tilesets_share_one_32_mb_budget(tmp_path: Path) -> None:
    """Each file under 32 MB but a tileset used twice: the second read is refused, not 64 MB read."""
    body = mf.sheet_tileset_body()
    attrs, inner = body.split("|", 1)
    padding = "<!--" + " " * (20 * 1024 * 1024) + "-->"
    (tmp_path / "big.tsx").write_text(f'<?xml version="1.0"?><tileset {attrs}>{padding}{inner}</tileset>')
    mf.write_png(tmp_path / "terrain.png", 256, 148)
    tilesets = [mf.external_tileset(1, "big.tsx"), mf.external_tileset(101, "big.tsx")]
    layers = [mf.tile_layer("g", mf.grid(3, 3, 1))]
    path = mf.write_text(tmp_path / "m.tmx", mf.map_xml(3, 3, tilesets=tilesets, layers=layers))
    said = problems_of(path)
    assert "larger than 32 MB together with the files read before it" in said


def test_tags_and_attributes_are_counted_before_parsing(tmp_path: Path) -> None:
    """32 MB of '<t/>' would parse into 8 million elements (3 GB): refused by count first."""
    path = tmp_path / "m.tmx"
    path.write_text("<map>" + "<t/>" * (MAX_XML_MARKUP + 1) + "</map>")
    assert f"{MAX_XML_MARKUP:,}" in problems_of(path)


def test_eight_tilesets_of_a_million_tiles_are_refused_before_any_tile_is_made(tmp_path: Path) -> None:
    """The old loader made a TileInfo for every declared tile: 8 x 1,048,576 of them, 4 GB in 55 s."""
    path = hostile_maps.many_huge_tilesets(tmp_path)
    said = problems_of(path)
    assert said.count(f"declares 1048576 tiles, more than the {MAX_TILESET_TILES}") == 8


def test_tiles_of_all_tilesets_together_are_capped(tmp_path: Path) -> None:
    one = load_tiled_map(hostile_maps.tileset_limit(tmp_path / "one"))  # the most allowed: it loads
    assert len(one.tiles) == MAX_TOTAL_TILES
    two = hostile_maps.many_huge_tilesets(tmp_path / "two", count=2, tilecount=MAX_TOTAL_TILES // 2 + 1)
    assert f"more than {MAX_TOTAL_TILES} tiles in the map's tilesets together" in problems_of(two)


@pytest.mark.parametrize(
    ("width", "height"), [("\u0a67", "9999999999999999999"), ("1e999", "1" * 90), ("x", "4")]
)
def test_a_map_size_unreadable_on_one_side_is_no_size(tmp_path: Path, width: str, height: str) -> None:
    """Found by `make fuzz` (seed 2): a width that is not a number left the map 0 cells wide and 10**19
    rows tall, and every layer built 10**19 empty rows."""
    path = mf.standard_map(tmp_path, with_deploy=True)
    path.write_text(path.read_text().replace('width="8" height="8"', f'width="{width}" height="{height}"', 1))
    assert "not a whole number" in problems_of(path)


def test_ten_thousand_layers_are_refused_past_the_layer_limit(tmp_path: Path) -> None:
    """Found by `make fuzz` (seed 2): 100,000 empty layers took 7 s a load, one problem and one empty
    grid each."""
    path = mf.standard_map(tmp_path, with_deploy=True)
    path.write_text(path.read_text().replace("<layer ", '<layer name="x"/>' * 10_000 + "<layer ", 1))
    with pytest.raises(MapLoadError) as caught:
        load_tiled_map(path)
    said = [p.what for p in caught.value.problems]
    assert said[-1] == f"the map has more than {MAX_LAYERS} layers (groups included)"
    assert len(said) <= MAX_LAYERS + 1


def test_a_hundred_thousand_tilesets_are_refused_past_the_tileset_limit(tmp_path: Path) -> None:
    """Found by `make fuzz` (seed 3): a map naming one .tsx 100,000 times (5.8 MB) took over 20 s to
    load, each reference resolved, read and parsed. Now one problem, at once."""
    path = mf.standard_map(tmp_path, with_deploy=True)
    text = path.read_text()
    start = text.index("<tileset ")
    end = text.index(">", start) + 1
    # a reference to the map's own .tsx, or (an embedded tileset) to one that does not exist
    embedded = '<tileset firstgid="1" source="missing.tsx"/>'
    reference = text[start:end] if text[end - 2] == "/" else embedded
    path.write_text(text[:start] + reference * 100_000 + text[start:])
    began = time.monotonic()
    with pytest.raises(MapLoadError) as caught:
        load_tiled_map(path)
    assert time.monotonic() - began < 5
    said = [p.what for p in caught.value.problems]
    assert said == [f"the map has 100001 tilesets, more than the limit of {MAX_TILESETS}"]


def test_groups_nested_past_the_limit_are_a_problem_not_a_recursion_error(tmp_path: Path) -> None:
    def nested(depth: int) -> Path:
        layer = mf.tile_layer("g", mf.grid(3, 3, 1))
        text = mf.map_xml(
            3,
            3,
            tilesets=[mf.embedded_tileset(1, mf.sheet_tileset_body())],
            layers=['<group name="x">' * depth + layer + "</group>" * depth],
        )
        mf.write_png(tmp_path / "terrain.png", 256, 148)
        return mf.write_text(tmp_path / f"d{depth}.tmx", text)

    assert load_tiled_map(nested(MAX_GROUP_DEPTH)).tile_layers()
    assert f"nested more than {MAX_GROUP_DEPTH} deep" in problems_of(nested(100_000))


def test_shapes_with_too_many_or_unreadable_points_are_problems(tmp_path: Path) -> None:
    points = [(float(i % 100), float(i // 100)) for i in range(MAX_SHAPE_POINTS + 1)]
    big = mf.Obj(1, 10, 10, shape="polygon", points=points, props={"deploy": mf.Enum("side1", "Side")})
    path = mf.standard_map(tmp_path / "a", objects=[big], with_deploy=True)
    assert f"more than {MAX_SHAPE_POINTS}" in problems_of(path)
    small = mf.Obj(1, 10, 10, shape="polygon", points=[(0, 0), (50, 0), (0, 50)], props={"deploy": "side1"})
    for bad in ("nan,1", "1,inf", "-inf,0"):
        path = mf.standard_map(tmp_path / bad.replace(",", "_"), objects=[small], with_deploy=True)
        path.write_text(path.read_text().replace('points="0,0 ', f'points="{bad} ', 1))
        assert "unreadable polygon points" in problems_of(path)


def test_absurdly_long_sources_are_refused_without_resolving_them(tmp_path: Path) -> None:
    """Path.resolve() looks up every prefix of a path: quadratic in a 2 MB source's length."""
    long_source = "x/" * 500_000 + "t.tsx"
    text = mf.map_xml(
        3, 3, tilesets=[mf.external_tileset(1, long_source)], layers=[mf.tile_layer("g", mf.grid(3, 3, 0))]
    )
    path = mf.write_text(tmp_path / "m.tmx", text)
    assert "not a usable file name" in problems_of(path)


# -- checking: counts -------------------------------------------------------------------------------


def test_tiles_are_stacked_once_per_distinct_state_and_tile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """32 layers in which (nearly) every cell's stack differs: the old check stacked 32 tiles for every
    one of the 262,144 cells; now each layer is one dict lookup per cell, and only the distinct (state,
    tile) pairs are worked out in Python."""
    worked: list[tuple[int, int]] = []
    original = mapload_module._Stacking.__missing__

    def counted(self: Any, key: tuple[int, int]) -> int:
        worked.append(key)
        return original(self, key)

    monkeypatch.setattr(mapload_module._Stacking, "__missing__", counted)
    path = hostile_maps.distinct_stacks(tmp_path, side=64)
    assert check_map(path) == []
    cells_times_layers = 64 * 64 * 32
    assert len(worked) < 200, len(worked)  # 4 tiles, a handful of states
    assert len(set(worked)) == len(worked)
    assert cells_times_layers > 500 * len(worked)


def test_two_hundred_zones_test_only_the_centres_near_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every zone was tested against every centre: 200 x 262,144 tests. Now a rectangle tests the centres
    of its own lines, about the hexes it covers plus two per line."""
    tested = [0]
    original = zones_module.shape_contains

    def counted(*args: Any) -> bool:
        tested[0] += 1
        return original(*args)

    monkeypatch.setattr(zones_module, "shape_contains", counted)
    problems = check_map(hostile_maps.many_zones(tmp_path))
    assert problems == []
    assert tested[0] < 200 * 40, tested[0]  # each zone covers 3 x 3 hexes


def test_the_most_detailed_polygon_allowed_is_rasterised_within_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spent: list[int] = []
    original = zones_module.covered_cells

    def counted(obj: MapObject, offset: tuple[float, float], lines: CentreLines, budget: Budget) -> Any:
        before = budget.left
        cells = original(obj, offset, lines, budget)
        spent.append(before - budget.left)
        return cells

    monkeypatch.setattr(mapload_module, "covered_cells", counted)
    tmap = load_tiled_map(hostile_maps.largest_polygon(tmp_path), require_images=False)
    battlefield, problems = build_battlefield(tmap)
    assert problems == []
    zone = next(z for z in battlefield.zones if z.side == "side1")
    radius = 0.9 * 512 * 55 / 2  # a circle over most of the 512 x 512 map: its area in hexes of 64 x 55
    assert abs(len(zone.hexes) - math.pi * radius**2 / (64 * 55)) < 0.01 * len(zone.hexes)
    assert sum(spent) < MAX_SHAPE_WORK // 2, spent


def test_a_300000_point_polygon_is_refused_by_its_point_count(tmp_path: Path) -> None:
    assert "is a polygon of 300000 points, more than 10000" in problems_of(
        hostile_maps.huge_polygon(tmp_path)
    )


def test_zones_past_the_work_budget_are_a_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mapload_module, "MAX_SHAPE_WORK", 50)
    path = mf.standard_map(tmp_path, 30, 30, with_deploy=True)
    said = "\n".join(str(p) for p in check_map(path))
    assert "too complex to check" in said


def test_the_largest_legal_map_is_ready_to_play(tmp_path: Path) -> None:
    path = hostile_maps.largest_map(tmp_path)
    assert check_map(path) == []
    battlefield = load_battlefield(path)
    assert len(battlefield.hexes) == 512 * 512
    assert sum(1 for h in battlefield.hexes if battlefield.blocks_sight(h)) == sum(
        1 for r in range(512) for c in range(2, 510) if (c * 31 + r * 17) % 7 == 0
    )


# -- zones: exactly the centres the per-centre test picks ----------------------------------------------


def brute_force(
    obj: MapObject, offset: tuple[float, float], geo: TiledHexGeometry, w: int, h: int
) -> set[tuple[int, int]]:
    return {(c, r) for r in range(h) for c in range(w) if shape_contains(obj, offset, *geo.cell_center(c, r))}


geometries = st.builds(
    TiledHexGeometry.create,
    st.sampled_from([64, 74, 30, 17]),
    st.sampled_from([74, 64, 30, 19]),
    st.sampled_from([0, 8, 10]),
    st.sampled_from(list(StaggerAxis)),
    st.sampled_from(list(StaggerIndex)),
)


@st.composite
def shapes(draw: st.DrawFn, geo: TiledHexGeometry) -> MapObject:
    kind = draw(st.sampled_from(["rectangle", "ellipse", "polygon", "polygon"]))
    grid_aligned = draw(st.booleans())  # vertices on hex centres and half-tiles: ties everywhere

    def coord(limit: float) -> float:
        if grid_aligned:
            return draw(st.integers(-4, int(limit // 16) + 4)) * 8.0
        return draw(st.floats(-50, limit + 50, allow_nan=False))

    x, y = coord(600), coord(600)
    rotation = 0.0 if grid_aligned or draw(st.booleans()) else draw(st.floats(-360, 360))
    if kind == "polygon":
        n = draw(st.integers(3, 12))
        points = [(x + coord(300) - 150, y + coord(300) - 150) for _ in range(n)]
        return MapObject(1, "", "", x, y, 0.0, 0.0, rotation, points=points, shape="polygon")
    w, h = abs(coord(300)), abs(coord(300))
    return MapObject(1, "", "", x, y, w, h, rotation, shape=kind)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), geo=geometries, w=st.integers(1, 14), h=st.integers(1, 14))
def test_rasterised_shapes_cover_exactly_the_centres_inside(
    data: st.DataObject, geo: TiledHexGeometry, w: int, h: int
) -> None:
    obj = data.draw(shapes(geo))
    offset = data.draw(st.sampled_from([(0.0, 0.0), (3.5, -7.0)]))
    cells = covered_cells(obj, offset, CentreLines(geo, w, h), Budget(10**9))
    assert cells is not None
    assert len(cells) == len(set(cells))
    differ = set(cells) ^ brute_force(obj, offset, geo, w, h)
    if obj.shape == "polygon" and obj.rotation:
        # worked in map coordinates: only a centre within rounding error of an edge may fall either way
        assert all(_edge_distance(obj, offset, *geo.cell_center(c, r)) < 1e-6 for c, r in differ), differ
    else:
        assert not differ


def _edge_distance(obj: MapObject, offset: tuple[float, float], px: float, py: float) -> float:
    lx, ly = zones_module.rotate(px - obj.x - offset[0], py - obj.y - offset[1], -obj.rotation)
    points = [(x - obj.x, y - obj.y) for x, y in obj.points or ()]
    best = math.inf
    for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1], strict=True):
        dx, dy = bx - ax, by - ay
        t = (
            0.0
            if dx == dy == 0
            else max(0.0, min(1.0, ((lx - ax) * dx + (ly - ay) * dy) / (dx * dx + dy * dy)))
        )
        best = min(best, math.hypot(lx - ax - t * dx, ly - ay - t * dy))
    return best


def test_an_ellipse_too_small_to_halve_is_no_crash(tmp_path: Path) -> None:
    """Found by the property above: an ellipse 5e-324 px tall has a half of 0.0, and the per-centre
    test divided by it (a ZeroDivisionError out of check-map)."""
    zone = mf.Obj(1, 0, 37, 100, 5e-324, shape="ellipse", props={"deploy": mf.Enum("side1", "Side")})  # row 0
    path = mf.standard_map(tmp_path, objects=[zone], with_deploy=True)
    said = "\n".join(str(p) for p in check_map(path))
    assert "object 1: the deploy zone covers no hex centre" in said


def test_the_shipped_maps_zones_are_the_centres_inside_them() -> None:
    for path in sorted((ROOT / "maps").glob("*.tmx")):
        tmap = load_tiled_map(path, require_images=False)
        battlefield = load_battlefield(path)
        geo = tmap.geometry
        shapes_by_id = {o.id: (o, layer.offset) for layer in tmap.object_layers() for o in layer.objects}
        for zone in battlefield.zones:
            obj, offset = shapes_by_id[zone.object_id]
            expected = brute_force(obj, offset, geo, tmap.width, tmap.height)
            assert {geo.to_cell(h) for h in zone.hexes} == expected, (path.name, zone.object_id)
        assert battlefield.zones, path.name
        assert not math.isnan(sum(len(z.hexes) for z in battlefield.zones))


@given(values=st.lists(st.integers(0, 300), max_size=200), value=st.integers(0, 300), as_bytes=st.booleans())
def test_bit_sets_are_the_indexes_holding_the_value(values: list[int], value: int, as_bytes: bool) -> None:
    """``_bitset`` builds a battlefield's bit sets by byte translation (costs above 255 take the slow
    road): bit k is set exactly where entry k equals the value."""
    data: bytearray | list[int] = bytearray(v % 256 for v in values) if as_bytes else values
    expected = sum(1 << k for k, v in enumerate(data) if v == value)
    assert battlefield_module._bitset(data, value) == expected
