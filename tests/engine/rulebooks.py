"""Rulebook quotes for the engine tests, each checked word for word against its seed file.

A test module makes a :class:`Quotes`, writes every sentence it implements as ``Q("golden", "...")`` and
has one test calling ``Q.check()``: a quote that is not in the book (up to whitespace and the markdown
emphasis marks ``*`` and ``_``) fails it. Skipped where the seeds are not checked out beside the repo.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
SEEDS = ROOT.parent / "shared" / "seeds"
BOOKS = {"golden": "000", "frontier": "001", "bullet": "002", "sunset": "004"}


def _normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("*", "").replace("_", "")).strip()


class Quotes:
    def __init__(self) -> None:
        self.quotes: list[tuple[str, str]] = []

    def __call__(self, book: str, text: str) -> str:
        assert book in BOOKS, book
        self.quotes.append((book, text))
        return text

    def check(self) -> None:
        assert self.quotes
        for book, text in self.quotes:
            found = sorted(SEEDS.glob(f"{BOOKS[book]}_*.txt"))
            if not found:
                pytest.skip(f"the rulebooks are not at {SEEDS}")
            assert _normalise(text) in _normalise(found[0].read_text(encoding="utf-8")), (book, text)
