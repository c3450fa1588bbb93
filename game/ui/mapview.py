"""The battle map on screen: a cached, chunked picture of the map per zoom, a camera and the hovered hex.

The map is never re-rendered per frame. It is cut into square chunks of map pixels; a chunk is drawn
from the renderer's display list the first time it is needed, once per zoom level (zoomed out, straight
at that zoom from the map's pictures scaled down once each; zoomed in, at full size then scaled), and kept
in an LRU cache bounded by the bytes of its pixels (:data:`~game.ui.settings.BASE_CACHE_BYTES`,
:data:`~game.ui.settings.ZOOMED_CACHE_BYTES`). A frame is one fill, a handful of chunk blits and the hover
outline.

Chunks are built lazily and spread over frames (issue 13: the first frame at a new zoom level within
16 ms): a frame builds chunks for at most :data:`~game.ui.settings.CHUNK_BUILD_BUDGET_MS` (one at least);
a chunk not built yet is shown meanwhile from the same part of the map at a zoom level still cached,
scaled roughly, else left in the map's background colour, and :attr:`MapView.pending` says how many are
still to come (the window keeps drawing frames until none are).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Sequence

import pygame

from game.tiledmap import TiledMap
from game.ui import settings
from game.ui.camera import Camera, quantize_zoom
from game.ui.render import DrawOp, MapRenderer, draw_cell_coords, draw_hex_grid

ChunkKey = tuple[int, int, int]  # base chunk size, chunk column, chunk row


class MapView:
    """Draws the visible part of a map into a rectangle of a surface; owns the camera and the hover."""

    def __init__(
        self, tmap: TiledMap, view_size: tuple[int, int], renderer: MapRenderer | None = None
    ) -> None:
        self.map = tmap
        self.renderer = renderer if renderer is not None else MapRenderer(tmap)
        self.bounds = self.renderer.bounds.copy()
        hex_w, hex_h = tmap.pixel_size
        self.camera = Camera(
            center_x=self.bounds.centerx,
            center_y=self.bounds.centery,
            zoom=1.0,
            view_w=view_size[0],
            view_h=view_size[1],
            bounds=(0, 0, max(1, hex_w), max(1, hex_h)),
        )
        background = self.renderer.background
        self.fill_color: tuple[int, int, int] = (
            (background[0], background[1], background[2]) if background is not None else settings.VOID_COLOR
        )
        self.show_grid = False
        self.show_coords = False
        self.hover: tuple[int, int] | None = None
        self._base_chunks: OrderedDict[ChunkKey, pygame.Surface] = OrderedDict()
        self._zoomed_chunks: OrderedDict[tuple[float, int, int], pygame.Surface] = OrderedDict()
        self._buckets: dict[int, dict[tuple[int, int], list[DrawOp]]] = {}
        self._cell_buckets: dict[int, dict[tuple[int, int], list[tuple[int, int]]]] = {}
        self._base_bytes = 0
        self._zoomed_bytes = 0
        self.frames_drawn = 0
        self.pending = 0  # visible chunks the last frame could not build yet (drawn from a stand-in)
        self.built = 0  # chunks built so far (at any zoom)
        self._stand_ins: dict[tuple[float, int, int], pygame.Surface] = {}
        # the map's pictures scaled for a zoomed-out level, by (id of the picture, width, height); the
        # pictures are the renderer's own, alive as long as this view, so an id is never reused here
        self._scaled_pictures: dict[tuple[int, int, int], pygame.Surface] = {}
        self._ahead: list[tuple[int, int]] = []  # chunks to build ahead at _ahead_zoom, nearest first
        self._ahead_zoom: float | None = None

    # -- camera and input helpers
    def resize(self, view_size: tuple[int, int]) -> None:
        self.camera.resize(*view_size)

    def set_zoom(self, zoom: float, anchor: tuple[float, float] | None = None) -> None:
        ax, ay = anchor if anchor is not None else (self.camera.view_w / 2, self.camera.view_h / 2)
        self.camera.zoom_at(zoom, ax, ay)

    def zoom_by(self, notches: float, anchor: tuple[float, float]) -> None:
        self.set_zoom(self.camera.zoom * settings.ZOOM_STEP**notches, anchor)

    def cell_at_screen(self, sx: float, sy: float) -> tuple[int, int] | None:
        """The map cell under a point of the view, or None off the map (exactly Tiled's picking)."""
        mx, my = self.camera.screen_to_map(sx, sy)
        col, row = self.map.geometry.pixel_to_cell(mx, my)
        if 0 <= col < self.map.width and 0 <= row < self.map.height:
            return col, row
        return None

    def set_hover_screen(self, sx: float, sy: float) -> None:
        inside = 0 <= sx < self.camera.view_w and 0 <= sy < self.camera.view_h
        self.hover = self.cell_at_screen(sx, sy) if inside else None

    def toggle_grid(self) -> None:
        self.show_grid = not self.show_grid
        self._invalidate()

    def toggle_coords(self) -> None:
        self.show_coords = not self.show_coords
        self._invalidate()

    def _invalidate(self) -> None:
        self._ahead_zoom = None
        self._base_chunks.clear()
        self._zoomed_chunks.clear()
        self._base_bytes = self._zoomed_bytes = 0
        self._stand_ins.clear()

    def forget_pictures(self) -> None:
        """Drop every cached map picture (the next frame draws from the display list again)."""
        self._invalidate()
        self._scaled_pictures.clear()

    def cache_bytes(self) -> int:
        """The bytes of pixels the map picture caches hold now."""
        return self._base_bytes + self._zoomed_bytes

    # -- chunk cache
    def _base_chunk_size(self, zoom: float) -> int:
        """Map pixels per chunk: bigger when zoomed out, so a frame blits about the same number of chunks."""
        doublings = max(0, math.ceil(math.log2(1 / zoom) - 1e-9)) if zoom < 1 else 0
        return settings.CHUNK_SIZE << doublings

    def _bucket(self, size: int) -> dict[tuple[int, int], list[DrawOp]]:
        buckets = self._buckets.get(size)
        if buckets is None:
            buckets = {}
            for op in self.renderer.ops:
                x, y = op.x, op.y
                w, h = op.surface.get_size()
                i0, i1, j0, j1 = x // size, (x + w - 1) // size, y // size, (y + h - 1) // size
                if i0 == i1 and j0 == j1:  # most pictures lie in one chunk
                    bucket = buckets.get((i0, j0))
                    if bucket is None:
                        buckets[(i0, j0)] = [op]
                    else:
                        bucket.append(op)
                    continue
                for j in range(j0, j1 + 1):
                    for i in range(i0, i1 + 1):
                        buckets.setdefault((i, j), []).append(op)
            self._buckets[size] = buckets
        return buckets

    def _cells_bucket(self, size: int) -> dict[tuple[int, int], list[tuple[int, int]]]:
        buckets = self._cell_buckets.get(size)
        if buckets is None:
            buckets = {}
            geometry = self.map.geometry
            for row in range(self.map.height):
                for col in range(self.map.width):
                    x, y = geometry.cell_origin(col, row)
                    right, bottom = x + geometry.tile_width, y + geometry.tile_height
                    for j in range(y // size, bottom // size + 1):
                        for i in range(x // size, right // size + 1):
                            buckets.setdefault((i, j), []).append((col, row))
            self._cell_buckets[size] = buckets
        return buckets

    def _base_chunk(self, size: int, i: int, j: int) -> pygame.Surface:
        key = (size, i, j)
        chunk = self._base_chunks.get(key)
        if chunk is not None:
            self._base_chunks.move_to_end(key)
            return chunk
        chunk = self._fresh_surface(size)
        chunk.fill(self.fill_color)
        origin = (-i * size, -j * size)
        self.renderer.draw(chunk, origin, self._bucket(size).get((i, j), ()))
        if self.show_grid or self.show_coords:
            cells = self._cells_bucket(size).get((i, j), [])
            if self.show_grid:
                draw_hex_grid(chunk, self.map.geometry, cells, origin)
            if self.show_coords:
                draw_cell_coords(chunk, self.map.geometry, cells, origin)
        self._base_chunks[key] = chunk
        self._base_bytes += _bytes(chunk)
        return chunk

    def _fresh_surface(self, size: int) -> pygame.Surface:
        """A surface for a new base chunk, room made for it in the cache first. Zoomed out, a base chunk
        is large (1024 px a side, 4 MB, at a quarter) and only ever shown through its scaled copy: the
        oldest one of that size that goes out of the cache is drawn over rather than a new one made
        (a new one of 4 MB costs 3-7 ms of page faults before anything is drawn on it, issue 13)."""
        need = size * size * 4
        reuse: pygame.Surface | None = None
        while self._base_chunks and self._base_bytes + need > settings.BASE_CACHE_BYTES:
            old = self._base_chunks.popitem(last=False)[1]
            self._base_bytes -= _bytes(old)
            if reuse is None and size > settings.CHUNK_SIZE and old.get_size() == (size, size):
                reuse = old
        if reuse is not None:
            return reuse
        display = pygame.display.get_surface()
        if display is None:
            return pygame.Surface((size, size))
        return pygame.Surface((size, size), 0, display)  # in the display's format: no copy to convert

    @staticmethod
    def _chunk_place(zoom: float, size: int, i: int, j: int) -> tuple[int, int, int, int]:
        """Where chunk (i, j) of ``size`` lies at ``zoom``: its zoomed-pixel x, y, width and height
        (neighbours meet without gaps)."""
        x0, x1 = round(i * size * zoom), round((i + 1) * size * zoom)
        y0, y1 = round(j * size * zoom), round((j + 1) * size * zoom)
        return x0, y0, max(1, x1 - x0), max(1, y1 - y0)

    def _cached_chunk(self, zoom: float, size: int, i: int, j: int) -> pygame.Surface | None:
        """The chunk at ``zoom`` if it is built (marked as just used), else None."""
        if zoom == 1.0:
            chunk = self._base_chunks.get((size, i, j))
            if chunk is not None:
                self._base_chunks.move_to_end((size, i, j))
            return chunk
        chunk = self._zoomed_chunks.get((zoom, i, j))
        if chunk is not None:
            self._zoomed_chunks.move_to_end((zoom, i, j))
        return chunk

    def _zoomed_chunk(self, zoom: float, size: int, i: int, j: int) -> tuple[pygame.Surface, int, int]:
        """The chunk scaled to ``zoom`` (built now if it is not cached) and its zoomed-pixel position."""
        x0, y0, w, h = self._chunk_place(zoom, size, i, j)
        chunk = self._cached_chunk(zoom, size, i, j)
        if chunk is not None:
            return chunk, x0, y0
        self.built += 1
        if zoom < 1 and not (self.show_grid or self.show_coords):
            chunk = self._drawn_zoomed_out(zoom, size, i, j)
        else:
            base = self._base_chunk(size, i, j)
            if zoom == 1.0:
                return base, x0, y0
            if zoom < 1 or zoom != int(zoom):
                chunk = pygame.transform.smoothscale(base, (w, h))
            else:
                chunk = pygame.transform.scale(base, (w, h))
        self._zoomed_chunks[(zoom, i, j)] = chunk
        self._zoomed_bytes += _bytes(chunk)
        while self._zoomed_bytes > settings.ZOOMED_CACHE_BYTES and len(self._zoomed_chunks) > 1:
            self._zoomed_bytes -= _bytes(self._zoomed_chunks.popitem(last=False)[1])
        return chunk, x0, y0

    def _drawn_zoomed_out(self, zoom: float, size: int, i: int, j: int) -> pygame.Surface:
        """Chunk (i, j) drawn straight at ``zoom`` < 1 from the map's pictures scaled to that zoom (each
        distinct picture smoothscaled once per zoom level, :meth:`_scaled_picture`), rather than drawn at
        full size (1024 px a side at a quarter) and the whole of it scaled down: about ``zoom**2`` the
        pixels to fill (issue 13). The same picture but for where each scaled picture's edge rounds to."""
        x0, y0, w, h = self._chunk_place(zoom, size, i, j)
        display = pygame.display.get_surface()
        chunk = pygame.Surface((w, h)) if display is None else pygame.Surface((w, h), 0, display)
        chunk.fill(self.fill_color)
        blits = []
        for op in self._bucket(size).get((i, j), ()):
            left, top = round(op.x * zoom), round(op.y * zoom)
            ow, oh = op.surface.get_size()
            sw, sh = round((op.x + ow) * zoom) - left, round((op.y + oh) * zoom) - top
            if sw > 0 and sh > 0:
                blits.append((self._scaled_picture(op.surface, sw, sh), (left - x0, top - y0)))
        chunk.fblits(blits)
        return chunk

    def _scaled_picture(self, picture: pygame.Surface, w: int, h: int) -> pygame.Surface:
        """``picture`` scaled down to w x h (:func:`_scaled_down`), kept while the view lives (the map's
        pictures are few: 39 on the largest shipped map)."""
        key = (id(picture), w, h)
        scaled = self._scaled_pictures.get(key)
        if scaled is None:
            scaled = _scaled_down(picture, (w, h))
            self._scaled_pictures[key] = scaled
        return scaled

    def _stand_in(self, zoom: float, size: int, i: int, j: int) -> pygame.Surface | None:
        """The part of the map chunk (i, j) covers, from the cached zoom level nearest ``zoom`` (whatever
        its chunk grid), scaled roughly to ``zoom``; kept until the chunk is built. None when no zoom
        level covering it is cached."""
        key = (zoom, i, j)
        if key in self._stand_ins:
            return self._stand_ins[key]
        levels = {z for z, _ci, _cj in self._zoomed_chunks} | ({1.0} if self._base_chunks else set())
        x0, y0, w, h = self._chunk_place(zoom, size, i, j)
        for level in sorted(levels, key=lambda z: abs(math.log(z / zoom))):
            other = self._base_chunk_size(level)
            first_i, last_i = (i * size) // other, ((i + 1) * size - 1) // other
            first_j, last_j = (j * size) // other, ((j + 1) * size - 1) // other
            parts = []
            for cj in range(first_j, last_j + 1):
                for ci in range(first_i, last_i + 1):
                    part = self._cached_chunk(level, other, ci, cj)
                    if part is None:
                        break
                    parts.append((ci, cj, part))
                else:
                    continue
                break
            else:
                picture = pygame.Surface((w, h))
                picture.fill(self.fill_color)
                ratio = zoom / level
                for ci, cj, part in parts:
                    px, py, pw, ph = self._chunk_place(level, other, ci, cj)
                    scaled = pygame.transform.scale(
                        part, (max(1, round(pw * ratio)), max(1, round(ph * ratio)))
                    )
                    picture.blit(scaled, (round(px * ratio) - x0, round(py * ratio) - y0))
                self._stand_ins[key] = picture
                return picture
        return None

    @property
    def ahead_left(self) -> bool:
        """Whether :meth:`build_ahead` may still have chunks to build: some left at the zoom it last built
        for, or the camera at another zoom since (whose chunks it has not looked at yet)."""
        cam = self.camera
        return bool(self._ahead) or quantize_zoom(cam.zoom, cam.min_zoom) != self._ahead_zoom

    def build_ahead(self, budget_ms: float = settings.AHEAD_BUDGET_MS) -> bool:
        """Chunks at the zoom shown that are not built yet, the nearest the view's middle first, built for
        at most ``budget_ms`` of CPU time (one at least) while the cache they go into has room for them under
        :data:`~game.ui.settings.AHEAD_SHARE` of its bytes (none is dropped for them): for a frame in which
        nothing moved. True while some are still to build."""
        cam = self.camera
        zoom = quantize_zoom(cam.zoom, cam.min_zoom)
        size = self._base_chunk_size(zoom)
        if self._ahead_zoom != zoom:
            self._ahead_zoom = zoom
            b = self.bounds
            mid_x, mid_y = (cam.scroll[0] + cam.view_w / 2) / zoom, (cam.scroll[1] + cam.view_h / 2) / zoom
            chunks = [
                (i, j)
                for j in range(b.top // size, (b.bottom - 1) // size + 1)
                for i in range(b.left // size, (b.right - 1) // size + 1)
            ]
            chunks.sort(key=lambda c: math.hypot((c[0] + 0.5) * size - mid_x, (c[1] + 0.5) * size - mid_y))
            self._ahead = chunks
        deadline = time.process_time() + budget_ms / 1000  # CPU time, as the budgets
        built = False
        while self._ahead and (not built or time.process_time() < deadline):
            i, j = self._ahead[0]
            if (zoom == 1.0 and (size, i, j) in self._base_chunks) or (zoom, i, j) in self._zoomed_chunks:
                self._ahead.pop(0)
                continue
            w, h = self._chunk_place(zoom, size, i, j)[2:]
            if zoom == 1.0:
                room = self._base_bytes + size * size * 4 <= settings.BASE_CACHE_BYTES * settings.AHEAD_SHARE
            else:
                room = self._zoomed_bytes + w * h * 4 <= settings.ZOOMED_CACHE_BYTES * settings.AHEAD_SHARE
            if not room:
                self._ahead.clear()
                break
            self._zoomed_chunk(zoom, size, i, j)
            self._ahead.pop(0)
            built = True
        return bool(self._ahead)

    def visible_chunks(self) -> list[tuple[int, int]]:
        cam = self.camera
        size = self._base_chunk_size(cam.zoom)
        sx, sy = cam.scroll
        left = max(self.bounds.left, math.floor(sx / cam.zoom))
        top = max(self.bounds.top, math.floor(sy / cam.zoom))
        right = min(self.bounds.right, math.ceil((sx + cam.view_w) / cam.zoom))
        bottom = min(self.bounds.bottom, math.ceil((sy + cam.view_h) / cam.zoom))
        if right <= left or bottom <= top:
            return []
        return [
            (i, j)
            for j in range(top // size, (bottom - 1) // size + 1)
            for i in range(left // size, (right - 1) // size + 1)
        ]

    # -- drawing
    def draw(self, surface: pygame.Surface, topleft: tuple[int, int] = (0, 0)) -> None:
        """Draw one frame of the view with its top-left at ``topleft`` on ``surface``."""
        cam = self.camera
        area = pygame.Rect(topleft, (cam.view_w, cam.view_h))
        previous_clip = surface.get_clip()
        surface.set_clip(area.clip(previous_clip) if previous_clip else area)
        zoom = quantize_zoom(cam.zoom, cam.min_zoom)
        shown = pygame.Rect(cam.scroll, (cam.view_w, cam.view_h))  # in zoomed map pixels
        b = self.bounds
        inside = pygame.Rect(math.ceil(b.x * zoom), math.ceil(b.y * zoom), int(b.w * zoom), int(b.h * zoom))
        if not inside.contains(shown):  # some of the view is off the map (the chunks cover the rest)
            surface.fill(self.fill_color, area)
        size = self._base_chunk_size(zoom)
        sx, sy = cam.scroll
        blits: list[tuple[pygame.Surface, tuple[int, int]]] = []
        deadline = time.perf_counter() + settings.CHUNK_BUILD_BUDGET_MS / 1000
        stand_in_deadline: float | None = None
        built_any = False
        self.pending = 0
        for i, j in self.visible_chunks():
            x, y = self._chunk_place(zoom, size, i, j)[:2]
            chunk = self._cached_chunk(zoom, size, i, j)
            if chunk is None and (not built_any or time.perf_counter() < deadline):
                chunk = self._zoomed_chunk(zoom, size, i, j)[0]
                built_any = True
            elif chunk is None:
                self.pending += 1
                if stand_in_deadline is None:
                    stand_in_deadline = time.perf_counter() + settings.CHUNK_STAND_IN_MS / 1000
                chunk = self._stand_in(zoom, size, i, j) if time.perf_counter() < stand_in_deadline else None
                if chunk is None:  # the map's background until it is built
                    w, h = self._chunk_place(zoom, size, i, j)[2:]
                    surface.fill(self.fill_color, pygame.Rect(x - sx + area.x, y - sy + area.y, w, h))
                    continue
            blits.append((chunk, (x - sx + area.x, y - sy + area.y)))
        surface.fblits(blits)
        if not self.pending:
            self._stand_ins.clear()
        if self.hover is not None:
            self._draw_hover(surface, area.topleft)
        surface.set_clip(previous_clip)
        self.frames_drawn += 1

    def hex_screen_polygon(
        self, col: int, row: int, topleft: tuple[int, int] = (0, 0)
    ) -> list[tuple[int, int]]:
        ox, oy = topleft
        return [
            (x + ox, y + oy)
            for x, y in (
                self.camera.map_to_screen(px, py) for px, py in self.map.geometry.cell_polygon(col, row)
            )
        ]

    def _draw_hover(self, surface: pygame.Surface, topleft: tuple[int, int]) -> None:
        assert self.hover is not None
        points = self.hex_screen_polygon(*self.hover, topleft)
        _draw_hover_fill(surface, points)
        _thick_closed_outline(surface, settings.HOVER_OUTER_COLOR, points, settings.HOVER_OUTER_WIDTH)
        _thick_closed_outline(surface, settings.HOVER_INNER_COLOR, points, settings.HOVER_INNER_WIDTH)


def _draw_hover_fill(surface: pygame.Surface, points: Sequence[tuple[int, int]]) -> None:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    left, top = min(xs), min(ys)
    w, h = max(xs) - left + 1, max(ys) - top + 1
    if w <= 0 or h <= 0 or w > 4000 or h > 4000:
        return
    overlay = pygame.Surface((w, h), pygame.SRCALPHA, 32)
    pygame.draw.polygon(overlay, (255, 244, 214, 56), [(x - left, y - top) for x, y in points])
    surface.blit(overlay, (left, top))


def _thick_closed_outline(
    surface: pygame.Surface, color: tuple[int, int, int], points: Sequence[tuple[int, int]], width: int
) -> None:
    """A closed polyline of even thickness with round joins (pygame's wide lines leave notches)."""
    pygame.draw.lines(surface, color, True, points, width)
    radius = max(1, width // 2)
    for point in points:
        pygame.draw.circle(surface, color, point, radius)


def _bytes(surface: pygame.Surface) -> int:
    return surface.get_bytesize() * surface.get_width() * surface.get_height()


def _scaled_down(picture: pygame.Surface, size: tuple[int, int]) -> pygame.Surface:
    """A map picture scaled down for a zoomed-out chunk, so that pictures drawn side by side look as the
    whole drawn at full size then smoothscaled: colours averaged (smoothscale) after the picture's colours
    are bled into its transparent border (else their black darkens its edges), and its coverage at
    least the nearest sample's (else two hexes meeting half-covered edge pixels let the ground show
    through as a faint grid)."""
    rgba = pygame.Surface(picture.get_size(), pygame.SRCALPHA, 32)
    for dx, dy in ((-4, 0), (4, 0), (0, -4), (0, 4), (-2, 0), (2, 0), (0, -2), (0, 2), (-1, 0), (1, 0)):
        rgba.blit(picture, (dx, dy))
    rgba.blit(picture, (0, 0))
    rgba.fill((0, 0, 0, 255), special_flags=pygame.BLEND_RGBA_MAX)  # opaque, colours bled outwards
    alpha = pygame.Surface(picture.get_size(), pygame.SRCALPHA, 32)
    alpha.blit(picture, (0, 0), special_flags=pygame.BLEND_RGBA_MAX)
    alpha.fill((255, 255, 255, 0), special_flags=pygame.BLEND_RGBA_MAX)  # white, the picture's alpha
    rgba.blit(alpha, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)  # the picture's alpha back
    scaled = pygame.transform.smoothscale(rgba, size)
    nearest = pygame.transform.scale(alpha, size)
    nearest.fill((0, 0, 0, 255), special_flags=pygame.BLEND_RGBA_MULT)  # black, the sampled alpha
    scaled.blit(nearest, (0, 0), special_flags=pygame.BLEND_RGBA_MAX)
    return scaled
