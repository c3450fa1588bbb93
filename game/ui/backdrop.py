"""The menu screens' backdrop: a desert sunset over a hex-gridded plain, and the HEXSLINGER title.

Everything is drawn from shapes and gradients (seeded, so the same picture every time) once per window
size; a frame only blits the finished surface.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from typing import Final

import pygame

from game.ui.gui import display_font

Color = tuple[int, int, int]

# Sky from the zenith to the horizon.
SKY: Final[tuple[tuple[float, Color], ...]] = (
    (0.00, (22, 16, 40)),
    (0.28, (64, 28, 68)),
    (0.52, (150, 52, 48)),
    (0.74, (226, 112, 52)),
    (1.00, (250, 196, 110)),
)
SUN: Final[Color] = (255, 222, 140)
FAR_MESA: Final[Color] = (132, 58, 58)
MID_MESA: Final[Color] = (84, 34, 40)
GROUND_TOP: Final[Color] = (58, 26, 28)
GROUND_BOTTOM: Final[Color] = (24, 12, 14)
GRID_LINE: Final[Color] = (255, 170, 90)
SILHOUETTE: Final[Color] = (20, 9, 11)
HORIZON: Final = 0.60  # of the height

TITLE_FILL_TOP: Final[Color] = (255, 236, 170)
TITLE_FILL_BOTTOM: Final[Color] = (200, 128, 40)
TITLE_OUTLINE: Final[Color] = (40, 16, 8)
SUBTITLE: Final[Color] = (250, 226, 180)


def _lerp(a: Color, b: Color, t: float) -> Color:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def _gradient_at(stops: Sequence[tuple[float, Color]], t: float) -> Color:
    for (t0, c0), (t1, c1) in itertools.pairwise(stops):
        if t <= t1:
            return _lerp(c0, c1, (t - t0) / (t1 - t0) if t1 > t0 else 0.0)
    return stops[-1][1]


# The far skyline as (x, height) fractions of the window: mesas and buttes, low where the sun sets.
FAR_SKYLINE: Final = (
    (0.00, 0.150),
    (0.085, 0.150),
    (0.100, 0.112),
    (0.130, 0.104),
    (0.150, 0.032),
    (0.220, 0.024),
    (0.290, 0.060),
    (0.305, 0.118),
    (0.385, 0.124),
    (0.402, 0.074),
    (0.430, 0.052),
    (0.480, 0.022),
    (0.600, 0.018),
    (0.660, 0.026),
    (0.700, 0.034),
    (0.740, 0.012),
    (0.860, 0.020),
    (0.880, 0.092),
    (0.890, 0.104),
    (0.915, 0.104),
    (0.925, 0.046),
    (0.955, 0.060),
    (0.972, 0.142),
    (1.000, 0.142),
)
SUN_X: Final = 0.76


def _skyline(
    points: Sequence[tuple[float, float]], width: int, height: int, base: int
) -> list[tuple[int, int]]:
    out = [(0, base)]
    out += [(round(x * width), base - round(y * height)) for x, y in points]
    out.append((width, base))
    return out


def _hills(rng: random.Random, width: int, base: int, height: int) -> list[tuple[int, int]]:
    """A low, rolling nearer ridge."""
    points = [(0, base)]
    x = 0.0
    while x < width:
        x += width * rng.uniform(0.03, 0.07)
        points.append((round(x), base - round(height * rng.uniform(0.0, 1.0))))
    points.append((width, base))
    return points


def _cactus(surface: pygame.Surface, x: int, ground: int, h: int) -> None:
    """A saguaro silhouette: a trunk and two arms, rounded."""
    w = max(4, h // 7)
    pygame.draw.rect(surface, SILHOUETTE, (x - w // 2, ground - h, w, h + 4), border_radius=w // 2)
    for side, rise, reach in ((-1, 0.55, 0.32), (1, 0.42, 0.28)):
        arm_y = ground - round(h * rise)
        arm_x = x + side * round(h * reach)
        pygame.draw.rect(
            surface,
            SILHOUETTE,
            (min(x, arm_x) - w // 4, arm_y - w // 2, abs(arm_x - x) + w // 2, w),
            border_radius=w // 2,
        )
        pygame.draw.rect(
            surface,
            SILHOUETTE,
            (arm_x - w // 2, arm_y - round(h * 0.28), w, round(h * 0.28) + w // 2),
            border_radius=w // 2,
        )


def _radial(radii: tuple[int, int], color: Color, alpha: int, power: float) -> pygame.Surface:
    """A soft elliptical glow: ``alpha * (1 - d) ** power`` at distance d from the centre (0..1)."""
    n = 96
    small = pygame.Surface((n, n), pygame.SRCALPHA)
    half = (n - 1) / 2
    for y in range(n):
        for x in range(n):
            d = math.hypot(x - half, y - half) / (n / 2)
            if d < 1.0:
                small.set_at((x, y), (*color, round(alpha * (1.0 - d) ** power)))
    return pygame.transform.smoothscale(small, (max(1, 2 * radii[0]), max(1, 2 * radii[1])))


def _ground_color(horizon: int, height: int, y: float) -> Color:
    return _lerp(GROUND_TOP, GROUND_BOTTOM, max(0.0, min(1.0, (y - horizon) / max(1, height - horizon))))


def _hex_plain(surface: pygame.Surface, horizon: int, width: int, height: int) -> None:
    """A pointy-top hex lattice lying on the ground in perspective, brighter near the viewer."""
    depth_px = height - horizon
    focal = depth_px * 0.55  # screen pixels below the horizon of a point 1 ground unit away
    size = 0.42  # hex radius in ground units
    hex_w = math.sqrt(3) * size
    cx = width / 2
    angles = [math.radians(60 * i - 30) for i in range(6)]
    near, far = 0.45, 14.0
    r_first, r_last = math.floor(near / (1.5 * size)), math.ceil(far / (1.5 * size))
    for r in range(r_last, r_first - 1, -1):
        z_c = 1.5 * size * r
        half = (width / 2 + 60) * max(z_c, near) / focal
        q_from = math.floor((-half - hex_w) / hex_w - r / 2)
        q_to = math.ceil((half + hex_w) / hex_w - r / 2)
        for q in range(q_from, q_to + 1):
            x_c = hex_w * (q + r / 2)
            pts: list[tuple[float, float]] = []
            for a in angles:
                gz = z_c + size * math.sin(a)
                gz = max(gz, near)
                gx = x_c + size * math.cos(a)
                pts.append((cx + gx * focal / gz, horizon + focal / gz))
            y_mid = sum(p[1] for p in pts) / 6
            closeness = (y_mid - horizon) / depth_px
            strength = max(0.0, min(1.0, closeness)) ** 1.3 * 0.55
            if strength < 0.02:
                continue
            color = _lerp(_ground_color(horizon, height, y_mid), GRID_LINE, strength)
            pygame.draw.aalines(surface, color, True, pts)


def draw_backdrop(size: tuple[int, int], *, dim: float = 0.0) -> pygame.Surface:
    """The sunset scene for a window of ``size``; ``dim`` (0..1) darkens it for screens with panels."""
    width, height = size
    surface = pygame.Surface(size)
    rng = random.Random(1881)
    horizon = round(height * HORIZON)
    unit = min(width, height)

    for y in range(horizon):
        pygame.draw.line(surface, _gradient_at(SKY, y / max(1, horizon - 1)), (0, y), (width, y))
    stars = pygame.Surface(size, pygame.SRCALPHA)
    band = max(1, horizon * 2 // 5)
    for _ in range(width * horizon // 2200):
        x, y = rng.randrange(width), rng.randrange(band)
        alpha = round(220 * (1 - y / band) * rng.uniform(0.25, 1.0))
        stars.set_at((x, y), (255, 240, 220, alpha))
    surface.blit(stars, (0, 0))

    # The sun, low over the horizon, in a soft glow.
    sun_x, sun_r = round(width * SUN_X), round(unit * 0.11)
    sun_y = horizon - round(sun_r * 0.55)
    glow_r = round(unit * 0.62)
    surface.blit(_radial((glow_r, glow_r), (255, 170, 90), 150, 2.2), (sun_x - glow_r, sun_y - glow_r))
    pygame.draw.circle(surface, SUN, (sun_x, sun_y), sun_r)
    core = round(sun_r * 0.96)
    surface.blit(_radial((core, core), (255, 246, 215), 255, 0.6), (sun_x - core, sun_y - core))
    for i in range(3):  # heat bands across the lower sun
        band_y = sun_y + round(sun_r * (0.2 + 0.22 * i))
        pygame.draw.rect(
            surface,
            _gradient_at(SKY, min(1.0, band_y / max(1, horizon))),
            (sun_x - sun_r, band_y, 2 * sun_r, max(1, round(unit * 0.003 * (i + 1)))),
        )

    pygame.draw.polygon(surface, FAR_MESA, _skyline(FAR_SKYLINE, width, height, horizon + 2))
    pygame.draw.polygon(surface, MID_MESA, _hills(rng, width, horizon + 2, round(height * 0.022)))

    for y in range(horizon, height):
        pygame.draw.line(surface, _ground_color(horizon, height, y), (0, y), (width, y))
    # the sunset's light on the plain
    shine = _radial((round(width * 0.5), round((height - horizon) * 0.8)), (255, 140, 70), 70, 1.6)
    plain = surface.subsurface((0, horizon, width, height - horizon))
    plain.blit(shine, (sun_x - shine.get_width() // 2, -shine.get_height() // 2))
    _hex_plain(surface, horizon, width, height)

    _cactus(surface, round(width * 0.09), height + 2, round(unit * 0.42))
    _cactus(surface, round(width * 0.95), height + 2, round(unit * 0.26))
    _cactus(surface, round(width * (SUN_X + 0.035)), horizon + round(unit * 0.02), round(unit * 0.085))

    # vignette
    shade = pygame.Surface(size, pygame.SRCALPHA)
    edge = max(1, unit // 4)
    for i in range(edge):
        alpha = round(120 * (1 - i / edge) ** 2)
        pygame.draw.rect(shade, (0, 0, 0, alpha), (i, i, width - 2 * i, height - 2 * i), 1)
    surface.blit(shade, (0, 0))
    if dim > 0:
        veil = pygame.Surface(size, pygame.SRCALPHA)
        veil.fill((12, 6, 4, round(255 * min(1.0, dim))))
        surface.blit(veil, (0, 0))
    return surface


def _spaced(font: pygame.font.Font, text: str, color: Color, spacing: int) -> pygame.Surface:
    glyphs = [font.render(ch, True, color) for ch in text]
    width = sum(g.get_width() for g in glyphs) + spacing * (len(glyphs) - 1)
    height = max(g.get_height() for g in glyphs)
    out = pygame.Surface((max(1, width), max(1, height)), pygame.SRCALPHA)
    x = 0
    for g in glyphs:
        out.blit(g, (x, 0))
        x += g.get_width() + spacing
    return out


def render_title(text: str, height: int, max_width: int) -> pygame.Surface:
    """Big letters filled with a brass gradient, with a dark outline and a drop shadow."""
    size = max(12, height)
    while True:
        font = display_font(size, bold=True)
        spacing = max(1, size // 14)
        mask = _spaced(font, text, (255, 255, 255), spacing)
        if mask.get_width() + size // 5 <= max_width or size <= 12:
            break
        size = max(12, round(size * max_width / (mask.get_width() + size // 5) * 0.98))
    w, h = mask.get_size()
    fill = pygame.Surface((w, h), pygame.SRCALPHA)
    for y in range(h):
        t = y / max(1, h - 1)
        pygame.draw.line(fill, (*_lerp(TITLE_FILL_TOP, TITLE_FILL_BOTTOM, t), 255), (0, y), (w, y))
    fill.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    outline = _spaced(font, text, TITLE_OUTLINE, spacing)
    shadow = _spaced(font, text, (0, 0, 0), spacing)
    shadow.set_alpha(140)
    thick = max(2, size // 24)
    pad = thick + max(3, size // 12)
    out = pygame.Surface((w + 2 * pad, h + 2 * pad), pygame.SRCALPHA)
    out.blit(shadow, (pad + size // 14, pad + size // 12))
    for dx in range(-thick, thick + 1):
        for dy in range(-thick, thick + 1):
            if dx * dx + dy * dy <= thick * thick:
                out.blit(outline, (pad + dx, pad + dy))
    out.blit(fill, (pad, pad))
    return out


def render_subtitle(text: str, size: int, color: Color = SUBTITLE) -> pygame.Surface:
    font = display_font(size, bold=False, italic=True)
    body = font.render(text, True, color)
    shadow = font.render(text, True, (0, 0, 0))
    shadow.set_alpha(160)
    out = pygame.Surface((body.get_width() + 2, body.get_height() + 2), pygame.SRCALPHA)
    out.blit(shadow, (2, 2))
    out.blit(body, (0, 0))
    return out


def draw_ornament(surface: pygame.Surface, center: tuple[int, int], half_width: int, color: Color) -> None:
    """A rule with a diamond in the middle, like a poster's divider."""
    x, y = center
    gap = max(8, round(half_width / 22))
    pygame.draw.line(surface, color, (x - half_width, y), (x - gap, y), 2)
    pygame.draw.line(surface, color, (x + gap, y), (x + half_width, y), 2)
    d = max(4, round(half_width / 40))
    pygame.draw.polygon(surface, color, [(x, y - d), (x + d, y), (x, y + d), (x - d, y)])
    for end in (x - half_width, x + half_width):
        pygame.draw.circle(surface, color, (end, y), 3)


PARCHMENT_TOP: Final[Color] = (240, 226, 192)
PARCHMENT_BOTTOM: Final[Color] = (222, 199, 150)
PARCHMENT_BURN: Final[Color] = (120, 72, 30)
WOOD_DARK: Final[Color] = (64, 38, 18)
WOOD_LIGHT: Final[Color] = (122, 82, 48)
BRASS: Final[Color] = (214, 172, 78)
BRASS_DARK: Final[Color] = (120, 86, 30)


def draw_parchment(surface: pygame.Surface, rect: pygame.Rect, frame: int = 6) -> None:
    """A parchment sheet in a dark wood frame with brass studs at the corners, into ``rect``."""
    radius = max(4, frame * 2)
    shadow = pygame.Surface((rect.width + 16, rect.height + 16), pygame.SRCALPHA)
    for i in range(8, 0, -1):
        pygame.draw.rect(
            shadow, (0, 0, 0, 18), shadow.get_rect().inflate(-2 * i, -2 * i), border_radius=radius + i
        )
    surface.blit(shadow, (rect.x - 4, rect.y + 2))
    pygame.draw.rect(surface, WOOD_DARK, rect, border_radius=radius)
    pygame.draw.rect(surface, WOOD_LIGHT, rect.inflate(-2, -2), max(1, frame // 3), border_radius=radius)
    sheet = rect.inflate(-2 * frame, -2 * frame)
    paper = pygame.Surface(sheet.size)
    for y in range(sheet.height):
        t = y / max(1, sheet.height - 1)
        pygame.draw.line(paper, _lerp(PARCHMENT_TOP, PARCHMENT_BOTTOM, t), (0, y), (sheet.width, y))
    grain = pygame.Surface(sheet.size, pygame.SRCALPHA)
    rng = random.Random(77)
    for _ in range(sheet.width * sheet.height // 90):
        x, y = rng.randrange(sheet.width), rng.randrange(sheet.height)
        grain.set_at((x, y), (*PARCHMENT_BURN, rng.randrange(10, 34)))
    burn_w = max(6, min(sheet.size) // 14)
    for i in range(burn_w):
        alpha = round(70 * (1 - i / burn_w) ** 2)
        pygame.draw.rect(
            grain, (*PARCHMENT_BURN, alpha), (i, i, sheet.width - 2 * i, sheet.height - 2 * i), 1
        )
    paper.blit(grain, (0, 0))
    surface.blit(paper, sheet.topleft)
    pygame.draw.rect(surface, WOOD_DARK, sheet.inflate(2, 2), 1)
    stud = max(3, frame * 2 // 3)
    for cx, cy in (rect.topleft, rect.topright, rect.bottomleft, rect.bottomright):
        x = cx + (frame + stud if cx == rect.left else -frame - stud)
        y = cy + (frame + stud if cy == rect.top else -frame - stud)
        pygame.draw.circle(surface, BRASS_DARK, (x, y + 1), stud)
        pygame.draw.circle(surface, BRASS, (x, y), stud)
        pygame.draw.circle(surface, (255, 236, 170), (x - stud // 3, y - stud // 3), max(1, stud // 3))
