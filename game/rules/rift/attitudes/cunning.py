"""Cunning: Shout Order, Nudge, "Duck!", Tactical Reposition; Battlefield Commander (off-turn cunning
actions, read by the common checks), Constant Vigilance."""

from __future__ import annotations

from typing import Any

from game.commands import Command
from game.engine.actions import Picks
from game.events import ActionTaken, Note
from game.rules.rift import attacks
from game.rules.rift import state as st
from game.rules.rift.components import Task
from game.rules.rift.context import RiftCtx
from game.rules.rift.hooks import Actions, Traits, define
from game.rules.rift.traits import TraitDef

__all__ = ["grant_point", "register", "reposition_movers"]


def _allies_in_range(ctx: RiftCtx, unit: int) -> tuple[int, ...]:
    return tuple(a for a in ctx.allies(unit) if ctx.distance(unit, a) <= ctx.data.ally_range)


def _shout_picks(ctx: RiftCtx, unit: int, option: str) -> Picks:
    return Picks(targets=_allies_in_range(ctx, unit))


def _the_ally(ctx: RiftCtx, task: Any, reactor: int) -> Picks:
    """Off-turn, Shout Order and Nudge help the ally the window is about (whose turn starts, who is
    about to fire), if it is within 6t."""
    ok = (
        st.side(task.unit) == st.side(reactor)
        and task.unit != reactor
        and ctx.distance(reactor, task.unit) <= ctx.data.ally_range
    )
    return Picks(targets=(task.unit,) if ok else ())


def grant_point(ctx: RiftCtx, unit: int, target: int, action: str) -> None:
    """ "Grant an ally within 6t 1 extra action point.": now if it is the ally's turn, else at the start
    of its next turn (docs/RULES.md "AP across turns")."""
    rnd = ctx.round
    ctx.emit(ActionTaken(rnd, unit, action, target=target))
    if ctx.own_turn(target):
        st.ap(target).current += 1
        ctx.emit(Note(rnd, target, "+1 action point now"))
    else:
        st.ap(target).bonus_next += 1
        ctx.emit(Note(rnd, target, "+1 action point next turn"))


def _shout_order(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    assert cmd.target is not None
    grant_point(ctx, unit, cmd.target, "shout_order")


def _nudge(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    """ "Treat the firearm roll of an ally within 6t as if it was 2 higher." (declared before the dice
    are rolled: docs/RULES.md "Nudge")"""
    task = ctx.game.stack[-1]
    task.nudges += 1
    ctx.emit(ActionTaken(ctx.round, unit, "nudge", target=task.unit))


def _duck_picks(ctx: RiftCtx, task: Any, reactor: int) -> Picks:
    """ "Prevent all damage an ally within 6t would take this turn.": an ally the hits are about to reach,
    not protected yet this turn."""
    turn_number = ctx.game.turn_number
    side = st.side(reactor)
    return Picks(
        targets=tuple(
            t
            for t in attacks.endangered(ctx, task)
            if t != reactor
            and st.side(t) == side
            and ctx.distance(reactor, t) <= ctx.data.ally_range
            and st.turn_state(t).protected_turn != turn_number
        )
    )


def _duck(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    """ "Prevent all damage an ally within 6t would take this turn." """
    assert cmd.target is not None
    st.turn_state(cmd.target).protected_turn = ctx.game.turn_number
    ctx.emit(ActionTaken(ctx.round, unit, "duck", target=cmd.target))


def reposition_movers(ctx: RiftCtx, unit: int) -> list[int]:
    """Who Tactical Reposition moves, in turn order: the Cunning and its allies within 6t, not
    Overwhelmed ("unable to move")."""
    movers = [unit, *_allies_in_range(ctx, unit)]
    return [u for u in ctx.game.order if u in movers and st.alive(u) and not st.has_status(u, "overwhelmed")]


def _reposition_window_picks(ctx: RiftCtx, task: Any, reactor: int) -> Picks:
    """Battlefield Commander off-turn: offered when another unit's turn starts, if anyone could step
    (the tiles they could step to, for the player to see)."""
    if reactor == task.unit:
        return Picks()
    steps = {h for u in reposition_movers(ctx, reactor) for h in ctx.step_hexes(u)}
    return Picks(hexes=tuple(sorted(steps)))


def _tactical_reposition(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    """ "You and each of your allies within 6t may move 1t.": each, in turn order, picks a tile or passes."""
    ctx.emit(ActionTaken(ctx.round, unit, "tactical_reposition"))
    ctx.game.stack.append(Task("reposition", unit, reactors=reposition_movers(ctx, unit)))


def _vigilance(ctx: RiftCtx, unit: int) -> None:
    """ "You now have 1 extra action point that may not be spent on your own turn." """
    st.turn_state(unit).vigilance = 1


def register(book: Actions, traits: Traits) -> None:
    book.add(
        define(
            "shout_order",
            "target",
            cunning=True,
            windows=("turn_start",),
            picks=_shout_picks,
            apply=_shout_order,
            window_picks=_the_ally,
        )
    )
    book.add(
        define("nudge", "target", cunning=True, windows=("nudge",), apply=_nudge, window_picks=_the_ally)
    )
    book.add(
        define("duck", "target", cunning=True, windows=("protect",), apply=_duck, window_picks=_duck_picks)
    )
    book.add(
        define(
            "tactical_reposition",
            cunning=True,
            windows=("turn_start",),  # off-turn: when another unit's turn starts (docs/RULES.md RC4)
            apply=_tactical_reposition,
            window_picks=_reposition_window_picks,
        )
    )
    traits.add(TraitDef("battlefield_commander"))  # read by RiftCtx.common
    traits.add(TraitDef("constant_vigilance", turn_start=_vigilance))
