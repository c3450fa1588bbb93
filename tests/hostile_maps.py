"""Generators for legal-looking maps that once made ``check-map`` slow or huge (issue 11), written into a
test's folder with the helpers of :mod:`tests.maps_factory`.

Each takes a folder and returns the ``.tmx`` path. They are used by ``tests/test_map_bounds.py`` (counts,
not wall-clock) and by ``python -m tests.hostile_maps`` which times them (docs/RELIABILITY.md).
"""

from __future__ import annotations

import base64
import math
import struct
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path

from tests.maps_factory import (
    TILE_H,
    TILE_W,
    Enum,
    Obj,
    external_tileset,
    grid,
    map_xml,
    object_layer,
    sheet_tileset_body,
    tile_layer,
    write_png,
    write_text,
    write_tsx,
)

__all__ = [
    "HOSTILE",
    "csv_layers",
    "distinct_stacks",
    "huge_polygon",
    "largest_map",
    "many_huge_tilesets",
    "many_layers",
    "many_zones",
    "object_flood",
]

SIDE = 512  # 512 x 512 = MAX_LAYER_CELLS, the largest legal layer
ROW_H = 55  # pointy-top 64x74, side 37: rows are (74 - 37) // 2 + 37 = 55 px apart


def _zlib_layer(name: str, width: int, height: int, gid: int) -> str:
    """A tile layer filled with ``gid`` as Base64-zlib data: tiny however large the layer."""
    packed = struct.pack("<I", gid) * (width * height)
    text = base64.b64encode(zlib.compress(packed, 9)).decode()
    return (
        f'<layer name="{name}" width="{width}" height="{height}">'
        f'<data encoding="base64" compression="zlib">{text}</data></layer>'
    )


def _terrain_tileset(folder: Path) -> list[str]:
    write_png(folder / "terrain.png", 4 * TILE_W, 2 * TILE_H)
    write_tsx(folder / "terrain.tsx", sheet_tileset_body())
    return [external_tileset(1, "terrain.tsx")]


def _edge_zones(width: int, height: int) -> list[Obj]:
    pw = width * TILE_W + TILE_W // 2
    ph = height * ROW_H + (TILE_H - 37) // 2
    return [
        Obj(900, 0, 0, TILE_W, ph, props={"deploy": Enum("side1", "Side")}),
        Obj(901, pw - TILE_W, 0, TILE_W, ph, props={"deploy": Enum("side2", "Side")}),
    ]


def largest_map(folder: Path, *, layers: int = 1, side: int = SIDE) -> Path:
    """A 512x512 map (the largest legal layer) of grass with a wall every 7th cell, ``layers`` layers
    deep, and a deploy zone along each side (``side``: smaller, for tests that count)."""
    folder.mkdir(parents=True, exist_ok=True)
    tilesets = _terrain_tileset(folder)
    walls = {
        (c, r): 2
        for r in range(side)
        for c in range(side)
        if 2 <= c < side - 2 and (c * 31 + r * 17) % 7 == 0
    }
    layer_xml = [tile_layer("ground", grid(side, side, 1, walls), encoding="zlib")]
    passable = (1, 3, 4, 8)  # grass, barrel, scree, boulder: the zones stay playable
    layer_xml += [_zlib_layer(f"extra{i}", side, side, passable[i % 4]) for i in range(layers - 1)]
    layer_xml.append(object_layer("zones", [o.xml() for o in _edge_zones(side, side)]))
    return write_text(folder / "largest.tmx", map_xml(side, side, tilesets=tilesets, layers=layer_xml))


def many_layers(folder: Path) -> Path:
    """32 layers of 512x512: MAX_TOTAL_CELLS, the most tile data a map may hold."""
    return largest_map(folder, layers=32)


def distinct_stacks(folder: Path, *, side: int = SIDE) -> Path:
    """32 layers of 512x512 whose cells hold pseudo-random tiles: (nearly) every cell a different stack
    of 32 tiles, so no terrain is worked out twice."""
    folder.mkdir(parents=True, exist_ok=True)
    tilesets = _terrain_tileset(folder)
    passable = (1, 3, 4, 8)
    layers = []
    for i in range(32):
        gids = [passable[((n * 2654435761) >> (i + 3)) & 3] for n in range(side * side)]
        packed = struct.pack(f"<{len(gids)}I", *gids)
        text = base64.b64encode(zlib.compress(packed, 9)).decode()
        layers.append(
            f'<layer name="l{i}" width="{side}" height="{side}">'
            f'<data encoding="base64" compression="zlib">{text}</data></layer>'
        )
    layers.append(object_layer("zones", [o.xml() for o in _edge_zones(side, side)]))
    return write_text(folder / "distinct.tmx", map_xml(side, side, tilesets=tilesets, layers=layers))


def csv_layers(folder: Path) -> Path:
    """As many 512x512 CSV layers of 3-digit-wide gids as fit in the 32 MB a map may be."""
    folder.mkdir(parents=True, exist_ok=True)
    tilesets = _terrain_tileset(folder)
    row = ",".join(["  1"] * SIDE)
    data = ",\n".join([row] * SIDE)
    layer_bytes = len(data) + 80
    count = min(32, (32 * 1024 * 1024 - 4096) // layer_bytes)
    layers = [
        f'<layer name="c{i}" width="{SIDE}" height="{SIDE}"><data encoding="csv">{data}</data></layer>'
        for i in range(count)
    ]
    layers.append(object_layer("zones", [o.xml() for o in _edge_zones(SIDE, SIDE)]))
    return write_text(folder / "csv.tmx", map_xml(SIDE, SIDE, tilesets=tilesets, layers=layers))


def xml_layer(folder: Path) -> Path:
    """A 512x512 layer in Tiled's old XML form (a <tile> element per cell): 524,288 of the 1,000,000 tags
    and attributes a map may have."""
    folder.mkdir(parents=True, exist_ok=True)
    tilesets = _terrain_tileset(folder)
    layers = [
        f'<layer name="xml" width="{SIDE}" height="{SIDE}"><data>'
        + '<tile gid="1"/>' * (SIDE * SIDE)
        + "</data></layer>",
        object_layer("zones", [o.xml() for o in _edge_zones(SIDE, SIDE)]),
    ]
    return write_text(folder / "xml.tmx", map_xml(SIDE, SIDE, tilesets=tilesets, layers=layers))


def object_flood(folder: Path) -> Path:
    """As many point objects (each an item) as the markup limit allows, spread over a 512x512 map."""
    folder.mkdir(parents=True, exist_ok=True)
    tilesets = _terrain_tileset(folder)
    objects = [
        f'<object id="{i}" x="{(i * 37) % (SIDE * TILE_W)}" y="{(i * 53) % (SIDE * ROW_H)}">'
        '<properties><property name="item" value="loot"/></properties><point/></object>'
        for i in range(1, 85_000)
    ]
    objects += [o.xml() for o in _edge_zones(SIDE, SIDE)]
    layers = [_zlib_layer("ground", SIDE, SIDE, 1), object_layer("things", objects)]
    return write_text(folder / "objects.tmx", map_xml(SIDE, SIDE, tilesets=tilesets, layers=layers))


def many_huge_tilesets(folder: Path, *, count: int = 8, tilecount: int = 1 << 20) -> Path:
    """``count`` tilesets each declaring ``tilecount`` tiles of one image (a 2 KB file in all)."""
    folder.mkdir(parents=True, exist_ok=True)
    write_png(folder / "terrain.png", 4 * TILE_W, 2 * TILE_H)
    tilesets = []
    for i in range(count):
        body = sheet_tileset_body(name=f"huge{i}", tilecount=tilecount, columns=1024, tiles={})
        tilesets.append(f'<tileset firstgid="{1 + i * tilecount}" {body.replace("|", ">", 1)}</tileset>')
    layers = [tile_layer("ground", grid(8, 8, 1), encoding="csv")]
    layers.append(object_layer("zones", [o.xml() for o in _edge_zones(8, 8)]))
    return write_text(folder / "huge_tilesets.tmx", map_xml(8, 8, tilesets=tilesets, layers=layers))


def many_zones(folder: Path, *, zones: int = 200, size: int = 3) -> Path:
    """A 512x512 map with ``zones`` deploy zones, each a rectangle over a few hexes, spread over the map
    (the old check tested every zone against all 262,144 hex centres)."""
    folder.mkdir(parents=True, exist_ok=True)
    tilesets = _terrain_tileset(folder)
    objects = []
    for i in range(zones):
        x = (i * 997) % (SIDE - 4) * TILE_W
        y = (i * 613) % (SIDE - 4) * ROW_H
        side = f"side{1 + i % 2}"
        objects.append(Obj(1000 + i, x, y, size * TILE_W, size * ROW_H, props={"deploy": Enum(side, "Side")}))
    layers = [_zlib_layer("ground", SIDE, SIDE, 1), object_layer("zones", [o.xml() for o in objects])]
    return write_text(folder / "many_zones.tmx", map_xml(SIDE, SIDE, tilesets=tilesets, layers=layers))


def zone_flood(folder: Path) -> Path:
    """25,000 deploy zones of 7 x 7 hexes: past the 1,048,576 hexes all zones together may cover."""
    return many_zones(folder, zones=25_000, size=7)


def huge_polygon(folder: Path, *, points: int = 300_000) -> Path:
    """A 512x512 map whose side-1 deploy zone is one polygon of ``points`` points: a circle over the
    whole map."""
    folder.mkdir(parents=True, exist_ok=True)
    tilesets = _terrain_tileset(folder)
    cx, cy = SIDE * TILE_W / 2, SIDE * ROW_H / 2
    radius = min(cx, cy) * 0.9
    ring = [
        (
            round(radius * math.cos(2 * math.pi * k / points), 2),
            round(radius * math.sin(2 * math.pi * k / points), 2),
        )
        for k in range(points)
    ]
    polygon = Obj(1, cx, cy, shape="polygon", points=ring, props={"deploy": Enum("side1", "Side")})
    zone2 = Obj(2, 0, 0, TILE_W, ROW_H * 3, props={"deploy": Enum("side2", "Side")})
    layers = [_zlib_layer("ground", SIDE, SIDE, 1), object_layer("zones", [polygon.xml(), zone2.xml()])]
    return write_text(folder / "huge_polygon.tmx", map_xml(SIDE, SIDE, tilesets=tilesets, layers=layers))


def largest_polygon(folder: Path) -> Path:
    """The same with a polygon of MAX_SHAPE_POINTS points, the most a shape may have."""
    from game.tiledmap.reading import MAX_SHAPE_POINTS

    return huge_polygon(folder, points=MAX_SHAPE_POINTS)


def tileset_limit(folder: Path) -> Path:
    """Tilesets of the most tiles a map may have in all (MAX_TOTAL_TILES), in one tileset."""
    from game.tiledmap.reading import MAX_TOTAL_TILES

    return many_huge_tilesets(folder, count=1, tilecount=MAX_TOTAL_TILES)


HOSTILE: dict[str, Callable[[Path], Path]] = {
    "largest legal map, one layer": largest_map,
    "32 layers of 512x512": many_layers,
    "8 tilesets of tilecount=1048576": many_huge_tilesets,
    "one tileset of 65,536 tiles (the most allowed)": tileset_limit,
    "32 layers, every cell a different stack": distinct_stacks,
    "32 MB of CSV layers": csv_layers,
    "a 512x512 layer as XML <tile> elements": xml_layer,
    "85,000 objects": object_flood,
    "512x512 with 200 deploy zones": many_zones,
    "25,000 deploy zones of 7x7 hexes": zone_flood,
    "one 300,000-point deploy polygon": huge_polygon,
    "one 10,000-point polygon over the map (the most allowed)": largest_polygon,
}


def _time_one(name: str, folder: str) -> None:
    """Check one hostile map in this (fresh) process and print its time and peak memory."""
    import resource

    from game.mapcheck import check_map

    make = {f.__name__: f for f in HOSTILE.values()}[name]
    path = make(Path(folder) / name)
    start = time.perf_counter()
    problems = check_map(path)
    took = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    first = problems[0].what if problems else "ready to play"
    print(f"{took:.2f} s, peak RSS {peak_mb:.0f} MB, {len(problems)} problem(s): {first[:90]}")


def main(folder: str) -> None:
    """Time ``check_map`` on each hostile map, each in a fresh process (docs/RELIABILITY.md)."""
    import subprocess

    for title, make in HOSTILE.items():
        out = subprocess.run(
            [sys.executable, "-m", "tests.hostile_maps", "--one", make.__name__, folder],
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
        )
        print(f"{title}: {(out.stdout or out.stderr.strip().splitlines()[-1]).strip()}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        _time_one(sys.argv[2], sys.argv[3])
    else:
        main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/hostile_maps")
