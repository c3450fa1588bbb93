"""Deliberate: Down the Sights; Firearm Mastery, Piercing Fire (in the attack's blows), Improved Firearm
Mastery, Thread the Needle."""

from __future__ import annotations

from dataclasses import replace

from game.commands import Command
from game.events import ActionTaken, StatusChanged
from game.rules.rift import state as st
from game.rules.rift.context import RiftCtx
from game.rules.rift.data import WeaponData
from game.rules.rift.hooks import Actions, Trait, Traits, define
from game.rules.rift.stress import DiceTraits
from game.rules.rift.traits import TraitDef

__all__ = ["register"]


def _down_the_sights(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    """ "The next shot you make that hits inflicts 4x as much stress." (kept until a shot hits). It may be
    taken again while one is pending ("Other actions can be taken any number of times"): each adds its 4x
    to that same shot, within the 4x limit (docs/RULES.md R29)."""
    rnd = ctx.round
    turn = st.turn_state(unit)
    turn.down_the_sights = int(turn.down_the_sights) + 1 if turn.down_the_sights else True
    ctx.emit(ActionTaken(rnd, unit, "down_the_sights"))
    ctx.emit(StatusChanged(rnd, unit, "down_the_sights", True))


def _mastery(extra: int) -> Trait:
    def dice(weapon: WeaponData, traits: DiceTraits) -> DiceTraits:
        if not weapon.firearm:
            return traits
        return replace(traits, extra_dice_drop_lowest=max(traits.extra_dice_drop_lowest, extra))

    return TraitDef("firearm_mastery" if extra == 1 else "improved_firearm_mastery", dice=dice)


def register(book: Actions, traits: Traits) -> None:
    book.add(define("down_the_sights", apply=_down_the_sights))
    traits.add(_mastery(1))
    traits.add(_mastery(2))
    traits.add(TraitDef("piercing_fire"))  # applied where blows are built (attacks.pierced)
    traits.add(TraitDef("thread_the_needle", ignores_cover=True))
