"""Text laid out to fit its place, never cut: the battle's action bar (each button as wide as its label,
how many rows, which type size) and the sizes and line breaks of drawn labels (the tracker's cards).

A label that hides a cost behind an ellipsis is a defect (issue 13), so everything here first tries the
theme's size, then more rows or lines, then smaller type, and cuts (with an ellipsis) only when even the
smallest type cannot hold it. Each measure is the font the text is drawn with. (pygame-gui 0.6 draws a
button's text on one line only: a second line would be clipped, so buttons never break.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

__all__ = [
    "BAR_FONTS",
    "BarFit",
    "Measure",
    "break_lines",
    "fit_bar",
    "fit_fixed",
    "shrink_to_fit",
    "wrap",
]

# The action bar's type, largest first: (theme object id, the theme's size at UI scale 1). The ids are
# theme.json's "#bar_small" / "#bar_tiny" / "#bar_least": the "@action" class at a smaller size.
BAR_FONTS: Final = ((None, 14), ("#bar_small", 12), ("#bar_tiny", 11), ("#bar_least", 10))
# What a button's text leaves free of its width: the border and shadow (2 + 2 px a side in the theme's
# "@action", where pygame-gui clips a wider text) and the theme's text padding (10 px a side) as air.
BUTTON_TEXT_MARGIN: Final = 2 * (2 + 2) + 2 * 10 + 2
# A bar button's width is a whole number of these (at UI scale 1, rounded down: less than a step of the
# text's 10 px of air a side is given up, never room for its words): the bar's buttons then come in a few
# sizes, and pygame-gui draws a button's face (its rounded, shaded frame: ~1 ms a state) once per size and
# state, taking it from its shape cache after that (issue 13: the first frame after a command).
WIDTH_STEP: Final = 8


class Measure(Protocol):
    """What is measured of a font: pygame's ``Font`` and pygame-gui's font both answer it."""

    def size(self, text: str, /) -> tuple[int, int]: ...


def theme_points(size: int, scale: float) -> int:
    """A theme font size at a UI scale, as :func:`game.ui.gui.resolve_theme_fonts` computes it."""
    return max(8, round(size * scale))


def break_lines(face: Measure, text: str, width: int, max_lines: int) -> list[str] | None:
    """``text`` broken at spaces into at most ``max_lines`` rows of at most ``width`` pixels, the rows as
    even as the words allow; None when it cannot be (a word wider than ``width``, or too many rows)."""
    words = text.split(" ")
    if any(face.size(w)[0] > width for w in words):
        return None
    if face.size(text)[0] <= width:
        return [text]
    if max_lines < 2:
        return None
    best: list[str] | None = None
    best_widest = 0
    if max_lines >= 2:  # two rows: the split that makes the wider row narrowest
        for cut in range(1, len(words)):
            rows = [" ".join(words[:cut]), " ".join(words[cut:])]
            widest = max(face.size(r)[0] for r in rows)
            if widest <= width and (best is None or widest < best_widest):
                best, best_widest = rows, widest
    if best is not None or max_lines == 2:
        return best
    rows = wrap(face, text, width)  # more rows: greedy
    return rows if len(rows) <= max_lines else None


def wrap(face: Measure, text: str, width: int) -> list[str]:
    """``text`` broken into rows of at most ``width`` pixels (a word longer than that gets its own row)."""
    rows, current = [], ""
    for word in text.split(" "):
        candidate = f"{current} {word}".strip()
        if current and face.size(candidate)[0] > width:
            rows.append(current)
            current = word
        else:
            current = candidate
    rows.append(current)
    return rows


def shrink_to_fit(
    face_at: Callable[[int], Measure], text: str, width: int, sizes: Sequence[int], max_lines: int = 1
) -> tuple[int, list[str]] | None:
    """The largest of ``sizes`` (largest first) at which ``text`` fits ``width`` in ``max_lines`` rows,
    with its rows; None when none does."""
    for points in sizes:
        rows = break_lines(face_at(points), text, width, max_lines)
        if rows is not None:
            return points, rows
    return None


@dataclass(frozen=True, slots=True)
class BarFit:
    """How the action bar's buttons are laid out: the theme id of their type (None: "@action" itself) and
    its size in points, the rows used and each button's place (row, x, width) and text."""

    object_id: str | None
    points: int
    rows: int
    places: tuple[tuple[int, int, int], ...]
    texts: tuple[str, ...]
    cut: bool = False  # nothing fitted: the smallest type, cut with an ellipsis (a window far too small)


def _flow(widths: Sequence[int], room: int, gap: int, rows: int) -> list[list[int]] | None:
    """The buttons (their indices, in order) filled into at most ``rows`` rows of ``room`` pixels."""
    lines: list[list[int]] = [[]]
    used = 0
    for i, w in enumerate(widths):
        if w > room:
            return None
        if lines[-1] and used + gap + w > room:
            lines.append([])
            used = 0
        used += (gap if lines[-1] else 0) + w
        lines[-1].append(i)
    return lines if len(lines) <= rows else None


def _places(
    lines: list[list[int]], widths: Sequence[int], room: int, gap: int, widest: int, *, step: int = 1
) -> list[tuple[int, int, int]]:
    """Each button's (row, x, width): every row but a short last one stretched towards the whole width,
    the room left shared out evenly in whole ``step``s, no button stretched past ``widest`` (a lone
    button stays a button)."""
    places: dict[int, tuple[int, int, int]] = {}
    per_row = max(len(line) for line in lines)
    for row, line in enumerate(lines):
        natural = sum(widths[i] for i in line) + gap * (len(line) - 1)
        spare = room - natural
        if row == len(lines) - 1 and len(lines) > 1 and len(line) < per_row:
            spare = min(spare, len(line) * (spare // per_row))  # a short last row is not blown up
        extra = spare // len(line) // step * step
        x = 0
        for i in line:
            width = max(widths[i], min(widest, widths[i] + extra))
            places[i] = (row, x, width)
            x += width + gap
    return [places[i] for i in range(len(widths))]


def fit_bar(
    texts: Sequence[str],
    room: int,
    inner_h: int,
    scale: float,
    *,
    face_at: Callable[[int], Measure],
    line_height: Callable[[int], int],
    max_rows: int = 3,
    fonts: Sequence[tuple[str | None, int]] = BAR_FONTS,
) -> BarFit:
    """The action bar's layout for buttons labelled ``texts`` in ``room`` x ``inner_h`` pixels at UI scale
    ``scale``: each button as wide as its label in the theme's type, filled into as few rows as hold them
    (as many as the bar's height allows a line of that type), then each smaller type in turn
    (``face_at`` gives the font at a size, ``line_height`` its height of a line). ``fonts`` are the types
    tried, largest first (a tail of :data:`BAR_FONTS`: a battle's bar keeps the smallest it has needed)."""

    def px(v: float) -> int:
        return round(v * scale)

    gap = px(4)
    pad = BUTTON_TEXT_MARGIN
    step = max(1, px(WIDTH_STEP))
    widest = max(step, px(260) // step * step)
    if not texts:
        return BarFit(fonts[0][0], theme_points(fonts[0][1], scale), 1, (), ())
    for object_id, size in fonts:
        points = theme_points(size, scale)
        face = face_at(points)
        # a whole number of steps, rounded down: the step takes at most step - 1 px of the text's air
        widths = [max(px(64), face.size(t)[0] + pad) // step * step for t in texts]
        most = max(1, min(max_rows, (inner_h + gap) // (line_height(points) + px(6) + gap)))
        for rows in range(1, most + 1):
            lines = _flow(widths, room, gap, rows)
            if lines is not None:
                places = tuple(_places(lines, widths, room, gap, widest, step=step))
                return BarFit(object_id, points, len(lines), places, tuple(texts))
    object_id, size = BAR_FONTS[-1]
    points = theme_points(size, scale)
    rows = min(max_rows, len(texts))
    per_row = -(-len(texts) // rows)
    width = room // per_row - gap
    face = face_at(points)
    places = tuple((i // per_row, (i % per_row) * (width + gap), width) for i in range(len(texts)))
    return BarFit(object_id, points, rows, places, tuple(_cut(face, t, width - pad) for t in texts), cut=True)


def fit_fixed(
    text: str, width: int, scale: float, face_at: Callable[[int], Measure]
) -> tuple[str | None, str]:
    """A fixed button's type (its theme id, None for "@action") and text for a button ``width`` wide: the
    largest type that holds it on one line, else the smallest, cut."""
    inner_w = width - BUTTON_TEXT_MARGIN
    for object_id, size in BAR_FONTS:
        if face_at(theme_points(size, scale)).size(text)[0] <= inner_w:
            return object_id, text
    object_id, size = BAR_FONTS[-1]
    return object_id, _cut(face_at(theme_points(size, scale)), text, inner_w)


def _cut(face: Measure, text: str, width: int) -> str:
    if face.size(text)[0] <= width:
        return text
    while text and face.size(text + "\u2026")[0] > width:
        text = text[:-1]
    return text.rstrip() + "\u2026"
