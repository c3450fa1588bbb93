"""`hexslinger balance` (issue 15): a 200-game balance report on maps/ranch_duel.tmx with 2 workers, the
encounter alone (target <= 30 s) and with its sensitivity table (50 games per change). Under
`make test` (--benchmark-disable) each runs once on 2 games, untimed. The figures are in
docs/PERFORMANCE.md; no test asserts a time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from game.cli import main

ROOT = Path(__file__).resolve().parents[2]
RANCH = ROOT / "encounters" / "frontier_ranch_house.toml"  # played on maps/ranch_duel.tmx


@pytest.mark.parametrize("sensitivity", [0, 50], ids=["report", "report+sensitivity"])
def test_bench_balance_report_of_200_games(
    benchmark: BenchmarkFixture, tmp_path: Path, capsys: pytest.CaptureFixture[str], sensitivity: int
) -> None:
    games = 2 if benchmark.disabled else 200
    changes = min(sensitivity, games)
    argv = ["balance", str(RANCH), "--games", str(games), "--sensitivity-games", str(changes)]
    argv += ["--workers", "2", "--out", str(tmp_path), "--json"]

    def report() -> int:
        return main(argv)

    assert benchmark.pedantic(report, rounds=1, iterations=1) == 0
    numbers = json.loads(capsys.readouterr().out)
    assert numbers["games"] == games and numbers["map"] == "ranch_duel"
    assert bool(numbers["sensitivity"]) == bool(changes)
    assert (tmp_path / "frontier_ranch_house-balance.html").is_file()
