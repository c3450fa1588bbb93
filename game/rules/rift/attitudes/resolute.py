"""Resolute: Deploy Cover, Pick Up Cover, Covering Fire (Attack), Lockdown; Suppressive Fire, Walking
Fortress."""

from __future__ import annotations

from game.commands import Command
from game.events import ActionTaken
from game.rules.rift import state as st
from game.rules.rift.components import Shield
from game.rules.rift.context import RiftCtx
from game.rules.rift.data import WeaponData
from game.rules.rift.hooks import Actions, Traits, define
from game.rules.rift.traits import TraitDef

__all__ = ["register"]


def _shields(ctx: RiftCtx, unit: int) -> list[tuple[int, Shield]]:
    return [(e, s) for e, s in ctx.match.iter_components(Shield) if s.owner == unit]


def _deploy_problem(ctx: RiftCtx, unit: int, option: str) -> str | None:
    carried = 2 if st.has_trait(unit, "walking_fortress") else 1  # Walking Fortress: "two shields"
    if len(_shields(ctx, unit)) >= carried:
        return "Deploy Cover: every shield is down; pick one up to redeploy"
    here = st.hex_of(unit)
    if any(s.hex == here for _, s in _shields(ctx, unit)):
        return "Deploy Cover: your shield is already in this tile"
    return None


def _deploy_cover(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    """ "Put down an omnidirectional shield in your tile. This shield provides cover in all directions." """
    here = ctx.here(unit)
    ctx.match.create_entity(Shield(unit, here))
    ctx.emit(ActionTaken(ctx.round, unit, "deploy_cover", hex=here))


def _pickup_problem(ctx: RiftCtx, unit: int, option: str) -> str | None:
    here = st.hex_of(unit)
    if not any(s.hex == here for _, s in _shields(ctx, unit)):
        return "Pick Up Cover: none of your shields is in your tile"
    return None


def _pick_up_cover(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    here = ctx.here(unit)
    for e, s in _shields(ctx, unit):
        if s.hex == here:
            ctx.match.delete_entity(e)
            break
    ctx.emit(ActionTaken(ctx.round, unit, "pick_up_cover", hex=here))


def _reach(ctx: RiftCtx, unit: int) -> int:
    return max((w.range for w in ctx.weapons_of(unit, "firearm")), default=0)


def _needs_firearm(ctx: RiftCtx, unit: int, option: str) -> str | None:
    if not ctx.weapons_of(unit, "firearm"):
        return "needs a firearm"
    return None


def _covering_fire(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    """ "The first time any valid target moves until the start of your next turn, deal a 1 stress shot
    against them." (each valid target once: docs/RULES.md)"""
    ctx.emit(ActionTaken(ctx.round, unit, "covering_fire"))
    ctx.inflict(unit, "covering_fire", unit)


def _lockdown(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    """ "Enemies within range are overwhelmed and unable to move until the start of your next turn."
    (range: the unit's longest firearm; in sight)"""
    ctx.emit(ActionTaken(ctx.round, unit, "lockdown"))
    reach = _reach(ctx, unit)
    here = ctx.here(unit)
    for enemy in ctx.hostiles(unit):
        if ctx.distance(unit, enemy) <= reach and ctx.sees(here, ctx.here(enemy)):
            ctx.inflict(enemy, "overwhelmed", unit)


def _suppress(ctx: RiftCtx, attacker: int, target: int, weapon: WeaponData, mode: str) -> None:
    """ "An enemy hit by your firearm deals 1/2 stress until the start of your next turn." """
    if weapon.firearm and st.alive(target) and st.side(target) != st.side(attacker):
        ctx.inflict(target, "suppressed", attacker)


def register(book: Actions, traits: Traits) -> None:
    book.add(define("deploy_cover", problem=_deploy_problem, apply=_deploy_cover))
    book.add(define("pick_up_cover", problem=_pickup_problem, apply=_pick_up_cover))
    book.add(define("covering_fire", problem=_needs_firearm, apply=_covering_fire))
    book.add(define("lockdown", problem=_needs_firearm, apply=_lockdown))
    traits.add(TraitDef("suppressive_fire", on_hit=_suppress))
    traits.add(TraitDef("walking_fortress"))  # read by Deploy Cover
