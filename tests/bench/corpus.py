"""A recorded corpus of positions from every ruleset on every shipped map, for the rules and AI benchmarks.

Positions come from deterministic greedy-vs-greedy games (the rules kits' aggressive players), seeded, so
every run measures the same positions: each game's position after every ``every``-th command is kept as a
:meth:`Match.clone`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

from game.commands import Command
from game.engine.match import Match
from tests.rules import frontier_kit as fk
from tests.rules import golden_kit as gk
from tests.rules import rift_kit as rk

ROOT = Path(__file__).resolve().parents[2]
MAPS = sorted((ROOT / "maps").glob("*.tmx"))


def frontier_match(map_path: Path, seed: int) -> Match:
    return fk.new_match(
        map_path,
        fk.law("sheriff", "deputy", "hired_gun", "dog"),
        fk.outlaws("gang_leader", "outlaw", "outlaw", "dog"),
        seed,
    )


def rift_match(map_path: Path, seed: int) -> Match:
    return rk.new_match(
        rk.rifters("side1", rk.rifter("cunning"), rk.rifter("bold"), rk.rifter("deliberate")),
        rk.outlaws("side2", "outlaw_goon", "outlaw_goon", "outlaw_goon", "gang_boss"),
        seed,
        map_path,
    )


def rift_mirror(map_path: Path, seed: int) -> Match:
    """Rifters against Rifters of the same attitudes: an even fight, for measuring players (the default
    Rifters against the outlaw gang is one-sided: the Rifters win it whoever plays)."""
    crew = (rk.rifter("cunning"), rk.rifter("bold"), rk.rifter("deliberate"))
    return rk.new_match(rk.rifters("side1", *crew), rk.rifters("side2", *crew), seed, map_path)


GAMES: dict[str, tuple[Callable[[Path, int], Match], Callable[[Match], Command]]] = {
    "frontier": (frontier_match, fk.aggressive_command),
    "rift": (rift_match, rk.aggressive_command),
    "golden": (gk.small_match, gk.aggressive_command),
}
# even encounters for measuring players against each other (tests/ai, make bench-ai)
EVEN: dict[str, Callable[[Path, int], Match]] = {
    "frontier": frontier_match,
    "rift": rift_mirror,
    "golden": gk.even_match,
}


def play_log(ruleset: str, map_path: Path, seed: int, limit: int = 3000) -> list[Command]:
    """The command log of a whole greedy-vs-greedy game."""
    make, player = GAMES[ruleset]
    match = make(map_path, seed)
    while not match.is_over and len(match.log) < limit:
        match.apply(player(match))
    return list(match.log)


@functools.cache
def positions(ruleset: str, games: int = 3, every: int = 3) -> tuple[Match, ...]:
    """Positions of ``games`` seeded games per shipped map (one kept every ``every`` commands)."""
    make, player = GAMES[ruleset]
    kept: list[Match] = []
    for map_path in MAPS:
        for seed in range(1, games + 1):
            match = make(map_path, seed)
            while not match.is_over and len(match.log) < 3000:
                if len(match.log) % every == 0:
                    kept.append(match.clone())
                match.apply(player(match))
    return tuple(kept)
