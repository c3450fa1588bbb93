"""A few lines of the panel's HTML drawn with pygame: ``<b>``, ``<i>``, ``<font size=N color=...>``, ``<br>``
and the three escapes :func:`~game.ui.battle_words.esc` writes.

pygame-gui's text box parses and lays out its text again on every change, and builds a scroll bar (tens of
milliseconds) whenever the text is taller than the box: the unit panel changed after every command (its AP
pips) and paid that each time. This renders the same markup in a few hundred microseconds; what does not
fit is scrolled with the mouse wheel rather than a scroll bar.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import pygame

from game.ui.gui import display_font

__all__ = ["RichText", "render_rich"]

_TOKEN = re.compile(r"<(/?)(b|i|font|br)\b([^>]*)>|([^<]+)|(<)", re.IGNORECASE)
_ATTR = re.compile(r"(\w+)\s*=\s*['\"]?([^'\" >]+)['\"]?")
_ESCAPES = (("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&"))
# pygame-gui's HTML font sizes (1-7) as multiples of the text size (its size 4 is the theme's text size)
_SIZES = {1: 0.54, 2: 0.67, 3: 0.8, 4: 1.0, 5: 1.35, 6: 1.6, 7: 2.4}


_Piece = tuple[pygame.Surface, int, int]  # a word's picture, its x, its ascent


@dataclass(frozen=True, slots=True)
class _Style:
    bold: bool = False
    italic: bool = False
    size: int = 4
    color: tuple[int, int, int] | None = None


@functools.cache
def _face(points: int, bold: bool, italic: bool) -> pygame.font.Font:
    return display_font(points, bold=bold, italic=italic)


@functools.lru_cache(maxsize=2048)
def _word(word: str, face: pygame.font.Font, ink: tuple[int, int, int]) -> pygame.Surface:
    """A word rendered once: the panel says mostly the same words from one command to the next."""
    return face.render(word, True, ink)


def _unescape(text: str) -> str:
    for code, char in _ESCAPES:
        text = text.replace(code, char)
    return text


def _runs(html: str) -> list[list[tuple[str, _Style]]]:
    """The markup as lines (split at ``<br>``), each a list of (text, style) runs."""
    lines: list[list[tuple[str, _Style]]] = [[]]
    stack = [_Style()]
    for closing, tag, attrs, text, stray in _TOKEN.findall(html):
        style = stack[-1]
        if text or stray:
            lines[-1].append((_unescape(text or stray), style))
            continue
        name = tag.lower()
        if name == "br":
            lines.append([])
        elif closing:
            if len(stack) > 1:
                stack.pop()
        elif name == "b":
            stack.append(_Style(True, style.italic, style.size, style.color))
        elif name == "i":
            stack.append(_Style(style.bold, True, style.size, style.color))
        else:  # font
            found = {k.lower(): v for k, v in _ATTR.findall(attrs)}
            size = int(found["size"]) if found.get("size", "").isdigit() else style.size
            color = style.color
            value = found.get("color", "").lstrip("#")
            if len(value) == 6:
                color = (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))
            stack.append(_Style(style.bold, style.italic, max(1, min(7, size)), color))
    return lines


def render_rich(html: str, points: int, width: int, color: tuple[int, int, int]) -> pygame.Surface:
    """``html`` laid out to ``width`` pixels in the display serif at ``points`` (its size 4), as one
    transparent picture as tall as the text."""
    rows: list[tuple[list[_Piece], int, int]] = []  # (the row's pieces, its height, its ascent)
    for line in _runs(html):
        row: list[tuple[pygame.Surface, int, int]] = []  # picture, x, ascent
        x = 0
        for text, style in line:
            face = _face(max(6, round(points * _SIZES[style.size])), style.bold, style.italic)
            ink = style.color or color
            for word in re.split(r"(\s+)", text):
                if not word:
                    continue
                w = face.size(word)[0]
                if x + w > width and x > 0 and not word.isspace():
                    rows.append(_row(row))
                    row, x = [], 0
                if word.isspace() and x == 0:
                    continue
                row.append((_word(word, face, ink), x, face.get_ascent()))
                x += w
        if not row:  # an empty line keeps its height
            face = _face(points, False, False)
            row.append((pygame.Surface((1, face.get_linesize()), pygame.SRCALPHA), 0, face.get_ascent()))
        rows.append(_row(row))
    height = sum(h for _pieces, h, _a in rows)
    picture = pygame.Surface((max(1, width), max(1, height)), pygame.SRCALPHA)
    y = 0
    for pieces, h, ascent in rows:
        picture.fblits([(surface, (x, y + ascent - a)) for surface, x, a in pieces])
        y += h
    return picture


def _row(
    row: list[tuple[pygame.Surface, int, int]],
) -> tuple[list[tuple[pygame.Surface, int, int]], int, int]:
    ascent = max(a for _s, _x, a in row)
    below = max(s.get_height() - a for s, _x, a in row)
    return row, ascent + below + 4, ascent


class RichText:
    """A text box's rows: the markup rendered once per text and width, shown from ``scroll`` pixels down."""

    def __init__(self, points: int, color: tuple[int, int, int]) -> None:
        self.points = points
        self.color = color
        self.html = ""
        self.scroll = 0
        self._whole: pygame.Surface | None = None
        self._for: tuple[str, int] | None = None

    def set(self, html: str) -> bool:
        """A new text (the view back at its top); False when it is the text already shown."""
        if html == self.html:
            return False
        self.html = html
        self.scroll = 0
        return True

    def picture(self, size: tuple[int, int]) -> pygame.Surface:
        """What the box shows at ``size``: the text from ``scroll`` down, a scroll mark when it overflows."""
        width, height = size
        if self._for != (self.html, width):
            self._whole = render_rich(self.html, self.points, max(1, width - 8), self.color)
            self._for = (self.html, width)
        whole = self._whole
        assert whole is not None
        self.scroll = max(0, min(self.scroll, whole.get_height() - height))
        view = pygame.Surface((max(1, width), max(1, height)), pygame.SRCALPHA)
        view.blit(whole, (0, -self.scroll))
        if whole.get_height() > height:
            h = max(12, height * height // whole.get_height())
            top = self.scroll * (height - h) // max(1, whole.get_height() - height)
            pygame.draw.rect(view, (0x7A, 0x52, 0x30), (width - 5, top, 4, h), border_radius=2)
        return view
