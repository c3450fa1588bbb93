"""A Tiled hexagonal map as plain data, headless (pytmx, never pygame).

This is the one reading of a ``.tmx`` that both the rules (:mod:`game.battlefield`) and the renderer
(:mod:`game.ui`) use, so they can never disagree about where a tile is. It keeps what pytmx 3.32 loses:
layers in file order (pytmx groups them by type), and the hexagonal 120-degree rotation flag
(``0x10000000``) which pytmx does not decode.

Loading never raises anything but :class:`MapLoadError`, which carries every :class:`MapProblem` found.

How the reading is split between pytmx and ``xml.etree``: the structure (layer order, groups, tilesets,
objects, properties) is read from the XML here, because ``pytmx.TiledMap`` regroups layers by type,
renumbers gids and drops their flag bits, merges tile attributes into tile properties, raises bare
``Exception``/``ValueError`` on maps Tiled writes happily (a custom property named ``name``), and
decompresses layer data without a bound. pytmx does the Base64 layer-data decoding
(``pytmx.pytmx.unpack_gids``: Base64, zlib, gzip) and bool parsing, behind checks that bound the work: the
layer's declared size is checked first and compressed data is inflated with a size limit before pytmx sees
it, so a zip bomb costs at most one layer's worth of bytes; CSV is split and read here at C speed. Every
file is read through :mod:`game.safeio` (regular files only, 32 MB for the map and its tilesets together),
its DTD check made on the decoded text the parser is given, and its tags and attributes counted before
parsing (docs/RELIABILITY.md lists every limit).

The package's modules: :mod:`~game.tiledmap.model` (the plain data), :mod:`~game.tiledmap.problems`
(``MapProblem``, ``MapLoadError``), :mod:`~game.tiledmap.reading` (bounded XML, attributes, properties,
limits, pytmx without pygame), :mod:`~game.tiledmap.tilesets`, :mod:`~game.tiledmap.layers` (tile data,
objects, image layers) and :mod:`~game.tiledmap.loader` (the header, the whole load). Everything public is
importable from ``game.tiledmap`` itself.
"""

from game.tiledmap.loader import load_tiled_map
from game.tiledmap.model import (
    FLIP_DIAGONAL,
    FLIP_HORIZONTAL,
    FLIP_VERTICAL,
    GID_MASK,
    ROTATE_HEX_120,
    Cell,
    ImageLayer,
    Layer,
    MapObject,
    ObjectLayer,
    PropertyValue,
    TiledMap,
    TileInfo,
    TileLayer,
    iter_cells,
)
from game.tiledmap.problems import MapLoadError, MapProblem
from game.tiledmap.reading import (
    MAX_FILE_BYTES,
    MAX_LAYER_CELLS,
    MAX_MAP_SIDE,
    MAX_PROBLEMS_PER_LAYER,
    MAX_TILE_SIZE,
    MAX_TILESET_TILES,
    MAX_TOTAL_CELLS,
)

__all__ = [
    "FLIP_DIAGONAL",
    "FLIP_HORIZONTAL",
    "FLIP_VERTICAL",
    "GID_MASK",
    "MAX_FILE_BYTES",
    "MAX_LAYER_CELLS",
    "MAX_MAP_SIDE",
    "MAX_PROBLEMS_PER_LAYER",
    "MAX_TILESET_TILES",
    "MAX_TILE_SIZE",
    "MAX_TOTAL_CELLS",
    "ROTATE_HEX_120",
    "Cell",
    "ImageLayer",
    "Layer",
    "MapLoadError",
    "MapObject",
    "MapProblem",
    "ObjectLayer",
    "PropertyValue",
    "TileInfo",
    "TileLayer",
    "TiledMap",
    "iter_cells",
    "load_tiled_map",
]
