"""Calculated: Shaped Charge, Pocket Mortar; Custom Blend, Bring the Fireworks (+ Improved), To the Teeth
(in the character's kit), The Sound of Thunder."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from game.battlefield import Cover
from game.commands import Command
from game.events import ActionTaken, Event
from game.hexgrid import Hex, hex_distance
from game.rules.rift.hooks import ActionDef, Picks, TraitDef, register_action, register_trait
from game.rules.rift.stress import DiceTraits

if TYPE_CHECKING:
    from game.engine.match import Match
    from game.rules.rift.data import WeaponData
    from game.rules.rift.ruleset import RiftRuleset

REACH = 6  # "a tile within 6t" / "a point you choose within 6t"


def _point_picks(rs: RiftRuleset, match: Match, unit: int, option: str) -> Picks:
    here = rs.here(unit)
    return Picks(
        hexes=tuple(sorted(h for h in match.battlefield.hexes_within(here, REACH) if rs.sees(match, here, h)))
    )


def _shaped_charge(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    """ "Destroy all cover adjacent to a tile within 6t." (the tile and its six neighbours)"""
    assert cmd.hex is not None
    events.append(ActionTaken(rs.game(match).round, unit, "shaped_charge", hex=cmd.hex))
    for h in match.battlefield.hexes_within(cmd.hex, 1):
        rs.destroy_cover(match, h, events, unit)


def _pocket_mortar(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    """ "Destroy any number of units of cover within 3t of a point you choose within 6t." (all of it)"""
    assert cmd.hex is not None
    events.append(ActionTaken(rs.game(match).round, unit, "pocket_mortar", hex=cmd.hex))
    for h in match.battlefield.hexes_within(cmd.hex, 3):
        rs.destroy_cover(match, h, events, unit)


def _custom_blend(  # noqa: PLR0917
    rs: RiftRuleset,
    match: Match,
    attacker: int,
    target: int,
    weapon: WeaponData,
    mode: str,
    events: list[Event],
) -> None:
    """ "Enemies hit by your explosive attacks are stunned and lose one action point" """
    if weapon.explosive and rs.alive(target) and rs.side(target) != rs.side(attacker):
        rs.inflict(match, target, "stunned", attacker, events)


def _fireworks(weapon: WeaponData, traits: DiceTraits) -> DiceTraits:
    return traits if traits.explode < 0 else replace(traits, explode=1)


def _improved_fireworks(weapon: WeaponData, traits: DiceTraits) -> DiceTraits:
    return replace(traits, explode=-1)


def _sound_of_thunder(rs: RiftRuleset, match: Match, attacker: int, impact: Hex, events: list[Event]) -> None:
    """ "you may now remove one unit of cover adjacent to the impact site": the destructible cover tile
    within 1 of the impact nearest a hostile unit (docs/RULES.md "Destroying cover")."""
    bf = match.battlefield
    foes = [rs.here(e) for e in rs.hostiles(match, attacker)]
    candidates = [
        h
        for h in bf.hexes_within(impact, 1)
        if bf.terrain_at(h).cover != Cover.NONE and bf.terrain_at(h).destructible
    ]
    if not candidates:
        return
    best = min(candidates, key=lambda h: (min((hex_distance(h, f) for f in foes), default=0), h))
    rs.destroy_cover(match, best, events, attacker)


register_action(ActionDef("shaped_charge", needs="hex", picks=_point_picks, apply=_shaped_charge))
register_action(ActionDef("pocket_mortar", needs="hex", picks=_point_picks, apply=_pocket_mortar))
register_trait(TraitDef("custom_blend", on_hit=_custom_blend))
register_trait(TraitDef("bring_the_fireworks", dice=_fireworks))
register_trait(TraitDef("improved_fireworks", dice=_improved_fireworks))
register_trait(TraitDef("to_the_teeth"))  # a third weapon slot in the character's kit
register_trait(TraitDef("sound_of_thunder", after_explosion=_sound_of_thunder))
