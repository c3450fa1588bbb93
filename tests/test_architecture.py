"""The layering DESIGN.md asks for: rules and AI run headless, and no game code uses global random."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADLESS_PACKAGES = ("game", "ai")


def _modules() -> list[str]:
    names = []
    for package in HEADLESS_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            parts = list(rel.parts)
            if parts[:2] == ["game", "ui"] or parts[-1] == "__main__":
                continue
            if parts[-1] == "__init__":
                parts.pop()
            names.append(".".join(parts))
    return names


def test_everything_but_game_ui_imports_without_pygame() -> None:
    modules = _modules()
    assert "game.hexgrid" in modules
    code = (
        "import sys\n"
        "sys.modules['pygame'] = None\n"
        "sys.modules['pygame_gui'] = None\n"
        "import importlib\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "print('ok')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


HEADLESS_UI = (
    "game.ui.session",
    "game.ui.picking",
    "game.ui.combatlog",
    "game.ui.battle_words",
    "game.ui.battle_feed",
    "game.ui.controller",
    "game.ui.action_bar",
)


def test_the_battle_controller_and_its_parts_import_without_pygame() -> None:
    """The battle screen's decisions (game.ui.controller and what it reads) run headless: only the
    drawing and event decoding around them need pygame."""
    code = (
        "import sys\n"
        "sys.modules['pygame'] = None\n"
        "sys.modules['pygame_gui'] = None\n"
        "import importlib\n"
        f"for name in {HEADLESS_UI!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.startswith('pygame') and sys.modules[m] is not None))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_no_module_level_random_in_game_or_ai() -> None:
    """One seeded random.Random per match: game and AI code never call the global random functions."""
    offenders = []
    for package in HEADLESS_PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id == "random"
                    and node.attr != "Random"
                ):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} random.{node.attr}")
                if isinstance(node, ast.ImportFrom) and node.module == "random":
                    names = [alias.name for alias in node.names if alias.name != "Random"]
                    if names:
                        offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} from random import {names}")
    assert offenders == []


def test_top_level_layout() -> None:
    for name in ("pyproject.toml", "game", "assets", "maps", "ai", "tests", "README.md", "Makefile"):
        assert (ROOT / name).exists(), name
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_never_depends_on_plain_pygame() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    deps = [line.strip().strip('",') for line in text.splitlines() if line.strip().startswith('"pygame')]
    assert "pygame-ce>=2.5" in deps
    assert not any(d.split(">")[0].split("=")[0] == "pygame" for d in deps)


def test_the_tests_import_the_checkouts_own_packages() -> None:
    """``import ai`` in a test is this checkout's ``ai/`` (not ``tests/ai``, nor another checkout's through
    the editable install): what the tests check is the code beside them."""
    import ai
    import ai.agent
    import game

    for module in (ai, ai.agent, game):
        assert module.__file__ is not None
        assert Path(module.__file__).resolve().is_relative_to(ROOT), module.__file__
    assert Path(ai.__file__ or "").resolve().parent == ROOT / "ai"
