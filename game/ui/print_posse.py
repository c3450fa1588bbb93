"""``hexslinger print-posse POSSE``: a posse on paper -- a card per unit and cut-out tokens.

A card holds what the table needs while playing that unit: its name and token, its profile as a table
(Frontier's stat line, a Rifter's resolve and action points, a Golden Frontiers character's trait dice),
its weapons with their ranges, and the rulebook's own words for each of its abilities, actions, traits and
talents. What goes on a card is the ruleset's (:meth:`game.engine.builder.PosseBuilder.card`); this module
only lays it out: four cards to a sheet, the type made smaller on a card that would not fit otherwise.

The tokens are the game's own (:class:`game.ui.tokens.TokenArt`), 1 inch across so one stands in a printed
hex, each beside its "out of action" face, with a cutting circle around each.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from fpdf import FPDF
from PIL import Image

from game.engine.builder import Sheet, SheetSection
from game.posses import PosseDraft, builder_for
from game.ui.print_pdf import FONT, INCH, MARGIN, Paper, new_document, surface_to_image
from game.ui.render import ensure_pygame
from game.ui.tokens import TokenArt, icon_key, side_color

__all__ = ["CARD_GAP", "TOKEN", "PossePrint", "write_posse_pdf"]

CARD_GAP: Final = 10.0  # between cards on a sheet
TOKEN: Final = INCH  # a token's base, to stand in a printed 1-inch hex
TOKEN_PX: Final = 300  # the token picture's base in pixels (300 dpi on paper)
HEAD: Final = 0.78 * INCH  # a card's title band
PAD: Final = 7.0
SCALES: Final = (1.0, 0.92, 0.84, 0.76, 0.68, 0.6)  # type sizes tried until a card's text fits
READABLE: Final = 0.84  # the smallest type scale more cards to a sheet may cost
INK: Final = (35, 28, 22)


@dataclass(frozen=True, slots=True)
class PossePrint:
    """What :func:`write_posse_pdf` wrote: the pages, the cards and the tokens."""

    pages: int
    cards: int
    tokens: int


@dataclass(frozen=True, slots=True)
class _Card:
    name: str
    sheet: Sheet
    icon: str
    color: tuple[int, int, int]


class _Layout:
    def __init__(self, pdf: FPDF, paper: Paper) -> None:
        self.pdf = pdf
        self.paper = paper
        w, h = paper.size(False)
        self.area = (MARGIN, MARGIN + 16, w - 2 * MARGIN, h - 2 * MARGIN - 16)
        self.card_w = (self.area[2] - CARD_GAP) / 2
        self.rows = 2
        self.art = TokenArt.shared()

    @property
    def card_h(self) -> float:
        return (self.area[3] - (self.rows - 1) * CARD_GAP) / self.rows

    def fit(self, sheet: Sheet) -> float | None:
        """The largest type scale at which ``sheet`` fits a card of this layout (None: none does)."""
        room = self.card_h - HEAD - 2 * PAD
        width = self.card_w - 2 * PAD
        return next((s for s in SCALES if self.body(sheet, 0, 0, width, s, dry=True) <= room), None)

    def choose_rows(self, sheets: list[Sheet]) -> None:
        """As many cards to a sheet as let every card keep a readable type size (2 to 4 rows of two)."""
        for rows in (4, 3, 2):
            self.rows = rows
            if all((self.fit(s) or 0) >= READABLE for s in sheets):
                return

    def split(self, card: _Card) -> list[_Card]:
        """``card``, or -- when it would need type smaller than :data:`READABLE` -- its sections shared
        over as many cards as keep that size (the later ones "continued"; a section too long for one card
        alone goes on a card of its own, in smaller type)."""
        if (self.fit(card.sheet) or 0) >= READABLE:
            return [card]
        room = self.card_h - HEAD - 2 * PAD
        width = self.card_w - 2 * PAD
        parts: list[list[SheetSection]] = [[]]
        for section in card.sheet.sections:
            trial = Sheet(card.sheet.subtitle, (*parts[-1], section))
            if parts[-1] and self.body(trial, 0, 0, width, READABLE, dry=True) > room:
                parts.append([])
            parts[-1].append(section)
        return [
            replace(
                card,
                name=card.name if i == 0 else f"{card.name} (continued)",
                sheet=Sheet(card.sheet.subtitle, tuple(part)),
            )
            for i, part in enumerate(parts)
        ]

    def token_image(
        self, icon: str, color: tuple[int, int, int], *, out: bool = False
    ) -> tuple[Image.Image, float, float]:
        """The token picture (RGBA) and its size in points when its base is :data:`TOKEN` across."""
        surface = self.art.token_surface(icon, 0, color, TOKEN_PX, out=out)
        w, h = surface.get_size()
        return surface_to_image(surface, None), w / TOKEN_PX * TOKEN, h / TOKEN_PX * TOKEN

    def place_token(
        self, icon: str, color: tuple[int, int, int], cx: float, cy: float, base: float, *, out: bool = False
    ) -> None:
        """The token with its base ``base`` points across, centred on (cx, cy)."""
        image, w, h = self.token_image(icon, color, out=out)
        k = base / TOKEN
        self.pdf.image(image, cx - w * k / 2, cy - h * k / 2, w * k, h * k)

    def page(self, title: str) -> None:
        pdf = self.pdf
        pdf.add_page(format=(self.paper.width, self.paper.height), orientation="P")
        pdf.set_text_color(*INK)
        pdf.set_font(FONT, "B", 10)
        pdf.text(MARGIN, MARGIN + 4, title)

    # -- a card
    def card(self, card: _Card, x: float, y: float) -> None:
        pdf = self.pdf
        w, h = self.card_w, self.card_h
        pdf.set_draw_color(120, 110, 100)
        pdf.set_line_width(0.6)
        pdf.set_dash_pattern(dash=3, gap=2)
        pdf.rect(x, y, w, h)
        pdf.set_dash_pattern()
        with pdf.local_context(fill_opacity=0.22):
            pdf.set_fill_color(*card.color)
            pdf.rect(x, y, w, HEAD, style="F")
        size = HEAD - 12
        self.place_token(card.icon, card.color, x + PAD + size / 2, y + HEAD / 2, size)
        tx = x + PAD + size + 8
        pdf.set_text_color(*INK)
        room = w - (tx - x) - PAD
        size = 14.0
        pdf.set_font(FONT, "B", size)
        while pdf.get_string_width(card.name) > room and size > 8:
            size -= 0.5
            pdf.set_font(FONT, "B", size)
        name = card.name
        while pdf.get_string_width(name) > room and len(name) > 2:
            name = name[:-2] + "\u2026"
        pdf.set_xy(tx, y + 10)
        pdf.cell(room, 16, name)
        pdf.set_font(FONT, "I", 8.5)
        pdf.set_xy(tx, y + 28)
        pdf.multi_cell(w - (tx - x) - PAD, 10, card.sheet.subtitle, align="L")
        top = y + HEAD + PAD
        scale = self.fit(card.sheet) or SCALES[-1]
        with pdf.rect_clip(x, y, w, h):
            self.body(card.sheet, x + PAD, top, w - 2 * PAD, scale, dry=False)

    def body(self, sheet: Sheet, x: float, y: float, w: float, scale: float, *, dry: bool) -> float:
        """Lay the card's sections out from (x, y); returns the height used (nothing drawn when ``dry``)."""
        start = y
        for section in sheet.sections:
            y = self.section(section, x, y, w, scale, dry=dry) + 4 * scale
        return y - start

    def text(self, x: float, y: float, w: float, text: str, *, size: float, style: str, dry: bool) -> float:
        pdf = self.pdf
        pdf.set_font(FONT, style, size)
        line = size * 1.22
        if dry:
            height = pdf.multi_cell(w, line, text, align="L", dry_run=True, output="HEIGHT")
            assert isinstance(height, float | int)
            return y + float(height)
        pdf.set_xy(x, y)
        pdf.multi_cell(w, line, text, align="L")
        return pdf.get_y()

    def section(
        self, section: SheetSection, x: float, y: float, w: float, scale: float, *, dry: bool
    ) -> float:
        pdf = self.pdf
        y = self.text(x, y, w, section.title.upper(), size=7.5 * scale, style="B", dry=dry)
        if not dry:
            pdf.set_draw_color(150, 140, 130)
            pdf.set_line_width(0.4)
            pdf.line(x, y, x + w, y)
        y += 2 * scale
        if section.table and section.items:
            return self.table(section.items, x, y, w, scale, dry=dry)
        for line in section.lines:
            y = self.text(x, y, w, line, size=8 * scale, style="", dry=dry)
        for label, detail in section.items:
            y = self.text(x, y, w, label, size=8.5 * scale, style="B", dry=dry)
            if detail:
                y = (
                    self.text(x + 8 * scale, y, w - 8 * scale, detail, size=8 * scale, style="", dry=dry)
                    + 1.5 * scale
                )
        if not section.lines and not section.items and section.empty:
            y = self.text(x, y, w, section.empty, size=8 * scale, style="I", dry=dry)
        return y

    def table(
        self, items: tuple[tuple[str, str], ...], x: float, y: float, w: float, scale: float, *, dry: bool
    ) -> float:
        pdf = self.pdf
        per_row = min(len(items), 7 if w > 200 else 5)
        cell = w / per_row
        rows = math.ceil(len(items) / per_row)
        height = 26 * scale
        if not dry:
            pdf.set_draw_color(150, 140, 130)
            pdf.set_line_width(0.4)
            for i, (label, value) in enumerate(items):
                cx = x + (i % per_row) * cell
                cy = y + (i // per_row) * height
                pdf.rect(cx, cy, cell, height)
                pdf.set_font(FONT, "", 6 * scale)
                pdf.set_xy(cx, cy + 1.5 * scale)
                pdf.cell(cell, 7 * scale, label, align="C")
                pdf.set_font(FONT, "B", 12 * scale)
                pdf.set_xy(cx, cy + 9 * scale)
                pdf.cell(cell, 14 * scale, value, align="C")
        return y + rows * height + 2 * scale

    # -- tokens
    def tokens(self, cards: list[_Card], title: str) -> tuple[int, int]:
        """Sheets of tokens: each unit's token and its out-of-action face; returns (pages, tokens)."""
        pdf = self.pdf
        ax, ay, aw, ah = self.area
        pitch_x, pitch_y = 1.5 * INCH, 1.45 * INCH
        per_row = max(1, int((aw + 0.5 * INCH) // (2 * pitch_x)))
        per_page = max(1, per_row * int(ah // pitch_y))
        pages = tokens = 0
        for index, card in enumerate(cards):
            slot = index % per_page
            if slot == 0:
                self.page(f"{title}: tokens (1 inch: one to a hex; cut along the circles)")
                pages += 1
            col, row = slot % per_row, slot // per_row
            left = ax + col * 2 * pitch_x + INCH / 2 + 4
            cy = ay + row * pitch_y + INCH / 2 + 6
            for face, out in enumerate((False, True)):
                cx = left + face * pitch_x
                self.place_token(card.icon, card.color, cx, cy, TOKEN, out=out)
                pdf.set_draw_color(110, 110, 110)
                pdf.set_line_width(0.5)
                pdf.circle(cx, cy, TOKEN / 2 + 3, style="D")
                pdf.set_font(FONT, "", 7)
                pdf.set_text_color(*INK)
                label = card.name if not out else f"{card.name} (out)"
                lines = pdf.multi_cell(pitch_x - 6, 8, label, dry_run=True, output="LINES")
                assert isinstance(lines, list)
                for n, line in enumerate(lines[:2]):
                    shown = line if n == 0 or len(lines) <= 2 else line[:-1] + "\u2026"
                    pdf.text(cx - pdf.get_string_width(shown) / 2, cy + TOKEN / 2 + 14 + 8 * n, shown)
                tokens += 1
        return pages, tokens


def posse_cards(draft: PosseDraft) -> list[tuple[str, Sheet, str]]:
    """Each fielded unit's (name, card, token icon key): a unit's companion gets a token of its own
    (its card is its owner's)."""
    rules = builder_for(draft.ruleset)
    out = []
    for i, unit in enumerate(draft.units):
        card = rules.card(unit, draft.faction)
        names = draft.fielded(i) or [unit.name]
        out.append((names[0], card, icon_key(unit.kind, draft.art(i))))
        for companion in names[1:]:
            out.append((companion, Sheet(f"companion of {names[0]}", ()), "dog"))
    return out


def write_posse_pdf(draft: PosseDraft, title: str, out: str | Path, paper: Paper) -> PossePrint:
    """Write ``draft``'s unit cards and tokens to ``out`` (``OSError`` if it cannot be written)."""
    ensure_pygame()
    color = side_color(0, draft.faction)
    entries = [_Card(name, sheet, icon, color) for name, sheet, icon in posse_cards(draft)]
    cards = [c for c in entries if c.sheet.sections]
    pdf = new_document(f"{draft.name}: unit cards and tokens (Hexslinger)")
    layout = _Layout(pdf, paper)
    heading = f"{draft.name} ({title}): unit cards - cut along the dashed lines"
    layout.page(heading)  # fpdf2 measures text on a page
    layout.choose_rows([c.sheet for c in cards])
    cards = [part for card in cards for part in layout.split(card)]
    per_page = 2 * layout.rows
    ax, ay, _, _ = layout.area
    for i, card in enumerate(cards):
        if i and i % per_page == 0:
            layout.page(heading)
        col, row = i % 2, (i % per_page) // 2
        layout.card(card, ax + col * (layout.card_w + CARD_GAP), ay + row * (layout.card_h + CARD_GAP))
    _, tokens = layout.tokens(entries, draft.name)
    pdf.output(str(out))
    return PossePrint(pdf.pages_count, len(cards), tokens)
