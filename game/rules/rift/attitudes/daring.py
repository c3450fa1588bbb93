"""Daring: Run & Gun (Attack), Sprint, Dodge Roll; Spray & Pray (+ Improved), Killer Calves."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from game.commands import Command
from game.events import ActionTaken, Event
from game.rules.rift.basic import reach_picks, steps_of
from game.rules.rift.hooks import ActionDef, Picks, TraitDef, register_action, register_trait
from game.rules.rift.stress import DiceTraits

if TYPE_CHECKING:
    from game.engine.match import Match
    from game.rules.rift.data import WeaponData
    from game.rules.rift.ruleset import RiftRuleset


def _run_budget(rs: RiftRuleset, unit: int) -> int:
    return 3 if rs.has_trait(unit, "killer_calves") else 2  # "Move 2 tiles" / Killer Calves: 3


def _sprint_budget(rs: RiftRuleset, unit: int) -> int:
    return 5 if rs.has_trait(unit, "killer_calves") else 4  # "Move 4 tiles" / Killer Calves: 5


def _run_picks(rs: RiftRuleset, match: Match, unit: int, option: str) -> Picks:
    return reach_picks(rs, match, unit, _run_budget(rs, unit))


def _run_and_gun(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    """ "Move 2 tiles. Fire your firearm. You take ½ stress until the start of your next turn." The move
    first (it can set off Hold Fire), then the attack, whose hits are assigned where the unit ends up."""
    events.append(ActionTaken(rs.game(match).round, unit, "run_and_gun", option=cmd.option))
    rs.inflict(match, unit, "half_stress", unit, events)
    rs.push_attack(match, unit, "run_and_gun", cmd.option)
    rs.push_walk(match, unit, steps_of(rs, unit, cmd.path))


def _sprint_problem(rs: RiftRuleset, match: Match, unit: int) -> str | None:
    if rs.turn(unit).sprinted:
        return "Sprint: only once per turn"
    return None


def _sprint_picks(rs: RiftRuleset, match: Match, unit: int, option: str) -> Picks:
    return reach_picks(rs, match, unit, _sprint_budget(rs, unit))


def _sprint(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    rs.turn(unit).sprinted = True
    rs.push_walk(match, unit, steps_of(rs, unit, cmd.path))


def _dodge_picks(rs: RiftRuleset, match: Match, unit: int, option: str) -> Picks:
    here = rs.here(unit)
    return Picks(hexes=tuple(h for h in match.battlefield.neighbors(here) if match.battlefield.move_cost(h)))


def _dodge_roll(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    """ "Move 1 tile. Prevent all stress you take this turn." ("this turn": the turn in progress)"""
    game = rs.game(match)
    rs.turn(unit).protected_turn = game.turn_number
    events.append(ActionTaken(game.round, unit, "dodge_roll", hex=cmd.hex))
    assert cmd.hex is not None
    rs.push_walk(match, unit, [cmd.hex])


def _spray(weapon: WeaponData, traits: DiceTraits) -> DiceTraits:
    return replace(traits, reroll_low=True) if weapon.firearm else traits


def _spray_improved(weapon: WeaponData, traits: DiceTraits) -> DiceTraits:
    return replace(traits, reroll_low=True, reroll_miss=True) if weapon.firearm else traits


register_action(
    ActionDef(
        "run_and_gun",
        needs="path",
        weapons="firearm",
        moves=True,
        picks=_run_picks,
        apply=_run_and_gun,
        budget=_run_budget,
    )
)
register_action(
    ActionDef(
        "sprint",
        needs="path",
        moves=True,
        problem=_sprint_problem,
        picks=_sprint_picks,
        apply=_sprint,
        budget=_sprint_budget,
    )
)
register_action(
    ActionDef(
        "dodge_roll",
        needs="hex",
        windows=("protect",),
        anytime=True,
        moves=True,
        picks=_dodge_picks,
        apply=_dodge_roll,
    )
)
register_trait(TraitDef("spray_and_pray", dice=_spray))
register_trait(TraitDef("improved_spray_and_pray", dice=_spray_improved))
register_trait(TraitDef("killer_calves"))  # read by the Run & Gun / Sprint budgets
