"""What every unit did in a battle, for the results screen (and anyone else who asks), headless.

Read from the match's events in the engine's own words only — attack rolls (``Roll.is_attack``: the
ruleset says what a roll is for, see ``game.events.ROLL_PURPOSES``), ``DamageTaken`` with its source —
and, for how a unit left the fight, the ruleset's unit view (``UnitView.out``: "out of action", "fled",
"overcome", "seriously injured"), so no ruleset's check, status or removal ids are named here.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine.match import Match
from game.events import DamageTaken, Roll

__all__ = ["UnitStats", "battle_stats"]


@dataclass(slots=True)
class UnitStats:
    """One unit's battle: attack rolls made and how many hit, damage dealt and taken, and how it left the
    fight in the ruleset's words ("" while it stands)."""

    unit: int
    side: str
    name: str
    attacks: int = 0
    hits: int = 0
    damage_dealt: int = 0
    damage_taken: int = 0
    out: str = ""


def battle_stats(match: Match) -> list[UnitStats]:
    """Per unit, in the match's unit order (units out of the fight included)."""
    stats: dict[int, UnitStats] = {}
    for u in match.units(in_play=False):
        ident = match.identity(u)
        stats[u] = UnitStats(u, ident.side, ident.name, out=match.unit_view(u).out)
    for e in match.history:
        if isinstance(e, Roll):
            if e.is_attack and e.unit in stats:
                stats[e.unit].attacks += 1
                stats[e.unit].hits += 1 if e.success else 0
        elif isinstance(e, DamageTaken):
            if e.unit in stats:
                stats[e.unit].damage_taken += e.amount
            if e.source is not None and e.source in stats:
                stats[e.source].damage_dealt += e.amount
    return list(stats.values())
