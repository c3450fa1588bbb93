"""What the battle screen draws over the map while a player aims: reachable tiles by cost, the path under
the mouse, valid targets, the line of sight and its cover, a blast's reach (deploy zones are
:mod:`game.ui.zone_marks`').

Every mark works without colour (issue 5: "clear highlight colours that also work for colour-blind
players (shape or pattern, not colour alone)"): reachable tiles carry one dot per movement point they
cost, the path is a line with its step count, targets wear a crosshair ring, a blast's tiles are hatched,
a deploy zone is one outlined area (the deploying side's thick and dark-edged, the others' thin), cover is
a shield glyph, blocked sight a cross.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import pygame

from game.hexgrid import Hex, TiledHexGeometry
from game.ui.camera import Camera

__all__ = ["Overlay", "Palette"]

Point = tuple[int, int]


class Palette:
    REACH = (250, 236, 190, 70)
    REACH_EDGE = (70, 45, 20, 150)
    REACH_DOT = (60, 36, 14)
    REACH_DOT_LIGHT = (255, 246, 220)
    PATH = (255, 250, 235)
    PATH_SHADOW = (30, 18, 8)
    TARGET = (200, 40, 30)
    TARGET_LIGHT = (255, 225, 200)
    BLAST = (230, 110, 30, 90)
    BLAST_HATCH = (40, 12, 0, 220)
    BLAST_HATCH_LIGHT = (255, 225, 180, 190)
    LOS = (255, 250, 235)
    LOS_BLOCKED = (200, 40, 30)
    COVER = (70, 110, 160)
    SELECTED = (255, 215, 90)


class Overlay:
    """Draws overlay marks in screen space for a camera over a Tiled hex geometry."""

    def __init__(self, geometry: TiledHexGeometry, camera: Camera) -> None:
        self.geometry = geometry
        self.camera = camera
        self._font: pygame.font.Font | None = None

    # -- geometry
    def polygon(self, h: Hex) -> list[Point]:
        col, row = self.geometry.to_cell(h)
        return [self.camera.map_to_screen(px, py) for px, py in self.geometry.cell_polygon(col, row)]

    def center(self, h: Hex) -> Point:
        cx, cy = self.geometry.hex_center(h)
        return self.camera.map_to_screen(cx, cy)

    def radius(self) -> float:
        """About the inner radius of a hex on screen."""
        return max(4.0, self.geometry.hex_side_length * 0.85 * self.camera.zoom)

    def font(self) -> pygame.font.Font:
        if self._font is None:
            pygame.font.init()
            self._font = pygame.font.SysFont("dejavusans,sans", 15, bold=True)
        return self._font

    def _visible(self, surface: pygame.Surface, points: Sequence[Point]) -> bool:
        w, h = surface.get_size()
        return any(-80 <= x <= w + 80 and -80 <= y <= h + 80 for x, y in points)

    # -- marks
    def fill(self, surface: pygame.Surface, hexes: Iterable[Hex], color: tuple[int, int, int, int]) -> None:
        layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        for h in hexes:
            points = self.polygon(h)
            if self._visible(surface, points):
                pygame.draw.polygon(layer, color, points)
        surface.blit(layer, (0, 0))

    def reachable(self, surface: pygame.Surface, costs: dict[Hex, int]) -> None:
        """Reachable tiles shaded, each with one dot per movement point it costs to reach."""
        layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        for h in costs:
            points = self.polygon(h)
            if self._visible(surface, points):
                pygame.draw.polygon(layer, Palette.REACH, points)
                pygame.draw.polygon(layer, Palette.REACH_EDGE, points, 1)
        surface.blit(layer, (0, 0))
        r = max(2, round(self.radius() * 0.09))
        for h, cost in costs.items():
            cx, cy = self.center(h)
            n = max(1, min(cost, 6))
            span = (n - 1) * r * 3
            for i in range(n):
                x = cx - span // 2 + i * r * 3
                y = cy + round(self.radius() * 0.55)
                pygame.draw.circle(surface, Palette.REACH_DOT_LIGHT, (x, y), r + 1)
                pygame.draw.circle(surface, Palette.REACH_DOT, (x, y), r)

    def path(self, surface: pygame.Surface, path: Sequence[Hex], cost: int, *, badge: bool = True) -> None:
        """The path as a thick light line on a dark shadow, with an arrow head and its cost at the end
        (``badge`` False: the caller labels it, game.ui.path_marks)."""
        if len(path) < 2:
            return
        points = [self.center(h) for h in path]
        width = max(3, round(self.radius() * 0.14))
        pygame.draw.lines(surface, Palette.PATH_SHADOW, False, points, width + 4)
        pygame.draw.lines(surface, Palette.PATH, False, points, width)
        for p in points[1:-1]:
            pygame.draw.circle(surface, Palette.PATH_SHADOW, p, width + 1)
            pygame.draw.circle(surface, Palette.PATH, p, max(2, width - 1))
        self._arrow_head(surface, points[-2], points[-1], width)
        if badge:
            self.badge(surface, points[-1], str(cost))

    def _arrow_head(self, surface: pygame.Surface, a: Point, b: Point, width: int) -> None:
        angle = math.atan2(b[1] - a[1], b[0] - a[0])
        size = width * 3
        tip = b
        left = (b[0] - size * math.cos(angle - 0.5), b[1] - size * math.sin(angle - 0.5))
        right = (b[0] - size * math.cos(angle + 0.5), b[1] - size * math.sin(angle + 0.5))
        pygame.draw.polygon(surface, Palette.PATH_SHADOW, [tip, left, right])
        pygame.draw.polygon(surface, Palette.PATH, [tip, left, right], 0)

    def badge(self, surface: pygame.Surface, at: Point, text: str, *, dark: bool = True) -> None:
        """A small round label (a cost, a hit chance)."""
        label = self.font().render(text, True, (255, 250, 235) if dark else (30, 18, 8))
        r = max(label.get_width(), label.get_height()) // 2 + 5
        x, y = at[0] + round(self.radius() * 0.55), at[1] - round(self.radius() * 0.55)
        pygame.draw.circle(surface, (255, 250, 235) if dark else (30, 18, 8), (x, y), r + 2)
        pygame.draw.circle(surface, (50, 30, 12) if dark else (250, 236, 190), (x, y), r)
        surface.blit(label, label.get_rect(center=(x, y)))

    def target(self, surface: pygame.Surface, h: Hex, *, strong: bool = False) -> None:
        """A crosshair ring (shape, not only colour); ``strong`` for the one under the mouse."""
        cx, cy = self.center(h)
        r = round(self.radius() * (0.8 if strong else 0.7))
        w = 4 if strong else 2
        pygame.draw.circle(surface, Palette.TARGET_LIGHT, (cx, cy), r + 2, w + 2)
        pygame.draw.circle(surface, Palette.TARGET, (cx, cy), r, w)
        tick = max(4, r // 3)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            start = (cx + dx * (r - tick), cy + dy * (r - tick))
            end = (cx + dx * (r + tick), cy + dy * (r + tick))
            pygame.draw.line(surface, Palette.TARGET_LIGHT, start, end, w + 3)
            pygame.draw.line(surface, Palette.TARGET, start, end, w + 1)

    def blast(self, surface: pygame.Surface, hexes: Iterable[Hex]) -> None:
        """A blast's tiles: orange and hatched."""
        hexes = list(hexes)
        self.fill(surface, hexes, Palette.BLAST)
        layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        step = max(6, round(self.radius() * 0.35))
        for h in hexes:
            points = self.polygon(h)
            if not self._visible(surface, points):
                continue
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            mask = pygame.Surface((max(xs) - min(xs) + 1, max(ys) - min(ys) + 1), pygame.SRCALPHA)
            ox, oy = min(xs), min(ys)
            size = mask.get_size()
            for k in range(-size[1], size[0], step):
                # a dark and a light stroke side by side read on sand and on shadow alike
                pygame.draw.line(mask, Palette.BLAST_HATCH, (k, size[1]), (k + size[1], 0), 2)
                pygame.draw.line(mask, Palette.BLAST_HATCH_LIGHT, (k + 2, size[1]), (k + 2 + size[1], 0), 1)
            clip = pygame.Surface(size, pygame.SRCALPHA)
            pygame.draw.polygon(clip, (255, 255, 255, 255), [(x - ox, y - oy) for x, y in points])
            mask.blit(clip, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
            layer.blit(mask, (ox, oy))
        surface.blit(layer, (0, 0))

    def sight(self, surface: pygame.Surface, a: Hex, b: Hex, *, clear: bool, cover: bool) -> None:
        """The line of sight from ``a`` to ``b``: dashed light when clear (a shield at the target when it
        has cover), red with a cross in the middle when blocked."""
        pa, pb = self.center(a), self.center(b)
        color = Palette.LOS if clear else Palette.LOS_BLOCKED
        length = math.dist(pa, pb)
        if length < 1:
            return
        dash = 10
        n = int(length // dash)
        for i in range(0, n, 2):
            t0, t1 = i / n, min(1.0, (i + 1) / n)
            p0 = (pa[0] + (pb[0] - pa[0]) * t0, pa[1] + (pb[1] - pa[1]) * t0)
            p1 = (pa[0] + (pb[0] - pa[0]) * t1, pa[1] + (pb[1] - pa[1]) * t1)
            pygame.draw.line(surface, Palette.PATH_SHADOW, p0, p1, 5)
            pygame.draw.line(surface, color, p0, p1, 3)
        if not clear:
            mx, my = (pa[0] + pb[0]) // 2, (pa[1] + pb[1]) // 2
            for dx in (-1, 1):
                pygame.draw.line(
                    surface, Palette.PATH_SHADOW, (mx - 9, my - 9 * dx), (mx + 9, my + 9 * dx), 7
                )
                pygame.draw.line(
                    surface, Palette.LOS_BLOCKED, (mx - 8, my - 8 * dx), (mx + 8, my + 8 * dx), 4
                )
        elif cover:
            self.shield(surface, pb)

    def shield(self, surface: pygame.Surface, at: Point) -> None:
        """A cover glyph: a heater shield left of the point."""
        r = max(8, round(self.radius() * 0.3))
        x, y = at[0] - round(self.radius() * 0.6), at[1] - round(self.radius() * 0.55)
        outline = [(x - r, y - r), (x + r, y - r), (x + r, y), (x, y + r + r // 2), (x - r, y)]
        pygame.draw.polygon(surface, (255, 250, 235), outline)
        inner = [(px + (x - px) // 4, py + (y - py) // 4) for px, py in outline]
        pygame.draw.polygon(surface, Palette.COVER, inner)
        pygame.draw.polygon(surface, Palette.PATH_SHADOW, outline, 2)

    def selected(self, surface: pygame.Surface, h: Hex) -> None:
        """The unit being commanded: a double ring."""
        cx, cy = self.center(h)
        r = round(self.radius() * 0.95)
        pygame.draw.circle(surface, Palette.PATH_SHADOW, (cx, cy), r + 2, 6)
        pygame.draw.circle(surface, Palette.SELECTED, (cx, cy), r, 3)
        pygame.draw.circle(surface, Palette.SELECTED, (cx, cy), r - 6, 1)

    def alert(self, surface: pygame.Surface, h: Hex) -> None:
        """A unit a reaction is about (in danger, the one moving): a warning triangle with "!" above it."""
        cx, cy = self.center(h)
        r = max(7, round(self.radius() * 0.3))
        top = cy - round(self.radius() * 0.95)
        points = [(cx, top - r), (cx + r, top + r // 2), (cx - r, top + r // 2)]
        pygame.draw.polygon(surface, Palette.PATH_SHADOW, [(x, y + 2) for x, y in points])
        pygame.draw.polygon(surface, Palette.SELECTED, points)
        pygame.draw.polygon(surface, Palette.PATH_SHADOW, points, 2)
        mark = self.font().render("!", True, Palette.PATH_SHADOW)
        surface.blit(mark, mark.get_rect(center=(cx, top)))

    def thinking(self, surface: pygame.Surface, h: Hex, clock: float) -> None:
        """A computer player thinking about the unit in ``h``: a thought bubble above it, its three dots
        filling one by one (shape and motion, not colour alone)."""
        cx, cy = self.center(h)
        r = self.radius()
        w, hgt = max(30, round(r * 1.25)), max(16, round(r * 0.6))
        box = pygame.Rect(0, 0, w, hgt)
        box.midbottom = (round(cx + r * 0.55), round(cy - r * 0.85))
        tail = (round(cx + r * 0.2), round(cy - r * 0.55))
        pygame.draw.circle(surface, Palette.PATH_SHADOW, tail, max(3, hgt // 5) + 1)
        pygame.draw.circle(surface, Palette.PATH, tail, max(3, hgt // 5) - 1)
        pygame.draw.rect(surface, Palette.PATH_SHADOW, box.inflate(4, 4), border_radius=hgt // 2 + 2)
        pygame.draw.rect(surface, Palette.PATH, box, border_radius=hgt // 2)
        lit = int(clock * 3) % 4  # 0..3 dots filled, a beat a third of a second
        dot = max(2, hgt // 6)
        for i in range(3):
            x = box.centerx + (i - 1) * dot * 3
            if i < lit:
                pygame.draw.circle(surface, Palette.PATH_SHADOW, (x, box.centery), dot)
            else:
                pygame.draw.circle(surface, Palette.PATH_SHADOW, (x, box.centery), dot, 1)

    def dice_on(self, surface: pygame.Surface, h: Hex, values: Sequence[int]) -> None:
        """The dice assigned to the unit in ``h``: small white dice in a row under its token."""
        if not values:
            return
        cx, cy = self.center(h)
        size = max(16, round(self.radius() * 0.5))
        gap = 3
        x = cx - (len(values) * (size + gap) - gap) // 2
        y = cy + round(self.radius() * 0.75)
        font = self.font()
        for i, v in enumerate(values):
            box = pygame.Rect(x + i * (size + gap), y, size, size)
            pygame.draw.rect(surface, Palette.PATH_SHADOW, box.move(1, 2), border_radius=3)
            pygame.draw.rect(surface, Palette.PATH, box, border_radius=3)
            pygame.draw.rect(surface, Palette.TARGET, box, 2, border_radius=3)
            label = font.render(str(v), True, Palette.PATH_SHADOW)
            surface.blit(label, label.get_rect(center=box.center))
