"""docs/RULES.md's Golden Frontiers section: every sentence it quotes is in the rulebook (word for word, up
to whitespace and emphasis) and every test it names exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.engine.rulebooks import SEEDS, _normalise

ROOT = Path(__file__).resolve().parent.parent.parent


def section() -> str:
    text = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    return text.split("\n## Golden Frontiers", 1)[1].split("\n## ", 1)[0]


def rows() -> list[str]:
    return [line for line in section().splitlines() if line.startswith("| G")]


def test_every_quote_of_the_section_is_in_the_rulebook() -> None:
    found = sorted(SEEDS.glob("000_*.txt"))
    if not found:
        pytest.skip(f"the rulebooks are not at {SEEDS}")
    book = _normalise(found[0].read_text(encoding="utf-8"))
    quotes = [q for row in rows() for q in re.findall(r'"([^"]{6,})"', row.split("|")[2])]
    assert len(quotes) >= 30
    for quote in quotes:
        parts = [p.strip() for p in quote.split("...")]  # an ellipsis leaves words out
        for part in parts:
            assert _normalise(part) in book, quote


def test_every_test_named_in_the_section_exists() -> None:
    assert len(rows()) >= 25
    named = 0
    for row in rows():
        current = ""
        for file_part, test in re.findall(
            r"`((?:tests/\w+/)?test_\w+\.py)?(?:::(\w+))?`", row.split("|")[-2]
        ):
            current = file_part or current
            path = ROOT / current if current.startswith("tests/") else None
            if path is None:
                path = next(
                    p for p in (ROOT / "tests" / d / current for d in ("rules", "engine", "ui")) if p.exists()
                )
            assert path.exists(), current
            if test:
                named += 1
                assert f"def {test}(" in path.read_text(encoding="utf-8"), f"{current}::{test}"
    assert named >= 30
