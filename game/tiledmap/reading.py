"""The loader's common ground: bounded XML parsing, attribute and custom-property reading with problems
collected instead of raised, colours, image headers, the limits that keep a hostile or broken file from
hanging or exhausting memory, and pytmx imported without pygame.
"""

from __future__ import annotations

import codecs
import logging
import math
import re
import struct
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from xml.etree import ElementTree

from game.safeio import MAX_PATH_CHARS, FileRefusedError, read_file, read_head
from game.tiledmap.model import Layer, PropertyValue, TileInfo
from game.tiledmap.problems import MapLoadError, Problems

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_GROUP_DEPTH",
    "MAX_LAYERS",
    "MAX_LAYER_CELLS",
    "MAX_MAP_SIDE",
    "MAX_PROBLEMS_PER_LAYER",
    "MAX_SHAPE_POINTS",
    "MAX_TILESETS",
    "MAX_TILESET_TILES",
    "MAX_TILE_SIZE",
    "MAX_TOTAL_CELLS",
    "MAX_TOTAL_TILES",
    "MAX_XML_MARKUP",
    "TILED_FORMAT_FIX",
    "LoaderBase",
    "TilesetRange",
    "combine_tint",
    "convert_to_bool",
    "decode_xml",
    "float_attr",
    "image_size",
    "int_attr",
    "is_folder",
    "is_regular",
    "parse_properties",
    "unpack_gids",
]

# Limits that keep a hostile or broken file from hanging or exhausting memory (docs/RELIABILITY.md).
MAX_FILE_BYTES = 32 * 1024 * 1024  # the map and all its tileset files together
MAX_MAP_SIDE = 1024
MAX_LAYER_CELLS = 512 * 512
MAX_TOTAL_CELLS = 8 * 1024 * 1024
MAX_TILE_SIZE = 4096
MAX_PROBLEMS_PER_LAYER = 10
MAX_TILESET_TILES = 1 << 16  # tiles of one tileset
MAX_TOTAL_TILES = 1 << 16  # tiles of all the map's tilesets together (each costs a TileInfo)
MAX_XML_MARKUP = 1_000_000  # tags and attributes ('<' and '=') in the map and its tilesets together
MAX_GROUP_DEPTH = 64  # group layers inside each other
MAX_LAYERS = 1024  # layers of every kind, groups included
MAX_TILESETS = 1024  # tilesets of one map (each may name a file to read and parse)
MAX_SHAPE_POINTS = 10_000  # points of one polygon or polyline

TILED_FORMAT_FIX = "in Tiled: Map > Map Properties > Tile Layer Format: CSV (or Base64 zlib), then save"


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
unpack_gids = _pytmx.pytmx.unpack_gids
convert_to_bool = _pytmx.pytmx.convert_to_bool


def int_attr(
    el: ElementTree.Element,
    name: str,
    default: int | None,
    problems: Problems,
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
        if not text.isascii():  # int() reads Arabic-Indic or full-width digits too; Tiled writes ASCII
            raise ValueError(text)
        return int(text)
    except ValueError:
        try:
            value = float(text) if text.isascii() else math.nan
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


def float_attr(el: ElementTree.Element, name: str, default: float) -> float:
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


def combine_tint(outer: str | None, inner: str | None) -> str | None:
    """Tiled multiplies the tint colours of nested groups and layers."""
    if outer is None or inner is None:
        return inner if outer is None else outer
    a = _parse_color(outer)
    b = _parse_color(inner)
    if a is None or b is None:
        return inner
    return _format_color((a[0] * b[0] // 255, a[1] * b[1] // 255, a[2] * b[2] // 255, a[3] * b[3] // 255))


def parse_properties(
    el: ElementTree.Element,
    problems: Problems,
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
                result[name] = bool(convert_to_bool(text))
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


def image_size(path: Path) -> tuple[int, int] | None:
    """Pixel size from a PNG, GIF or BMP header (Tiled may omit width/height of an <image>)."""
    try:
        head = read_head(path, 32, what="image")
    except FileRefusedError:
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


_DECLARED = re.compile(rb"""^<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._-]{1,40})["']""")
# the encodings an XML parser must or commonly reads (expat's own); Tiled writes UTF-8
_XML_ENCODINGS = ("utf-8", "utf-16", "utf-16-le", "utf-16-be", "iso8859-1", "ascii")


def decode_xml(data: bytes) -> str:
    """The text of an XML document as a parser would decode it: by its byte-order mark, its first bytes
    (UTF-16 without a mark), or its declared encoding; ValueError saying why it cannot be decoded.

    Checks for ``<!DOCTYPE`` are made on this text, and the parser is given the same text, so no encoding
    can hide a DTD from the check."""
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)) or data[:4] in (b"\0\0\0<", b"<\0\0\0"):
        raise ValueError("it is UTF-32 text")
    if data.startswith(codecs.BOM_UTF8):
        encoding = "utf-8-sig"
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
    elif data[:2] == b"\0<":
        encoding = "utf-16-be"
    elif data[:2] == b"<\0":
        encoding = "utf-16-le"
    else:
        declared = _DECLARED.match(data[:256])
        encoding = declared.group(1).decode("ascii") if declared else "utf-8"
        try:
            name = codecs.lookup(encoding).name
        except LookupError:
            raise ValueError(f"it declares the unknown encoding '{encoding}'") from None
        if name not in _XML_ENCODINGS:
            raise ValueError(f"it declares the encoding '{encoding}'")
        encoding = name
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        raise ValueError(f"it is not {encoding.upper()} text (byte {error.start})") from None


def is_folder(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def is_regular(path: Path) -> bool:
    """Whether ``path`` is a regular file (False for anything that cannot even be looked up)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


@dataclass(slots=True)
class TilesetRange:
    firstgid: int
    name: str
    count: int  # tiles in the range (max local id + 1)


class LoaderBase:
    """What every part of the loader shares: the file, the problems found so far, the tiles, tileset
    ranges and layers read, and the XML and image look-ups."""

    def __init__(self, path: Path, require_images: bool) -> None:
        self.path = path
        self.dir = path.parent
        self.require_images = require_images
        self.problems = Problems(str(path))
        self.tiles: dict[int, TileInfo] = {}
        self.ranges: list[TilesetRange] = []
        self.layers: list[Layer] = []
        self.total_cells = 0
        self.total_tiles = 0
        self.layer_count = 0
        self._empty: dict[tuple[int, int], list[list[int]]] = {}
        self.bytes_read = 0
        self.markup = 0
        self.map_tile_size = (0, 0)

    def _read(self, path: Path, kind: str) -> bytes:
        """The bytes of a map or tileset file: a regular file only, read only up to what is left of
        :data:`MAX_FILE_BYTES` for the map and its tilesets together; FileRefusedError otherwise."""
        left = MAX_FILE_BYTES - self.bytes_read
        try:
            data = read_file(path, left, what=f"{kind} file")
        except FileRefusedError as error:
            if error.reason != "too_large":
                raise
            mb = MAX_FILE_BYTES // (1024 * 1024)
            raise FileRefusedError(
                path,
                f"the {kind} file is larger than {mb} MB"
                + (" together with the files read before it" if self.bytes_read else "")
                + ", more than any map needs",
                f"a map and its tilesets must be smaller than {mb} MB in all; check this is a Tiled file",
                "too_large",
            ) from None
        self.bytes_read += len(data)
        return data

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
        try:
            text = decode_xml(data)
        except ValueError as error:
            p.add(
                f"the {kind} file cannot be read as text: {error}; Tiled writes UTF-8",
                "re-save the file from Tiled",
                file=file,
            )
            raise MapLoadError(p.items) from None
        # Tiled never writes a DTD; refusing them rules out entity expansion (billion laughs). The check
        # is on the decoded text, which is what the parser is given.
        if "<!DOCTYPE" in text or "<!ENTITY" in text:
            p.add(
                f"the {kind} file contains a DTD or entity declarations, which Tiled never writes",
                "re-save the file from Tiled",
                file=file,
            )
            raise MapLoadError(p.items)
        # Each tag or attribute costs a few hundred bytes once parsed: bound them before parsing.
        self.markup += text.count("<") + text.count("=")
        if self.markup > MAX_XML_MARKUP:
            p.add(
                f"the {kind} file has more tags and attributes than a map may have "
                f"({MAX_XML_MARKUP:,} for a map and its tilesets together)",
                "check this is a Tiled file; store tile layers as CSV or Base64 rather than XML",
                file=file,
            )
            raise MapLoadError(p.items)
        try:
            return ElementTree.fromstring(text)
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

    def _image_path(self, image_el: ElementTree.Element, base: Path, what: str, file: str) -> Path | None:
        source = image_el.get("source")
        if not source:
            self.problems.add(f"{what} has no source file", "pick the image again in Tiled", file=file)
            return None
        try:
            if len(source) > MAX_PATH_CHARS:  # Path.resolve() is quadratic in the path's length
                raise ValueError(source)
            image = (base / source).resolve()
        except (OSError, ValueError):
            self.problems.add(
                f"{what} '{source}' is not a usable file name", "pick the image again in Tiled", file=file
            )
            return None
        if not is_regular(image):
            if self.require_images:
                self.problems.add(
                    f"{what} '{source}' does not exist (looked for {image})",
                    "put the image where the relative path points, or pick it again in Tiled "
                    "(Tileset > Tileset Properties > Image)",
                    file=file,
                )
            return None
        return image
