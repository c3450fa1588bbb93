"""The three shipped encounter maps, laid out by hand in code and written as Tiled ``.tmx`` files.

Run ``python -m tools.gen_art`` first (it writes the tilesets), then ``python -m tools.gen_maps``.
Every map is checked here before it is written: deploy zones cover only passable hexes, every building
has a door, and every gid comes from a tileset. Output is deterministic (seeded ``random.Random``).
"""

# Drawing and layout helpers take coordinates positionally (x, y, w, h ...), as geometry code reads best.
# ruff: noqa: PLR0917

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import quoteattr

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.hexgrid import (  # noqa: E402
    Hex,
    StaggerIndex,
    TiledHexGeometry,
    hex_distance,
    hexes_within,
    polygon_contains,
)
from tools.gen_art import (  # noqa: E402
    HEX_SIDE,
    OBJECTS,
    ORIENTS,
    SIGNS,
    TALL,
    TERRAIN,
    PropValue,
    TileDef,
    tileset_names,
)

SEED = 1873
LAYERS = ("ground", "terrain", "cover", "decoration")

# axial steps of the six neighbour directions, in the order of gen_art.direction_angle
POINTY_STEPS = (Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0), Hex(0, -1), Hex(1, -1))
FLAT_STEPS = (Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0), Hex(0, -1), Hex(1, -1))


@dataclass(slots=True)
class MapObject:
    name: str
    x: float
    y: float
    props: dict[str, tuple[str, str]]  # name -> (propertytype or "", value)
    gid: int = 0
    width: float = 0.0
    height: float = 0.0
    kind: str = "rect"  # rect, point, tile


@dataclass(slots=True)
class Tileset:
    source: str
    firstgid: int
    tiles: list[TileDef]


@dataclass(slots=True)
class HexMap:
    """A map under construction: offset cells (col, row) as Tiled shows them."""

    file: str
    width: int
    height: int
    orient: str
    index: StaggerIndex
    props: dict[str, str | int]
    geometry: TiledHexGeometry = field(init=False)
    tilesets: list[Tileset] = field(init=False)
    keys: dict[str, int] = field(init=False)
    layers: dict[str, list[int]] = field(init=False)
    objects: dict[str, list[MapObject]] = field(init=False)
    buildings: list[tuple[str, list[tuple[int, int]]]] = field(init=False)

    def __post_init__(self) -> None:
        o = ORIENTS[self.orient]
        self.geometry = TiledHexGeometry.create(o.image_w, o.image_h, HEX_SIDE, o.geometry.axis, self.index)
        names = tileset_names(o)
        groups = [
            (names["terrain"], [t for t, _ in TERRAIN]),
            (names["objects"], [t for t, _, _ in OBJECTS]),
            (names["tall"], [t for t, _ in TALL]),
            ("signs", [TileDef("sign_" + s.lower().replace(" ", "_"), {}) for s in SIGNS]),
        ]
        self.tilesets = []
        self.keys = {}
        gid = 1
        for name, tiles in groups:
            self.tilesets.append(Tileset(f"{name}.tsx", gid, tiles))
            for i, t in enumerate(tiles):
                self.keys[t.key] = gid + i
            gid += len(tiles)
        self.layers = {name: [0] * (self.width * self.height) for name in LAYERS}
        self.objects = {name: [] for name in ("doors", "items", "deploy", "objectives")}
        self.buildings = []

    # -- cells
    def inside(self, c: int, r: int) -> bool:
        return 0 <= c < self.width and 0 <= r < self.height

    def put(self, layer: str, c: int, r: int, key: str | None) -> None:
        if self.inside(c, r):
            self.layers[layer][r * self.width + c] = 0 if key is None else self.keys[key]

    def get(self, layer: str, c: int, r: int) -> int:
        return self.layers[layer][r * self.width + c]

    def key_at(self, layer: str, c: int, r: int) -> str | None:
        gid = self.get(layer, c, r)
        for k, g in self.keys.items():
            if g == gid:
                return k
        return None

    def cells(self) -> Iterable[tuple[int, int]]:
        for r in range(self.height):
            for c in range(self.width):
                yield c, r

    def to_hex(self, c: int, r: int) -> Hex:
        return self.geometry.to_hex(c, r)

    def to_cell(self, h: Hex) -> tuple[int, int]:
        return self.geometry.to_cell(h)

    def step(self, c: int, r: int, k: int) -> tuple[int, int]:
        steps = POINTY_STEPS if self.orient == "pointy" else FLAT_STEPS
        return self.to_cell(self.to_hex(c, r) + steps[k])

    def direction(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        steps = POINTY_STEPS if self.orient == "pointy" else FLAT_STEPS
        return steps.index(self.to_hex(*b) - self.to_hex(*a))

    def tile_props(self, gid: int) -> dict[str, PropValue]:
        for ts in reversed(self.tilesets):
            if gid >= ts.firstgid:
                return ts.tiles[gid - ts.firstgid].props
        return {}

    # -- rules view (mirrors docs/MAPS.md) used to check the layout
    def hex_props(self, c: int, r: int) -> dict[str, PropValue]:
        props: dict[str, PropValue] = {}
        for layer in LAYERS:
            if layer == "decoration":
                continue
            gid = self.get(layer, c, r)
            if gid:
                props.update(self.tile_props(gid))
        return props

    def passable(self, c: int, r: int) -> bool:
        if self.hex_props(c, r).get("impassable", False):
            return False
        for d in self.objects["doors"]:
            if self.object_cell(d) == (c, r) and d.props["door"][1] == "closed":
                return False
        return True

    def object_cell(self, ob: MapObject) -> tuple[int, int]:
        if ob.kind == "tile":
            return self.geometry.pixel_to_cell(ob.x + ob.width / 2, ob.y - ob.height / 2)
        return self.geometry.pixel_to_cell(ob.x, ob.y)

    # -- objects
    def add_door(self, name: str, c: int, r: int, state: str) -> None:
        o = ORIENTS[self.orient]
        x, y = self.geometry.cell_origin(c, r)
        self.put("terrain", c, r, None)
        self.objects["doors"].append(
            MapObject(
                name,
                x,
                y + self.geometry.tile_height,
                {"door": ("DoorState", state)},
                self.keys["door_open" if state == "open" else "door_closed"],
                o.image_w,
                o.image_h,
                "tile",
            )
        )

    def add_point(self, layer: str, name: str, c: int, r: int, prop: str, value: str) -> None:
        x, y = self.geometry.cell_center(c, r)
        self.objects[layer].append(MapObject(name, x, y, {prop: ("", value)}, kind="point"))

    def zone_rect(self, cells: Sequence[tuple[int, int]]) -> tuple[float, float, float, float]:
        """A rectangle around the centres of ``cells`` with a margin smaller than a hex step."""
        centres = [self.geometry.cell_center(c, r) for c, r in cells]
        x0 = min(x for x, _ in centres) - 4
        y0 = min(y for _, y in centres) - 4
        x1 = max(x for x, _ in centres) + 4
        y1 = max(y for _, y in centres) + 4
        return x0, y0, x1 - x0, y1 - y0

    def add_zone(
        self,
        layer: str,
        name: str,
        rect: tuple[float, float, float, float],
        prop: str,
        ptype: str,
        value: str,
    ) -> None:
        x, y, w, h = rect
        self.objects[layer].append(MapObject(name, x, y, {prop: (ptype, value)}, width=w, height=h))

    def hexes_in(self, ob: MapObject) -> list[tuple[int, int]]:
        x, y, w, h = ob.x, ob.y, ob.width, ob.height
        poly = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
        return [(c, r) for c, r in self.cells() if polygon_contains(poly, *self.geometry.cell_center(c, r))]

    # -- building blocks
    def building(self, name: str, c0: int, r0: int, c1: int, r1: int, wall: str, floor: str) -> None:
        cells = []
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                self.put("ground", c, r, floor)
                self.put("cover", c, r, None)
                self.put("decoration", c, r, None)
                if r in (r0, r1) or c in (c0, c1):
                    self.put("terrain", c, r, wall)
                else:
                    self.put("terrain", c, r, None)
                cells.append((c, r))
        self.buildings.append((name, cells))

    def fence_loop(
        self, start: tuple[int, int], moves: Sequence[int], gaps: Iterable[tuple[int, int]] = ()
    ) -> None:
        """A closed fence walking ``moves`` (neighbour directions) from ``start``; ``gaps`` are gates."""
        path = [start]
        for k in moves:
            path.append(self.step(*path[-1], k))
        if path[-1] != start:
            raise ValueError(f"fence loop does not close: ends at {path[-1]}")
        path.pop()
        skip = set(gaps)
        n = len(path)
        for i, cell in enumerate(path):
            if cell in skip:
                continue
            a = self.direction(cell, path[i - 1])
            b = self.direction(cell, path[(i + 1) % n])
            lo, hi = min(a, b), max(a, b)
            if hi - lo == 3 or (lo, hi) in ((0, 2), (1, 3), (2, 4), (3, 5), (0, 4), (1, 5)):
                self.put("cover", *cell, f"fence_{lo}{hi}")
            else:
                raise ValueError(f"fence at {cell} bends too sharply ({lo}, {hi})")

    # -- checks
    def check(self) -> None:
        names = {ts.firstgid + i for ts in self.tilesets for i in range(len(ts.tiles))}
        for layer in LAYERS:
            for gid in self.layers[layer]:
                assert gid == 0 or gid in names, gid
        for bname, cells in self.buildings:
            doors = [d for d in self.objects["doors"] if self.object_cell(d) in cells]
            assert doors, f"{self.file}: {bname} has no door"
        for d in self.objects["doors"]:
            c, r = self.object_cell(d)
            assert not self.hex_props(c, r).get("impassable"), f"{self.file}: door {d.name} on a wall"
        sides = set()
        for z in self.objects["deploy"]:
            hexes = self.hexes_in(z)
            assert hexes, f"{self.file}: empty deploy zone {z.name}"
            bad = [h for h in hexes if not self.passable(*h)]
            assert not bad, f"{self.file}: deploy zone {z.name} covers impassable hexes {bad}"
            sides.add(z.props["deploy"][1])
        assert {"side1", "side2"} <= sides
        for layer in ("items", "objectives"):
            for ob in self.objects[layer]:
                if ob.kind == "point":
                    assert self.passable(*self.object_cell(ob)), f"{self.file}: {ob.name} is unreachable"

    # -- output
    def to_xml(self) -> str:
        g = self.geometry
        o = ORIENTS[self.orient]
        out = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<map version="1.10" tiledversion="1.10.2" orientation="hexagonal" renderorder="right-down" '
            f'width="{self.width}" height="{self.height}" tilewidth="{o.image_w}" tileheight="{o.image_h}" '
            f'infinite="0" hexsidelength="{HEX_SIDE}" staggeraxis="{g.axis.value}" '
            f'staggerindex="{self.index.value}" nextlayerid="{len(LAYERS) + 5}" '
            f'nextobjectid="{sum(len(v) for v in self.objects.values()) + 1}">',
            " <properties>",
        ]
        for k, v in self.props.items():
            kind = ' type="int"' if isinstance(v, int) else ""
            out.append(f"  <property name={quoteattr(k)}{kind} value={quoteattr(str(v))}/>")
        out.append(" </properties>")
        for ts in self.tilesets:
            out.append(f' <tileset firstgid="{ts.firstgid}" source="{ts.source}"/>')
        lid = 1
        for name in LAYERS:
            out.append(f' <layer id="{lid}" name="{name}" width="{self.width}" height="{self.height}">')
            lid += 1
            if name == "decoration":
                out += [
                    "  <properties>",
                    '   <property name="decoration" type="bool" value="true"/>',
                    "  </properties>",
                ]
            out.append('  <data encoding="csv">')
            data = self.layers[name]
            rows = [
                ",".join(str(v) for v in data[r * self.width : (r + 1) * self.width])
                for r in range(self.height)
            ]
            out.append(",\n".join(rows))
            out.append("</data>")
            out.append(" </layer>")
        oid = 1
        for name, obs in self.objects.items():
            out.append(f' <objectgroup id="{lid}" name="{name}">')
            lid += 1
            for ob in obs:
                attrs = f'id="{oid}" name={quoteattr(ob.name)}'
                oid += 1
                if ob.kind == "tile":
                    attrs += f' gid="{ob.gid}"'
                attrs += f' x="{fmt(ob.x)}" y="{fmt(ob.y)}"'
                if ob.kind in ("tile", "rect"):
                    attrs += f' width="{fmt(ob.width)}" height="{fmt(ob.height)}"'
                out.append(f"  <object {attrs}>")
                out.append("   <properties>")
                for pname, (ptype, value) in ob.props.items():
                    pt = f' type="string" propertytype="{ptype}"' if ptype else ""
                    out.append(f"    <property name={quoteattr(pname)}{pt} value={quoteattr(value)}/>")
                out.append("   </properties>")
                if ob.kind == "point":
                    out.append("   <point/>")
                out.append("  </object>")
            out.append(" </objectgroup>")
        out.append("</map>")
        return "\n".join(out) + "\n"


def fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:.2f}".rstrip("0")


def pick(rng: random.Random, weighted: Sequence[tuple[str, int]]) -> str:
    total = sum(w for _, w in weighted)
    x = rng.random() * total
    for k, w in weighted:
        x -= w
        if x < 0:
            return k
    return weighted[-1][0]


def blobs(
    m: HexMap, rng: random.Random, count: int, rmin: float, rmax: float
) -> list[tuple[float, float, float]]:
    """Patches as (x, y, radius) in pixels, for grass and scrub."""
    w, h = m.geometry.map_pixel_size(m.width, m.height)
    return [(rng.random() * w, rng.random() * h, rng.uniform(rmin, rmax)) for _ in range(count)]


def in_blobs(m: HexMap, c: int, r: int, patches: Sequence[tuple[float, float, float]]) -> bool:
    x, y = m.geometry.cell_center(c, r)
    return any(math.hypot(x - px, y - py) < pr for px, py, pr in patches)


def scatter_ground(m: HexMap, rng: random.Random, grass_patches: int) -> None:
    patches = blobs(m, rng, grass_patches, 90, 220)
    for c, r in m.cells():
        if in_blobs(m, c, r, patches):
            m.put("ground", c, r, pick(rng, (("grass", 3), ("grass_thick", 2))))
        else:
            m.put("ground", c, r, pick(rng, (("sand", 14), ("sand_pebbles", 3), ("sand_scrub", 2))))


def decorate(m: HexMap, rng: random.Random, density: float, ok: Iterable[str]) -> None:
    allowed = set(ok)
    for c, r in m.cells():
        if m.get("terrain", c, r) or m.get("cover", c, r) or m.get("decoration", c, r):
            continue
        if m.key_at("ground", c, r) not in allowed or rng.random() > density:
            continue
        m.put("decoration", c, r, pick(rng, (("tufts", 10), ("stones", 5), ("tumbleweed", 2), ("skull", 1))))


# --------------------------------------------------------------------------------------------------
# Main Street, Redemption


def frontier_town() -> HexMap:
    m = HexMap(
        "frontier_town.tmx",
        40,
        30,
        "pointy",
        StaggerIndex.ODD,
        {
            "title": "Main Street, Redemption",
            "description": "High noon on the main street of Redemption: the Outlaws ride in from the west "
            "to crack the bank vault while the Law holds the east end of town.",
            "rulesets": "frontier,rift,golden",
            "side1_name": "The Law",
            "side2_name": "The Outlaws",
        },
    )
    rng = random.Random(f"{SEED}:town")
    scatter_ground(m, rng, 9)
    # streets: the main street east-west, a side street north and the ranch road south
    for c in range(40):
        for r in range(12, 18):
            m.put("ground", c, r, "road_ruts" if r in (14, 15) else "road")
    for r in range(12):
        for c in (14, 15):
            m.put("ground", c, r, "road")
    for r in range(18, 30):
        for c in (26, 27):
            m.put("ground", c, r, "road")
    # boardwalks in front of the buildings
    for c in range(2, 37):
        if c not in (14, 15):
            m.put("ground", c, 11, "boardwalk")
            m.put("ground", c, 10, "boardwalk")
    for c in list(range(4, 14)) + list(range(28, 37)):
        m.put("ground", c, 18, "boardwalk")
        m.put("ground", c, 19, "boardwalk")

    # the saloon
    m.building("saloon", 2, 2, 12, 9, "wall_timber", "floor")
    m.add_door("Saloon swing doors", 10, 9, "open")
    m.add_door("Saloon back door", 4, 2, "closed")
    for c in range(4, 9):
        m.put("cover", c, 4, "bar")
    m.put("cover", 11, 3, "piano")
    m.put("cover", 3, 6, "barrels")
    for c, r in ((5, 7), (8, 6), (10, 5), (7, 8)):
        m.put("cover", c, r, "table")
    m.put("decoration", 4, 9, "sign_saloon")
    m.add_point("items", "Smelling Salts", 5, 3, "item", "Smelling Salts")

    # the bank, with its vault behind a stone wall
    m.building("bank", 17, 2, 24, 9, "wall_stone", "flagstone")
    m.add_door("Bank door", 22, 9, "closed")
    for c in range(17, 25):
        m.put("terrain", c, 5, "wall_stone")
    m.add_door("Vault door", 20, 5, "closed")
    m.put("cover", 18, 3, "safe")
    m.put("cover", 23, 3, "safe")
    m.put("cover", 18, 7, "bar")
    m.put("cover", 19, 7, "bar")
    m.put("cover", 22, 7, "bar")
    m.put("cover", 23, 7, "bar")
    m.put("decoration", 17, 9, "sign_bank")
    m.add_zone("objectives", "Bank vault", m.zone_rect([(18, 4), (23, 4)]), "objective", "", "loot")

    # the general store
    m.building("store", 28, 3, 35, 9, "wall_adobe", "floor")
    m.add_door("Store door", 33, 9, "open")
    for c, r, k in (
        (29, 4, "crates"),
        (30, 4, "barrel"),
        (34, 5, "crates"),
        (29, 7, "crate"),
        (31, 6, "haybale"),
    ):
        m.put("cover", c, r, k)
    for c in range(30, 33):
        m.put("cover", c, 8, "bar")
    m.put("decoration", 28, 9, "sign_store")
    m.add_point("items", "Dynamite", 33, 5, "item", "Dynamite")

    # the jail, cells behind bars
    m.building("jail", 4, 20, 12, 26, "wall_stone", "flagstone")
    m.add_door("Jail door", 10, 20, "closed")
    for c in range(5, 12):
        m.put("cover", c, 23, "bars")
    m.add_door("Cell door", 8, 23, "closed")
    m.put("cover", 8, 23, None)
    m.put("cover", 6, 21, "table")
    m.put("cover", 11, 25, "haybale")
    m.put("decoration", 5, 20, "sign_jail")
    m.add_point("items", "Jail Keys", 7, 21, "item", "Jail Keys")

    # the livery corral
    for c, r in m.cells():
        if 17 <= c <= 23 and 22 <= r <= 27:
            m.put("ground", c, r, "corral")
    e, se, sw, w, nw, ne = range(6)
    m.fence_loop(
        (17, 21), [e] * 6 + [se, sw, se, sw, se, sw] + [w] * 6 + [nw, ne, nw, ne, nw, ne], gaps=[(20, 21)]
    )
    for c, r in ((19, 23), (21, 25)):
        m.put("cover", c, r, "haybale")
    m.put("cover", 22, 23, "trough")

    # a homestead on the ranch road
    m.building("homestead", 29, 21, 35, 26, "wall_adobe", "floor")
    m.add_door("Homestead door", 32, 21, "closed")
    m.put("cover", 33, 24, "table")
    m.put("cover", 30, 23, "crate")

    # cover on the street and the boardwalks
    street = {
        (15, 14): "wagon",
        (25, 16): "wagon",
        (32, 13): "wagon",
        (6, 15): "wagon",
        (4, 12): "trough",
        (21, 12): "trough",
        (11, 17): "trough",
        (30, 17): "trough",
        (13, 11): "barrels",
        (16, 12): "barrel",
        (27, 11): "barrel",
        (36, 17): "barrels",
        (3, 18): "crates",
        (25, 11): "crate",
        (37, 11): "crates",
        (14, 18): "barrel",
        (7, 12): "fence_03",
        (8, 12): "fence_03",
        (18, 17): "fence_03",
        (19, 17): "fence_03",
        (29, 12): "fence_03",
        (30, 12): "fence_03",
        (23, 17): "fence_03",
        (35, 13): "sandbags",
        (35, 16): "sandbags",
        (34, 15): "sandbags",
        (2, 14): "rocks",
        (10, 14): "barrel",
        (20, 15): "pump",
    }
    for (c, r), k in street.items():
        m.put("cover", c, r, k)
    wilds = {
        (1, 3): "cactus",
        (38, 3): "cactus",
        (2, 27): "cactus",
        (38, 26): "cactus",
        (16, 28): "cactus",
        (0, 8): "rocks",
        (39, 7): "boulder",
        (1, 24): "boulder",
        (37, 22): "rocks",
        (13, 28): "rocks",
        (25, 1): "cactus",
        (33, 0): "rocks",
        (8, 0): "boulder",
        (11, 28): "haybale",
    }
    for (c, r), k in wilds.items():
        m.put("cover", c, r, k)
    decorate(m, rng, 0.12, ("sand", "sand_pebbles", "sand_scrub", "grass", "grass_thick"))
    for c, r, k in ((9, 13, "tumbleweed"), (23, 16, "tumbleweed"), (31, 15, "wheel"), (16, 23, "wheel")):
        m.put("decoration", c, r, k)

    # deploy: the Law at the east end, the Outlaws at the west end
    m.add_zone("deploy", "The Law", m.zone_rect([(37, 10), (39, 19)]), "deploy", "Side", "side1")
    m.add_zone("deploy", "The Outlaws", m.zone_rect([(0, 10), (1, 19)]), "deploy", "Side", "side2")
    return m


# --------------------------------------------------------------------------------------------------
# Canyon railyard


def canyon_railyard() -> HexMap:
    m = HexMap(
        "canyon_railyard.tmx",
        64,
        64,
        "flat",
        StaggerIndex.EVEN,
        {
            "title": "Dead Man's Canyon Railyard",
            "description": "A water stop deep in a red-rock canyon: boxcars on the siding, a depot full of "
            "dynamite and a dry creek to crawl along. Hold the water tower or rob the depot.",
            "rulesets": "frontier,rift,golden",
            "side1_name": "The Railroad Guards",
            "side2_name": "The Gang",
            # the deploy zones are ~60 hexes apart: about ten rounds' walk in Through the Rift before a
            # shot, so the default 20 rounds would end most fights at dusk (docs/MAPS.md "max_rounds")
            "max_rounds": 40,
        },
    )
    rng = random.Random(f"{SEED}:canyon")
    scatter_ground(m, rng, 14)

    def left(r: int) -> int:
        return round(8 + 3.2 * math.sin(r * 0.17) + 2.0 * math.sin(r * 0.06 + 1.3))

    def right(r: int) -> int:
        return round(54 + 3.0 * math.sin(r * 0.15 + 2.1) + 2.2 * math.sin(r * 0.05 + 0.4))

    for c, r in m.cells():
        lo, hi = left(r), right(r)
        if c < lo or c > hi:
            deep = c < lo - 3 or c > hi + 3
            m.put("terrain", c, r, "rock_red" if deep else "rock")
        elif c < lo + 2 or c > hi - 2 or (c < lo + 3 and r % 7 < 3) or (c > hi - 3 and r % 5 < 2):
            m.put("terrain", c, r, pick(rng, (("scree", 3), ("scree_rocks", 2))))

    # rock outcrops inside the canyon break the long sight lines
    for (c, r), radius in (((19, 14), 2), ((45, 40), 2), ((17, 50), 1), ((46, 12), 1), ((22, 33), 1)):
        centre = m.to_hex(c, r)
        for h in hexes_within(centre, radius + 1):
            cc, rr = m.to_cell(h)
            if m.inside(cc, rr):
                m.put("terrain", cc, rr, "rock" if hex_distance(h, centre) <= radius else "scree")

    # the dry creek winds in from the west wall and out through the east wall
    creek = [(0, 34 * 64), (900, 36 * 64), (1500, 41 * 64), (2100, 40 * 64), (2700, 45 * 64), (3600, 47 * 64)]
    pool = (2130.0, 40 * 64 + 40.0)
    for c, r in m.cells():
        x, y = m.geometry.cell_center(c, r)
        d = min(seg_distance(x, y, *creek[i], *creek[i + 1]) for i in range(len(creek) - 1))
        if d < 62:
            if m.key_at("terrain", c, r) in ("rock", "rock_red"):
                continue
            m.put("terrain", c, r, None)
            m.put("ground", c, r, "creek")
        dp = math.hypot(x - pool[0], y - pool[1])
        if dp < 60:
            m.put("ground", c, r, "water")
            m.put("terrain", c, r, None)
        elif dp < 110 and d < 62:
            m.put("ground", c, r, "ford")

    # the main line and the siding run down the canyon (columns are straight on flat-top maps)
    for r in range(64):
        m.put("ground", 30, r, "rail")
        m.put("terrain", 30, r, None)
    for r in range(12, 54):
        m.put("ground", 34, r, "rail")
        m.put("terrain", 34, r, None)
    for r in range(22, 38):
        for c in (35, 36):
            m.put("ground", c, r, "boardwalk")
            m.put("terrain", c, r, None)
    for c, r in m.cells():  # clear the yard of scree
        if 26 <= c <= 44 and 18 <= r <= 42 and m.key_at("terrain", c, r) in ("scree", "scree_rocks"):
            m.put("terrain", c, r, None)

    def boxcar(c: int, r0: int, length: int) -> None:
        m.put("cover", c, r0, "boxcar_head")
        for r in range(r0 + 1, r0 + length - 1):
            m.put("cover", c, r, "boxcar_mid")
        m.put("cover", c, r0 + length - 1, "boxcar_tail")

    boxcar(34, 18, 3)
    boxcar(34, 24, 4)
    boxcar(34, 40, 3)
    boxcar(30, 6, 4)
    boxcar(30, 52, 3)

    # the depot beside the loading dock
    m.building("depot", 37, 24, 43, 34, "wall_timber", "floor")
    m.add_door("Depot door", 37, 29, "closed")
    m.add_door("Depot back door", 43, 31, "open")
    for c, r, k in (
        (39, 26, "crates"),
        (40, 26, "crate"),
        (42, 27, "barrels"),
        (39, 32, "table"),
        (41, 33, "safe"),
    ):
        m.put("cover", c, r, k)
    m.put("decoration", 38, 24, "sign_railroad")
    m.add_point("items", "Dynamite", 42, 29, "item", "Dynamite")
    m.add_point("objectives", "Payroll safe", 41, 32, "objective", "loot")

    # the water tower and its trough
    m.put("cover", 27, 30, "water_tower")
    m.put("cover", 26, 33, "trough")
    m.put("cover", 28, 33, "barrel")
    m.add_zone("objectives", "Water tower", m.zone_rect([(25, 28), (29, 33)]), "objective", "", "hold")

    yard = {
        (35, 21): "crates",
        (36, 38): "crates",
        (32, 22): "crate",
        (32, 36): "barrels",
        (36, 22): "barrel",
        (33, 30): "sandbags",
        (28, 26): "crates",
        (31, 44): "haybale",
        (38, 37): "sandbags",
        (24, 20): "boulder",
        (22, 26): "cactus",
        (40, 46): "boulder",
        (26, 47): "rocks",
        (48, 28): "boulder",
        (15, 24): "boulder",
        (50, 20): "rocks",
        (13, 38): "cactus",
        (48, 54): "cactus",
        (20, 58): "boulder",
        (36, 58): "rocks",
        (42, 8): "cactus",
        (24, 6): "rocks",
        (27, 14): "boulder",
        (38, 14): "crates",
        (39, 15): "barrel",
        (16, 30): "rocks",
        (51, 34): "cactus",
        (44, 50): "rocks",
        (23, 42): "boulder",
        (33, 48): "crates",
        (28, 56): "sandbags",
        (40, 3): "rocks",
        (20, 4): "cactus",
    }
    for (c, r), k in yard.items():
        if m.passable(c, r) and not m.get("cover", c, r):
            m.put("cover", c, r, k)
    m.add_point("items", "Canteen", 18, 36, "item", "Canteen")
    decorate(m, rng, 0.08, ("sand", "sand_pebbles", "sand_scrub", "grass", "grass_thick", "creek"))

    # deploy: the guards come down the line from the north, the gang up the canyon from the south
    m.add_zone("deploy", "Railroad Guards", span_rect(m, (0, 3)), "deploy", "Side", "side1")
    m.add_zone("deploy", "The Gang", span_rect(m, (61, 64)), "deploy", "Side", "side2")
    return m


def span_rect(m: HexMap, rows: tuple[int, int]) -> tuple[float, float, float, float]:
    """The widest rectangle over ``rows`` whose hexes are all passable."""
    best: list[int] = []
    run: list[int] = []
    for c in range(m.width):
        if all(m.passable(c, r) for r in range(*rows)):
            run.append(c)
            if len(run) > len(best):
                best = list(run)
        else:
            run = []
    return m.zone_rect([(best[0] + 1, rows[0]), (best[-1] - 1, rows[1] - 1)])


def seg_distance(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


# --------------------------------------------------------------------------------------------------
# Ranch duel


def ranch_duel() -> HexMap:
    m = HexMap(
        "ranch_duel.tmx",
        20,
        16,
        "pointy",
        StaggerIndex.EVEN,
        {
            "title": "Showdown at the Lazy K",
            "description": "Rustlers cut the corral fence at dawn; the ranch hands come out of the house "
            "shooting. A small, fast duel map.",
            "rulesets": "frontier,rift,golden",
            "side1_name": "The Ranch Hands",
            "side2_name": "The Rustlers",
        },
    )
    rng = random.Random(f"{SEED}:ranch")
    scatter_ground(m, rng, 5)
    for c in range(5, 20):  # the track from the east gate to the house
        m.put("ground", c, 11, "road_ruts" if c > 8 else "road")
    for r in range(10, 11):
        m.put("ground", 5, r, "road")
    m.building("ranch house", 2, 3, 7, 9, "wall_timber", "floor")
    m.add_door("Front door", 5, 9, "closed")
    m.add_door("Kitchen door", 4, 3, "open")
    m.put("cover", 4, 6, "table")
    m.put("cover", 3, 4, "crates")
    m.put("cover", 6, 5, "barrel")
    m.put("decoration", 2, 9, "sign_lazy_k")
    m.add_point("items", "Smelling Salts", 6, 7, "item", "Smelling Salts")
    m.add_zone("objectives", "Ranch house", m.zone_rect([(3, 4), (6, 8)]), "objective", "", "hold")

    for c, r in m.cells():
        if 11 <= c <= 16 and 3 <= r <= 7:
            m.put("ground", c, r, "corral")
    e, se, sw, w, nw, ne = range(6)
    m.fence_loop(
        (11, 2), [e] * 5 + [se, sw, se, sw, se, sw] + [w] * 5 + [nw, ne, nw, ne, nw, ne], gaps=[(13, 8)]
    )
    for (c, r), k in {
        (13, 4): "haybale",
        (15, 6): "haybale",
        (12, 6): "trough",
        (9, 12): "windmill",
        (10, 13): "trough",
        (8, 13): "barrels",
        (15, 11): "wagon",
        (17, 13): "haybale",
        (12, 14): "rocks",
        (18, 2): "cactus",
        (1, 13): "cactus",
        (9, 1): "boulder",
        (17, 9): "haybale",
        (6, 12): "fence_03",
        (7, 12): "fence_03",
        (1, 1): "rocks",
        (13, 10): "crates",
    }.items():
        m.put("cover", c, r, k)
    decorate(m, rng, 0.1, ("sand", "sand_pebbles", "sand_scrub", "grass", "grass_thick"))

    west = [(c, r) for r in range(16) for c in (0, 1)]
    east = [(c, r) for r in range(16) for c in (18, 19)]
    for cells, name, side in ((west, "The Ranch Hands", "side1"), (east, "The Rustlers", "side2")):
        for c, r in cells:
            m.put("cover", c, r, None)
        m.add_zone("deploy", name, m.zone_rect(cells), "deploy", "Side", side)
    return m


BUILDERS = (frontier_town, canyon_railyard, ranch_duel)


def render(root: Path = ROOT) -> list[Path]:
    written = []
    for build in BUILDERS:
        m = build()
        m.check()
        path = root / "maps" / m.file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(m.to_xml(), encoding="utf-8", newline="\n")
        written.append(path)
    return written


def main(argv: Iterable[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    root = Path(args[0]) if args else ROOT
    for path in render(root):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
