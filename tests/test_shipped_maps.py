"""The maps, tilesets and art shipped in maps/ and assets/tiles/, and the generators that make them.

Only xml.etree and pytmx (without an image loader, so no pygame) read the files here; the Hexslinger
loader's own verdict is checked at the end through ``game.mapcheck`` and ``game.battlefield``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAPS = ROOT / "maps"
ASSETS = ROOT / "assets" / "tiles"
MAP_FILES = sorted(MAPS.glob("*.tmx"))
TSX_FILES = sorted(MAPS.glob("*.tsx"))
GID_MASK = 0x0FFFFFFF
TERRAIN_PROPS = {"terrain", "impassable", "blocks_sight", "cover", "move_cost", "destructible"}
BOOL_PROPS = {"impassable", "blocks_sight", "destructible"}


def _props(el: ET.Element) -> dict[str, ET.Element]:
    holder = el.find("properties")
    return {} if holder is None else {p.get("name", ""): p for p in holder.findall("property")}


def _tilesets(tmx: Path) -> list[tuple[int, Path, ET.Element]]:
    out = []
    for ts in ET.parse(tmx).getroot().findall("tileset"):
        source = (tmx.parent / ts.get("source", "")).resolve()
        out.append((int(ts.get("firstgid", "0")), source, ET.parse(source).getroot()))
    return out


def _size(png: Path) -> tuple[int, int]:
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", png
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def test_the_shipped_maps_are_there() -> None:
    assert {p.name for p in MAP_FILES} >= {"frontier_town.tmx", "canyon_railyard.tmx", "ranch_duel.tmx"}


@pytest.mark.parametrize("tmx", MAP_FILES, ids=lambda p: p.name)
def test_map_header(tmx: Path) -> None:
    root = ET.parse(tmx).getroot()
    assert root.tag == "map"
    assert root.get("orientation") == "hexagonal"
    assert root.get("infinite") == "0"
    assert root.get("staggeraxis") in ("x", "y")
    assert root.get("staggerindex") in ("odd", "even")
    assert int(root.get("hexsidelength", "0")) > 0
    props = _props(root)
    for name in ("title", "description", "rulesets"):
        assert props.get(name) is not None and props[name].get("value"), f"{tmx.name} lacks {name}"
    rulesets = {r.strip() for r in props["rulesets"].get("value", "").split(",")}
    assert rulesets and rulesets <= {"frontier", "rift", "golden"}


@pytest.mark.parametrize("tmx", MAP_FILES, ids=lambda p: p.name)
def test_tilesets_and_images_exist(tmx: Path) -> None:
    for _, source, ts in _tilesets(tmx):
        assert source.is_file(), source
        images = [ts.find("image")] + [t.find("image") for t in ts.findall("tile")]
        for image in (i for i in images if i is not None):
            path = (source.parent / image.get("source", "")).resolve()
            assert path.is_file(), path
            assert path.is_relative_to(ROOT / "assets"), f"{source.name} points outside assets/: {path}"
            w, h = _size(path)
            assert (w, h) == (int(image.get("width", "0")), int(image.get("height", "0"))), path


@pytest.mark.parametrize("tmx", MAP_FILES, ids=lambda p: p.name)
def test_every_gid_is_defined(tmx: Path) -> None:
    root = ET.parse(tmx).getroot()
    defined: set[int] = set()
    for first, _, ts in _tilesets(tmx):
        defined.update(first + int(t.get("id", "0")) for t in ts.findall("tile"))
        defined.update(range(first, first + int(ts.get("tilecount", "0"))))
    width, height = int(root.get("width", "0")), int(root.get("height", "0"))
    used: set[int] = set()
    for layer in root.iter("layer"):
        data = layer.find("data")
        assert data is not None and data.get("encoding") == "csv"
        values = [int(v) for v in (data.text or "").replace("\n", "").split(",")]
        assert len(values) == width * height, layer.get("name")
        used.update(v & GID_MASK for v in values if v)
    for obj in root.iter("object"):
        if obj.get("gid"):
            used.add(int(obj.get("gid", "0")) & GID_MASK)
    assert used, tmx.name
    assert used <= defined, f"undefined gids {sorted(used - defined)}"


def test_both_hex_shapes_and_a_big_map() -> None:
    roots = [ET.parse(p).getroot() for p in MAP_FILES]
    axes = {r.get("staggeraxis") for r in roots}
    assert axes == {"x", "y"}, "need a pointy-top (y) and a flat-top (x) map"
    largest = max(roots, key=lambda r: int(r.get("width", "0")) * int(r.get("height", "0")))
    assert int(largest.get("width", "0")) >= 60
    assert int(largest.get("height", "0")) >= 60


@pytest.mark.parametrize("tmx", MAP_FILES, ids=lambda p: p.name)
def test_objects_follow_the_conventions(tmx: Path) -> None:
    root = ET.parse(tmx).getroot()
    sides: set[str] = set()
    doors = 0
    for obj in root.iter("object"):
        props = _props(obj)
        if "deploy" in props:
            side = props["deploy"].get("value", "")
            assert side in {"side1", "side2", "side3", "side4"}
            assert obj.find("point") is None, "a deploy zone must be a rectangle or polygon"
            sides.add(side)
        if "door" in props:
            assert props["door"].get("value") in ("open", "closed")
            assert obj.get("gid"), "doors are tile objects showing the door tile"
            doors += 1
        if "item" in props:
            assert props["item"].get("value")
    assert {"side1", "side2"} <= sides
    assert doors >= 1


def test_town_has_smelling_salts_and_three_buildings() -> None:
    root = ET.parse(MAPS / "frontier_town.tmx").getroot()
    items = [_props(o)["item"].get("value") for o in root.iter("object") if "item" in _props(o)]
    assert "Smelling Salts" in items and len(items) >= 2
    assert root.get("staggeraxis") == "y" and root.get("staggerindex") == "odd"
    props = _props(root)
    assert props["side1_name"].get("value") == "The Law"
    assert props["side2_name"].get("value") == "The Outlaws"


@pytest.mark.parametrize("tsx", TSX_FILES, ids=lambda p: p.name)
def test_every_tile_has_valid_terrain_properties(tsx: Path) -> None:
    ts = ET.parse(tsx).getroot()
    tiles = ts.findall("tile")
    assert len(tiles) == int(ts.get("tilecount", "0"))
    for tile in tiles:
        props = _props(tile)
        where = f"{tsx.name} tile {tile.get('id')}"
        assert props.get("terrain") is not None and props["terrain"].get("value"), where
        for name, p in props.items():
            assert name in TERRAIN_PROPS, f"{where}: unknown property {name}"
            value = p.get("value", "")
            if name in BOOL_PROPS:
                assert p.get("type") == "bool" and value in ("true", "false"), where
            if name == "cover":
                assert value in ("none", "half", "full"), where
                assert p.get("propertytype") == "Cover", where
            if name == "move_cost":
                assert p.get("type") == "int" and int(value) >= 1, where


def test_pytmx_reads_every_map() -> None:
    pytmx = pytest.importorskip("pytmx")
    for tmx in MAP_FILES:
        tiled = pytmx.TiledMap(str(tmx))  # no image loader: pygame is not imported
        assert tiled.orientation == "hexagonal"
        names = {layer.name for layer in tiled.layers}
        assert {"ground", "deploy"} <= names
        assert tiled.properties.get("title")


def test_project_defines_the_enums() -> None:
    project = json.loads((MAPS / "hexslinger.tiled-project").read_text(encoding="utf-8"))
    enums = {t["name"]: t for t in project["propertyTypes"]}
    assert enums["Cover"]["values"] == ["none", "half", "full"]
    assert enums["Side"]["values"] == ["side1", "side2", "side3", "side4"]
    assert enums["DoorState"]["values"] == ["open", "closed"]
    for t in enums.values():
        assert t["type"] == "enum" and t["storageType"] == "string" and not t["valuesAsFlags"]
    assert len({t["id"] for t in enums.values()}) == len(enums)


@pytest.mark.slow
def test_generators_are_deterministic(tmp_path: Path) -> None:
    env_python = sys.executable
    for module in ("tools.gen_art", "tools.gen_maps"):
        subprocess.run([env_python, "-m", module, str(tmp_path)], cwd=ROOT, check=True, capture_output=True)
    for shipped in [*MAP_FILES, *TSX_FILES, MAPS / "hexslinger.tiled-project"]:
        fresh = tmp_path / "maps" / shipped.name
        assert fresh.read_bytes() == shipped.read_bytes(), f"{shipped.name} is not what the generator makes"
    pygame = pytest.importorskip("pygame")
    pngs = sorted(ASSETS.glob("*.png"))
    assert pngs
    for shipped in pngs:
        fresh = tmp_path / "assets" / "tiles" / shipped.name
        a, b = pygame.image.load(str(shipped)), pygame.image.load(str(fresh))
        assert a.get_size() == b.get_size(), shipped.name
        assert pygame.image.tobytes(a, "RGBA") == pygame.image.tobytes(b, "RGBA"), shipped.name
    assert sum(p.stat().st_size for p in pngs) < 1_000_000


@pytest.mark.parametrize("tmx", MAP_FILES, ids=lambda p: p.name)
def test_hexslinger_finds_no_problems(tmx: Path) -> None:
    mapcheck = pytest.importorskip("game.mapcheck")
    assert [str(p) for p in mapcheck.check_map(tmx)] == []


@pytest.mark.parametrize("tmx", MAP_FILES, ids=lambda p: p.name)
def test_the_sides_can_reach_each_other(tmx: Path) -> None:
    mapload = pytest.importorskip("game.mapload")
    field = mapload.load_battlefield(tmx)
    zones = {z.side: z for z in field.zones}
    for z in zones.values():
        assert all(field.is_passable(h) for h in z.hexes), f"{z.side} deploys on impassable hexes"
    a = min(zones["side1"].hexes)
    b = min(zones["side2"].hexes)
    assert field.path(a, b) is not None, "the two sides cannot reach each other"
    assert field.doors, "every shipped map has at least one door"
