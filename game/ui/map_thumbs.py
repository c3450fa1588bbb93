"""Map thumbnails for the screens that pick a map: the map rendered as Tiled draws it, its deploy zones
tinted per side with a numbered badge each, scaled to at most ``THUMB_MAX`` pixels and kept on disk per
version of the file (``HEXSLINGER_CACHE_DIR`` or the user's cache folder), and a frame to show one in."""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path
from typing import Final

import platformdirs
import pygame

from game.safeio import FileRefusedError, read_file
from game.tiledmap import MAX_FILE_BYTES, MapLoadError, load_tiled_map
from game.ui.gui import display_font
from game.ui.library import MapInfo
from game.ui.render import MapRenderer

__all__ = [
    "CACHE_ENV",
    "THUMB_MAX",
    "ZONE_COLORS",
    "cache_dir",
    "forget_thumbnail",
    "framed",
    "map_thumbnail",
    "zone_badge",
]

CACHE_ENV: Final = "HEXSLINGER_CACHE_DIR"
THUMB_MAX: Final = 640  # the cached picture's longest side
ZONE_COLORS: Final = ((120, 170, 235), (200, 60, 44), (92, 160, 132), (92, 100, 176))


def cache_dir() -> Path:
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override) / "thumbnails"
    return Path(platformdirs.user_cache_dir("hexslinger", appauthor=False)) / "thumbnails"


_THUMBS: dict[tuple[str, str], pygame.Surface] = {}


def _file_hash(path: Path) -> str:
    try:
        return hashlib.sha256(read_file(path, MAX_FILE_BYTES, what="map file")).hexdigest()
    except FileRefusedError:
        return ""


def _render_thumbnail(info: MapInfo) -> pygame.Surface | None:
    try:
        tmap = load_tiled_map(info.path)
    except (MapLoadError, OSError):
        return None
    renderer = MapRenderer(tmap)
    picture = renderer.render(background=True)
    ox, oy = -renderer.bounds.x, -renderer.bounds.y
    # the deploy zones, tinted per side, so the players see where they start
    shade = pygame.Surface(picture.get_size(), pygame.SRCALPHA)
    geometry = tmap.geometry
    for i, side in enumerate(info.sides):
        color = ZONE_COLORS[i % len(ZONE_COLORS)]
        for hx in info.zones.get(side, frozenset()):
            col, row = geometry.to_cell(hx)
            points = [(x + ox, y + oy) for x, y in geometry.cell_polygon(col, row)]
            pygame.draw.polygon(shade, (*color, 95), points)
            pygame.draw.polygon(shade, (*color, 190), points, max(2, geometry.tile_width // 16))
    picture.blit(shade, (0, 0))
    for i, side in enumerate(info.sides):
        hexes = info.zones.get(side, frozenset())
        if not hexes:
            continue
        centres = [geometry.cell_center(*geometry.to_cell(hx)) for hx in hexes]
        cx = sum(c[0] for c in centres) / len(centres) + ox
        cy = sum(c[1] for c in centres) / len(centres) + oy
        badge = zone_badge(i, round(geometry.tile_width * 1.6))
        picture.blit(badge, badge.get_rect(center=(round(cx), round(cy))))
    w, h = picture.get_size()
    scale = THUMB_MAX / max(w, h)
    if scale < 1:
        picture = pygame.transform.smoothscale(picture, (max(1, round(w * scale)), max(1, round(h * scale))))
    return picture


def zone_badge(index: int, size: int) -> pygame.Surface:
    """A round badge in a deploy zone's colour with its number (so the zones read without colour too)."""
    size = max(12, size)
    color = ZONE_COLORS[index % len(ZONE_COLORS)]
    out = pygame.Surface((size, size), pygame.SRCALPHA)
    r = size // 2
    pygame.draw.circle(out, (40, 24, 12), (r, r), r)
    pygame.draw.circle(out, color, (r, r), r - max(2, size // 12))
    font = display_font(max(8, round(size * 0.62)))
    text = font.render(str(index + 1), True, (255, 248, 230))
    shadow = font.render(str(index + 1), True, (30, 16, 8))
    out.blit(shadow, shadow.get_rect(center=(r + 1, r + 2)))
    out.blit(text, text.get_rect(center=(r, r + 1)))
    return out


def map_thumbnail(info: MapInfo, use_disk: bool = True) -> pygame.Surface | None:
    """A picture of the map with its deploy zones (longest side THUMB_MAX), rendered once per version of
    the file; None when the map cannot be drawn."""
    digest = info.file_hash or _file_hash(info.path)
    key = (str(info.path), digest)
    cached = _THUMBS.get(key)
    if cached is not None:
        return cached
    disk = cache_dir() / f"{info.path.stem}-{digest[:16]}.png" if digest and use_disk else None
    picture: pygame.Surface | None = None
    if disk is not None and disk.is_file():
        try:
            picture = pygame.image.load(str(disk))
        except (pygame.error, OSError):
            picture = None
    if picture is None:
        picture = _render_thumbnail(info)
        if picture is None:
            return None
        if disk is not None:
            try:
                disk.parent.mkdir(parents=True, exist_ok=True)
                tmp = disk.with_name(f".{disk.name}.tmp.png")
                pygame.image.save(picture, str(tmp))
                tmp.replace(disk)
            except (pygame.error, OSError):
                pass  # a cache that cannot be written only costs a render next time
    _THUMBS[key] = picture
    return picture


def forget_thumbnail(path: Path) -> None:
    """Drop every picture kept of the map at ``path`` (in memory and on disk): its tileset or an image may
    have changed while the .tmx, whose hash keys the pictures, did not (live maps, issue 15)."""
    for key in [k for k in _THUMBS if k[0] == str(path)]:
        del _THUMBS[key]
    for old in cache_dir().glob(f"{path.stem}-*.png"):
        if len(old.stem) != len(path.stem) + 17:  # {stem}-{16 hex digits}: not another map's picture
            continue
        with contextlib.suppress(OSError):  # a read-only cache only costs a render
            old.unlink()


def framed(picture: pygame.Surface | None, box: tuple[int, int], message: str) -> pygame.Surface:
    """The picture fitted into ``box`` in a dark wood frame, or the message on a dark ground."""
    bw, bh = max(8, box[0]), max(8, box[1])
    out = pygame.Surface((bw, bh), pygame.SRCALPHA)
    frame = 4
    if picture is None:
        out.fill((58, 38, 22))
        font = display_font(max(12, bh // 12), bold=False, italic=True)
        text = font.render(message, True, (233, 216, 178))
        out.blit(text, text.get_rect(center=(bw // 2, bh // 2)))
        pygame.draw.rect(out, (40, 24, 12), out.get_rect(), frame)
        return out
    pw, ph = picture.get_size()
    scale = min((bw - 2 * frame) / pw, (bh - 2 * frame) / ph)
    size = (max(1, round(pw * scale)), max(1, round(ph * scale)))
    scaled = pygame.transform.smoothscale(
        picture.convert_alpha() if pygame.display.get_surface() else picture, size
    )
    rect = scaled.get_rect(center=(bw // 2, bh // 2))
    pygame.draw.rect(out, (40, 24, 12), rect.inflate(2 * frame, 2 * frame), border_radius=3)
    pygame.draw.rect(out, (122, 82, 48), rect.inflate(2 * frame - 2, 2 * frame - 2), 1, border_radius=3)
    out.blit(scaled, rect)
    return out
