"""A Tiled hexagonal map as plain data (:class:`TiledMap` and its layers, tiles, cells and objects),
headless: what :func:`~game.tiledmap.load_tiled_map` returns, read by the rules and the renderer alike.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from game.hexgrid import TiledHexGeometry

__all__ = [
    "FLIP_DIAGONAL",
    "FLIP_HORIZONTAL",
    "FLIP_VERTICAL",
    "GID_MASK",
    "ROTATE_HEX_120",
    "Cell",
    "ImageLayer",
    "Layer",
    "MapObject",
    "ObjectLayer",
    "PropertyValue",
    "TileInfo",
    "TileLayer",
    "TiledMap",
    "iter_cells",
]

# Tiled's gid flag bits (tiled/src/libtiled/map.h / gidmapper.cpp).
FLIP_HORIZONTAL = 0x80000000
FLIP_VERTICAL = 0x40000000
FLIP_DIAGONAL = 0x20000000
ROTATE_HEX_120 = 0x10000000
GID_MASK = 0x0FFFFFFF

PropertyValue = str | int | float | bool


@dataclass(frozen=True, slots=True)
class TileInfo:
    """One tileset tile: where its picture is and what it means to the rules."""

    gid: int  # global id without flag bits
    tileset: str  # tileset name
    local_id: int
    image: Path | None  # absolute path of the image file holding the picture (None when missing)
    rect: tuple[int, int, int, int]  # x, y, w, h of the picture inside ``image``
    offset: tuple[int, int]  # the tileset's <tileoffset>
    render_size: tuple[
        int, int
    ]  # size Tiled draws it at (tilerendersize="tile" -> rect size, "grid" -> map tile)
    properties: dict[str, PropertyValue]
    tile_class: str = ""
    source: str = ""  # the file the tileset is defined in: its .tsx, or the map for an embedded tileset


@dataclass(frozen=True, slots=True)
class Cell:
    """A placed tile: gid without flags plus the decoded flags (hex maps use flip_d as a 60-degree turn)."""

    gid: int
    flip_h: bool = False
    flip_v: bool = False
    flip_d: bool = False
    rotate_120: bool = False

    @classmethod
    def from_raw(cls, raw: int) -> Cell:
        return cls(
            gid=raw & GID_MASK,
            flip_h=bool(raw & FLIP_HORIZONTAL),
            flip_v=bool(raw & FLIP_VERTICAL),
            flip_d=bool(raw & FLIP_DIAGONAL),
            rotate_120=bool(raw & ROTATE_HEX_120),
        )


@dataclass(slots=True)
class TileLayer:
    name: str
    width: int
    height: int
    raw: list[list[int]]  # raw[row][col] = gid with flag bits, 0 = empty
    visible: bool = True
    opacity: float = 1.0
    offset: tuple[float, float] = (0.0, 0.0)  # total pixel offset, parent groups included
    tint: str | None = None
    properties: dict[str, PropertyValue] = field(default_factory=dict)

    def cell(self, col: int, row: int) -> Cell | None:
        raw = self.raw[row][col]
        return Cell.from_raw(raw) if raw & GID_MASK else None

    @property
    def decoration(self) -> bool:
        """A layer with ``decoration = true`` is drawn but ignored by the rules (roofs, shadows)."""
        return bool(self.properties.get("decoration", False))


@dataclass(slots=True)
class MapObject:
    id: int
    name: str
    object_class: str  # Tiled 1.9+ "class" (older "type")
    x: float  # as in the file: top-left for shapes, bottom-left for tile objects
    y: float
    width: float
    height: float
    rotation: float = 0.0
    raw_gid: int = 0  # tile objects: gid with flag bits, else 0
    points: list[tuple[float, float]] | None = None  # polygon/polyline, absolute map pixels
    shape: str = "rectangle"  # rectangle | ellipse | point | polygon | polyline | tile | text
    visible: bool = True
    properties: dict[str, PropertyValue] = field(default_factory=dict)

    @property
    def cell(self) -> Cell | None:
        return Cell.from_raw(self.raw_gid) if self.raw_gid & GID_MASK else None


@dataclass(slots=True)
class ObjectLayer:
    name: str
    objects: list[MapObject]
    visible: bool = True
    opacity: float = 1.0
    offset: tuple[float, float] = (0.0, 0.0)
    draw_order: str = "topdown"  # Tiled's draworder: topdown (sorted by y) or index
    properties: dict[str, PropertyValue] = field(default_factory=dict)


@dataclass(slots=True)
class ImageLayer:
    name: str
    image: Path | None
    visible: bool = True
    opacity: float = 1.0
    offset: tuple[float, float] = (0.0, 0.0)
    properties: dict[str, PropertyValue] = field(default_factory=dict)


Layer = TileLayer | ObjectLayer | ImageLayer


@dataclass(slots=True)
class TiledMap:
    """Everything the game needs from a ``.tmx``, in file order, headless."""

    path: Path
    width: int
    height: int
    geometry: TiledHexGeometry
    layers: list[Layer]  # file order, group layers flattened (offset/opacity/visibility combined)
    tiles: dict[int, TileInfo]  # by gid (no flag bits)
    properties: dict[str, PropertyValue]
    background: str | None = None  # "#rrggbb" / "#aarrggbb" or None
    file_hash: str = ""  # sha256 of the .tmx bytes (saves record it)

    @property
    def pixel_size(self) -> tuple[int, int]:
        return self.geometry.map_pixel_size(self.width, self.height)

    def tile_layers(self) -> list[TileLayer]:
        return [layer for layer in self.layers if isinstance(layer, TileLayer)]

    def object_layers(self) -> list[ObjectLayer]:
        return [layer for layer in self.layers if isinstance(layer, ObjectLayer)]


def iter_cells(layer: TileLayer) -> Iterator[tuple[int, int, Cell]]:
    """Every non-empty cell of a tile layer as (col, row, cell), row-major."""
    for row, values in enumerate(layer.raw):
        for col, raw in enumerate(values):
            if raw & GID_MASK:
                yield col, row, Cell.from_raw(raw)
