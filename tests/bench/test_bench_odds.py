""" "What are the odds from here?" (issue 15, the sandbox): 100 ai:normal continuations of a position on
``maps/ranch_duel.tmx`` in worker processes (target: 5 s). The workers are started first, as opening GM
mode does (``ai.odds.warm``; their start-up is recorded apart). Wall time and the time per continuation
are recorded in ``extra_info``; no test asserts a time (docs/PERFORMANCE.md has the figures with the
machine and its load)."""

from __future__ import annotations

import contextlib
import os
import time

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from ai.odds import OddsRun, default_workers, shutdown, warm
from game.engine.match import Match
from game.ui.demo import demo_match, deploy_all

GAMES = int(os.environ.get("HEXSLINGER_ODDS_GAMES", "100"))


def _position(ruleset: str) -> Match:
    """The default posses on Showdown at the Lazy K, deployed: the position a GM asks about first."""
    match = demo_match(ruleset)
    deploy_all(match)
    return match


@pytest.mark.parametrize("ruleset", ["frontier", "rift", "golden"])
def test_bench_odds_from_here(benchmark: BenchmarkFixture, ruleset: str) -> None:
    match = _position(ruleset)
    workers = default_workers()
    shutdown()
    started = time.perf_counter()
    for future in warm(workers):  # as GM mode opens: the workers start before the first question
        future.result()
    start_up = time.perf_counter() - started

    def run() -> float:
        begun = time.perf_counter()
        odds = OddsRun(match, GAMES, seed=1, workers=workers).wait()
        assert odds.played + odds.failed == GAMES and odds.failed == 0
        return time.perf_counter() - begun

    wall = benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(
        {
            "games": GAMES,
            "workers": workers,
            "wall_s": round(wall, 2),
            "per_game_s": round(wall / GAMES, 3),
            "start_up_s": round(start_up, 2),
        }
    )
    with contextlib.suppress(OSError):
        benchmark.extra_info["load_average"] = os.getloadavg()[0]
    shutdown()
