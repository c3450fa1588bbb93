"""The loader's common ground: bounded XML parsing, attribute and custom-property reading with problems
collected instead of raised, colours, image headers, the limits that keep a hostile or broken file from
hanging or exhausting memory, and pytmx imported without pygame.
"""

from __future__ import annotations

import logging
import math
import struct
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from xml.etree import ElementTree

from game.tiledmap.model import Layer, PropertyValue, TileInfo
from game.tiledmap.problems import MapLoadError, Problems

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_LAYER_CELLS",
    "MAX_MAP_SIDE",
    "MAX_PROBLEMS_PER_LAYER",
    "MAX_TILESET_TILES",
    "MAX_TILE_SIZE",
    "MAX_TOTAL_CELLS",
    "TILED_FORMAT_FIX",
    "LoaderBase",
    "TilesetRange",
    "combine_tint",
    "convert_to_bool",
    "float_attr",
    "image_size",
    "int_attr",
    "parse_properties",
    "unpack_gids",
]

# Limits that keep a hostile or broken file from hanging or exhausting memory.
MAX_FILE_BYTES = 32 * 1024 * 1024
MAX_MAP_SIDE = 1024
MAX_LAYER_CELLS = 512 * 512
MAX_TOTAL_CELLS = 8 * 1024 * 1024
MAX_TILE_SIZE = 4096
MAX_PROBLEMS_PER_LAYER = 10
MAX_TILESET_TILES = 1 << 20

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
        self.map_tile_size = (0, 0)

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
