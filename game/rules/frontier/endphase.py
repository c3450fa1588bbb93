"""The End Phase: Cool checks, run as an esper Processor with the ruleset and the match's RNG."""

from __future__ import annotations

from typing import TYPE_CHECKING

import esper

from game.components import Removed
from game.dice import roll
from game.events import Event, Roll, StatusChanged, UnitRemoved
from game.rules.frontier import state as st
from game.rules.frontier.data import FrontierData

if TYPE_CHECKING:
    from game.match import Match
    from game.rules.frontier.ruleset import FrontierRuleset

__all__ = ["EndPhaseProcessor", "cool_check_modifiers", "cool_checks_due"]

WOUNDED_COOL = -1  # "Wounded units take a - 1 penalty to Cool checks."


def cool_checks_due(match: Match, side: str) -> bool:
    """ "Cool checks are made from the point where half the Units on the field (rounded down) are considered
    Out of Action or when the Leader of their Posse is considered Out of Action."

    Units on the field: every unit both posses fielded. Out of Action: Seriously Injured, Out of Action or
    fled. A posse fielded without its leader counts as having lost it (docs/RULES.md "Cool checks").
    """
    everyone = match.units(in_play=False)
    fallen = sum(1 for u in everyone if st.down(u))
    if fallen >= max(1, len(everyone) // 2):
        return True
    leader = st.leader_of(match, side)
    return leader is None or st.down(leader)


def cool_check_modifiers(match: Match, data: FrontierData, unit: int) -> tuple[tuple[str, int], ...]:
    """Leadership: "When a Unit makes a Cool check and their Leader is still in play, they may add their
    Leader's Leadership Skill number to their role." Wounded: -1. Nothing else: how many units are down
    decides whether checks are made, not what they need (docs/RULES.md Frontier 21b)."""
    mods: list[tuple[str, int]] = []
    leader = st.leader_of(match, st.side_of(unit))
    if leader is not None and leader != unit and st.able(leader):
        stats = st.unit_data(data, leader)
        if stats.leadership:
            mods.append((f"Leadership ({st.name_of(leader)})", stats.leadership))
    if st.status(unit).wounded:
        mods.append(("Wounded", WOUNDED_COOL))
    return tuple(mods)


class EndPhaseProcessor(esper.Processor):
    """ "During the End Phase, Units must make a Cool check ..." -- a failed check: "A Unit that fails its
    Cool check is considered broken. It immediately flees the battlefield and is removed from the Combat
    Encounter." The checks of one End phase are simultaneous (docs/RULES.md Frontier 21a): who checks,
    and every modifier, is decided by the field as the End phase began; the units that broke flee
    together once every check is made. Dice are rolled in posse order, units in posse order, with the
    match RNG."""

    def __init__(self, ruleset: FrontierRuleset, match: Match) -> None:
        self.ruleset = ruleset
        self.match = match

    def process(self, events: list[Event]) -> None:
        match = self.match
        rnd = st.game_state(match).round
        due = [p.side for p in match.posses if cool_checks_due(match, p.side)]
        broken: list[int] = []
        for side in due:
            for unit in match.units(side):
                if not st.able(unit):
                    continue
                cool = st.unit_data(self.ruleset.data, unit).cool
                mods = cool_check_modifiers(match, self.ruleset.data, unit)
                (die,) = roll(match.rng, 6)
                total = die + sum(v for _, v in mods)
                passed = total >= cool
                events.append(Roll(rnd, unit, "cool", (die,), mods, total, cool, passed))
                if not passed:
                    broken.append(unit)
        for unit in broken:  # they flee together: a leader who broke still lent his Leadership above
            esper.add_component(unit, Removed("fled"))
            events.append(StatusChanged(rnd, unit, "broken", True))
            events.append(UnitRemoved(rnd, unit, "fled"))
