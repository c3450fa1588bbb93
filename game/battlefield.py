"""The map as the rules see it: terrain per hex, doors, items, deploy zones, objectives, and fast queries.

Built from a :class:`~game.tiledmap.TiledMap` (never pygame). Conventions: ``docs/MAPS.md``.

Decisions (also in docs/MAPS.md):

* **Line of sight** runs centre to centre. ``hexgrid.hex_lines`` gives two epsilon-nudged lines; they
  differ only where the true line runs along hex edges. Sight exists if *either* line is clear of
  sight-blocking hexes (walls, closed doors); the two end hexes never block.
* **Cover**: the target gets the cover of the hex on the line that is adjacent to it (the last hex
  before the target). With two lines, the target gets the better of the two (the rulebook's words are
  quoted in docs/RULES.md, R8). A sight-blocking hex there (a wall beside the target that one line
  grazes) counts as full cover. Adjacent units get no cover from terrain. ``cover_between`` does not
  check sight: ask ``line_of_sight`` first.

Speed: hexes are numbered into flat arrays (``bytearray`` flags, ``list`` costs) with a border of padding,
so a neighbour or a point on a line is one integer addition away. Lines depend only on ``b - a``; each
offset vector's two lines are computed once and cached as integer deltas.
"""

from __future__ import annotations

import copy
import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import IntEnum

from game.hexgrid import (
    DIRECTIONS,
    Hex,
    TiledHexGeometry,
    hex_distance,
)
from game.hexgrid import hexes_within as _hexes_within
from game.sightlines import MEMO_LIMIT, LineTable, line_mask, offset_lines
from game.tiledmap import (
    PropertyValue,
)

__all__ = [
    "SIDES",
    "Battlefield",
    "Cover",
    "DeployZone",
    "Door",
    "Objective",
    "Terrain",
    "map_rulesets",
]

SIDES = ("side1", "side2", "side3", "side4")
MAP_PROPERTIES = ("title", "description", "rulesets", "author", "max_rounds", *(f"{s}_name" for s in SIDES))
# the one map property that is a number: the encounter's round limit on this map (Hexslinger's own)
MAP_INT_PROPERTIES = {"max_rounds": (1, 1000)}
ZONE_SHAPES = ("rectangle", "polygon", "ellipse")


DEFAULT_TERRAIN_NAME = "open ground"


class Cover(IntEnum):
    """Cover a target gets; ordered so ``max`` picks the better cover."""

    NONE = 0
    HALF = 1
    FULL = 2


_COVERS = (Cover.NONE, Cover.HALF, Cover.FULL)
_COVER_NAMES = {"none": Cover.NONE, "half": Cover.HALF, "full": Cover.FULL}
REACH_MEMO_LIMIT = 4096  # reach_layers answers kept per set of move costs (a map and its clones)


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
        # reach_layers' answers for these move costs (a new dict whenever they change; clones share it)
        self._reach_memo: dict[tuple[int, int, int], list[int]] = {}
        self._hexes_memo: dict[int, tuple[Hex, ...]] = {}  # hexes_of's answers (the map's, shared by clones)
        self._key_of = key_of
        self._size = size
        self._lines: dict[tuple[int, int], LineTable] = {}
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
                self._reach_memo = {}
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
    def max_rounds(self) -> int | None:
        """The map's own round limit (a big map needs more rounds to cross), None: the ruleset's."""
        value = self.properties.get("max_rounds")
        low, high = MAP_INT_PROPERTIES["max_rounds"]
        if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            return value
        return None

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
    def _line_table(self, dq: int, dr: int) -> LineTable:
        table = self._lines.get((dq, dr))
        if table is None:
            stride = self._stride
            line1, line2 = offset_lines(dq, dr)
            key1 = [r * stride + q for q, r in line1]
            if line1 == line2:  # not ambiguous (most offsets): one mask, nothing line-specific
                mid = key1[1:-1]
                ends = (key1[-2], key1[-2]) if len(key1) > 1 else (0, 0)
                starts = (key1[1], key1[1]) if len(key1) > 1 else (0, 0)
                table = LineTable(line_mask(mid), (0, 0), (0, 0), ends, starts)
            else:
                key2 = [r * stride + q for q, r in line2]
                mid1, mid2 = key1[1:-1], key2[1:-1]
                set1, set2 = set(mid1), set(mid2)
                table = LineTable(
                    common=line_mask(d for d in mid1 if d in set2),
                    only1=line_mask(d for d in mid1 if d not in set2),
                    only2=line_mask(d for d in mid2 if d not in set1),
                    before_target=(key1[-2], key2[-2]) if len(key1) > 1 else (0, 0),
                    after_source=(key1[1], key2[1]) if len(key1) > 1 else (0, 0),
                )
            self._lines[(dq, dr)] = table
        return table

    def _clear(self, ka: int, table: LineTable) -> bool:
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
        if len(self._los_memo) >= MEMO_LIMIT:
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
        line1, line2 = offset_lines(b.q - a.q, b.r - a.r)
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

    def _around(self, bits: int) -> int:
        """The hex numbers next to any of ``bits`` (one shift per neighbour offset; padding included)."""
        around = 0
        for s in self._steps:
            around |= (bits << s) if s > 0 else (bits >> -s)
        return around

    def walking_costs(self, starts: Iterable[Hex], budget: int) -> dict[Hex, int]:
        """Every hex within ``budget`` of the nearest of ``starts`` -> that cheapest walking cost (what
        :meth:`reachable` gives from each start, the least of them), in one search from all the starts at
        once with the bit sets of :meth:`reach_layers`; it stops when nothing new is reached, however
        large the budget (a whole-map field costs a few hundred integer operations, not a heap walk)."""
        key_of = self._key_of
        reached = 0
        for h in starts:
            k = key_of.get((h.q, h.r))
            if k is not None:
                reached |= 1 << k
        if not reached or budget < 0:
            return {}
        masks = list(self._cost_masks.items())
        hex_of = self._hex_of
        layers = {0: reached}
        out: dict[Hex, int] = {}
        g, top = 0, 0
        while g <= top:
            layer = layers.pop(g, 0)
            if layer:
                for k in self.keys_of(layer):
                    out[hex_of[k]] = g  # type: ignore[index]
                around = self._around(layer) & ~reached
                for c, mask in masks:
                    found = around & mask
                    if found and g + c <= budget:
                        layers[g + c] = layers.get(g + c, 0) | found
                        reached |= found
                        top = max(top, g + c)
            g += 1
        return out

    def reach_layers(self, start: Hex, budget: int, blocked: frozenset[Hex] = frozenset()) -> list[int]:
        """Every hex reachable from ``start`` within ``budget`` movement points, as bit sets by cost:
        ``layers[g]`` has bit k set for hex number k whose cheapest cost is g (``layers[0]`` is the start).

        Entering a hex costs its ``move_cost``; impassable hexes, closed doors and ``blocked`` hexes cannot
        be entered. The search grows the reached set a cost layer at a time with shifts of one big integer
        (the six neighbour offsets are fixed distances between hex numbers), so it costs a few dozen
        integer operations however many hexes it reaches. A hex's cheapest cost is its neighbour's in the
        first layer that touches it plus its own cost: costs belong to the hex entered, so no later layer
        can do better.

        Kept for the start, the budget and the blocked hexes within the budget's distance of the start (no
        walk within the budget reaches the others: every hex entered costs 1 or more) while the move costs
        stay as they are: the AI asks for the same walks decision after decision. The layers returned are
        shared: never change them."""
        ks = self._key_or_none(start)
        if ks is None or budget < 0:
            return []
        key_of = self._key_of
        stop = 0
        sq, sr = start.q, start.r
        for h in blocked:
            k = key_of.get((h.q, h.r))
            dq, dr = h.q - sq, h.r - sr
            if k is not None and abs(dq) + abs(dr) + abs(dq + dr) <= 2 * budget:
                stop |= 1 << k
        memo = self._reach_memo
        found = memo.get((ks, budget, stop))
        if found is not None:
            return found
        if len(memo) >= REACH_MEMO_LIMIT:
            memo.clear()
        layers = memo[(ks, budget, stop)] = self._search(ks, budget, stop)
        return layers

    def _search(self, ks: int, budget: int, stop: int) -> list[int]:
        """:meth:`reach_layers` from hex number ``ks``, ``stop`` the bits of the hexes it may not enter."""
        masks = [(c, m & ~stop) for c, m in self._cost_masks.items() if c <= budget]
        reached = 1 << ks
        layers = [reached] + [0] * budget
        for g in range(budget + 1):
            layer = layers[g]
            if not layer:
                continue
            around = self._around(layer) & ~reached
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

    def hexes_back(self, layers: list[int], k: int, g: int) -> tuple[Hex, ...]:
        """The canonical path of a search's ``layers`` (:meth:`reach_layers`) to hex number ``k``, reached
        at cost ``g``: from each hex back to its first neighbour (in direction order) in the layer its own
        cost lower; the start first. (Asked of every place the AI weighs: in one loop over numbers.)"""
        cost, steps, hex_of = self._cost, self._steps, self._hex_of
        keys = [k]
        while g > 0:
            g -= cost[k]
            before = layers[g]
            for step in steps:
                if before >> (k + step) & 1:
                    k += step
                    break
            else:  # pragma: no cover - a reached hex always has a neighbour one cost back
                raise AssertionError("no way back")
            keys.append(k)
        out = [hex_of[x] for x in reversed(keys)]
        assert None not in out
        return tuple(out)  # type: ignore[arg-type]

    def enter_cost(self, k: int) -> int:
        """What entering hex number ``k`` costs now (0: it cannot be entered)."""
        return self._cost[k]

    def hexes_of(self, bits: int) -> tuple[Hex, ...]:
        """The hexes whose bits are set in ``bits``, in map order (row by row), looked up at C speed; kept
        for the bits (the map's hexes never change; the same walks' ends are asked again and again)."""
        memo = self._hexes_memo
        found = memo.get(bits)
        if found is None:
            if len(memo) >= REACH_MEMO_LIMIT:
                memo.clear()
            found = memo[bits] = tuple(map(self._hex_of.__getitem__, self.keys_of(bits)))  # type: ignore[arg-type]
        return found

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
    """The ruleset ids of a map's ``rulesets`` property ("alpha, Beta" -> ("alpha", "beta"))."""
    if not isinstance(value, str):
        return ()
    return tuple(dict.fromkeys(part.strip().lower() for part in value.split(",") if part.strip()))


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
