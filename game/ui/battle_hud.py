"""The battle screen's frame around the map, drawn with pygame: where everything goes (:class:`Layout`), the
initiative tracker, the status line, the prompt banner and the hand-over cover, plus the text helpers the
battle modules share (the display serif at a size, text cut or wrapped to a width).

What it shows comes from the :class:`~game.ui.controller.BattleController`; the widgets (unit panel, log,
action bar) are :mod:`game.ui.battle_widgets`', the map and what lies on it :mod:`game.ui.battle_board`'s.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import pygame

from game.ui import settings
from game.ui.controller import BattleController
from game.ui.gui import display_font
from game.ui.layout_fit import break_lines, wrap
from game.ui.tracker_cards import DrawnText, TrackerPainter, side_colour_of

__all__ = [
    "ACTION_BAR_H",
    "PANEL_W",
    "STATUS_H",
    "TRACKER_H",
    "BattleHud",
    "Layout",
    "fit_text",
    "font",
    "wrap",
]

TRACKER_H = 62
TRACKER_BG = (60, 38, 20)
CARD_PICTURES = 200  # tracker cards kept painted (each ~30 KB), for every unit's few looks
ACTION_BAR_H = 100
STATUS_H = 30
PANEL_W = 318


@dataclass(frozen=True, slots=True)
class Layout:
    """Where everything goes for a window size (at UI scale ``s``); ``bar_extra`` pixels more for the
    action bar when its buttons need more rows than its usual height holds (the map gives them up)."""

    size: tuple[int, int]
    s: float
    bar_extra: int = 0

    def px(self, v: float) -> int:
        return round(v * self.s)

    @property
    def panel(self) -> pygame.Rect:
        w, h = self.size
        return pygame.Rect(w - self.px(PANEL_W), 0, self.px(PANEL_W), h - self.px(STATUS_H))

    @property
    def tracker(self) -> pygame.Rect:
        return pygame.Rect(0, 0, self.size[0] - self.px(PANEL_W), self.px(TRACKER_H))

    @property
    def bar(self) -> pygame.Rect:
        w, h = self.size
        top = h - self.px(STATUS_H) - self.px(ACTION_BAR_H) - self.bar_extra
        return pygame.Rect(0, top, w - self.px(PANEL_W), self.px(ACTION_BAR_H) + self.bar_extra)

    @property
    def status(self) -> pygame.Rect:
        w, h = self.size
        return pygame.Rect(0, h - self.px(STATUS_H), w, self.px(STATUS_H))

    @property
    def map(self) -> pygame.Rect:
        top = self.tracker.bottom
        return pygame.Rect(0, top, max(1, self.size[0] - self.px(PANEL_W)), max(1, self.bar.top - top))


@functools.cache
def font(size: int, bold: bool = True) -> pygame.font.Font:
    """The display serif at a size, loaded once (loading a font file costs more than a frame's text)."""
    return display_font(size, bold=bold)


def fit_text(face: pygame.font.Font, text: str, width: int) -> str:
    """``text`` cut to ``width`` pixels, with an ellipsis when cut."""
    if face.size(text)[0] <= width:
        return text
    while text and face.size(text + "\u2026")[0] > width:
        text = text[:-1]
    return text.rstrip() + "\u2026"


class BattleHud:
    """Draws the tracker, the status line, the prompt banner and the hand-over cover for ``layout`` (the
    screen sets it whenever its size or UI scale changes). Each keeps its last picture while what it shows
    is unchanged."""

    def __init__(self, controller: BattleController, layout: Layout) -> None:
        self.controller = controller
        self.layout = layout
        self._tracker_cache: tuple[object, pygame.Surface] | None = None
        self._status_cache: tuple[object, pygame.Surface] | None = None
        self.status_drawn: list[DrawnText] = []  # the status line's rows as last painted (fit tests)
        self._banner_cache: tuple[object, tuple[pygame.Rect, pygame.Surface]] | None = None
        self._card_pictures: dict[object, tuple[pygame.Surface, list[DrawnText]]] = {}  # _paint_tracker
        self._cover_texts: dict[object, tuple[pygame.Surface, pygame.Surface]] = {}  # see draw_handover
        self.drawn: list[DrawnText] = []  # the tracker's texts as last painted, with their room (fit tests)
        self.cards: list[tuple[int, pygame.Rect]] = []  # each unit's tracker card, in the tracker's frame

    @property
    def scale(self) -> float:
        return self.layout.s

    # -- the initiative tracker -------------------------------------------------------------------------
    def draw_tracker(self, surface: pygame.Surface) -> None:
        rect = self.layout.tracker
        key = (self.controller.state_key(), rect.size, self.scale)
        if self._tracker_cache is None or self._tracker_cache[0] != key:
            picture = pygame.Surface(rect.size)
            self._paint_tracker(picture, picture.get_rect())
            self._tracker_cache = (key, picture)
        surface.blit(self._tracker_cache[1], rect)

    def _paint_tracker(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        match = self.controller.match
        pygame.draw.rect(surface, TRACKER_BG, rect)
        pygame.draw.line(surface, (150, 102, 58), rect.bottomleft, rect.bottomright, 3)
        entries = match.tracker()
        big = font(max(11, round(15 * self.scale)), bold=True)
        small = font(max(9, round(12 * self.scale)), bold=False)
        painter = TrackerPainter(font, self.scale)
        note = match.tracker_note()  # the ruleset's words beside the order (a deck's cards left), or ""
        if note:
            room = rect.width // 3
            rows = wrap(small, note, room)[:2]
            wide = max(small.size(r)[0] for r in rows)
            rect = pygame.Rect(rect.x, rect.y, rect.width - wide - 16, rect.height)
            y = rect.centery - len(rows) * small.get_linesize() // 2
            for row in rows:
                painter.blit(surface, small, row, (233, 216, 178), room, topleft=(rect.right + 8, y))
                y += small.get_linesize()
        x = rect.x + 8
        h = rect.height - 12
        band = font(max(8, round(10 * self.scale)), bold=False)
        widest = max(
            (
                max(
                    big.size(e.label)[0],
                    small.size(match.identity(e.unit).name)[0],
                    band.size(self.controller.side_names.get(match.identity(e.unit).side, ""))[0],
                )
                for e in entries
            ),
            default=0,
        )
        w = max(round(70 * self.scale), min(round(150 * self.scale), widest + 18))
        if entries and x + w * len(entries) > rect.right - 8:
            w = max(12, (rect.right - 8 - x) // len(entries))  # a narrow window: every card, narrower
        names = self.controller.side_names
        sides = self.controller.sides
        if len(self._card_pictures) > CARD_PICTURES:
            self._card_pictures.clear()
        for e in entries:
            card = pygame.Rect(x, rect.y + 6, w - 6, h)
            side = match.identity(e.unit).side
            colour = side_colour_of(match, sides, side)
            name = match.identity(e.unit).name
            posse = names.get(side, side)
            # each card painted once for what it shows (a command changes one or two of them: the tracker
            # was ~0.8 ms of every command's frame, issue 13), on the tracker's ground as it would be
            key = (e, name, posse, colour, card.size, self.scale)
            picture = self._card_pictures.get(key)
            if picture is None:
                alone = TrackerPainter(font, self.scale)
                ground = pygame.Surface((card.width + 2, card.height + 2))  # its marks reach 1-2 px out
                ground.fill(TRACKER_BG)
                alone.card(ground, pygame.Rect((0, 0), card.size), e, name=name, posse=posse, colour=colour)
                picture = self._card_pictures[key] = (ground, alone.drawn)
            surface.blit(picture[0], card.topleft)
            painter.drawn.extend(picture[1])
            painter.cards.append((e.unit, card.copy()))
            x += w
        self.drawn, self.cards = painter.drawn, painter.cards

    # -- the status line --------------------------------------------------------------------------------
    def draw_status(self, surface: pygame.Surface) -> None:
        rect = self.layout.status
        pygame.draw.rect(surface, settings.STATUS_BG, rect)
        pygame.draw.line(surface, settings.STATUS_BORDER, rect.topleft, rect.topright, 2)
        line = self.controller.status_text()
        key = (line, rect.size)
        if self._status_cache is None or self._status_cache[0] != key:
            self._status_cache = (key, self._paint_status(line, rect))
        text = self._status_cache[1]
        surface.blit(text, text.get_rect(midleft=(rect.x + 10, rect.centery)))

    def _paint_status(self, line: str, rect: pygame.Rect) -> pygame.Surface:
        """The status line (the odds while aiming) in the largest type that holds it on one line, else on
        two; cut only when even the smallest type on two lines cannot hold it."""
        room = rect.width - 20
        sizes = list(range(max(10, round(15 * self.scale)), 9, -1))
        chosen: tuple[pygame.font.Font, list[str]] | None = None
        for lines in (1, 2):
            for points in sizes:
                face = font(points, bold=False)
                if lines * face.get_linesize() > rect.height - 2:
                    continue
                rows = break_lines(face, line, room, lines)
                if rows is not None:
                    chosen = (face, rows)
                    break
            if chosen is not None:
                break
        if chosen is None:
            face = font(sizes[-1], bold=False)
            chosen = (face, [fit_text(face, line, room)])
        face, rows = chosen
        picture = pygame.Surface((room, len(rows) * face.get_linesize()), pygame.SRCALPHA)
        self.status_drawn = []
        for i, row in enumerate(rows):
            shown = face.render(row, True, settings.STATUS_TEXT)
            self.status_drawn.append(DrawnText(row, shown.get_width(), room))
            picture.blit(shown, (0, i * face.get_linesize()))
        return picture

    # -- the prompt banner ------------------------------------------------------------------------------
    def banner_rect(self) -> pygame.Rect | None:
        """Where the prompt banner is drawn (None: no prompt now)."""
        banner = self._banner()
        return banner[0] if banner is not None else None

    def _banner(self) -> tuple[pygame.Rect, pygame.Surface] | None:
        """The prompt banner's place and picture, painted once per prompt, map area and scale."""
        prompt = self.controller.prompt()
        if prompt is None or self.controller.handover:
            return None
        area = self.layout.map
        key = (prompt, area, self.scale)
        if self._banner_cache is not None and self._banner_cache[0] == key:
            return self._banner_cache[1]
        width = min(area.width - 24, round(820 * self.scale))
        head = font(max(12, round(19 * self.scale)))
        face = font(max(10, round(15 * self.scale)), bold=False)
        rows = wrap(face, prompt.text, width - 28)[:4]
        rect = pygame.Rect(0, 0, width, 14 + head.get_linesize() + len(rows) * face.get_linesize() + 10)
        picture = pygame.Surface((rect.width + 3, rect.height + 4), pygame.SRCALPHA)
        pygame.draw.rect(picture, (30, 18, 8, 110), rect.move(3, 4), border_radius=8)  # its shadow
        pygame.draw.rect(picture, (245, 236, 214), rect, border_radius=8)
        pygame.draw.rect(picture, (140, 30, 20), rect, 3, border_radius=8)
        pygame.draw.rect(picture, (140, 30, 20), pygame.Rect(0, 0, 8, rect.height), border_radius=8)
        title = head.render(fit_text(head, prompt.title, width - 28), True, (140, 30, 20))
        picture.blit(title, (18, 7))
        y = 7 + head.get_linesize()
        for row in rows:
            picture.blit(face.render(row, True, (52, 33, 16)), (18, y))
            y += face.get_linesize()
        banner = (rect.move(area.centerx - width // 2, area.y + 8), picture)
        self._banner_cache = (key, banner)
        return banner

    def draw_banner(self, surface: pygame.Surface) -> pygame.Rect | None:
        """The prompt: what set off the decision waiting now and what can be done (a reaction window,
        the hits to assign, the Joker), over the top of the map."""
        banner = self._banner()
        if banner is None:
            return None
        rect, picture = banner
        surface.blit(picture, rect)
        return rect

    # -- the hand-over cover ----------------------------------------------------------------------------
    def draw_handover(self, surface: pygame.Surface) -> None:
        """The cover between two players' turns ("Pass to ..."), painted straight on the window (a
        window-sized picture of it cost ~2 ms to make) with its texts rendered once for each side and
        scale (issue 13: the frame after a hand-over took 2-5 ms more than others)."""
        w, h = surface.get_size()
        surface.fill((28, 20, 14))
        for y in range(0, h, 6):
            surface.fill((36, 26, 18), pygame.Rect(0, y, w, 1))
        side = self.controller.session.deciding_side() or ""
        name = self.controller.side_names.get(side, side)
        key = (name, self.scale)
        texts = self._cover_texts.get(key)
        if texts is None:
            big = font(max(24, round(48 * self.scale)))
            small = font(max(12, round(20 * self.scale)), bold=False)
            title = big.render(f"Pass to {name}", True, (245, 236, 214))
            hint = small.render(
                "The board is hidden. Click or press Enter when you have the seat.", True, (214, 192, 146)
            )
            texts = self._cover_texts[key] = (title, hint)
        title, hint = texts
        surface.blit(title, title.get_rect(center=(w // 2, h // 2 - 30)))
        surface.blit(hint, hint.get_rect(center=(w // 2, h // 2 + 24)))
