"""Playing a match to its end with a controller per side (AI-vs-AI games, the baselines, simulations).

Each decision goes to the player of the side whose decision it is (a reaction window may belong to the
side not on turn), through that side's public view only; the command it returns goes through
``Match.apply`` like a human's. Every player draws from its own RNG seeded by (its seed, side, the side's
decision index), so a game is reproducible from the match seed and the players' seeds alone.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from ai.baselines import Player
from game.engine.match import Match

__all__ = ["GameResult", "play"]

MAX_COMMANDS = 20_000  # a game that has not ended after this many commands is reported as stalled


@dataclass(slots=True)
class GameResult:
    """How a game went: the winning side (None: a draw), why, rounds, commands, and the time each
    side's player spent per decision (seconds)."""

    winner: str | None
    reason: str
    rounds: int
    commands: int
    stalled: bool = False
    decision_times: dict[str, list[float]] = field(default_factory=dict)


def _round(match: Match) -> int:
    for entry in match.history[::-1]:
        return int(entry.round)
    return 0


def play(match: Match, players: Mapping[str, Player], *, limit: int = MAX_COMMANDS) -> GameResult:
    """Play ``match`` to its end; ``players`` maps each side to its player."""
    counts: dict[str, int] = {}
    times: dict[str, list[float]] = {side: [] for side in players}
    while not match.is_over and len(match.log) < limit:
        legal = match.legal_actions()
        if not legal:
            break
        side = legal[0].side
        player = players[side]
        index = counts.get(side, 0)
        counts[side] = index + 1
        start = time.perf_counter()
        cmd = player.decide(match.view(side, legal=legal), index)  # the list just made, not made again
        times[side].append(time.perf_counter() - start)
        match.apply(cmd, legal=legal)  # checked against the list just made, not made again
    outcome = match.outcome()
    if outcome is None:
        return GameResult(None, "stalled: the game did not end", _round(match), len(match.log), True, times)
    return GameResult(outcome.winner, outcome.reason, _round(match), len(match.log), False, times)
