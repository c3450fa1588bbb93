"""Calculated: Shaped Charge, Pocket Mortar; Custom Blend, Bring the Fireworks (+ Improved), To the Teeth
(in the character's kit), The Sound of Thunder."""

from __future__ import annotations

from dataclasses import replace

from game.battlefield import Cover
from game.commands import Command
from game.engine.actions import Picks
from game.events import ActionTaken
from game.hexgrid import Hex, hex_distance
from game.rules.rift import state as st
from game.rules.rift.context import RiftCtx
from game.rules.rift.data import WeaponData
from game.rules.rift.hooks import Actions, Traits, define
from game.rules.rift.stress import DiceTraits
from game.rules.rift.traits import TraitDef

__all__ = ["register"]

REACH = 6  # "a tile within 6t" / "a point you choose within 6t"


def _point_picks(ctx: RiftCtx, unit: int, option: str) -> Picks:
    here = ctx.here(unit)
    return Picks(
        hexes=tuple(sorted(h for h in ctx.battlefield.hexes_within(here, REACH) if ctx.sees(here, h)))
    )


def _shaped_charge(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    """ "Destroy all cover adjacent to a tile within 6t." (the tile and its six neighbours)"""
    assert cmd.hex is not None
    ctx.emit(ActionTaken(ctx.round, unit, "shaped_charge", hex=cmd.hex))
    for h in ctx.battlefield.hexes_within(cmd.hex, 1):
        ctx.destroy_cover(h, unit)


def _pocket_mortar(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    """ "Destroy any number of units of cover within 3t of a point you choose within 6t." (all of it)"""
    assert cmd.hex is not None
    ctx.emit(ActionTaken(ctx.round, unit, "pocket_mortar", hex=cmd.hex))
    for h in ctx.battlefield.hexes_within(cmd.hex, 3):
        ctx.destroy_cover(h, unit)


def _custom_blend(ctx: RiftCtx, attacker: int, target: int, weapon: WeaponData, mode: str) -> None:
    """ "Enemies hit by your explosive attacks are stunned and lose one action point" """
    if weapon.explosive and st.alive(target) and st.side(target) != st.side(attacker):
        ctx.inflict(target, "stunned", attacker)


def _fireworks(weapon: WeaponData, traits: DiceTraits) -> DiceTraits:
    return traits if traits.explode < 0 else replace(traits, explode=1)


def _improved_fireworks(weapon: WeaponData, traits: DiceTraits) -> DiceTraits:
    return replace(traits, explode=-1)


def _sound_of_thunder(ctx: RiftCtx, attacker: int, impact: Hex) -> None:
    """ "you may now remove one unit of cover adjacent to the impact site": the destructible cover tile
    within 1 of the impact nearest a hostile unit (docs/RULES.md "Destroying cover")."""
    bf = ctx.battlefield
    foes = [ctx.here(e) for e in ctx.hostiles(attacker)]
    candidates = [
        h
        for h in bf.hexes_within(impact, 1)
        if bf.terrain_at(h).cover != Cover.NONE and bf.terrain_at(h).destructible
    ]
    if not candidates:
        return
    best = min(candidates, key=lambda h: (min((hex_distance(h, f) for f in foes), default=0), h))
    ctx.destroy_cover(best, attacker)


def register(book: Actions, traits: Traits) -> None:
    book.add(define("shaped_charge", "hex", picks=_point_picks, apply=_shaped_charge))
    book.add(define("pocket_mortar", "hex", picks=_point_picks, apply=_pocket_mortar))
    traits.add(TraitDef("custom_blend", on_hit=_custom_blend))
    traits.add(TraitDef("bring_the_fireworks", dice=_fireworks))
    traits.add(TraitDef("improved_fireworks", dice=_improved_fireworks))
    traits.add(TraitDef("to_the_teeth"))  # a third weapon slot in the character's kit
    traits.add(TraitDef("sound_of_thunder", after_explosion=_sound_of_thunder))
