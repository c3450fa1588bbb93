"""``make soak`` / ``python -m tests.soak``: complete games, checked after every command.

Every game is fixed by the soak seed and its number: the ruleset and shipped map (games go round the
(ruleset, map) pairs in turn, every installed ruleset on every shipped map that suits it), a ready posse
per side, the match seed, the players and where it is saved. Most games are played by :class:`SoakPlayer`
(a uniformly chosen enabled action, then a uniformly chosen command of those it allows, sampled without
listing them all); one in a hundred puts an ``ai.controllers`` player on a side (the AI at each difficulty,
``greedy`` and ``random`` in turn) against ``random``, ``greedy`` or the soak's player, as ``hexslinger
simulate`` plays them.

After every command: nothing raised; every unit's AP is at least 0; no unit stands on an impassable hex;
no two units share a hex where the rules forbid it (Frontier; Through the Rift lets any number of units
share a tile, docs/RULES.md R24); a command built from a legal action is accepted. Once per game, at a
random command, the match is saved and loaded and must reach the same digest; at the end the game must be
over (with an outcome and no legal action) within :data:`MAX_COMMANDS`, and its command log, replayed into
a new match, must reach the same digest. A game that raises, breaks an invariant or runs past
:data:`GAME_SECONDS` is a failure, reported with a one-line repro (``--game N``) and kept as a save that
``hexslinger replay`` replays.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import multiprocessing
import os
import random
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from ai.baselines import Player
from ai.controllers import make_player
from ai.profile import known_difficulties
from game.battlefield import Battlefield
from game.commands import Command
from game.engine import registry
from game.engine.match import Match
from game.engine.protocol import LegalAction
from game.hexgrid import Hex
from game.mapload import load_battlefield
from game.posses import default_posses
from game.resources import shipped_maps
from game.save import load_match, save_match

MAX_COMMANDS = 5_000  # random games take 100-600 commands; one that has not ended by now never will
# A game that has used this much CPU time (seconds) is a hang: CPU, not wall-clock time, so a busy machine
# does not make one (a game of the hard AI takes up to ~40 s of CPU, two minutes of wall time under load).
GAME_SECONDS = 300.0
SAVE_BEFORE = 300  # the mid-game save happens at a random command up to this one (or at the end)
AI_EVERY = 100  # one game in a hundred has ai.controllers players (an AI game costs 10-100 random ones)
# The rules that let units share a hex (docs/RULES.md R24: "Any number of units maybe occupy a single
# tile"); every other ruleset allows one unit per hex (Frontier deploys and moves with stacking off).
SHARED_HEXES = frozenset({"rift"})
NEVER = ("flee",)  # as the baselines: a player that flees at random ends most games in their first turn


# -- what a game is -----------------------------------------------------------------------------------


@functools.cache
def pairs() -> tuple[tuple[str, Path], ...]:
    """Every (ruleset, shipped map) a game can be played on, in a fixed order."""
    out = []
    for ruleset in sorted(registry.ruleset_ids()):
        for path in sorted(shipped_maps()):
            suits = battlefield(path).rulesets
            if not suits or ruleset in suits:
                out.append((ruleset, path))
    return tuple(out)


@functools.cache
def battlefield(path: Path) -> Battlefield:
    return load_battlefield(path)


def derive(seed: int, *parts: object) -> int:
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") >> 1


@dataclass(frozen=True, slots=True)
class Game:
    """Game ``number`` of the soak with ``seed``: everything needed to play it again."""

    seed: int
    number: int
    ruleset: str
    map_path: Path
    posses: tuple[str, str]
    controllers: tuple[str, str]
    match_seed: int
    save_at: int

    @classmethod
    def of(cls, seed: int, number: int) -> Game:
        ruleset, map_path = pairs()[number % len(pairs())]
        rng = random.Random(derive(seed, number))
        side1 = [p.name for p in default_posses(ruleset, "side1")]
        side2 = [p.name for p in default_posses(ruleset, "side2")]
        controllers = ("soak", "soak")
        if number % AI_EVERY == AI_EVERY - 1:
            ai = [*(f"ai:{d}" for d in known_difficulties()), "greedy", "random"]
            first = ai[(number // AI_EVERY) % len(ai)]
            other = rng.choice(["soak", "random", "greedy"])
            controllers = (first, other) if rng.random() < 0.5 else (other, first)
        return cls(
            seed,
            number,
            ruleset,
            map_path,
            (rng.choice(side1), rng.choice(side2)),
            controllers,
            rng.getrandbits(62),
            rng.randint(1, SAVE_BEFORE),
        )

    def repro(self) -> str:
        return (
            f"python -m tests.soak --seed {self.seed} --game {self.number}  # {self.ruleset} "
            f"{self.map_path.name} match seed {self.match_seed}, {self.posses[0]} ({self.controllers[0]}) "
            f"v {self.posses[1]} ({self.controllers[1]})"
        )

    def new_match(self) -> Match:
        specs = []
        for side, name in zip(("side1", "side2"), self.posses, strict=True):
            draft = next(p for p in default_posses(self.ruleset, side) if p.name == name)
            specs.append(draft.spec())
        field_ = battlefield(self.map_path).clone()
        return Match(
            field_, registry.get_ruleset(self.ruleset), specs, self.match_seed, map_path=self.map_path
        )


# -- the soak's own random player ---------------------------------------------------------------------


def sample(action: LegalAction, rng: random.Random) -> Command | None:
    """One of the commands ``action.expand()`` yields, drawn without listing them (a Move may allow
    hundreds of paths, each built on demand); None if it allows none."""
    option = rng.choice(action.choices) if action.choices else action.option
    need = action.needs
    if need in ("", "choice"):
        if need == "choice" and action.targets:
            return action.command(target=rng.choice(action.targets), option=option)
        return action.command(option=option)
    if need == "target":
        return action.command(target=rng.choice(action.targets), option=option) if action.targets else None
    if need == "targets":
        if not action.targets:
            return None
        k = rng.randint(1, min(action.max_picks, len(action.targets)))
        # combinations keep the offered order: so does a sorted sample of positions
        picks = sorted(rng.sample(range(len(action.targets)), k))
        return action.command(targets=tuple(action.targets[i] for i in picks), option=option)
    if need == "assign":
        if not action.targets:
            return None
        return action.command(
            targets=tuple(rng.choice(action.targets) for _ in range(action.max_picks)), option=option
        )
    if need == "hex":
        return action.command(hex=rng.choice(action.hexes), option=option) if action.hexes else None
    if need == "path":
        ends = list(action.hexes)
        rng.shuffle(ends)
        for end in ends[:8]:
            path = action.path_to(end)
            if path is not None:
                target = rng.choice(action.targets) if action.targets and rng.random() < 0.5 else None
                return action.command(path=path, target=target, option=option)
        return None
    raise AssertionError(f"unknown need {need!r} of {action.action}")


class SoakPlayer(Player):
    """Uniform over the enabled actions (Flee only when nothing else is left), then a uniformly drawn
    command of the chosen one (:func:`sample`)."""

    name = "soak"

    def choose(self, legal: list[LegalAction], rng: random.Random) -> Command:
        enabled = [a for a in legal if a.enabled]
        actions = [a for a in enabled if a.action not in NEVER] or enabled
        rng.shuffle(actions)
        for action in actions:
            cmd = sample(action, rng)
            if cmd is not None:
                return cmd
        raise InvariantError("no enabled legal action allows a command, yet the game is not over")


# -- checks ---------------------------------------------------------------------------------------------


class InvariantError(AssertionError):
    """An invariant the game broke."""


class GameHungError(Exception):
    pass


def _ap_reader(ruleset: str) -> Callable[[Match, int], int]:
    """The AP a unit has left: the ruleset's own component where it has one (cheap), else its panel."""
    try:
        module = __import__(f"game.rules.{ruleset}.state", fromlist=["ap"])
        reader = module.ap
    except (ImportError, AttributeError):
        return lambda match, unit: match.unit_view(unit).action_points[0]
    return lambda match, unit: int(reader(unit).current)


def check(match: Match, shared: bool, ap: Callable[[Match, int], int], where: str) -> None:
    """The per-command invariants (cheap: a lookup per unit)."""
    match.enter()
    field_ = match.battlefield
    seen: set[Hex] = set()
    for unit in match.units():
        left = ap(match, unit)
        if left < 0:
            raise InvariantError(f"{where}: unit {unit} has {left} AP")
        h = match.position(unit)
        if h is None:
            continue
        if not field_.is_passable(h):
            raise InvariantError(f"{where}: unit {unit} stands on the impassable hex {h}")
        if not shared:
            if h in seen:
                raise InvariantError(f"{where}: two units share the hex {h}")
            seen.add(h)


@dataclass(slots=True)
class Result:
    number: int
    commands: int = 0
    seconds: float = 0.0
    cpu: float = 0.0  # CPU seconds the game took in its process
    failure: str = ""  # "" if the game passed; else one line
    detail: str = ""  # the traceback
    kept: str = ""  # the save of the failing game
    ended_by: str = ""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise GameHungError(f"the game used more than {GAME_SECONDS:g} s of CPU time")


def play(game: Game, work: Path) -> Result:
    """Play ``game`` to its end with every check; a failure is recorded, never raised."""
    result = Result(game.number)
    began = time.perf_counter()
    cpu_began = time.process_time()
    match: Match | None = None
    step = "setting up"
    timed = hasattr(signal, "SIGPROF") and threading.current_thread() is threading.main_thread()
    if timed:
        signal.signal(signal.SIGPROF, _alarm)
        signal.setitimer(signal.ITIMER_PROF, GAME_SECONDS)
    try:
        match = game.new_match()
        shared = game.ruleset in SHARED_HEXES
        ap = _ap_reader(game.ruleset)
        rng = random.Random(derive(game.match_seed, "soak player"))
        players: dict[str, Player | None] = {}
        for side, name in zip(("side1", "side2"), game.controllers, strict=True):
            players[side] = None if name == "soak" else make_player(name, derive(game.match_seed, side))
        decisions = {"side1": 0, "side2": 0}
        soak = SoakPlayer()
        check(match, shared, ap, "after set-up")
        saved = False
        while True:
            legal = match.legal_actions()
            if match.is_over:
                if legal:
                    raise InvariantError(f"the game is over but {len(legal)} actions are offered")
                if match.outcome() is None:
                    raise InvariantError("the game is over without an outcome")
                break
            if not legal:
                raise InvariantError("the game is not over, yet nothing is offered")
            if len(match.log) >= MAX_COMMANDS:
                raise InvariantError(f"the game did not end in {MAX_COMMANDS} commands")
            side = legal[0].side
            player = players.get(side)
            step = f"command {len(match.log) + 1}"
            if player is None:
                cmd = soak.choose(legal, rng)
            else:
                cmd = player.decide(match.view(side), decisions[side])
                decisions[side] += 1
            match.apply(cmd)  # IllegalCommandError: a legal action's command refused
            check(match, shared, ap, f"after {step} ({cmd.action})")
            if not saved and len(match.log) >= game.save_at:
                saved = True
                step = f"save and load after command {len(match.log)}"
                _save_and_load(match, work / f"{game.number}.json")
        if not saved:
            step = "save and load at the end"
            _save_and_load(match, work / f"{game.number}.json")
        step = "replaying the log"
        again = game.new_match()
        try:
            for cmd in match.log:
                again.apply(cmd)
            if again.digest() != match.digest():
                raise InvariantError(f"the log of {len(match.log)} commands replays to another digest")
        finally:
            again.close()
        outcome = match.outcome()
        result.ended_by = outcome.reason if outcome is not None else ""
    except BaseException as error:
        if timed:
            signal.setitimer(signal.ITIMER_PROF, 0)  # no alarm while the failure is written down
        if isinstance(error, KeyboardInterrupt):
            raise
        kind = "hung" if isinstance(error, GameHungError) else "failed"
        result.failure = (
            f"{kind} at {step}: {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
        )
        result.detail = traceback.format_exc()
        if match is not None:
            result.kept = _keep(match, game, work)
    finally:
        if timed:
            signal.setitimer(signal.ITIMER_PROF, 0)
        if match is not None:
            result.commands = len(match.log)
            match.close()
        result.seconds = time.perf_counter() - began
        result.cpu = time.process_time() - cpu_began
    return result


def _save_and_load(match: Match, path: Path) -> None:
    save_match(match, path, name="soak")
    try:
        loaded, _ = load_match(path)  # verifies the digest itself: a SaveError if it differs
        try:
            if loaded.digest() != match.digest():
                raise InvariantError("a save loads to another digest")
        finally:
            loaded.close()
    finally:
        path.unlink(missing_ok=True)


def _keep(match: Match, game: Game, work: Path) -> str:
    """The failing game as a save (its log up to the failure) for ``hexslinger replay``."""
    folder = work.parent / "failures"
    path = folder / f"game-{game.number}.json"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        save_match(match, path, name=f"soak {game.seed}:{game.number}")
    except Exception:  # the match may be too broken to save: the repro line still plays it again
        return ""
    return str(path)


# -- running many ------------------------------------------------------------------------------------


_WORKER: dict[str, Path] = {}  # this process's scratch folder


def _init(work: str, worker: bool = True) -> None:
    if worker:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C does
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the pool ends its workers so
    _WORKER["work"] = Path(tempfile.mkdtemp(prefix=f"worker-{os.getpid()}-", dir=work))
    pairs()  # the maps, read once per worker


def _one(job: tuple[int, int]) -> Result:
    return play(Game.of(*job), _WORKER["work"])


@dataclass(slots=True)
class Summary:
    games: int = 0
    commands: int = 0
    seconds: float = 0.0
    cpu: float = 0.0
    interrupted: bool = False
    failures: list[tuple[Game, Result]] = field(default_factory=list)
    by_pair: dict[str, int] = field(default_factory=dict)
    by_controllers: dict[str, int] = field(default_factory=dict)
    slowest: float = 0.0


def run(
    seed: int,
    games: int,
    workers: int,
    work: Path,
    progress: Callable[[Summary], None] | None = None,
    *,
    start: int = 0,
) -> Summary:
    """Play games start..start+games-1 of the soak ``seed`` on ``workers`` processes (1: in this one)."""
    work.mkdir(parents=True, exist_ok=True)
    summary = Summary()
    began = time.perf_counter()
    jobs = [(seed, n) for n in range(start, start + games)]
    results: Iterator[Result]
    if workers <= 1:
        _init(str(work), worker=False)
        results = map(_one, jobs)
        pool = None
    else:
        pool = multiprocessing.get_context("fork" if os.name == "posix" else "spawn").Pool(
            workers, _init, (str(work),)
        )
        results = pool.imap_unordered(_one, jobs, chunksize=4)
    try:
        for result in results:
            game = Game.of(seed, result.number)
            summary.games += 1
            summary.commands += result.commands
            summary.cpu += result.cpu
            summary.slowest = max(summary.slowest, result.seconds)
            key = f"{game.ruleset} {game.map_path.stem}"
            summary.by_pair[key] = summary.by_pair.get(key, 0) + 1
            ctl = " v ".join(sorted(game.controllers))
            summary.by_controllers[ctl] = summary.by_controllers.get(ctl, 0) + 1
            if result.failure:
                summary.failures.append((game, result))
            summary.seconds = time.perf_counter() - began
            if progress is not None:
                progress(summary)
    except KeyboardInterrupt:  # Ctrl-C: the games done so far are the result
        summary.interrupted = True
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    summary.seconds = time.perf_counter() - began
    summary.failures.sort(key=lambda f: f[0].number)
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.soak", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--work", type=Path, default=Path(".soak"), help="scratch saves and failing games")
    parser.add_argument("--start", type=int, default=0, help="the first game's number (to go on from a run)")
    parser.add_argument("--game", type=int, default=None, help="play this one game in this process")
    args = parser.parse_args(argv)
    work = args.work.resolve() / f"seed-{args.seed}"
    if args.game is not None:
        game = Game.of(args.seed, args.game)
        print(game.repro())
        work.mkdir(parents=True, exist_ok=True)
        result = play(game, work)
        print(
            result.detail or f"passed: {result.commands} commands, {result.seconds:.2f} s, {result.ended_by}"
        )
        return 1 if result.failure else 0
    print(
        f"soak: {args.games} games from game {args.start}, seed {args.seed}, {args.workers} workers",
        flush=True,
    )
    last = [0.0]

    def progress(s: Summary) -> None:
        if s.seconds - last[0] >= 30 or s.games == args.games:
            last[0] = s.seconds
            print(
                f"  {s.games} games, {s.commands} commands, {len(s.failures)} failures, "
                f"{s.seconds / 60:.1f} min",
                flush=True,
            )

    # Ctrl-C or a TERM signal (a background job ignores SIGINT): stop, and report the games done
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _interrupt)
    summary = run(args.seed, args.games, args.workers, work, progress, start=args.start)
    report(summary, args)
    if summary.interrupted:
        print(f"interrupted after {summary.games} of {args.games} games", file=sys.stderr)
        return 130
    return 1 if summary.failures else 0


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def report(summary: Summary, args: Any) -> None:
    print(
        f"\n{summary.games} games, {summary.commands} commands in {summary.seconds / 60:.1f} minutes "
        f"({summary.games / max(summary.seconds, 1e-9) * 3600:.0f} games/hour, "
        f"{summary.commands / max(summary.seconds, 1e-9):.0f} commands/s, {args.workers} workers); "
        f"slowest game {summary.slowest:.1f} s; {len(summary.failures)} failures"
    )
    per_game = summary.cpu / max(summary.games, 1)
    cores = max(1, min(args.workers, os.cpu_count() or 1))
    print(
        f"CPU time {summary.cpu / 60:.1f} minutes, {per_game:.3f} s a game: 10,000 games need "
        f"{per_game * 10_000 / 3600 / cores:.2f} hours on {cores} free cores"
    )
    print("games by ruleset and map: " + ", ".join(f"{k} {v}" for k, v in sorted(summary.by_pair.items())))
    print("games by players: " + ", ".join(f"{k} {v}" for k, v in sorted(summary.by_controllers.items())))
    for game, result in summary.failures:
        print(f"\n{result.failure}\n  repro: {game.repro()}")
        if result.kept:
            print(f"  kept: {result.kept}")


if __name__ == "__main__":
    sys.exit(main())
