"""docs/RULES.md's Through the Rift decisions name the tests that hold them: every named test exists.

Rows are "| R<n> |" so the Frontier section's check (rows "| <n> |") skips them.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def test_every_test_named_in_the_rift_section_exists() -> None:
    text = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    section = text.split("\n## Through the Rift\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if re.match(r"\| R[A-Z]?\d", line)]  # R7, RA1, ...
    assert len(rows) >= 25
    named = 0
    for row in rows:
        current = ""
        for file_part, test in re.findall(r"`(test_rift_\w+\.py)?(?:::(\w+))?`", row.split("|")[-2]):
            current = file_part or current
            assert current, row
            path = ROOT / "tests" / "rules" / current
            assert path.exists(), current
            if test:
                named += 1
                assert f"def {test}(" in path.read_text(encoding="utf-8"), f"{current}::{test}"
    assert named >= 20
