"""Map loading and the rules' spatial queries on the largest shipped map (budgets in DESIGN.md)."""

from __future__ import annotations

from pathlib import Path

from pytest_benchmark.fixture import BenchmarkFixture

from game.battlefield import Battlefield
from game.mapload import load_battlefield
from game.tiledmap import load_tiled_map
from tests.bench.conftest import passable_hexes


def test_bench_load_tiled_map(benchmark: BenchmarkFixture, big_map_path: Path) -> None:
    tmap = benchmark(load_tiled_map, big_map_path)
    assert tmap.width * tmap.height >= 3600


def test_bench_load_battlefield(benchmark: BenchmarkFixture, big_map_path: Path) -> None:
    """Budget: loading the largest shipped map <= 150 ms (file to rules-ready battlefield)."""
    field = benchmark(load_battlefield, big_map_path)
    assert len(field.hexes) >= 3600


def test_bench_sight_and_cover_40_units(benchmark: BenchmarkFixture, big_battlefield: Battlefield) -> None:
    """Budget: line of sight + cover for all pairs among 40 hexes <= 3 ms."""
    hexes = passable_hexes(big_battlefield, 40, seed=40)
    result = benchmark(big_battlefield.visibility, hexes)
    # the batch answer must agree with the one-pair queries
    for (a, b), cover in list(result.items())[:50]:
        assert big_battlefield.sight_and_cover(a, b) == cover


def test_bench_reachable_10(benchmark: BenchmarkFixture, big_battlefield: Battlefield) -> None:
    start = passable_hexes(big_battlefield, 1, seed=10)[0]
    reach = benchmark(big_battlefield.reachable, start, 10)
    assert start in reach
    assert max(reach.values()) <= 10


def test_bench_path_across_the_map(benchmark: BenchmarkFixture, big_battlefield: Battlefield) -> None:
    candidates = passable_hexes(big_battlefield, 400, seed=7)
    a = min(candidates, key=lambda h: (h.q + h.r, h.q))
    b = max(candidates, key=lambda h: (h.q + h.r, h.q))
    route = benchmark(big_battlefield.path, a, b)
    assert route is not None
    assert route[0] == a
    assert route[-1] == b


def test_bench_sight_and_cover_40_units_new_layout_each_time(
    benchmark: BenchmarkFixture, big_battlefield: Battlefield
) -> None:
    """The same query with 40 fresh positions every round, so line tables for new offsets get built
    (the cost a turn pays when units have moved), rather than the all-warm figure above."""
    layouts = [passable_hexes(big_battlefield, 40, seed=1000 + i) for i in range(60)]
    rounds = iter(layouts)

    def fresh() -> int:
        return len(big_battlefield.visibility(next(rounds)))

    seen = benchmark.pedantic(fresh, rounds=60, iterations=1)
    assert seen > 0
