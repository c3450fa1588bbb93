"""How every command lists what is wrong: a heading, then one problem a line ("  - ..."), so check-map,
check-encounter, render-map, print, simulate, balance and play all read the same."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sized
from typing import TextIO

__all__ = ["count", "print_problems"]


def count(problems: Sized) -> str:
    """ "1 problem", "3 problems"."""
    n = len(problems)
    return f"{n} problem{'s' if n != 1 else ''}"


def print_problems(heading: str, problems: Iterable[object], *, err: bool = False) -> None:
    """``heading``, then each problem on a line of its own; on stderr with ``err`` (a command that stops
    on them), else on stdout (a check that reports them)."""
    out: TextIO = sys.stderr if err else sys.stdout
    print(heading, file=out)
    for problem in problems:
        print(f"  - {problem}", file=out)
