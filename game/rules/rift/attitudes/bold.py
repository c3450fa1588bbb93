"""Bold: Scary Yelling (Attack), Massive Presence; Meatshield (+ Improved), Heightened Durability (in the
character's kit), Bullet Sponge."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from game.commands import Command
from game.events import ActionTaken, Event
from game.rules.rift.hooks import ActionDef, Factors, Picks, TraitDef, register_action, register_trait

if TYPE_CHECKING:
    from game.engine.match import Match
    from game.rules.rift.ruleset import RiftRuleset


def _yell_picks(rs: RiftRuleset, match: Match, unit: int, option: str) -> Picks:
    return Picks(targets=tuple(rs.firearm_targets(match, unit, rs.weapon(option))))


def _scary_yelling(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    """ "Fire your firearm. Anyone you hit is Taunted and can only attack you until the start of your next
    turn." (the taunt is applied by the engine for the scary_yelling attack mode)"""
    events.append(ActionTaken(rs.game(match).round, unit, "scary_yelling", option=cmd.option))
    rs.push_attack(match, unit, "scary_yelling", cmd.option)


def _in_my_tile(rs: RiftRuleset, match: Match, unit: int) -> list[int]:
    here = rs.hex_of(unit)
    return [e for e in rs.hostiles(match, unit) if rs.hex_of(e) == here]


def _presence_problem(rs: RiftRuleset, match: Match, unit: int) -> str | None:
    if not _in_my_tile(rs, match, unit):
        return "Massive Presence: no enemy in your tile"
    return None


def _massive_presence(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    """ "Enemies in your tile are overwhelmed and cannot move until the start of your next turn." """
    events.append(ActionTaken(rs.game(match).round, unit, "massive_presence"))
    for enemy in _in_my_tile(rs, match, unit):
        rs.inflict(match, enemy, "overwhelmed", unit, events)


def _meatshield(rs: RiftRuleset, match: Match, unit: int) -> bool:
    """ "If there is an enemy in your tile, you are considered to have cover in all directions." """
    return bool(_in_my_tile(rs, match, unit))


def _sponge(rs: RiftRuleset, match: Match, target: int, attacker: int) -> Factors:
    return [("Bullet Sponge", Fraction(1, 2))]  # "You innately take 1/2 stress."


register_action(ActionDef("scary_yelling", weapons="firearm", picks=_yell_picks, apply=_scary_yelling))
register_action(ActionDef("massive_presence", problem=_presence_problem, apply=_massive_presence))
register_trait(TraitDef("meatshield", all_round_cover=_meatshield))
register_trait(TraitDef("improved_meatshield"))  # read by RiftRuleset.all_round_cover for allies
register_trait(TraitDef("heightened_durability"))  # +15 maximum resolve in the character's kit
register_trait(TraitDef("bullet_sponge", incoming=_sponge))
