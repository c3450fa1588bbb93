"""The battle's end drawn on the board (:mod:`game.ui.battle_end` says what it shows): a mark where each
unit that left at the end stood, and the panel over the top of the map."""

from __future__ import annotations

import pygame

from game.ui.battle_end import CONTINUE_HINT, EndShow
from game.ui.battle_hud import fit_text, font
from game.ui.overlay import Overlay
from game.ui.path_marks import pill

__all__ = ["draw_end"]


def draw_end(
    surface: pygame.Surface, area: pygame.Rect, overlay: Overlay, show: EndShow, scale: float
) -> None:
    """The marks on the board, then the panel over the top of the map."""
    canvas = surface.subsurface(area)
    for where, how in show.marks:
        pill(canvas, overlay, overlay.center(where), how, warn=True)
    big = font(max(18, round(30 * scale)))
    mid = font(max(12, round(16 * scale)), bold=False)
    small = font(max(11, round(14 * scale)), bold=False)
    width = min(area.width - 40, round(620 * scale))
    text_w = width - 32
    rows: list[pygame.Surface] = [big.render(fit_text(big, show.title, text_w), True, (92, 30, 12))]
    if show.reason:
        rows.append(mid.render(fit_text(mid, show.reason, text_w), True, (52, 33, 16)))
    for line in show.lines:
        rows.append(small.render(fit_text(small, "\u2022 " + line, text_w), True, (52, 33, 16)))
    rows.append(small.render(fit_text(small, CONTINUE_HINT, text_w), True, (120, 80, 40)))
    height = sum(r.get_height() + 6 for r in rows) + 28
    box = pygame.Rect(0, 0, width, height)
    box.midtop = (area.centerx, area.y + 12)  # at the top: the board below stays in sight
    pygame.draw.rect(surface, (30, 18, 8), box.inflate(6, 6), border_radius=10)
    pygame.draw.rect(surface, (240, 228, 200), box, border_radius=8)
    pygame.draw.rect(surface, (140, 40, 20), box, 3, border_radius=8)
    y = box.y + 14
    for i, row in enumerate(rows):
        x = box.centerx - row.get_width() // 2 if i in (0, len(rows) - 1) else box.x + 16
        surface.blit(row, (x, y))
        y += row.get_height() + 6
