"""Procedural unit tokens: round tabletop-miniature bases seen from above, and a portrait icon per unit type.

Run ``python -m tools.gen_tokens [ROOT]`` (as ``tools.gen_art``). It paints everything from code and
writes to ``ROOT/assets/tokens/`` (ROOT defaults to the repository):

* ``bases.png`` -- one column per side style (``STYLES``), three rows: the base's drop shadow, the rim in
  grey (the game multiplies it by the side's colour) and the fixed-colour overlay (the rim's highlights,
  studs and the face the icon sits on). Cells are ``BASE_CELL`` px, painted at twice the size the game
  shows at zoom 1, so the game only ever scales them down.
* ``icons.png`` -- one ``ICON_CELL`` px portrait per unit kind (``ICONS``), already clipped to the face.
* ``tokens.json`` -- the manifest the game reads: cell sizes, radii, styles and which icon is where.

A side is told apart by the rim's *shape* as well as its colour, so colour-blind players (and a greyscale
print) still see two posses: style 0 ``star`` is a smooth round rim with five star studs on a plain face,
style 1 ``rope`` a scalloped, twisted-rope rim on a cross-hatched face, style 2 ``dashed`` a rim cut into
twelve blocks, style 3 ``beaded`` a rim of round beads.

Shapes are signed distance functions evaluated once per pixel (analytic anti-aliasing), so painting is
quick and exact; every random choice comes from a ``random.Random`` seeded from :data:`SEED` and the
cell's name. The output is deterministic.
"""

# Geometry helpers take coordinates positionally (x, y, r ...), as geometry code reads best.
# ruff: noqa: PLR0917

from __future__ import annotations

import json
import math
import random
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.gen_art import RGB, Canvas, add, clamp, mix, mul, save_png, sheet  # noqa: E402

SEED = 1873
BASE_CELL = 128  # px per base cell (2x the zoom-1 size)
DISC_RADIUS = 55.0  # the base's outer radius in the cell
FACE_RADIUS = 43.0  # the recessed face inside the rim
ICON_CELL = 88  # px per icon cell; its centre is the disc centre
ICON_COLUMNS = 8
ICON_ZOOM = 1.14  # the portraits are drawn this much larger than designed, about ICON_PIVOT_Y
ICON_PIVOT_Y = 54.0
STYLES = ("star", "rope", "dashed", "beaded")

Box = tuple[float, float, float, float]
Paint = RGB | Callable[[float, float], RGB]


# --------------------------------------------------------------------------------------------------
# Signed distance shapes (negative inside), with a bounding box to limit the pixels painted


class Sdf:
    """A 2D shape as a signed distance function with its bounding box."""

    __slots__ = ("box", "f")

    def __init__(self, f: Callable[[float, float], float], box: Box) -> None:
        self.f = f
        self.box = box

    def __call__(self, x: float, y: float) -> float:
        return self.f(x, y)

    def __or__(self, other: Sdf) -> Sdf:
        a, b = self.f, other.f
        return Sdf(lambda x, y: min(a(x, y), b(x, y)), _union_box(self.box, other.box))

    def __and__(self, other: Sdf) -> Sdf:
        a, b = self.f, other.f
        box = (
            max(self.box[0], other.box[0]),
            max(self.box[1], other.box[1]),
            min(self.box[2], other.box[2]),
            min(self.box[3], other.box[3]),
        )
        return Sdf(lambda x, y: max(a(x, y), b(x, y)), box)

    def __sub__(self, other: Sdf) -> Sdf:
        a, b = self.f, other.f
        return Sdf(lambda x, y: max(a(x, y), -b(x, y)), self.box)

    def grow(self, d: float) -> Sdf:
        f = self.f
        x0, y0, x1, y1 = self.box
        return Sdf(lambda x, y: f(x, y) - d, (x0 - d, y0 - d, x1 + d, y1 + d))

    def mirrored(self) -> Sdf:
        """This shape flipped left to right about x = 0 (build props at the origin, then place them)."""
        f = self.f
        x0, y0, x1, y1 = self.box
        return Sdf(lambda x, y: f(-x, y), (-x1, y0, -x0, y1))

    def shell(self, w: float) -> Sdf:
        """A band of width ``w`` centred on the outline."""
        f = self.f
        h = w / 2
        x0, y0, x1, y1 = self.box
        return Sdf(lambda x, y: abs(f(x, y)) - h, (x0 - h, y0 - h, x1 + h, y1 + h))

    def placed(self, dx: float, dy: float, angle: float = 0.0, scale: float = 1.0) -> Sdf:
        """This shape scaled, turned by ``angle`` radians (clockwise on screen) and moved by (dx, dy)."""
        f = self.f
        c, s = math.cos(angle), math.sin(angle)

        def g(x: float, y: float) -> float:
            u, v = x - dx, y - dy
            return f((c * u + s * v) / scale, (-s * u + c * v) / scale) * scale

        x0, y0, x1, y1 = self.box
        corners = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]
        pts = [(dx + scale * (c * px - s * py), dy + scale * (s * px + c * py)) for px, py in corners]
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        return Sdf(g, (min(xs), min(ys), max(xs), max(ys)))


def _union_box(a: Box, b: Box) -> Box:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def union(*shapes: Sdf) -> Sdf:
    out = shapes[0]
    for s in shapes[1:]:
        out = out | s
    return out


def circle(cx: float, cy: float, r: float) -> Sdf:
    return Sdf(lambda x, y: math.hypot(x - cx, y - cy) - r, (cx - r, cy - r, cx + r, cy + r))


def ellipse(cx: float, cy: float, rx: float, ry: float) -> Sdf:
    def f(x: float, y: float) -> float:
        px, py = (x - cx) / rx, (y - cy) / ry
        k0 = math.hypot(px, py)
        k1 = math.hypot(px / rx, py / ry)
        if k1 == 0.0:
            return -min(rx, ry)
        return k0 * (k0 - 1.0) / k1

    return Sdf(f, (cx - rx, cy - ry, cx + rx, cy + ry))


def box(x0: float, y0: float, x1: float, y1: float, r: float = 0.0) -> Sdf:
    """An axis-aligned rectangle with corners rounded by ``r``."""
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    hx, hy = (x1 - x0) / 2 - r, (y1 - y0) / 2 - r

    def f(x: float, y: float) -> float:
        qx, qy = abs(x - cx) - hx, abs(y - cy) - hy
        return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - r

    return Sdf(f, (x0, y0, x1, y1))


def capsule(ax: float, ay: float, bx: float, by: float, r: float, r2: float | None = None) -> Sdf:
    """A thick line from a to b, radius ``r`` at a and ``r2`` (default ``r``) at b."""
    rb = r if r2 is None else r2
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy

    def f(x: float, y: float) -> float:
        t = 0.0 if ll == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / ll))
        return math.hypot(x - ax - t * dx, y - ay - t * dy) - (r + (rb - r) * t)

    m = max(r, rb)
    return Sdf(f, (min(ax, bx) - m, min(ay, by) - m, max(ax, bx) + m, max(ay, by) + m))


def poly(points: Sequence[tuple[float, float]]) -> Sdf:
    """A polygon (Inigo Quilez's exact signed distance)."""
    pts = list(points)
    n = len(pts)

    def f(x: float, y: float) -> float:
        d = (x - pts[0][0]) ** 2 + (y - pts[0][1]) ** 2
        s = 1.0
        j = n - 1
        for i in range(n):
            vix, viy = pts[i]
            vjx, vjy = pts[j]
            ex, ey = vjx - vix, vjy - viy
            wx, wy = x - vix, y - viy
            ee = ex * ex + ey * ey
            t = 0.0 if ee == 0 else max(0.0, min(1.0, (wx * ex + wy * ey) / ee))
            bx, by = wx - ex * t, wy - ey * t
            d = min(d, bx * bx + by * by)
            c1, c2, c3 = y >= viy, y < vjy, ex * wy > ey * wx
            if (c1 and c2 and c3) or not (c1 or c2 or c3):
                s = -s
            j = i
        return s * math.sqrt(d)

    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return Sdf(f, (min(xs), min(ys), max(xs), max(ys)))


def star(cx: float, cy: float, r_out: float, r_in: float, n: int = 5, rot: float = -math.pi / 2) -> Sdf:
    pts = []
    for k in range(2 * n):
        r = r_out if k % 2 == 0 else r_in
        a = rot + k * math.pi / n
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return poly(pts)


def curve(fn: Callable[[float], tuple[float, float]], steps: int = 24) -> list[tuple[float, float]]:
    return [fn(i / steps) for i in range(steps + 1)]


# --------------------------------------------------------------------------------------------------
# Painting


# The icons are designed on the ICON_CELL canvas and painted a little larger (see ``paint_icon``): while a
# view is set, paint and cut read canvas pixel p as design point pivot + (p - pivot) / zoom.
_view: tuple[float, float, float] | None = None


@contextmanager
def zoomed(zoom: float, pivot_x: float, pivot_y: float) -> Iterator[None]:
    global _view  # noqa: PLW0603 -- a painting mode, set and restored around one icon
    previous, _view = _view, (zoom, pivot_x, pivot_y)
    try:
        yield
    finally:
        _view = previous


def _in_view(shape: Sdf, color: Paint | None) -> tuple[Sdf, Paint | None]:
    """``shape`` (and a colour function) in canvas pixels under the current view."""
    if _view is None:
        return shape, color
    k, px, py = _view
    f = shape.f
    x0, y0, x1, y1 = shape.box
    box_ = (px + (x0 - px) * k, py + (y0 - py) * k, px + (x1 - px) * k, py + (y1 - py) * k)
    viewed = Sdf(lambda x, y: f(px + (x - px) / k, py + (y - py) / k) * k, box_)
    if callable(color):
        col = color
        return viewed, lambda x, y: col(px + (x - px) / k, py + (y - py) / k)
    return viewed, color


def paint(cv: Canvas, shape: Sdf, color: Paint, alpha: float = 1.0) -> None:
    """Source-over ``color`` wherever ``shape`` covers a pixel (coverage from the distance at its centre)."""
    shape, viewed = _in_view(shape, color)
    assert viewed is not None
    x0, y0, x1, y1 = shape.box
    f = shape.f
    col = viewed if callable(viewed) else None
    for y in range(max(0, math.floor(y0) - 1), min(cv.h, math.ceil(y1) + 1)):
        for x in range(max(0, math.floor(x0) - 1), min(cv.w, math.ceil(x1) + 1)):
            cov = 0.5 - f(x + 0.5, y + 0.5)
            if cov <= 0.0:
                continue
            c = col(x + 0.5, y + 0.5) if col is not None else viewed
            cv.blend(x, y, c, alpha * min(cov, 1.0))  # type: ignore[arg-type]


def cut(cv: Canvas, shape: Sdf) -> None:
    """Erase what ``shape`` covers (so a part painted next shows the face around it, not a dark blob)."""
    shape, _ = _in_view(shape, None)
    x0, y0, x1, y1 = shape.box
    f = shape.f
    for y in range(max(0, math.floor(y0) - 1), min(cv.h, math.ceil(y1) + 1)):
        for x in range(max(0, math.floor(x0) - 1), min(cv.w, math.ceil(x1) + 1)):
            cov = 0.5 - f(x + 0.5, y + 0.5)
            if cov > 0.0:
                cv.px[y * cv.w + x][3] *= 1.0 - min(cov, 1.0)


def outlined(cv: Canvas, shape: Sdf, color: Paint, gap: float = 1.6) -> None:
    """Cut a thin gap around ``shape`` and paint it: a part in front of the silhouette stays readable."""
    cut(cv, shape.grow(gap))
    paint(cv, shape, color)


def clip(cv: Canvas, shape: Sdf) -> None:
    """Keep only what ``shape`` covers."""
    f = shape.f
    for y in range(cv.h):
        for x in range(cv.w):
            p = cv.px[y * cv.w + x]
            if p[3] > 0.0:
                p[3] *= clamp(0.5 - f(x + 0.5, y + 0.5), 0.0, 1.0)


def grain(cv: Canvas, rng: random.Random, amount: float) -> None:
    """Per-pixel brightness jitter (paint and paper are never perfectly flat); the seed's only job."""
    for p in cv.px:
        if p[3] > 0.0:
            j = rng.gauss(0.0, amount)
            p[0] += j
            p[1] += j
            p[2] += j


def blur_alpha(alpha: list[float], w: int, h: int, passes: int) -> list[float]:
    for _ in range(passes):
        out = [0.0] * (w * h)
        for y in range(h):
            for x in range(w):
                s = 0.0
                n = 0
                for ny in (y - 1, y, y + 1):
                    if 0 <= ny < h:
                        row = ny * w
                        for nx in (x - 1, x, x + 1):
                            if 0 <= nx < w:
                                s += alpha[row + nx]
                                n += 1
                out[y * w + x] = s / 9.0 if n else 0.0
        alpha = out
    return alpha


# --------------------------------------------------------------------------------------------------
# Palette of the art (the side colours are the game's: it multiplies the grey rim by them)

INK: RGB = (46.0, 32.0, 24.0)
INK_LIGHT: RGB = (86.0, 64.0, 48.0)
FACE: RGB = (236.0, 223.0, 192.0)
FACE_SHADE: RGB = (205.0, 186.0, 148.0)
GOLD: RGB = (226.0, 178.0, 62.0)
GOLD_DARK: RGB = (140.0, 96.0, 28.0)
GOLD_LIGHT: RGB = (255.0, 232.0, 150.0)
SILVER: RGB = (206.0, 210.0, 218.0)
SILVER_DARK: RGB = (104.0, 110.0, 122.0)
RED: RGB = (178.0, 46.0, 36.0)
RED_DARK: RGB = (112.0, 24.0, 20.0)
STEEL: RGB = (170.0, 176.0, 186.0)
STEEL_DARK: RGB = (92.0, 96.0, 106.0)
WOOD: RGB = (140.0, 92.0, 52.0)
BRASS: RGB = (204.0, 156.0, 70.0)
BRASS_DARK: RGB = (120.0, 84.0, 30.0)
LENS: RGB = (150.0, 196.0, 206.0)
SPARK: RGB = (255.0, 210.0, 80.0)
OLIVE: RGB = (96.0, 104.0, 60.0)

LIGHT = (-0.55, -0.83)  # light from the top left (screen coordinates, unit vector towards the light)


# --------------------------------------------------------------------------------------------------
# Bases: one per side style, in three layers (shadow, grey rim to be tinted, fixed-colour overlay)

C = BASE_CELL / 2  # the disc centre in a base cell


def _polar(x: float, y: float) -> tuple[float, float, float]:
    """(radius, angle, rim fraction 0 at the face .. 1 at the outer edge) of a base-cell point."""
    dx, dy = x - C, y - C
    r = math.hypot(dx, dy)
    return r, math.atan2(dy, dx), (r - FACE_RADIUS) / (DISC_RADIUS - FACE_RADIUS)


def _dome_light(theta: float, rho: float) -> float:
    """-1..1: how much a rounded rim profile at (angle, rim fraction) faces the light."""
    tilt = -math.cos(math.pi * max(0.0, min(1.0, rho)))
    return tilt * (math.cos(theta) * LIGHT[0] + math.sin(theta) * LIGHT[1])


ROPE_STRANDS = 26
DASH_BLOCKS = 12
BEADS = 18
BEAD_RADIUS = 5.4
STUD_RADIUS = (DISC_RADIUS + FACE_RADIUS) / 2


def rope_phase(theta: float, rho: float) -> float:
    return (theta * ROPE_STRANDS / math.tau + 0.85 * rho) % 1.0


def outer_shape(style: str) -> Sdf:
    """The base's outline (rim and face) for a style."""
    if style == "rope":

        def f(x: float, y: float) -> float:
            r, theta, _ = _polar(x, y)
            bump = math.sin(math.pi * rope_phase(theta, 1.0))
            return r - (DISC_RADIUS - 2.4 * (1.0 - float(bump**0.6)))

        return Sdf(f, (C - DISC_RADIUS, C - DISC_RADIUS, C + DISC_RADIUS, C + DISC_RADIUS))
    if style == "dashed":
        disc = circle(C, C, DISC_RADIUS)
        notches = [
            box(-1.7, FACE_RADIUS + 4.5, 1.7, DISC_RADIUS + 3).placed(
                C, C, (k + 0.5) * math.tau / DASH_BLOCKS
            )
            for k in range(DASH_BLOCKS)
        ]
        return disc - union(*notches)
    if style == "beaded":
        beads = [
            circle(
                C + STUD_RADIUS * math.cos(k * math.tau / BEADS),
                C + STUD_RADIUS * math.sin(k * math.tau / BEADS),
                BEAD_RADIUS,
            )
            for k in range(BEADS)
        ]
        return circle(C, C, DISC_RADIUS - 4.0) | union(*beads)
    return circle(C, C, DISC_RADIUS)


def rim_grey(style: str) -> Callable[[float, float], RGB]:
    """The rim's grey shading (the game multiplies it by the side colour)."""

    def star_rim(x: float, y: float) -> RGB:
        _, theta, rho = _polar(x, y)
        lam = _dome_light(theta, rho)
        g = 0.80 + 0.2 * lam
        if abs(rho - 0.2) < 0.07:  # a fine raised bead line next to the face
            g += 0.12 * _dome_light(theta, (rho - 0.13) / 0.14)
        g *= 0.86 + 0.14 * math.sin(math.pi * max(0.0, min(1.0, rho)))
        return (g * 255, g * 255, g * 255)

    def rope_rim(x: float, y: float) -> RGB:
        _, theta, rho = _polar(x, y)
        strand = math.sin(math.pi * rope_phase(theta, rho)) ** 0.55
        lam = _dome_light(theta, rho)
        g = (0.42 + 0.58 * strand) * (0.84 + 0.16 * lam)
        return (g * 255, g * 255, g * 255)

    def dashed_rim(x: float, y: float) -> RGB:
        _, theta, rho = _polar(x, y)
        g = 0.86
        if rho < 0.3:  # the continuous inner ring, lower than the blocks
            g = 0.6 + 0.1 * _dome_light(theta, rho / 0.3)
        else:
            # each block is a flat tile with bevelled edges
            a = (theta * DASH_BLOCKS / math.tau) % 1.0
            edge = min(a, 1.0 - a) * DASH_BLOCKS * (DISC_RADIUS - 2) * math.tau / DASH_BLOCKS / 2
            outer = (1.0 - rho) * (DISC_RADIUS - FACE_RADIUS)
            if outer < 2.0:
                g += 0.12 * (math.cos(theta) * LIGHT[0] + math.sin(theta) * LIGHT[1]) * -1
            if edge < 3.0:
                g -= 0.1
        return (g * 255, g * 255, g * 255)

    def beaded_rim(x: float, y: float) -> RGB:
        _, theta, rho = _polar(x, y)
        k = round(theta * BEADS / math.tau) % BEADS
        bx = C + STUD_RADIUS * math.cos(k * math.tau / BEADS)
        by = C + STUD_RADIUS * math.sin(k * math.tau / BEADS)
        d = math.hypot(x - bx, y - by) / BEAD_RADIUS
        if d <= 1.0:  # a sphere lit from the top left
            nz = math.sqrt(max(0.0, 1.0 - d * d))
            lam = ((x - bx) * LIGHT[0] + (y - by) * LIGHT[1]) / BEAD_RADIUS
            g = 0.55 + 0.3 * nz + 0.25 * lam
        else:  # the bed the beads sit in
            g = 0.52 + 0.08 * _dome_light(theta, rho)
        return (g * 255, g * 255, g * 255)

    return {"star": star_rim, "rope": rope_rim, "dashed": dashed_rim, "beaded": beaded_rim}[style]


def paint_shadow(style: str) -> Canvas:
    n = BASE_CELL
    solid = Canvas(n, n)
    paint(solid, outer_shape(style).placed(2.0, 4.0), (0.0, 0.0, 0.0))
    alpha = blur_alpha([p[3] for p in solid.px], n, n, 3)
    out = Canvas(n, n)
    for i, a in enumerate(alpha):
        if a > 0.003:
            out.px[i] = [18.0, 12.0, 8.0, a * 0.6]
    return out


def paint_tint(style: str, rng: random.Random) -> Canvas:
    cv = Canvas(BASE_CELL, BASE_CELL)
    paint(cv, outer_shape(style) - circle(C, C, FACE_RADIUS - 0.5), rim_grey(style))
    for _ in range(7):  # a few scuffs from use
        a = rng.random() * math.tau
        r = FACE_RADIUS + 2.5 + rng.random() * (DISC_RADIUS - FACE_RADIUS - 5.0)
        x, y = C + r * math.cos(a), C + r * math.sin(a)
        da = 0.08 + rng.random() * 0.12
        scuff = capsule(x, y, C + r * math.cos(a + da), C + r * math.sin(a + da), 0.45)
        paint(cv, scuff & outer_shape(style), (120.0, 120.0, 120.0), 0.35)
    grain(cv, rng, 3.0)
    return cv


def _face_color(style: str) -> Callable[[float, float], RGB]:
    def f(x: float, y: float) -> RGB:
        dx, dy = x - C, y - C
        r = math.hypot(dx, dy) / FACE_RADIUS
        c = mix(FACE, FACE_SHADE, 0.35 * r * r)
        # recessed: the rim shades the face's edge on the side the light comes from
        toward = (dx * LIGHT[0] + dy * LIGHT[1]) / FACE_RADIUS
        if r > 0.78:
            c = mul(c, 1.0 - 0.22 * max(0.0, toward) * (r - 0.78) / 0.22)
        if style == "rope":  # fine cross-hatching
            u, v = (x + y) % 6.0, (x - y) % 6.0
            if min(u, 6.0 - u) < 0.7 or min(v, 6.0 - v) < 0.7:
                c = mul(c, 0.9)
        elif style == "dashed":  # faint concentric rings
            if (math.hypot(dx, dy) % 7.0) < 1.0:
                c = mul(c, 0.92)
        elif style == "beaded":  # a faint dot grid
            u, v = x % 7.0 - 3.5, y % 7.0 - 3.5
            if u * u + v * v < 1.4:
                c = mul(c, 0.9)
        return c

    return f


def paint_overlay(style: str, rng: random.Random) -> Canvas:
    cv = Canvas(BASE_CELL, BASE_CELL)
    rim = outer_shape(style) - circle(C, C, FACE_RADIUS - 0.5)

    def spec(x: float, y: float) -> RGB:
        return (255.0, 250.0, 236.0)

    # specular highlights on the rim (white, alpha by how much it faces the light)
    x0, y0, x1, y1 = rim.box
    for y in range(int(y0), int(y1) + 1):
        for x in range(int(x0), int(x1) + 1):
            cov = clamp(0.5 - rim(x + 0.5, y + 0.5), 0.0, 1.0)
            if cov <= 0.0:
                continue
            _, theta, rho = _polar(x + 0.5, y + 0.5)
            lam = _dome_light(theta, rho)
            if style == "star":
                a = max(0.0, lam) ** 4 * 0.55
            elif style == "rope":
                a = max(0.0, lam) ** 3 * 0.3 * math.sin(math.pi * rope_phase(theta, rho)) ** 4
            else:
                a = max(0.0, lam) ** 4 * 0.3
            cv.blend(x, y, spec(x, y), a * cov)
    paint(cv, circle(C, C, FACE_RADIUS + 0.3), _face_color(style))
    # a dark seam where the face meets the rim
    paint(cv, circle(C, C, FACE_RADIUS).shell(1.2), INK, 0.55)
    paint(cv, circle(C, C, DISC_RADIUS - 0.4).shell(0.9) & outer_shape(style), INK, 0.35)
    if style == "star":
        for k in range(5):
            a = -math.pi / 2 + k * math.tau / 5
            sx, sy = C + STUD_RADIUS * math.cos(a), C + STUD_RADIUS * math.sin(a)
            stud = star(sx, sy, 6.2, 2.7, rot=a)
            paint(cv, stud.placed(0.7, 1.1), INK, 0.55)
            paint(cv, stud, mix(GOLD_LIGHT, (250.0, 244.0, 226.0), 0.6))
            paint(cv, stud.shell(0.8), GOLD_DARK, 0.6)
    grain(cv, rng, 2.5)
    return cv


def paint_bases(seed: int = SEED) -> Canvas:
    cells = [paint_shadow(s) for s in STYLES]
    cells += [paint_tint(s, random.Random(f"{seed}:tint:{s}")) for s in STYLES]
    cells += [paint_overlay(s, random.Random(f"{seed}:overlay:{s}")) for s in STYLES]
    return sheet(cells, BASE_CELL, BASE_CELL, len(STYLES))


# --------------------------------------------------------------------------------------------------
# Icons: a portrait per unit kind, ink silhouettes with a few coloured props, on an ICON_CELL canvas whose
# centre is the face's centre. Coordinates below are in that canvas (88 px; the face has radius 43).

IC = ICON_CELL / 2  # the icon centre


def _shade(base: RGB, amount: float = 0.25) -> Callable[[float, float], RGB]:
    """Flat colour lit from the top left across the icon (a hint of volume on props)."""

    def f(x: float, y: float) -> RGB:
        t = ((x - IC) * LIGHT[0] + (y - IC) * LIGHT[1]) / ICON_CELL
        return add(base, 255 * amount * t)

    return f


def ink(x: float, y: float) -> RGB:
    """The silhouette ink, a touch warmer and lighter towards the light."""
    t = ((x - IC) * LIGHT[0] + (y - IC) * LIGHT[1]) / ICON_CELL
    return add(INK, 26 * t)


def rim_light(cv: Canvas, shape: Sdf, width: float = 1.6, alpha: float = 0.55) -> None:
    """A thin warm edge on the side of ``shape`` facing the light."""
    away = shape.placed(-LIGHT[0] * width, -LIGHT[1] * width)
    paint(cv, shape - away, (150.0, 118.0, 88.0), alpha)


def silhouette(cv: Canvas, shape: Sdf) -> None:
    paint(cv, shape, ink)
    rim_light(cv, shape)


# -- body parts


def shoulders(width: float = 34.0, top: float = 66.0) -> Sdf:
    return ellipse(IC, top + 30.0, width, 30.0)


def neck() -> Sdf:
    return box(IC - 6.0, 50.0, IC + 6.0, 70.0, 3.0)


def head(cx: float = IC, cy: float = 46.0, rx: float = 11.5, ry: float = 13.5) -> Sdf:
    return ellipse(cx, cy, rx, ry) | ellipse(cx - rx, cy + 1, 2.4, 3.8) | ellipse(cx + rx, cy + 1, 2.4, 3.8)


def bust(width: float = 34.0, head_rx: float = 11.5) -> Sdf:
    return shoulders(width) | neck() | head(rx=head_rx)


def cowboy_hat(
    cx: float = IC, y: float = 34.0, w: float = 27.0, crown: float = 17.0, pinch: bool = True
) -> Sdf:
    """A cowboy hat seen from the front: a pinched crown and a brim that curls up at the sides."""

    def top(t: float) -> tuple[float, float]:
        u = -1 + 2 * t
        return cx + u * w, y - 6.5 * u**4 + 1.2 * (1 - u * u)

    def bottom(t: float) -> tuple[float, float]:
        u = 1 - 2 * t
        return cx + u * (w - 1.5), y + 4.2 - 5.8 * u**4 + 1.5 * (1 - u * u)

    brim = poly(curve(top) + curve(bottom))
    cw = 12.5
    crown_pts = [
        (cx - cw - 0.5, y + 1.5),
        (cx - cw + 1.0, y - crown + 5),
        (cx - cw + 4.0, y - crown),
        (cx - 2.5, y - crown + 2.5) if pinch else (cx, y - crown - 0.5),
        (cx + 2.5, y - crown + 2.5) if pinch else (cx, y - crown - 0.5),
        (cx + cw - 4.0, y - crown),
        (cx + cw - 1.0, y - crown + 5),
        (cx + cw + 0.5, y + 1.5),
    ]
    return brim | poly(crown_pts)


def flat_hat(cx: float = IC, y: float = 35.0) -> Sdf:
    """A flat-crowned hat with a straight brim (the deputy's)."""
    crown = poly([(cx - 12, y + 1), (cx - 11, y - 12), (cx + 11, y - 12), (cx + 12, y + 1)])
    return crown | box(cx - 24, y - 1.5, cx + 24, y + 3.0, 1.5)


def bowler(cx: float = IC, y: float = 35.5) -> Sdf:
    dome = ellipse(cx, y, 12.5, 13.5) & box(cx - 14, y - 14, cx + 14, y + 1.5)
    return dome | ellipse(cx, y + 1.0, 18.5, 3.4)


def aviator_cap(cx: float = IC, cy: float = 46.0) -> Sdf:
    """A leather flying cap covering the top of the head, with ear flaps."""
    cap = ellipse(cx, cy - 2.5, 13.2, 14.0) & box(cx - 15, cy - 18, cx + 15, cy - 1.0)
    flaps = box(cx - 14.0, cy - 4, cx - 9.0, cy + 7, 2.2) | box(cx + 9.0, cy - 4, cx + 14.0, cy + 7, 2.2)
    return cap | flaps


def goggles(cv: Canvas, cx: float = IC, y: float = 37.5, down: bool = False) -> None:
    yy = y + (7.0 if down else 0.0)
    strap = box(cx - 13.5, yy - 1.4, cx + 13.5, yy + 1.4)
    paint(cv, strap, INK_LIGHT)
    for gx in (cx - 5.6, cx + 5.6):
        rim = circle(gx, yy, 4.8)
        outlined(cv, rim, _shade(BRASS, 0.5), 1.0)
        paint(cv, circle(gx, yy, 3.1), _shade(LENS, 0.6))
        paint(cv, circle(gx - 1.1, yy - 1.1, 1.0), (250.0, 252.0, 255.0), 0.9)


def brodie_helmet(cx: float = IC, y: float = 37.0) -> Sdf:
    dome = ellipse(cx, y, 12.5, 11.5) & box(cx - 14, y - 13, cx + 14, y + 0.5)
    return dome | ellipse(cx, y + 0.5, 21.0, 3.6)


def peaked_cap(cx: float = IC, y: float = 36.0) -> Sdf:
    crown = poly(
        [
            (cx - 12, y + 1),
            (cx - 15, y - 8),
            (cx - 6, y - 11),
            (cx + 8, y - 11),
            (cx + 16, y - 7),
            (cx + 12, y + 1),
        ]
    )
    visor = ellipse(cx + 2, y + 2.0, 13.5, 3.2) & box(cx - 14, y + 1.0, cx + 17, y + 6)
    return crown | box(cx - 12, y - 2.5, cx + 12, y + 2.0) | visor


def bandana_mask(cv: Canvas, cx: float = IC, cy: float = 46.0, color: RGB = RED) -> None:
    """A bandana over the lower face, tied behind: the outlaw's mark."""
    mask = poly(
        [
            (cx - 12.2, cy + 0.5),
            (cx + 12.2, cy + 0.5),
            (cx + 10.5, cy + 9.5),
            (cx + 1.5, cy + 19.5),
            (cx - 1.5, cy + 19.5),
            (cx - 10.5, cy + 9.5),
        ]
    )
    paint(cv, mask, _shade(color, 0.5))
    for k in range(3):  # folds
        yy = cy + 5.5 + k * 4.2
        paint(cv, capsule(cx - 7 + k * 2.2, yy, cx + 6 - k * 2.0, yy + 1.5, 0.6), mul(color, 0.6), 0.8)


def neckerchief(cv: Canvas, cx: float = IC, y: float = 61.0, color: RGB = RED) -> None:
    knot = poly([(cx - 8, y), (cx + 8, y), (cx + 1.5, y + 9), (cx - 1.5, y + 9)])
    paint(cv, knot, _shade(color, 0.5))


def star_badge(cv: Canvas, cx: float, cy: float, r: float, metal: RGB, dark: RGB, balls: bool = True) -> None:
    s = star(cx, cy, r, r * 0.46)
    cut(cv, s.grow(1.6))
    paint(cv, s.grow(0.9), dark)
    paint(cv, s, _shade(metal, 0.9))
    if balls:
        for k in range(5):
            a = -math.pi / 2 + k * math.tau / 5
            paint(cv, circle(cx + r * math.cos(a), cy + r * math.sin(a), r * 0.17 + 0.5), _shade(metal, 0.9))
    paint(cv, circle(cx, cy, r * 0.2), dark, 0.6)


# -- props (built in local coordinates along +x, then placed)


def revolver() -> Sdf:
    """A revolver pointing along +x, the grip's butt near the origin; about 26 px long."""
    barrel = box(8.0, -3.2, 27.0, -0.6, 0.8)
    frame = box(3.0, -4.2, 11.5, 2.8, 1.2)
    cylinder = box(6.0, -4.6, 12.5, 1.8, 1.6)
    grip = poly([(3.5, 0.0), (8.0, 1.5), (5.0, 9.5), (0.0, 10.0), (0.5, 6.0)])
    hammer = poly([(2.0, -4.0), (4.5, -6.5), (5.5, -4.0)])
    guard = circle(9.5, 3.8, 2.6).shell(1.1) & box(6.5, 2.5, 12.5, 7.0)
    return barrel | frame | cylinder | grip | hammer | guard | box(26.0, -4.3, 27.0, -3.0)


def rifle(scope: bool = False) -> Sdf:
    """A rifle along +x, butt at the origin; about 60 px long."""
    stock = poly([(0.0, -2.5), (14.0, -2.0), (20.0, -1.0), (20.0, 2.5), (12.0, 3.0), (0.0, 6.0)])
    action = box(18.0, -2.5, 30.0, 2.5, 1.0)
    barrel = box(28.0, -1.8, 60.0, 0.4, 0.6)
    fore = box(30.0, -1.0, 46.0, 2.6, 1.2)
    lever = circle(22.5, 4.0, 2.5).shell(1.1) & box(19, 3, 27, 8)
    out = stock | action | barrel | fore | lever
    if scope:
        out = out | box(19.0, -7.0, 34.0, -3.8, 1.5) | box(17.5, -7.8, 20.5, -3.2, 0.8)
        out = out | box(32.5, -8.0, 35.5, -3.0, 0.8) | box(24, -4.5, 26, -2.0)
    return out


def shotgun() -> Sdf:
    stock = poly([(0.0, -3.0), (16.0, -2.5), (20.0, -1.5), (20.0, 3.0), (14.0, 3.5), (0.0, 7.0)])
    body = box(18.0, -3.0, 30.0, 3.0, 1.2)
    barrels = box(28.0, -3.4, 52.0, 1.8, 1.0)
    pump = box(32.0, 0.5, 44.0, 5.0, 2.0)
    return stock | body | barrels | pump


def smg() -> Sdf:
    body = box(6.0, -4.0, 24.0, 2.5, 1.5)
    barrel = box(22.0, -3.0, 33.0, -0.4, 0.6)
    shroud = box(22.0, -4.2, 30.0, 1.2, 1.0)
    grip = poly([(8.0, 1.0), (12.5, 1.0), (10.5, 10.0), (6.5, 10.0)])
    mag = poly([(15.0, 1.5), (19.0, 1.5), (21.0, 13.0), (17.0, 13.5)])
    stock = box(0.0, -3.0, 7.0, 0.5, 0.8) | box(0.0, -3.0, 2.0, 5.0, 0.8)
    return body | barrel | shroud | grip | mag | stock


def tommy_holes(cv: Canvas, place: Callable[[Sdf], Sdf]) -> None:
    for k in range(3):
        cut(cv, place(circle(24.5 + k * 2.2, -1.5, 0.6)))


def hmg() -> Sdf:
    body = box(0.0, -5.0, 18.0, 5.0, 2.0)
    jacket = box(16.0, -4.2, 46.0, 2.8, 2.0)
    muzzle = box(45.0, -3.0, 52.0, 1.6, 0.8)
    handle = box(6.0, -9.5, 12.0, -4.0, 1.2)
    grips = box(-5.0, -2.0, 1.0, 2.0, 1.0)
    return body | jacket | muzzle | handle | grips


def tomahawk() -> Sdf:
    handle = capsule(0.0, 0.0, 30.0, 0.0, 1.9, 1.5)
    return handle | box(26.0, -2.4, 32.0, 2.4, 1.0)


def tomahawk_blade() -> Sdf:
    return poly([(24.5, -1.5), (31.5, -2.0), (33.0, -11.0), (29.0, -12.5), (26.5, -6.0)])


def megaphone() -> Sdf:
    cone = poly([(0.0, -3.0), (20.0, -9.5), (20.0, 9.5), (0.0, 3.0)])
    mouth = ellipse(20.0, 0.0, 2.4, 9.5)
    piece = box(-4.0, -2.5, 1.0, 2.5, 1.0)
    handle = box(6.0, 2.0, 9.5, 10.0, 1.4)
    return cone | mouth | piece | handle


def placer(dx: float, dy: float, angle: float = 0.0, scale: float = 1.0) -> Callable[[Sdf], Sdf]:
    """Put props built at the origin in one place (several parts of a prop share it)."""

    def place(shape: Sdf) -> Sdf:
        return shape.placed(dx, dy, angle, scale)

    return place


def hand(cx: float, cy: float, r: float = 4.6) -> Sdf:
    return ellipse(cx, cy, r, r * 0.9)


def fist(cv: Canvas, cx: float, cy: float, r: float = 5.0) -> None:
    """A gloved fist gripping a prop, and the forearm down to the bottom of the portrait."""
    paint(cv, hand(cx, cy, r) | capsule(cx, cy, cx + (cx - IC) * 0.15, ICON_CELL, r * 0.95), ink)
    paint(cv, capsule(cx - r * 0.6, cy - r * 0.25, cx + r * 0.6, cy - r * 0.25, 0.5), INK_LIGHT, 0.9)


def dynamite_bundle(
    cv: Canvas, cx: float, cy: float, angle: float = 0.0, fuse_to: tuple[float, float] | None = None
) -> None:
    sticks = [box(-2.6 + dx, -12.0, 2.6 + dx, 12.0, 2.2) for dx in (-5.2, 0.0, 5.2)]
    bundle = union(*sticks)
    placed = bundle.placed(cx, cy, angle)
    cut(cv, placed.grow(1.6))
    for k, stick in enumerate(sticks):
        paint(cv, stick.placed(cx, cy, angle), _shade(add(RED, -8 * k), 0.7))
    for dy in (-6.5, 6.5):
        band = box(-8.6, dy - 1.3, 8.6, dy + 1.3)
        paint(cv, band.placed(cx, cy, angle), INK)
    c, s = math.cos(angle), math.sin(angle)
    top = (cx + 12.0 * s, cy - 12.0 * c)
    if fuse_to is None:
        fuse_to = (top[0] + 7, top[1] - 7)
    mx, my = (top[0] + fuse_to[0]) / 2 - 3, (top[1] + fuse_to[1]) / 2 - 2
    paint(cv, capsule(top[0], top[1], mx, my, 0.9), INK)
    paint(cv, capsule(mx, my, fuse_to[0], fuse_to[1], 0.9), INK)
    spark(cv, *fuse_to, 5.2)


def spark(cv: Canvas, x: float, y: float, r: float) -> None:
    burst = star(x, y, r, r * 0.38, n=8, rot=0.2)
    paint(cv, burst.grow(0.8), (255.0, 140.0, 40.0), 0.9)
    paint(cv, burst, SPARK)
    paint(cv, circle(x, y, r * 0.3), (255.0, 250.0, 220.0))


def grenade(cv: Canvas, cx: float, cy: float) -> None:
    body = ellipse(cx, cy, 7.0, 8.5)
    cap = box(cx - 3.2, cy - 12.0, cx + 3.2, cy - 7.0, 1.0)
    lever = capsule(cx + 2.0, cy - 11.0, cx + 7.5, cy - 2.0, 1.2)
    ring = circle(cx - 5.0, cy - 11.5, 3.0).shell(1.2)
    cut(cv, (body | cap | lever | ring).grow(1.6))
    paint(cv, body, _shade(OLIVE, 0.8))
    for k in (-1, 0, 1):  # the segmented body
        paint(cv, box(cx - 7, cy + k * 4.0 - 0.5, cx + 7, cy + k * 4.0 + 0.5) & body, INK, 0.7)
    paint(cv, box(cx - 0.5, cy - 9, cx + 0.5, cy + 9) & body, INK, 0.7)
    paint(cv, cap | lever, _shade(STEEL_DARK, 0.8))
    paint(cv, ring, _shade(STEEL, 0.8))


def shield_plate(cv: Canvas, x0: float, y0: float, x1: float, y1: float) -> None:
    plate = box(x0, y0, x1, y1, 3.0)
    cut(cv, plate.grow(1.8))
    paint(cv, plate, _shade(STEEL, 0.9))
    paint(cv, box(x0 + 2.5, y0 + 2.5, x1 - 2.5, y1 - 2.5, 2.0).shell(1.0), STEEL_DARK, 0.8)
    for rx in (x0 + 4.5, x1 - 4.5):
        for ry in (y0 + 4.5, y1 - 4.5):
            paint(cv, circle(rx, ry, 1.4), STEEL_DARK)
            paint(cv, circle(rx - 0.4, ry - 0.4, 0.6), (240.0, 240.0, 245.0), 0.8)
    paint(cv, box(x0 + 3, (y0 + y1) / 2 - 0.6, x1 - 3, (y0 + y1) / 2 + 0.6), STEEL_DARK, 0.6)


def gun(cv: Canvas, shape: Sdf, metal: RGB = STEEL_DARK, gap: float = 1.5) -> None:
    """A weapon in front of the silhouette: cut a gap, then paint it in dark metal with a highlight."""
    cut(cv, shape.grow(gap))
    paint(cv, shape, _shade(metal, 0.7))


# -- the portraits


def new_icon() -> Canvas:
    return Canvas(ICON_CELL, ICON_CELL)


def lapels(cv: Canvas, width: float = 34.0) -> None:
    """Coat lapels and a shirt line, in lighter ink, so the bust reads as a person at large sizes."""
    paint(cv, capsule(IC - 5.5, 67.0, IC - 11.0, 88.0, 0.9), INK_LIGHT)
    paint(cv, capsule(IC + 5.5, 67.0, IC + 11.0, 88.0, 0.9), INK_LIGHT)


def hat_band(cv: Canvas, hat: Sdf, y: float, color: RGB = INK_LIGHT, h: float = 3.0) -> None:
    paint(cv, hat & box(0, y - h, ICON_CELL, y), _shade(color, 0.6))


def icon_sheriff(rng: random.Random) -> Canvas:
    cv = new_icon()
    silhouette(cv, bust())
    lapels(cv)
    hat = cowboy_hat(y=34.0, crown=18.0)
    outlined(cv, hat, ink, 1.3)
    rim_light(cv, hat)
    hat_band(cv, hat, 33.0)
    star_badge(cv, IC + 12.5, 73.0, 9.0, GOLD, GOLD_DARK)
    return cv


def icon_deputy(rng: random.Random) -> Canvas:
    cv = new_icon()
    silhouette(cv, bust())
    lapels(cv)
    neckerchief(cv, color=(196.0, 150.0, 60.0))
    hat = flat_hat(y=35.0)
    outlined(cv, hat, ink, 1.3)
    rim_light(cv, hat)
    hat_band(cv, hat, 33.5)
    # a silver star in a ring: the deputy's badge
    cx, cy = IC + 12.5, 73.0
    cut(cv, circle(cx, cy, 9.0))
    paint(cv, circle(cx, cy, 8.2).shell(1.8), _shade(SILVER, 0.9))
    star_badge(cv, cx, cy, 6.0, SILVER, SILVER_DARK, balls=False)
    return cv


def icon_hired_gun(rng: random.Random) -> Canvas:
    cv = new_icon()
    silhouette(cv, bust())
    hat = cowboy_hat(y=35.0, crown=14.0, w=24.0, pinch=False)
    outlined(cv, hat, ink, 1.3)
    rim_light(cv, hat)
    # a feather in the hat band
    feather = ellipse(0, 0, 7.5, 2.2).placed(IC - 13.0, 24.0, -1.05)
    outlined(cv, feather, _shade((220.0, 206.0, 176.0), 0.6), 1.0)
    paint(cv, capsule(IC - 16.0, 29.5, IC - 10.0, 19.0, 0.5), INK_LIGHT)
    # bandolier across the chest
    strap = capsule(IC - 22.0, 70.0, IC + 18.0, 88.0, 2.6)
    paint(cv, strap, INK_LIGHT)
    for k in range(6):
        t = (k + 0.5) / 6
        bx, by = IC - 22.0 + 40.0 * t, 70.0 + 18.0 * t
        paint(cv, box(bx - 1.0, by - 3.5, bx + 1.0, by + 0.5, 0.8), _shade(BRASS, 0.5))
    # a raised tomahawk in the right hand
    place = placer(IC + 24.0, 76.0, -1.5)
    cut(cv, place(tomahawk() | tomahawk_blade()).grow(1.6))
    paint(cv, place(tomahawk()), _shade(WOOD, 0.6))
    paint(cv, place(tomahawk_blade()), _shade(STEEL, 0.9))
    paint(cv, place(tomahawk_blade()).shell(0.8), STEEL_DARK)
    fist(cv, IC + 24.0, 74.0, 5.0)
    return cv


def icon_outlaw(rng: random.Random) -> Canvas:
    cv = new_icon()
    silhouette(cv, bust())
    lapels(cv)
    bandana_mask(cv)
    hat = cowboy_hat(y=34.5, crown=15.0, w=25.0)
    outlined(cv, hat, ink, 1.3)
    rim_light(cv, hat)
    # a revolver raised beside the head, barrel up
    gun(cv, revolver().placed(IC + 23.0, 64.0, -1.35, 1.05))
    fist(cv, IC + 24.0, 70.0, 5.0)
    return cv


def icon_gang_leader(rng: random.Random) -> Canvas:
    cv = new_icon()
    # a rifle slung behind the shoulder
    slung = rifle().placed(IC - 34.0, 86.0, -1.0, 1.1)
    paint(cv, slung, _shade(WOOD, 0.5))
    paint(cv, slung - circle(IC - 34.0, 86.0, 24.0), _shade(STEEL, 0.5))  # the barrel over the shoulder
    silhouette(cv, bust(width=36.0))
    lapels(cv)
    bandana_mask(cv, color=(58.0, 70.0, 96.0))
    hat = cowboy_hat(y=34.0, crown=18.0, w=28.0)
    outlined(cv, hat, ink, 1.3)
    rim_light(cv, hat)
    hat_band(cv, hat, 33.5, GOLD, 3.5)
    for k in range(4):  # conchos on the band
        paint(cv, circle(IC - 7.5 + k * 5.0, 31.6, 1.2), GOLD_LIGHT)
    # a gold watch chain
    paint(cv, circle(IC + 2.0, 86.0, 9.0).shell(1.1) & box(IC - 8, 74, IC + 12, 82), GOLD)
    return cv


def icon_dog(rng: random.Random) -> Canvas:
    """A dog's head in profile, looking right, with a collar."""
    cv = new_icon()
    skull = ellipse(IC - 4.0, 44.0, 15.0, 14.0)
    snout = poly(
        [(IC + 4.0, 38.0), (IC + 20.0, 44.0), (IC + 23.5, 47.5), (IC + 22.0, 53.0), (IC + 4.0, 56.0)]
    )
    jaw = ellipse(IC + 11.0, 55.0, 9.0, 3.5)
    neck_ = poly([(IC - 18.0, 44.0), (IC + 6.0, 54.0), (IC + 12.0, 88.0), (IC - 26.0, 88.0)])
    chest = ellipse(IC - 6.0, 90.0, 28.0, 16.0)
    ear = poly([(IC - 15.0, 36.0), (IC - 12.0, 20.0), (IC - 2.0, 33.0)])
    body = skull | snout | jaw | neck_ | chest | ear
    silhouette(cv, body)
    paint(cv, poly([(IC - 12.5, 31.0), (IC - 11.5, 25.5), (IC - 6.5, 32.0)]), INK_LIGHT)  # inner ear
    paint(cv, circle(IC + 23.0, 46.0, 3.2), (20.0, 14.0, 10.0))  # nose
    paint(cv, capsule(IC + 12.0, 53.0, IC + 21.5, 51.0, 0.6), INK_LIGHT)  # mouth line
    cut(cv, ellipse(IC + 4.5, 40.5, 2.6, 2.2))  # eye (the face shows through)
    paint(cv, circle(IC + 5.0, 40.8, 1.3), INK)
    collar = poly([(IC - 17.0, 56.0), (IC + 6.0, 63.0), (IC + 7.5, 69.0), (IC - 18.5, 62.5)])
    paint(cv, collar, _shade(RED, 0.6))
    paint(cv, circle(IC - 3.0, 68.0, 3.2), _shade(GOLD, 0.8))  # tag
    return cv


def rifter_base(cv: Canvas, width: float = 34.0, head_rx: float = 11.5, cap: bool = True) -> None:
    """A Rifter: bust in a flight jacket with a collar; the cap and goggles are added by the caller."""
    silhouette(cv, bust(width, head_rx))
    collar = poly([(IC - 12.0, 62.0), (IC - 3.0, 67.0), (IC - 9.0, 74.0), (IC - 16.0, 68.0)])
    collar2 = poly([(IC + 12.0, 62.0), (IC + 3.0, 67.0), (IC + 9.0, 74.0), (IC + 16.0, 68.0)])
    paint(cv, collar | collar2, _shade((150.0, 120.0, 90.0), 0.6))
    paint(cv, capsule(IC, 68.0, IC, 88.0, 0.8), INK_LIGHT)  # zip
    if cap:
        outlined(cv, aviator_cap(), _shade((96.0, 66.0, 44.0), 0.6), 1.2)


def icon_rifter(rng: random.Random) -> Canvas:
    cv = new_icon()
    rifter_base(cv)
    goggles(cv)
    return cv


def icon_rifter_deliberate(rng: random.Random) -> Canvas:
    """The marksman: a scoped rifle held across the chest."""
    cv = new_icon()
    rifter_base(cv)
    goggles(cv)
    gun(cv, rifle(scope=True).placed(IC - 28.0, 86.0, -0.62, 1.0))
    fist(cv, IC + 2.0, 67.0, 4.6)
    return cv


def icon_rifter_daring(rng: random.Random) -> Canvas:
    """The runner: a flying scarf, speed lines and a submachine gun held up."""
    cv = new_icon()
    for k, (y, length) in enumerate(((30.0, 14.0), (40.0, 20.0), (50.0, 12.0))):  # speed lines
        paint(cv, capsule(IC - 36.0 + k * 2, y, IC - 36.0 + length + k * 2, y, 1.3), INK_LIGHT, 0.8)
    scarf = poly(
        [
            (IC - 10.0, 60.0),
            (IC - 30.0, 54.0),
            (IC - 38.0, 58.0),
            (IC - 26.0, 62.0),
            (IC - 34.0, 68.0),
            (IC - 8.0, 67.0),
        ]
    )
    paint(cv, scarf, _shade(RED, 0.6))
    rifter_base(cv)
    goggles(cv)
    paint(cv, box(IC - 11.0, 59.0, IC + 11.0, 65.0, 2.5), _shade(RED, 0.6))
    place = placer(IC + 18.0, 82.0, -1.2, 1.1)
    gun(cv, place(smg()))
    tommy_holes(cv, place)
    fist(cv, IC + 21.5, 73.0, 4.6)
    return cv


def icon_rifter_bold(rng: random.Random) -> Canvas:
    """The bruiser: broad shoulders, a belt of red shotgun shells and the shotgun resting on a shoulder."""
    cv = new_icon()
    rifter_base(cv, width=41.0, head_rx=12.5)
    goggles(cv)
    strap = capsule(IC - 26.0, 66.0, IC + 24.0, 84.0, 3.4)
    paint(cv, strap, INK_LIGHT)
    for k in range(5):
        t = (k + 0.5) / 5
        bx, by = IC - 26.0 + 50.0 * t, 66.0 + 18.0 * t
        shell = box(bx - 1.9, by - 5.5, bx + 1.9, by + 1.5, 1.0)
        outlined(cv, shell, _shade(RED, 0.5), 0.8)
        paint(cv, box(bx - 1.9, by - 0.5, bx + 1.9, by + 1.5, 0.6), _shade(BRASS, 0.5))
    gun(cv, shotgun().placed(IC - 2.0, 92.0, -1.12, 1.2))
    fist(cv, IC + 9.0, 72.0, 5.6)
    return cv


def icon_rifter_resolute(rng: random.Random) -> Canvas:
    """The wall: a steel helmet, a riveted shield plate and a heavy machine gun over it."""
    cv = new_icon()
    rifter_base(cv, width=37.0, cap=False)
    helmet = brodie_helmet(y=38.5)
    outlined(cv, helmet, _shade((110.0, 116.0, 96.0), 0.7), 1.2)
    gun(cv, hmg().placed(IC - 18.0, 70.0, -0.32, 0.95))
    shield_plate(cv, IC - 22.0, 70.0, IC + 22.0, 90.0)
    return cv


def icon_rifter_cunning(rng: random.Random) -> Canvas:
    """The commander: a peaked cap and a brass megaphone for shouting orders."""
    cv = new_icon()
    rifter_base(cv, cap=False)
    cap = peaked_cap(y=37.0)
    outlined(cv, cap, _shade((70.0, 60.0, 50.0), 0.5), 1.2)
    paint(cv, box(IC - 11, 34.0, IC + 11, 36.5) & cap, _shade(GOLD, 0.5))  # braid
    place = placer(IC + 13.0, 57.0, -0.25, 1.0)
    cut(cv, place(megaphone()).grow(1.6))
    paint(cv, place(megaphone()), _shade(BRASS, 0.8))
    paint(cv, place(ellipse(20.0, 0.0, 1.2, 7.5)), BRASS_DARK)
    for k in range(2):  # sound
        arc = circle(IC + 26.0, 52.0, 6.0 + 4.5 * k).shell(1.3) & box(IC + 34.0, 36.0, IC + 44.0, 66.0)
        paint(cv, arc.placed(0, 0), INK)
    return cv


def icon_rifter_calculated(rng: random.Random) -> Canvas:
    """The demolitionist: goggles down, a bandolier of grenades and one held up."""
    cv = new_icon()
    rifter_base(cv)
    goggles(cv, down=True)
    strap = capsule(IC - 26.0, 68.0, IC + 20.0, 90.0, 2.6)
    paint(cv, strap, INK_LIGHT)
    for k in range(4):
        t = (k + 0.5) / 4
        gx, gy = IC - 26.0 + 46.0 * t, 68.0 + 22.0 * t
        outlined(cv, circle(gx, gy - 1.0, 3.2), _shade(OLIVE, 0.8), 1.0)
    grenade(cv, IC + 25.0, 58.0)
    fist(cv, IC + 24.0, 70.0, 5.0)
    return cv


def icon_outlaw_goon(rng: random.Random) -> Canvas:
    cv = new_icon()
    silhouette(cv, bust())
    lapels(cv)
    bandana_mask(cv, color=(150.0, 92.0, 40.0))
    hat = bowler(y=35.5)
    outlined(cv, hat, ink, 1.3)
    rim_light(cv, hat)
    hat_band(cv, hat, 35.0)
    gun(cv, revolver().placed(IC - 20.0, 64.0, -1.8, 1.05))
    fist(cv, IC - 20.5, 70.0, 5.0)
    return cv


def icon_sharpshooter(rng: random.Random) -> Canvas:
    cv = new_icon()
    silhouette(cv, bust())
    lapels(cv)
    hat = cowboy_hat(y=36.5, crown=15.0, w=27.0)
    outlined(cv, hat, ink, 1.3)
    rim_light(cv, hat)
    gun(cv, rifle(scope=True).placed(IC + 20.0, 92.0, -1.5, 1.0))
    fist(cv, IC + 20.5, 74.0, 4.8)
    # a crosshair: the dead eye
    cx, cy = IC - 22.0, 26.0
    paint(cv, circle(cx, cy, 8.0).shell(1.8), RED_DARK)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        paint(cv, capsule(cx + dx * 4.0, cy + dy * 4.0, cx + dx * 11.0, cy + dy * 11.0, 0.9), RED_DARK)
    return cv


def icon_dynamiter(rng: random.Random) -> Canvas:
    cv = new_icon()
    silhouette(cv, bust())
    lapels(cv)
    hat = cowboy_hat(y=35.0, crown=13.0, w=23.0, pinch=False)
    outlined(cv, hat, ink, 1.3)
    rim_light(cv, hat)
    dynamite_bundle(cv, IC + 22.0, 60.0, 0.25, fuse_to=(IC + 34.0, 38.0))
    fist(cv, IC + 19.0, 72.0, 5.0)
    return cv


def icon_gang_boss(rng: random.Random) -> Canvas:
    cv = new_icon()
    silhouette(cv, bust(width=39.0, head_rx=12.5))
    lapels(cv)
    hat = cowboy_hat(y=33.0, crown=19.0, w=30.0)
    outlined(cv, hat, ink, 1.3)
    rim_light(cv, hat)
    hat_band(cv, hat, 32.5, GOLD, 3.5)
    # a cigar with a glowing tip
    paint(cv, capsule(IC + 4.0, 53.0, IC + 15.0, 50.5, 1.4), _shade(WOOD, 0.5))
    paint(cv, circle(IC + 15.5, 50.4, 1.5), (255.0, 120.0, 40.0))
    # twin revolvers crossed over the chest
    gun(cv, revolver().placed(IC - 20.0, 84.0, -0.78, 1.3), STEEL)
    gun(cv, revolver().mirrored().placed(IC + 20.0, 84.0, 0.78, 1.3), STEEL)
    return cv


def icon_generic(rng: random.Random) -> Canvas:
    """Any unit the art does not know: a plain bust (the game falls back to it, never crashes)."""
    cv = new_icon()
    silhouette(cv, bust())
    lapels(cv)
    return cv


ICONS: dict[str, Callable[[random.Random], Canvas]] = {
    # Frontier (frontier.toml [units.*])
    "sheriff": icon_sheriff,
    "deputy": icon_deputy,
    "hired_gun": icon_hired_gun,
    "gang_leader": icon_gang_leader,
    "outlaw": icon_outlaw,
    "dog": icon_dog,  # Frontier's dog and Through the Rift's companion dog
    # Through the Rift: Rifters by attitude (rift.toml [attitudes.*]), enemies ([enemies.*])
    "rifter": icon_rifter,
    "rifter.deliberate": icon_rifter_deliberate,
    "rifter.daring": icon_rifter_daring,
    "rifter.bold": icon_rifter_bold,
    "rifter.resolute": icon_rifter_resolute,
    "rifter.cunning": icon_rifter_cunning,
    "rifter.calculated": icon_rifter_calculated,
    "outlaw_goon": icon_outlaw_goon,
    "sharpshooter": icon_sharpshooter,
    "dynamiter": icon_dynamiter,
    "gang_boss": icon_gang_boss,
    "generic": icon_generic,
}


def paint_icon(kind: str, seed: int = SEED) -> Canvas:
    rng = random.Random(f"{seed}:icon:{kind}")
    with zoomed(ICON_ZOOM, IC, ICON_PIVOT_Y):
        cv = ICONS[kind](rng)
    grain(cv, rng, 2.5)
    clip(cv, circle(IC, IC, FACE_RADIUS - 0.6))
    return cv


def paint_icons(seed: int = SEED) -> Canvas:
    return sheet([paint_icon(k, seed) for k in ICONS], ICON_CELL, ICON_CELL, ICON_COLUMNS)


# --------------------------------------------------------------------------------------------------
# Output


def manifest() -> dict[str, object]:
    """What ``game.ui.tokens`` needs to cut the sheets: sizes, radii, styles and the icon order."""
    return {
        "comment": "Written by tools/gen_tokens.py; do not edit (run python -m tools.gen_tokens).",
        "scale": 2,
        "base_cell": BASE_CELL,
        "disc_radius": DISC_RADIUS,
        "face_radius": FACE_RADIUS,
        "styles": list(STYLES),
        "base_rows": ["shadow", "tint", "overlay"],
        "icon_cell": ICON_CELL,
        "icon_columns": ICON_COLUMNS,
        "icons": list(ICONS),
        "fallback": "generic",
    }


def render(root: Path = ROOT, seed: int = SEED) -> list[Path]:
    """Paint the token sheets and write them under ``root/assets/tokens``; returns the files written."""
    out = root / "assets" / "tokens"
    out.mkdir(parents=True, exist_ok=True)
    bases, icons, index = out / "bases.png", out / "icons.png", out / "tokens.json"
    save_png(paint_bases(seed), bases)
    save_png(paint_icons(seed), icons)
    index.write_text(json.dumps(manifest(), indent=2) + "\n", encoding="utf-8", newline="\n")
    return [bases, icons, index]


def main(argv: Iterable[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    root = Path(args[0]) if args else ROOT
    for path in render(root):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
