"""A battle's board as data (issue 15, live maps in the sandbox): what a map means to the rules, as
canonical JSON, and where units go when the board changes under them.

A map reloaded into a battle in GM mode is a command, ``gm_map`` (:mod:`game.engine.gm`), that carries the
new board whole as :func:`board_json` wrote it, so a save or a replay rebuilds exactly the board the battle
was played on, even after the ``.tmx`` (or a tileset) has changed again on disk. A save of a battle whose
board changed also holds the board it started on (:mod:`game.save`), for the same reason.

- :func:`board_json` / :func:`board_from_json` — a :class:`~game.battlefield.Battlefield` (geometry, size,
  each hex's terrain, doors, items, deploy zones, objectives, the map's properties and file hash) to text
  and back; :func:`board_sha` names a board (the digest of a battle whose board changed holds it).
- :func:`carry` — after the board changed, which units keep their hexes (still on the map, one they can
  stand on, not taken) and where each other goes: the nearest free hex it can stand on (by distance, then
  the hex's coordinates), or off the map when the new board has none.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from game.battlefield import Battlefield, Cover, DeployZone, Door, Objective, Terrain
from game.hexgrid import Hex, StaggerAxis, StaggerIndex, TiledHexGeometry, hex_distance

__all__ = [
    "BOARD_FORMAT",
    "BoardError",
    "Carried",
    "board_from_json",
    "board_json",
    "board_sha",
    "carry",
    "why_not",
]

BOARD_FORMAT: Final = 1
MAX_BOARD_SIDE: Final = 1024  # the map loader's own cap on a side (game.tiledmap)
MAX_BOARD_CHARS: Final = 8 * 1024 * 1024


class BoardError(ValueError):
    """A board that cannot be read (a save edited or damaged): the message says what is wrong."""


def _hexes(hexes: frozenset[Hex]) -> list[list[int]]:
    return [[h.q, h.r] for h in sorted(hexes)]


def board_json(battlefield: Battlefield) -> str:
    """The board as canonical JSON text (the same board gives the same text): its geometry and size,
    every cell's terrain (a table of the terrains used, then one index a cell, row by row), the doors as
    the board has them, items, deploy zones, objectives and properties. Give it a board as loaded (a
    match keeps the one it started on untouched, ``Match.first_board``): doors opened and terrain changed
    during a battle are the battle's state, not the board's."""
    geo = battlefield.geometry
    palette: dict[Terrain, int] = {}
    cells: list[int] = []
    for row in range(battlefield.height):
        for col in range(battlefield.width):
            h = geo.to_hex(col, row)
            if not battlefield.in_bounds(h):
                cells.append(-1)
                continue
            cells.append(palette.setdefault(battlefield.terrain_at(h), len(palette)))
    doc: dict[str, Any] = {
        "format": BOARD_FORMAT,
        "file_hash": battlefield.file_hash,
        "geometry": [
            geo.map_tile_width,
            geo.map_tile_height,
            geo.hex_side_length,
            geo.axis.value,
            geo.index.value,
        ],
        "size": [battlefield.width, battlefield.height],
        "terrain": [
            [t.name, t.impassable, t.blocks_sight, int(t.cover), t.move_cost, t.destructible] for t in palette
        ],
        "cells": cells,
        "doors": [
            [d.hex.q, d.hex.r, d.is_open, d.object_id, d.name]
            for d in sorted(battlefield.doors.values(), key=lambda d: d.hex)
        ],
        "items": [[h.q, h.r, list(names)] for h, names in sorted(battlefield.items.items())],
        "zones": [[z.side, z.object_id, _hexes(z.hexes)] for z in battlefield.zones],
        "objectives": [[o.kind, o.object_id, o.name, _hexes(o.hexes)] for o in battlefield.objectives],
        "properties": [[k, v] for k, v in sorted(battlefield.properties.items())],
    }
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def board_sha(text: str) -> str:
    """The name of a board: the sha256 of its :func:`board_json` text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _int(value: Any, what: str, low: int = -(1 << 31), high: int = 1 << 31) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BoardError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _str(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise BoardError(f"{what} must be text, not {type(value).__name__}")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise BoardError(f"{what} must be true or false, not {value!r}")
    return value


def _list(value: Any, what: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        size = f" of {length}" if length is not None else ""
        raise BoardError(f"{what} must be a list{size}")
    return value


def _hex_set(value: Any, what: str, inside: frozenset[Hex]) -> frozenset[Hex]:
    found = set()
    for pair in _list(value, what):
        q, r = _list(pair, what, 2)
        h = Hex(_int(q, what), _int(r, what))
        if h not in inside:
            raise BoardError(f"{what} names {h.q},{h.r}, which is not on the board")
        found.add(h)
    return frozenset(found)


def board_from_json(text: str) -> Battlefield:
    """The board :func:`board_json` wrote; :class:`BoardError` saying what is wrong with anything else."""
    if not isinstance(text, str) or len(text) > MAX_BOARD_CHARS:
        raise BoardError(f"a board is JSON text of at most {MAX_BOARD_CHARS} characters")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise BoardError(f"the board is not JSON ({error})") from None
    if not isinstance(doc, dict):
        raise BoardError("the board must be a JSON object")
    try:
        return _board(doc)
    except BoardError:
        raise
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise BoardError(f"the board is malformed ({type(error).__name__}: {error})") from None


def _board(doc: dict[str, Any]) -> Battlefield:
    if doc.get("format") != BOARD_FORMAT:
        raise BoardError(f"the board's format is {doc.get('format')!r}, not {BOARD_FORMAT}")
    tw, th, side, axis, index = _list(doc["geometry"], "the board's geometry", 5)
    geo = TiledHexGeometry.create(
        _int(tw, "tile width", 1, 1 << 16),
        _int(th, "tile height", 1, 1 << 16),
        _int(side, "hex side", 0, 1 << 16),
        StaggerAxis(_str(axis, "stagger axis")),
        StaggerIndex(_str(index, "stagger index")),
    )
    w, h = _list(doc["size"], "the board's size", 2)
    width, height = _int(w, "width", 1, MAX_BOARD_SIDE), _int(h, "height", 1, MAX_BOARD_SIDE)
    palette = []
    for entry in _list(doc["terrain"], "the terrain table"):
        name, impassable, sight, cover, cost, destructible = _list(entry, "a terrain", 6)
        palette.append(
            Terrain(
                _str(name, "a terrain's name"),
                _bool(impassable, "impassable"),
                _bool(sight, "blocks_sight"),
                Cover(_int(cover, "cover", 0, int(Cover.FULL))),
                _int(cost, "move_cost", 1, 1000),
                _bool(destructible, "destructible"),
            )
        )
    cells = _list(doc["cells"], "the board's cells", width * height)
    terrain: dict[Hex, Terrain] = {}
    for i, cell in enumerate(cells):
        k = _int(cell, "a cell", -1, len(palette) - 1)
        if k >= 0:
            terrain[geo.to_hex(i % width, i // width)] = palette[k]
    inside = frozenset(terrain)
    doors = []
    for entry in _list(doc["doors"], "the doors"):
        q, r, is_open, object_id, name = _list(entry, "a door", 5)
        where = Hex(_int(q, "a door's q"), _int(r, "a door's r"))
        if where not in inside:
            raise BoardError(f"a door at {where.q},{where.r} is not on the board")
        doors.append(
            Door(where, _bool(is_open, "a door's state"), _int(object_id, "a door's id"), _str(name, "name"))
        )
    items: dict[Hex, tuple[str, ...]] = {}
    for entry in _list(doc["items"], "the items"):
        q, r, names = _list(entry, "an item entry", 3)
        where = Hex(_int(q, "an item's q"), _int(r, "an item's r"))
        items[where] = tuple(_str(n, "an item's name") for n in _list(names, "an item's names"))
    zones = [
        DeployZone(_str(s, "a zone's side"), _int(i, "a zone's id"), _hex_set(hs, "a deploy zone", inside))
        for s, i, hs in (_list(z, "a deploy zone", 3) for z in _list(doc["zones"], "the deploy zones"))
    ]
    objectives = [
        Objective(
            _str(k, "kind"),
            _int(i, "an objective's id"),
            _str(n, "name"),
            _hex_set(hs, "an objective", inside),
        )
        for k, i, n, hs in (_list(o, "an objective", 4) for o in _list(doc["objectives"], "the objectives"))
    ]
    properties = {}
    for entry in _list(doc["properties"], "the properties"):
        key, value = _list(entry, "a property", 2)
        if not isinstance(value, str | int | float | bool):
            raise BoardError(f"the property {key!r} has a value of type {type(value).__name__}")
        properties[_str(key, "a property's name")] = value
    return Battlefield(
        geo,
        width,
        height,
        terrain,
        doors=doors,
        items=items,
        zones=zones,
        objectives=objectives,
        properties=properties,
        file_hash=_str(doc["file_hash"], "the board's file hash"),
    )


K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Carried(Generic[K]):
    """Where the units stand on a new board: ``kept`` on their hexes; ``moved`` to another hex, with why
    their own would not do; ``aside`` (off the map, placed again by the GM) with why."""

    kept: dict[K, Hex]
    moved: dict[K, tuple[Hex, str]]
    aside: dict[K, str]


def why_not(where: Hex, battlefield: Battlefield, taken: set[Hex]) -> str | None:
    """Why a unit may not stay on ``where`` of ``battlefield`` (``taken``: hexes already held), or None."""
    if not battlefield.in_bounds(where):
        return "its hex is off the map now"
    if not battlefield.is_passable(where):
        door = battlefield.door_at(where)
        what = (
            "a closed door" if door is not None and not door.is_open else battlefield.terrain_at(where).name
        )
        return f"its hex is impassable now ({what})"
    if where in taken:
        return "its hex is taken by another unit"
    return None


def carry(positions: Mapping[K, Hex], battlefield: Battlefield, *, stacking: bool = False) -> Carried[K]:
    """Which units keep their hexes on ``battlefield`` (a hex must be on the map, passable, and, unless
    ``stacking``, hold one unit: of two on one hex the first in ``positions`` keeps it), and where the
    others go: the nearest free passable hex (fewest steps, then the lowest coordinates), or aside."""
    kept: dict[K, Hex] = {}
    taken: set[Hex] = set()
    displaced: dict[K, str] = {}
    for unit, where in positions.items():
        reason = why_not(where, battlefield, taken if not stacking else set())
        if reason is None:
            kept[unit] = where
            taken.add(where)
        else:
            displaced[unit] = reason
    moved: dict[K, tuple[Hex, str]] = {}
    aside: dict[K, str] = {}
    if displaced:
        free = sorted(h for h in battlefield.hexes if battlefield.is_passable(h))
        for unit, reason in displaced.items():
            origin = positions[unit]
            spots = [h for h in free if stacking or h not in taken]
            if not spots:
                aside[unit] = f"{reason}, and the map has no free hex left"
                continue
            spot = min(spots, key=lambda h: (hex_distance(origin, h), h))
            moved[unit] = (spot, reason)
            taken.add(spot)
    return Carried(kept, moved, aside)
