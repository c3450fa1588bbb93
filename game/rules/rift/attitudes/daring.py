"""Daring: Run & Gun (Attack), Sprint, Dodge Roll; Spray & Pray (+ Improved), Killer Calves."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from game.commands import Command
from game.engine.actions import Picks
from game.events import ActionTaken
from game.rules.rift import attacks
from game.rules.rift import state as st
from game.rules.rift.context import RiftCtx
from game.rules.rift.data import WeaponData
from game.rules.rift.hooks import Actions, Traits, define
from game.rules.rift.stress import DiceTraits
from game.rules.rift.traits import TraitDef

__all__ = ["register"]


def _run_budget(ctx: RiftCtx, unit: int) -> int:
    return 3 if st.has_trait(unit, "killer_calves") else 2  # "Move 2 tiles" / Killer Calves: 3


def _sprint_budget(ctx: RiftCtx, unit: int) -> int:
    return 5 if st.has_trait(unit, "killer_calves") else 4  # "Move 4 tiles" / Killer Calves: 5


def _run_and_gun(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    """ "Move 2 tiles. Fire your firearm. You take ½ stress until the start of your next turn." The move
    first (it can set off Hold Fire), then the attack, whose hits are assigned where the unit ends up."""
    ctx.emit(ActionTaken(ctx.round, unit, "run_and_gun", option=cmd.option))
    ctx.inflict(unit, "half_stress", unit)
    ctx.push_attack(unit, "run_and_gun", cmd.option)
    ctx.push_walk(unit, cmd.path)


def _sprint_problem(ctx: RiftCtx, unit: int, option: str) -> str | None:
    if st.turn_state(unit).sprinted:
        return "Sprint: only once per turn"
    return None


def _sprint(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    st.turn_state(unit).sprinted = True
    ctx.push_walk(unit, cmd.path)


def _dodge_picks(ctx: RiftCtx, unit: int, option: str) -> Picks:
    here = ctx.here(unit)
    bf = ctx.battlefield
    return Picks(hexes=tuple(h for h in bf.neighbors(here) if bf.move_cost(h)))


def _dodge_window_picks(ctx: RiftCtx, task: Any, reactor: int) -> Picks:
    """Off-turn, a Dodge Roll is offered to a unit the hits are about to reach, not protected yet."""
    if (
        reactor not in attacks.endangered(ctx, task)
        or st.turn_state(reactor).protected_turn == ctx.game.turn_number
    ):
        return Picks()
    return Picks(hexes=tuple(ctx.step_hexes(reactor)))


def _dodge_roll(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    """ "Move 1 tile. Prevent all stress you take this turn." ("this turn": the turn in progress)"""
    st.turn_state(unit).protected_turn = ctx.game.turn_number
    ctx.emit(ActionTaken(ctx.round, unit, "dodge_roll", hex=cmd.hex))
    assert cmd.hex is not None
    ctx.push_walk(unit, [cmd.hex])


def _spray(weapon: WeaponData, traits: DiceTraits) -> DiceTraits:
    return replace(traits, reroll_low=True) if weapon.firearm else traits


def _spray_improved(weapon: WeaponData, traits: DiceTraits) -> DiceTraits:
    return replace(traits, reroll_low=True, reroll_miss=True) if weapon.firearm else traits


def register(book: Actions, traits: Traits) -> None:
    book.add(
        define("run_and_gun", "path", weapons="firearm", moves=True, budget=_run_budget, apply=_run_and_gun)
    )
    book.add(
        define("sprint", "path", moves=True, problem=_sprint_problem, budget=_sprint_budget, apply=_sprint)
    )
    book.add(
        define(
            "dodge_roll",
            "hex",
            windows=("protect",),
            anytime=True,
            moves=True,
            picks=_dodge_picks,
            apply=_dodge_roll,
            window_picks=_dodge_window_picks,
        )
    )
    traits.add(TraitDef("spray_and_pray", dice=_spray))
    traits.add(TraitDef("improved_spray_and_pray", dice=_spray_improved))
    traits.add(TraitDef("killer_calves"))  # read by the Run & Gun / Sprint budgets
