"""Deploy zones drawn as zones (issue 13): each side's zone tinted in its side's colour and outlined along
its border — one line around the whole area, not a mark on every tile that could pass for terrain. The
side deploying now is drawn strong, with the tiles still free to click lit; the other sides' zones faint.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import pygame

from game.hexgrid import Hex
from game.ui.overlay import Overlay

__all__ = ["border_edges", "draw_zone"]

Point = tuple[float, float]
Edge = tuple[tuple[int, int], tuple[int, int]]


def border_edges(overlay: Overlay, hexes: Iterable[Hex]) -> list[Edge]:
    """The edges (screen points) of the tiles ``hexes`` that no two of them share: the zone's border."""
    counts: Counter[Edge] = Counter()
    for h in hexes:
        points = [(round(x), round(y)) for x, y in overlay.polygon(h)]
        for a, b in zip(points, points[1:] + points[:1], strict=True):
            counts[(min(a, b), max(a, b))] += 1
    return [edge for edge, n in counts.items() if n == 1]


def draw_zone(
    surface: pygame.Surface,
    overlay: Overlay,
    zone: Iterable[Hex],
    colour: tuple[int, int, int],
    *,
    free: Iterable[Hex] = (),
    strong: bool = True,
) -> None:
    """``zone`` tinted in ``colour`` and outlined (``strong``: the side deploying now, thick, its ``free``
    tiles lit; else faint and thin)."""
    zone = list(zone)
    tint = (*colour, 70 if strong else 35)
    overlay.fill(surface, zone, tint)
    free = list(free)
    if free:
        overlay.fill(surface, free, (255, 248, 225, 45))
    width = max(2, round(overlay.camera.zoom * (4 if strong else 2)))
    for a, b in border_edges(overlay, zone):
        if strong:
            pygame.draw.line(surface, (30, 18, 8), a, b, width + 3)
        pygame.draw.line(surface, colour, a, b, width)
