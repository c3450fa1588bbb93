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
decompresses layer data without a bound. pytmx does the layer-data decoding (``pytmx.pytmx.unpack_gids``:
CSV, Base64, zlib, gzip) and bool parsing, behind checks that bound the work: the layer's declared size is
checked first and compressed data is inflated with a size limit before pytmx sees it, so a zip bomb costs
at most one layer's worth of bytes.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import logging
import math
import struct
import sys
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from xml.etree import ElementTree

from game.hexgrid import StaggerAxis, StaggerIndex, TiledHexGeometry

# Tiled's gid flag bits (tiled/src/libtiled/map.h / gidmapper.cpp).
FLIP_HORIZONTAL = 0x80000000
FLIP_VERTICAL = 0x40000000
FLIP_DIAGONAL = 0x20000000
ROTATE_HEX_120 = 0x10000000
GID_MASK = 0x0FFFFFFF

PropertyValue = str | int | float | bool


@dataclass(frozen=True, slots=True)
class MapProblem:
    """One thing wrong with a map, phrased for the GM who has to fix it in Tiled."""

    file: str
    what: str
    fix: str
    layer: str | None = None
    cell: tuple[int, int] | None = None  # Tiled (col, row) as shown in Tiled's status bar

    def __str__(self) -> str:
        where = self.file
        if self.layer is not None:
            where += f", layer '{self.layer}'"
        if self.cell is not None:
            where += f", cell {self.cell[0]},{self.cell[1]}"
        return f"{where}: {self.what} -- {self.fix}"


class MapLoadError(Exception):
    """A map could not be loaded; ``problems`` lists everything found (never empty)."""

    def __init__(self, problems: list[MapProblem]) -> None:
        if not problems:
            raise ValueError("MapLoadError needs at least one problem")
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


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


# --------------------------------------------------------------------------------------------------
# Loading

# Limits that keep a hostile or broken file from hanging or exhausting memory.
MAX_FILE_BYTES = 32 * 1024 * 1024
MAX_MAP_SIDE = 1024
MAX_LAYER_CELLS = 512 * 512
MAX_TOTAL_CELLS = 8 * 1024 * 1024
MAX_TILE_SIZE = 4096
MAX_PROBLEMS_PER_LAYER = 10
MAX_TILESET_TILES = 1 << 20

_TILED_FORMAT_FIX = "in Tiled: Map > Map Properties > Tile Layer Format: CSV (or Base64 zlib), then save"


def _import_pytmx() -> ModuleType:
    """Import pytmx without letting its package ``__init__`` import pygame.

    ``pytmx/__init__.py`` tries ``from pytmx.util_pygame import load_pygame`` and so imports pygame (and
    prints its banner) whenever pygame is installed. Blocking the import for that moment keeps
    ``check-map`` and the rules headless; ``pytmx.util_pygame`` can still be imported explicitly later.
    """
    if "pytmx" in sys.modules:
        return sys.modules["pytmx"]
    blocked = "pygame" not in sys.modules
    quiet = logging.getLogger("pytmx.util_pygame")  # it logs an error when pygame is missing
    was_disabled = quiet.disabled
    if blocked:
        sys.modules["pygame"] = None  # type: ignore[assignment]
    quiet.disabled = True
    try:
        import pytmx  # noqa: PLC0415

        return pytmx  # type: ignore[no-any-return]
    finally:
        quiet.disabled = was_disabled
        if blocked and sys.modules.get("pygame", 0) is None:
            del sys.modules["pygame"]


_pytmx = _import_pytmx()
_unpack_gids = _pytmx.pytmx.unpack_gids
_convert_to_bool = _pytmx.pytmx.convert_to_bool


class _Problems:
    """Collects problems with a default file name."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.items: list[MapProblem] = []

    def add(
        self,
        what: str,
        fix: str,
        *,
        layer: str | None = None,
        cell: tuple[int, int] | None = None,
        file: str | None = None,
    ) -> None:
        self.items.append(MapProblem(file or self.file, what, fix, layer=layer, cell=cell))

    def __bool__(self) -> bool:
        return bool(self.items)


def _int_attr(
    el: ElementTree.Element,
    name: str,
    default: int | None,
    problems: _Problems,
    where: str,
    *,
    file: str | None = None,
    layer: str | None = None,
) -> int | None:
    text = el.get(name)
    if text is None:
        if default is None:
            problems.add(
                f"{where} has no '{name}' attribute",
                "re-save the file from Tiled (it always writes it)",
                file=file,
                layer=layer,
            )
        return default
    try:
        return int(text)
    except ValueError:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if value.is_integer():
            return int(value)
        problems.add(
            f"{where} has {name}='{text}', not a whole number",
            f"set {name} to a whole number in Tiled, or re-save the file from Tiled",
            file=file,
            layer=layer,
        )
        return default


def _float_attr(el: ElementTree.Element, name: str, default: float) -> float:
    text = el.get(name)
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        return default
    return value if math.isfinite(value) else default


def _parse_color(text: str) -> tuple[int, int, int, int] | None:
    """'#rrggbb' or '#aarrggbb' (Tiled's order) -> (r, g, b, a)."""
    t = text.strip().lstrip("#")
    try:
        if len(t) == 6:
            return int(t[0:2], 16), int(t[2:4], 16), int(t[4:6], 16), 255
        if len(t) == 8:
            return int(t[2:4], 16), int(t[4:6], 16), int(t[6:8], 16), int(t[0:2], 16)
    except ValueError:
        return None
    return None


def _format_color(c: tuple[int, int, int, int]) -> str:
    r, g, b, a = c
    return f"#{r:02x}{g:02x}{b:02x}" if a == 255 else f"#{a:02x}{r:02x}{g:02x}{b:02x}"


def _combine_tint(outer: str | None, inner: str | None) -> str | None:
    """Tiled multiplies the tint colours of nested groups and layers."""
    if outer is None or inner is None:
        return inner if outer is None else outer
    a = _parse_color(outer)
    b = _parse_color(inner)
    if a is None or b is None:
        return inner
    return _format_color((a[0] * b[0] // 255, a[1] * b[1] // 255, a[2] * b[2] // 255, a[3] * b[3] // 255))


def _parse_properties(
    el: ElementTree.Element,
    problems: _Problems,
    where: str,
    *,
    file: str | None = None,
    layer: str | None = None,
) -> dict[str, PropertyValue]:
    """Typed custom properties of an element (bool/int/float/string/color/file/object; enums are strings).

    Class-typed (``type="class"``) properties have no flat value and are skipped.
    """
    result: dict[str, PropertyValue] = {}
    props = el.find("properties")
    if props is None:
        return result
    for prop in props.findall("property"):
        name = prop.get("name")
        if not name:
            continue
        kind = prop.get("type", "string")
        text = prop.get("value")
        if text is None:
            text = prop.text or ""
        try:
            if kind == "bool":
                result[name] = bool(_convert_to_bool(text))
            elif kind in ("int", "object"):
                result[name] = int(text or "0")
            elif kind == "float":
                value = float(text or "0")
                if not math.isfinite(value):
                    raise ValueError(text)
                result[name] = value
            elif kind in ("string", "color", "file"):
                result[name] = text
            elif kind == "class":
                continue
            else:
                problems.add(
                    f"{where}: property '{name}' has unknown type '{kind}'",
                    "delete the property and add it again in Tiled with a standard type",
                    file=file,
                    layer=layer,
                )
        except ValueError:
            problems.add(
                f"{where}: property '{name}' of type {kind} has the value '{text}', which is not a {kind}",
                f"set a valid {kind} value for '{name}' in Tiled's Custom Properties",
                file=file,
                layer=layer,
            )
    return result


def _image_size(path: Path) -> tuple[int, int] | None:
    """Pixel size from a PNG, GIF or BMP header (Tiled may omit width/height of an <image>)."""
    try:
        with path.open("rb") as f:
            head = f.read(32)
    except OSError:
        return None
    if head[:8] == b"\x89PNG\r\n\x1a\n" and len(head) >= 24:
        w, h = struct.unpack(">II", head[16:24])
        return int(w), int(h)
    if head[:6] in (b"GIF87a", b"GIF89a"):
        w, h = struct.unpack("<HH", head[6:10])
        return int(w), int(h)
    if head[:2] == b"BM" and len(head) >= 26:
        w, h = struct.unpack("<ii", head[18:26])
        return int(w), abs(int(h))
    return None


@dataclass(slots=True)
class _TilesetRange:
    firstgid: int
    name: str
    count: int  # tiles in the range (max local id + 1)


class _Loader:
    def __init__(self, path: Path, require_images: bool) -> None:
        self.path = path
        self.dir = path.parent
        self.require_images = require_images
        self.problems = _Problems(str(path))
        self.tiles: dict[int, TileInfo] = {}
        self.ranges: list[_TilesetRange] = []
        self.layers: list[Layer] = []
        self.total_cells = 0
        self.map_tile_size = (0, 0)

    # -- whole map
    def load(self) -> TiledMap:
        p = self.problems
        path = self.path
        suffix = path.suffix.lower()
        if suffix in (".tmj", ".json"):
            p.add(
                "this is a JSON map; Hexslinger reads only .tmx maps",
                "in Tiled: File > Save As..., choose 'Tiled map files (*.tmx)', and set "
                "Map > Map Properties > Tile Layer Format to CSV or Base64 (zlib compressed)",
            )
            raise MapLoadError(p.items)
        try:
            if not path.exists():
                p.add("the map file does not exist", "check the path and the file name (maps end in .tmx)")
                raise MapLoadError(p.items)
            if path.is_dir():
                p.add("this is a folder, not a map file", "give the path of a .tmx file")
                raise MapLoadError(p.items)
            size = path.stat().st_size
            if size > MAX_FILE_BYTES:
                p.add(
                    f"the file is {size // (1024 * 1024)} MB, more than any map needs",
                    f"maps must be smaller than {MAX_FILE_BYTES // (1024 * 1024)} MB; check this is a map",
                )
                raise MapLoadError(p.items)
            data = path.read_bytes()
        except OSError as error:
            p.add(f"the file cannot be read ({error.strerror or error})", "check the file's permissions")
            raise MapLoadError(p.items) from None
        file_hash = hashlib.sha256(data).hexdigest()
        root = self._parse_xml(data, str(path), "map")
        if root.tag != "map":
            fix = (
                "open the map (.tmx), not a tileset"
                if root.tag == "tileset"
                else "give the path of a .tmx map"
            )
            p.add(f"this is not a Tiled map (the document is <{root.tag}>, not <map>)", fix)
            raise MapLoadError(p.items)
        geometry, width, height = self._map_header(root)
        properties = _parse_properties(root, p, "map")
        for ts in root.findall("tileset"):
            self._tileset(ts)
        self.ranges.sort(key=lambda r: r.firstgid)
        self._layers(root, (0.0, 0.0), 1.0, True, None, width, height, "")
        if p or geometry is None:
            raise MapLoadError(p.items)
        background = root.get("backgroundcolor")
        return TiledMap(
            path=path,
            width=width,
            height=height,
            geometry=geometry,
            layers=self.layers,
            tiles=self.tiles,
            properties=properties,
            background=background,
            file_hash=file_hash,
        )

    def _parse_xml(self, data: bytes, file: str, kind: str) -> ElementTree.Element:
        p = self.problems
        head = data[:4096].lstrip()
        if head.startswith((b"{", b"[")):
            p.add(
                f"this {kind} file holds JSON, not XML",
                "in Tiled: File > Save As... and choose the .tmx (map) or .tsx (tileset) format",
                file=file,
            )
            raise MapLoadError(p.items)
        # Tiled never writes a DTD; refusing them rules out entity expansion (billion laughs).
        if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
            p.add(
                f"the {kind} file contains a DTD or entity declarations, which Tiled never writes",
                "re-save the file from Tiled",
                file=file,
            )
            raise MapLoadError(p.items)
        try:
            return ElementTree.fromstring(data)
        except ElementTree.ParseError as error:
            line, column = getattr(error, "position", (0, 0))
            reason = str(error).split(":")[0]
            truncated = "no element found" in str(error) or "unclosed token" in str(error)
            p.add(
                f"the {kind} file is not valid XML ({reason} at line {line}, column {column})"
                + ("; it looks truncated" if truncated else ""),
                "re-save it from Tiled; if Tiled cannot open it either, restore it from a backup",
                file=file,
            )
            raise MapLoadError(p.items) from None
        except (ValueError, RecursionError) as error:
            p.add(f"the {kind} file is not valid XML ({error})", "re-save it from Tiled", file=file)
            raise MapLoadError(p.items) from None

    def _map_header(self, root: ElementTree.Element) -> tuple[TiledHexGeometry | None, int, int]:
        p = self.problems
        orientation = root.get("orientation", "orthogonal")
        if orientation != "hexagonal":
            p.add(
                f"the map orientation is '{orientation}', not hexagonal",
                "make a new map in Tiled with Orientation: Hexagonal and copy the layers over "
                "(Tiled cannot convert an existing map's orientation in place)",
            )
        if root.get("infinite", "0") == "1":
            p.add(
                "the map is infinite; Hexslinger needs a fixed-size map",
                "in Tiled: Map > Map Properties, untick 'Infinite', then Map > Resize Map as needed",
            )
        w = _int_attr(root, "width", None, p, "the map")
        h = _int_attr(root, "height", None, p, "the map")
        tw = _int_attr(root, "tilewidth", None, p, "the map")
        th = _int_attr(root, "tileheight", None, p, "the map")
        side = _int_attr(root, "hexsidelength", 0, p, "the map") or 0
        width = w or 0
        height = h or 0
        if (
            w is not None
            and h is not None
            and not (1 <= w <= MAX_MAP_SIDE and 1 <= h <= MAX_MAP_SIDE and w * h <= MAX_LAYER_CELLS)
        ):
            p.add(
                f"the map size {w}x{h} is invalid",
                f"resize the map (Map > Resize Map) to between 1x1 and {MAX_MAP_SIDE}x{MAX_MAP_SIDE}, "
                f"at most {MAX_LAYER_CELLS} cells",
            )
            width = height = 0
        tile_ok = tw is not None and th is not None and 1 <= tw <= MAX_TILE_SIZE and 1 <= th <= MAX_TILE_SIZE
        if tw is not None and th is not None and not tile_ok:
            p.add(
                f"the tile size {tw}x{th} is invalid",
                "set Tile Width/Height in Map > Map Properties (Hexslinger's tilesets: 64x74 pointy-top or "
                "74x64 flat-top, Hex Side Length 37)",
            )
        axis_text = root.get("staggeraxis", "y")
        index_text = root.get("staggerindex", "odd")
        if axis_text not in ("x", "y"):
            p.add(f"staggeraxis '{axis_text}' is not x or y", "set Stagger Axis in Map > Map Properties")
        if index_text not in ("odd", "even"):
            p.add(
                f"staggerindex '{index_text}' is not odd or even", "set Stagger Index in Map > Map Properties"
            )
        if (
            orientation != "hexagonal"
            or not tile_ok
            or axis_text not in ("x", "y")
            or index_text
            not in (
                "odd",
                "even",
            )
        ):
            return None, width, height
        assert tw is not None and th is not None
        self.map_tile_size = (tw, th)
        along = th if axis_text == "y" else tw
        if not 0 <= side <= along:
            p.add(
                f"the hex layout is invalid: hexsidelength {side} does not fit tiles of {tw}x{th}",
                "in Map > Map Properties use a Hex Side Length between 0 and the tile "
                f"{'height' if axis_text == 'y' else 'width'} (Hexslinger: 37 with 64x74 or 74x64 tiles)",
            )
            return None, width, height
        try:
            geometry = TiledHexGeometry.create(tw, th, side, StaggerAxis(axis_text), StaggerIndex(index_text))
        except ValueError as error:
            p.add(
                f"the hex layout is invalid: {error}",
                "in Map > Map Properties use Hex Side Length smaller than the tile size along the stagger "
                "axis (Hexslinger: 37 with 64x74 or 74x64 tiles)",
            )
            return None, width, height
        return geometry, width, height

    # -- tilesets
    def _tileset(self, el: ElementTree.Element) -> None:
        p = self.problems
        firstgid = _int_attr(el, "firstgid", None, p, "a tileset")
        if firstgid is None:
            return
        if firstgid < 1 or firstgid > GID_MASK:
            p.add(f"a tileset has firstgid {firstgid}", "re-save the map from Tiled")
            return
        source = el.get("source")
        file = str(self.path)
        base = self.dir
        if source:
            ts_path = (self.dir / source).resolve()
            file = str(ts_path)
            if ts_path.suffix.lower() in (".tsj", ".json"):
                p.add(
                    f"tileset '{source}' is a JSON tileset; Hexslinger reads .tsx tilesets",
                    "open the tileset in Tiled, File > Export As... 'Tiled tileset files (*.tsx)', and "
                    "in the map use Map > Replace Tileset with the .tsx",
                )
                return
            if source.lower().endswith(".tx"):
                return
            try:
                if not ts_path.is_file():
                    p.add(
                        f"the tileset file '{source}' does not exist (looked for {ts_path})",
                        "put the .tsx next to the map as the relative path says, or in Tiled fix it with "
                        "Map > Replace Tileset",
                    )
                    return
                if ts_path.stat().st_size > MAX_FILE_BYTES:
                    p.add(f"the tileset file '{source}' is too large", "check it is a Tiled tileset")
                    return
                data = ts_path.read_bytes()
            except OSError as error:
                p.add(f"the tileset file '{source}' cannot be read ({error})", "check its permissions")
                return
            try:
                el = self._parse_xml(data, file, "tileset")
            except MapLoadError:
                return  # problem recorded; keep looking for others
            if el.tag != "tileset":
                p.add(f"'{source}' is not a Tiled tileset (<{el.tag}>)", "point the map at a .tsx tileset")
                return
            base = ts_path.parent
        name = el.get("name", "") or (Path(source).stem if source else "tileset")
        where = f"tileset '{name}'"
        tw = _int_attr(el, "tilewidth", None, p, where, file=file)
        th = _int_attr(el, "tileheight", None, p, where, file=file)
        spacing = _int_attr(el, "spacing", 0, p, where, file=file) or 0
        margin = _int_attr(el, "margin", 0, p, where, file=file) or 0
        columns = _int_attr(el, "columns", 0, p, where, file=file) or 0
        tilecount = _int_attr(el, "tilecount", 0, p, where, file=file) or 0
        if tw is None or th is None or not (1 <= tw <= MAX_TILE_SIZE and 1 <= th <= MAX_TILE_SIZE):
            if tw is not None and th is not None:
                p.add(
                    f"{where} has an invalid tile size {tw}x{th}",
                    "fix it in the tileset's properties",
                    file=file,
                )
            return
        if spacing < 0 or margin < 0 or columns < 0 or not (0 <= tilecount <= MAX_TILESET_TILES):
            p.add(
                f"{where} has negative spacing/margin/columns or a bad tile count",
                "re-save it from Tiled",
                file=file,
            )
            return
        offset_el = el.find("tileoffset")
        offset = (0, 0)
        if offset_el is not None:
            offset = (
                _int_attr(offset_el, "x", 0, p, where, file=file) or 0,
                _int_attr(offset_el, "y", 0, p, where, file=file) or 0,
            )
        render_mode = el.get("tilerendersize", "tile")
        if render_mode not in ("tile", "grid"):
            p.add(
                f"{where} has tilerendersize '{render_mode}'",
                "choose Tile or Grid size in the tileset",
                file=file,
            )
            render_mode = "tile"

        def render_size(w: int, h: int) -> tuple[int, int]:
            return self.map_tile_size if render_mode == "grid" and self.map_tile_size[0] else (w, h)

        tile_els: dict[int, ElementTree.Element] = {}
        for tile_el in el.findall("tile"):
            tid = _int_attr(tile_el, "id", None, p, f"a tile of {where}", file=file)
            if tid is None:
                continue
            if not 0 <= tid < MAX_TILESET_TILES:
                p.add(f"{where} has a tile with id {tid}", "re-save the tileset from Tiled", file=file)
                continue
            tile_els[tid] = tile_el

        def tile_meta(tid: int) -> tuple[dict[str, PropertyValue], str]:
            t = tile_els.get(tid)
            if t is None:
                return {}, ""
            props = _parse_properties(t, p, f"tile {tid} of {where}", file=file)
            return props, t.get("class", t.get("type", "")) or ""

        image_el = el.find("image")
        count = 0
        if image_el is not None:
            image = self._image_path(image_el, base, f"the image of {where}", file)
            iw = _int_attr(image_el, "width", 0, p, where, file=file) or 0
            ih = _int_attr(image_el, "height", 0, p, where, file=file) or 0
            if (iw <= 0 or ih <= 0) and image is not None:
                size = _image_size(image)
                if size is not None:
                    iw, ih = size
            if columns <= 0 and iw > 0:
                columns = max(0, (iw - 2 * margin + spacing) // (tw + spacing))
            if tilecount <= 0 and columns > 0 and ih > 0:
                rows = max(0, (ih - 2 * margin + spacing) // (th + spacing))
                tilecount = columns * rows
            if columns <= 0 or tilecount <= 0:
                p.add(
                    f"{where} has no tiles (cannot tell its columns/tile count)",
                    "re-save the tileset from Tiled with its image present",
                    file=file,
                )
                return
            count = tilecount
            for tid in range(tilecount):
                col, row = tid % columns, tid // columns
                props, cls = tile_meta(tid)
                self.tiles[firstgid + tid] = TileInfo(
                    gid=firstgid + tid,
                    tileset=name,
                    local_id=tid,
                    image=image,
                    rect=(margin + col * (tw + spacing), margin + row * (th + spacing), tw, th),
                    offset=offset,
                    render_size=render_size(tw, th),
                    properties=props,
                    tile_class=cls,
                    source=file,
                )
        else:
            # Image collection: every tile has its own image (optionally a sub-rectangle, Tiled 1.9+).
            for tid, t in sorted(tile_els.items()):
                timg = t.find("image")
                if timg is None:
                    continue
                image = self._image_path(timg, base, f"the image of tile {tid} of {where}", file)
                iw = _int_attr(timg, "width", 0, p, where, file=file) or 0
                ih = _int_attr(timg, "height", 0, p, where, file=file) or 0
                if (iw <= 0 or ih <= 0) and image is not None:
                    size = _image_size(image)
                    if size is not None:
                        iw, ih = size
                x = _int_attr(t, "x", 0, p, where, file=file) or 0
                y = _int_attr(t, "y", 0, p, where, file=file) or 0
                w = _int_attr(t, "width", iw, p, where, file=file) or iw
                h = _int_attr(t, "height", ih, p, where, file=file) or ih
                props, cls = tile_meta(tid)
                self.tiles[firstgid + tid] = TileInfo(
                    gid=firstgid + tid,
                    tileset=name,
                    local_id=tid,
                    image=image,
                    rect=(x, y, w, h),
                    offset=offset,
                    render_size=render_size(w, h),
                    properties=props,
                    tile_class=cls,
                    source=file,
                )
                count = max(count, tid + 1)
        self.ranges.append(_TilesetRange(firstgid, name, count))

    def _image_path(self, image_el: ElementTree.Element, base: Path, what: str, file: str) -> Path | None:
        source = image_el.get("source")
        if not source:
            self.problems.add(f"{what} has no source file", "pick the image again in Tiled", file=file)
            return None
        image = (base / source).resolve()
        if not image.is_file():
            if self.require_images:
                self.problems.add(
                    f"{what} '{source}' does not exist (looked for {image})",
                    "put the image where the relative path points, or pick it again in Tiled "
                    "(Tileset > Tileset Properties > Image)",
                    file=file,
                )
            return None
        return image

    # -- layers
    def _layers(  # noqa: PLR0917 - the inherited group state, passed down the recursion
        self,
        parent: ElementTree.Element,
        offset: tuple[float, float],
        opacity: float,
        visible: bool,
        tint: str | None,
        width: int,
        height: int,
        prefix: str,
    ) -> None:
        for el in parent:
            if el.tag not in ("layer", "objectgroup", "imagelayer", "group"):
                continue
            name = el.get("name", "")
            label = prefix + name
            off = (offset[0] + _float_attr(el, "offsetx", 0.0), offset[1] + _float_attr(el, "offsety", 0.0))
            op = opacity * _float_attr(el, "opacity", 1.0)
            vis = visible and el.get("visible", "1") != "0"
            tn = _combine_tint(tint, el.get("tintcolor"))
            props = _parse_properties(el, self.problems, f"layer '{label}'", layer=label)
            if el.tag == "group":
                self._layers(el, off, op, vis, tn, width, height, label + "/")
            elif el.tag == "layer":
                raw = self._tile_data(el, label, width, height)
                self.layers.append(TileLayer(name, width, height, raw, vis, op, off, tn, props))
            elif el.tag == "objectgroup":
                objects = [self._object(o, label) for o in el.findall("object")]
                self.layers.append(
                    ObjectLayer(name, objects, vis, op, off, el.get("draworder", "topdown"), props)
                )
            else:
                image_el = el.find("image")
                image = None
                if image_el is not None and image_el.get("source"):
                    image = self._image_path(
                        image_el, self.dir, f"the image of image layer '{label}'", str(self.path)
                    )
                self.layers.append(ImageLayer(name, image, vis, op, off, props))

    def _tile_data(self, el: ElementTree.Element, label: str, width: int, height: int) -> list[list[int]]:
        p = self.problems
        empty = [[0] * width for _ in range(height)]
        lw = _int_attr(el, "width", width, p, f"layer '{label}'", layer=label)
        lh = _int_attr(el, "height", height, p, f"layer '{label}'", layer=label)
        if (lw, lh) != (width, height):
            p.add(
                f"the layer is {lw}x{lh} but the map is {width}x{height}",
                "re-save the map from Tiled (Map > Resize Map resizes every layer)",
                layer=label,
            )
            return empty
        n = width * height
        if n == 0:
            return empty
        self.total_cells += n
        if self.total_cells > MAX_TOTAL_CELLS:
            p.add("the map has too many tile layers", "merge or delete layers", layer=label)
            return empty
        data = el.find("data")
        if data is None:
            p.add("the layer has no <data>", "re-save the map from Tiled", layer=label)
            return empty
        if data.find("chunk") is not None:
            p.add(
                "the layer is stored in chunks (an infinite map)",
                "in Tiled: Map > Map Properties, untick 'Infinite', then save",
                layer=label,
            )
            return empty
        encoding = data.get("encoding")
        compression = data.get("compression")
        gids: list[int] | None = None
        if encoding is None:
            tiles = data.findall("tile")
            if len(tiles) != n:
                p.add(f"the layer has {len(tiles)} tiles, expected {n}", _TILED_FORMAT_FIX, layer=label)
                return empty
            gids = []
            for t in tiles:
                try:
                    gids.append(int(t.get("gid", "0")))
                except ValueError:
                    gids.append(-1)
        elif encoding == "csv":
            text = (data.text or "").strip()
            if compression:
                p.add(f"CSV layer data with compression '{compression}'", _TILED_FORMAT_FIX, layer=label)
                return empty
            if text.count(",") + 1 != n:
                p.add(
                    f"the layer's CSV data has {text.count(',') + 1 if text else 0} values, expected {n} "
                    f"({width}x{height}); the file may be truncated or hand-edited",
                    "re-save the map from Tiled; restore it from a backup if Tiled cannot open it",
                    layer=label,
                )
                return empty
            try:
                gids = list(_unpack_gids(text, "csv"))
            except ValueError:
                gids = []
                for token in text.split(","):
                    try:
                        gids.append(int(token))
                    except ValueError:
                        gids.append(-1)
        elif encoding == "base64":
            gids = self._base64(data.text or "", compression, n, label)
            if gids is None:
                return empty
        else:
            p.add(f"unknown layer encoding '{encoding}'", _TILED_FORMAT_FIX, layer=label)
            return empty
        raw = [gids[r * width : (r + 1) * width] for r in range(height)]
        self._check_gids(raw, label)
        return raw

    def _base64(self, text: str, compression: str | None, n: int, label: str) -> list[int] | None:
        p = self.problems
        expected = n * 4
        if compression == "zstd":
            p.add(
                "the layer is compressed with Zstandard, which Hexslinger cannot read",
                "in Tiled: Map > Map Properties > Tile Layer Format: CSV or Base64 (zlib compressed), save",
                layer=label,
            )
            return None
        if compression not in (None, "", "zlib", "gzip"):
            p.add(f"unknown layer compression '{compression}'", _TILED_FORMAT_FIX, layer=label)
            return None
        try:
            packed = base64.b64decode("".join(text.split()), validate=True)
        except (binascii.Error, ValueError):
            p.add("the layer's Base64 data is corrupt", "re-save the map from Tiled", layer=label)
            return None
        if compression:
            # Inflate with a bound first: a zip bomb costs at most one layer's bytes.
            inflater = zlib.decompressobj(31 if compression == "gzip" else 15)
            try:
                out = inflater.decompress(packed, expected + 1)
            except zlib.error:
                p.add(f"the layer's {compression} data is corrupt", "re-save the map from Tiled", layer=label)
                return None
            if len(out) != expected or not inflater.eof:
                p.add(
                    f"the layer's {compression} data does not hold exactly {n} tiles",
                    "re-save the map from Tiled",
                    layer=label,
                )
                return None
        elif len(packed) != expected:
            p.add(
                f"the layer's Base64 data holds {len(packed) // 4} tiles, expected {n}",
                "re-save the map from Tiled",
                layer=label,
            )
            return None
        try:
            return list(_unpack_gids(text.strip(), "base64", compression or None))
        except Exception:  # pytmx may raise anything; the data was already checked above
            p.add("the layer's data cannot be decoded", "re-save the map from Tiled", layer=label)
            return None

    def _tileset_of(self, gid: int) -> _TilesetRange | None:
        found = None
        for r in self.ranges:
            if r.firstgid <= gid:
                found = r
            else:
                break
        return found

    def _check_gids(self, raw: list[list[int]], label: str) -> None:
        bad: list[tuple[int, int, int]] = []
        tiles = self.tiles
        for row_index, values in enumerate(raw):
            for col, value in enumerate(values):
                if value == 0:
                    continue
                if value < 0 or value > 0xFFFFFFFF or (value & GID_MASK) not in tiles:
                    bad.append((col, row_index, value))
        for col, row, value in bad[:MAX_PROBLEMS_PER_LAYER]:
            gid = value & GID_MASK if 0 <= value <= 0xFFFFFFFF else value
            self.problems.add(
                self._unknown_gid_text(gid), self._unknown_gid_fix(), layer=label, cell=(col, row)
            )
        if len(bad) > MAX_PROBLEMS_PER_LAYER:
            self.problems.add(
                f"{len(bad) - MAX_PROBLEMS_PER_LAYER} more cells with unknown tiles",
                self._unknown_gid_fix(),
                layer=label,
            )

    def _unknown_gid_text(self, gid: int) -> str:
        if gid < 0:
            return "the cell holds a value that is not a tile id"
        ts = self._tileset_of(gid)
        if ts is None:
            return f"tile gid {gid} belongs to no tileset"
        return (
            f"tile gid {gid} is not in tileset '{ts.name}' (it has {ts.count} tiles from gid {ts.firstgid})"
        )

    @staticmethod
    def _unknown_gid_fix() -> str:
        return (
            "a tileset was removed or shrunk after painting: restore it, or erase the cell in Tiled "
            "(Tiled shows such cells as missing tiles)"
        )

    # -- objects
    def _object(self, el: ElementTree.Element, label: str) -> MapObject:
        p = self.problems
        oid = _int_attr(el, "id", 0, p, "an object", layer=label) or 0
        where = f"object {oid}" + (f" '{el.get('name')}'" if el.get("name") else "")
        if el.get("template"):
            p.add(
                f"{where} uses the object template '{el.get('template')}', which Hexslinger does not read",
                "in Tiled select the object and use 'Detach' (right-click > Detach Template)",
                layer=label,
            )
        x = _float_attr(el, "x", 0.0)
        y = _float_attr(el, "y", 0.0)
        raw_gid = 0
        shape = "rectangle"
        points: list[tuple[float, float]] | None = None
        width = _float_attr(el, "width", 0.0)
        height = _float_attr(el, "height", 0.0)
        if el.get("gid") is not None:
            raw_gid = _int_attr(el, "gid", 0, p, where, layer=label) or 0
            if not 0 <= raw_gid <= 0xFFFFFFFF or (raw_gid & GID_MASK) not in self.tiles:
                p.add(
                    f"{where} shows tile gid {raw_gid & GID_MASK}, which is in no tileset",
                    self._unknown_gid_fix(),
                    layer=label,
                )
                raw_gid = 0
            else:
                shape = "tile"
                info = self.tiles[raw_gid & GID_MASK]
                if el.get("width") is None:
                    width = float(info.rect[2])
                if el.get("height") is None:
                    height = float(info.rect[3])
        elif el.find("ellipse") is not None:
            shape = "ellipse"
        elif el.find("point") is not None:
            shape = "point"
        elif el.find("text") is not None:
            shape = "text"
        else:
            for kind in ("polygon", "polyline"):
                poly = el.find(kind)
                if poly is not None:
                    shape = kind
                    points = []
                    try:
                        for pair in (poly.get("points") or "").split():
                            px, py = pair.split(",")
                            points.append((x + float(px), y + float(py)))
                    except ValueError:
                        p.add(
                            f"{where} has unreadable {kind} points", "redraw the shape in Tiled", layer=label
                        )
                        points = []
                    break
        return MapObject(
            id=oid,
            name=el.get("name", ""),
            object_class=el.get("class", el.get("type", "")) or "",
            x=x,
            y=y,
            width=width,
            height=height,
            rotation=_float_attr(el, "rotation", 0.0),
            raw_gid=raw_gid,
            points=points,
            shape=shape,
            visible=el.get("visible", "1") != "0",
            properties=_parse_properties(el, p, where, layer=label),
        )


def load_tiled_map(path: str | Path, *, require_images: bool = True) -> TiledMap:
    """Load a hexagonal ``.tmx``; raises :class:`MapLoadError` listing every problem found.

    ``require_images=False`` accepts missing image files (``TileInfo.image`` is then None): enough for
    the rules, which never look at pictures.
    """
    file = Path(path)
    try:
        return _Loader(file, require_images).load()
    except MapLoadError:
        raise
    except (RecursionError, MemoryError) as error:  # pragma: no cover - defensive
        raise MapLoadError(
            [
                MapProblem(
                    str(file),
                    f"the map is too large or too deeply nested ({type(error).__name__})",
                    "simplify it",
                )
            ]
        ) from None
    except Exception as error:  # pragma: no cover - a bug here must still not become a traceback for a GM
        raise MapLoadError(
            [
                MapProblem(
                    str(file),
                    f"the map could not be read ({type(error).__name__}: {error})",
                    "re-save it from Tiled; if that does not help, report the map to Hexslinger's developers",
                )
            ]
        ) from error


def iter_cells(layer: TileLayer) -> Iterator[tuple[int, int, Cell]]:
    """Every non-empty cell of a tile layer as (col, row, cell), row-major."""
    for row, values in enumerate(layer.raw):
        for col, raw in enumerate(values):
            if raw & GID_MASK:
                yield col, row, Cell.from_raw(raw)
