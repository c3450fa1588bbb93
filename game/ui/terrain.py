"""What the status line says about a hex, read from :mod:`game.battlefield` when it is there.

``game.battlefield`` is the rules' reading of the map. Until it offers ``Battlefield.from_tiled`` and
``terrain_at``, this adapter reads the same tile properties straight from the TiledMap (later
non-decoration layers override earlier ones), so the status line works either way.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from game.hexgrid import Hex
from game.tiledmap import PropertyValue, TiledMap


@dataclass(frozen=True, slots=True)
class HexReport:
    """The facts about one hex the UI shows; wording and colours are the UI's business."""

    col: int
    row: int
    hex: Hex
    terrain: str
    cover: str
    move_cost: int | None
    impassable: bool
    blocks_sight: bool


class TerrainLookup:
    """Answers "what is at this cell" for the status line."""

    def __init__(self, tmap: TiledMap) -> None:
        self.map = tmap
        self.battlefield: Any = _battlefield_for(tmap)
        self._cache: dict[tuple[int, int], HexReport | None] = {}

    @property
    def source(self) -> str:
        return "game.battlefield" if self.battlefield is not None else "tile properties"

    def report(self, col: int, row: int) -> HexReport | None:
        if not (0 <= col < self.map.width and 0 <= row < self.map.height):
            return None
        key = (col, row)
        if key not in self._cache:
            self._cache[key] = self._report(col, row)
        return self._cache[key]

    def _report(self, col: int, row: int) -> HexReport:
        h = self.map.geometry.to_hex(col, row)
        if self.battlefield is not None:
            try:
                terrain = self.battlefield.terrain_at(h)
            except (KeyError, ValueError, IndexError):
                terrain = None
            if terrain is not None:
                return HexReport(
                    col=col,
                    row=row,
                    hex=h,
                    terrain=str(_first_attr(terrain, ("name", "terrain", "kind"), "open ground")),
                    cover=_cover_name(_first_attr(terrain, ("cover",), "none")),
                    move_cost=_int_or_none(_first_attr(terrain, ("move_cost",), 1)),
                    impassable=bool(_first_attr(terrain, ("impassable",), False)),
                    blocks_sight=bool(_first_attr(terrain, ("blocks_sight",), False)),
                )
        return self._from_tile_properties(col, row, h)

    def _from_tile_properties(self, col: int, row: int, h: Hex) -> HexReport:
        props: dict[str, PropertyValue] = {}
        name = ""
        for layer in self.map.tile_layers():
            if layer.decoration or row >= layer.height or col >= layer.width:
                continue
            cell = layer.cell(col, row)
            if cell is None:
                continue
            info = self.map.tiles.get(cell.gid)
            if info is None:
                continue
            props.update(info.properties)
            name = str(info.properties.get("terrain", "") or info.tile_class or name)
        return HexReport(
            col=col,
            row=row,
            hex=h,
            terrain=name or "open ground",
            cover=_cover_name(props.get("cover", "none")),
            move_cost=_int_or_none(props.get("move_cost", 1)),
            impassable=bool(props.get("impassable", False)),
            blocks_sight=bool(props.get("blocks_sight", False)),
        )


def _battlefield_for(tmap: TiledMap) -> Any:
    try:
        module = importlib.import_module("game.battlefield")
    except ImportError:
        return None
    factory = getattr(getattr(module, "Battlefield", None), "from_tiled", None)
    if factory is None:
        return None
    try:
        battlefield = factory(tmap)
    except Exception:
        return None
    return battlefield if hasattr(battlefield, "terrain_at") else None


def _first_attr(obj: object, names: tuple[str, ...], default: object) -> object:
    for name in names:
        value = getattr(obj, name, None)
        if value is not None:
            return getattr(value, "value", value) if name == "cover" else value
    return default


def _cover_name(value: object) -> str:
    text = str(getattr(value, "name", value)).lower()
    return text if text in {"none", "half", "full"} else str(value).lower()


def _int_or_none(value: object) -> int | None:
    try:
        return int(value)  # type: ignore[call-overload, no-any-return]
    except (TypeError, ValueError):
        return None
