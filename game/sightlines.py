"""Lines of sight on a hex grid as integer deltas: for one offset vector, the two epsilon-nudged lines
(``hexgrid.hex_lines``) worked out once and kept as bit masks over a :class:`~game.battlefield.Battlefield`'s
hex numbers, so "does anything on the line block sight" is one big-integer shift and AND.

Lines depend only on ``b - a``; the twelve symmetries of the hex grid map every offset onto a canonical
one (``canonical_lines``), computed once per process.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["MEMO_LIMIT", "LineTable", "canonical_lines", "line_mask", "offset_lines"]


@dataclass(frozen=True, slots=True)
class LineTable:
    """The two lines for one offset vector, relative to the source hex's number.

    A set of hexes is a bit mask shifted down by its lowest delta: hex ``ka + d`` is bit ``d - lo``,
    so "does any of them block sight" is ``(blockers >> (ka + lo)) & mask`` -- one big-int shift and
    AND instead of a Python loop over the line.
    """

    common: tuple[int, int]  # (lo, mask) of the intermediate hexes on both lines
    only1: tuple[int, int]  # (lo, mask) of those only on line 1 (mask 0 if the lines agree)
    only2: tuple[int, int]
    before_target: tuple[int, int]  # delta of the hex before the target on each line
    after_source: tuple[int, int]  # delta of the hex after the source on each line


def line_mask(deltas: Iterable[int]) -> tuple[int, int]:
    ds = list(deltas)
    if not ds:
        return 0, 0
    lo = min(ds)
    mask = 0
    for d in ds:
        mask |= 1 << (d - lo)
    return lo, mask


MEMO_LIMIT = 250_000

# hexgrid's nudge; offset_lines repeats hexgrid._line's float arithmetic step for step (same operations in
# the same order, so the same roundings) without building Hex objects. A test checks it equals hex_lines.
_NUDGE = (1e-6, 2e-6, -3e-6)


def _stepped_lines(dq: int, dr: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """``hex_lines(Hex(0, 0), Hex(dq, dr))`` as (q, r) tuples, about 3x faster."""
    n = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
    if n == 0:
        return [(0, 0)], [(0, 0)]
    ds = -dq - dr
    step = 1.0 / n
    lines: list[list[tuple[int, int]]] = []
    signs = (1.0, -1.0) if _may_tie(dq, dr, ds, n) else (1.0,)
    for sign in signs:
        eq, er, es = (sign * e for e in _NUDGE)
        aq, ar, a_s = 0 + eq, 0 + er, 0 + es
        bq, br, bs = dq + eq, dr + er, ds + es
        fq, fr, fs = bq - aq, br - ar, bs - a_s
        out: list[tuple[int, int]] = []
        for i in range(n + 1):
            t = step * i
            hq = aq + fq * t
            hr = ar + fr * t
            hs = a_s + fs * t
            qi = round(hq)
            ri = round(hr)
            si = round(hs)
            ddq = abs(qi - hq)
            ddr = abs(ri - hr)
            dds = abs(si - hs)
            if ddq > ddr and ddq > dds:
                qi = -ri - si
            elif ddr > dds:
                ri = -qi - si
            out.append((int(qi), int(ri)))
        lines.append(out)
    if len(lines) == 1:
        return lines[0], lines[0]  # no rounding tie anywhere: both nudges give the same line
    return lines[0], lines[1]  # shared through the cache: callers must not mutate them


def _may_tie(dq: int, dr: int, ds: int, n: int) -> bool:
    """Whether some point ``i/n`` of the way along the line rounds with a tie (only then do the two
    nudged lines differ). The coordinate with ``|c| = n`` is a whole number at every step, so a
    three-way (corner) tie cannot happen; a tie is two cube coordinates ``i*c/n`` that are exact
    half-integers (an edge), and ``2*i*c = n (mod 2n)`` has a solution iff ``gcd(2c, 2n)`` divides ``n``.
    ``tests/test_battlefield.py`` checks the shortcut against ``hexgrid.hex_lines`` to radius 40."""
    return sum(1 for c in (dq, dr, ds) if n % math.gcd(2 * c, 2 * n) == 0) >= 2


def _matmul(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    return (
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
    )


def _hex_symmetries() -> list[tuple[tuple[int, int, int, int], tuple[int, int, int, int]]]:
    """The 12 symmetries of the hex grid as (matrix, inverse) on axial (q, r): 6 turns, each mirrored."""
    turn = (1, 1, -1, 0)  # (q, r) -> (q + r, -q): 60 degrees, hexgrid.hex_rotate_left
    mirror = (1, 0, -1, -1)  # (q, r, s) -> (q, s, r)
    found: list[tuple[int, int, int, int]] = []
    m = (1, 0, 0, 1)
    for _ in range(6):
        found += [m, _matmul(m, mirror)]
        m = _matmul(turn, m)
    result = []
    for a, b, c, d in found:
        det = a * d - b * c  # +1 or -1: the inverse is integral
        result.append(((a, b, c, d), (d * det, -b * det, -c * det, a * det)))
    return result


_SYMMETRIES = _hex_symmetries()


@functools.lru_cache(maxsize=1 << 16)
def offset_lines(dq: int, dr: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The two nudged lines for an offset, as (q, r) tuples, from the lines of its canonical image.

    A grid symmetry maps the pair of nudged lines of an offset onto the pair of its image (turns and
    mirrors commute with cube rounding, and the nudge never lies on an edge), so only one offset in
    each orbit of 12 is stepped; ``tests/test_battlefield.py`` checks this for every offset to radius 40.
    The pair may come back in the other order, which nothing depends on (sight: either line clear;
    cover: the better of the two).
    """
    best: tuple[int, int] | None = None
    inverse = (1, 0, 0, 1)
    for (a, b, c, d), inv in _SYMMETRIES:
        image = (a * dq + b * dr, c * dq + d * dr)
        if best is None or image < best:
            best, inverse = image, inv
    assert best is not None
    line1, line2 = canonical_lines(*best)
    if best == (dq, dr):
        return line1, line2
    a, b, c, d = inverse
    return [(a * q + b * r, c * q + d * r) for q, r in line1], [
        (a * q + b * r, c * q + d * r) for q, r in line2
    ]


@functools.lru_cache(maxsize=1 << 14)
def canonical_lines(dq: int, dr: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    return _stepped_lines(dq, dr)
