"""The End Phase: Cool checks, with the match's RNG."""

from __future__ import annotations

from typing import TYPE_CHECKING

import esper

from game.components import Removed
from game.dice import roll
from game.engine import scenario
from game.events import Roll, StatusChanged, UnitRemoved
from game.rules.frontier import state as st
from game.rules.frontier.data import FrontierData

if TYPE_CHECKING:
    from game.engine.match import Match
    from game.rules.frontier.context import FrontierCtx

__all__ = ["cool_check_modifiers", "cool_checks_due", "run_cool_checks"]

WOUNDED_COOL = -1  # "Wounded units take a - 1 penalty to Cool checks."


def cool_checks_due(match: Match, side: str) -> bool:
    """ "Cool checks are made from the point where half the Units on the field (rounded down) are considered
    Out of Action or when the Leader of their Posse is considered Out of Action."

    Units on the field: every unit both posses fielded. Out of Action: Seriously Injured, Out of Action or
    fled. A posse fielded without its leader counts as having lost it (docs/RULES.md "Cool checks").
    """
    everyone = [u for u in match.units(in_play=False) if not scenario.in_reserve(u)]  # not yet on the field
    fallen = sum(1 for u in everyone if st.down(u))
    if fallen >= max(1, len(everyone) // 2):
        return True
    leader = st.leader_of(match, side)
    return leader is None or (st.down(leader) and not scenario.in_reserve(leader))


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


def run_cool_checks(ctx: FrontierCtx) -> None:
    """ "During the End Phase, Units must make a Cool check ..." -- a failed check: "A Unit that fails its
    Cool check is considered broken. It immediately flees the battlefield and is removed from the Combat
    Encounter." The checks of one End phase are simultaneous (docs/RULES.md Frontier 21a): who checks, and
    every modifier, is decided by the field as the End phase began; the units that broke flee together
    once every check is made. Dice are rolled in posse order, units in posse order, with the match RNG."""
    match = ctx.match
    rnd = ctx.round
    due = [p.side for p in match.posses if cool_checks_due(match, p.side)]
    broken: list[int] = []
    for side in due:
        for unit in match.units(side):
            if not st.able(unit):
                continue
            cool = ctx.stats(unit).cool
            mods = cool_check_modifiers(match, ctx.data, unit)
            (die,) = roll(ctx.rng, 6)
            total = die + sum(v for _, v in mods)
            passed = total >= cool
            ctx.emit(Roll(rnd, unit, "cool", (die,), mods, total, cool, passed, purpose="morale"))
            if not passed:
                broken.append(unit)
    for unit in broken:  # they flee together: a leader who broke still lent his Leadership above
        ctx.emit(StatusChanged(rnd, unit, "broken", True))
        esper.add_component(unit, Removed("fled"))
        ctx.emit(UnitRemoved(rnd, unit, "fled"))
