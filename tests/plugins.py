"""Registering a ruleset plugin for a test the way an installed package would: a distribution's
``entry_points.txt`` in a folder on ``sys.path`` (importlib.metadata finds it like any installed one)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from game.engine import registry


@contextmanager
def installed_plugin(
    folder: Path, name: str, target: str, dist: str = "hexslinger_test_plugin"
) -> Iterator[None]:
    """Within the block, ``hexslinger.rulesets`` has an entry point ``name = target`` (e.g.
    ``toy = "tests.toy_ruleset:PLUGIN"``) from a distribution installed in ``folder``."""
    info = folder / f"{dist}-1.0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{registry.GROUP}]\n{name} = {target}\n", encoding="utf-8")
    sys.path.insert(0, str(folder))
    registry.refresh()
    try:
        yield
    finally:
        sys.path.remove(str(folder))
        registry.refresh()
