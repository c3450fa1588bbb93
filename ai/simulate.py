"""Batches of headless games between controllers: what ``hexslinger simulate`` and ``make bench-ai`` run.

A :class:`Batch` is one encounter (a map, a ruleset, a posse per side) played ``games`` times by two
controllers (``ai:PROFILE``, ``random``, ``greedy``: :mod:`ai.controllers`). Game ``i``'s match seed and
its players' seeds are derived from the batch seed and ``i`` alone (:func:`derive_seed`, a hash, the same
in every process), so any game can be played again on its own. With ``swap`` each seed is played twice,
the second time with the controllers on swapped sides; results are counted by controller, not by side.

Games run in this process (``workers=1``) or in a pool of spawned worker processes; records come back in
game order whatever the number of workers, so the per-game records (:func:`record_line`) are
byte-identical for any worker count. Only wall-clock measures (decision times, elapsed time) differ from
run to run; they are kept apart (:class:`GameOutcome.times`, the summary's ``decision_ms``).

A game that raises, or whose player sends an illegal command, is recorded with its seed and the error,
and a save of the match as it stood (replayable with ``hexslinger replay``) is written to the save
folder; the batch goes on. A KeyboardInterrupt (Ctrl-C), in this process or raised in a game in a worker,
stops the batch: the games finished so far are returned, marked interrupted.

No pygame here: charts are :mod:`ai.charts` (matplotlib), the map under the heatmap is drawn by the CLI.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import multiprocessing
import multiprocessing.pool
import signal
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ai.baselines import Player
from ai.controllers import make_player
from ai.runner import play
from game.battlefield import Battlefield, Terrain
from game.engine.match import IllegalCommandError, Match
from game.engine.protocol import PosseSpec
from game.engine.registry import get_ruleset
from game.engine.scenario import Scenario
from game.events import FLED, DamageTaken, Moved, UnitRemoved
from game.hexgrid import Hex
from game.mapload import load_battlefield
from game.save import save_match
from game.stats import battle_stats

__all__ = [
    "ROUND_LIMIT_WORDS",
    "SIDES",
    "Batch",
    "BatchResult",
    "GameOutcome",
    "PlayerFactory",
    "derive_seed",
    "percentile",
    "record_line",
    "run_batch",
    "summarize",
    "timing_line",
    "wilson",
    "worker_pool",
]

SIDES = ("side1", "side2")
# Both rulesets end a battle that has run out of rounds with these words ("the sun went down after N
# rounds: no winner"): such a draw is counted as ending at the round limit.
ROUND_LIMIT_WORDS = "the sun went down"
Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval

PlayerFactory = Callable[[str, int], Player]


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed from the batch seed and ``parts`` (sha256: the same in every process and run)."""
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") >> 1


@dataclass(frozen=True, slots=True)
class Batch:
    """``games`` seeds of one encounter: ``posses`` and ``controllers`` are given side1 first; with
    ``swap`` every seed is played twice (2 x ``games`` games), the second time with the controllers on
    swapped sides (the posses stay where they are)."""

    map_path: Path
    ruleset: str
    posses: tuple[PosseSpec, PosseSpec]
    controllers: tuple[str, str]
    games: int
    seed: int
    swap: bool = False
    scenario: Scenario | None = None  # an encounter file's rules (game.encounter), None: the map's own
    # hexes whose terrain differs from the map file's (a balance report's variant with a cover object
    # taken away: game.encounter.balance); every match of the batch starts with them
    terrain: tuple[tuple[Hex, Terrain], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "posses", tuple(replace(p, side=s) for p, s in zip(self.posses, SIDES, strict=True))
        )

    @property
    def total(self) -> int:
        """How many games the batch plays."""
        return self.games * (2 if self.swap else 1)

    def setup(self, game: int) -> tuple[int, bool, int, dict[str, str], dict[str, int]]:
        """Game ``game``'s (seed index, swapped, match seed, controller per side, player seed per side).

        A player's seed belongs to its controller's slot (``--side1`` / ``--side2``), so in a swapped
        pair each controller keeps its seed on the other side."""
        index, swapped = (game // 2, game % 2 == 1) if self.swap else (game, False)
        match_seed = derive_seed(self.seed, index, "match")
        slots = (1, 0) if swapped else (0, 1)
        controllers = {side: self.controllers[slot] for side, slot in zip(SIDES, slots, strict=True)}
        seeds = {
            side: derive_seed(self.seed, index, "player", slot + 1)
            for side, slot in zip(SIDES, slots, strict=True)
        }
        return index, swapped, match_seed, controllers, seeds


@dataclass(slots=True)
class GameOutcome:
    """One game: its ``record`` (JSON-ready, the same in every run) and ``times``, the seconds each
    controller spent per decision (wall clock: differs from run to run)."""

    record: dict[str, Any]
    times: dict[str, list[float]] = field(default_factory=dict)


@dataclass(slots=True)
class BatchResult:
    """The games played, in game order (a prefix of the batch if it was interrupted)."""

    batch: Batch
    games: list[GameOutcome]
    interrupted: bool = False
    elapsed: float = 0.0


# -- one game --------------------------------------------------------------------------------------------


@functools.cache
def _battlefield(path: Path) -> Battlefield:
    """The map, read once per process (every match gets its own copy)."""
    return load_battlefield(path)


def _new_match(batch: Batch, seed: int) -> Match:
    field_ = _battlefield(batch.map_path).clone()
    for h, terrain in batch.terrain:
        field_.set_terrain(h, terrain)
    return Match(
        field_,
        get_ruleset(batch.ruleset),
        list(batch.posses),
        seed,
        map_path=batch.map_path,
        scenario=batch.scenario,
    )


def _places(match: Match) -> tuple[list[list[int]], list[list[int]]]:
    """Where units were hit and where they went down, read from the history in order (a unit stands
    where its last Moved event took it). A unit that left the fight but not by fleeing went down where
    it was removed, or, if it stays on the map (overcome), where it last stood."""
    at: dict[int, Hex] = {}
    hits: list[list[int]] = []
    downs: dict[int, Hex] = {}
    fled: set[int] = set()
    for e in match.history:
        if isinstance(e, Moved) and e.path:
            at[e.unit] = e.path[-1]
        elif isinstance(e, DamageTaken) and e.amount > 0 and e.unit in at:
            h = at[e.unit]
            hits.append([h.q, h.r])
        elif isinstance(e, UnitRemoved):
            if e.reason == FLED:
                fled.add(e.unit)
            elif e.unit in at:
                downs.setdefault(e.unit, at[e.unit])
    for u in match.units(in_play=False):
        if u in fled or u in downs or u not in at:
            continue
        if match.unit_view(u).out:
            downs[u] = at[u]
    return hits, [[downs[u].q, downs[u].r] for u in sorted(downs)]


def _replayed(match: Match) -> Match:
    """The match rebuilt from its seed and log: what a save of it replays to (a rule that raised halfway
    may have left the live match changed without logging the command)."""
    assert match.map_path is not None
    field_ = _battlefield(match.map_path).clone()
    again = Match(field_, match.ruleset, match.posses, match.seed, match.map_path, scenario=match.scenario)
    for cmd in match.log:
        again.apply(cmd)
    return again


def _deciding_side(match: Match) -> str | None:
    try:
        legal = match.legal_actions()
    except Exception:  # the rules themselves are broken here: say nothing of who was to decide
        return None
    return legal[0].side if legal else None


def play_game(
    batch: Batch, game: int, make: PlayerFactory = make_player, save_dir: Path | None = None
) -> GameOutcome:
    """Play game ``game`` of ``batch`` to its end; an error is recorded (and its save written to
    ``save_dir``), never raised. KeyboardInterrupt is not caught here."""
    index, swapped, match_seed, controllers, seeds = batch.setup(game)
    record: dict[str, Any] = {
        "game": game,
        "pair": index,
        "swapped": swapped,
        "seed": match_seed,
        "player_seeds": seeds,
        "controllers": controllers,
    }
    times: dict[str, list[float]] = {}
    try:
        match = _new_match(batch, match_seed)
    except Exception as error:  # no match to save: the encounter itself cannot be set up
        record.update(_error(None, error, game, controllers, None))
        return GameOutcome(record, times)
    try:
        players = {side: make(controllers[side], seeds[side]) for side in SIDES}
        result = play(match, players)
    except Exception as error:
        record.update(_error(match, error, game, controllers, save_dir))
        return GameOutcome(record, times)
    for side in SIDES:
        times.setdefault(controllers[side], []).extend(result.decision_times.get(side, []))
    stats = battle_stats(match)
    hits, downs = _places(match)
    record.update(
        {
            "winner": None if result.winner is None else controllers[result.winner],
            "winner_side": result.winner,
            "reason": result.reason,
            "rounds": result.rounds,
            "commands": result.commands,
            "stalled": result.stalled,
            "round_limit": result.winner is None and result.reason.startswith(ROUND_LIMIT_WORDS),
            "decisions": {side: len(result.decision_times.get(side, [])) for side in SIDES},
            "survivors": {side: sum(1 for s in stats if s.side == side and not s.out) for side in SIDES},
            "units": [
                {
                    "unit": s.unit,
                    "side": s.side,
                    "name": s.name,
                    "attacks": s.attacks,
                    "hits": s.hits,
                    "damage_dealt": s.damage_dealt,
                    "damage_taken": s.damage_taken,
                    "out": s.out,
                }
                for s in stats
            ],
            "hits": hits,
            "downs": downs,
            "digest": match.digest(),
            "error": None,
        }
    )
    match.close()
    return GameOutcome(record, times)


def _error(
    match: Match | None, error: Exception, game: int, controllers: dict[str, str], save_dir: Path | None
) -> dict[str, Any]:
    side = None if match is None else _deciding_side(match)
    done = 0 if match is None else len(match.log)
    kind = "illegal command" if isinstance(error, IllegalCommandError) else type(error).__name__
    info: dict[str, Any] = {
        "message": f"{kind}: {error}",
        "side": side,
        "controller": None if side is None else controllers.get(side),
        "command": str(error.command) if isinstance(error, IllegalCommandError) else None,
        "commands": done,
        "save": None,
        "save_error": None,
    }
    if save_dir is not None and match is not None:
        name = f"error-game{game:05d}.json"
        try:
            try:
                saved = _replayed(match)
            except Exception:  # the log does not replay: keep the match as it stood
                saved = match
            save_match(saved, save_dir / name, name=f"simulate game {game}: {kind}")
            info["save"] = name
        except OSError as problem:
            info["save_error"] = f"the save could not be written: {problem.strerror or problem}"
    return {
        "winner": None,
        "winner_side": None,
        "reason": "error",
        "rounds": 0,
        "commands": done,
        "stalled": False,
        "round_limit": False,
        "decisions": {},
        "survivors": {},
        "units": [],
        "hits": [],
        "downs": [],
        "digest": None,
        "error": info,
    }


# -- the batch -------------------------------------------------------------------------------------------

_INTERRUPTED = "interrupted"


def _task(job: tuple[Batch, int, PlayerFactory, Path | None]) -> GameOutcome | str:
    """One game in a worker (or in this process); a KeyboardInterrupt raised while it plays becomes the
    ``interrupted`` mark, so the batch stops cleanly wherever it came from."""
    batch, game, make, save_dir = job
    try:
        return play_game(batch, game, make, save_dir)
    except KeyboardInterrupt:
        return _INTERRUPTED


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the parent (it stops the pool and keeps what was done)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def worker_pool(workers: int) -> multiprocessing.pool.Pool:
    """A pool of ``workers`` spawned processes for :func:`run_batch` (close and join it when done)."""
    return multiprocessing.get_context("spawn").Pool(workers, initializer=_quiet_worker)


def run_batch(
    batch: Batch,
    *,
    workers: int = 1,
    make: PlayerFactory = make_player,
    save_dir: Path | None = None,
    on_game: Callable[[GameOutcome], None] | None = None,
    pool: multiprocessing.pool.Pool | None = None,
) -> BatchResult:
    """Play every game of ``batch`` (``workers`` > 1: in that many spawned processes, or in ``pool``, one
    made by :func:`worker_pool` and kept for several batches); ``on_game`` sees each game in game order
    as soon as it and all before it are done. ``make`` builds a player from a controller name and a seed
    (a module-level function, so spawned workers can find it)."""
    start = time.perf_counter()
    done: list[GameOutcome] = []
    interrupted = False
    jobs = ((batch, g, make, save_dir) for g in range(batch.total))

    def take(outcomes: Iterator[GameOutcome | str]) -> bool:
        for outcome in outcomes:
            if isinstance(outcome, str):
                return True
            done.append(outcome)
            if on_game is not None:
                on_game(outcome)
        return False

    if pool is not None:
        try:
            interrupted = take(pool.imap(_task, jobs, chunksize=1))
        except KeyboardInterrupt:
            interrupted = True
    elif workers <= 1:
        try:
            interrupted = take(_task(job) for job in jobs)
        except KeyboardInterrupt:
            interrupted = True
    else:
        own = worker_pool(workers)
        try:
            interrupted = take(own.imap(_task, jobs, chunksize=1))
        except KeyboardInterrupt:
            interrupted = True
        finally:
            if interrupted:
                own.terminate()
            else:
                own.close()
            own.join()
    return BatchResult(batch, done, interrupted, time.perf_counter() - start)


# -- what it comes to ------------------------------------------------------------------------------------


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default); (0, 1) when no game was played."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values``, interpolated between the closest ranks; 0 if none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def _round(x: float, places: int = 4) -> float:
    return round(x, places)


def summarize(result: BatchResult) -> dict[str, Any]:
    """The batch in numbers: games, wins and draws by controller, win rates with Wilson 95% intervals,
    rounds, survivors, round-limit and stalled games, errors and decision times by controller.

    Everything but ``decision_ms`` and ``elapsed_s`` (wall clock) is the same for any worker count."""
    batch = result.batch
    controllers = list(dict.fromkeys(batch.controllers))
    records = [g.record for g in result.games]
    played = [r for r in records if r["error"] is None]
    wins = dict.fromkeys(controllers, 0)
    draws = dict.fromkeys(controllers, 0)
    games_of = dict.fromkeys(controllers, 0)
    side_wins = dict.fromkeys(SIDES, 0)
    survivors: dict[str, list[int]] = {c: [] for c in controllers}
    for r in played:
        in_game = set(r["controllers"].values())
        for c in in_game:
            games_of[c] += 1
        if r["winner"] is None:
            for c in in_game:
                draws[c] += 1
        else:
            wins[r["winner"]] += 1
            side_wins[r["winner_side"]] += 1
        for side, count in r["survivors"].items():
            survivors[r["controllers"][side]].append(count)
    rounds = [r["rounds"] for r in played]
    rates = {}
    for c in controllers:
        low, high = wilson(wins[c], games_of[c])
        rate = wins[c] / games_of[c] if games_of[c] else 0.0
        rates[c] = {"games": games_of[c], "rate": _round(rate), "low": _round(low), "high": _round(high)}
    times: dict[str, list[float]] = {c: [] for c in controllers}
    for g in result.games:
        for c, seconds in g.times.items():
            times.setdefault(c, []).extend(seconds)
    return {
        "map": batch.map_path.stem,
        "ruleset": batch.ruleset,
        "posses": {p.side: p.name for p in batch.posses},
        "controllers": dict(zip(SIDES, batch.controllers, strict=True)),
        "seed": batch.seed,
        "swap": batch.swap,
        "games": len(records),
        "planned": batch.total,
        "interrupted": result.interrupted,
        "wins": wins,
        "draws": draws,
        "draw_games": sum(1 for r in played if r["winner"] is None),
        "win_rate": rates,
        "wins_by_side": side_wins,
        "rounds": {
            "mean": _round(statistics.fmean(rounds)) if rounds else 0.0,
            "median": statistics.median(rounds) if rounds else 0,
            "min": min(rounds, default=0),
            "max": max(rounds, default=0),
        },
        "round_limit": sum(1 for r in played if r["round_limit"]),
        "stalled": sum(1 for r in played if r["stalled"]),
        "survivors": {c: _round(statistics.fmean(v)) if v else 0.0 for c, v in survivors.items()},
        "errors": [
            {"game": r["game"], "seed": r["seed"], **{k: r["error"][k] for k in ("message", "save")}}
            for r in records
            if r["error"] is not None
        ],
        "decision_ms": {
            c: {
                "decisions": len(v),
                "median": _round(statistics.median(v) * 1000, 3) if v else 0.0,
                "p95": _round(percentile(v, 95) * 1000, 3),
                "max": _round(max(v, default=0.0) * 1000, 3),
            }
            for c, v in times.items()
        },
        "elapsed_s": _round(result.elapsed, 3),
    }


def record_line(outcome: GameOutcome) -> str:
    """A game's record as one line of JSON (keys sorted: the same bytes in every run)."""
    return json.dumps(outcome.record, sort_keys=True, separators=(",", ":"))


def timing_line(outcome: GameOutcome) -> str:
    """A game's decision times per controller (milliseconds), one line of JSON."""
    data = {
        "game": outcome.record["game"],
        "decision_ms": {
            c: {
                "decisions": len(v),
                "median": _round(statistics.median(v) * 1000, 3) if v else 0.0,
                "max": _round(max(v, default=0.0) * 1000, 3),
                "total": _round(sum(v) * 1000, 3),
            }
            for c, v in sorted(outcome.times.items())
        },
    }
    return json.dumps(data, sort_keys=True, separators=(",", ":"))
