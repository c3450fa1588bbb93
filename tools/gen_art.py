"""Procedural western tile art and the Tiled tilesets that describe it.

Run ``python -m tools.gen_art`` from the repository root. It paints every tile from code (no input
images), writes the PNG sheets to ``assets/tiles/`` and the ``.tsx`` tilesets plus the Tiled project
file to ``maps/``. The output is deterministic: every random choice comes from a ``random.Random``
seeded from :data:`SEED` and the tile's key, never from the global random functions.

Ground textures are periodic on the hex lattice (value noise defined on the torus spanned by two
lattice vectors), so neighbouring hexes of the same terrain continue one another with no seam.
"""

# Drawing and layout helpers take coordinates positionally (x, y, w, h ...), as geometry code reads best.
# ruff: noqa: PLR0917

from __future__ import annotations

import json
import math
import os
import random
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict
from xml.sax.saxutils import escape, quoteattr

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from game.hexgrid import StaggerAxis, StaggerIndex, TiledHexGeometry, polygon_contains  # noqa: E402

SEED = 1873
HEX_SIDE = 36  # (74 - 36) is even, so Tiled 1.8 and >= 1.10 agree on the 74 px hex to the pixel
SHEET_COLUMNS = 8
TALL_SIZE = (128, 192)
SIGN_SIZE = (160, 44)

RGB = tuple[float, float, float]
PropValue = str | int | bool


class BlockProps(TypedDict, total=False):
    """A reusable bundle of tile properties, spread into ``_t``/``_o`` as keyword arguments."""

    cover: str
    impassable: bool
    blocks_sight: bool


# --------------------------------------------------------------------------------------------------
# Orientation: the two hex shapes


@dataclass(frozen=True, slots=True)
class Orient:
    """One hex shape: image size, Tiled geometry and the lattice its textures repeat on."""

    name: str
    image_w: int
    image_h: int
    geometry: TiledHexGeometry
    image_dy: int  # rows of the image above the hex (Tiled anchors images bottom-left)
    basis: tuple[tuple[float, float], tuple[float, float]]

    @property
    def pointy(self) -> bool:
        return self.geometry.axis is StaggerAxis.Y

    @property
    def center(self) -> tuple[float, float]:
        g = self.geometry
        return g.tile_width / 2, self.image_dy + g.tile_height / 2

    def polygon(self) -> list[tuple[float, float]]:
        return [(float(x), float(y + self.image_dy)) for x, y in self.geometry.cell_polygon(0, 0)]

    def along_across(self, wx: float, wy: float) -> tuple[float, float]:
        """World coords -> (along the straight hex axis, across it)."""
        return (wx, wy) if self.pointy else (wy, wx)


def _orient(name: str) -> Orient:
    if name == "pointy":
        g = TiledHexGeometry.create(64, 74, HEX_SIDE, StaggerAxis.Y, StaggerIndex.ODD)
        basis = ((float(g.tile_width), 0.0), (float(g.column_width), float(g.row_height)))
        return Orient(name, 64, 74, g, 74 - g.tile_height, basis)
    g = TiledHexGeometry.create(74, 64, HEX_SIDE, StaggerAxis.X, StaggerIndex.ODD)
    basis = ((0.0, float(g.tile_height)), (float(g.column_width), float(g.row_height)))
    return Orient(name, 74, 64, g, 64 - g.tile_height, basis)


ORIENTS: dict[str, Orient] = {"pointy": _orient("pointy"), "flat": _orient("flat")}


# --------------------------------------------------------------------------------------------------
# Canvas


def clamp(v: float, lo: float = 0.0, hi: float = 255.0) -> float:
    return lo if v < lo else hi if v > hi else v


def mix(a: RGB, b: RGB, t: float) -> RGB:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t)


def mul(c: RGB, f: float) -> RGB:
    return (c[0] * f, c[1] * f, c[2] * f)


def add(c: RGB, d: float) -> RGB:
    return (c[0] + d, c[1] + d, c[2] + d)


class Canvas:
    """A straight-alpha RGBA float image with source-over blending."""

    def __init__(self, w: int, h: int) -> None:
        self.w = w
        self.h = h
        self.px: list[list[float]] = [[0.0, 0.0, 0.0, 0.0] for _ in range(w * h)]

    def get(self, x: int, y: int) -> list[float]:
        return self.px[y * self.w + x]

    def blend(self, x: int, y: int, c: RGB, a: float) -> None:
        if a <= 0.0 or not (0 <= x < self.w and 0 <= y < self.h):
            return
        p = self.px[y * self.w + x]
        a = min(a, 1.0)
        da = p[3] * (1.0 - a)
        oa = a + da
        p[0] = (c[0] * a + p[0] * da) / oa
        p[1] = (c[1] * a + p[1] * da) / oa
        p[2] = (c[2] * a + p[2] * da) / oa
        p[3] = oa

    def draw(self, other: Canvas, ox: int, oy: int) -> None:
        for y in range(other.h):
            for x in range(other.w):
                p = other.px[y * other.w + x]
                if p[3] > 0.0:
                    self.blend(x + ox, y + oy, (p[0], p[1], p[2]), p[3])

    def rotated(self) -> Canvas:
        """This canvas turned 90 degrees clockwise."""
        out = Canvas(self.h, self.w)
        for y in range(self.h):
            for x in range(self.w):
                out.px[x * out.w + (self.h - 1 - y)] = list(self.px[y * self.w + x])
        return out

    def to_rgba(self) -> bytes:
        out = bytearray()
        for r, g, b, a in self.px:
            if a <= 0.002:
                out += b"\0\0\0\0"
            else:
                out += bytes((round(clamp(r)), round(clamp(g)), round(clamp(b)), round(clamp(a * 255))))
        return bytes(out)


SS = 4  # supersampling per axis for anti-aliased shapes
_SUB = [(i + 0.5) / SS for i in range(SS)]

Inside = Callable[[float, float], bool]
Color = Callable[[float, float], RGB]


def fill(
    cv: Canvas,
    bbox: tuple[float, float, float, float],
    inside: Inside,
    color: Color | RGB,
    alpha: float = 1.0,
) -> None:
    """Paint every pixel of ``bbox`` covered by ``inside`` (anti-aliased) with ``color``."""
    x0, y0, x1, y1 = bbox
    col = color if callable(color) else None
    for y in range(max(0, math.floor(y0)), min(cv.h, math.ceil(y1) + 1)):
        for x in range(max(0, math.floor(x0)), min(cv.w, math.ceil(x1) + 1)):
            n = 0
            for sy in _SUB:
                for sx in _SUB:
                    if inside(x + sx, y + sy):
                        n += 1
            if n:
                c = col(x + 0.5, y + 0.5) if col is not None else color
                cv.blend(x, y, c, alpha * n / (SS * SS))  # type: ignore[arg-type]


def ellipse(cx: float, cy: float, rx: float, ry: float) -> tuple[Inside, tuple[float, float, float, float]]:
    def inside(x: float, y: float) -> bool:
        return ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1.0

    return inside, (cx - rx, cy - ry, cx + rx, cy + ry)


def rect(x0: float, y0: float, x1: float, y1: float) -> tuple[Inside, tuple[float, float, float, float]]:
    def inside(x: float, y: float) -> bool:
        return x0 <= x <= x1 and y0 <= y <= y1

    return inside, (x0, y0, x1, y1)


def seg_dist(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / ll))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def capsule(
    ax: float, ay: float, bx: float, by: float, r: float
) -> tuple[Inside, tuple[float, float, float, float]]:
    def inside(x: float, y: float) -> bool:
        return seg_dist(x, y, ax, ay, bx, by) <= r

    return inside, (min(ax, bx) - r, min(ay, by) - r, max(ax, bx) + r, max(ay, by) + r)


def polygon(poly: list[tuple[float, float]]) -> tuple[Inside, tuple[float, float, float, float]]:
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    return (lambda x, y: polygon_contains(poly, x, y)), (min(xs), min(ys), max(xs), max(ys))


def shape(cv: Canvas, sh: tuple[Inside, tuple[float, float, float, float]], color: Color | RGB) -> None:
    fill(cv, sh[1], sh[0], color)


def line(
    cv: Canvas, ax: float, ay: float, bx: float, by: float, r: float, color: RGB, a: float = 1.0
) -> None:
    inside, bbox = capsule(ax, ay, bx, by, r)
    fill(cv, bbox, inside, color, a)


def drop_shadow(sprite: Canvas, dx: int = 4, dy: int = 3, strength: float = 0.45) -> Canvas:
    """The sprite over a soft shadow of itself cast towards the lower right."""
    w, h = sprite.w, sprite.h
    alpha = [0.0] * (w * h)
    for y in range(h):
        for x in range(w):
            sx, sy = x - dx, y - dy
            if 0 <= sx < w and 0 <= sy < h:
                alpha[y * w + x] = sprite.px[sy * w + sx][3]
    for _ in range(2):  # two box blurs make a soft edge
        blurred = [0.0] * (w * h)
        for y in range(h):
            for x in range(w):
                s = 0.0
                for ny in (y - 1, y, y + 1):
                    for nx in (x - 1, x, x + 1):
                        if 0 <= nx < w and 0 <= ny < h:
                            s += alpha[ny * w + nx]
                blurred[y * w + x] = s / 9.0
        alpha = blurred
    out = Canvas(w, h)
    for i, a in enumerate(alpha):
        if a > 0.0:
            out.px[i] = [28.0, 18.0, 10.0, a * strength]
    out.draw(sprite, 0, 0)
    return out


# --------------------------------------------------------------------------------------------------
# Noise


def smooth(t: float) -> float:
    return t * t * (3.0 - 2.0 * t)


class TorusNoise:
    """Value noise that repeats on the lattice spanned by ``basis`` (so hex tiles join seamlessly)."""

    def __init__(
        self, seed: str, basis: tuple[tuple[float, float], tuple[float, float]], nu: int, nv: int
    ) -> None:
        rng = random.Random(seed)
        self.nu = nu
        self.nv = nv
        self.vals = [rng.random() for _ in range(nu * nv)]
        (ax, ay), (bx, by) = basis
        det = ax * by - ay * bx
        self.inv = (by / det, -bx / det, -ay / det, ax / det)

    def uv(self, x: float, y: float) -> tuple[float, float]:
        i0, i1, i2, i3 = self.inv
        return (i0 * x + i1 * y) % 1.0, (i2 * x + i3 * y) % 1.0

    def __call__(self, x: float, y: float) -> float:
        u, v = self.uv(x, y)
        fu, fv = u * self.nu, v * self.nv
        iu, iv = int(fu), int(fv)
        tu, tv = smooth(fu - iu), smooth(fv - iv)
        iu %= self.nu
        iv %= self.nv
        ju, jv = (iu + 1) % self.nu, (iv + 1) % self.nv
        vals = self.vals
        a = vals[iv * self.nu + iu]
        b = vals[iv * self.nu + ju]
        c = vals[jv * self.nu + iu]
        d = vals[jv * self.nu + ju]
        return (a + (b - a) * tu) + ((c + (d - c) * tu) - (a + (b - a) * tu)) * tv


class Fbm:
    """Several octaves of :class:`TorusNoise`, result roughly in 0..1."""

    def __init__(
        self,
        seed: str,
        basis: tuple[tuple[float, float], tuple[float, float]],
        base: int,
        octaves: int,
        stretch: tuple[int, int] = (1, 1),
        gain: float = 0.5,
    ) -> None:
        self.layers: list[tuple[TorusNoise, float]] = []
        amp = 1.0
        total = 0.0
        for k in range(octaves):
            n = base * 2**k
            self.layers.append((TorusNoise(f"{seed}:{k}", basis, n * stretch[0], n * stretch[1]), amp))
            total += amp
            amp *= gain
        self.total = total

    def __call__(self, x: float, y: float) -> float:
        return sum(n(x, y) * a for n, a in self.layers) / self.total


def lattice_stripe(o: Orient, wx: float, wy: float, ku: int, kv: int) -> float:
    """A periodic wave across the lattice: 0..1, ``ku``/``kv`` waves per lattice vector."""
    (ax, ay), (bx, by) = o.basis
    det = ax * by - ay * bx
    u = (by * wx - bx * wy) / det
    v = (-ay * wx + ax * wy) / det
    return 0.5 + 0.5 * math.sin(2 * math.pi * (ku * u + kv * v))


def across_fraction(o: Orient, wx: float, wy: float) -> float:
    """Position across the straight axis inside one band of hexes, 0..1 over the band's period."""
    g = o.geometry
    period = g.row_height if o.pointy else g.column_width
    _, t = o.along_across(wx, wy)
    return (t % period) / period


# --------------------------------------------------------------------------------------------------
# Ground tiles (hex-shaped)


@dataclass(frozen=True, slots=True)
class TileDef:
    key: str
    props: dict[str, PropValue]


def tile_props(**props: PropValue) -> dict[str, PropValue]:
    """Keyword arguments (incl. spread ``BlockProps`` bundles) as a tile property dict, in order."""
    return dict(props)


Ground = Callable[[Orient, random.Random], Canvas]


def hex_mask(o: Orient) -> list[bool]:
    """Pixels touched by the hex (conservative, so neighbouring tiles overlap instead of leaving gaps)."""
    poly = o.polygon()
    mask = []
    for y in range(o.image_h):
        for x in range(o.image_w):
            hit = False
            for sy in (0.02, 0.5, 0.98):
                for sx in (0.02, 0.5, 0.98):
                    if polygon_contains(poly, x + sx, y + sy):
                        hit = True
                        break
                if hit:
                    break
            mask.append(hit)
    return mask


def ground_canvas(
    o: Orient, color: Callable[[float, float], RGB], rng: random.Random, grain: float
) -> Canvas:
    """Fill the hex with ``color(world x, world y)`` plus per-pixel grain."""
    cv = Canvas(o.image_w, o.image_h)
    mask = hex_mask(o)
    for y in range(o.image_h):
        for x in range(o.image_w):
            if not mask[y * o.image_w + x]:
                continue
            c = color(x + 0.5, y + 0.5 - o.image_dy)
            j = rng.gauss(0.0, grain)
            cv.px[y * o.image_w + x] = [c[0] + j, c[1] + j * 0.9, c[2] + j * 0.8, 1.0]
    return cv


def clip_to_hex(o: Orient, cv: Canvas) -> Canvas:
    mask = hex_mask(o)
    for i, keep in enumerate(mask):
        if not keep:
            cv.px[i] = [0.0, 0.0, 0.0, 0.0]
    return cv


def interior_points(o: Orient, rng: random.Random, n: int, margin: float) -> list[tuple[float, float]]:
    """``n`` random points inside the hex, at least ``margin`` px from its edges."""
    cx, cy = o.center
    pts: list[tuple[float, float]] = []
    radius = min(o.geometry.tile_width, o.geometry.tile_height) / 2 - margin
    while len(pts) < n:
        a = rng.random() * math.tau
        r = radius * math.sqrt(rng.random()) * 0.92
        pts.append((cx + math.cos(a) * r, cy + math.sin(a) * r))
    return pts


def pebble(cv: Canvas, x: float, y: float, r: float, base: RGB, rng: random.Random) -> None:
    """A small lit stone with a contact shadow."""
    ry = r * (0.7 + 0.25 * rng.random())
    shape(cv, ellipse(x + r * 0.35, y + r * 0.35, r, ry), (40.0, 28.0, 18.0))

    def col(px: float, py: float) -> RGB:
        d = ((px - x) + (py - y)) / (r * 2)
        return add(base, -70 * d)

    fill(cv, ellipse(x, y, r, ry)[1], ellipse(x, y, r, ry)[0], col)


class Noises:
    """Lazily built noise fields shared by every tile of one family (so variants join seamlessly)."""

    def __init__(self, o: Orient) -> None:
        self.o = o
        self.cache: dict[tuple[str, int, int, tuple[int, int]], Fbm] = {}

    def fbm(self, family: str, base: int, octaves: int, stretch: tuple[int, int] = (1, 1)) -> Fbm:
        k = (family, base, octaves, stretch)
        if k not in self.cache:
            self.cache[k] = Fbm(f"{SEED}:{self.o.name}:{family}", self.o.basis, base, octaves, stretch)
        return self.cache[k]


SAND: RGB = (214.0, 181.0, 131.0)
DIRT: RGB = (156.0, 116.0, 76.0)


def sand_color(o: Orient, nz: Noises) -> Callable[[float, float], RGB]:
    low = nz.fbm("sand", 3, 4)
    warp = nz.fbm("sandwarp", 3, 2)

    def color(x: float, y: float) -> RGB:
        n = low(x, y)
        rip = lattice_stripe(o, x + 9 * warp(x, y), y, 3, 7)
        c = mix((188.0, 150.0, 104.0), (226.0, 196.0, 146.0), n)
        return add(c, (rip - 0.5) * 14)

    return color


def paint_sand(variant: int) -> Callable[[Orient, random.Random, Noises], Canvas]:
    def paint(o: Orient, rng: random.Random, nz: Noises) -> Canvas:
        cv = ground_canvas(o, sand_color(o, nz), rng, 5.0)
        if variant == 1:
            for x, y in interior_points(o, rng, 6, 8):
                pebble(cv, x, y, 1.2 + rng.random() * 1.6, (170.0, 150.0, 128.0), rng)
        elif variant == 2:
            for x, y in interior_points(o, rng, 2, 14):
                scrub(cv, x, y, rng, 5 + rng.random() * 3)
        return clip_to_hex(o, cv)

    return paint


def scrub(cv: Canvas, x: float, y: float, rng: random.Random, size: float) -> None:
    """A dry desert shrub seen from above."""
    shape(cv, ellipse(x + 2, y + 2, size, size * 0.8), (60.0, 45.0, 25.0))
    for _ in range(int(size * 5)):
        a = rng.random() * math.tau
        r = size * math.sqrt(rng.random())
        c = mix((104.0, 110.0, 60.0), (150.0, 146.0, 88.0), rng.random())
        line(cv, x, y, x + math.cos(a) * r, y + math.sin(a) * r, 0.6, c)


def paint_grass(variant: int) -> Callable[[Orient, random.Random, Noises], Canvas]:
    def paint(o: Orient, rng: random.Random, nz: Noises) -> Canvas:
        patches = nz.fbm("grass", 2, 4)
        sand = sand_color(o, nz)
        detail = nz.fbm("grassdetail", 8, 3)

        def color(x: float, y: float) -> RGB:
            p = patches(x, y)
            g = mix((150.0, 136.0, 70.0), (196.0, 176.0, 96.0), detail(x, y))
            t = clamp((p - 0.12) * 4, 0.0, 1.0)
            return mix(sand(x, y), g, t)

        cv = ground_canvas(o, color, rng, 7.0)
        for x, y in interior_points(o, rng, 70 + variant * 40, 3):
            wx, wy = x, y - o.image_dy
            if patches(wx, wy) < 0.16:
                continue
            a = -math.pi / 2 + rng.uniform(-0.7, 0.7)
            ln = rng.uniform(2.5, 5.0)
            c = mix((120.0, 110.0, 52.0), (222.0, 202.0, 120.0), rng.random())
            line(cv, x, y, x + math.cos(a) * ln, y + math.sin(a) * ln, 0.45, c)
        return clip_to_hex(o, cv)

    return paint


def road_color(o: Orient, nz: Noises, ruts: bool) -> Callable[[float, float], RGB]:
    low = nz.fbm("road", 2, 5)
    streak = nz.fbm("roadstreak", 2, 4, (1, 6))

    def color(x: float, y: float) -> RGB:
        n = low(x, y)
        s = streak(x, y)
        c = mix((136.0, 100.0, 64.0), (176.0, 136.0, 92.0), n * 0.6 + s * 0.4)
        if ruts:
            f = across_fraction(o, x, y)
            # two wheel ruts inside the band of the row that only this hex row covers
            for centre in (0.47, 0.80):
                d = abs(f - centre) * 55
                if d < 3.2:
                    c = mul(c, 0.80 + 0.06 * d)
                elif d < 4.5:
                    c = add(c, 10)
        return c

    return color


def paint_road(ruts: bool) -> Callable[[Orient, random.Random, Noises], Canvas]:
    def paint(o: Orient, rng: random.Random, nz: Noises) -> Canvas:
        return clip_to_hex(o, ground_canvas(o, road_color(o, nz, ruts), rng, 5.0))

    return paint


def plank_color(o: Orient, nz: Noises, base: RGB, boards: int, gap: float) -> Callable[[float, float], RGB]:
    grain = nz.fbm("grain" + str(boards), 2, 3, (1, 12))
    knots = random.Random(f"{SEED}:{o.name}:joints{boards}")
    joints = [knots.random() for _ in range(boards)]
    tints = [knots.uniform(-14, 14) for _ in range(boards)]
    (ax, ay), (bx, by) = o.basis
    det = ax * by - ay * bx

    def color(x: float, y: float) -> RGB:
        v_raw = (-ay * x + ax * y) / det
        v = v_raw % 1.0
        fb = v * boards
        board = int(fb) % boards
        pos = fb - int(fb)
        # joints run straight across the boards: the along-axis position corrected by the board's shift
        along, _ = o.along_across(x, y)
        v_centre = (math.floor(v_raw * boards) + 0.5) / boards
        u = ((along - 32 * v_centre) / 64) % 1.0
        g = grain(x, y)
        c = add(base, tints[board] + (g - 0.5) * 50)
        c = add(c, 10 * math.sin(pos * math.pi) - 5)
        width = o.geometry.row_height if o.pointy else o.geometry.column_width
        edge = min(pos, 1 - pos) * width / boards
        if edge < gap:
            c = mul(c, 0.45)
        du = abs(((u - joints[board] + 0.5) % 1.0) - 0.5) * 64
        if du < 0.7:
            c = mul(c, 0.55)
        elif 1.6 < du < 2.6 and 0.22 < abs(pos - 0.5) < 0.36:
            c = mul(c, 0.5)  # nail heads beside the joint
        return c

    return color


def paint_planks(base: RGB, boards: int, gap: float) -> Callable[[Orient, random.Random, Noises], Canvas]:
    def paint(o: Orient, rng: random.Random, nz: Noises) -> Canvas:
        return clip_to_hex(o, ground_canvas(o, plank_color(o, nz, base, boards, gap), rng, 3.0))

    return paint


def voronoi_points(o: Orient, seed: str, n: int) -> list[tuple[float, float]]:
    rng = random.Random(seed)
    (ax, ay), (bx, by) = o.basis
    pts = []
    for _ in range(n):
        u, v = rng.random(), rng.random()
        pts.append((u * ax + v * bx, u * ay + v * by))
    # the 9 lattice translates make the cells periodic
    out: list[tuple[float, float]] = []
    for i in (-1, 0, 1):
        for j in (-1, 0, 1):
            out.extend((x + i * ax + j * bx, y + i * ay + j * by) for x, y in pts)
    return out


def voronoi(pts: list[tuple[float, float]], x: float, y: float, n: int) -> tuple[int, float, float]:
    """(cell index mod n, distance to nearest, gap to the second nearest)."""
    best = second = 1e9
    bi = 0
    for i, (px, py) in enumerate(pts):
        d = (px - x) ** 2 + (py - y) ** 2
        if d < best:
            second = best
            best = d
            bi = i
        elif d < second:
            second = d
    b, s = math.sqrt(best), math.sqrt(second)
    return bi % n, b, s - b


def paint_flagstone(o: Orient, rng: random.Random, nz: Noises) -> Canvas:
    n = 9
    pts = voronoi_points(o, f"{SEED}:{o.name}:flag", n)
    tone = random.Random(f"{SEED}:flagtone")
    tints = [mix((150.0, 140.0, 124.0), (196.0, 176.0, 150.0), tone.random()) for _ in range(n)]
    surface = nz.fbm("flag", 3, 4)

    def color(x: float, y: float) -> RGB:
        i, _d, gap = voronoi(pts, x, y, n)
        if gap < 1.6:
            return (92.0, 80.0, 66.0)
        c = add(tints[i], (surface(x, y) - 0.5) * 40)
        if gap < 3.0:
            c = add(c, -18)
        return c

    return clip_to_hex(o, ground_canvas(o, color, rng, 4.0))


def paint_water(shallow: bool) -> Callable[[Orient, random.Random, Noises], Canvas]:
    def paint(o: Orient, rng: random.Random, nz: Noises) -> Canvas:
        depth = nz.fbm("water", 2, 4)
        warp = nz.fbm("waterwarp", 3, 3)
        bottom = nz.fbm("road", 2, 5)

        def color(x: float, y: float) -> RGB:
            d = depth(x, y)
            w = warp(x, y)
            rip = lattice_stripe(o, x + 14 * w, y + 10 * d, 5, 9)
            if shallow:
                c = mix((120.0, 146.0, 140.0), (92.0, 128.0, 136.0), d)
                c = mix(c, (170.0, 150.0, 110.0), bottom(x, y) * 0.35)
            else:
                c = mix((46.0, 92.0, 120.0), (64.0, 124.0, 146.0), d)
            if rip > 0.93:
                c = add(c, 55 * (rip - 0.93) / 0.07)
            elif rip < 0.12:
                c = add(c, -12)
            return c

        cv = ground_canvas(o, color, rng, 2.0)
        if shallow:
            for x, y in interior_points(o, rng, 7, 7):
                pebble(cv, x, y, 1.5 + rng.random() * 2, (130.0, 130.0, 116.0), rng)
        return clip_to_hex(o, cv)

    return paint


def rock_height(nz: Noises, family: str) -> Callable[[float, float], float]:
    big = nz.fbm(family, 3, 5)
    ridge = nz.fbm(family + "r", 3, 3)

    def h(x: float, y: float) -> float:
        r = 1.0 - abs(ridge(x, y) * 2 - 1)
        return big(x, y) * 0.8 + r * r * 0.3

    return h


def paint_scree(variant: int) -> Callable[[Orient, random.Random, Noises], Canvas]:
    def paint(o: Orient, rng: random.Random, nz: Noises) -> Canvas:
        low = nz.fbm("scree", 3, 4)
        pts = voronoi_points(o, f"{SEED}:{o.name}:scree", 40)
        tone = random.Random(f"{SEED}:screetone")
        tints = [mix((120.0, 84.0, 60.0), (196.0, 150.0, 110.0), tone.random()) for _ in range(40)]

        def color(x: float, y: float) -> RGB:
            i, _d, gap = voronoi(pts, x, y, 40)
            base = mix((150.0, 112.0, 80.0), (186.0, 146.0, 104.0), low(x, y))
            if gap < 1.2:
                return mul(base, 0.6)
            c = tints[i]
            # a little rim light on the upper-left of each stone
            return add(c, min(gap, 6) * 3 - 6)

        cv = ground_canvas(o, color, rng, 6.0)
        for x, y in interior_points(o, rng, 5 + variant * 4, 6):
            pebble(
                cv,
                x,
                y,
                2 + rng.random() * 3.5,
                mix((150.0, 110.0, 80.0), (200.0, 170.0, 130.0), rng.random()),
                rng,
            )
        return clip_to_hex(o, cv)

    return paint


def paint_rock(variant: int) -> Callable[[Orient, random.Random, Noises], Canvas]:
    def paint(o: Orient, rng: random.Random, nz: Noises) -> Canvas:
        h = rock_height(nz, "rock")
        crack = nz.fbm("rockcrack", 4, 2)
        strata = nz.fbm("strata", 1, 2)
        tint = (0.0, 0.0, 0.0) if variant == 0 else (12.0, -4.0, -10.0)

        def color(x: float, y: float) -> RGB:
            v = h(x, y)
            shade = (h(x - 1.5, y - 1.5) - h(x + 1.5, y + 1.5)) * 420
            band = math.sin((v * 9 + strata(x, y) * 3) * math.pi)
            c = mix((120.0, 62.0, 40.0), (196.0, 118.0, 74.0), v)
            c = add(c, band * 10 + shade)
            c = (c[0] + tint[0], c[1] + tint[1], c[2] + tint[2])
            cr = abs(crack(x, y) - 0.5)
            if cr < 0.012:
                c = mul(c, 0.55)
            return c

        return clip_to_hex(o, ground_canvas(o, color, rng, 4.0))

    return paint


def paint_rail(o: Orient, rng: random.Random, nz: Noises) -> Canvas:
    sand = sand_color(o, nz)
    gravel = nz.fbm("gravel", 12, 2)
    g = o.geometry
    band = (g.side_offset_y, g.row_height) if o.pointy else (g.side_offset_x, g.column_width)
    period = g.row_height if o.pointy else g.column_width
    mid = (band[0] + band[1]) / 2

    def color(x: float, y: float) -> RGB:
        s, t = o.along_across(x, y)
        t %= period
        dt = abs(t - mid)
        if dt > 17:
            return sand(x, y)
        gv = gravel(x, y)
        c = mix((112.0, 104.0, 96.0), (176.0, 164.0, 150.0), gv)
        if dt > 14:
            c = mix(c, sand(x, y), (dt - 14) / 3)
        sleeper = (s % 32) / 32 * 3 % 1.0
        if dt < 13 and 0.15 < sleeper < 0.55:
            c = (104.0, 74.0, 50.0) if 0.2 < sleeper < 0.5 else (70.0, 50.0, 36.0)
            c = add(c, (gravel(x * 0.5, y * 0.5) - 0.5) * 30)
        for rail in (mid - 8, mid + 8):
            d = t - rail
            if -1.6 <= d <= 1.6:
                c = (196.0, 196.0, 200.0) if d < -0.4 else (120.0, 112.0, 108.0)
            elif 1.6 < d <= 2.8:
                c = mul(c, 0.6)
        return c

    return clip_to_hex(o, ground_canvas(o, color, rng, 3.0))


def paint_creek(o: Orient, rng: random.Random, nz: Noises) -> Canvas:
    cracks = voronoi_points(o, f"{SEED}:{o.name}:mud", 14)
    low = nz.fbm("creek", 2, 4)

    def color(x: float, y: float) -> RGB:
        _, _, gap = voronoi(cracks, x, y, 14)
        c = mix((176.0, 150.0, 118.0), (204.0, 184.0, 150.0), low(x, y))
        if gap < 1.1:
            c = mul(c, 0.62)
        elif gap < 2.5:
            c = add(c, 10)
        return c

    cv = ground_canvas(o, color, rng, 3.0)
    for x, y in interior_points(o, rng, 10, 5):
        pebble(
            cv,
            x,
            y,
            1.5 + rng.random() * 2.5,
            mix((140.0, 140.0, 136.0), (190.0, 180.0, 170.0), rng.random()),
            rng,
        )
    return clip_to_hex(o, cv)


def paint_corral(o: Orient, rng: random.Random, nz: Noises) -> Canvas:
    low = nz.fbm("corral", 3, 4)
    road = road_color(o, nz, False)

    def color(x: float, y: float) -> RGB:
        return mix(road(x, y), (110.0, 80.0, 54.0), low(x, y) * 0.6)

    cv = ground_canvas(o, color, rng, 6.0)
    for x, y in interior_points(o, rng, 9, 6):  # hoof prints
        shape(cv, ellipse(x, y, 1.6, 1.2), (86.0, 60.0, 40.0))
        shape(cv, ellipse(x + 0.6, y + 0.5, 1.0, 0.7), (110.0, 80.0, 54.0))
    for x, y in interior_points(o, rng, 4, 8):  # straw
        a = rng.random() * math.tau
        line(cv, x, y, x + math.cos(a) * 4, y + math.sin(a) * 4, 0.5, (214.0, 190.0, 110.0))
    return clip_to_hex(o, cv)


def paint_adobe(o: Orient, rng: random.Random, nz: Noises) -> Canvas:
    low = nz.fbm("adobe", 2, 5)
    crack = nz.fbm("adobecrack", 3, 2)

    def color(x: float, y: float) -> RGB:
        n = low(x, y)
        c = mix((192.0, 136.0, 92.0), (226.0, 178.0, 126.0), n)
        c = add(c, (low(x - 1, y - 1) - low(x + 1, y + 1)) * 260)
        if abs(crack(x, y) - 0.5) < 0.01:
            c = mul(c, 0.7)
        return c

    return clip_to_hex(o, ground_canvas(o, color, rng, 4.0))


def paint_timber(o: Orient, rng: random.Random, nz: Noises) -> Canvas:
    grain = nz.fbm("logs", 2, 3, (1, 10))
    (ax, ay), (bx, by) = o.basis
    det = ax * by - ay * bx
    logs = 4

    def color(x: float, y: float) -> RGB:
        v = ((-ay * x + ax * y) / det) % 1.0
        f = v * logs
        pos = f - int(f)
        c = mix((66.0, 50.0, 40.0), (104.0, 80.0, 62.0), grain(x, y))
        c = mul(c, 0.5 + 0.6 * math.sin(pos * math.pi) ** 0.6)
        if pos < 0.5:
            c = add(c, 12 * (0.5 - abs(pos - 0.3) * 2))
        return c

    return clip_to_hex(o, ground_canvas(o, color, rng, 4.0))


def paint_stonewall(o: Orient, rng: random.Random, nz: Noises) -> Canvas:
    surface = nz.fbm("stonewall", 4, 3)
    (ax, ay), (bx, by) = o.basis
    det = ax * by - ay * bx
    courses = 4
    tone = random.Random(f"{SEED}:blocks")
    tints = [tone.uniform(-22, 22) for _ in range(64)]

    def color(x: float, y: float) -> RGB:
        u = ((by * x - bx * y) / det) % 1.0
        v = ((-ay * x + ax * y) / det) % 1.0
        fv = v * courses
        row = int(fv)
        along, _ = o.along_across(x, y)
        fu = ((along + (8 if row % 2 else 0)) % 32) / 16
        col = int(fu)
        pv, pu = fv - row, fu - col
        del u
        c = add((150.0, 144.0, 136.0), tints[(row * 8 + col) % 64] + (surface(x, y) - 0.5) * 46)
        width = o.geometry.row_height if o.pointy else o.geometry.column_width
        ev = min(pv, 1 - pv) * width / courses
        eu = min(pu, 1 - pu) * 16
        e = min(ev, eu)
        if e < 1.0:
            return (70.0, 64.0, 58.0)
        if e < 2.5:
            return add(c, 22 if (pv < 0.5 and ev < eu) or (pu < 0.5 and eu <= ev) else -22)
        return c

    return clip_to_hex(o, ground_canvas(o, color, rng, 4.0))


TERRAIN: list[tuple[TileDef, Callable[[Orient, random.Random, Noises], Canvas]]] = []


def _t(key: str, painter: Callable[[Orient, random.Random, Noises], Canvas], **props: PropValue) -> None:
    TERRAIN.append((TileDef(key, dict(props)), painter))


WALL: BlockProps = {"impassable": True, "blocks_sight": True, "cover": "full"}

_t("sand", paint_sand(0), terrain="sand")
_t("sand_pebbles", paint_sand(1), terrain="sand")
_t("sand_scrub", paint_sand(2), terrain="sand")
_t("grass", paint_grass(0), terrain="dry grass")
_t("grass_thick", paint_grass(1), terrain="dry grass")
_t("road", paint_road(False), terrain="dirt road")
_t("road_ruts", paint_road(True), terrain="dirt road")
_t("corral", paint_corral, terrain="trampled dirt")
_t("floor", paint_planks((182.0, 124.0, 74.0), 5, 0.7), terrain="plank floor")
_t("boardwalk", paint_planks((156.0, 128.0, 96.0), 4, 1.1), terrain="boardwalk")
_t("flagstone", paint_flagstone, terrain="flagstone")
_t("water", paint_water(False), terrain="deep water", impassable=True)
_t("ford", paint_water(True), terrain="shallow ford", move_cost=3)
_t("scree", paint_scree(0), terrain="scree", move_cost=2)
_t("scree_rocks", paint_scree(1), terrain="scree", move_cost=2)
_t("rail", paint_rail, terrain="rail track")
_t("creek", paint_creek, terrain="dry creek bed")
_t("rock", paint_rock(0), terrain="canyon rock", **WALL)
_t("rock_red", paint_rock(1), terrain="canyon rock", **WALL)
_t("wall_adobe", paint_adobe, terrain="adobe wall", **WALL)
_t("wall_timber", paint_timber, terrain="timber wall", **WALL)
_t("wall_stone", paint_stonewall, terrain="stone wall", **WALL)


# --------------------------------------------------------------------------------------------------
# Object sprites (transparent, sized to the hex, drop shadow towards the lower right)

Sprite = Callable[[Orient, random.Random, float, float], Canvas]


def wood_fn(base: RGB, rng: random.Random, streak: float = 1.0, vertical: bool = False) -> Color:
    phase = rng.random() * 10

    def col(x: float, y: float) -> RGB:
        t = x if vertical else y
        s = x * 0.13 + phase if vertical else y * 0.0
        g = math.sin(t * 2.1 + math.sin((y if vertical else x) * 0.23 + phase) * 2.2 + s)
        return add(base, g * 9 * streak)

    return col


def barrel(cv: Canvas, cx: float, cy: float, rng: random.Random, r: float = 10.0) -> None:
    top, bot = cy - r * 1.05, cy + r * 0.95
    bottom_in, _ = ellipse(cx, bot, r, r * 0.45)

    def bulge(x: float, y: float) -> bool:
        t = (y - top) / (bot - top)
        w = r * (0.9 + 0.1 * math.sin(math.pi * max(0.0, min(1.0, t))))
        return (abs(x - cx) <= w and top <= y <= bot) or bottom_in(x, y)

    def body(x: float, y: float) -> RGB:
        dx = (x - cx) / r
        light = 0.55 + 0.55 * math.cos(max(-1.0, min(1.0, dx + 0.35)) * 1.4)
        c = mul((150.0, 92.0, 50.0), light)
        stave = abs(math.sin(math.asin(max(-1.0, min(1.0, dx))) * 4.5))
        if stave < 0.12:
            c = mul(c, 0.7)
        t = (y - top) / (bot - top)
        for hoop in (0.16, 0.8):
            if abs(t - hoop) < 0.07:
                c = mul((96.0, 92.0, 90.0), light)
        return c

    fill(cv, (cx - r - 1, top, cx + r + 1, bot + r * 0.5), bulge, body)
    lid_in, lid_box = ellipse(cx, top, r, r * 0.45)

    def lid(x: float, y: float) -> RGB:
        d = math.hypot((x - cx) / r, (y - top) / (r * 0.45))
        if d > 0.8:
            return (80.0, 60.0, 44.0)
        c = add((176.0, 124.0, 78.0), -((x - cx) + (y - top)) * 1.5)
        if abs(((x - cx) * 0.9) % 4) < 0.6:
            c = mul(c, 0.85)
        return c

    fill(cv, lid_box, lid_in, lid)
    shape(cv, ellipse(cx + r * 0.3, top, 1.6, 1.0), (60.0, 40.0, 28.0))


def crate(cv: Canvas, x0: float, y0: float, w: float, d: float, h: float, rng: random.Random) -> None:
    """An oblique wooden crate: top face ``w`` x ``d`` above a front face ``h`` high."""
    base: RGB = (176.0, 132.0, 80.0)
    top_c = wood_fn(add(base, 18), rng)
    front_c = wood_fn(mul(base, 0.78), rng)
    shape(cv, rect(x0, y0, x0 + w, y0 + d), top_c)
    shape(cv, rect(x0, y0 + d, x0 + w, y0 + d + h), front_c)
    for i in range(1, 3):  # top planks
        yy = y0 + d * i / 3
        line(cv, x0 + 1, yy, x0 + w - 1, yy, 0.35, mul(base, 0.6))
    dark = mul(base, 0.45)
    for xx in (x0 + 1.5, x0 + w - 1.5):  # front frame and brace
        line(cv, xx, y0 + d + 1, xx, y0 + d + h - 1, 0.9, mul(base, 0.6))
    line(cv, x0 + 2, y0 + d + h - 2, x0 + w - 2, y0 + d + 2, 0.9, mul(base, 0.6))
    line(cv, x0, y0 + d, x0 + w, y0 + d, 0.5, dark)
    for sh in (rect(x0, y0, x0 + w, y0 + 0.8), rect(x0, y0, x0 + 0.8, y0 + d + h)):
        shape(cv, sh, add(base, 40))


def oblique_box(
    cv: Canvas, x0: float, y0: float, w: float, d: float, h: float, top: Color | RGB, front: Color | RGB
) -> None:
    shape(cv, rect(x0, y0, x0 + w, y0 + d), top)
    shape(cv, rect(x0, y0 + d, x0 + w, y0 + d + h), front)


def blob(
    cv: Canvas, cx: float, cy: float, r: float, rng: random.Random, base: RGB, squash: float = 0.8
) -> None:
    """A lumpy rock lit from the upper left."""
    bumps = [(rng.uniform(0.05, 0.16), rng.random() * math.tau, k) for k in (2, 3, 5)]

    def radius(a: float) -> float:
        return r * (1 + sum(b * math.sin(k * a + p) for b, p, k in bumps))

    def inside(x: float, y: float) -> bool:
        dx, dy = x - cx, (y - cy) / squash
        return math.hypot(dx, dy) <= radius(math.atan2(dy, dx))

    detail = TorusNoise(f"{SEED}:blob:{rng.random()}", ((24.0, 0.0), (0.0, 24.0)), 6, 6)

    def col(x: float, y: float) -> RGB:
        dx, dy = (x - cx) / (r * 1.1), (y - cy) / (r * squash * 1.1)
        nz = math.sqrt(max(0.0, 1 - dx * dx - dy * dy))
        light = 0.45 + 0.75 * max(0.0, -0.55 * dx - 0.55 * dy + 0.62 * nz)
        c = mul(base, light)
        return add(c, (detail(x, y) - 0.5) * 36)

    rr = r * 1.35
    fill(cv, (cx - rr, cy - rr, cx + rr, cy + rr), inside, col)


def sprite_barrel(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    cv = Canvas(o.image_w, o.image_h)
    barrel(cv, cx, cy + 2, rng, 11)
    return cv


def sprite_barrels(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    cv = Canvas(o.image_w, o.image_h)
    barrel(cv, cx - 9, cy - 6, rng, 9)
    barrel(cv, cx + 10, cy - 3, rng, 9)
    barrel(cv, cx - 1, cy + 9, rng, 9)
    return cv


def sprite_crates(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    cv = Canvas(o.image_w, o.image_h)
    crate(cv, cx - 20, cy - 18, 22, 9, 14, rng)
    crate(cv, cx + 1, cy - 12, 18, 8, 12, rng)
    crate(cv, cx - 11, cy + 1, 20, 8, 13, rng)
    return cv


def sprite_crate(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    cv = Canvas(o.image_w, o.image_h)
    crate(cv, cx - 13, cy - 12, 26, 10, 17, rng)
    return cv


def sprite_boulder(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    cv = Canvas(o.image_w, o.image_h)
    blob(cv, cx + 1, cy + 1, 21, rng, (176.0, 128.0, 96.0), 0.85)
    blob(cv, cx - 14, cy + 12, 8, rng, (170.0, 124.0, 92.0), 0.8)
    return cv


def sprite_rocks(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    cv = Canvas(o.image_w, o.image_h)
    for dx, dy, r in ((-10, -6, 8), (9, -8, 7), (0, 8, 9), (14, 9, 5)):
        blob(cv, cx + dx, cy + dy, r, rng, (168.0, 142.0, 118.0))
    return cv


def sprite_sandbags(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    cv = Canvas(o.image_w, o.image_h)
    rows = ((cy + 2, 6, 24.0), (cy - 5, 5, 20.0))
    for row, (yy, n, span) in enumerate(rows):
        for i in range(n):
            t = i / (n - 1) - 0.5
            x = cx + t * span * 2
            y = yy - abs(t) * 14 + (3 if row == 0 else 0)
            tone = rng.uniform(-10, 10)

            def col(px: float, py: float, x: float = x, y: float = y, tone: float = tone) -> RGB:
                d = ((px - x) / 7 + (py - y) / 4.5) * 0.5
                return add((196.0, 176.0, 128.0), tone - 45 * d)

            shape(cv, ellipse(x, y, 7.2, 4.6), col)
            line(cv, x - 3, y - 1, x + 3, y - 1, 0.3, (150.0, 130.0, 90.0))
    return cv


def sprite_cactus(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    cv = Canvas(o.image_w, o.image_h)
    green: RGB = (78.0, 132.0, 62.0)

    def col_for(x0: float, r: float) -> Color:
        def col(x: float, y: float) -> RGB:
            dx = (x - x0) / r
            c = mul(green, 0.6 + 0.6 * max(0.0, 1 - (dx + 0.3) ** 2))
            if abs(math.sin(dx * 3.2)) < 0.15:
                c = mul(c, 0.8)
            return c

        return col

    base_y = cy + 14
    shape(cv, ellipse(cx, base_y, 7, 3), (70.0, 50.0, 30.0))
    # arms: horizontal elbow then up
    for side, elbow, top in ((-1, cy - 2, cy - 14), (1, cy + 3, cy - 8)):
        ax = cx + side * 11
        fill(cv, capsule(cx, elbow, ax, elbow, 3.4)[1], capsule(cx, elbow, ax, elbow, 3.4)[0], green)
        fill(cv, capsule(ax, elbow, ax, top, 3.6)[1], capsule(ax, elbow, ax, top, 3.6)[0], col_for(ax, 3.6))
    fill(
        cv,
        capsule(cx, base_y, cx, cy - 22, 5.2)[1],
        capsule(cx, base_y, cx, cy - 22, 5.2)[0],
        col_for(cx, 5.2),
    )
    shape(cv, ellipse(cx - 1, cy - 22, 2.2, 1.6), (150.0, 190.0, 110.0))
    shape(cv, ellipse(cx, cy - 25, 1.6, 1.6), (230.0, 210.0, 120.0))
    return cv


def sprite_haybale(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    cv = Canvas(o.image_w, o.image_h)
    straw = TorusNoise(f"{SEED}:straw", ((8.0, 0.0), (0.0, 40.0)), 4, 20)

    def top(x: float, y: float) -> RGB:
        return add((226.0, 196.0, 112.0), (straw(x, y) - 0.5) * 60)

    def front(x: float, y: float) -> RGB:
        return add((184.0, 150.0, 76.0), (straw(y, x) - 0.5) * 60)

    x0, y0, w, d, h = cx - 20, cy - 14, 40, 14, 14
    oblique_box(cv, x0, y0, w, d, h, top, front)
    for bx in (x0 + 11, x0 + w - 11):
        line(cv, bx, y0, bx, y0 + d + h, 0.7, (120.0, 84.0, 50.0))
    for _ in range(18):  # loose straw
        x = x0 + rng.random() * w
        y = y0 + rng.choice((0.0, d + h))
        a = rng.random() * math.tau
        line(cv, x, y, x + math.cos(a) * 3, y + math.sin(a) * 3, 0.4, (236.0, 210.0, 130.0))
    return cv


def sprite_trough(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    cv = Canvas(74, 74)
    c0 = 37.0
    wood: RGB = (128.0, 90.0, 58.0)
    oblique_box(cv, c0 - 25, c0 - 9, 50, 12, 8, wood_fn(add(wood, 14), rng), wood_fn(mul(wood, 0.72), rng))

    def water(x: float, y: float) -> RGB:
        c = mix((60.0, 110.0, 130.0), (90.0, 140.0, 156.0), (x - c0 + 25) / 50)
        return add(c, 40 if abs((x + y * 0.6) % 11 - 5) < 0.5 else 0)

    shape(cv, rect(c0 - 22, c0 - 7, c0 + 22, c0 + 1), water)
    for xx in (c0 - 22, c0 + 21):
        shape(cv, rect(xx, c0 + 11, xx + 2, c0 + 13), mul(wood, 0.5))
    return axis_sprite(o, cv, cx, cy)


def axis_sprite(o: Orient, square: Canvas, cx: float, cy: float) -> Canvas:
    """Place a 74x74 sprite drawn along the x axis onto a tile, turned to the straight hex axis."""
    src = square if o.pointy else square.rotated()
    cv = Canvas(o.image_w, o.image_h)
    cv.draw(src, round(cx - src.w / 2), round(cy - src.h / 2))
    return cv


def sprite_wagon(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    cv = Canvas(74, 74)
    c = 37.0
    wheel: RGB = (70.0, 52.0, 36.0)
    for wx in (c - 19, c + 15):
        for wy in (c - 15, c + 15):
            shape(cv, rect(wx - 7, wy - 2.4, wx + 7, wy + 2.4), wheel)
            line(cv, wx - 6.5, wy, wx + 6.5, wy, 0.5, (150.0, 120.0, 80.0))
    line(cv, c - 36, c, c - 24, c, 1.2, (110.0, 80.0, 50.0))  # tongue
    line(cv, c - 36, c - 5, c - 36, c + 5, 1.0, (110.0, 80.0, 50.0))
    shape(cv, rect(c - 28, c - 11, c + 26, c + 11), wood_fn((120.0, 84.0, 52.0), rng))

    def canvas_top(x: float, y: float) -> RGB:
        t = (y - (c - 13)) / 26
        light = 0.72 + 0.4 * math.sin(math.pi * t) - 0.18 * t
        col = mul((236.0, 226.0, 200.0), light)
        rib = (x - (c - 20)) % 9
        if rib < 1.3:
            col = mul(col, 0.78)
        return col

    shape(cv, rect(c - 22, c - 13, c + 24, c + 13), canvas_top)
    shape(cv, ellipse(c - 22, c, 4, 13), (206.0, 196.0, 170.0))
    shape(cv, ellipse(c - 23, c, 2.2, 9), (60.0, 44.0, 32.0))  # opening into the bonnet
    return axis_sprite(o, cv, cx, cy)


def direction_angle(o: Orient, k: int) -> float:
    """Screen angle (y down) from a hex centre towards neighbour ``k``: 0 = east (pointy) / east-south-east
    (flat), then clockwise in steps of 60 degrees."""
    return math.radians((0 if o.pointy else 30) + 60 * k)


def fence_arm(cv: Canvas, cx: float, cy: float, angle: float, metal: bool, lift: float) -> None:
    """Half a fence: from the hex centre to the middle of the edge towards ``angle``."""
    half = 32.0
    dx, dy = math.cos(angle), math.sin(angle)
    ax, ay = cx, cy + lift
    bx, by = cx + dx * half, cy + lift + dy * half
    post: RGB = (96.0, 70.0, 46.0) if not metal else (70.0, 72.0, 78.0)
    rail: RGB = (150.0, 112.0, 72.0) if not metal else (110.0, 114.0, 122.0)
    n = 2 if not metal else 5
    height = 15.0 if not metal else 17.0
    if abs(dx) < 0.3:  # seen end-on the rails would overlap: draw them from above instead
        for off in (-2.5, 2.5):
            line(cv, ax + off, ay - 6, bx + off, by - 6, 1.0 if not metal else 0.7, rail)
            line(cv, ax + off - 0.6, ay - 6, bx + off - 0.6, by - 6, 0.4, add(rail, 40))
        for i in range(n + 1):
            t = i / n
            px, py = ax + (bx - ax) * t, ay - 6 + (by - ay) * t
            shape(cv, rect(px - 3.2, py - 2.5, px + 3.2, py + 2.5), post)
            shape(cv, rect(px - 3.2, py - 2.5, px + 3.2, py - 1.2), add(post, 50))
        return
    shape(cv, capsule(ax, ay, bx, by, 1.5), (60.0, 44.0, 30.0))  # footing
    for hgt in (height - 3, height - 9) if not metal else (height - 1, 2.0):
        line(cv, ax, ay - hgt, bx, by - hgt, 1.3 if not metal else 0.9, rail)
        line(cv, ax, ay - hgt - 0.9, bx, by - hgt - 0.9, 0.5, add(rail, 40))
    for i in range(n + 1):
        t = i / n
        px, py = ax + (bx - ax) * t, ay + (by - ay) * t
        if metal:
            line(cv, px, py, px, py - height, 0.8, post)
        else:
            shape(cv, rect(px - 1.8, py - height, px + 1.8, py), post)
            shape(cv, rect(px - 1.8, py - height, px + 1.8, py - height + 1.4), add(post, 50))


def sprite_fence(arms: tuple[int, int], metal: bool = False) -> Sprite:
    """A fence piece joining the edges towards neighbours ``arms`` (see :func:`direction_angle`)."""

    def paint(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
        cv = Canvas(o.image_w, o.image_h)
        lift = 8.0 if o.pointy else 4.0
        # draw the arm that reaches further up first, so the nearer one overlaps it
        angles = sorted((direction_angle(o, k) for k in arms), key=math.sin)
        for a in angles:
            fence_arm(cv, cx, cy, a, metal, lift)
        return cv

    return paint


def sprite_door(open_: bool) -> Sprite:
    def paint(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
        sq = Canvas(74, 74)
        c = 37.0
        jamb: RGB = (90.0, 66.0, 44.0)
        for jx in (c - 31, c + 27):
            shape(sq, rect(jx, c - 7, jx + 4, c + 7), jamb)
            shape(sq, rect(jx, c - 7, jx + 4, c - 6), add(jamb, 40))
        door = wood_fn((150.0, 96.0, 52.0), rng, vertical=True)
        if not open_:
            shape(sq, rect(c - 27, c - 4, c + 27, c + 4), door)
            for xx in range(-20, 27, 9):
                line(sq, c + xx, c - 3.5, c + xx, c + 3.5, 0.35, (100.0, 62.0, 36.0))
            shape(sq, rect(c - 24, c - 4.5, c - 18, c + 4.5), (60.0, 60.0, 64.0))
            shape(sq, rect(c + 18, c - 4.5, c + 24, c + 4.5), (60.0, 60.0, 64.0))
            shape(sq, ellipse(c + 14, c, 1.8, 1.8), (230.0, 190.0, 80.0))
            line(sq, c - 27, c - 4, c + 27, c - 4, 0.5, (200.0, 150.0, 100.0))
        else:
            # swung open against the inside: the doorway is clear
            shape(sq, rect(c - 27, c + 4, c - 19, c + 34), door)
            line(sq, c - 27, c + 4, c - 27, c + 34, 0.5, (200.0, 150.0, 100.0))
            for yy in (c + 12, c + 26):
                line(sq, c - 27, yy, c - 19, yy, 0.9, (60.0, 60.0, 64.0))
            shape(
                sq,
                rect(c - 27, c - 1.2, c + 27, c + 1.2),
                (
                    210.0,
                    180.0,
                    120.0,
                ),
            )  # threshold
        return axis_sprite(o, sq, cx, cy)

    return paint


def sprite_boxcar(part: str) -> Sprite:
    def paint(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
        sq = Canvas(74, 74)
        c = 37.0
        x0 = c - 32 if part != "head" else c - 20
        x1 = c + 32 if part != "tail" else c + 20
        roof: RGB = (146.0, 56.0, 40.0)

        def col(x: float, y: float) -> RGB:
            t = (y - (c - 17)) / 34
            k = roof if abs(t - 0.5) > 0.06 else (120.0, 96.0, 70.0)
            k = mul(k, 0.8 + 0.35 * math.sin(math.pi * t))
            if (x - c) % 8 < 1.0:
                k = mul(k, 0.75)
            return k

        shape(sq, rect(x0, c - 17, x1, c + 17), col)
        for x in (x0, x1):
            if (x == x0 and part == "head") or (x == x1 and part == "tail"):
                shape(
                    sq,
                    rect(
                        min(x, x + (-6 if x == x0 else 6)), c - 3, max(x, x + (-6 if x == x0 else 6)), c + 3
                    ),
                    (50.0, 50.0, 54.0),
                )
                line(sq, x, c - 17, x, c + 17, 0.9, (80.0, 30.0, 24.0))
        line(sq, x0, c - 17, x1, c - 17, 0.6, (200.0, 110.0, 90.0))
        line(sq, x0, c + 17, x1, c + 17, 0.6, (70.0, 26.0, 20.0))
        return axis_sprite(o, sq, cx, cy)

    return paint


def sprite_table(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    cv = Canvas(o.image_w, o.image_h)
    chair: RGB = (110.0, 72.0, 44.0)
    for a in (0.3, 1.9, 3.5, 5.0):
        x, y = cx + math.cos(a) * 17, cy + math.sin(a) * 14
        shape(cv, rect(x - 4, y - 4, x + 4, y + 4), chair)
        shape(cv, rect(x - 4, y - 4, x + 4, y - 2.5), add(chair, 40))
    shape(cv, ellipse(cx, cy + 3, 14, 11), (70.0, 44.0, 28.0))

    def top(x: float, y: float) -> RGB:
        d = ((x - cx) + (y - cy)) / 26
        return add((170.0, 112.0, 64.0), -40 * d + 6 * math.sin(x * 1.7))

    shape(cv, ellipse(cx, cy, 14, 11), top)
    for dx, dy in ((-5, -2), (4, 3)):
        shape(cv, ellipse(cx + dx, cy + dy, 2.0, 2.0), (236.0, 232.0, 220.0))
    shape(cv, rect(cx + 2, cy - 6, cx + 4, cy - 1), (70.0, 110.0, 60.0))  # bottle
    for i in range(4):
        shape(
            cv,
            rect(cx - 9 + i * 1.2, cy + 2 - i * 0.6, cx - 5 + i * 1.2, cy + 5 - i * 0.6),
            (230.0, 230.0, 230.0),
        )
    return cv


def sprite_bar(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    sq = Canvas(74, 74)
    c = 37.0
    oblique_box(
        sq, c - 32, c - 10, 64, 10, 12, wood_fn((120.0, 64.0, 36.0), rng), wood_fn((86.0, 46.0, 28.0), rng)
    )
    line(sq, c - 32, c - 9.5, c + 32, c - 9.5, 0.5, (200.0, 140.0, 90.0))
    line(sq, c - 32, c + 9, c + 32, c + 9, 0.8, (210.0, 176.0, 80.0))  # brass foot rail
    for x in (-24, -12, 4, 18):
        shape(
            sq, rect(c + x, c - 8, c + x + 2.4, c - 3), (60.0, 110.0, 80.0) if x % 8 else (120.0, 70.0, 40.0)
        )
    return axis_sprite(o, sq, cx, cy)


def sprite_piano(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    cv = Canvas(o.image_w, o.image_h)
    x0, y0 = cx - 20, cy - 16
    oblique_box(cv, x0, y0, 40, 9, 20, wood_fn((70.0, 40.0, 30.0), rng), wood_fn((56.0, 32.0, 24.0), rng))
    shape(cv, rect(x0 + 3, y0 + 13, x0 + 37, y0 + 18), (236.0, 230.0, 214.0))
    for i in range(14):
        if i % 7 not in (2, 6):
            shape(cv, rect(x0 + 5 + i * 2.4, y0 + 13, x0 + 6.2 + i * 2.4, y0 + 15.5), (30.0, 26.0, 24.0))
    shape(cv, rect(x0 + 12, y0 + 24, x0 + 28, y0 + 28), (90.0, 56.0, 40.0))  # stool
    return cv


def sprite_safe(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    cv = Canvas(o.image_w, o.image_h)
    x0, y0 = cx - 15, cy - 16
    oblique_box(cv, x0, y0, 30, 8, 24, (92.0, 96.0, 104.0), (58.0, 62.0, 70.0))
    shape(cv, rect(x0 + 3, y0 + 11, x0 + 27, y0 + 29), (68.0, 72.0, 80.0))
    shape(cv, ellipse(cx, y0 + 20, 4.5, 4.5), (200.0, 170.0, 80.0))
    shape(cv, ellipse(cx, y0 + 20, 2.0, 2.0), (60.0, 50.0, 30.0))
    line(cv, x0 + 24, y0 + 16, x0 + 24, y0 + 24, 0.8, (200.0, 170.0, 80.0))
    shape(cv, rect(x0, y0, x0 + 30, y0 + 1), (150.0, 154.0, 162.0))
    return cv


def sprite_tumbleweed(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    cv = Canvas(o.image_w, o.image_h)
    for _ in range(110):
        a, b = rng.random() * math.tau, rng.random() * math.tau
        r1, r2 = 12 * math.sqrt(rng.random()), 12 * math.sqrt(rng.random())
        c = mix((120.0, 90.0, 50.0), (200.0, 170.0, 110.0), rng.random())
        line(
            cv,
            cx + math.cos(a) * r1,
            cy + math.sin(a) * r1,
            cx + math.cos(b) * r2,
            cy + math.sin(b) * r2,
            0.35,
            c,
        )
    return cv


def sprite_skull(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    cv = Canvas(o.image_w, o.image_h)
    bone: RGB = (236.0, 228.0, 206.0)
    for side in (-1, 1):
        line(cv, cx + side * 4, cy - 4, cx + side * 11, cy - 6, 1.6, bone)
        line(cv, cx + side * 11, cy - 6, cx + side * 13, cy - 11, 1.1, bone)
    shape(cv, polygon([(cx - 6, cy - 6), (cx + 6, cy - 6), (cx + 3, cy + 8), (cx - 3, cy + 8)]), bone)
    for side in (-1, 1):
        shape(cv, ellipse(cx + side * 2.8, cy - 2, 1.5, 1.8), (50.0, 40.0, 36.0))
    shape(cv, ellipse(cx, cy + 6, 2.2, 1.4), (200.0, 190.0, 170.0))
    return cv


def sprite_wheel(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    cv = Canvas(o.image_w, o.image_h)
    rim: RGB = (96.0, 68.0, 44.0)
    ring_in, box = ellipse(cx, cy, 13, 10)
    inner_in, _ = ellipse(cx, cy, 10.5, 8)
    fill(cv, box, lambda x, y: ring_in(x, y) and not inner_in(x, y), rim)
    for k in range(6):
        a = k * math.pi / 6
        line(
            cv,
            cx - math.cos(a) * 10.5,
            cy - math.sin(a) * 8,
            cx + math.cos(a) * 10.5,
            cy + math.sin(a) * 8,
            0.7,
            rim,
        )
    shape(cv, ellipse(cx, cy, 3, 2.4), (80.0, 60.0, 40.0))
    return cv


def sprite_tufts(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    cv = Canvas(o.image_w, o.image_h)
    for x, y in interior_points(o, rng, 3, 12):
        for _ in range(14):
            a = -math.pi / 2 + rng.uniform(-1.0, 1.0)
            ln = rng.uniform(3, 7)
            c = mix((120.0, 120.0, 60.0), (210.0, 190.0, 110.0), rng.random())
            line(cv, x, y, x + math.cos(a) * ln, y + math.sin(a) * ln, 0.5, c)
    return cv


def sprite_stones(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    cv = Canvas(o.image_w, o.image_h)
    for x, y in interior_points(o, rng, 6, 10):
        pebble(cv, x, y, 1.8 + rng.random() * 2.2, (176.0, 160.0, 140.0), rng)
    return cv


def sprite_pump(o: Orient, rng: random.Random, cx: float, cy: float) -> Canvas:
    cv = Canvas(o.image_w, o.image_h)
    shape(cv, ellipse(cx, cy + 8, 12, 6), (120.0, 120.0, 124.0))
    shape(cv, ellipse(cx, cy + 8, 9, 4), (70.0, 110.0, 130.0))
    shape(cv, rect(cx - 3, cy - 14, cx + 3, cy + 6), (60.0, 66.0, 64.0))
    shape(cv, rect(cx - 3, cy - 14, cx - 1, cy + 6), (110.0, 118.0, 116.0))
    line(cv, cx + 3, cy - 10, cx + 10, cy - 4, 1.2, (60.0, 66.0, 64.0))
    line(cv, cx - 2, cy - 14, cx - 14, cy - 20, 1.0, (80.0, 86.0, 84.0))
    return cv


OBJECTS: list[tuple[TileDef, Sprite, bool]] = []  # (tile, painter, casts shadow)


def _o(key: str, painter: Sprite, shadow: bool = True, **props: PropValue) -> None:
    OBJECTS.append((TileDef(key, dict(props)), painter, shadow))


HALF: BlockProps = {"cover": "half"}
BIG: BlockProps = {"cover": "full", "impassable": True, "blocks_sight": True}

_o("barrel", sprite_barrel, terrain="barrel", destructible=True, **HALF)
_o("barrels", sprite_barrels, terrain="barrels", destructible=True, **HALF)
_o("crates", sprite_crates, terrain="crates", destructible=True, **HALF)
_o("crate", sprite_crate, terrain="crate", destructible=True, **HALF)
_o("trough", sprite_trough, terrain="water trough", **HALF)
_o("wagon", sprite_wagon, terrain="wagon", **BIG)
_o("sandbags", sprite_sandbags, terrain="sandbags", **HALF)
_o("rocks", sprite_rocks, terrain="rocks", move_cost=2, **HALF)
_o("boulder", sprite_boulder, terrain="boulder", **BIG)
_o("cactus", sprite_cactus, terrain="cactus", move_cost=2, **HALF)
_o("haybale", sprite_haybale, terrain="hay bale", destructible=True, **HALF)
_o("table", sprite_table, terrain="saloon table", destructible=True, **HALF)
_o("bar", sprite_bar, terrain="bar counter", move_cost=2, **HALF)
_o("piano", sprite_piano, terrain="piano", impassable=True, **HALF)
_o("safe", sprite_safe, terrain="safe", impassable=True, cover="full")
_o("pump", sprite_pump, terrain="water pump", cover="none")
# fence pieces join two hex edges: straight runs and 120-degree bends (neighbour k = 60 * k degrees)
FENCE_PIECES = [(0, 3), (1, 4), (2, 5), (0, 2), (1, 3), (2, 4), (3, 5), (0, 4), (1, 5)]
for _arms in FENCE_PIECES:
    _o(
        f"fence_{_arms[0]}{_arms[1]}",
        sprite_fence(_arms),
        terrain="fence",
        move_cost=2,
        destructible=True,
        **HALF,
    )
_o(
    "bars",
    lambda o, r, x, y: sprite_fence((0, 3) if o.pointy else (1, 4), True)(o, r, x, y),
    terrain="jail bars",
    impassable=True,
    **HALF,
)
_o("door_closed", sprite_door(False), False, terrain="doorway")
_o("door_open", sprite_door(True), False, terrain="doorway")
_o("boxcar_head", sprite_boxcar("head"), terrain="boxcar", **BIG)
_o("boxcar_mid", sprite_boxcar("mid"), terrain="boxcar", **BIG)
_o("boxcar_tail", sprite_boxcar("tail"), terrain="boxcar", **BIG)
_o("tumbleweed", sprite_tumbleweed, terrain="tumbleweed")
_o("skull", sprite_skull, terrain="cow skull")
_o("wheel", sprite_wheel, terrain="wagon wheel")
_o("tufts", sprite_tufts, False, terrain="grass tufts")
_o("stones", sprite_stones, False, terrain="stones")


# --------------------------------------------------------------------------------------------------
# Tall objects (larger than a hex, anchored at the hex like Tiled anchors images: bottom-left)


def tall_water_tower(rng: random.Random, fx: float, fy: float) -> Canvas:
    w, h = TALL_SIZE
    cv = Canvas(w, h)
    timber: RGB = (112.0, 80.0, 52.0)
    legs = [(fx - 24, fy + 8), (fx + 20, fy + 10), (fx - 18, fy - 6), (fx + 16, fy - 4)]
    tank_bottom = fy - 80
    for lx, ly in legs:
        line(cv, lx, ly, fx + (lx - fx) * 0.7, tank_bottom, 2.2, timber)
        line(cv, lx - 1, ly, fx + (lx - fx) * 0.7 - 1, tank_bottom, 0.6, add(timber, 40))
    for t in (0.3, 0.65):  # cross bracing
        y = fy + (tank_bottom - fy) * t
        sx = 1 - 0.3 * t
        line(cv, fx - 24 * sx, y + 8, fx + 20 * sx, y - 14, 1.0, mul(timber, 0.8))
        line(cv, fx - 24 * sx, y - 14, fx + 20 * sx, y + 8, 1.0, mul(timber, 0.8))
        line(cv, fx - 24 * sx, y, fx + 20 * sx, y, 1.2, timber)
    r = 26.0
    tank_top = tank_bottom - 46

    def tank(x: float, y: float) -> RGB:
        dx = (x - fx) / r
        light = 0.55 + 0.6 * math.cos(max(-1.0, min(1.0, dx + 0.35)) * 1.3)
        c = mul((150.0, 100.0, 62.0), light)
        if abs(math.sin(math.asin(max(-1.0, min(1.0, dx))) * 7)) < 0.12:
            c = mul(c, 0.75)
        t = (y - tank_top) / (tank_bottom - tank_top)
        for hoop in (0.15, 0.5, 0.85):
            if abs(t - hoop) < 0.035:
                c = mul((80.0, 80.0, 84.0), light)
        return c

    shape(cv, ellipse(fx, tank_bottom, r, 8), mul((150.0, 100.0, 62.0), 0.5))
    shape(cv, rect(fx - r, tank_top, fx + r, tank_bottom), tank)
    shape(cv, ellipse(fx, tank_bottom, r, 8), lambda x, y: tank(x, min(y, tank_bottom - 0.1)))

    def roof(x: float, y: float) -> RGB:
        return add((110.0, 70.0, 56.0), -((x - fx) * 1.6) + (8 if int(x - fx + 40) % 6 < 1 else 0))

    shape(cv, polygon([(fx - r - 4, tank_top + 2), (fx, tank_top - 24), (fx + r + 4, tank_top + 2)]), roof)
    shape(cv, ellipse(fx, tank_top + 2, r + 4, 5), (90.0, 58.0, 46.0))
    shape(cv, polygon([(fx - r - 4, tank_top + 1), (fx, tank_top - 24), (fx + r + 4, tank_top + 1)]), roof)
    line(cv, fx + r - 2, tank_bottom - 10, fx + r + 14, tank_bottom + 4, 2.0, (60.0, 60.0, 64.0))  # spout
    return cv


def tall_windmill(rng: random.Random, fx: float, fy: float) -> Canvas:
    w, h = TALL_SIZE
    cv = Canvas(w, h)
    steel: RGB = (120.0, 120.0, 126.0)
    head_y = fy - 120
    for lx in (-18, 18):
        line(cv, fx + lx, fy, fx + lx * 0.15, head_y, 1.4, steel)
    for k in range(6):
        y0 = fy - k * 20
        s0 = 1 - (k * 20) / 120 * 0.85
        s1 = 1 - ((k + 1) * 20) / 120 * 0.85
        line(cv, fx - 18 * s0, y0, fx + 18 * s1, y0 - 20, 0.6, steel)
        line(cv, fx + 18 * s0, y0, fx - 18 * s1, y0 - 20, 0.6, steel)
    shape(cv, rect(fx - 6, fy - 4, fx + 6, fy + 2), (96.0, 70.0, 46.0))  # pump box
    line(cv, fx + 2, head_y, fx + 30, head_y - 2, 1.2, steel)  # tail vane
    shape(
        cv,
        polygon(
            [(fx + 26, head_y - 12), (fx + 40, head_y - 10), (fx + 40, head_y + 6), (fx + 26, head_y + 4)]
        ),
        (200.0, 60.0, 50.0),
    )
    blades = 16
    for k in range(blades):
        a = k * math.tau / blades
        x1, y1 = fx - 2 + math.cos(a) * 28, head_y + math.sin(a) * 28
        x2, y2 = fx - 2 + math.cos(a + 0.16) * 28, head_y + math.sin(a + 0.16) * 28
        xm, ym = fx - 2 + math.cos(a + 0.08) * 8, head_y + math.sin(a + 0.08) * 8
        shape(cv, polygon([(xm, ym), (x1, y1), (x2, y2)]), add((200.0, 196.0, 186.0), -30 * math.sin(a)))
    ring_in, box = ellipse(fx - 2, head_y, 29, 29)
    inner, _ = ellipse(fx - 2, head_y, 27, 27)
    fill(cv, box, lambda x, y: ring_in(x, y) and not inner(x, y), (90.0, 90.0, 96.0))
    shape(cv, ellipse(fx - 2, head_y, 4, 4), (70.0, 70.0, 76.0))
    return cv


TALL: list[tuple[TileDef, Callable[[random.Random, float, float], Canvas]]] = [
    (TileDef("water_tower", tile_props(terrain="water tower", **BIG)), tall_water_tower),
    (TileDef("windmill", {"terrain": "windmill", "impassable": True, "cover": "half"}), tall_windmill),
]


def tall_offset(o: Orient) -> tuple[int, int]:
    """The tileset's tileoffset that puts the image's footprint (its centre column) on the hex centre."""
    return round(o.center[0] - TALL_SIZE[0] / 2), 0


def tall_footprint(o: Orient) -> tuple[float, float]:
    """Footprint centre inside the tall image: the hex centre when drawn bottom-left at the cell."""
    _, cy = o.center
    return TALL_SIZE[0] / 2, TALL_SIZE[1] - (o.image_h - cy)


# --------------------------------------------------------------------------------------------------
# Signs (a decoration layer over building fronts) with a tiny bitmap font

GLYPHS = {
    "A": ["01110", "10001", "10001", "11111", "10001", "10001", "10001"],
    "B": ["11110", "10001", "10001", "11110", "10001", "10001", "11110"],
    "C": ["01111", "10000", "10000", "10000", "10000", "10000", "01111"],
    "D": ["11110", "10001", "10001", "10001", "10001", "10001", "11110"],
    "E": ["11111", "10000", "10000", "11110", "10000", "10000", "11111"],
    "F": ["11111", "10000", "10000", "11110", "10000", "10000", "10000"],
    "H": ["10001", "10001", "10001", "11111", "10001", "10001", "10001"],
    "I": ["11111", "00100", "00100", "00100", "00100", "00100", "11111"],
    "J": ["00111", "00010", "00010", "00010", "00010", "10010", "01100"],
    "K": ["10001", "10010", "10100", "11000", "10100", "10010", "10001"],
    "L": ["10000", "10000", "10000", "10000", "10000", "10000", "11111"],
    "N": ["10001", "11001", "10101", "10011", "10001", "10001", "10001"],
    "O": ["01110", "10001", "10001", "10001", "10001", "10001", "01110"],
    "R": ["11110", "10001", "10001", "11110", "10100", "10010", "10001"],
    "S": ["01111", "10000", "10000", "01110", "00001", "00001", "11110"],
    "T": ["11111", "00100", "00100", "00100", "00100", "00100", "00100"],
    "Y": ["10001", "10001", "01010", "00100", "00100", "00100", "00100"],
    "Z": ["11111", "00001", "00010", "00100", "01000", "10000", "11111"],
    " ": ["000", "000", "000", "000", "000", "000", "000"],
}

SIGNS = ["SALOON", "BANK", "JAIL", "LAZY K", "STORE", "RAILROAD"]


def paint_sign(text: str, rng: random.Random) -> Canvas:
    w, h = SIGN_SIZE
    cv = Canvas(w, h)
    width = sum(len(GLYPHS[ch][0]) + 1 for ch in text) - 1
    scale = 3 if width * 3 <= w - 24 else 2
    bw = width * scale + 20
    x0 = (w - bw) / 2
    y0 = 6.0
    bh = 7 * scale + 12
    for px in (x0 + 8, x0 + bw - 10):  # posts
        shape(cv, rect(px, y0 + bh - 2, px + 3, h - 2), (80.0, 58.0, 40.0))
    shape(cv, rect(x0 + 2, y0 + 2, x0 + bw + 2, y0 + bh + 2), (30.0, 20.0, 12.0))
    shape(cv, rect(x0, y0, x0 + bw, y0 + bh), wood_fn((176.0, 130.0, 80.0), rng))
    for sh in (rect(x0, y0, x0 + bw, y0 + 1.5), rect(x0, y0 + bh - 1.5, x0 + bw, y0 + bh)):
        shape(cv, sh, (100.0, 70.0, 44.0))
    cx = x0 + 10
    ty = y0 + 6
    for ch in text:
        g = GLYPHS[ch]
        for gy, row in enumerate(g):
            for gx, bit in enumerate(row):
                if bit == "1":
                    x, y = cx + gx * scale, ty + gy * scale
                    shape(cv, rect(x + 1, y + 1, x + scale + 1, y + scale + 1), (90.0, 60.0, 30.0))
                    shape(cv, rect(x, y, x + scale, y + scale), (40.0, 26.0, 18.0))
        cx += (len(g[0]) + 1) * scale
    return cv


# --------------------------------------------------------------------------------------------------
# Output


def save_png(cv: Canvas, path: Path) -> None:
    import pygame

    surf = pygame.image.frombytes(cv.to_rgba(), (cv.w, cv.h), "RGBA")
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surf, str(path))


def sheet(tiles: list[Canvas], tw: int, th: int, columns: int) -> Canvas:
    rows = (len(tiles) + columns - 1) // columns
    out = Canvas(tw * min(columns, len(tiles)), th * rows)
    for i, t in enumerate(tiles):
        out.draw(t, (i % columns) * tw, (i // columns) * th)
    return out


def prop_xml(name: str, value: PropValue) -> str:
    if isinstance(value, bool):
        return f'<property name="{name}" type="bool" value="{"true" if value else "false"}"/>'
    if isinstance(value, int):
        return f'<property name="{name}" type="int" value="{value}"/>'
    if name == "cover":
        return f'<property name="cover" type="string" propertytype="Cover" value="{value}"/>'
    return f"<property name={quoteattr(name)} value={quoteattr(value)}/>"


PROP_ORDER = ("terrain", "impassable", "blocks_sight", "cover", "move_cost", "destructible")


def tsx(
    name: str,
    image: str,
    size: tuple[int, int],
    tile_size: tuple[int, int],
    tiles: list[TileDef],
    offset: tuple[int, int] = (0, 0),
) -> str:
    tw, th = tile_size
    columns = size[0] // tw
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<tileset version="1.10" tiledversion="1.10.2" name="{escape(name)}" tilewidth="{tw}" '
        f'tileheight="{th}" tilecount="{len(tiles)}" columns="{columns}">',
    ]
    if offset != (0, 0):
        out.append(f' <tileoffset x="{offset[0]}" y="{offset[1]}"/>')
    out.append(f' <image source="{escape(image)}" width="{size[0]}" height="{size[1]}"/>')
    for i, t in enumerate(tiles):
        out.append(f' <tile id="{i}" type="{escape(t.key)}">')
        out.append("  <properties>")
        for k in sorted(t.props, key=lambda k: (PROP_ORDER.index(k) if k in PROP_ORDER else 99, k)):
            out.append("   " + prop_xml(k, t.props[k]))
        out.append("  </properties>")
        out.append(" </tile>")
    out.append("</tileset>")
    return "\n".join(out) + "\n"


def project_json() -> str:
    """The Tiled project (same keys Tiled's Project::save writes) with the enum property types."""
    enums = [
        ("Cover", ["none", "half", "full"]),
        ("Side", ["side1", "side2", "side3", "side4"]),
        ("DoorState", ["open", "closed"]),
    ]
    project = {
        "automappingRulesFile": "",
        "commands": [],
        "extensionsPath": "extensions",
        "folders": ["."],
        "properties": [],
        "propertyTypes": [
            {
                "id": i + 1,
                "name": name,
                "storageType": "string",
                "type": "enum",
                "values": values,
                "valuesAsFlags": False,
            }
            for i, (name, values) in enumerate(enums)
        ],
    }
    return json.dumps(project, indent=4, sort_keys=True) + "\n"


def tileset_names(o: Orient) -> dict[str, str]:
    return {
        "terrain": f"terrain_{o.name}",
        "objects": f"objects_{o.name}",
        "tall": f"tall_{o.name}",
    }


def render(root: Path = ROOT) -> list[Path]:
    """Paint everything and write it under ``root``; returns the files written."""
    assets = root / "assets" / "tiles"
    maps = root / "maps"
    assets.mkdir(parents=True, exist_ok=True)
    maps.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def write_text(path: Path, text: str) -> None:
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(path)

    for o in ORIENTS.values():
        nz = Noises(o)
        names = tileset_names(o)
        tiles = [p(o, random.Random(f"{SEED}:{o.name}:{t.key}"), nz) for t, p in TERRAIN]
        img = sheet(tiles, o.image_w, o.image_h, SHEET_COLUMNS)
        save_png(img, assets / f"{names['terrain']}.png")
        written.append(assets / f"{names['terrain']}.png")
        write_text(
            maps / f"{names['terrain']}.tsx",
            tsx(
                names["terrain"],
                f"../assets/tiles/{names['terrain']}.png",
                (img.w, img.h),
                (o.image_w, o.image_h),
                [t for t, _ in TERRAIN],
            ),
        )

        cx, cy = o.center
        sprites = []
        for t, p, shadow in OBJECTS:
            s = p(o, random.Random(f"{SEED}:{o.name}:{t.key}"), cx, cy)
            sprites.append(drop_shadow(s) if shadow else s)
        img = sheet(sprites, o.image_w, o.image_h, SHEET_COLUMNS)
        save_png(img, assets / f"{names['objects']}.png")
        written.append(assets / f"{names['objects']}.png")
        write_text(
            maps / f"{names['objects']}.tsx",
            tsx(
                names["objects"],
                f"../assets/tiles/{names['objects']}.png",
                (img.w, img.h),
                (o.image_w, o.image_h),
                [t for t, _, _ in OBJECTS],
            ),
        )

        fx, fy = tall_footprint(o)
        talls = [drop_shadow(p(random.Random(f"{SEED}:{t.key}"), fx, fy), 6, 4) for t, p in TALL]
        img = sheet(talls, *TALL_SIZE, SHEET_COLUMNS)
        save_png(img, assets / f"{names['tall']}.png")
        written.append(assets / f"{names['tall']}.png")
        write_text(
            maps / f"{names['tall']}.tsx",
            tsx(
                names["tall"],
                f"../assets/tiles/{names['tall']}.png",
                (img.w, img.h),
                TALL_SIZE,
                [t for t, _ in TALL],
                tall_offset(o),
            ),
        )

    signs = [drop_shadow(paint_sign(text, random.Random(f"{SEED}:sign:{text}")), 3, 2) for text in SIGNS]
    img = sheet(signs, *SIGN_SIZE, 2)
    save_png(img, assets / "signs.png")
    written.append(assets / "signs.png")
    sign_defs = [TileDef("sign_" + s.lower().replace(" ", "_"), {"terrain": "sign"}) for s in SIGNS]
    write_text(
        maps / "signs.tsx", tsx("signs", "../assets/tiles/signs.png", (img.w, img.h), SIGN_SIZE, sign_defs)
    )
    write_text(maps / "hexslinger.tiled-project", project_json())
    return written


def main(argv: Iterable[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    root = Path(args[0]) if args else ROOT
    for path in render(root):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
