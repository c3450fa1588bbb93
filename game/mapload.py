"""Building a :class:`~game.battlefield.Battlefield` from a Tiled map, bounded in time and memory, with
every convention problem found at once (``build_battlefield``), and loading one from a file with a
per-process cache keyed by the file's content (``load_battlefield``). Conventions: ``docs/MAPS.md``.
The property checks are shared with :mod:`game.mapcheck`.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from game.battlefield import (
    _COVER_NAMES,
    DEFAULT_TERRAIN_NAME,
    MAP_INT_PROPERTIES,
    MAP_PROPERTIES,
    SIDES,
    ZONE_SHAPES,
    Battlefield,
    Cover,
    DeployZone,
    Door,
    Objective,
    Terrain,
)
from game.hexgrid import (
    Hex,
    StaggerAxis,
    StaggerIndex,
    TiledHexGeometry,
)
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
    "MAX_SHAPE_HEXES",
    "MAX_SHAPE_WORK",
    "battlefield_from",
    "build_battlefield",
    "load_battlefield",
    "object_center",
    "object_value_problem",
    "terrain_value_problem",
]


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


# --------------------------------------------------------------------------------------------------
# building


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
        elif name in MAP_INT_PROPERTIES:
            low, high = MAP_INT_PROPERTIES[name]
            if not isinstance(value, int) or isinstance(value, bool):
                b.add(
                    f"map property '{name}' is {_kind(value)}, not an int", f"make '{name}' an int property"
                )
            elif not low <= value <= high:
                b.add(
                    f"map property '{name}' is {value}", f"give '{name}' a whole number from {low} to {high}"
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


def battlefield_from(tmap: TiledMap, *, strict: bool = True) -> Battlefield:
    """Build from a loaded map; ``strict`` raises :class:`MapLoadError` on any convention problem."""
    battlefield, problems = build_battlefield(tmap)
    if strict and problems:
        raise MapLoadError(problems)
    return battlefield


def load_battlefield(path: str | Path, *, strict: bool = True) -> Battlefield:
    """Load a .tmx straight into a battlefield (images need not exist); raises MapLoadError only.

    Strict loads are cached per process by the file's content (and its tilesets' stamps): each call
    returns a fresh :meth:`Battlefield.clone` of the one map, so matches share the map and never each
    other's doors or changed terrain."""
    if not strict:
        return battlefield_from(load_tiled_map(path, require_images=False), strict=False)
    key = _cache_key(Path(path))
    cached = _LOADED.get(key) if key is not None else None
    if cached is None:
        cached = battlefield_from(load_tiled_map(path, require_images=False), strict=True)
        if key is not None:
            if len(_LOADED) >= _LOADED_LIMIT:
                _LOADED.pop(next(iter(_LOADED)))
            _LOADED[key] = cached
    return cached.clone()
