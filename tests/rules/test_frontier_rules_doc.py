"""docs/RULES.md's Frontier decisions name the tests that hold them: every named test exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def test_every_test_named_in_the_frontier_section_exists() -> None:
    text = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    section = text.split("\n## Frontier", 1)[1].split("\n## ", 1)[0]  # up to the next ruleset
    rows = [line for line in section.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert len(rows) >= 30
    current = ""
    named = 0
    for row in rows:
        for file_part, test in re.findall(r"`(test_frontier_\w+\.py)?(?:::(\w+))?`", row.split("|")[-2]):
            current = file_part or current
            path = ROOT / "tests" / "rules" / current
            assert path.exists(), current
            if test:
                named += 1
                assert f"def {test}(" in path.read_text(encoding="utf-8"), f"{current}::{test}"
    assert named >= 30
