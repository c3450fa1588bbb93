"""The map as the rules see it: terrain per hex, doors, items, deploy zones, objectives, and fast queries.

Built from a :class:`~game.tiledmap.TiledMap` (never pygame). Conventions: ``docs/MAPS.md``.

Decisions (also in docs/MAPS.md):

* **Line of sight** runs centre to centre. ``hexgrid.hex_lines`` gives two epsilon-nudged lines; they
  differ only where the true line runs along hex edges. Sight exists if *either* line is clear of
  sight-blocking hexes (walls, closed doors); the two end hexes never block.
* **Cover**: the target gets the cover of the hex on the line that is adjacent to it (the last hex
  before the target). With two lines, the target gets the better of the two (Through the Rift: "In the
  event the shortest line is ambiguous, the target is still considered to have the effects of the
  cover"). A sight-blocking hex there (a wall beside the target that one line grazes) counts as full
  cover. Adjacent units get no cover from terrain. ``cover_between`` does not check sight: ask
  ``line_of_sight`` first.

Speed: hexes are numbered into flat arrays (``bytearray`` flags, ``list`` costs) with a border of padding,
so a neighbour or a point on a line is one integer addition away. Lines depend only on ``b - a``; each
offset vector's two lines are computed once and cached as integer deltas.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import heapq
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import IntEnum
from pathlib import Path

from game.hexgrid import (
    DIRECTIONS,
    Hex,
    StaggerAxis,
    StaggerIndex,
    TiledHexGeometry,
    hex_distance,
)
from game.hexgrid import hexes_within as _hexes_within
from game.safeio import MAX_PATH_CHARS, FileRefusedError, read_file
from game.tiledmap import (
    GID_MASK,
    MapLoadError,
    MapObject,
    MapProblem,
    PropertyValue,
    TiledMap,
    load_tiled_map,
)
from game.zones import Budget, CentreLines, covered_cells, rotate

__all__ = [
    "SIDES",
    "Battlefield",
    "Cover",
    "DeployZone",
    "Door",
    "Objective",
    "Terrain",
    "build_battlefield",
    "load_battlefield",
    "map_rulesets",
]

SIDES = ("side1", "side2", "side3", "side4")
MAP_PROPERTIES = ("title", "description", "rulesets", "author", *(f"{s}_name" for s in SIDES))
ZONE_SHAPES = ("rectangle", "polygon", "ellipse")


DEFAULT_TERRAIN_NAME = "open ground"


class Cover(IntEnum):
    """Cover a target gets; ordered so ``max`` picks the better cover."""

    NONE = 0
    HALF = 1
    FULL = 2


_COVERS = (Cover.NONE, Cover.HALF, Cover.FULL)
_COVER_NAMES = {"none": Cover.NONE, "half": Cover.HALF, "full": Cover.FULL}


@dataclass(frozen=True, slots=True)
class Terrain:
    """What a hex means to the rules (see the terrain table in docs/MAPS.md)."""

    name: str = DEFAULT_TERRAIN_NAME
    impassable: bool = False
    blocks_sight: bool = False
    cover: Cover = Cover.NONE
    move_cost: int = 1
    destructible: bool = False


@dataclass(slots=True)
class Door:
    hex: Hex
    is_open: bool
    object_id: int
    name: str = ""


@dataclass(frozen=True, slots=True)
class DeployZone:
    side: str
    object_id: int
    hexes: frozenset[Hex]  # every in-bounds hex whose centre lies inside the shape


@dataclass(frozen=True, slots=True)
class Objective:
    kind: str
    object_id: int
    name: str
    hexes: frozenset[Hex]


@dataclass(frozen=True, slots=True)
class _LineTable:
    """The two lines for one offset vector, relative to the source hex's number.

    A set of hexes is a bit mask shifted down by its lowest delta: hex ``ka + d`` is bit ``d - lo``,
    so "does any of them block sight" is ``(blockers >> (ka + lo)) & mask`` -- one big-int shift and
    AND instead of a Python loop over the line.
    """

    common: tuple[int, int]  # (lo, mask) of the intermediate hexes on both lines
    only1: tuple[int, int]  # (lo, mask) of those only on line 1 (mask 0 if the lines agree)
    only2: tuple[int, int]
    before_target: tuple[int, int]  # delta of the hex before the target on each line
    after_source: tuple[int, int]  # delta of the hex after the source on each line


def _mask(deltas: Iterable[int]) -> tuple[int, int]:
    ds = list(deltas)
    if not ds:
        return 0, 0
    lo = min(ds)
    mask = 0
    for d in ds:
        mask |= 1 << (d - lo)
    return lo, mask


_MEMO_LIMIT = 250_000

# hexgrid's nudge; _offset_lines repeats hexgrid._line's float arithmetic step for step (same operations in
# the same order, so the same roundings) without building Hex objects. A test checks it equals hex_lines.
_NUDGE = (1e-6, 2e-6, -3e-6)


def _stepped_lines(dq: int, dr: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """``hex_lines(Hex(0, 0), Hex(dq, dr))`` as (q, r) tuples, about 3x faster."""
    n = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
    if n == 0:
        return [(0, 0)], [(0, 0)]
    ds = -dq - dr
    step = 1.0 / n
    lines: list[list[tuple[int, int]]] = []
    signs = (1.0, -1.0) if _may_tie(dq, dr, ds, n) else (1.0,)
    for sign in signs:
        eq, er, es = (sign * e for e in _NUDGE)
        aq, ar, a_s = 0 + eq, 0 + er, 0 + es
        bq, br, bs = dq + eq, dr + er, ds + es
        fq, fr, fs = bq - aq, br - ar, bs - a_s
        out: list[tuple[int, int]] = []
        for i in range(n + 1):
            t = step * i
            hq = aq + fq * t
            hr = ar + fr * t
            hs = a_s + fs * t
            qi = round(hq)
            ri = round(hr)
            si = round(hs)
            ddq = abs(qi - hq)
            ddr = abs(ri - hr)
            dds = abs(si - hs)
            if ddq > ddr and ddq > dds:
                qi = -ri - si
            elif ddr > dds:
                ri = -qi - si
            out.append((int(qi), int(ri)))
        lines.append(out)
    if len(lines) == 1:
        return lines[0], lines[0]  # no rounding tie anywhere: both nudges give the same line
    return lines[0], lines[1]  # shared through the cache: callers must not mutate them


def _may_tie(dq: int, dr: int, ds: int, n: int) -> bool:
    """Whether some point ``i/n`` of the way along the line rounds with a tie (only then do the two
    nudged lines differ). The coordinate with ``|c| = n`` is a whole number at every step, so a
    three-way (corner) tie cannot happen; a tie is two cube coordinates ``i*c/n`` that are exact
    half-integers (an edge), and ``2*i*c = n (mod 2n)`` has a solution iff ``gcd(2c, 2n)`` divides ``n``.
    ``tests/test_battlefield.py`` checks the shortcut against ``hexgrid.hex_lines`` to radius 40."""
    return sum(1 for c in (dq, dr, ds) if n % math.gcd(2 * c, 2 * n) == 0) >= 2


def _matmul(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    return (
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
    )


def _hex_symmetries() -> list[tuple[tuple[int, int, int, int], tuple[int, int, int, int]]]:
    """The 12 symmetries of the hex grid as (matrix, inverse) on axial (q, r): 6 turns, each mirrored."""
    turn = (1, 1, -1, 0)  # (q, r) -> (q + r, -q): 60 degrees, hexgrid.hex_rotate_left
    mirror = (1, 0, -1, -1)  # (q, r, s) -> (q, s, r)
    found: list[tuple[int, int, int, int]] = []
    m = (1, 0, 0, 1)
    for _ in range(6):
        found += [m, _matmul(m, mirror)]
        m = _matmul(turn, m)
    result = []
    for a, b, c, d in found:
        det = a * d - b * c  # +1 or -1: the inverse is integral
        result.append(((a, b, c, d), (d * det, -b * det, -c * det, a * det)))
    return result


_SYMMETRIES = _hex_symmetries()


@functools.lru_cache(maxsize=1 << 16)
def _offset_lines(dq: int, dr: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The two nudged lines for an offset, as (q, r) tuples, from the lines of its canonical image.

    A grid symmetry maps the pair of nudged lines of an offset onto the pair of its image (turns and
    mirrors commute with cube rounding, and the nudge never lies on an edge), so only one offset in
    each orbit of 12 is stepped; ``tests/test_battlefield.py`` checks this for every offset to radius 40.
    The pair may come back in the other order, which nothing depends on (sight: either line clear;
    cover: the better of the two).
    """
    best: tuple[int, int] | None = None
    inverse = (1, 0, 0, 1)
    for (a, b, c, d), inv in _SYMMETRIES:
        image = (a * dq + b * dr, c * dq + d * dr)
        if best is None or image < best:
            best, inverse = image, inv
    assert best is not None
    line1, line2 = _canonical_lines(*best)
    if best == (dq, dr):
        return line1, line2
    a, b, c, d = inverse
    return [(a * q + b * r, c * q + d * r) for q, r in line1], [
        (a * q + b * r, c * q + d * r) for q, r in line2
    ]


@functools.lru_cache(maxsize=1 << 14)
def _canonical_lines(dq: int, dr: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    return _stepped_lines(dq, dr)


# --------------------------------------------------------------------------------------------------
# property checking, shared with game.mapcheck


def _kind(value: PropertyValue) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    return "string"


def terrain_value_problem(name: str, value: PropertyValue) -> tuple[str, str] | None:
    """(what, fix) if a terrain property has a wrong value; None if fine or not a terrain property."""
    if name in ("impassable", "blocks_sight", "destructible"):
        if not isinstance(value, bool):
            return (
                f"'{name}' is {_kind(value)} '{value}', not a bool",
                f"delete '{name}' and add it again as a bool property (a tick box)",
            )
    elif name == "cover":
        if not isinstance(value, str) or value not in _COVER_NAMES:
            return (
                f"'cover' is '{value}', not none / half / full",
                "pick none, half or full (open maps/hexslinger.tiled-project for the drop-down)",
            )
    elif name == "move_cost":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            return (
                f"'move_cost' is {_kind(value)} '{value}', not a whole number of 1 or more",
                "make 'move_cost' an int property of 1 or more",
            )
    elif name == "terrain" and not isinstance(value, str):
        return f"'terrain' is {_kind(value)} '{value}', not a string", "make 'terrain' a string property"
    return None


def object_value_problem(name: str, value: PropertyValue) -> tuple[str, str] | None:
    """(what, fix) if an object property (door/deploy/item/objective or a terrain one) is wrong."""
    if name == "door":
        if value not in ("open", "closed") or not isinstance(value, str):
            return f"'door' is '{value}', not open / closed", "set 'door' to open or closed"
    elif name == "deploy":
        if not isinstance(value, str) or value not in SIDES:
            return (
                f"'deploy' is '{value}', not side1 ... side4",
                "set 'deploy' to side1, side2, side3 or side4",
            )
    elif name in ("item", "objective"):
        if not isinstance(value, str) or not value.strip():
            return f"'{name}' is '{value}', not a name", f"make '{name}' a non-empty string (e.g. loot)"
    else:
        return terrain_value_problem(name, value)
    return None


# --------------------------------------------------------------------------------------------------
# object geometry (Tiled pixel space)


def object_center(obj: MapObject, layer_offset: tuple[float, float], tmap: TiledMap) -> tuple[float, float]:
    """Pixel centre of an object as drawn: tile objects hang up from their bottom-left origin."""
    ox, oy = obj.x + layer_offset[0], obj.y + layer_offset[1]
    if obj.shape == "point":
        return ox, oy
    if obj.shape in ("polygon", "polyline") and obj.points:
        mx = sum(p[0] for p in obj.points) / len(obj.points) - obj.x
        my = sum(p[1] for p in obj.points) / len(obj.points) - obj.y
    elif obj.shape == "tile":
        info = tmap.tiles.get(obj.raw_gid & GID_MASK)
        tx, ty = info.offset if info is not None else (0, 0)
        mx, my = obj.width / 2 + tx, -obj.height / 2 + ty
    else:
        mx, my = obj.width / 2, obj.height / 2
    rx, ry = rotate(mx, my, obj.rotation)
    return ox + rx, oy + ry


# --------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Build:
    tmap: TiledMap
    problems: list[MapProblem] = field(default_factory=list)

    def add(
        self, what: str, fix: str, *, layer: str | None = None, cell: tuple[int, int] | None = None
    ) -> None:
        self.problems.append(MapProblem(str(self.tmap.path), what, fix, layer=layer, cell=cell))


class Battlefield:
    """The rules' view of one map. Mutable only through doors (:meth:`set_door`)."""

    def __init__(
        self,
        geometry: TiledHexGeometry,
        width: int,
        height: int,
        terrain: Mapping[Hex, Terrain],
        *,
        doors: Iterable[Door] = (),
        items: Mapping[Hex, tuple[str, ...]] | None = None,
        zones: Iterable[DeployZone] = (),
        objectives: Iterable[Objective] = (),
        properties: Mapping[str, PropertyValue] | None = None,
        file_hash: str = "",
    ) -> None:
        self.geometry = geometry
        self.width = width
        self.height = height
        self.properties: dict[str, PropertyValue] = dict(properties or {})
        self.file_hash = file_hash
        self._terrain: dict[Hex, Terrain] = dict(terrain)
        self.doors: dict[Hex, Door] = {d.hex: d for d in doors if d.hex in self._terrain}
        self.items: dict[Hex, tuple[str, ...]] = dict(items or {})
        self.zones: list[DeployZone] = list(zones)
        self.objectives: list[Objective] = list(objectives)
        self.hexes: frozenset[Hex] = frozenset(self._terrain)

        # Flat arrays over the axial bounding box plus a border, so every line between in-bounds hexes
        # (which may clip a zigzag map edge by one hex) stays inside the arrays.
        pad = 2
        qs = [h.q for h in self._terrain] or [0]
        rs = [h.r for h in self._terrain] or [0]
        self._q0 = min(qs) - pad
        self._r0 = min(rs) - pad
        self._q1 = max(qs) + pad
        self._r1 = max(rs) + pad
        self._stride = self._q1 - self._q0 + 1
        size = self._stride * (self._r1 - self._r0 + 1)
        self._hex_of: list[Hex | None] = [None] * size
        self._in: bytearray = bytearray(size)
        self._sight: bytearray = bytearray(size)  # 1 = blocks sight
        self._blockers = 0  # the same as a bit set (bit k = hex number k blocks sight)
        self._cover: bytearray = bytearray(size)  # Cover value a unit behind this hex gets
        self._cost: list[int] = [0] * size  # movement cost to enter; 0 = cannot enter
        stride = self._stride
        self._steps = tuple(d.r * stride + d.q for d in DIRECTIONS)
        # One pass over the hexes, the flags of each distinct terrain worked out once (by identity: a
        # Terrain's own hash is a Python call); doors, the only overlay a map starts with, after.
        hex_of, inside, sight, cover, cost = self._hex_of, self._in, self._sight, self._cover, self._cost
        q0, r0 = self._q0, self._r0
        flags: dict[int, tuple[int, int, int]] = {}
        key_of: dict[tuple[int, int], int] = {}
        for h, t in self._terrain.items():
            q, r = h.q, h.r
            k = (r - r0) * stride + (q - q0)
            f = flags.get(id(t))
            if f is None:
                f = flags[id(t)] = (
                    1 if t.blocks_sight else 0,
                    int(Cover.FULL if t.blocks_sight else t.cover),
                    0 if t.impassable else t.move_cost,
                )
            hex_of[k] = h
            inside[k] = 1
            sight[k], cover[k], cost[k] = f
            key_of[(q, r)] = k
        for h in self.doors:
            self._refresh(key_of[(h.q, h.r)], bits=False)
        self._blockers = _bitset(self._sight, 1)
        self._cost_masks: dict[int, int] = {c: _bitset(self._cost, c) for c in sorted(set(self._cost)) if c}
        self._key_of = key_of
        self._size = size
        self._lines: dict[tuple[int, int], _LineTable] = {}
        self._los_memo: dict[int, bool] = {}
        self.terrain_changes: dict[Hex, Terrain] = {}  # hexes a rule changed during the match
        self._shared = False  # the overlay's arrays are shared with a clone: copy before changing them

    def clone(self) -> Battlefield:
        """A copy that shares the map (terrain, lines, zones) and copies the overlay (doors, changed
        terrain) the first time either copy changes it: a match clone costs a few microseconds here."""
        other = copy.copy(self)
        self._shared = other._shared = True
        return other

    def _own(self) -> None:
        """Copy the overlay before a change if a clone still shares it."""
        if not self._shared:
            return
        self.doors = {h: replace(d) for h, d in self.doors.items()}
        self._terrain = dict(self._terrain)
        self.terrain_changes = dict(self.terrain_changes)
        self._sight = bytearray(self._sight)
        self._cover = bytearray(self._cover)
        self._cost = list(self._cost)
        self._los_memo = {}
        self._shared = False

    # -- construction from a map
    @classmethod
    def from_tiled(cls, tmap: TiledMap, *, strict: bool = True) -> Battlefield:
        """Build from a loaded map; ``strict`` raises :class:`MapLoadError` on any convention problem."""
        battlefield, problems = build_battlefield(tmap)
        if strict and problems:
            raise MapLoadError(problems)
        return battlefield

    # -- keys
    def _key(self, h: Hex) -> int:
        return (h.r - self._r0) * self._stride + (h.q - self._q0)

    def _key_or_none(self, h: Hex) -> int | None:
        return self._key_of.get((h.q, h.r))

    def _refresh(self, k: int, *, bits: bool = True) -> None:
        """Recompute hex number ``k``'s flags from its terrain and door; ``bits``: keep the bit sets (the
        sight blockers, the hexes of each move cost) up to date too (the constructor builds them once)."""
        h = self._hex_of[k]
        assert h is not None
        t = self._terrain[h]
        door = self.doors.get(h)
        closed = door is not None and not door.is_open
        blocks = t.blocks_sight or closed
        self._sight[k] = 1 if blocks else 0
        self._cover[k] = int(Cover.FULL if blocks else t.cover)
        old = self._cost[k]
        new = 0 if (t.impassable or closed) else t.move_cost
        self._cost[k] = new
        if bits:
            bit = 1 << k
            self._blockers = (self._blockers | bit) if blocks else (self._blockers & ~bit)
            if old != new:
                masks = self._cost_masks = dict(self._cost_masks)
                if old:
                    masks[old] &= ~bit
                if new:
                    masks[new] = masks.get(new, 0) | bit

    # -- map facts
    @property
    def title(self) -> str:
        value = self.properties.get("title")
        return value if isinstance(value, str) and value else "Untitled map"

    @property
    def description(self) -> str:
        value = self.properties.get("description")
        return value if isinstance(value, str) else ""

    @property
    def rulesets(self) -> tuple[str, ...]:
        """The ids the map's ``rulesets`` property lists (empty: it suits every ruleset). Whether each is
        installed is asked where the ruleset registry is known (``game.mapcheck``), not here."""
        return map_rulesets(self.properties.get("rulesets"))

    def side_name(self, side: str) -> str:
        value = self.properties.get(f"{side}_name")
        if isinstance(value, str) and value.strip():
            return value.strip()
        return f"Side {side.removeprefix('side')}"

    @property
    def deploy_zones(self) -> dict[str, frozenset[Hex]]:
        """Side -> the hexes a unit of that side may deploy on (impassable hexes left out)."""
        zones: dict[str, set[Hex]] = {}
        for zone in self.zones:
            zones.setdefault(zone.side, set()).update(
                h for h in zone.hexes if not self._terrain[h].impassable
            )
        return {side: frozenset(hexes) for side, hexes in sorted(zones.items())}

    def deploy_spots(self, side: str) -> list[Hex]:
        """A side's enterable zone hexes, nearest the zone's centre first (ties by hex): the order
        automatic deployment fills them in, the same for every ruleset."""
        hexes = sorted(h for h in self.deploy_zones.get(side, frozenset()) if self.is_passable(h))
        if not hexes:
            return []
        centre = Hex(sum(h.q for h in hexes) // len(hexes), sum(h.r for h in hexes) // len(hexes))
        return sorted(hexes, key=lambda h: (hex_distance(h, centre), h))

    # -- per-hex queries
    def in_bounds(self, h: Hex) -> bool:
        return self._key_or_none(h) is not None

    def terrain_at(self, h: Hex) -> Terrain:
        """The hex's terrain (doors not included: see :meth:`door_at`); KeyError off the map."""
        return self._terrain[h]

    def door_at(self, h: Hex) -> Door | None:
        return self.doors.get(h)

    def items_at(self, h: Hex) -> tuple[str, ...]:
        return self.items.get(h, ())

    def is_passable(self, h: Hex) -> bool:
        k = self._key_or_none(h)
        return k is not None and self._cost[k] > 0

    def blocks_sight(self, h: Hex) -> bool:
        k = self._key_or_none(h)
        return k is not None and bool(self._sight[k])

    def move_cost(self, h: Hex) -> int | None:
        """Movement points to enter ``h``; None if it cannot be entered (impassable, closed door, off map)."""
        k = self._key_or_none(h)
        if k is None or self._cost[k] == 0:
            return None
        return self._cost[k]

    def neighbors(self, h: Hex) -> list[Hex]:
        k = self._key_or_none(h)
        if k is None:
            return [n for n in (h + d for d in DIRECTIONS) if self.in_bounds(n)]
        hex_of = self._hex_of
        return [n for n in (hex_of[k + s] for s in self._steps) if n is not None]

    def hexes_within(self, centre: Hex, radius: int) -> list[Hex]:
        """In-bounds hexes at distance <= radius, row-major."""
        return [h for h in _hexes_within(centre, radius) if self.in_bounds(h)]

    # -- doors
    def set_door(self, h: Hex, is_open: bool) -> None:
        door = self.doors.get(h)
        if door is None:
            raise KeyError(f"there is no door at {h}")
        if door.is_open == is_open:
            return
        self._own()
        door = self.doors[h]
        door.is_open = is_open
        self._refresh(self._key(h))
        self._los_memo.clear()

    def set_terrain(self, h: Hex, terrain: Terrain) -> None:
        """Change what a hex is during a match (cover destroyed or deployed by a rule).

        The rules decide what the new terrain is; the battlefield only keeps sight, cover and movement
        consistent and records the change (``terrain_changes``), which is part of the match state.
        """
        k = self._key(h)
        if self._terrain[h] == terrain:
            return
        self._own()
        self._terrain[h] = terrain
        self.terrain_changes[h] = terrain
        self._refresh(k)
        self._los_memo.clear()

    # -- lines
    def _line_table(self, dq: int, dr: int) -> _LineTable:
        table = self._lines.get((dq, dr))
        if table is None:
            stride = self._stride
            line1, line2 = _offset_lines(dq, dr)
            key1 = [r * stride + q for q, r in line1]
            if line1 == line2:  # not ambiguous (most offsets): one mask, nothing line-specific
                mid = key1[1:-1]
                ends = (key1[-2], key1[-2]) if len(key1) > 1 else (0, 0)
                starts = (key1[1], key1[1]) if len(key1) > 1 else (0, 0)
                table = _LineTable(_mask(mid), (0, 0), (0, 0), ends, starts)
            else:
                key2 = [r * stride + q for q, r in line2]
                mid1, mid2 = key1[1:-1], key2[1:-1]
                set1, set2 = set(mid1), set(mid2)
                table = _LineTable(
                    common=_mask(d for d in mid1 if d in set2),
                    only1=_mask(d for d in mid1 if d not in set2),
                    only2=_mask(d for d in mid2 if d not in set1),
                    before_target=(key1[-2], key2[-2]) if len(key1) > 1 else (0, 0),
                    after_source=(key1[1], key2[1]) if len(key1) > 1 else (0, 0),
                )
            self._lines[(dq, dr)] = table
        return table

    def _clear(self, ka: int, table: _LineTable) -> bool:
        """Sight along a table's lines from hex number ``ka``: either line clear."""
        blockers = self._blockers
        lo, mask = table.common
        if mask and (blockers >> (ka + lo)) & mask:
            return False
        lo, mask = table.only1
        if not mask:
            return True
        if not (blockers >> (ka + lo)) & mask:
            return True
        lo, mask = table.only2
        return not (blockers >> (ka + lo)) & mask

    def line_of_sight(self, a: Hex, b: Hex) -> bool:
        """Whether ``a`` sees ``b`` (symmetric; see the module docstring for the rule). False off the map."""
        key_of = self._key_of
        ka = key_of.get((a.q, a.r))
        kb = key_of.get((b.q, b.r))
        if ka is None or kb is None:
            return False
        if kb < ka:  # always look from the lower-numbered hex, so the answer is symmetric by construction
            a, b, ka, kb = b, a, kb, ka
        memo_key = ka * self._size + kb
        seen = self._los_memo.get(memo_key)
        if seen is not None:
            return seen
        dq, dr = b.q - a.q, b.r - a.r
        table = self._lines.get((dq, dr)) or self._line_table(dq, dr)
        result = self._clear(ka, table)
        if len(self._los_memo) >= _MEMO_LIMIT:
            self._los_memo.clear()
        self._los_memo[memo_key] = result
        return result

    def cover_between(self, source: Hex, target: Hex) -> Cover:
        """Cover ``target`` gets against ``source``: the better of the hexes before it on the two lines.

        Does not check sight (ask :meth:`line_of_sight`); NONE off the map and between neighbours.
        """
        key_of = self._key_of
        ks = key_of.get((source.q, source.r))
        kt = key_of.get((target.q, target.r))
        if ks is None or kt is None:
            return Cover.NONE
        dq, dr = target.q - source.q, target.r - source.r
        if abs(dq) + abs(dr) + abs(dq + dr) <= 2:
            return Cover.NONE
        cover = self._cover
        # The lines are always taken from the lower-numbered hex, as for line_of_sight.
        if ks < kt:
            d1, d2 = (self._lines.get((dq, dr)) or self._line_table(dq, dr)).before_target
            return _COVERS[max(cover[ks + d1], cover[ks + d2])]
        d1, d2 = (self._lines.get((-dq, -dr)) or self._line_table(-dq, -dr)).after_source
        return _COVERS[max(cover[kt + d1], cover[kt + d2])]

    def sight_and_cover(self, source: Hex, target: Hex) -> Cover | None:
        """None if ``source`` cannot see ``target``, else the cover ``target`` gets."""
        if not self.line_of_sight(source, target):
            return None
        return self.cover_between(source, target)

    def visibility(self, hexes: list[Hex]) -> dict[tuple[Hex, Hex], Cover]:
        """For every ordered pair (a, b) of distinct ``hexes`` where a sees b: the cover b gets from a.

        The batch form of :meth:`sight_and_cover` for the AI and overlays; off-map hexes see nothing.
        """
        key_of = self._key_of
        cover = self._cover
        lines = self._lines
        keyed = sorted(
            ((k, h) for h in hexes if (k := key_of.get((h.q, h.r))) is not None), key=lambda kh: kh[0]
        )
        result: dict[tuple[Hex, Hex], Cover] = {}
        for i, (ka, a) in enumerate(keyed):
            for kb, b in keyed[i + 1 :]:
                if kb == ka:
                    continue
                dq, dr = b.q - a.q, b.r - a.r
                table = lines.get((dq, dr)) or self._line_table(dq, dr)
                if not self._clear(ka, table):
                    continue
                if abs(dq) + abs(dr) + abs(dq + dr) <= 2:
                    result[(a, b)] = result[(b, a)] = Cover.NONE
                    continue
                d1, d2 = table.before_target
                result[(a, b)] = _COVERS[max(cover[ka + d1], cover[ka + d2])]
                d1, d2 = table.after_source
                result[(b, a)] = _COVERS[max(cover[ka + d1], cover[ka + d2])]
        return result

    def line(self, a: Hex, b: Hex) -> tuple[list[Hex], list[Hex]]:
        """The two candidate lines from ``a`` to ``b``: ``hexgrid.hex_lines``' pair, possibly swapped."""
        line1, line2 = _offset_lines(b.q - a.q, b.r - a.r)
        return [Hex(a.q + q, a.r + r) for q, r in line1], [Hex(a.q + q, a.r + r) for q, r in line2]

    # -- movement
    def reachable(self, start: Hex, budget: int, blocked: frozenset[Hex] = frozenset()) -> dict[Hex, int]:
        """Every hex reachable from ``start`` with at most ``budget`` movement points -> its cheapest cost.

        Entering a hex costs its ``move_cost``; impassable hexes, closed doors and ``blocked`` hexes
        (other units) cannot be entered. ``start`` itself is included at cost 0.
        """
        ks = self._key_or_none(start)
        if ks is None or budget < 0:
            return {}
        cost = self._cost
        blocked_keys = {k for k in map(self._key_or_none, blocked) if k is not None}
        best: dict[int, int] = {ks: 0}
        heap: list[tuple[int, int]] = [(0, ks)]
        steps = self._steps
        while heap:
            g, k = heapq.heappop(heap)
            if g > best[k]:
                continue
            for s in steps:
                n = k + s
                c = cost[n]
                if c == 0 or n in blocked_keys:
                    continue
                ng = g + c
                if ng <= budget and ng < best.get(n, budget + 1):
                    best[n] = ng
                    heapq.heappush(heap, (ng, n))
        hex_of = self._hex_of
        return {hex_of[k]: g for k, g in best.items()}  # type: ignore[misc]

    def reach_layers(self, start: Hex, budget: int, blocked: frozenset[Hex] = frozenset()) -> list[int]:
        """Every hex reachable from ``start`` within ``budget`` movement points, as bit sets by cost:
        ``layers[g]`` has bit k set for hex number k whose cheapest cost is g (``layers[0]`` is the start).

        Entering a hex costs its ``move_cost``; impassable hexes, closed doors and ``blocked`` hexes cannot
        be entered. The search grows the reached set a cost layer at a time with shifts of one big integer
        (the six neighbour offsets are fixed distances between hex numbers), so it costs a few dozen
        integer operations however many hexes it reaches. A hex's cheapest cost is its neighbour's in the
        first layer that touches it plus its own cost: costs belong to the hex entered, so no later layer
        can do better."""
        ks = self._key_or_none(start)
        if ks is None or budget < 0:
            return []
        key_of = self._key_of
        stop = 0
        for h in blocked:
            k = key_of.get((h.q, h.r))
            if k is not None:
                stop |= 1 << k
        masks = [(c, m & ~stop) for c, m in self._cost_masks.items() if c <= budget]
        steps = self._steps
        reached = 1 << ks
        layers = [reached] + [0] * budget
        for g in range(budget + 1):
            layer = layers[g]
            if not layer:
                continue
            around = 0
            for s in steps:
                around |= (layer << s) if s > 0 else (layer >> -s)
            around &= ~reached
            if not around:
                continue
            for c, mask in masks:
                found = around & mask
                if found and g + c <= budget:
                    layers[g + c] |= found
                    reached |= found
        return layers

    def keys_of(self, bits: int) -> list[int]:
        """The hex numbers whose bits are set in ``bits``, ascending (map order, row by row)."""
        text = bin(bits)[:1:-1]  # least significant bit first
        out = []
        i = text.find("1")
        while i >= 0:
            out.append(i)
            i = text.find("1", i + 1)
        return out

    def step_keys(self, k: int) -> tuple[int, ...]:
        """The numbers of hex number ``k``'s six neighbours (padding included), in direction order."""
        return tuple(k + s for s in self._steps)

    def enter_cost(self, k: int) -> int:
        """What entering hex number ``k`` costs now (0: it cannot be entered)."""
        return self._cost[k]

    def hex_at_key(self, k: int) -> Hex:
        h = self._hex_of[k]
        assert h is not None
        return h

    def key_at(self, h: Hex) -> int | None:
        """The hex's number (its index in the battlefield's arrays), None off the map."""
        return self._key_of.get((h.q, h.r))

    def path(self, a: Hex, b: Hex, blocked: frozenset[Hex] = frozenset()) -> list[Hex] | None:
        """A cheapest path from ``a`` to ``b`` inclusive (A*, hex-distance heuristic), or None.

        Ties break on (estimated total, remaining distance, hex number), so the same query always gives
        the same path.
        """
        ka = self._key_or_none(a)
        kb = self._key_or_none(b)
        if ka is None or kb is None:
            return None
        if ka == kb:
            return [a]
        cost = self._cost
        if cost[kb] == 0 or b in blocked:
            return None
        blocked_keys = {k for k in map(self._key_or_none, blocked) if k is not None}
        stride, q0, r0 = self._stride, self._q0, self._r0
        bq, br = b.q - q0, b.r - r0

        def h(k: int) -> int:
            dq = k % stride - bq
            dr = k // stride - br
            return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

        best: dict[int, int] = {ka: 0}
        came: dict[int, int] = {}
        h0 = h(ka)
        heap: list[tuple[int, int, int]] = [(h0, h0, ka)]
        steps = self._steps
        while heap:
            _, _, k = heapq.heappop(heap)
            if k == kb:
                out = [kb]
                while out[-1] != ka:
                    out.append(came[out[-1]])
                hex_of = self._hex_of
                return [hex_of[x] for x in reversed(out)]  # type: ignore[misc]
            g = best[k]
            for s in steps:
                n = k + s
                c = cost[n]
                if c == 0 or n in blocked_keys:
                    continue
                ng = g + c
                if ng < best.get(n, 1 << 60):
                    best[n] = ng
                    came[n] = k
                    hn = h(n)
                    heapq.heappush(heap, (ng + hn, hn, n))
        return None

    def path_cost(self, path: list[Hex]) -> int:
        """Movement points to walk ``path`` (the first hex is where the unit stands)."""
        total = 0
        for h in path[1:]:
            c = self.move_cost(h)
            if c is None:
                raise ValueError(f"{h} cannot be entered")
            total += c
        return total


def map_rulesets(value: object) -> tuple[str, ...]:
    """The ruleset ids of a map's ``rulesets`` property ("frontier, Rift" -> ("frontier", "rift"))."""
    if not isinstance(value, str):
        return ()
    return tuple(dict.fromkeys(part.strip().lower() for part in value.split(",") if part.strip()))


# --------------------------------------------------------------------------------------------------
# building


def _bitset(values: bytearray | list[int], value: int) -> int:
    """The bit set of the indexes whose entry equals ``value``, built in linear time (one OR per entry on
    a growing big integer would be quadratic on a large map): the entries as bytes, reversed, translated
    to '1' and '0' by a table and read as one base-2 number, all at C speed."""
    if not values:
        return 0
    if 0 <= value < 256 and (isinstance(values, bytearray) or (min(values) >= 0 and max(values) < 256)):
        table = bytes(0x31 if b == value else 0x30 for b in range(256))
        return int(bytes(values)[::-1].translate(table), 2)
    return int("".join("1" if v == value else "0" for v in reversed(values)), 2)


# Shapes (deploy zones, objective areas) are rasterised within this much work for the whole map (an edge
# meeting a line of centres, or a centre tested: game/zones.py), and may cover this many hexes in all.
MAX_SHAPE_WORK = 2_000_000
MAX_SHAPE_HEXES = 1 << 20


def _hex_rows(geo: TiledHexGeometry, width: int, height: int) -> list[list[Hex]]:
    """Every cell's hex, by row then column (``offset_to_axial`` done a row at a time)."""
    rows: list[list[Hex]] = []
    even = geo.index is StaggerIndex.EVEN
    if geo.axis is StaggerAxis.Y:
        for row in range(height):
            shift = (row + (row & 1)) // 2 if even else (row - (row & 1)) // 2
            rows.append([Hex(col - shift, row) for col in range(width)])
    else:
        shifts = [(col + (col & 1)) // 2 if even else (col - (col & 1)) // 2 for col in range(width)]
        rows.extend([Hex(col, row - shifts[col]) for col in range(width)] for row in range(height))
    return rows


_TERRAIN_KEYS = frozenset(
    {"terrain", "\0name", "impassable", "blocks_sight", "cover", "move_cost", "destructible"}
)


class _Stacking(dict[tuple[int, int], int]):
    """Laying tiles over each other, a layer at a time for every cell at once.

    A cell's *state* is what its tiles so far say about its terrain (the properties :func:`_stack` has
    gathered, :data:`_TERRAIN_KEYS` only), numbered as first met; ``self[(state, raw gid)]`` is the state
    after laying that tile on it. A map has few states and few tiles, so after the first of each pair a
    layer costs one C-level dict lookup per cell (``map`` over ``zip``), however many layers and however
    different the cells' stacks."""

    def __init__(self, valid_props: Mapping[int, Mapping[str, PropertyValue]]) -> None:
        super().__init__()
        self.valid_props = {
            gid: {k: v for k, v in props.items() if k in _TERRAIN_KEYS} for gid, props in valid_props.items()
        }
        self.states: list[dict[str, PropertyValue]] = [{}]
        self._numbers: dict[tuple[tuple[str, PropertyValue], ...], int] = {(): 0}
        self._terrains: list[Terrain] = []

    def __missing__(self, key: tuple[int, int]) -> int:
        state, raw = key
        gid = raw & GID_MASK
        props = self.valid_props.get(gid) if gid else None
        result = state
        if props is not None:
            stacked = dict(self.states[state])
            _stack(stacked, props)
            signature = tuple(sorted(stacked.items()))
            result = self._numbers.get(signature, len(self.states))
            if result == len(self.states):
                self._numbers[signature] = result
                self.states.append(stacked)
        self[key] = result
        return result

    def terrain(self, state: int) -> Terrain:
        while len(self._terrains) < len(self.states):
            self._terrains.append(_terrain_from(self.states[len(self._terrains)]))
        return self._terrains[state]


def build_battlefield(tmap: TiledMap) -> tuple[Battlefield, list[MapProblem]]:
    """A battlefield (lenient: wrong values are ignored) and every convention problem found.

    Bounded for every map the loader accepts (docs/RELIABILITY.md): tiles are stacked a layer at a time
    for all cells at once (:class:`_Stacking`), zones are rasterised (:mod:`game.zones`) within
    :data:`MAX_SHAPE_WORK`, and every per-hex step is a pass over flat rows."""
    b = _Build(tmap)
    geo = tmap.geometry
    file = str(tmap.path)
    width, height = tmap.width, tmap.height

    # Map properties
    for name, value in tmap.properties.items():
        if name not in MAP_PROPERTIES:
            b.add(
                f"unknown map property '{name}'",
                f"remove or rename it (map properties: {', '.join(MAP_PROPERTIES)})",
            )
        elif not isinstance(value, str):
            b.add(
                f"map property '{name}' is {_kind(value)}, not a string", f"make '{name}' a string property"
            )

    # Tile properties: checked once per tile, used through a cache of the valid ones.
    valid_props: dict[int, dict[str, PropertyValue]] = {}
    for gid, info in sorted(tmap.tiles.items()):
        good: dict[str, PropertyValue] = {}
        for name, value in info.properties.items():
            problem = terrain_value_problem(name, value)
            if problem is None:
                good[name] = value
            else:
                b.problems.append(
                    MapProblem(
                        info.source or file,
                        f"tile {info.local_id} of tileset '{info.tileset}': {problem[0]}",
                        problem[1] + " (Tiled: Tileset editor, select the tile, Custom Properties)",
                    )
                )
        # The hex's name: an explicit 'terrain', else the tile's class, else (weakly) the tileset's name.
        if "terrain" not in good:
            if info.tile_class:
                good["terrain"] = info.tile_class
            else:
                good["\0name"] = info.tileset
        valid_props[gid] = good

    # Terrain, bottom to top: a tile overrides only the properties it sets.
    rule_layers = []
    for layer in tmap.tile_layers():
        if "decoration" in layer.properties and not isinstance(layer.properties["decoration"], bool):
            b.add(
                "'decoration' is not a bool",
                "delete it and add it again as a bool property (a tick box)",
                layer=layer.name,
            )
        if not (layer.decoration or not layer.visible):
            rule_layers.append(layer)
    hex_rows = _hex_rows(geo, width, height)
    stacking = _Stacking(valid_props)
    states: list[list[int]] = []  # [row][col] -> the cell's state after every rule layer
    for row in range(height):
        state = [0] * width
        for layer in rule_layers:
            state = list(map(stacking.__getitem__, zip(state, layer.raw[row], strict=True)))
        states.append(state)
    terrain_of = [stacking.terrain(n) for n in range(len(stacking.states))]
    terrain: dict[Hex, Terrain] = {}
    for row in range(height):
        terrain.update(zip(hex_rows[row], map(terrain_of.__getitem__, states[row]), strict=True))

    def hex_at(px: float, py: float) -> Hex | None:
        if not (math.isfinite(px) and math.isfinite(py)):
            return None
        col, row = geo.pixel_to_cell(px, py)
        if 0 <= col < width and 0 <= row < height:
            return hex_rows[row][col]
        return None

    doors: list[Door] = []
    items: dict[Hex, list[str]] = {}
    zones: list[DeployZone] = []
    objectives: list[Objective] = []
    shaped: list[tuple[MapObject, tuple[float, float], str]] = []
    object_props: dict[Hex, dict[str, PropertyValue]] = {}  # hexes a tile object stands on
    for olayer in tmap.object_layers():
        for obj in olayer.objects:
            where = f"object {obj.id}" + (f" '{obj.name}'" if obj.name else "")
            good = {}
            for name, value in obj.properties.items():
                problem = object_value_problem(name, value)
                if problem is None:
                    good[name] = value
                else:
                    b.add(f"{where}: {problem[0]}", problem[1], layer=olayer.name)
            cx, cy = object_center(obj, olayer.offset, tmap)
            at = hex_at(cx, cy)
            point_like = obj.shape in ("point", "tile") or "door" in good or "item" in good
            if at is None and point_like and (good or obj.shape == "tile"):
                b.add(
                    f"{where} lies outside the map (its centre is at pixel {cx:.0f},{cy:.0f})",
                    "move it onto the map or delete it",
                    layer=olayer.name,
                )
                continue
            if obj.shape == "tile" and at is not None and obj.visible and olayer.visible:
                if at not in object_props:
                    col, row = geo.to_cell(at)
                    object_props[at] = dict(stacking.states[states[row][col]])
                tile_props = dict(valid_props.get(obj.raw_gid & GID_MASK, {}))
                tile_props.update({k: v for k, v in good.items() if terrain_value_problem(k, v) is None})
                _stack(object_props[at], tile_props)
            if at is not None and "door" in good:
                if any(d.hex == at for d in doors):
                    b.add(f"{where}: a second door on the same hex", "delete one of them", layer=olayer.name)
                else:
                    doors.append(Door(at, good["door"] == "open", obj.id, obj.name))
            if at is not None and "item" in good:
                items.setdefault(at, []).append(str(good["item"]))
            if "deploy" in good:
                if obj.shape not in ZONE_SHAPES:
                    b.add(
                        f"{where}: a deploy zone must be a rectangle, ellipse or polygon, not a {obj.shape}",
                        "draw the zone with the Rectangle or Polygon tool and give it the 'deploy' property",
                        layer=olayer.name,
                    )
                else:
                    shaped.append((obj, olayer.offset, "deploy:" + str(good["deploy"])))
            if "objective" in good:
                kind = str(good["objective"])
                if obj.shape in ZONE_SHAPES:
                    shaped.append((obj, olayer.offset, "objective:" + kind))
                elif at is not None:
                    objectives.append(Objective(kind, obj.id, obj.name, frozenset({at})))
                else:
                    b.add(
                        f"{where}: the objective lies outside the map",
                        "move it onto the map",
                        layer=olayer.name,
                    )
    for at, props in object_props.items():
        terrain[at] = _terrain_from(props)

    lines = CentreLines(geo, width, height) if shaped else None
    budget = Budget(MAX_SHAPE_WORK)
    covered = unchecked = 0
    for obj, offset, what in shaped:
        assert lines is not None
        where = f"object {obj.id}" + (f" '{obj.name}'" if obj.name else "")
        kind, value = what.split(":", 1)
        label = "deploy zone" if kind == "deploy" else "objective"
        cells = covered_cells(obj, offset, lines, budget)
        if cells is None or covered + len(cells) > MAX_SHAPE_HEXES:
            unchecked += 1
            if unchecked == 1:
                b.add(
                    f"{where}: the {label} is too complex to check: the map's zones and objective areas "
                    f"together would take more than {MAX_SHAPE_WORK:,} steps or cover more than "
                    f"{MAX_SHAPE_HEXES:,} hexes",
                    "draw zones as rectangles or polygons of a few points, and only as many as the map needs",
                )
            continue
        covered += len(cells)
        cells.sort()
        inside = frozenset(hex_rows[row][col] for col, row in cells)
        if not inside:
            b.add(
                f"{where}: the {label} covers no hex centre",
                "make the shape cover the centres of the hexes it means (or move it onto the map)",
            )
            continue
        if kind == "deploy":
            zones.append(DeployZone(value, obj.id, inside))
            bad = sorted((col, row) for col, row in cells if terrain[hex_rows[row][col]].impassable)
            if bad:
                listed = " ".join(f"{c},{r}" for c, r in bad[:20]) + (" ..." if len(bad) > 20 else "")
                b.add(
                    f"{where}: deploy zone '{value}' includes {len(bad)} impassable hex(es): cells {listed}",
                    "reshape the zone so it covers only hexes units can stand on",
                    cell=bad[0],
                )
        else:
            objectives.append(Objective(value, obj.id, obj.name, inside))

    if unchecked > 1:
        b.add(
            f"{unchecked - 1} more deploy zones or objective areas were not checked, for the same reason",
            "draw fewer or simpler zones",
        )

    for door in doors:
        if terrain[door.hex].impassable:
            b.add(
                f"door object {door.object_id} stands on an impassable hex, so no one can walk through it",
                "put the door in the gap of the wall (a passable hex), or clear 'impassable' there",
                cell=geo.to_cell(door.hex),
            )

    sides = sorted({z.side for z in zones})
    if not zones:
        b.add(
            "the map has no deploy zones",
            "add an object layer with a rectangle per side and the property deploy = side1, side2 ...",
        )
    elif len(sides) < 2:
        b.add(
            f"the map has deploy zones for only one side ({sides[0]})",
            "add a zone with deploy = side2 (every side needs a zone)",
        )

    battlefield = Battlefield(
        geo,
        width,
        height,
        terrain,
        doors=doors,
        items={h: tuple(v) for h, v in items.items()},
        zones=zones,
        objectives=objectives,
        properties=tmap.properties,
        file_hash=tmap.file_hash,
    )
    return battlefield, b.problems


def _stack(props: dict[str, PropertyValue], layer_props: Mapping[str, PropertyValue]) -> None:
    """Lay one tile's properties over a hex's: the keys it sets override; a tileset name only names a hex
    that has no better name yet."""
    for name, value in layer_props.items():
        if name == "\0name":
            if "terrain" not in props:
                props["\0name"] = value
        else:
            props[name] = value


_TERRAIN_CACHE: dict[tuple[object, ...], Terrain] = {}


def _terrain_from(props: Mapping[str, PropertyValue]) -> Terrain:
    name = props.get("terrain", props.get("\0name", DEFAULT_TERRAIN_NAME))
    key = (
        str(name),
        bool(props.get("impassable", False)),
        bool(props.get("blocks_sight", False)),
        _COVER_NAMES.get(str(props.get("cover", "none")), Cover.NONE),
        int(props.get("move_cost", 1)),
        bool(props.get("destructible", False)),
    )
    terrain = _TERRAIN_CACHE.get(key)
    if terrain is None:
        terrain = Terrain(*key)
        if len(_TERRAIN_CACHE) < 4096:
            _TERRAIN_CACHE[key] = terrain
    return terrain


_LOADED: dict[tuple[object, ...], Battlefield] = {}
_LOADED_LIMIT = 16
_TILESET_SOURCE = re.compile(rb'<tileset[^>]*\ssource="([^"]+)"')


def _cache_key(path: Path) -> tuple[object, ...] | None:
    """What a loaded map depends on: the .tmx's path and bytes, and each external tileset's size and
    modification time. None when the file cannot be read as a plain small file (the loader then says
    why)."""
    if len(str(path)) > MAX_PATH_CHARS:  # Path.resolve() is quadratic in the path's length
        return None
    try:
        resolved = path.resolve()
        data = read_file(resolved, MAX_CACHED_BYTES, what="map file")
        stamps: list[tuple[str, int, int]] = []
        for source in _TILESET_SOURCE.findall(data):
            tsx = resolved.parent / source.decode("utf-8", "replace")
            st = tsx.stat()
            stamps.append((str(tsx), st.st_mtime_ns, st.st_size))
    except (OSError, ValueError, FileRefusedError):
        return None
    return (str(resolved), hashlib.sha256(data).hexdigest(), tuple(stamps))


MAX_CACHED_BYTES = 4 * 1024 * 1024


def load_battlefield(path: str | Path, *, strict: bool = True) -> Battlefield:
    """Load a .tmx straight into a battlefield (images need not exist); raises MapLoadError only.

    Strict loads are cached per process by the file's content (and its tilesets' stamps): each call
    returns a fresh :meth:`Battlefield.clone` of the one map, so matches share the map and never each
    other's doors or changed terrain."""
    if not strict:
        return Battlefield.from_tiled(load_tiled_map(path, require_images=False), strict=False)
    key = _cache_key(Path(path))
    cached = _LOADED.get(key) if key is not None else None
    if cached is None:
        cached = Battlefield.from_tiled(load_tiled_map(path, require_images=False), strict=True)
        if key is not None:
            if len(_LOADED) >= _LOADED_LIMIT:
                _LOADED.pop(next(iter(_LOADED)))
            _LOADED[key] = cached
    return cached.clone()
