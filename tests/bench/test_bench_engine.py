"""The rules engine's speed (issue 10, part 5): copies, keys, legal actions over a corpus of positions,
the rules' cost of whole games, and undo. Per-call medians and p95s over the corpus are printed by
``tools/bench_report.py`` from ``extra_info``."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from game.engine.match import Match
from game.ui.session import BattleSession
from tests.bench import corpus

RANCH = corpus.ROOT / "maps" / "ranch_duel.tmx"


def _per_call(extra: dict[str, object], samples: list[float]) -> None:
    ordered = sorted(samples)
    extra["calls"] = len(ordered)
    extra["median_ms"] = round(statistics.median(ordered) * 1000, 4)
    extra["p95_ms"] = round(ordered[max(0, int(len(ordered) * 0.95) - 1)] * 1000, 4)
    extra["max_ms"] = round(ordered[-1] * 1000, 4)


def _midgame(ruleset: str, map_path: Path) -> Match:
    make, player = corpus.GAMES[ruleset]
    match = make(map_path, 1)
    while len(match.log) < 40 and not match.is_over:
        match.apply(player(match))
    return match


@pytest.mark.parametrize("ruleset", sorted(corpus.GAMES))
def test_bench_clone_on_the_largest_map(
    benchmark: BenchmarkFixture, big_map_path: Path, ruleset: str
) -> None:
    """Budget (issue 10): Match.clone() on the largest shipped map <= 0.5 ms median."""
    match = _midgame(ruleset, big_map_path)
    copy = benchmark(match.clone)
    assert copy.digest() == match.digest()


@pytest.mark.parametrize("ruleset", sorted(corpus.GAMES))
def test_bench_state_key(benchmark: BenchmarkFixture, big_map_path: Path, ruleset: str) -> None:
    """Budget (issue 10): a state key for caches <= 50 µs."""
    match = _midgame(ruleset, big_map_path)
    key = benchmark(match.key)
    assert key == match.clone().key()


@pytest.mark.parametrize("ruleset", sorted(corpus.GAMES))
def test_bench_legal_actions_over_the_corpus(benchmark: BenchmarkFixture, ruleset: str) -> None:
    """Budget (issue 10): legal_actions median <= 0.2 ms, p95 <= 1 ms per call over the corpus; each
    call is on a fresh copy, so nothing computed for the position before is reused."""
    positions = corpus.positions(ruleset)
    samples: list[float] = []

    def run() -> int:
        samples.clear()
        total = 0
        for position in positions:
            fresh = position.clone()
            start = time.perf_counter()
            total += len(fresh.legal_actions())
            samples.append(time.perf_counter() - start)
        return total

    assert benchmark.pedantic(run, rounds=3, iterations=1) > 0
    _per_call(benchmark.extra_info, samples)


@pytest.mark.parametrize("ruleset", sorted(corpus.GAMES))
def test_bench_rules_cost_of_a_greedy_game(benchmark: BenchmarkFixture, ruleset: str) -> None:
    """Budget (issue 10): every legal_actions, validate and apply call of a whole greedy-vs-greedy game on
    maps/ranch_duel.tmx <= 40 ms median (the players' own thinking left out: the log is replayed)."""
    log = corpus.play_log(ruleset, RANCH, 1)
    make, _ = corpus.GAMES[ruleset]

    def setup() -> tuple[tuple[Match], dict[str, object]]:
        return (make(RANCH, 1),), {}

    def game(match: Match) -> Match:
        for cmd in log:
            match.legal_actions()
            assert match.validate(cmd) is None
            match.apply(cmd)
        return match

    benchmark.extra_info["commands"] = len(log)
    benchmark.pedantic(game, setup=setup, rounds=5, iterations=1)


def test_bench_undo_on_the_largest_map(
    benchmark: BenchmarkFixture, big_map_path: Path, tmp_path: Path
) -> None:
    """Budget (issue 10): undo on maps/canyon_railyard.tmx <= 2 ms (it was a replay of 155-189 ms)."""
    match = _midgame("rift", big_map_path)
    session = BattleSession(match, None)

    def setup() -> tuple[tuple[()], dict[str, object]]:
        while True:
            move = next((a for a in session.legal() if a.action == "move" and a.enabled), None)
            if move is not None:
                break
            end = next(a for a in session.legal() if a.ends_turn)
            session.apply(end.command())
        here = session.match.position(move.actor)
        assert here is not None
        path = session.match.battlefield.path(here, move.hexes[0])
        assert path is not None
        session.apply(move.command(path=tuple(path)))
        assert session.undo_problem() is None
        return (), {}

    benchmark.pedantic(session.undo, setup=setup, rounds=20, iterations=1)
