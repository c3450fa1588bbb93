"""The .tmx loader: every layer format, tilesets, groups, file order, flags, properties, and bad maps."""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tracemalloc
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.tiledmap import (
    FLIP_HORIZONTAL,
    FLIP_VERTICAL,
    GID_MASK,
    ROTATE_HEX_120,
    Cell,
    ImageLayer,
    MapLoadError,
    ObjectLayer,
    TileLayer,
    load_tiled_map,
)
from tests import maps_factory as mf

ROOT = Path(__file__).resolve().parent.parent


def _problems(path: Path) -> list[str]:
    with pytest.raises(MapLoadError) as info:
        load_tiled_map(path)
    assert info.value.problems
    return [str(p) for p in info.value.problems]


def _one_problem(path: Path, *needles: str) -> str:
    texts = _problems(path)
    joined = "\n".join(texts)
    for needle in needles:
        assert needle.lower() in joined.lower(), joined
    return joined


# ------------------------------------------------------------------------------------------------
# formats


@pytest.mark.parametrize("encoding", ["csv", "base64", "zlib", "gzip", "xml"])
def test_every_layer_format_reads_the_same_gids(tmp_path: Path, encoding: str) -> None:
    path = mf.standard_map(tmp_path, 5, 4, terrain={(1, 2): mf.WALL, (4, 3): mf.SCREE}, encoding=encoding)
    tmap = load_tiled_map(path)
    ground, terrain = tmap.tile_layers()
    assert ground.raw == [[1] * 5 for _ in range(4)]
    assert terrain.raw[2][1] == mf.WALL + 1
    assert terrain.raw[3][4] == mf.SCREE + 1
    assert terrain.cell(0, 0) is None
    assert (tmap.width, tmap.height) == (5, 4)


def test_raw_gids_keep_every_flag_including_the_hex_120_rotation(tmp_path: Path) -> None:
    flagged = (mf.BARREL + 1) | ROTATE_HEX_120 | FLIP_HORIZONTAL
    for encoding in ("csv", "zlib"):
        d = tmp_path / encoding
        body = mf.sheet_tileset_body()
        mf.write_png(d / "terrain.png", 256, 148)
        layer = mf.tile_layer(
            "t", mf.grid(3, 2, 0, {(2, 1): flagged, (0, 0): (mf.WALL + 1) | FLIP_VERTICAL}), encoding=encoding
        )
        path = mf.write_text(
            d / "m.tmx", mf.map_xml(3, 2, tilesets=[mf.embedded_tileset(1, body)], layers=[layer])
        )
        t = load_tiled_map(path).tile_layers()[0]
        assert t.raw[1][2] == flagged
        cell = t.cell(2, 1)
        assert cell == Cell(gid=mf.BARREL + 1, flip_h=True, rotate_120=True)
        assert t.cell(0, 0) == Cell(gid=mf.WALL + 1, flip_v=True)


def test_external_and_embedded_tilesets_give_the_same_tiles(tmp_path: Path) -> None:
    ext = load_tiled_map(mf.standard_map(tmp_path / "ext", external=True))
    emb = load_tiled_map(mf.standard_map(tmp_path / "emb", external=False))
    assert ext.tiles.keys() == emb.tiles.keys() == set(range(1, 9))
    for gid in ext.tiles:
        a, b = ext.tiles[gid], emb.tiles[gid]
        assert (a.rect, a.properties, a.tile_class) == (b.rect, b.properties, b.tile_class)
        assert a.image is not None and b.image is not None and a.image.name == b.image.name
    assert ext.tiles[mf.WALL + 1].image == (tmp_path / "ext" / "terrain.png").resolve()


def test_external_tileset_image_is_relative_to_the_tsx(tmp_path: Path) -> None:
    body = mf.sheet_tileset_body(image="../art/terrain.png")
    mf.write_png(tmp_path / "art" / "terrain.png", 256, 148)
    mf.write_tsx(tmp_path / "tilesets" / "t.tsx", body)
    layer = mf.tile_layer("g", mf.grid(2, 2, 1))
    path = mf.write_text(
        tmp_path / "maps" / "m.tmx",
        mf.map_xml(2, 2, tilesets=[mf.external_tileset(1, "../tilesets/t.tsx")], layers=[layer]),
    )
    assert load_tiled_map(path).tiles[1].image == (tmp_path / "art" / "terrain.png").resolve()


def test_margin_spacing_offset_and_render_size(tmp_path: Path) -> None:
    body = mf.sheet_tileset_body(
        margin=2, spacing=3, columns=4, tilecount=8, tileoffset=(5, -7), tilerendersize="grid"
    )
    mf.write_png(tmp_path / "terrain.png", 2 * 2 + 4 * 64 + 3 * 3, 2 * 2 + 2 * 74 + 3)
    path = mf.write_text(
        tmp_path / "m.tmx",
        mf.map_xml(
            2, 2, tilesets=[mf.embedded_tileset(10, body)], layers=[mf.tile_layer("g", mf.grid(2, 2, 15))]
        ),
    )
    tmap = load_tiled_map(path)
    tile = tmap.tiles[15]  # local id 5: column 1, row 1
    assert tile.local_id == 5
    assert tile.rect == (2 + 67, 2 + 77, 64, 74)
    assert tile.offset == (5, -7)
    assert tile.render_size == (64, 74)  # the map's tile size ("grid")
    default = load_tiled_map(mf.standard_map(tmp_path / "d")).tiles[1]
    assert default.render_size == (64, 74) and default.offset == (0, 0)


def test_columns_and_tilecount_can_come_from_the_png_header(tmp_path: Path) -> None:
    mf.write_png(tmp_path / "t.png", 128, 74)
    ts = '<tileset firstgid="1" name="t" tilewidth="64" tileheight="74"><image source="t.png"/></tileset>'
    path = mf.write_text(
        tmp_path / "m.tmx", mf.map_xml(2, 1, tilesets=[ts], layers=[mf.tile_layer("g", [[1, 2]])])
    )
    tmap = load_tiled_map(path)
    assert tmap.tiles[2].rect == (64, 0, 64, 74)


def test_image_collection_tileset(tmp_path: Path) -> None:
    mf.write_png(tmp_path / "img" / "cactus.png", 40, 90)
    mf.write_png(tmp_path / "img" / "wagon.png", 120, 80)
    body = mf.collection_tileset_body(
        "props",
        {0: ("img/cactus.png", 40, 90), 3: ("img/wagon.png", 120, 80)},
        {3: {"cover": mf.Enum("full", "Cover"), "impassable": True}},
    )
    mf.write_tsx(tmp_path / "props.tsx", body)
    layer = mf.tile_layer("props", mf.grid(3, 2, 0, {(0, 0): 50, (2, 1): 53}))
    path = mf.write_text(
        tmp_path / "m.tmx", mf.map_xml(3, 2, tilesets=[mf.external_tileset(50, "props.tsx")], layers=[layer])
    )
    tmap = load_tiled_map(path)
    assert set(tmap.tiles) == {50, 53}
    wagon = tmap.tiles[53]
    assert wagon.image == (tmp_path / "img" / "wagon.png").resolve()
    assert wagon.rect == (0, 0, 120, 80) and wagon.render_size == (120, 80)
    assert wagon.properties == {"cover": "full", "impassable": True}


def test_layers_keep_file_order_with_groups_flattened(tmp_path: Path) -> None:
    mf.write_png(tmp_path / "sky.png", 10, 10)
    layers = [
        mf.tile_layer("ground", mf.grid(3, 3, 1)),
        mf.object_layer("zones", [mf.Obj(1, 0, 0, 10, 10).xml()]),
        mf.group(
            "town",
            [
                mf.tile_layer("walls", mf.grid(3, 3, 2), attrs='offsetx="3" offsety="4" opacity="0.5"'),
                mf.group(
                    "upper",
                    [mf.tile_layer("roofs", mf.grid(3, 3, 0), attrs='visible="0" tintcolor="#ff8080"')],
                    attrs='offsetx="1" opacity="0.5" tintcolor="#8080ff"',
                ),
                mf.object_layer("doors", []),
            ],
            attrs='offsetx="10" offsety="20" opacity="0.8"',
            props={"note": "g"},
        ),
        mf.image_layer("sky", "sky.png", attrs='offsetx="-5"'),
        mf.tile_layer("top", mf.grid(3, 3, 0)),
    ]
    path = mf.write_text(
        tmp_path / "m.tmx",
        mf.map_xml(3, 3, tilesets=[mf.embedded_tileset(1, mf.sheet_tileset_body())], layers=layers),
    )
    mf.write_png(tmp_path / "terrain.png", 256, 148)
    tmap = load_tiled_map(path)
    assert [type(x).__name__ + ":" + x.name for x in tmap.layers] == [
        "TileLayer:ground",
        "ObjectLayer:zones",
        "TileLayer:walls",
        "TileLayer:roofs",
        "ObjectLayer:doors",
        "ImageLayer:sky",
        "TileLayer:top",
    ]
    walls, roofs = tmap.layers[2], tmap.layers[3]
    assert isinstance(walls, TileLayer) and isinstance(roofs, TileLayer)
    assert walls.offset == (13.0, 24.0) and walls.opacity == pytest.approx(0.4) and walls.visible
    assert roofs.offset == (11.0, 20.0) and roofs.opacity == pytest.approx(0.4) and not roofs.visible
    assert roofs.tint == "#804080"
    doors = tmap.layers[4]
    assert isinstance(doors, ObjectLayer) and doors.offset == (10.0, 20.0)
    sky = tmap.layers[5]
    assert (
        isinstance(sky, ImageLayer)
        and sky.image == (tmp_path / "sky.png").resolve()
        and sky.offset == (-5.0, 0.0)
    )
    assert [x.name for x in tmap.tile_layers()] == ["ground", "walls", "roofs", "top"]


def test_hidden_group_hides_its_children(tmp_path: Path) -> None:
    layers = [mf.group("g", [mf.tile_layer("a", mf.grid(2, 2, 1))], attrs='visible="0"')]
    mf.write_png(tmp_path / "terrain.png", 256, 148)
    path = mf.write_text(
        tmp_path / "m.tmx",
        mf.map_xml(2, 2, tilesets=[mf.embedded_tileset(1, mf.sheet_tileset_body())], layers=layers),
    )
    assert not load_tiled_map(path).layers[0].visible


def test_properties_are_typed(tmp_path: Path) -> None:
    map_props = {
        "title": "Dry Gulch",
        "turns": 8,
        "scale": 1.5,
        "night": True,
        "tint": mf.Typed("color", "#ff102030"),
        "briefing": mf.Typed("file", "brief.txt"),
        "boss": mf.Typed("object", "7"),
        "mood": mf.Enum("grim", "Mood"),
    }
    objects = [
        mf.Obj(7, 10, 20, 30, 40, name="door", props={"door": mf.Enum("closed", "Door"), "locked": True}),
        mf.Obj(8, 100, 100, shape="polygon", points=[(0, 0), (50, 0), (0, 40)], props={"deploy": "side1"}),
        mf.Obj(
            9, 64, 148, gid=(mf.BARREL + 1) | ROTATE_HEX_120, shape="tile", props={"item": "Smelling Salts"}
        ),
        mf.Obj(10, 5, 5, shape="point", props={"objective": "loot"}),
        mf.Obj(11, 5, 5, 20, 10, shape="ellipse", rotation=30),
    ]
    path = mf.standard_map(
        tmp_path,
        props=map_props,
        objects=objects,
        extra_layers=[mf.tile_layer("roof", mf.grid(8, 8, 0), props={"decoration": True})],
    )
    tmap = load_tiled_map(path)
    assert tmap.properties == {
        "title": "Dry Gulch",
        "turns": 8,
        "scale": 1.5,
        "night": True,
        "tint": "#ff102030",
        "briefing": "brief.txt",
        "boss": 7,
        "mood": "grim",
    }
    roof = tmap.tile_layers()[-1]
    assert roof.properties == {"decoration": True} and roof.decoration
    assert tmap.tiles[mf.WALL + 1].properties == {
        "terrain": "wall",
        "impassable": True,
        "blocks_sight": True,
        "cover": "full",
    }
    assert tmap.tiles[mf.SCREE + 1].properties["move_cost"] == 2
    assert tmap.tiles[mf.BARREL + 1].tile_class == "barrel"
    objs = {o.id: o for o in tmap.object_layers()[0].objects}
    assert objs[7].properties == {"door": "closed", "locked": True} and objs[7].name == "door"
    assert objs[8].shape == "polygon" and objs[8].points == [(100, 100), (150, 100), (100, 140)]
    tile_obj = objs[9]
    assert tile_obj.shape == "tile" and tile_obj.raw_gid == (mf.BARREL + 1) | ROTATE_HEX_120
    assert tile_obj.cell == Cell(gid=mf.BARREL + 1, rotate_120=True)
    assert (tile_obj.width, tile_obj.height) == (64, 74)  # from the tile when the file omits them
    assert objs[10].shape == "point" and objs[11].shape == "ellipse" and objs[11].rotation == 30


def test_file_hash_and_background(tmp_path: Path) -> None:
    path = mf.standard_map(tmp_path)
    text = path.read_text().replace('staggerindex="odd"', 'staggerindex="odd" backgroundcolor="#202020"')
    path.write_text(text)
    tmap = load_tiled_map(path)
    assert tmap.file_hash == hashlib.sha256(path.read_bytes()).hexdigest()
    assert tmap.background == "#202020"


@pytest.mark.parametrize(("axis", "index"), [("x", "odd"), ("x", "even"), ("y", "even")])
def test_other_stagger_variants_load(tmp_path: Path, axis: str, index: str) -> None:
    tmap = load_tiled_map(mf.standard_map(tmp_path, stagger_axis=axis, stagger_index=index))
    assert tmap.geometry.axis.value == axis and tmap.geometry.index.value == index


def test_loading_never_imports_pygame(tmp_path: Path) -> None:
    path = mf.standard_map(tmp_path, with_deploy=True)
    code = (
        "import sys\n"
        "from game.tiledmap import load_tiled_map\n"
        f"m = load_tiled_map({str(path)!r})\n"
        "assert sys.modules.get('pygame') is None, 'pygame was imported'\n"
        "sys.modules['pygame'] = None\n"
        f"m = load_tiled_map({str(path)!r})\n"
        "print(len(m.layers))\n"
    )
    blocked = "import sys; sys.modules['pygame'] = None\n" + code
    for source in (code, blocked):
        out = subprocess.run(
            [sys.executable, "-c", source], check=False, cwd=ROOT, capture_output=True, text=True, timeout=60
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == "3"
        assert "pygame" not in out.stderr


def test_require_images_false_accepts_missing_pictures(tmp_path: Path) -> None:
    path = mf.standard_map(tmp_path)
    (tmp_path / "terrain.png").unlink()
    _one_problem(path, "terrain.png", "does not exist")
    tmap = load_tiled_map(path, require_images=False)
    assert tmap.tiles[1].image is None and tmap.tiles[2].rect == (64, 0, 64, 74)


# ------------------------------------------------------------------------------------------------
# bad maps: one clear problem (what + how to fix), never another exception


def test_missing_file(tmp_path: Path) -> None:
    _one_problem(tmp_path / "nope.tmx", "does not exist", "check the path")


def test_a_folder_is_not_a_map(tmp_path: Path) -> None:
    _one_problem(tmp_path, "folder")


def test_not_xml(tmp_path: Path) -> None:
    path = mf.write_text(tmp_path / "m.tmx", "this is not a map at all")
    _one_problem(path, "not valid XML", "re-save")


def test_truncated_xml(tmp_path: Path) -> None:
    path = mf.standard_map(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    text = _one_problem(path, "not valid XML", "truncated")
    assert "line" in text


def test_not_a_map(tmp_path: Path) -> None:
    mf.standard_map(tmp_path)
    _one_problem(tmp_path / "terrain.tsx", "not a Tiled map", "open the map")


def test_orientation_not_hexagonal(tmp_path: Path) -> None:
    path = mf.write_text(tmp_path / "m.tmx", mf.map_xml(2, 2, orientation="orthogonal", tile_w=32, tile_h=32))
    _one_problem(path, "orientation is 'orthogonal'", "Hexagonal")


def test_infinite_map(tmp_path: Path) -> None:
    text = mf.map_xml(2, 2).replace('infinite="0"', 'infinite="1"')
    text = text.replace(
        "</map>", '<layer name="a" width="2" height="2"><data encoding="csv"><chunk/></data></layer></map>'
    )
    path = mf.write_text(tmp_path / "m.tmx", text)
    joined = _one_problem(path, "infinite", "untick 'Infinite'")
    assert "chunks" in joined


def test_zstd_layer(tmp_path: Path) -> None:
    data = '<data encoding="base64" compression="zstd">KLUv/SAQgQAAAQ==</data>'
    layer = f'<layer name="g" width="2" height="2">{data}</layer>'
    path = mf.write_text(tmp_path / "m.tmx", mf.map_xml(2, 2, layers=[layer]))
    _one_problem(path, "layer 'g'", "Zstandard", "CSV")


@pytest.mark.parametrize("name", ["m.tmj", "m.json"])
def test_json_map(tmp_path: Path, name: str) -> None:
    path = mf.write_text(tmp_path / name, '{"type": "map"}')
    _one_problem(path, "JSON", "save as", ".tmx", "CSV")


def test_json_content_in_a_tmx(tmp_path: Path) -> None:
    path = mf.write_text(tmp_path / "m.tmx", '{"type": "map"}')
    _one_problem(path, "JSON", ".tmx")


def test_missing_external_tileset(tmp_path: Path) -> None:
    path = mf.standard_map(tmp_path)
    (tmp_path / "terrain.tsx").unlink()
    _one_problem(path, "terrain.tsx", "does not exist", "Replace Tileset")


def test_json_external_tileset(tmp_path: Path) -> None:
    path = mf.standard_map(tmp_path)
    path.write_text(path.read_text().replace("terrain.tsx", "terrain.tsj"))
    _one_problem(path, "JSON tileset", ".tsx")


def test_missing_tileset_image(tmp_path: Path) -> None:
    path = mf.standard_map(tmp_path)
    (tmp_path / "terrain.png").unlink()
    text = _one_problem(path, "terrain.png", "does not exist", "Tileset Properties")
    assert "terrain.tsx" in text  # the problem names the tileset file that points at the image


def test_unknown_gid_names_the_cell(tmp_path: Path) -> None:
    path = mf.standard_map(tmp_path, 6, 5)
    text = path.read_text()
    gids = mf.grid(6, 5, 0, {(4, 3): 99, (0, 1): 9 | FLIP_HORIZONTAL})
    path.write_text(text.replace("</map>", mf.tile_layer("extra", gids) + "</map>"))
    with pytest.raises(MapLoadError) as info:
        load_tiled_map(path)
    cells = {(p.layer, p.cell) for p in info.value.problems}
    assert cells == {("extra", (4, 3)), ("extra", (0, 1))}
    assert all("erase the cell" in p.fix for p in info.value.problems)
    assert "99" in str(info.value) and "'terrain'" in str(info.value)


def test_many_unknown_gids_are_summarised(tmp_path: Path) -> None:
    path = mf.standard_map(tmp_path, 10, 10)
    path.write_text(path.read_text().replace("</map>", mf.tile_layer("x", mf.grid(10, 10, 77)) + "</map>"))
    problems = _problems(path)
    assert len(problems) == 11 and "90 more cells" in problems[-1]


@pytest.mark.parametrize(
    ("attr", "value", "needle"),
    [
        ("width", "0", "map size 0x"),
        ("height", "-3", "map size"),
        ("width", "abc", "not a whole number"),
        ("width", "100000", "map size"),
        ("tilewidth", "0", "tile size 0x"),
        ("hexsidelength", "500", "hex layout"),
    ],
)
def test_invalid_sizes(tmp_path: Path, attr: str, value: str, needle: str) -> None:
    path = mf.standard_map(tmp_path)
    text = path.read_text()
    start = text.index(f' {attr}="') + len(attr) + 3
    end = text.index('"', start)
    path.write_text(text[:start] + value + text[end:])
    _one_problem(path, needle)


def test_csv_with_the_wrong_number_of_cells(tmp_path: Path) -> None:
    path = mf.standard_map(tmp_path, 3, 3)
    path.write_text(path.read_text().replace("1,1,1\n</data>", "1,1\n</data>", 1))
    _one_problem(path, "layer 'ground'", "8 values, expected 9")


def test_zip_bomb_layer_is_refused_quickly(tmp_path: Path) -> None:
    bomb = zlib.compress(b"\x00" * (64 * 1024 * 1024), 9)
    data = f'<data encoding="base64" compression="zlib">{base64.b64encode(bomb).decode()}</data>'
    layer = f'<layer name="bomb" width="4" height="4">{data}</layer>'
    path = mf.write_text(tmp_path / "m.tmx", mf.map_xml(4, 4, layers=[layer]))
    tracemalloc.start()
    try:
        _one_problem(path, "layer 'bomb'", "exactly 16 tiles")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 1024 * 1024, peak  # the 64 MB the layer inflates to is never made


def test_huge_declared_size_is_refused_without_allocating(tmp_path: Path) -> None:
    path = mf.write_text(
        tmp_path / "m.tmx",
        mf.map_xml(
            100000,
            100000,
            layers=['<layer name="a" width="100000" height="100000"><data encoding="csv">1</data></layer>'],
        ),
    )
    _one_problem(path, "map size 100000x100000")


def test_billion_laughs_is_refused(tmp_path: Path) -> None:
    path = mf.write_text(
        tmp_path / "m.tmx", '<?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "aaaa">]><map>&a;</map>'
    )
    _one_problem(path, "DTD", "re-save")


def test_base64_with_wrong_length(tmp_path: Path) -> None:
    data = base64.b64encode(struct.pack("<3I", 1, 1, 1)).decode()
    layer = f'<layer name="g" width="2" height="2"><data encoding="base64">{data}</data></layer>'
    path = mf.write_text(tmp_path / "m.tmx", mf.map_xml(2, 2, layers=[layer]))
    _one_problem(path, "holds 3 tiles, expected 4")


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    path = mf.standard_map(tmp_path)
    text = path.read_text().replace('orientation="hexagonal"', 'orientation="isometric"')
    text = text.replace('infinite="0"', 'infinite="1"')
    path.write_text(text)
    (tmp_path / "terrain.tsx").unlink()
    joined = "\n".join(_problems(path))
    assert "isometric" in joined and "infinite" in joined and "terrain.tsx" in joined


def test_mistyped_property_values_are_problems(tmp_path: Path) -> None:
    path = mf.standard_map(tmp_path, props={"turns": mf.Typed("int", "many"), "odd": mf.Typed("vector", "1")})
    _one_problem(path, "'turns'", "not a int", "unknown type 'vector'")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mangled_maps_raise_only_map_load_error(tmp_path: Path, data: st.DataObject) -> None:
    d = tmp_path / "fuzz"
    if not (d / "map.tmx").exists():
        mf.standard_map(d, 4, 4, encoding="zlib", with_deploy=True)
    original = (d / "map.tmx").read_bytes()
    blob = bytearray(original)
    for _ in range(data.draw(st.integers(1, 6))):
        i = data.draw(st.integers(0, len(blob) - 1))
        blob[i] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(len(blob) // 2, len(blob)))
    mangled = d / "mangled.tmx"
    mangled.write_bytes(bytes(blob[:cut]))
    try:
        tmap = load_tiled_map(mangled)
    except MapLoadError as error:
        assert all(p.what and p.fix for p in error.problems)
    else:
        assert all(
            raw & GID_MASK in tmap.tiles
            for layer in tmap.tile_layers()
            for row in layer.raw
            for raw in row
            if raw
        )


# ------------------------------------------------------------------------------------------------
# Tiled itself as the oracle: maps Tiled re-saves load the same


TILED = shutil.which("tiled")


@pytest.mark.skipif(TILED is None, reason="Tiled is not installed")
@pytest.mark.parametrize("encoding", ["csv", "zlib", "gzip", "base64"])
def test_maps_resaved_by_tiled_load_the_same(tmp_path: Path, encoding: str) -> None:
    flagged = (mf.BARREL + 1) | ROTATE_HEX_120 | FLIP_VERTICAL
    extra = [mf.tile_layer("flags", mf.grid(5, 4, 0, {(3, 2): flagged}), encoding=encoding)]
    path = mf.standard_map(
        tmp_path, 5, 4, terrain={(1, 1): mf.WALL}, encoding=encoding, extra_layers=extra, with_deploy=True
    )
    resaved = tmp_path / "resaved.tmx"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run(
        [str(TILED), "--export-map", "tmx", str(path), str(resaved)],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    if out.returncode != 0 or not resaved.exists():
        pytest.skip(f"Tiled could not export here: {out.stderr.strip()[:200]}")
    ours, theirs = load_tiled_map(path), load_tiled_map(resaved)
    assert [x.name for x in ours.layers] == [x.name for x in theirs.layers]
    assert [x.raw for x in ours.tile_layers()] == [x.raw for x in theirs.tile_layers()]
    assert theirs.tile_layers()[2].raw[2][3] == flagged
    assert ours.tiles == theirs.tiles
