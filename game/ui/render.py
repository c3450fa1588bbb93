"""Draw a :class:`~game.tiledmap.TiledMap` with pygame exactly where Tiled draws it.

The placement follows Tiled's ``CellRenderer::render`` and ``HexagonalRenderer::drawTileLayer``:

* layers in file order, hidden layers skipped, layer opacity, offsets and tint;
* a tile's picture is drawn at its render size (``tilerendersize``), anchored bottom-left at the cell's
  origin + map tile height, moved by the tileset's ``tileoffset``;
* the transform is Qt's ``translate(centre) * rotate(r) * scale(+-sx, +-sy)`` about the picture's centre,
  with ``r = 60`` for the diagonal-flip bit and ``+120`` for the hexagonal 120-degree bit, and negative
  scales for the horizontal / vertical flips;
* cells are drawn in screen order (by the top of their box, then left to right), which is the order of
  Tiled's stagger-aware loop, so tall pictures overlap the same way;
* tile objects are anchored bottom-left at their position, sized to the object, rotated about their
  position; ``draworder="topdown"`` sorts them by y (stable).

Rotated or scaled pictures are resampled here the way Qt's raster engine does it without smoothing
(``tmxrasterizer --no-smoothing``): a destination pixel is painted when its centre maps inside the source
picture, and takes the source pixel that centre falls in.

Shape objects (deploy zones, objectives, doors drawn as rectangles) are game data, not art: they are not
drawn here, where ``tmxrasterizer`` would outline them.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pygame

from game.hexgrid import TiledHexGeometry
from game.tiledmap import (
    Cell,
    ImageLayer,
    ObjectLayer,
    TiledMap,
    TileInfo,
    TileLayer,
    load_tiled_map,
)
from game.ui import settings

__all__ = [
    "Affine",
    "DrawOp",
    "MapRenderer",
    "TileImages",
    "draw_cell_coords",
    "draw_hex_grid",
    "ensure_pygame",
    "parse_tiled_color",
    "render_map_backdrop",
    "render_map_file",
    "transform_picture",
]


def ensure_pygame() -> None:
    """Initialise the pygame parts the UI needs (not audio); works with no display at all."""
    if not pygame.font.get_init():
        pygame.font.init()


def parse_tiled_color(text: str | None) -> tuple[int, int, int, int] | None:
    """Tiled writes colours as ``#rrggbb`` or ``#aarrggbb``; returns RGBA, or None for no/invalid colour."""
    if not text:
        return None
    value = text.strip().lstrip("#")
    try:
        if len(value) == 6:
            return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16), 255
        if len(value) == 8:
            return int(value[2:4], 16), int(value[4:6], 16), int(value[6:8], 16), int(value[0:2], 16)
    except ValueError:
        return None
    return None


def _qround(value: float) -> int:
    """Qt's qRound: halves round away from zero."""
    return math.floor(value + 0.5) if value >= 0 else -math.floor(-value + 0.5)


# --------------------------------------------------------------------------------------------------
# Affine transforms, in Qt's QTransform convention


@dataclass(frozen=True, slots=True)
class Affine:
    """x' = m11*x + m21*y + dx ; y' = m12*x + m22*y + dy (Qt's ``QTransform`` for affine maps)."""

    m11: float = 1.0
    m12: float = 0.0
    m21: float = 0.0
    m22: float = 1.0
    dx: float = 0.0
    dy: float = 0.0

    def then(self, outer: Affine) -> Affine:
        """This transform followed by ``outer``."""
        return Affine(
            self.m11 * outer.m11 + self.m12 * outer.m21,
            self.m11 * outer.m12 + self.m12 * outer.m22,
            self.m21 * outer.m11 + self.m22 * outer.m21,
            self.m21 * outer.m12 + self.m22 * outer.m22,
            self.dx * outer.m11 + self.dy * outer.m21 + outer.dx,
            self.dx * outer.m12 + self.dy * outer.m22 + outer.dy,
        )

    def map(self, x: float, y: float) -> tuple[float, float]:
        return self.m11 * x + self.m21 * y + self.dx, self.m12 * x + self.m22 * y + self.dy

    def inverted(self) -> Affine:
        det = self.m11 * self.m22 - self.m12 * self.m21
        if det == 0:
            raise ValueError("transform is not invertible")
        i11 = self.m22 / det
        i12 = -self.m12 / det
        i21 = -self.m21 / det
        i22 = self.m11 / det
        return Affine(i11, i12, i21, i22, -(self.dx * i11 + self.dy * i21), -(self.dx * i12 + self.dy * i22))

    @staticmethod
    def translation(x: float, y: float) -> Affine:
        return Affine(dx=x, dy=y)

    @staticmethod
    def scaling(sx: float, sy: float) -> Affine:
        return Affine(m11=sx, m22=sy)

    @staticmethod
    def rotation(degrees: float) -> Affine:
        """Clockwise on screen (y down), like ``QTransform::rotate``, exact for multiples of 90."""
        deg = degrees % 360
        exact = {0: (1.0, 0.0), 90: (0.0, 1.0), 180: (-1.0, 0.0), 270: (0.0, -1.0)}
        if deg in exact:
            c, s = exact[int(deg)]
        else:
            rad = math.radians(deg)
            c, s = math.cos(rad), math.sin(rad)
        return Affine(m11=c, m12=s, m21=-s, m22=c)


def transform_picture(picture: pygame.Surface, transform: Affine) -> tuple[pygame.Surface, int, int]:
    """Resample ``picture`` through ``transform`` (source pixel coords -> target pixel coords).

    Returns the transformed picture and the integer target position of its top-left corner. Mirrors and
    whole-pixel moves are exact copies; anything else samples the source at each target pixel centre,
    nearest neighbour, as Qt's raster engine does with smoothing off. (Qt walks the turned outline in
    16.16 fixed point, so where a pixel centre lies within ~1/256 px of a turned picture's edge, Qt may
    decide the other way: about one pixel per turned tile, measured in tests/test_render.py.)
    """
    w, h = picture.get_size()
    t = transform
    if t.m12 == 0 and t.m21 == 0 and abs(t.m11) == 1 and abs(t.m22) == 1:
        flipped = (
            pygame.transform.flip(picture, t.m11 < 0, t.m22 < 0) if (t.m11 < 0 or t.m22 < 0) else picture
        )
        left = t.dx if t.m11 > 0 else t.dx - w
        top = t.dy if t.m22 > 0 else t.dy - h
        return flipped, _qround(left), _qround(top)
    corners = [t.map(0, 0), t.map(w, 0), t.map(w, h), t.map(0, h)]
    min_x = math.floor(min(c[0] for c in corners))
    max_x = math.ceil(max(c[0] for c in corners))
    min_y = math.floor(min(c[1] for c in corners))
    max_y = math.ceil(max(c[1] for c in corners))
    out_w, out_h = max(1, max_x - min_x), max(1, max_y - min_y)
    inv = transform.inverted()
    src = pygame.image.tobytes(picture, "RGBA")
    dst = bytearray(out_w * out_h * 4)
    stride = w * 4
    for oy in range(out_h):
        cy = min_y + oy + 0.5
        row_u = inv.m21 * cy + inv.dx
        row_v = inv.m22 * cy + inv.dy
        base = oy * out_w * 4
        for ox in range(out_w):
            cx = min_x + ox + 0.5
            u = inv.m11 * cx + row_u
            v = inv.m12 * cx + row_v
            if 0 <= u < w and 0 <= v < h:
                s = int(v) * stride + int(u) * 4
                d = base + ox * 4
                dst[d : d + 4] = src[s : s + 4]
    return pygame.image.frombytes(bytes(dst), (out_w, out_h), "RGBA"), min_x, min_y


# --------------------------------------------------------------------------------------------------
# Tile pictures


class TileImages:
    """Each image file loaded once, each tile's picture a subsurface of it; transformed pictures cached.

    Pictures are ``convert_alpha``-ed when a display mode is set (fast blits), and left as loaded when
    there is none (headless rendering works).
    """

    def __init__(self, tiles: dict[int, TileInfo]) -> None:
        self._tiles = tiles
        self._sheets: dict[Path, pygame.Surface | None] = {}
        self._pictures: dict[int, pygame.Surface | None] = {}
        self._variants: dict[tuple[object, ...], tuple[pygame.Surface, int, int]] = {}
        self.problems: list[str] = []

    def sheet(self, path: Path) -> pygame.Surface | None:
        if path not in self._sheets:
            try:
                image = pygame.image.load(str(path))
            except (pygame.error, FileNotFoundError, OSError) as error:
                self.problems.append(f"cannot read tile image {path}: {error}")
                self._sheets[path] = None
                return None
            if pygame.display.get_init() and pygame.display.get_surface() is not None:
                image = image.convert_alpha()
            self._sheets[path] = image
        return self._sheets[path]

    def picture(self, gid: int) -> pygame.Surface | None:
        """The tile's picture at its natural size (a subsurface of its sheet), or None if missing."""
        if gid not in self._pictures:
            info = self._tiles.get(gid)
            picture: pygame.Surface | None = None
            if info is not None and info.image is not None:
                sheet = self.sheet(info.image)
                if sheet is not None:
                    rect = pygame.Rect(info.rect)
                    if sheet.get_rect().contains(rect) and rect.width > 0 and rect.height > 0:
                        picture = sheet.subsurface(rect)
                    else:
                        self.problems.append(f"tile {gid}: rectangle {info.rect} is outside {info.image}")
            self._pictures[gid] = picture
        return self._pictures[gid]

    def placed(
        self,
        cell: Cell,
        box_x: float,
        box_y: float,
        size: tuple[float, float],
        outer: Affine | None = None,
    ) -> tuple[pygame.Surface, int, int] | None:
        """The tile picture as Tiled paints it into the box with top-left (box_x, box_y) and ``size``.

        ``outer`` is an extra transform applied afterwards (tile-object rotation). Returns the surface and
        the integer target position of its top-left, or None when the tile has no picture.
        """
        info = self._tiles.get(cell.gid)
        picture = self.picture(cell.gid)
        if info is None or picture is None:
            return None
        pw, ph = picture.get_size()
        scale_x = size[0] / pw
        scale_y = size[1] / ph
        centre_x = box_x + size[0] / 2 + info.offset[0] * scale_x
        centre_y = box_y + size[1] / 2 + info.offset[1] * scale_y
        rotation = (60 if cell.flip_d else 0) + (120 if cell.rotate_120 else 0)
        fast = outer is None and rotation == 0 and scale_x == 1 and scale_y == 1
        if fast and not cell.flip_h and not cell.flip_v:
            return picture, _qround(box_x + info.offset[0]), _qround(box_y + info.offset[1])
        # Everything but the whole-pixel position of the centre decides the resampled picture, so cache
        # by that and move the result.
        base_x, base_y = math.floor(centre_x), math.floor(centre_y)
        frac = (centre_x - base_x, centre_y - base_y)
        local = (
            Affine.translation(-pw / 2, -ph / 2)
            .then(Affine.scaling(-scale_x if cell.flip_h else scale_x, -scale_y if cell.flip_v else scale_y))
            .then(Affine.rotation(rotation))
        )
        if outer is None:
            key: tuple[object, ...] = (cell, size, frac)
            cached = self._variants.get(key)
            if cached is None:
                cached = transform_picture(picture, local.then(Affine.translation(*frac)))
                self._variants[key] = cached
            surface, x, y = cached
            return surface, x + base_x, y + base_y
        full = local.then(Affine.translation(centre_x, centre_y)).then(outer)
        return transform_picture(picture, full)


# --------------------------------------------------------------------------------------------------
# The display list


@dataclass(frozen=True, slots=True)
class DrawOp:
    """One blit of the map picture, in map pixel coordinates (Tiled's, before any margin)."""

    surface: pygame.Surface
    x: int
    y: int

    @property
    def rect(self) -> pygame.Rect:
        return pygame.Rect(self.x, self.y, *self.surface.get_size())


def _with_opacity(
    surface: pygame.Surface, opacity: float, tint: tuple[int, int, int, int] | None
) -> pygame.Surface:
    if opacity >= 1.0 and (tint is None or tint == (255, 255, 255, 255)):
        return surface
    result = surface.convert_alpha() if pygame.display.get_surface() is not None else surface.copy()
    if result.get_bitsize() != 32 or not result.get_flags() & pygame.SRCALPHA:
        result = pygame.Surface(surface.get_size(), pygame.SRCALPHA, 32)
        result.blit(surface, (0, 0))
    r, g, b, a = tint if tint is not None else (255, 255, 255, 255)
    result.fill((r, g, b, round(a * max(0.0, min(1.0, opacity)))), special_flags=pygame.BLEND_RGBA_MULT)
    return result


def cell_draw_order(geometry: TiledHexGeometry, width: int, height: int) -> list[tuple[int, int]]:
    """Cells in the order Tiled's hexagonal renderer visits them: by the top of the cell box, then x."""
    return list(_cell_draw_order(geometry, width, height))


@functools.lru_cache(maxsize=16)
def _cell_draw_order(geometry: TiledHexGeometry, width: int, height: int) -> tuple[tuple[int, int], ...]:
    """:func:`cell_draw_order`, worked out once per grid (every tile layer of a map shares it)."""
    keyed = []
    for row in range(height):
        for col in range(width):
            x, y = geometry.cell_origin(col, row)
            keyed.append((y, x, col, row))
    keyed.sort()
    return tuple((col, row) for _y, _x, col, row in keyed)


class MapRenderer:
    """Turns a TiledMap into a list of blits once, then draws any region of it on demand."""

    def __init__(self, tmap: TiledMap, images: TileImages | None = None) -> None:
        ensure_pygame()
        self.map = tmap
        self.images = images if images is not None else TileImages(tmap.tiles)
        self.background = parse_tiled_color(tmap.background)
        self._opacity_cache: dict[tuple[int, float, tuple[int, int, int, int] | None], pygame.Surface] = {}
        self.ops: list[DrawOp] = list(self._build_ops())
        self.bounds = self._image_bounds()

    # -- building the display list
    def _build_ops(self) -> Iterator[DrawOp]:
        for layer in self.map.layers:
            if not layer.visible or layer.opacity <= 0:
                continue
            if isinstance(layer, TileLayer):
                yield from self._tile_layer_ops(layer)
            elif isinstance(layer, ObjectLayer):
                yield from self._object_layer_ops(layer)
            elif isinstance(layer, ImageLayer):
                yield from self._image_layer_ops(layer)

    def _op(
        self,
        placed: tuple[pygame.Surface, int, int] | None,
        opacity: float,
        tint: tuple[int, int, int, int] | None = None,
    ) -> DrawOp | None:
        if placed is None:
            return None
        surface, x, y = placed
        if opacity < 1.0 or tint is not None:
            key = (id(surface), round(opacity, 4), tint)
            cached = self._opacity_cache.get(key)
            if cached is None:
                cached = _with_opacity(surface, opacity, tint)
                self._opacity_cache[key] = cached
            surface = cached
        return DrawOp(surface, x, y)

    def _tile_layer_ops(self, layer: TileLayer) -> Iterator[DrawOp]:
        geometry = self.map.geometry
        tint = parse_tiled_color(layer.tint)
        ox, oy = layer.offset
        for col, row in cell_draw_order(
            geometry, min(layer.width, self.map.width), min(layer.height, self.map.height)
        ):
            cell = layer.cell(col, row)
            if cell is None:
                continue
            info = self.map.tiles.get(cell.gid)
            size = (
                info.render_size if info is not None else (geometry.map_tile_width, geometry.map_tile_height)
            )
            x, y = geometry.cell_origin(col, row)
            # Tiled anchors pictures at the cell origin + its hex tile height (RenderParams::tileHeight, the
            # rounded one for odd sizes), bottom-left.
            box_y = y + geometry.tile_height - size[1]
            placed = self.images.placed(cell, x + ox, box_y + oy, (float(size[0]), float(size[1])))
            if placed is None:
                placed = self._missing_marker(x + ox, box_y + oy, size)
            op = self._op(placed, layer.opacity, tint)
            if op is not None:
                yield op

    def _object_layer_ops(self, layer: ObjectLayer) -> Iterator[DrawOp]:
        objects = list(layer.objects)
        if layer.draw_order == "topdown":
            objects.sort(key=lambda o: o.y)  # stable, like Tiled's std::stable_sort
        ox, oy = layer.offset
        for obj in objects:
            cell = obj.cell
            if not obj.visible or cell is None:
                continue
            info = self.map.tiles.get(cell.gid)
            picture = self.images.picture(cell.gid)
            if info is None or picture is None:
                continue
            width = obj.width if obj.width > 0 else float(picture.get_width())
            height = obj.height if obj.height > 0 else float(picture.get_height())
            outer: Affine | None = None
            if obj.rotation:
                px, py = obj.x + ox, obj.y + oy
                outer = (
                    Affine.translation(-px, -py)
                    .then(Affine.rotation(obj.rotation))
                    .then(Affine.translation(px, py))
                )
            placed = self.images.placed(cell, obj.x + ox, obj.y - height + oy, (width, height), outer)
            op = self._op(placed, layer.opacity)
            if op is not None:
                yield op

    def _image_layer_ops(self, layer: ImageLayer) -> Iterator[DrawOp]:
        if layer.image is None:
            return
        image = self.images.sheet(layer.image)
        if image is None:
            return
        op = self._op((image, _qround(layer.offset[0]), _qround(layer.offset[1])), layer.opacity)
        if op is not None:
            yield op

    def _missing_marker(self, x: float, y: float, size: tuple[int, int]) -> tuple[pygame.Surface, int, int]:
        w, h = max(1, size[0]), max(1, size[1])
        marker = pygame.Surface((w, h), pygame.SRCALPHA, 32)
        marker.fill((0, 0, 0, 128))
        pygame.draw.rect(marker, (255, 0, 0, 255), marker.get_rect(), 1)
        pygame.draw.line(marker, (255, 0, 0, 255), (0, 0), (w - 1, h - 1))
        pygame.draw.line(marker, (255, 0, 0, 255), (w - 1, 0), (0, h - 1))
        return marker, _qround(x), _qround(y)

    def _image_bounds(self) -> pygame.Rect:
        """The rectangle tmxrasterizer renders, in map pixels (current Tiled's ``mapBoundingRect``).

        The map's hex area, widened by the offsets of tile layers (``qCeil`` of each) and by image layers.
        """
        width, height = self.map.pixel_size
        left, top = self.map.geometry.map_pixel_origin(self.map.width, self.map.height)
        rect = pygame.Rect(left, top, width, height)
        m_left = m_top = m_right = m_bottom = 0
        for layer in self.map.layers:
            if isinstance(layer, TileLayer):
                ox, oy = layer.offset
                m_left = max(m_left, math.ceil(-ox))
                m_top = max(m_top, math.ceil(-oy))
                m_right = max(m_right, math.ceil(ox))
                m_bottom = max(m_bottom, math.ceil(oy))
            elif isinstance(layer, ImageLayer) and layer.image is not None:
                image = self.images.sheet(layer.image)
                if image is not None:
                    rect.union_ip(
                        pygame.Rect(
                            math.floor(layer.offset[0]), math.floor(layer.offset[1]), *image.get_size()
                        )
                    )
        return pygame.Rect(
            rect.x - m_left, rect.y - m_top, rect.w + m_left + m_right, rect.h + m_top + m_bottom
        )

    # -- drawing
    def ops_in(self, region: pygame.Rect) -> Iterator[DrawOp]:
        for op in self.ops:
            if region.colliderect(op.rect):
                yield op

    def draw(
        self, target: pygame.Surface, origin: tuple[int, int], ops: Iterable[DrawOp] | None = None
    ) -> None:
        """Blit the map so that map pixel (0, 0) lands at ``origin`` on ``target``."""
        ox, oy = origin
        blits = [(op.surface, (op.x + ox, op.y + oy)) for op in (self.ops if ops is None else ops)]
        target.fblits(blits)

    def render(self, *, background: bool = False) -> pygame.Surface:
        """The whole map as tmxrasterizer renders it (transparent where nothing is drawn).

        ``background=True`` fills with the map's background colour first (Tiled's editor does; the
        rasterizer does not).
        """
        surface = pygame.Surface(self.bounds.size, pygame.SRCALPHA, 32)
        surface.fill((0, 0, 0, 0))
        if background and self.background is not None:
            surface.fill(self.background)
        self.draw(surface, (-self.bounds.x, -self.bounds.y))
        return surface


# --------------------------------------------------------------------------------------------------
# Grid and coordinates overlays


def draw_hex_grid(
    target: pygame.Surface,
    geometry: TiledHexGeometry,
    cells: Sequence[tuple[int, int]],
    origin: tuple[int, int],
    color: tuple[int, int, int, int] = settings.GRID_COLOR,
) -> None:
    """Outline ``cells`` with 1-pixel hexagons (Tiled's grid), blended onto ``target``."""
    overlay = pygame.Surface(target.get_size(), pygame.SRCALPHA, 32)
    ox, oy = origin
    for col, row in cells:
        points = [(x + ox, y + oy) for x, y in geometry.cell_polygon(col, row)]
        pygame.draw.polygon(overlay, color, points, 1)
    target.blit(overlay, (0, 0))


def draw_cell_coords(
    target: pygame.Surface,
    geometry: TiledHexGeometry,
    cells: Sequence[tuple[int, int]],
    origin: tuple[int, int],
    font: pygame.font.Font | None = None,
) -> None:
    """Write "col,row" small in the middle of each cell, dark on a light halo so it reads on any tile."""
    ensure_pygame()
    if font is None:
        font = pygame.font.Font(None, max(10, min(18, geometry.tile_height // 4)))
    ox, oy = origin
    for col, row in cells:
        label = f"{col},{row}"
        text = font.render(label, True, settings.COORD_TEXT_COLOR)
        halo = font.render(label, True, settings.COORD_SHADOW_COLOR)
        cx, cy = geometry.cell_center(col, row)
        x = round(cx + ox - text.get_width() / 2)
        y = round(cy + oy - text.get_height() / 2)
        for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            target.blit(halo, (x + dx, y + dy))
        target.blit(text, (x, y))


def all_cells(tmap: TiledMap) -> list[tuple[int, int]]:
    return [(col, row) for row in range(tmap.height) for col in range(tmap.width)]


def render_map_surface(
    tmap: TiledMap, *, grid: bool = False, coords: bool = False, background: bool = False
) -> pygame.Surface:
    renderer = MapRenderer(tmap)
    surface = renderer.render(background=background)
    origin = (-renderer.bounds.x, -renderer.bounds.y)
    if grid:
        draw_hex_grid(surface, tmap.geometry, all_cells(tmap), origin)
    if coords:
        draw_cell_coords(surface, tmap.geometry, all_cells(tmap), origin)
    return surface


def render_map_file(
    map_path: str | Path,
    out_png: str | Path,
    grid: bool = False,
    coords: bool = False,
    background: bool = False,
) -> tuple[int, int]:
    """Write the whole map to ``out_png`` as ``tmxrasterizer --no-smoothing`` would; returns its size.

    Raises :class:`MapLoadError` for a missing or broken map and ``OSError`` when the PNG can't be written.
    """
    path = Path(map_path)
    tmap = load_tiled_map(path)  # a missing file, a FIFO or a device: a MapLoadError saying which
    ensure_pygame()
    surface = render_map_surface(tmap, grid=grid, coords=coords, background=background)
    out = Path(out_png)
    try:
        pygame.image.save(surface, str(out))
    except pygame.error as error:
        raise OSError(f"cannot write {out}: {error}") from error
    return surface.get_size()


def render_map_backdrop(map_path: str | Path, out_png: str | Path) -> tuple[int, int]:
    """Write the whole map to ``out_png`` with its background colour, as :func:`render_map_file` does, and
    return where map pixel (0, 0) lies in the picture, for drawing over it (``hexslinger simulate``'s
    heatmap). Raises what :func:`render_map_file` raises."""
    tmap = load_tiled_map(Path(map_path))
    ensure_pygame()
    renderer = MapRenderer(tmap)
    surface = renderer.render(background=True)
    try:
        pygame.image.save(surface, str(out_png))
    except pygame.error as error:
        raise OSError(f"cannot write {out_png}: {error}") from error
    return -renderer.bounds.x, -renderer.bounds.y
