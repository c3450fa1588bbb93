"""What a walk under the pointer would meet, drawn on the path itself (issue 13: "Show the exact chance to
reach (Move + 1d4 against the path's cost) and every free attack the path would provoke ... with their
odds, on the path itself; the same for any move that crosses a reaction lane").

The words come from :mod:`game.ui.battle_words` (``path_label``, ``reaction_label``); the facts from the
match (``Match.path_reactions``: each free attack, the tile the walker is on when it comes, its odds;
``AttackPreview.reach_chance``: a charge's chance to get to its end). This module only draws them: a
label on a pill at the path's end, and for each free attack a red dashed lane from the attacker to the
tile on the path with a warning pill there (shape and words, not colour alone).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from game.engine.facts import PathReaction
from game.hexgrid import Hex
from game.ui.overlay import Overlay, Palette

__all__ = ["WARN", "draw_reactions", "pill", "unreachable_mark"]

WARN = (170, 30, 20)
WARN_LIGHT = (255, 228, 205)
Point = tuple[int, int]


def pill(
    surface: pygame.Surface, overlay: Overlay, at: Point, text: str, *, warn: bool = False, row: int = 0
) -> pygame.Rect:
    """A rounded label up and right of ``at`` (``row`` stacks several at one point, -1 is below it, where
    a walk's end label goes, clear of a target's hit badge); its rectangle."""
    font = overlay.font()
    fg = WARN_LIGHT if warn else (255, 250, 235)
    label = font.render(text, True, fg)
    pad = 5
    w, h = label.get_width() + 2 * pad, label.get_height() + 4
    r = overlay.radius()
    x = at[0] + round(r * 0.45)
    y = at[1] - round(r * 0.55) - h // 2 - row * (h + 3)
    if row < 0:
        y = at[1] + round(r * 0.5)
    rect = pygame.Rect(x, y, w, h)
    bounds = surface.get_rect()
    if rect.right > bounds.right - 2:  # near the right edge: on the left of the point instead
        rect.right = at[0] - round(r * 0.45)
    rect.clamp_ip(bounds)
    pygame.draw.rect(surface, Palette.PATH_SHADOW, rect.inflate(4, 4), border_radius=h // 2 + 2)
    pygame.draw.rect(surface, WARN if warn else (50, 30, 12), rect, border_radius=h // 2)
    surface.blit(label, label.get_rect(center=rect.center))
    return rect


def _lane(surface: pygame.Surface, a: Point, b: Point) -> None:
    """A red dashed lane from the attacker to the tile it fires on (a chevron at the path's end)."""
    length = math.dist(a, b)
    if length < 1:
        return
    n = max(1, int(length // 8))
    for i in range(0, n, 2):
        t0, t1 = i / n, min(1.0, (i + 1) / n)
        p0 = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
        p1 = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
        pygame.draw.line(surface, WARN_LIGHT, p0, p1, 6)
        pygame.draw.line(surface, WARN, p0, p1, 3)
    pygame.draw.circle(surface, WARN_LIGHT, b, 8)
    pygame.draw.circle(surface, WARN, b, 6)
    pygame.draw.line(surface, WARN_LIGHT, (b[0], b[1] - 3), (b[0], b[1] + 1), 2)  # "!" in the ring
    pygame.draw.circle(surface, WARN_LIGHT, (b[0], b[1] + 3), 1)


def draw_reactions(
    surface: pygame.Surface,
    overlay: Overlay,
    reactions: Sequence[PathReaction],
    where: dict[int, Hex | None],
    labels: Sequence[str],
) -> list[pygame.Rect]:
    """Each free attack of a walk: its lane from ``where[reactor]`` to the tile on the path and its
    ``labels`` entry on a warning pill there (pills at one tile stacked); the pills' rectangles."""
    rows: dict[Hex, int] = {}
    out = []
    for reaction, text in zip(reactions, labels, strict=True):
        if reaction.at is None:
            continue
        tile = overlay.center(reaction.at)
        source = where.get(reaction.reactor)
        if source is not None:
            _lane(surface, overlay.center(source), tile)
        row = rows.get(reaction.at, 0)
        rows[reaction.at] = row + 1
        out.append(pill(surface, overlay, tile, text, warn=True, row=row + 1))
    return out


def unreachable_mark(surface: pygame.Surface, overlay: Overlay, h: Hex) -> None:
    """A unit an attack cannot hit (0%): a thin grey ring struck through, not a crosshair."""
    cx, cy = overlay.center(h)
    r = round(overlay.radius() * 0.7)
    grey, dark = (150, 140, 125), Palette.PATH_SHADOW
    pygame.draw.circle(surface, dark, (cx, cy), r + 1, 4)
    pygame.draw.circle(surface, grey, (cx, cy), r, 2)
    d = round(r * 0.7)
    pygame.draw.line(surface, dark, (cx - d, cy + d), (cx + d, cy - d), 5)
    pygame.draw.line(surface, grey, (cx - d, cy + d), (cx + d, cy - d), 3)
