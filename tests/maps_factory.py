"""Tiny synthetic Tiled maps for tests: .tmx / .tsx text and PNGs written into a test's tmp_path.

No pygame: the PNGs are written with zlib + struct. Maps default to Hexslinger's pointy-top layout
(64x74 tiles, hex side 37, stagger axis y, index odd).
"""

from __future__ import annotations

import base64
import gzip
import struct
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import quoteattr

TILE_W, TILE_H, HEX_SIDE = 64, 74, 37


@dataclass(frozen=True)
class Enum:
    """A Tiled enum property value (written as a string with ``propertytype``)."""

    value: str
    property_type: str


@dataclass(frozen=True)
class Typed:
    """A property with an explicit Tiled type (``color``, ``file``, ``object`` or a wrong one)."""

    kind: str
    value: str


# The standard test tileset: local id -> (class, properties).
GRASS, WALL, BARREL, SCREE, DOOR, CHASM, ROOF, BOULDER = range(8)
STANDARD_TILES: dict[int, tuple[str, dict[str, object]]] = {
    GRASS: ("grass", {"terrain": "grass"}),
    WALL: (
        "wall",
        {"terrain": "wall", "impassable": True, "blocks_sight": True, "cover": Enum("full", "Cover")},
    ),
    BARREL: ("barrel", {"cover": Enum("half", "Cover"), "destructible": True}),
    SCREE: ("scree", {"terrain": "scree", "move_cost": 2}),
    DOOR: ("door", {}),
    CHASM: ("chasm", {"terrain": "chasm", "impassable": True}),
    ROOF: ("roof", {}),
    BOULDER: ("boulder", {"cover": Enum("full", "Cover")}),
}


def png_bytes(width: int, height: int, rgba: tuple[int, int, int, int] = (120, 160, 80, 255)) -> bytes:
    def chunk(tag: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
        )

    row = b"\x00" + bytes(rgba) * width
    raw = row * height
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def write_png(
    path: Path, width: int, height: int, rgba: tuple[int, int, int, int] = (120, 160, 80, 255)
) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(png_bytes(width, height, rgba))
    return path


def properties_xml(props: Mapping[str, object] | None) -> str:
    if not props:
        return ""
    out = ["<properties>"]
    for name, value in props.items():
        if isinstance(value, Enum):
            out.append(
                f'<property name={quoteattr(name)} type="string" '
                f"propertytype={quoteattr(value.property_type)} value={quoteattr(value.value)}/>"
            )
            continue
        if isinstance(value, Typed):
            out.append(
                f"<property name={quoteattr(name)} type={quoteattr(value.kind)} "
                f"value={quoteattr(value.value)}/>"
            )
            continue
        if isinstance(value, bool):
            kind, text = "bool", "true" if value else "false"
        elif isinstance(value, int):
            kind, text = "int", str(value)
        elif isinstance(value, float):
            kind, text = "float", repr(value)
        else:
            kind, text = "", str(value)
        type_attr = f" type={quoteattr(kind)}" if kind else ""
        out.append(f"<property name={quoteattr(name)}{type_attr} value={quoteattr(text)}/>")
    out.append("</properties>")
    return "".join(out)


def tiles_xml(tiles: Mapping[int, tuple[str, Mapping[str, object]]]) -> str:
    return "".join(
        f'<tile id="{tid}" type={quoteattr(cls)}>{properties_xml(props)}</tile>' if props or cls else ""
        for tid, (cls, props) in sorted(tiles.items())
    )


def sheet_tileset_body(
    *,
    name: str = "terrain",
    image: str = "terrain.png",
    tile_w: int = TILE_W,
    tile_h: int = TILE_H,
    columns: int = 4,
    tilecount: int = 8,
    margin: int = 0,
    spacing: int = 0,
    tiles: Mapping[int, tuple[str, Mapping[str, object]]] | None = None,
    tileoffset: tuple[int, int] | None = None,
    tilerendersize: str | None = None,
    image_size: tuple[int, int] | None = None,
) -> str:
    """The inside of a <tileset> element for an image-sheet tileset (attributes + children)."""
    rows = -(-tilecount // columns)
    iw, ih = image_size or (
        2 * margin + columns * tile_w + (columns - 1) * spacing,
        2 * margin + rows * tile_h + (rows - 1) * spacing,
    )
    attrs = (
        f'name={quoteattr(name)} tilewidth="{tile_w}" tileheight="{tile_h}" tilecount="{tilecount}" '
        f'columns="{columns}" margin="{margin}" spacing="{spacing}"'
    )
    if tilerendersize:
        attrs += f' tilerendersize="{tilerendersize}"'
    offset = f'<tileoffset x="{tileoffset[0]}" y="{tileoffset[1]}"/>' if tileoffset else ""
    body = f'{offset}<image source={quoteattr(image)} width="{iw}" height="{ih}"/>' + tiles_xml(
        STANDARD_TILES if tiles is None else tiles
    )
    return attrs + "|" + body


def _split(body: str) -> tuple[str, str]:
    attrs, inner = body.split("|", 1)
    return attrs, inner


def embedded_tileset(firstgid: int, body: str) -> str:
    attrs, inner = _split(body)
    return f'<tileset firstgid="{firstgid}" {attrs}>{inner}</tileset>'


def write_tsx(path: Path, body: str) -> Path:
    attrs, inner = _split(body)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<tileset version="1.10" {attrs}>{inner}</tileset>\n'
    )
    return path


def external_tileset(firstgid: int, source: str) -> str:
    return f'<tileset firstgid="{firstgid}" source={quoteattr(source)}/>'


def collection_tileset_body(
    name: str,
    images: Mapping[int, tuple[str, int, int]],
    props: Mapping[int, Mapping[str, object]] | None = None,
) -> str:
    tw = max(w for _, w, _ in images.values())
    th = max(h for _, _, h in images.values())
    inner = "".join(
        f'<tile id="{tid}">{properties_xml((props or {}).get(tid))}'
        f'<image source={quoteattr(src)} width="{w}" height="{h}"/></tile>'
        for tid, (src, w, h) in sorted(images.items())
    )
    attrs = f'name={quoteattr(name)} tilewidth="{tw}" tileheight="{th}" tilecount="{len(images)}" columns="0"'
    return f'{attrs}|<grid orientation="orthogonal" width="1" height="1"/>{inner}'


def encode_data(gids: Sequence[Sequence[int]], encoding: str = "csv") -> str:
    flat = [g for row in gids for g in row]
    if encoding == "csv":
        rows = [",".join(str(g) for g in row) for row in gids]
        return '<data encoding="csv">\n' + ",\n".join(rows) + "\n</data>"
    packed = struct.pack(f"<{len(flat)}I", *flat)
    if encoding == "base64":
        return f'<data encoding="base64">{base64.b64encode(packed).decode()}</data>'
    if encoding == "zlib":
        text = base64.b64encode(zlib.compress(packed)).decode()
        return f'<data encoding="base64" compression="zlib">{text}</data>'
    if encoding == "gzip":
        text = base64.b64encode(gzip.compress(packed)).decode()
        return f'<data encoding="base64" compression="gzip">{text}</data>'
    if encoding == "xml":
        return "<data>" + "".join(f'<tile gid="{g}"/>' for g in flat) + "</data>"
    raise ValueError(encoding)


_next_layer_id = [1]


def tile_layer(
    name: str,
    gids: Sequence[Sequence[int]],
    *,
    encoding: str = "csv",
    props: Mapping[str, object] | None = None,
    attrs: str = "",
) -> str:
    h = len(gids)
    w = len(gids[0]) if gids else 0
    return (
        f'<layer name={quoteattr(name)} width="{w}" height="{h}"{" " + attrs if attrs else ""}>'
        f"{properties_xml(props)}{encode_data(gids, encoding)}</layer>"
    )


def group(
    name: str, children: Iterable[str], *, attrs: str = "", props: Mapping[str, object] | None = None
) -> str:
    head = f"<group name={quoteattr(name)}{' ' + attrs if attrs else ''}>"
    return f"{head}{properties_xml(props)}{''.join(children)}</group>"


def object_layer(
    name: str, objects: Iterable[str], *, attrs: str = "", props: Mapping[str, object] | None = None
) -> str:
    head = f"<objectgroup name={quoteattr(name)}{' ' + attrs if attrs else ''}>"
    return f"{head}{properties_xml(props)}{''.join(objects)}</objectgroup>"


def image_layer(name: str, source: str, *, attrs: str = "") -> str:
    head = f"<imagelayer name={quoteattr(name)}{' ' + attrs if attrs else ''}>"
    return f"{head}<image source={quoteattr(source)}/></imagelayer>"


@dataclass
class Obj:
    """An object for an object layer; ``shape`` rectangle/ellipse/point/polygon/polyline/tile."""

    id: int
    x: float
    y: float
    width: float = 0.0
    height: float = 0.0
    shape: str = "rectangle"
    gid: int = 0
    points: Sequence[tuple[float, float]] = ()
    rotation: float = 0.0
    name: str = ""
    props: dict[str, object] = field(default_factory=dict)

    def xml(self) -> str:
        attrs = f'id="{self.id}" x="{self.x}" y="{self.y}"'
        if self.name:
            attrs += f" name={quoteattr(self.name)}"
        if self.gid:
            attrs += f' gid="{self.gid}"'
        if self.width or self.height:
            attrs += f' width="{self.width}" height="{self.height}"'
        if self.rotation:
            attrs += f' rotation="{self.rotation}"'
        inner = properties_xml(self.props)
        if self.shape in ("polygon", "polyline"):
            inner += f'<{self.shape} points="{" ".join(f"{px},{py}" for px, py in self.points)}"/>'
        elif self.shape in ("ellipse", "point"):
            inner += f"<{self.shape}/>"
        return f"<object {attrs}>{inner}</object>"


def map_xml(
    width: int,
    height: int,
    *,
    tilesets: Iterable[str] = (),
    layers: Iterable[str] = (),
    props: Mapping[str, object] | None = None,
    orientation: str = "hexagonal",
    stagger_axis: str = "y",
    stagger_index: str = "odd",
    tile_w: int | None = None,
    tile_h: int | None = None,
    hex_side: int = HEX_SIDE,
    extra: str = "",
) -> str:
    if tile_w is None:
        tile_w = TILE_W if stagger_axis == "y" else TILE_H
    if tile_h is None:
        tile_h = TILE_H if stagger_axis == "y" else TILE_W
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.10" tiledversion="1.10.2" orientation="{orientation}" renderorder="right-down" '
        f'width="{width}" height="{height}" tilewidth="{tile_w}" tileheight="{tile_h}" infinite="0" '
        f'hexsidelength="{hex_side}" staggeraxis="{stagger_axis}" staggerindex="{stagger_index}"{extra}>'
        f"{properties_xml(props)}{''.join(tilesets)}{''.join(layers)}</map>\n"
    )


def write_text(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def grid(
    width: int, height: int, fill: int = 0, cells: Mapping[tuple[int, int], int] | None = None
) -> list[list[int]]:
    g = [[fill] * width for _ in range(height)]
    for (col, row), gid in (cells or {}).items():
        g[row][col] = gid
    return g


def standard_map(
    directory: Path,
    width: int = 8,
    height: int = 8,
    *,
    terrain: Mapping[tuple[int, int], int] | None = None,
    objects: Iterable[Obj] = (),
    extra_layers: Iterable[str] = (),
    props: Mapping[str, object] | None = None,
    encoding: str = "csv",
    external: bool = True,
    name: str = "map.tmx",
    stagger_axis: str = "y",
    stagger_index: str = "odd",
    with_deploy: bool = False,
) -> Path:
    """A grass map with the standard tileset (gid = local id + 1) and a 'terrain' layer of local ids.

    ``terrain`` maps (col, row) -> local tile id (``WALL``, ``BARREL`` ...).
    ``with_deploy`` adds side1/side2 zones along the left and right map edges.
    """
    tw = TILE_W if stagger_axis == "y" else TILE_H
    th = TILE_H if stagger_axis == "y" else TILE_W
    body = sheet_tileset_body(tile_w=tw, tile_h=th)
    write_png(directory / "terrain.png", 4 * tw, 2 * th)
    if external:
        write_tsx(directory / "terrain.tsx", body)
        tilesets = [external_tileset(1, "terrain.tsx")]
    else:
        tilesets = [embedded_tileset(1, body)]
    layers = [
        tile_layer("ground", grid(width, height, GRASS + 1), encoding=encoding),
        tile_layer(
            "terrain",
            grid(width, height, 0, {k: v + 1 for k, v in (terrain or {}).items()}),
            encoding=encoding,
        ),
        *extra_layers,
    ]
    objs = list(objects)
    if with_deploy:
        from game.hexgrid import StaggerAxis, StaggerIndex, TiledHexGeometry

        geo = TiledHexGeometry.create(
            tw, th, HEX_SIDE, StaggerAxis(stagger_axis), StaggerIndex(stagger_index)
        )
        pw, ph = geo.map_pixel_size(width, height)
        objs.append(Obj(900, 0, 0, geo.column_width, ph, props={"deploy": Enum("side1", "Side")}))
        objs.append(
            Obj(901, pw - geo.column_width, 0, geo.column_width, ph, props={"deploy": Enum("side2", "Side")})
        )
    if objs:
        layers.append(object_layer("objects", [o.xml() for o in objs]))
    return write_text(
        directory / name,
        map_xml(
            width,
            height,
            tilesets=tilesets,
            layers=layers,
            props=props,
            stagger_axis=stagger_axis,
            stagger_index=stagger_index,
        ),
    )
