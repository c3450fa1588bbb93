"""What the printed sheets share: the paper sizes, a PDF document (fpdf2) in points with the game's fonts,
and the small drawing helpers the map and posse sheets both use.

The PDF is written with fpdf2 (docs/ARCHITECTURE.md says why): pages in points (72 to the inch), so a
length in the game's inches is ``inches * 72`` on paper when the sheet is printed at 100%.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import pygame
from fpdf import FPDF
from PIL import Image

from game.resources import serif_font

__all__ = [
    "INCH",
    "MARGIN",
    "PAPERS",
    "Paper",
    "halo_text",
    "new_document",
    "surface_to_image",
    "writable_out",
]

INCH: Final = 72.0  # PDF points to the inch
MARGIN: Final = 0.5 * INCH  # kept clear on every side: most printers cannot print within ~0.25" of the edge
FONT: Final = "Serif"


@dataclass(frozen=True, slots=True)
class Paper:
    """A paper size, portrait, in points."""

    name: str
    width: float
    height: float

    def size(self, landscape: bool) -> tuple[float, float]:
        return (self.height, self.width) if landscape else (self.width, self.height)


# ISO 216 A4 is 210 x 297 mm; US Letter 8.5 x 11 in.
PAPERS: Final = {
    "a4": Paper("A4", 210 / 25.4 * INCH, 297 / 25.4 * INCH),
    "letter": Paper("Letter", 8.5 * INCH, 11 * INCH),
}


def new_document(title: str) -> FPDF:
    """An empty PDF in points, no automatic page breaks, the bundled DejaVu Serif in its four styles."""
    pdf = FPDF(unit="pt", format="a4")
    pdf.set_auto_page_break(False)
    pdf.set_margins(MARGIN, MARGIN, MARGIN)
    pdf.set_title(title)
    pdf.set_creator("Hexslinger")
    for style, bold, italic in (
        ("", False, False),
        ("B", True, False),
        ("I", False, True),
        ("BI", True, True),
    ):
        pdf.add_font(FONT, style, str(serif_font(bold=bold, italic=italic)))
    pdf.set_font(FONT, "", 10)
    return pdf


def surface_to_image(
    surface: pygame.Surface, background: tuple[int, int, int] | None = (255, 255, 255)
) -> Image.Image:
    """A pygame surface as a Pillow image: RGB laid on ``background`` where it is transparent (paper), or
    RGBA as it is (``background=None``: a token over the sheet)."""
    w, h = surface.get_size()
    rgba = Image.frombytes("RGBA", (w, h), pygame.image.tobytes(surface, "RGBA"))
    if background is None:
        return rgba
    flat = Image.new("RGB", (w, h), background)
    flat.paste(rgba, mask=rgba.getchannel("A"))
    return flat


def halo_text(pdf: FPDF, x: float, y: float, text: str, *, halo: float = 1.6) -> None:
    """``text`` with its baseline's left end at (x, y), dark on a white outline so it reads on any art."""
    with pdf.local_context(text_mode="STROKE", line_width=halo, draw_color=(255, 255, 255)):
        pdf.text(x, y, text)
    pdf.text(x, y, text)


def writable_out(out: Path, suffix: str = ".pdf") -> str | None:
    """Why ``out`` cannot be written (None: it can); nothing is created."""
    if out.suffix.lower() != suffix:
        return f"--out {out} does not end in {suffix}; name a {suffix} file, e.g. --out table{suffix}"
    if out.is_dir():
        return f"--out {out} is a folder; name a {suffix} file in it, e.g. --out {out / ('table' + suffix)}"
    folder = out.parent if str(out.parent) else Path()
    if folder.exists() and not folder.is_dir():
        return f"--out {out} is inside {folder}, which is a file, not a folder; name a .pdf in a folder"
    if not folder.is_dir():
        return f"the folder {folder} of --out does not exist; make it first or name another folder"
    if out.exists() and not os.access(out, os.W_OK):
        return f"cannot write --out {out}: the file is read-only; name another file"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"cannot write --out {out}: no permission to write in {folder}; name a folder you may write to"
    return None
