"""The initiative tracker's cards, painted to fit: each card shows what decides its place (a card, a roll),
the unit's name and its side — a band in the side's token colour with the posse's name — so two "Dog" cards
of two posses are told apart. Nothing is cut: the type shrinks and a name breaks onto two lines before any
text would be (issue 13); :attr:`TrackerPainter.drawn` keeps every text drawn with the room it had, for the
fit tests.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from game.engine.protocol import TrackerEntry
from game.ui.layout_fit import break_lines
from game.ui.tokens import side_color

__all__ = ["DrawnText", "TrackerPainter", "initials", "side_colour_of"]

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class DrawnText:
    """A text drawn on the tracker, how wide it came out and how wide its place was."""

    text: str
    width: int
    room: int


def initials(name: str) -> str:
    """A posse's name in its initials ("Sheriff's Posse" -> "SP"), for a card too narrow for the name."""
    letters = [w[0] for w in name.replace("'s ", " ").split() if w[:1].isalnum()]
    return "".join(letters).upper() or name[:2]


def side_colour_of(match: object, sides: list[str], side: str) -> RGB:
    """The side's colour as its tokens' rims show it (the faction's, unless the first posse has it)."""
    posses = getattr(match, "posses", [])
    index = sides.index(side) if side in sides else 0
    faction = posses[index].faction if index < len(posses) else None
    first = posses[0].faction if posses else None
    return side_color(index, faction if index == 0 or faction != first else None)


def _ink_on(colour: RGB) -> RGB:
    r, g, b = colour
    return (30, 18, 8) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (250, 244, 230)


class TrackerPainter:
    """Paints the tracker's cards with the display serif (``font(size, bold)``) at UI scale ``scale``."""

    def __init__(self, font: Callable[..., pygame.font.Font], scale: float) -> None:
        self.font = font
        self.scale = scale
        self.drawn: list[DrawnText] = []
        self.cards: list[tuple[int, pygame.Rect]] = []  # each unit's card, where it was painted

    def face(self, size: int, bold: bool) -> pygame.font.Font:
        return self.font(size, bold=bold)

    def px(self, v: float) -> int:
        return round(v * self.scale)

    def blit(
        self, surface: pygame.Surface, face: pygame.font.Font, text: str, colour: RGB, room: int, **at: object
    ) -> pygame.Rect:
        picture = face.render(text, True, colour)
        self.drawn.append(DrawnText(text, picture.get_width(), room))
        where = picture.get_rect(**at)
        surface.blit(picture, where)
        return where

    def card(
        self,
        surface: pygame.Surface,
        card: pygame.Rect,
        entry: TrackerEntry,
        *,
        name: str,
        posse: str,
        colour: RGB,
    ) -> None:
        """One card: the side's band on top (colour, posse name), the label, the unit's name."""
        self.cards.append((entry.unit, card.copy()))
        face = (245, 236, 214) if entry.card else (233, 216, 178)
        if entry.acted:
            face = (150, 140, 120)
        pygame.draw.rect(surface, face, card, border_radius=6)
        room = card.width - 8
        band_sizes = list(range(max(8, self.px(10)), 7, -1))
        band_points, band_text = band_sizes[-1], initials(posse)
        for points in band_sizes:
            if self.face(points, False).size(posse)[0] <= room:
                band_points, band_text = points, posse
                break
        band_face = self.face(band_points, False)
        band = pygame.Rect(card.x, card.y, card.width, band_face.get_linesize() + 3)
        pygame.draw.rect(surface, colour, band, border_top_left_radius=6, border_top_right_radius=6)
        pygame.draw.line(surface, (30, 18, 8), band.bottomleft, (band.right - 1, band.bottom), 1)
        self.blit(surface, band_face, band_text, _ink_on(colour), room, midtop=(card.centerx, band.y + 2))
        border = (255, 215, 90) if entry.active else (30, 18, 8)
        pygame.draw.rect(surface, border, card, 4 if entry.active else 2, border_radius=6)
        if entry.active:
            pygame.draw.polygon(
                surface,
                (255, 215, 90),
                [
                    (card.centerx - 6, card.bottom + 1),
                    (card.centerx + 6, card.bottom + 1),
                    (card.centerx, card.bottom - 6),
                ],
            )
        red = entry.card and any(s in entry.label for s in ("\u2665", "\u2666"))
        ink = (160, 20, 20) if red else (30, 18, 8)
        self._label_and_name(surface, card, band.bottom + 1, label=entry.label, ink=ink, name=name)
        if entry.acted:
            pygame.draw.line(surface, (90, 60, 30), card.topleft, card.bottomright, 2)

    def _label_and_name(
        self, surface: pygame.Surface, card: pygame.Rect, top: int, *, label: str, ink: RGB, name: str
    ) -> None:
        """The label (bold) and the name under it in the room left, the largest type that holds both: the
        label on one line, else two; the name on one line, else two."""
        height = card.bottom - 3 - top
        room = card.width - 8
        big_sizes = list(range(max(11, self.px(15)), 7, -1))
        small_sizes = list(range(max(9, self.px(12)), 7, -1))
        best: tuple[pygame.font.Font, list[str], pygame.font.Font, list[str]] | None = None
        for label_lines in (1, 2):
            for big in big_sizes:
                head = self.face(big, True)
                rows = break_lines(head, label, room, label_lines)
                if rows is None:
                    continue
                left = height - len(rows) * head.get_linesize()
                for small in small_sizes:
                    if small > big:
                        continue
                    foot = self.face(small, False)
                    most = max(0, left // foot.get_linesize())
                    names = break_lines(foot, name, room, min(2, most)) if most else None
                    if names is not None:
                        best = (head, rows, foot, names)
                        break
                if best is not None:
                    break
            if best is not None:
                break
        if best is None:  # no type holds both: the label at the smallest type, the name left out
            head = self.face(big_sizes[-1], True)
            best = (head, [label], head, [])
        head, rows, foot, names = best
        y = top
        for row in rows:
            y = self.blit(surface, head, row, ink, room, midtop=(card.centerx, y)).y + head.get_linesize()
        y = card.bottom - 3 - len(names) * foot.get_linesize()
        for row in names:
            self.blit(surface, foot, row, (40, 26, 12), room, midtop=(card.centerx, y))
            y += foot.get_linesize()
