"""The combat log's lines on screen, drawn with pygame and only appended to (issue 13: "append to the log").

pygame-gui's text box parses and lays out its whole text again whenever one line is added (30-80 ms for
the 120 lines the panel shows): the first frame after every command paid for it. Here each line is wrapped
and rendered once, when it arrives; a frame blits the rows in view from one cached picture, painted again
only when a line arrives or the log is scrolled. The box around the rows (its parchment and frame) is still
the theme's empty ``#log_box`` text box.

A line is re-laid out only when the log itself changed behind it (an undo note cannot do that; a walk's
line growing from "moves 1 hex" to "moves 3 hexes" replaces the newest line: only that one is redone), and
the whole view only when neither is the case (a new battle's log, a new width).

A computer player's line (one with a ``detail``) is a link: its pieces (a long line wraps) are where the
pointer shows the line's tooltip; each link keeps its name for as long as the line is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from game.ui.battle_words import KIND_COLOR, KIND_MARK, LINK_PREFIX, LOG_SHOWN, esc
from game.ui.combatlog import LogLine

__all__ = ["LogRow", "LogView"]

TEXT_COLOR = (0x34, 0x21, 0x10)
LINK_COLOR = (0x1F, 0x3F, 0x6B)
BAR_COLOR = (0x7A, 0x52, 0x30)
PAD = 4  # pixels between the box's frame and the text
LOOK_BACK = 2 * LOG_SHOWN  # lines searched back from the end of the log for the newest line shown


def _rgb(text: str) -> tuple[int, int, int]:
    value = text.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


@dataclass(slots=True)
class LogRow:
    """One laid-out row of a line: its picture, its height and the link it belongs to ("" when none)."""

    picture: pygame.Surface
    href: str


class LogView:
    """The rows of the combat log inside ``rect`` (window coordinates) in ``face``."""

    def __init__(self, face: pygame.font.Font, rect: pygame.Rect) -> None:
        self.face = face
        self.rect = pygame.Rect(rect)
        self.line_h = face.get_linesize() * 4 // 3  # the spacing pygame-gui's text box had
        self.lines: list[LogLine] = []  # the lines laid out, oldest first (the newest LOG_SHOWN at most)
        self.rows: list[list[LogRow]] = []  # each line's rows, in the same order
        self.details: dict[str, str] = {}  # a linked line's name -> its tooltip (HTML)
        self.scroll = 0  # pixels scrolled up from the newest row (0: the newest row at the bottom)
        self.laid_out = 0  # lines wrapped and rendered so far (a test's count of the work done)
        self.resets = 0  # times the whole view was laid out again
        self._serial = 0
        self._picture: pygame.Surface | None = None

    # -- taking the log in ------------------------------------------------------------------------------
    def sync(self, log: Sequence[LogLine]) -> None:
        """Take in what is new in ``log`` since the last call (see the module text)."""
        if self.lines and log and log[-1] is self.lines[-1]:
            return
        at = self._find(log, self.lines[-1]) if self.lines else None
        if at is not None:
            self._append(log[at + 1 :])
            return
        before = self._find(log, self.lines[-2]) if len(self.lines) > 1 else None
        if before is not None and before + 1 < len(log):  # the newest line was replaced
            self._drop_last()
            self._append(log[before + 1 :])
            return
        self._reset(log)

    @staticmethod
    def _find(log: Sequence[LogLine], line: LogLine) -> int | None:
        for i in range(len(log) - 1, max(-1, len(log) - 1 - LOOK_BACK), -1):
            if log[i] is line:
                return i
        return None

    def _reset(self, log: Sequence[LogLine]) -> None:
        self.lines, self.rows, self.details = [], [], {}
        self.scroll = 0
        self.resets += 1
        self._append(log[-LOG_SHOWN:])

    def _drop_last(self) -> None:
        self.lines.pop()
        for row in self.rows.pop():
            self.details.pop(row.href, None)
        self._picture = None

    def _append(self, new: Sequence[LogLine]) -> None:
        if not new:
            return
        for line in new[-LOG_SHOWN:]:
            self.lines.append(line)
            self.rows.append(self._lay_out(line))
        drop = len(self.lines) - LOG_SHOWN
        if drop > 0:
            for rows in self.rows[:drop]:
                for row in rows:
                    self.details.pop(row.href, None)
            del self.lines[:drop], self.rows[:drop]
        self._picture = None

    def _lay_out(self, line: LogLine) -> list[LogRow]:
        """``line`` wrapped to the box's width, each row rendered once."""
        self.laid_out += 1
        href = ""
        if line.detail:
            self._serial += 1
            href = f"{LINK_PREFIX}{self._serial}"
            self.details[href] = "<br>".join(esc(row) for row in line.detail.splitlines())
        color = LINK_COLOR if href else _rgb(KIND_COLOR[line.kind]) if line.kind in KIND_COLOR else TEXT_COLOR
        text = f"{KIND_MARK.get(line.kind, chr(0xB7))} {line.text}"
        width = max(20, self.rect.width - 2 * PAD - 8)
        rows: list[LogRow] = []
        for piece in _wrap(self.face, text, width):
            picture = self.face.render(piece, True, color)
            if href:  # a link reads as one: underlined
                y = self.face.get_ascent() + 2
                pygame.draw.line(picture, color, (0, y), (picture.get_width(), y))
            rows.append(LogRow(picture, href))
        return rows

    # -- scrolling ----------------------------------------------------------------------------------------
    @property
    def content_height(self) -> int:
        return sum(len(rows) for rows in self.rows) * self.line_h

    @property
    def view_height(self) -> int:
        return max(1, self.rect.height - 2 * PAD)

    def scroll_by(self, rows: int) -> None:
        """Scroll ``rows`` rows up (towards older lines; negative: down towards the newest)."""
        most = max(0, self.content_height - self.view_height)
        scroll = max(0, min(most, self.scroll + rows * self.line_h))
        if scroll != self.scroll:
            self.scroll = scroll
            self._picture = None

    def move_to(self, rect: pygame.Rect, face: pygame.font.Font) -> None:
        """A new place (a new window size or UI scale): laid out again only if the width or font changed."""
        relayout = rect.width != self.rect.width or face is not self.face
        self.rect = pygame.Rect(rect)
        if relayout:
            self.face = face
            self.line_h = face.get_linesize() * 4 // 3  # the spacing pygame-gui's text box had
            lines = self.lines
            self.lines, self.rows, self.details = [], [], {}
            self._append(lines)
        self._picture = None

    # -- where the rows are -------------------------------------------------------------------------------
    def _placed(self) -> list[tuple[LogRow, int]]:
        """The rows in view with their y inside the box's text area (from its top)."""
        flat = [row for rows in self.rows for row in rows]
        top = self.content_height - self.view_height - self.scroll  # the first pixel row in view
        top = max(top, 0)  # fewer rows than the box holds: they start at its top
        first = top // self.line_h
        out = []
        for i in range(first, len(flat)):
            y = i * self.line_h - top
            if y >= self.view_height:
                break
            out.append((flat[i], y))
        return out

    def link_pieces(self) -> list[tuple[str, pygame.Rect]]:
        """Each piece of a linked line fully in view and where it is on screen."""
        inner = self.text_rect
        x, y = inner.topleft
        gap = (self.line_h - self.face.get_linesize()) // 2
        pieces = []
        for row, ry in self._placed():
            if row.href:
                rect = pygame.Rect((x, y + ry + gap), row.picture.get_size())
                if inner.contains(rect):
                    pieces.append((row.href, rect))
        return pieces

    # -- drawing ------------------------------------------------------------------------------------------
    def picture(self) -> pygame.Surface | None:
        """The rows in view and a scroll mark, the size of the box's text area, painted again only when
        something changed since the last call (None: unchanged)."""
        if self._picture is not None:
            return None
        size = (max(1, self.rect.width - 2 * PAD), self.view_height)
        picture = pygame.Surface(size, pygame.SRCALPHA)
        gap = (self.line_h - self.face.get_linesize()) // 2
        picture.fblits([(row.picture, (0, y + gap)) for row, y in self._placed()])
        content = self.content_height
        if content > self.view_height:  # where the view is in the whole log
            h = max(12, self.view_height * self.view_height // content)
            room = max(1, content - self.view_height)
            top = (content - self.view_height - self.scroll) * (self.view_height - h) // room
            pygame.draw.rect(picture, BAR_COLOR, (size[0] - 5, top, 4, h), border_radius=2)
        self._picture = picture
        return picture

    @property
    def text_rect(self) -> pygame.Rect:
        """Where the rows are drawn (window coordinates)."""
        return self.rect.inflate(-2 * PAD, -2 * PAD)


def _wrap(face: pygame.font.Font, text: str, width: int) -> list[str]:
    """``text`` in rows of at most ``width`` pixels, broken between words (a word too long for a row is
    broken where it must be)."""
    if face.size(text)[0] <= width:
        return [text]
    rows: list[str] = []
    current = ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if face.size(candidate)[0] <= width:
            current = candidate
            continue
        if current:
            rows.append(current)
        current = word
        while face.size(current)[0] > width and len(current) > 1:
            cut = len(current) - 1
            while cut > 1 and face.size(current[:cut])[0] > width:
                cut -= 1
            rows.append(current[:cut])
            current = current[cut:]
    rows.append(current)
    return rows
