"""The basic actions every Rifter and enemy has: "Fire Firearm (Attack) [2AP]", "Use Explosive (Attack)
[2AP]", "Move [1AP]", "Crouch Down [2AP]", "Flee [2AP]", "Hold Fire (Attack) [3AP]", "Interact [1AP]"."""

from __future__ import annotations

from game.commands import Command
from game.engine.actions import Picks
from game.events import ActionTaken
from game.hexgrid import Hex, hex_distance
from game.rules.rift import state as st
from game.rules.rift.context import RiftCtx
from game.rules.rift.hooks import Actions, Traits, define

__all__ = ["impact_hexes", "register"]


def _move_budget(ctx: RiftCtx, unit: int) -> int:
    return st.combatant(unit).move_tiles  # "Move up to two tiles."


def _move(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    ctx.push_walk(unit, cmd.path)


def _fire_problem(ctx: RiftCtx, unit: int, option: str) -> str | None:
    """Fire names no target: its hits are assigned after the roll. It needs one in sight and in range."""
    w = ctx.weapon(option)
    if not ctx.firearm_targets(unit, w):
        return f"{ctx.book['fire'].label_for(ctx, unit, option)}: no hostile unit in sight within {w.range}t"
    return None


def _fire(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    ctx.emit(ActionTaken(ctx.round, unit, cmd.action, option=cmd.option))
    ctx.push_attack(unit, cmd.action, cmd.option)


def impact_hexes(ctx: RiftCtx, unit: int, weapon: str) -> tuple[Hex, ...]:
    """Impact points in range and in sight; a Taunted thrower must catch a taunter in the blast."""
    w = ctx.weapon(weapon)
    here = ctx.here(unit)
    taunters = [t for t in st.taunters(unit) if st.alive(t)]
    out = []
    for h in ctx.battlefield.hexes_within(here, w.range):
        if not ctx.sees(here, h):
            continue
        if taunters and not any(
            hex_distance(ctx.here(t), h) <= (w.radius or 0) and ctx.sees(h, ctx.here(t)) for t in taunters
        ):
            continue
        out.append(h)
    return tuple(sorted(out))


def _explosive_picks(ctx: RiftCtx, unit: int, option: str) -> Picks:
    return Picks(hexes=impact_hexes(ctx, unit, option))


def _explosive(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    ctx.emit(ActionTaken(ctx.round, unit, "explosive", hex=cmd.hex, option=cmd.option))
    ctx.push_attack(unit, "explosive", cmd.option, impact=cmd.hex)


def _crouch(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    ctx.emit(ActionTaken(ctx.round, unit, "crouch"))
    ctx.inflict(unit, "in_cover", unit)


def _flee(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    ctx.emit(ActionTaken(ctx.round, unit, "flee"))
    ctx.remove(unit, "fled")


def _hold_fire(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    ctx.emit(ActionTaken(ctx.round, unit, "hold_fire", option=cmd.option))
    ctx.inflict(unit, "hold_fire", unit, weapon=cmd.option)


def _door_picks(ctx: RiftCtx, unit: int, option: str) -> Picks:
    bf = ctx.battlefield
    occupied = ctx.occupied()
    doors = [
        h
        for h in bf.hexes_within(ctx.here(unit), 1)
        if (door := bf.door_at(h)) is not None and not (door.is_open and h in occupied)
    ]
    return Picks(hexes=tuple(sorted(doors)))


def _interact(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    assert cmd.hex is not None
    bf = ctx.battlefield
    door = bf.door_at(cmd.hex)
    assert door is not None
    bf.set_door(cmd.hex, not door.is_open)
    what = "open_door" if door.is_open else "close_door"
    ctx.emit(ActionTaken(ctx.round, unit, what, hex=cmd.hex))


def _no_attack_flee(ctx: RiftCtx, unit: int, option: str) -> str | None:
    if st.has_status(unit, "overwhelmed"):
        return "Flee: Overwhelmed units are incapable of moving"
    return None


def register(book: Actions, traits: Traits) -> None:
    book.add(define("move", "path", moves=True, budget=_move_budget, apply=_move))
    book.add(define("fire", weapons="firearm", problem=_fire_problem, apply=_fire))
    book.add(define("explosive", "hex", weapons="explosive", picks=_explosive_picks, apply=_explosive))
    book.add(define("crouch", apply=_crouch))
    book.add(define("flee", problem=_no_attack_flee, apply=_flee))
    book.add(define("hold_fire", weapons="firearm", apply=_hold_fire))
    book.add(define("interact", "hex", picks=_door_picks, apply=_interact))
