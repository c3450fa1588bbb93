""" "What are the odds from here?" (issue 15, the sandbox): N computer-vs-computer continuations of the
position a match is in, each side's chance of winning with its Wilson interval.

Each continuation is a copy of the match (``Match.clone(reseed=...)``: the dice and whatever no player
could know — Frontier's undrawn cards, Golden Frontiers' deck — drawn afresh from its own seed, so the
odds use nothing hidden) played to its end by ``ai:normal`` on both sides (:func:`ai.runner.play`), each
player seeded from the run's seed and the continuation's number: the same seed gives the same odds.

:class:`OddsRun` plays them in the background so a window stays responsive: in spawned worker processes,
one per core at a lower priority than the window, which is served first (each rebuilds the position once
from the map, the seed and the command log — GM edits included, they are commands — and copies it for
every continuation). Not in a thread: esper's current world is one global of the process, and a thread
playing a copy would switch it under the window's feet (and hold the GIL). :func:`warm` starts the
workers before the first question. :meth:`OddsRun.poll` gives the tally so far; :meth:`OddsRun.cancel`
drops what is left (a continuation being played finishes and is ignored).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import multiprocessing
import os
import signal
import threading
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ai.controllers import make_player
from ai.runner import play
from ai.simulate import derive_seed, wilson
from game.commands import command_from_json, command_to_json
from game.engine.board import board_from_json, board_json
from game.engine.match import Match
from game.engine.protocol import PosseSpec
from game.engine.scenario import Scenario
from game.mapload import load_battlefield
from game.rules import get_ruleset

__all__ = ["CONTROLLER", "Odds", "OddsRun", "continuation", "default_workers", "warm"]

CONTROLLER = "ai:normal"
LIMIT = 6000  # commands a continuation may take before it counts as a draw (stalled)


@dataclass(slots=True)
class Odds:
    """The tally of the continuations played so far: ``wins`` per side (every side of the match, 0 when
    it won none), ``draws``, how many were asked for (``total``) and whether the run has ``finished``."""

    total: int
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    failed: int = 0  # continuations that raised (a rules error): left out of the shares
    finished: bool = False

    @property
    def played(self) -> int:
        return sum(self.wins.values()) + self.draws

    def share(self, side: str) -> tuple[float, float, float]:
        """``side``'s chance of winning so far and its 95% Wilson interval: (p, low, high)."""
        games = self.played
        wins = self.wins.get(side, 0)
        low, high = wilson(wins, games)
        return (wins / games if games else 0.0), low, high

    def draw_share(self) -> float:
        return self.draws / self.played if self.played else 0.0


@dataclass(frozen=True, slots=True)
class _Position:
    """What a worker needs to rebuild the position: the map (or the board the battle started on, when a
    GM reloaded the map into it), the ruleset, the posses, the seed, the encounter's rules, the log."""

    map_path: str
    ruleset: str
    posses: tuple[PosseSpec, ...]
    seed: int
    log: str  # the command log as JSON text (hashable: the worker's cache key)
    board: str = ""  # game.engine.board's JSON of the first board ("" : the map file's)
    scenario: str = ""  # the encounter's rules as JSON ("" : none)

    @classmethod
    def of(cls, match: Match) -> _Position:
        assert match.map_path is not None
        return cls(
            str(match.map_path),
            match.ruleset_name,
            tuple(match.posses),
            match.seed,
            json.dumps([command_to_json(c) for c in match.log], separators=(",", ":")),
            board_json(match.first_board) if match.board_sha else "",
            json.dumps(match.scenario.to_json()) if match.scenario is not None else "",
        )

    def rebuild(self) -> Match:
        path = Path(self.map_path)
        first = board_from_json(self.board) if self.board else load_battlefield(path).clone()
        scenario = Scenario.from_json(json.loads(self.scenario)) if self.scenario else None
        match = Match(first, get_ruleset(self.ruleset), list(self.posses), self.seed, path, scenario=scenario)
        for data in json.loads(self.log):
            match.apply(command_from_json(data))
        return match


def continuation(match: Match, seed: int, index: int, controller: str = CONTROLLER) -> str | None:
    """Play continuation ``index`` of ``match`` (a copy; ``match`` is not changed) to its end: the
    winning side, or None for a draw or a game that stalled."""
    copy = match.clone(reseed=derive_seed(seed, "dice", index))
    try:
        players = {p.side: make_player(controller, derive_seed(seed, p.side, index)) for p in copy.posses}
        result = play(copy, players, limit=LIMIT)
        return None if result.stalled else result.winner
    finally:
        copy.close()


_CACHE: dict[_Position, Match] = {}  # in a worker: the position rebuilt once, copied per continuation


def _worker_task(position: _Position, seed: int, index: int) -> str | None:
    match = _CACHE.get(position)
    if match is None:
        _CACHE.clear()
        match = _CACHE[position] = position.rebuild()
    return continuation(match, seed, index)


NICE = 10  # how far a worker steps back for the window: it gets a core whenever it wants one


def _quiet(window: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the window's
    # the window's pid comes from the window: a worker that starts after the window died sees another
    # parent already, and ends at once
    threading.Thread(target=_watch_parent, args=(window,), daemon=True).start()
    nice = getattr(os, "nice", None)  # not on Windows
    if nice is not None:
        with contextlib.suppress(OSError):
            nice(NICE)


def _watch_parent(parent: int, every: float = 0.5) -> None:
    """A worker ends itself once the window's process is gone (killed, crashed): it must not be left
    behind, playing or waiting, when nothing will ever read its games."""
    while True:
        time.sleep(every)
        if os.getppid() != parent:
            os._exit(0)


def default_workers() -> int:
    """Worker processes for the odds: one per core. They run at a lower priority (``NICE``), so the
    window, which needs a fraction of one core, is served first and the continuations take the rest."""
    return max(1, os.cpu_count() or 1)


def _ready() -> int:
    return os.getpid()


def warm(workers: int | None = None) -> list[concurrent.futures.Future[int]]:
    """Start the worker processes now (they import the rules and the AI: about a third of a second
    each), so the first "What are the odds from here?" does not wait for them: the sandbox calls this
    when a GM opens it. The futures are done once the workers have started (a benchmark waits on them)."""
    pool = _pool(max(1, default_workers() if workers is None else workers))
    return [pool.submit(_ready) for _ in range(_POOL_SIZE)]


_POOL: concurrent.futures.ProcessPoolExecutor | None = None
_RUNS: weakref.WeakSet[OddsRun] = weakref.WeakSet()  # runs whose games may still be pending
_POOL_SIZE = 0


def _pool(workers: int) -> concurrent.futures.ProcessPoolExecutor:
    """One pool of spawned workers kept for the whole session (spawning costs about a third of a second)."""
    global _POOL, _POOL_SIZE  # noqa: PLW0603
    if _POOL is None or workers != _POOL_SIZE:
        if _POOL is not None:
            _POOL.shutdown(wait=False, cancel_futures=True)
        context = multiprocessing.get_context("spawn")
        first = _POOL is None and _POOL_SIZE == 0
        _POOL = concurrent.futures.ProcessPoolExecutor(
            workers, mp_context=context, initializer=_quiet, initargs=(os.getpid(),)
        )
        if first:
            # after concurrent.futures' own exit hook (imported with the executor), so it runs before it:
            # threading's exit hooks run last-registered first, and that one would wait for every pending
            # game; the window closing drops what is not played yet
            register = getattr(threading, "_register_atexit", None)
            if callable(register):
                register(shutdown)
        _POOL_SIZE = workers
    return _POOL


def shutdown() -> None:
    """Drop every game not played yet and stop the worker processes (the window closes)."""
    global _POOL  # noqa: PLW0603
    for run in list(_RUNS):
        run.cancel()
    if _POOL is not None:
        _POOL.shutdown(wait=False, cancel_futures=True)
        _POOL = None


class OddsRun:
    """``games`` continuations of ``match`` as it is now, played in the background (see the module text).

    The match must have been built from a map file (``Match.create``): the workers rebuild it from there."""

    def __init__(self, match: Match, games: int, seed: int, *, workers: int | None = None) -> None:
        if games < 1:
            raise ValueError("ask for at least one continuation")
        self.games, self.seed = games, seed
        self.sides: Sequence[str] = [p.side for p in match.posses]
        self.odds = Odds(games, dict.fromkeys(self.sides, 0))
        self._lock = threading.Lock()
        self._cancelled = threading.Event()
        self._futures: list[concurrent.futures.Future[str | None]] = []
        if match.map_path is None:
            raise ValueError("the odds need a battle started from a map file (the workers rebuild it)")
        position = _Position.of(match)
        _RUNS.add(self)
        pool = _pool(max(1, default_workers() if workers is None else workers))
        for index in range(games):
            future = pool.submit(_worker_task, position, seed, index)
            future.add_done_callback(self._take)
            self._futures.append(future)

    def _record(self, winner: str | None, failed: bool = False) -> None:
        with self._lock:
            if self._cancelled.is_set():
                return
            if failed:
                self.odds.failed += 1
            elif winner is None:
                self.odds.draws += 1
            else:
                self.odds.wins[winner] = self.odds.wins.get(winner, 0) + 1
            if self.odds.played + self.odds.failed >= self.games:
                self.odds.finished = True

    def _take(self, future: concurrent.futures.Future[str | None]) -> None:
        if future.cancelled():
            return
        error = future.exception()
        self._record(None if error is not None else future.result(), failed=error is not None)

    def poll(self) -> Odds:
        """A copy of the tally so far."""
        with self._lock:
            odds = self.odds
            return Odds(odds.total, dict(odds.wins), odds.draws, odds.failed, odds.finished)

    @property
    def finished(self) -> bool:
        return self.poll().finished

    def cancel(self) -> None:
        """Drop what is not played yet; the tally stops where it is."""
        self._cancelled.set()
        for future in self._futures:
            future.cancel()

    def wait(self, timeout: float | None = None) -> Odds:
        """Block until every continuation is played (tests, the benchmark); the tally."""
        concurrent.futures.wait(self._futures, timeout=timeout)
        return self.poll()
