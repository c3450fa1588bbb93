"""A map may set the encounter's round limit (``max_rounds``, docs/MAPS.md; Hexslinger's own): every
ruleset ends the encounter after that round instead of its own default (docs/RULES.md Frontier 28, R23,
G21), so a big map can give the posses the rounds they need to cross it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.bench import corpus

ROOT = Path(__file__).resolve().parents[2]


def _ranch_with_limit(tmp_path: Path, limit: int) -> Path:
    """The shipped ranch_duel (tilesets beside it) with the map property ``max_rounds`` added."""
    for f in (ROOT / "maps").iterdir():
        if f.suffix in (".tsx", ".tmx", ".png") or f.is_dir():
            (shutil.copytree if f.is_dir() else shutil.copy)(f, tmp_path / f.name)
    path = tmp_path / "ranch_duel.tmx"
    text = path.read_text(encoding="utf-8")
    line = f'  <property name="max_rounds" type="int" value="{limit}"/>\n'
    path.write_text(text.replace(" <properties>\n", " <properties>\n" + line, 1), encoding="utf-8")
    return path


def _play(ruleset: str, path: Path, seed: int) -> tuple[int, str]:
    make, player = corpus.GAMES[ruleset]
    match = make(path, seed)
    while not match.is_over and len(match.log) < 3000:
        match.apply(player(match))
    outcome = match.outcome()
    assert outcome is not None
    return max((e.round for e in match.history), default=0), outcome.reason


@pytest.mark.parametrize("ruleset", sorted(corpus.GAMES))
def test_the_maps_round_limit_ends_the_encounter(tmp_path: Path, ruleset: str) -> None:
    path = _ranch_with_limit(tmp_path, 2)
    last, reason = _play(ruleset, path, seed=4)
    assert last <= 2
    assert "after 2 rounds" in reason, reason


@pytest.mark.parametrize("ruleset", sorted(corpus.GAMES))
def test_without_the_property_the_rulesets_own_limit_holds(tmp_path: Path, ruleset: str) -> None:
    """The same games on the map without the property go on past round 2."""
    last, reason = _play(ruleset, ROOT / "maps" / "ranch_duel.tmx", seed=4)
    assert last > 2 and "after 2 rounds" not in reason
