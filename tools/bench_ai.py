"""``make bench-ai``: how well and how fast the AI plays, measured as issue 12 asks, written to docs/AI.md.

- Strength: side-swapped seed pairs (each seed played twice, the controllers on swapped sides) per
  (ruleset, shipped map, opponent) on the even encounters of ``tests/bench/corpus.py`` (``EVEN``:
  Frontier's Law against the Outlaws, Through the Rift's Rifters against Rifters), for normal vs random,
  normal vs greedy, hard vs normal, normal vs easy, easy vs random and greedy vs random (the baselines'
  sanity check). Draws count as non-wins; win rates with Wilson 95% intervals; the share of games that
  ended at the round limit.
- Decision time of the normal AI over the recorded positions of ``tests/bench/corpus.py`` (median, p95,
  max).
- Throughput: normal-vs-normal Frontier games on ranch_duel with 2 workers, and the cost of that AI batch
  against a greedy-vs-greedy batch on the same seeds.

``--pairs`` (``make bench-ai PAIRS=20``) sets the seed pairs per cell (the issue's measure: 200). The
markdown tables are printed and written between the ``bench-ai`` marker comments of docs/AI.md.
Run from the checkout's top folder (it reads the corpus from ``tests/``).
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import os
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ai.agent import UtilityAgent
from ai.simulate import Batch, BatchResult, percentile, run_batch, wilson, worker_pool
from game.resources import shipped_maps

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "AI.md"
START = "<!-- bench-ai:start (written by make bench-ai: tools/bench_ai.py) -->"
END = "<!-- bench-ai:end -->"
SEED = 12  # every cell plays the same seeds
THROUGHPUT_MAP = "ranch_duel"


@dataclass(frozen=True, slots=True)
class Matchup:
    first: str
    second: str
    target: float  # the first's win rate the issue asks for
    low: float  # ... and the lower bound of its 95% interval (0: none asked)
    round_limit: float = 1.0  # the largest share of games that may end at the round limit


MATCHUPS = (
    Matchup("ai:normal", "random", 0.96, 0.93, 0.01),
    Matchup("ai:normal", "greedy", 0.75, 0.70),
    Matchup("ai:hard", "ai:normal", 0.60, 0.0),
    Matchup("ai:normal", "ai:easy", 0.60, 0.0),
    Matchup("ai:easy", "random", 0.85, 0.0),
    Matchup("greedy", "random", 0.60, 0.0),
)


@dataclass(slots=True)
class Cell:
    """One (ruleset, map, matchup): the first controller's wins, by the side it played."""

    ruleset: str
    map: str
    matchup: Matchup
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    round_limit: int = 0
    errors: int = 0
    side_games: dict[str, int] = field(default_factory=lambda: {"side1": 0, "side2": 0})
    side_wins: dict[str, int] = field(default_factory=lambda: {"side1": 0, "side2": 0})
    seconds: float = 0.0

    def add(self, result: BatchResult) -> None:
        first = self.matchup.first
        for g in result.games:
            r = g.record
            if r["error"] is not None:
                self.errors += 1
                continue
            self.games += 1
            side = next(s for s, c in r["controllers"].items() if c == first)
            if r["controllers"]["side1"] == r["controllers"]["side2"]:  # a mirror: by seat
                side = "side2" if r["swapped"] else "side1"
            self.side_games[side] += 1
            if r["winner_side"] is None:
                self.draws += 1
                self.round_limit += r["round_limit"]
            elif r["winner_side"] == side:
                self.wins += 1
                self.side_wins[side] += 1
            else:
                self.losses += 1
        self.seconds += result.elapsed


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _rate(wins: int, games: int) -> str:
    if not games:
        return "-"
    low, high = wilson(wins, games)
    return f"{_pct(wins / games)} [{_pct(low)}, {_pct(high)}]"


def _side_rate(cell: Cell, side: str) -> str:
    n = cell.side_games[side]
    return f"{_pct(cell.side_wins[side] / n)} ({n})" if n else "-"


def strength_tables(cells: list[Cell]) -> list[str]:
    out: list[str] = []
    for m in MATCHUPS:
        rows = [c for c in cells if c.matchup == m]
        if not rows:
            continue
        out += [
            f"#### {m.first} vs {m.second}",
            "",
            f"Target: {m.first} wins >= {_pct(m.target)}"
            + (f" (95% lower bound >= {_pct(m.low)})" if m.low else "")
            + (f"; <= {_pct(m.round_limit)} of games at the round limit" if m.round_limit < 1 else ""),
            "",
            f"| ruleset | map | games | {m.first} wins [95% CI] | draws | round limit "
            "| as side1 | as side2 | errors | time |",
            "|---|---|---:|---|---:|---:|---:|---:|---:|---:|",
        ]
        for c in rows:
            out.append(
                f"| {c.ruleset} | {c.map} | {c.games} | {_rate(c.wins, c.games)} | {c.draws} "
                f"| {_pct(c.round_limit / c.games) if c.games else '-'} | {_side_rate(c, 'side1')} "
                f"| {_side_rate(c, 'side2')} | {c.errors} | {c.seconds:.0f} s |"
            )
        for ruleset in dict.fromkeys(c.ruleset for c in rows):
            mine = [c for c in rows if c.ruleset == ruleset]
            games = sum(c.games for c in mine)
            wins = sum(c.wins for c in mine)
            limit = sum(c.round_limit for c in mine)
            low = wilson(wins, games)[0]
            met = games > 0 and wins / games >= m.target and low >= m.low and limit / games <= m.round_limit
            out.append(
                f"| **{ruleset}, pooled** | all | {games} | **{_rate(wins, games)}** "
                f"| {sum(c.draws for c in mine)} | {_pct(limit / games) if games else '-'} | | "
                f"| {sum(c.errors for c in mine)} | {'target met' if met else '**target not met**'} |"
            )
        out.append("")
    return out


def decision_times(rulesets: Sequence[str], level: str = "normal") -> tuple[list[str], dict[str, float]]:
    """The ``level`` AI's decision time over the corpus's recorded positions, per ruleset and pooled."""
    corpus = _corpus()
    rows = [
        f"| ruleset | positions | median | p95 | max |  (the {level} AI, one decision per position)",
        "|---|---:|---:|---:|---:|",
    ]
    every: list[float] = []
    for ruleset in rulesets:
        times: list[float] = []
        for i, match in enumerate(corpus.positions(ruleset)):
            if match.is_over:
                continue
            side = match.legal_actions()[0].side
            agent = UtilityAgent(level, seed=i)
            start = time.perf_counter()
            agent.decide(match.view(side), 0)
            times.append(time.perf_counter() - start)
        every += times
        rows.append(_time_row(ruleset, times))
    rows.append(_time_row("**all**", every))
    figures = {
        "positions": len(every),
        "median": statistics.median(every) * 1000,
        "p95": percentile(every, 95) * 1000,
        "max": max(every) * 1000,
    }
    return rows, figures


def _time_row(name: str, times: list[float]) -> str:
    if not times:
        return f"| {name} | 0 | - | - | - |"
    return (
        f"| {name} | {len(times)} | {statistics.median(times) * 1000:.1f} ms "
        f"| {percentile(times, 95) * 1000:.1f} ms | {max(times) * 1000:.1f} ms |"
    )


def throughput(games: int, workers: int) -> list[str]:
    corpus = _corpus()
    path = next(p for p in shipped_maps() if p.stem == THROUGHPUT_MAP)
    posses = tuple(corpus.EVEN["frontier"](path, 0).posses)
    rows = [
        "| batch | games | workers | wall time | games/s | errors |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    seconds: dict[str, float] = {}
    for pair in (("ai:normal", "ai:normal"), ("greedy", "greedy")):
        batch = Batch(path, "frontier", (posses[0], posses[1]), pair, games, SEED)
        _log(f"throughput: {games} {pair[0]} vs {pair[1]} games on {THROUGHPUT_MAP}, {workers} workers")
        result = run_batch(batch, workers=workers)
        errors = sum(1 for g in result.games if g.record["error"] is not None)
        seconds[pair[0]] = result.elapsed
        rows.append(
            f"| {pair[0]} vs {pair[1]}, Frontier, {THROUGHPUT_MAP} | {len(result.games)} | {workers} "
            f"| {result.elapsed:.1f} s | {len(result.games) / result.elapsed:.1f} | {errors} |"
        )
    ratio = seconds["ai:normal"] / seconds["greedy"]
    rows += [
        "",
        f"The AI batch costs {ratio:.1f}x the greedy batch on the same seeds "
        f"(target: 1,000 games in <= 60 s; AI <= 2x greedy).",
    ]
    return rows


def _corpus() -> Any:
    """tests/bench/corpus.py (the recorded positions and the even encounters), read from the checkout."""
    return importlib.import_module("tests.bench.corpus")


def _log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def machine() -> str:
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"{platform.python_implementation()} {platform.python_version()} on {platform.system()} "
        f"{platform.machine()}, {cpus} CPU cores (load average {load:.1f} at the start: the machine was "
        f"shared), {datetime.date.today().isoformat()}"
    )


def write_doc(text: str, doc: Path = DOC) -> None:
    """Replace what stands between the marker comments of ``doc`` (added at its end if it has none)."""
    old = doc.read_text(encoding="utf-8") if doc.exists() else ""
    block = f"{START}\n{text.rstrip()}\n{END}"
    if START in old and END in old:
        head, rest = old.split(START, 1)
        _, tail = rest.split(END, 1)
        new = head + block + tail
    else:
        new = old.rstrip() + ("\n\n" if old else "") + block + "\n"
    doc.write_text(new, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_ai", description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=200, help="seed pairs per (ruleset, map, opponent)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--throughput", type=int, default=1000, help="games in each throughput batch")
    parser.add_argument(
        "--rulesets",
        nargs="*",
        default=[],
        help="rulesets to measure (default: every one with an even encounter)",
    )
    parser.add_argument("--maps", nargs="*", default=[], help="shipped map names (default: all)")
    parser.add_argument("--no-doc", action="store_true", help="print the tables only")
    args = parser.parse_args(argv)
    corpus = _corpus()
    args.rulesets = args.rulesets or list(corpus.EVEN)
    header = [
        f"Measured with `make bench-ai PAIRS={args.pairs}`: {args.pairs} side-swapped seed pairs "
        f"({2 * args.pairs} games) per ruleset, map and opponent, {args.workers} workers; {machine()}.",
        "",
    ]
    maps = [p for p in shipped_maps() if not args.maps or p.stem in args.maps]
    cells: list[Cell] = []
    started = time.perf_counter()
    pool = worker_pool(args.workers) if args.workers > 1 else None
    try:
        for ruleset in args.rulesets:
            for path in maps:
                posses = tuple(corpus.EVEN[ruleset](path, 0).posses)
                for m in MATCHUPS:
                    batch = Batch(
                        path, ruleset, (posses[0], posses[1]), (m.first, m.second), args.pairs, SEED, True
                    )
                    cell = Cell(ruleset, path.stem, m)
                    cell.add(run_batch(batch, workers=args.workers, pool=pool))
                    cells.append(cell)
                    _log(
                        f"{ruleset} {path.stem} {m.first} vs {m.second}: {cell.wins}-{cell.losses}-"
                        f"{cell.draws} ({cell.seconds:.0f} s; {time.perf_counter() - started:.0f} s in all)"
                    )
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    lines = [*header, "### Strength", "", *strength_tables(cells)]
    _log("decision times over the corpus")
    rows, _ = decision_times(args.rulesets)
    lines += [
        "### Decision time",
        "",
        *rows,
        "",
        "Targets: median <= 10 ms, p95 <= 50 ms, max <= 250 ms.",
        "",
    ]
    if args.throughput > 0:
        lines += ["### Throughput", "", *throughput(args.throughput, args.workers), ""]
    lines.append(f"The whole run took {(time.perf_counter() - started) / 60:.0f} minutes.")
    text = "\n".join(lines)
    print(text)
    if not args.no_doc:
        write_doc(text)
        _log(f"wrote the tables to {DOC}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
