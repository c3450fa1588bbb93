"""Resolute: Deploy Cover, Pick Up Cover, Covering Fire (Attack), Lockdown; Suppressive Fire, Walking
Fortress."""

from __future__ import annotations

from typing import TYPE_CHECKING

import esper

from game.commands import Command
from game.events import ActionTaken, Event
from game.rules.rift.components import Shield
from game.rules.rift.hooks import ActionDef, TraitDef, register_action, register_trait

if TYPE_CHECKING:
    from game.engine.match import Match
    from game.rules.rift.data import WeaponData
    from game.rules.rift.ruleset import RiftRuleset


def _shields(match: Match, unit: int) -> list[tuple[int, Shield]]:
    return [(e, s) for e, s in match.iter_components(Shield) if s.owner == unit]


def _deploy_problem(rs: RiftRuleset, match: Match, unit: int) -> str | None:
    carried = 2 if rs.has_trait(unit, "walking_fortress") else 1  # Walking Fortress: "two shields"
    if len(_shields(match, unit)) >= carried:
        return "Deploy Cover: every shield is down; pick one up to redeploy"
    here = rs.hex_of(unit)
    if any(s.hex == here for _, s in _shields(match, unit)):
        return "Deploy Cover: your shield is already in this tile"
    return None


def _deploy_cover(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    """ "Put down an omnidirectional shield in your tile. This shield provides cover in all directions." """
    here = rs.here(unit)
    match.create_entity(Shield(unit, here))
    events.append(ActionTaken(rs.game(match).round, unit, "deploy_cover", hex=here))


def _pickup_problem(rs: RiftRuleset, match: Match, unit: int) -> str | None:
    here = rs.hex_of(unit)
    if not any(s.hex == here for _, s in _shields(match, unit)):
        return "Pick Up Cover: none of your shields is in your tile"
    return None


def _pick_up_cover(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    here = rs.here(unit)
    for e, s in _shields(match, unit):
        if s.hex == here:
            esper.delete_entity(e, immediate=True)
            break
    events.append(ActionTaken(rs.game(match).round, unit, "pick_up_cover", hex=here))


def _reach(rs: RiftRuleset, unit: int) -> int:
    return max((w.range for w in rs.weapons_of(unit, "firearm")), default=0)


def _needs_firearm(rs: RiftRuleset, match: Match, unit: int) -> str | None:
    if not rs.weapons_of(unit, "firearm"):
        return "needs a firearm"
    return None


def _covering_fire(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    """ "The first time any valid target moves until the start of your next turn, deal a 1 stress shot
    against them." (each valid target once: docs/RULES.md)"""
    events.append(ActionTaken(rs.game(match).round, unit, "covering_fire"))
    rs.inflict(match, unit, "covering_fire", unit, events)


def _lockdown(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    """ "Enemies within range are overwhelmed and unable to move until the start of your next turn."
    (range: the unit's longest firearm; in sight)"""
    events.append(ActionTaken(rs.game(match).round, unit, "lockdown"))
    reach = _reach(rs, unit)
    here = rs.here(unit)
    for enemy in rs.hostiles(match, unit):
        there = rs.here(enemy)
        if rs.distance(unit, enemy) <= reach and rs.sees(match, here, there):
            rs.inflict(match, enemy, "overwhelmed", unit, events)


def _suppress(  # noqa: PLR0917
    rs: RiftRuleset,
    match: Match,
    attacker: int,
    target: int,
    weapon: WeaponData,
    mode: str,
    events: list[Event],
) -> None:
    """ "An enemy hit by your firearm deals 1/2 stress until the start of your next turn." """
    if weapon.firearm and rs.alive(target) and rs.side(target) != rs.side(attacker):
        rs.inflict(match, target, "suppressed", attacker, events)


register_action(ActionDef("deploy_cover", problem=_deploy_problem, apply=_deploy_cover))
register_action(ActionDef("pick_up_cover", problem=_pickup_problem, apply=_pick_up_cover))
register_action(ActionDef("covering_fire", problem=_needs_firearm, apply=_covering_fire))
register_action(ActionDef("lockdown", problem=_needs_firearm, apply=_lockdown))
register_trait(TraitDef("suppressive_fire", on_hit=_suppress))
register_trait(TraitDef("walking_fortress"))  # read by Deploy Cover
