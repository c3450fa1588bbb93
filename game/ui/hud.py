"""The status line under the map: a parchment strip in a wood frame, its text rendered once per change."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import pygame

from game.resources import ResourceError, serif_font
from game.ui import settings
from game.ui.terrain import HexReport


class TextCache:
    """Rendered text surfaces by (text, colour, bold) in the bundled serif; fonts loaded once."""

    def __init__(self, size: int, limit: int = 256) -> None:
        self.size = size
        self._regular = _load_font(size, bold=False)
        self._bold = _load_font(size, bold=True)
        self._cache: OrderedDict[tuple[str, tuple[int, int, int], bool], pygame.Surface] = OrderedDict()
        self._limit = limit

    def render(self, text: str, color: tuple[int, int, int], bold: bool = False) -> pygame.Surface:
        key = (text, color, bold)
        surface = self._cache.get(key)
        if surface is None:
            font = self._bold if bold else self._regular
            surface = font.render(text, True, color)
            self._cache[key] = surface
            while len(self._cache) > self._limit:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        return surface

    @property
    def line_height(self) -> int:
        return self._regular.get_linesize()


def _load_font(size: int, *, bold: bool) -> pygame.font.Font:
    try:
        return pygame.font.Font(serif_font(bold=bold), size)
    except (OSError, pygame.error, ResourceError):  # the bundled font is missing (a broken install)
        font = pygame.font.Font(None, round(size * 1.3))
        font.bold = bold
        return font


@dataclass(frozen=True, slots=True)
class Segment:
    text: str
    color: tuple[int, int, int] = settings.STATUS_TEXT
    bold: bool = False


SEPARATOR = Segment("  \u2022  ", settings.STATUS_TEXT_DIM)


def status_segments(report: HexReport | None, idle_text: str) -> list[Segment]:
    """The words of the status line for a hovered hex (or the idle hint when no hex is hovered)."""
    if report is None:
        return [Segment(idle_text, settings.STATUS_TEXT_DIM)]
    segments = [
        Segment(f"Hex {report.col},{report.row}", bold=True),
        Segment(f"  (q {report.hex.q}, r {report.hex.r})", settings.STATUS_TEXT_DIM),
        SEPARATOR,
        Segment(report.terrain.replace("_", " ").capitalize(), bold=True),
        SEPARATOR,
        Segment(f"Cover: {report.cover}"),
        SEPARATOR,
        Segment(
            "Move: \u2014" if report.impassable or report.move_cost is None else f"Move: {report.move_cost}"
        ),
    ]
    if report.door is not None:
        segments += [SEPARATOR, Segment(f"Door ({report.door})", bold=True)]
    if report.items:
        segments += [SEPARATOR, Segment("Item: " + ", ".join(report.items))]
    if report.impassable and report.door is None:
        segments += [SEPARATOR, Segment("Impassable", settings.STATUS_WARN, bold=True)]
    if report.blocks_sight:
        segments += [SEPARATOR, Segment("Blocks sight", settings.STATUS_WARN, bold=True)]
    return segments


def status_text(report: HexReport | None, idle_text: str) -> str:
    """The status line as plain text (what a screen reader or a test sees)."""
    return "".join(s.text for s in status_segments(report, idle_text))


class StatusBar:
    """Draws the status line; the frame is pre-rendered per width and the line per content."""

    def __init__(self) -> None:
        self.text = TextCache(settings.STATUS_FONT_SIZE)
        self._frame: pygame.Surface | None = None
        self._line_key: tuple[tuple[Segment, ...], str] | None = None
        self._line: pygame.Surface | None = None
        self.current_text = ""

    def _frame_for(self, width: int) -> pygame.Surface:
        if self._frame is None or self._frame.get_width() != width:
            h = settings.STATUS_HEIGHT
            frame = pygame.Surface((width, h))
            frame.fill(settings.STATUS_BG)
            # a soft lower band gives the parchment some depth
            pygame.draw.rect(frame, settings.STATUS_BG_SHADE, (0, h - 8, width, 8))
            pygame.draw.rect(frame, settings.STATUS_BORDER, (0, 0, width, 4))
            pygame.draw.line(frame, settings.STATUS_BORDER_LIGHT, (0, 1), (width, 1))
            pygame.draw.line(frame, settings.STATUS_BORDER, (0, h - 1), (width, h - 1))
            self._frame = frame
        return self._frame

    def draw(
        self, surface: pygame.Surface, rect: pygame.Rect, segments: list[Segment], right_text: str
    ) -> None:
        surface.blit(self._frame_for(rect.width), rect.topleft)
        key = (tuple(segments), right_text)
        if key != self._line_key:
            self._line_key = key
            self.current_text = "".join(s.text for s in segments)
            parts = [self.text.render(s.text, s.color, s.bold) for s in segments]
            right = self.text.render(right_text, settings.STATUS_TEXT_DIM)
            height = max([p.get_height() for p in parts] + [right.get_height()])
            line = pygame.Surface((rect.width, height), pygame.SRCALPHA, 32)
            x = 14
            for part in parts:
                line.blit(part, (x, (height - part.get_height()) // 2))
                x += part.get_width()
            line.blit(right, (rect.width - right.get_width() - 14, (height - right.get_height()) // 2))
            self._line = line
        assert self._line is not None
        y = rect.y + 4 + (rect.height - 4 - self._line.get_height()) // 2
        surface.blit(self._line, (rect.x, y))
