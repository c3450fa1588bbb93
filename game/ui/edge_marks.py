"""Marks at the edge of the map area for aimed-at targets that are off screen (issue 13: "off-screen
targets get edge indicators while aiming"): an arrow on the border, on the line from the middle of the
view to the target, pointing at it. A click on one brings its target into view.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

__all__ = ["EdgeMark", "draw_edge_marks", "edge_marks"]


@dataclass(frozen=True, slots=True)
class EdgeMark:
    """An off-screen target's mark: the unit, where the arrow's tip is (view pixels) and its direction
    (radians, screen y down)."""

    unit: int
    at: tuple[int, int]
    angle: float
    count: int = 1  # targets on the same tile share one mark, which says how many

    def hit_rect(self, radius: int) -> pygame.Rect:
        return pygame.Rect(self.at[0] - radius * 2, self.at[1] - radius * 2, radius * 4, radius * 4)


def edge_marks(
    view: tuple[int, int], spots: list[tuple[int, tuple[float, float]]], inset: int
) -> list[EdgeMark]:
    """The marks for the units in ``spots`` (unit, its centre in view pixels) that lie outside a view of
    ``view`` pixels, each placed ``inset`` pixels inside the view's border."""
    w, h = view
    cx, cy = w / 2, h / 2
    half_w, half_h = max(1.0, cx - inset), max(1.0, cy - inset)
    marks: list[EdgeMark] = []
    where: dict[tuple[int, int], int] = {}  # a tile's spot -> its mark's index
    for unit, (x, y) in spots:
        if 0 <= x < w and 0 <= y < h:
            continue
        spot = (round(x), round(y))
        if spot in where:
            first = marks[where[spot]]
            marks[where[spot]] = EdgeMark(first.unit, first.at, first.angle, first.count + 1)
            continue
        where[spot] = len(marks)
        dx, dy = x - cx, y - cy
        if dx == 0 and dy == 0:
            continue
        t = min(half_w / abs(dx) if dx else math.inf, half_h / abs(dy) if dy else math.inf)
        marks.append(EdgeMark(unit, (round(cx + dx * t), round(cy + dy * t)), math.atan2(dy, dx)))
    return marks


def draw_edge_marks(
    canvas: pygame.Surface,
    marks: list[EdgeMark],
    radius: int,
    hot: int | None = None,
    face: pygame.font.Font | None = None,
) -> None:
    """Each mark as a target-red arrow in a ring (``hot``: the unit under the pointer, drawn brighter),
    with the number of targets it stands for when more than one (written with ``face``)."""
    for mark in marks:
        x, y = mark.at
        ux, uy = math.cos(mark.angle), math.sin(mark.angle)
        base = (x - ux * radius * 1.2, y - uy * radius * 1.2)
        tip = (x + ux * radius * 1.5, y + uy * radius * 1.5)
        side = (-uy * radius * 0.9, ux * radius * 0.9)
        colour = (255, 90, 60) if mark.unit == hot else (200, 40, 30)
        pygame.draw.circle(canvas, (30, 18, 8), (x, y), radius + 3)
        pygame.draw.circle(canvas, (245, 236, 214), (x, y), radius + 1)
        pygame.draw.circle(canvas, colour, (x, y), radius - 2, max(2, radius // 4))
        points = [tip, (base[0] + side[0], base[1] + side[1]), (base[0] - side[0], base[1] - side[1])]
        pygame.draw.polygon(canvas, (30, 18, 8), points)
        inner = [(px * 0.8 + x * 0.2, py * 0.8 + y * 0.2) for px, py in points]
        pygame.draw.polygon(canvas, colour, inner)
        if mark.count > 1 and face is not None:
            text = face.render(str(mark.count), True, (245, 236, 214))
            box = text.get_rect(center=(round(x - ux * radius * 1.9), round(y - uy * radius * 1.9)))
            pygame.draw.rect(canvas, (30, 18, 8), box.inflate(6, 2), border_radius=6)
            canvas.blit(text, box)
