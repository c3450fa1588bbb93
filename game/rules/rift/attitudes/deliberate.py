"""Deliberate: Down the Sights; Firearm Mastery, Piercing Fire (in the engine's blows), Improved Firearm
Mastery, Thread the Needle."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from game.commands import Command
from game.events import ActionTaken, Event, StatusChanged
from game.rules.rift.hooks import ActionDef, TraitDef, register_action, register_trait
from game.rules.rift.stress import DiceTraits

if TYPE_CHECKING:
    from game.engine.match import Match
    from game.rules.rift.data import WeaponData
    from game.rules.rift.ruleset import RiftRuleset


def _down_the_sights(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    """ "The next shot you make that hits inflicts 4x as much stress." (kept until a shot hits). It may be
    taken again while one is pending ("Other actions can be taken any number of times"): each adds its 4x
    to that same shot, within the 4x limit (docs/RULES.md R29)."""
    rnd = rs.game(match).round
    turn = rs.turn(unit)
    turn.down_the_sights = int(turn.down_the_sights) + 1 if turn.down_the_sights else True
    events.append(ActionTaken(rnd, unit, "down_the_sights"))
    events.append(StatusChanged(rnd, unit, "down_the_sights", True))


def _mastery(extra: int) -> TraitDef:
    def dice(weapon: WeaponData, traits: DiceTraits) -> DiceTraits:
        if not weapon.firearm:
            return traits
        return replace(traits, extra_dice_drop_lowest=max(traits.extra_dice_drop_lowest, extra))

    return TraitDef("firearm_mastery" if extra == 1 else "improved_firearm_mastery", dice=dice)


register_action(ActionDef("down_the_sights", apply=_down_the_sights))
register_trait(_mastery(1))
register_trait(_mastery(2))
register_trait(TraitDef("piercing_fire"))  # applied where blows are built (RiftRuleset.pierced)
register_trait(TraitDef("thread_the_needle", ignores_cover=True))
