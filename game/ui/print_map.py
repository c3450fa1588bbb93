"""``hexslinger print MAP``: a Tiled map on paper at the table's scale, 1 hex = 1 inch.

The map is drawn as the game and Tiled draw it (:class:`game.ui.render.MapRenderer`), then scaled so that
the distance across a hex's flat sides -- the step from a hex to its neighbour, the length Frontier's
ranges are measured in -- is exactly one inch (72 PDF points). A map bigger than a sheet is split over
pages that overlap by :data:`OVERLAP`; each shared strip carries a dashed trimming line and crosshair marks
printed on both sheets, so the sheets are trimmed and laid over each other mark on mark. The first page is
the page map: the whole map, small, with every page's outline and label (rows A, B, ...; columns 1, 2, ...).

Grid and coordinates (``--grid``, ``--coords``) are drawn as vectors and text over the art, so they stay
sharp at any printer resolution.
"""

from __future__ import annotations

import math
import string
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from fpdf import FPDF
from PIL import Image

from game.hexgrid import StaggerAxis, TiledHexGeometry
from game.tiledmap import load_tiled_map
from game.ui.print_pdf import FONT, INCH, MARGIN, Paper, halo_text, new_document, surface_to_image
from game.ui.render import MapRenderer, ensure_pygame

__all__ = ["HEADER", "OVERLAP", "MapPrint", "PagePlan", "hex_pitch", "plan_pages", "write_map_pdf"]

OVERLAP: Final = 0.5 * INCH  # the strip two neighbouring sheets both show
HEADER: Final = 26.0  # the band above the map on each sheet: its label and the 1-inch bar
GRID_RGB: Final = (40, 30, 20)
MARK_RGB: Final = (20, 20, 20)
_Rect = tuple[float, float, float, float]  # x, y, w, h
_ToPage = Callable[[float, float], tuple[float, float]]  # a map point to a point on the sheet


def hex_pitch(geometry: TiledHexGeometry) -> float:
    """The distance in map pixels between the centres of two hexes that share a side across the hex's
    flats (pointy-topped: side by side in a row; flat-topped: one above the other in a column): the
    hex's width across its flats, the length printed as one inch."""
    a = geometry.cell_center(0, 0)
    b = geometry.cell_center(1, 0) if geometry.axis is StaggerAxis.Y else geometry.cell_center(0, 1)
    return math.dist(a, b)


def _row_label(row: int) -> str:
    letters = string.ascii_uppercase
    return letters[row] if row < 26 else letters[row // 26 - 1] + letters[row % 26]


@dataclass(frozen=True, slots=True)
class PagePlan:
    """How a map of ``map_size`` points is laid over sheets: ``rows`` x ``cols`` pages, each showing the
    map's rectangle at (``region``) in its ``area`` (page points), neighbours overlapping by ``overlap``."""

    paper: Paper
    landscape: bool
    map_size: tuple[float, float]
    area: tuple[float, float, float, float]  # x, y, w, h of the map on each sheet
    cols: int
    rows: int
    overlap: float
    origin: tuple[float, float]  # the map point at the first sheet's area's top-left (<= 0: centred)

    @property
    def page_size(self) -> tuple[float, float]:
        return self.paper.size(self.landscape)

    @property
    def step(self) -> tuple[float, float]:
        return self.area[2] - self.overlap, self.area[3] - self.overlap

    @property
    def pages(self) -> int:
        """Map sheets (the page map not counted)."""
        return self.rows * self.cols

    def region(self, row: int, col: int) -> tuple[float, float, float, float]:
        """The rectangle of the map (map points, from the map picture's top-left) on sheet (row, col)."""
        sx, sy = self.step
        return self.origin[0] + col * sx, self.origin[1] + row * sy, self.area[2], self.area[3]

    def label(self, row: int, col: int) -> str:
        return f"{_row_label(row)}{col + 1}"


def _count(length: float, span: float, overlap: float) -> int:
    return 1 if length <= span else math.ceil((length - overlap) / (span - overlap))


def plan_pages(map_size: tuple[float, float], paper: Paper, overlap: float = OVERLAP) -> PagePlan:
    """The sheets for a map of ``map_size`` points: portrait or landscape, whichever needs fewer (portrait
    on a tie); the sheets' spread centred on the map."""
    best: PagePlan | None = None
    for landscape in (False, True):
        pw, ph = paper.size(landscape)
        area = (MARGIN, MARGIN + HEADER, pw - 2 * MARGIN, ph - 2 * MARGIN - HEADER)
        cols = _count(map_size[0], area[2], overlap)
        rows = _count(map_size[1], area[3], overlap)
        spread_w = cols * (area[2] - overlap) + overlap
        spread_h = rows * (area[3] - overlap) + overlap
        origin = ((map_size[0] - spread_w) / 2, (map_size[1] - spread_h) / 2)
        plan = PagePlan(paper, landscape, map_size, area, cols, rows, overlap, origin)
        if best is None or plan.pages < best.pages:
            best = plan
    assert best is not None
    return best


@dataclass(frozen=True, slots=True)
class MapPrint:
    """What :func:`write_map_pdf` wrote: its plan, the pages in the file and a hex's width in points."""

    plan: PagePlan
    pages: int
    hex_points: float


class _Sheets:
    """Draws the page map and the map sheets of one map into one PDF."""

    def __init__(
        self, renderer: MapRenderer, title: str, file_name: str, plan: PagePlan, scale: float
    ) -> None:
        tmap = renderer.map
        self.map = tmap
        self.title = title
        self.file_name = file_name
        self.plan = plan
        self.scale = scale  # points per map pixel
        self.bounds = renderer.bounds
        self.image = surface_to_image(renderer.render(background=True))
        self.cells = [(col, row) for row in range(tmap.height) for col in range(tmap.width)]

    def to_points(self, x: float, y: float) -> tuple[float, float]:
        """A map pixel as a point of the map picture at print scale."""
        return (x - self.bounds.x) * self.scale, (y - self.bounds.y) * self.scale

    # -- the page map
    def page_map(self, pdf: FPDF) -> None:
        plan = self.plan
        mw, mh = plan.map_size
        landscape = plan.landscape
        pw, ph = plan.paper.size(landscape)
        pdf.add_page(format=(plan.paper.width, plan.paper.height), orientation="L" if landscape else "P")
        pdf.set_text_color(0, 0, 0)
        pdf.set_font(FONT, "B", 18)
        pdf.set_xy(MARGIN, MARGIN)
        pdf.cell(pw - 2 * MARGIN, 22, f"{self.title}: page map", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font(FONT, "", 9.5)
        inches = f"{mw / INCH:.1f} x {mh / INCH:.1f} inches"
        pdf.multi_cell(
            pw - 2 * MARGIN,
            12,
            f"{self.file_name}: {self.map.width} x {self.map.height} hexes, {inches} at 1 hex = 1 inch. "
            f"{plan.pages} {plan.paper.name} sheets ({'landscape' if plan.landscape else 'portrait'}), "
            f"rows A-{_row_label(plan.rows - 1)}, columns 1-{plan.cols}, overlapping by "
            f'{plan.overlap / INCH:g}". Print at 100% ("actual size", not "fit to page"); the bar at the '
            "top of each sheet must measure exactly 1 inch. Trim each sheet along its dashed line on the "
            "right and bottom, lay it over its neighbour so the crosshair marks meet, and tape it.",
            align="L",
            new_x="LMARGIN",
            new_y="NEXT",
        )
        top = pdf.get_y() + 10
        box_w, box_h = pw - 2 * MARGIN, ph - MARGIN - top
        # the map and every sheet's outline (the sheets' spread is centred on the map, so may stick out)
        left, upper = min(0.0, plan.origin[0]), min(0.0, plan.origin[1])
        last_x, last_y, last_w, last_h = plan.region(plan.rows - 1, plan.cols - 1)
        span_w = max(mw, last_x + last_w) - left
        span_h = max(mh, last_y + last_h) - upper
        k = min(box_w / span_w, box_h / span_h)
        tw, th = mw * k, mh * k
        x = MARGIN + (box_w - span_w * k) / 2 - left * k
        y = top + (box_h - span_h * k) / 2 - upper * k
        thumb = self.image.copy()
        thumb.thumbnail((max(1, round(tw * 3)), max(1, round(th * 3))), Image.Resampling.LANCZOS)
        pdf.image(thumb, x, y, tw, th)
        pdf.set_draw_color(120, 120, 120)
        pdf.set_line_width(0.5)
        pdf.rect(x, y, tw, th)
        size = max(7.0, min(20.0, 0.3 * min(plan.area[2], plan.area[3]) * k))
        pdf.set_font(FONT, "B", size)
        for row in range(plan.rows):
            for col in range(plan.cols):
                rx, ry, rw, rh = plan.region(row, col)
                cx, cy, cw, chh = x + rx * k, y + ry * k, rw * k, rh * k
                pdf.set_draw_color(*((170, 20, 20) if (row + col) % 2 else (20, 60, 170)))
                pdf.set_line_width(1.0)
                pdf.rect(cx + 1.5, cy + 1.5, cw - 3, chh - 3)
                label = plan.label(row, col)
                halo_text(pdf, cx + cw / 2 - pdf.get_string_width(label) / 2, cy + chh / 2 + size / 3, label)

    # -- a map sheet
    def sheet(self, pdf: FPDF, row: int, col: int, *, grid: bool, coords: bool) -> None:
        plan = self.plan
        pw, ph = plan.page_size
        pdf.add_page(format=(plan.paper.width, plan.paper.height), orientation="L" if plan.landscape else "P")
        ax, ay, aw, ah = plan.area
        rx, ry, _, _ = plan.region(row, col)

        def page(x: float, y: float) -> tuple[float, float]:
            return ax + x - rx, ay + y - ry

        with pdf.rect_clip(ax, ay, aw, ah):
            region = (rx, ry, aw, ah)
            self._art(pdf, region, page)
            if grid:
                self._grid(pdf, region, page)
            if coords:
                self._coords(pdf, region, page)
            self._marks(pdf, row, col, page)
        pdf.set_draw_color(150, 150, 150)
        pdf.set_line_width(0.4)
        pdf.rect(ax, ay, aw, ah)
        self._header(pdf, row, col, pw, ph)

    def _art(self, pdf: FPDF, region: _Rect, page: _ToPage) -> None:
        rx, ry, aw, ah = region
        iw, ih = self.image.size
        left = max(0, math.floor(rx / self.scale))
        top = max(0, math.floor(ry / self.scale))
        right = min(iw, math.ceil((rx + aw) / self.scale))
        bottom = min(ih, math.ceil((ry + ah) / self.scale))
        if right <= left or bottom <= top:
            return
        crop = self.image.crop((left, top, right, bottom))
        x, y = page(left * self.scale, top * self.scale)
        pdf.image(crop, x, y, (right - left) * self.scale, (bottom - top) * self.scale)

    def _visible(self, region: _Rect) -> list[tuple[int, int]]:
        rx, ry, aw, ah = region
        g = self.map.geometry
        pad = max(g.tile_width, g.tile_height) * self.scale
        out = []
        for col, row in self.cells:
            cx, cy = self.to_points(*g.cell_center(col, row))
            if rx - pad <= cx <= rx + aw + pad and ry - pad <= cy <= ry + ah + pad:
                out.append((col, row))
        return out

    def _grid(self, pdf: FPDF, region: _Rect, page: _ToPage) -> None:
        g = self.map.geometry
        pdf.set_draw_color(*GRID_RGB)
        pdf.set_line_width(0.6)
        with pdf.local_context(stroke_opacity=0.7):
            for col, row in self._visible(region):
                points = [page(*self.to_points(x, y)) for x, y in g.cell_polygon(col, row)]
                pdf.polygon(points, style="D")

    def _coords(self, pdf: FPDF, region: _Rect, page: _ToPage) -> None:
        g = self.map.geometry
        pdf.set_font(FONT, "", 6.5)
        pdf.set_text_color(0, 0, 0)
        for col, row in self._visible(region):
            x, y = page(*self.to_points(*g.cell_center(col, row)))
            label = f"{col},{row}"
            halo_text(pdf, x - pdf.get_string_width(label) / 2, y + 2.2, label, halo=1.4)

    def _marks(self, pdf: FPDF, row: int, col: int, page: _ToPage) -> None:
        """The dashed trimming line and three crosshairs along the middle of every strip this sheet
        shares with a neighbour (drawn at the same map points on both sheets)."""
        plan = self.plan
        rx, ry, aw, ah = plan.region(row, col)
        sx, sy = plan.step
        half = plan.overlap / 2
        lines: list[tuple[tuple[float, float], tuple[float, float]]] = []
        crosses: list[tuple[float, float]] = []
        for c in (col, col + 1):
            if 0 < c < plan.cols:
                xm = plan.origin[0] + c * sx + half
                lines.append(((xm, ry), (xm, ry + ah)))
                crosses += [(xm, ry + ah * f) for f in (0.2, 0.5, 0.8)]
        for r in (row, row + 1):
            if 0 < r < plan.rows:
                ym = plan.origin[1] + r * sy + half
                lines.append(((rx, ym), (rx + aw, ym)))
                crosses += [(rx + aw * f, ym) for f in (0.2, 0.5, 0.8)]
        for width, rgb in ((2.2, (255, 255, 255)), (0.8, MARK_RGB)):
            pdf.set_draw_color(*rgb)
            pdf.set_line_width(width)
            with pdf.local_context():
                pdf.set_dash_pattern(dash=6, gap=4)
                for (x1, y1), (x2, y2) in lines:
                    pdf.line(*page(x1, y1), *page(x2, y2))
            for cx, cy in crosses:
                px, py = page(cx, cy)
                pdf.circle(px, py, 6, style="D")
                pdf.line(px - 10, py, px + 10, py)
                pdf.line(px, py - 10, px, py + 10)

    def _header(self, pdf: FPDF, row: int, col: int, pw: float, ph: float) -> None:
        plan = self.plan
        ax, ay, aw, ah = plan.area
        label = plan.label(row, col)
        pdf.set_text_color(0, 0, 0)
        pdf.set_font(FONT, "B", 13)
        pdf.text(ax, ay - 9, label)
        lead = pdf.get_string_width(label) + 8
        pdf.set_font(FONT, "", 8.5)
        where = f"{self.title}   row {_row_label(row)} of A-{_row_label(plan.rows - 1)}, "
        where += f"column {col + 1} of 1-{plan.cols}   1 hex = 1 inch"
        pdf.text(ax + lead, ay - 9, where)
        # the 1-inch bar, for checking the printer kept the scale
        bx, by = ax + aw - INCH, ay - 13
        pdf.set_draw_color(0, 0, 0)
        pdf.set_fill_color(0, 0, 0)
        pdf.rect(bx, by, INCH, 4, style="F")
        pdf.set_line_width(0.8)
        pdf.line(bx, by - 4, bx, by + 8)
        pdf.line(bx + INCH, by - 4, bx + INCH, by + 8)
        pdf.set_font(FONT, "", 7.5)
        text = "this bar is 1 inch"
        pdf.text(bx - pdf.get_string_width(text) - 6, by + 5, text)
        # the neighbours, in the margins (0.3" or more from the paper's edge, where printers print)
        pdf.set_font(FONT, "B", 8)
        pdf.set_text_color(60, 60, 60)
        mid_x, mid_y = ax + aw / 2, ay + ah / 2
        sides = []
        if col > 0:
            sides.append((f"\u2190 {plan.label(row, col - 1)}", ax - 10, mid_y, 90))
        if col + 1 < plan.cols:
            sides.append((f"{plan.label(row, col + 1)} \u2192", ax + aw + 10, mid_y, -90))
        if row > 0:
            sides.append((f"\u2191 {plan.label(row - 1, col)}", mid_x, MARGIN - 6, 0))
        if row + 1 < plan.rows:
            sides.append((f"\u2193 {plan.label(row + 1, col)}", mid_x, ay + ah + 12, 0))
        for text, x, y, angle in sides:
            width = pdf.get_string_width(text)
            with pdf.rotation(angle, x, y):
                pdf.text(x - width / 2, y + 3, text)
        pdf.set_font(FONT, "", 7)
        pdf.set_text_color(90, 90, 90)
        foot = f"Hexslinger - {self.file_name} - print at 100% (actual size)"
        pdf.text(MARGIN, ph - MARGIN + 13, foot)


def write_map_pdf(
    map_path: str | Path, out: str | Path, paper: Paper, *, grid: bool = False, coords: bool = False
) -> MapPrint:
    """Write the map's page map and sheets to ``out``. Raises :class:`game.tiledmap.MapLoadError` for a
    missing or broken map and ``OSError`` when the file cannot be written."""
    path = Path(map_path)
    tmap = load_tiled_map(path)
    scale = INCH / hex_pitch(tmap.geometry)
    ensure_pygame()
    title_value = tmap.properties.get("title")
    title = title_value.strip() if isinstance(title_value, str) and title_value.strip() else path.stem
    renderer = MapRenderer(tmap)
    size = (renderer.bounds.width * scale, renderer.bounds.height * scale)
    plan = plan_pages(size, paper)
    sheets = _Sheets(renderer, title, path.name, plan, scale)
    pdf = new_document(f"{title} (Hexslinger, 1 hex = 1 inch)")
    sheets.page_map(pdf)
    for row in range(plan.rows):
        for col in range(plan.cols):
            sheets.sheet(pdf, row, col, grid=grid, coords=coords)
    pdf.output(str(out))
    return MapPrint(plan, pdf.pages_count, scale * hex_pitch(tmap.geometry))
