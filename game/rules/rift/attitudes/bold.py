"""Bold: Scary Yelling (Attack), Massive Presence; Meatshield (+ Improved), Heightened Durability (in the
character's kit), Bullet Sponge."""

from __future__ import annotations

from fractions import Fraction

from game.commands import Command
from game.engine.actions import Picks
from game.events import ActionTaken
from game.rules.rift import state as st
from game.rules.rift.context import RiftCtx
from game.rules.rift.hooks import Actions, Factors, Traits, define
from game.rules.rift.traits import TraitDef

__all__ = ["register"]


def _yell_picks(ctx: RiftCtx, unit: int, option: str) -> Picks:
    return Picks(targets=tuple(ctx.firearm_targets(unit, ctx.weapon(option))))


def _scary_yelling(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    """ "Fire your firearm. Anyone you hit is Taunted and can only attack you until the start of your next
    turn." (the taunt is applied by the attack for the scary_yelling attack mode)"""
    ctx.emit(ActionTaken(ctx.round, unit, "scary_yelling", option=cmd.option))
    ctx.push_attack(unit, "scary_yelling", cmd.option)


def _in_my_tile(ctx: RiftCtx, unit: int) -> list[int]:
    here = st.hex_of(unit)
    return [e for e in ctx.hostiles(unit) if st.hex_of(e) == here]


def _presence_problem(ctx: RiftCtx, unit: int, option: str) -> str | None:
    if not _in_my_tile(ctx, unit):
        return "Massive Presence: no enemy in your tile"
    return None


def _massive_presence(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    """ "Enemies in your tile are overwhelmed and cannot move until the start of your next turn." """
    ctx.emit(ActionTaken(ctx.round, unit, "massive_presence"))
    for enemy in _in_my_tile(ctx, unit):
        ctx.inflict(enemy, "overwhelmed", unit)


def _meatshield(ctx: RiftCtx, unit: int) -> bool:
    """ "If there is an enemy in your tile, you are considered to have cover in all directions." """
    return bool(_in_my_tile(ctx, unit))


def _sponge(ctx: RiftCtx, target: int, attacker: int) -> Factors:
    return [("Bullet Sponge", Fraction(1, 2))]  # "You innately take 1/2 stress."


def register(book: Actions, traits: Traits) -> None:
    book.add(define("scary_yelling", weapons="firearm", picks=_yell_picks, apply=_scary_yelling))
    book.add(define("massive_presence", problem=_presence_problem, apply=_massive_presence))
    traits.add(TraitDef("meatshield", all_round_cover=_meatshield))
    traits.add(TraitDef("improved_meatshield"))  # read by attacks.all_round_cover for allies
    traits.add(TraitDef("heightened_durability"))  # +15 maximum resolve in the character's kit
    traits.add(TraitDef("bullet_sponge", incoming=_sponge))
