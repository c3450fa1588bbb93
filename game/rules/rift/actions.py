"""What a Through the Rift unit may do now, why a command is refused, and carrying out a command.

On its turn a unit is offered each of its actions (:func:`turn_actions`: the engine's ``offer`` with
:meth:`RiftCtx.common <game.rules.rift.context.RiftCtx.common>` as the common checks) and End Turn. A
step waiting on the stack is offered first (:func:`decision_actions`): the attacker's hit assignment, a
window's reactions and Pass, a Tactical Reposition's step. A command is checked with the rules' own
words for what is not possible now, then exactly against what is offered
(:func:`game.engine.actions.check_command`). Fire names no target: its hits are assigned after the roll.
"""

from __future__ import annotations

from collections.abc import Callable

from game.commands import Command
from game.engine.actions import ActionDef, check_command, offer
from game.engine.flow import window_actions
from game.engine.protocol import LegalAction
from game.engine.world import set_aside
from game.events import ActionTaken
from game.rules.rift import attacks, rounds
from game.rules.rift import state as st
from game.rules.rift.components import Task
from game.rules.rift.context import RiftCtx

__all__ = [
    "SUPPOSED",
    "WINDOW_ACTIONS",
    "act",
    "decide",
    "decision_actions",
    "decision_problem",
    "suppose",
    "turn_actions",
    "turn_problem",
]

WINDOW_ACTIONS = ("pass", "assign", "reposition")


def _end_turn(unit: int) -> LegalAction:
    return LegalAction("end_turn", "End Turn", unit, 0, side=st.side(unit), ends_turn=True)


def _offers(
    ctx: RiftCtx, definition: ActionDef[RiftCtx], unit: int, only: str | None = None
) -> list[LegalAction]:
    def common(d: ActionDef[RiftCtx], option: str) -> str | None:
        return ctx.common(d, unit, option, offered=True)

    return offer(ctx, definition, unit, st.side(unit), problem=common, only=only)


def turn_actions(ctx: RiftCtx, unit: int) -> list[LegalAction]:
    """Everything ``unit`` may do on its turn, disabled ones with the reason, then End Turn."""
    defs = ctx.actions_of(unit)
    budgets = [d.budget(ctx, unit) for d in defs if d.budget is not None]
    if budgets:
        ctx.walk(unit, max(budgets))  # one search serves every walk the unit is offered
    out = [a for d in defs for a in _offers(ctx, d, unit)]
    out.append(_end_turn(unit))
    return out


def decision_actions(ctx: RiftCtx, task: Task) -> list[LegalAction]:
    """The decision the step on top of the stack waits for."""
    if task.kind == "attack" and task.stage == "assign":
        values = attacks.hit_values(task)
        return [
            LegalAction(
                "assign",
                f"Assign {len(values)} hit(s)",
                task.unit,
                0,
                needs="assign",
                targets=tuple(attacks.assign_targets(ctx, task)),
                side=st.side(task.unit),
                max_picks=len(values),
                dice=values,
            )
        ]
    if not task.reactors:
        return []
    reactor = task.reactors[0]
    side = st.side(reactor)
    window = rounds.window_of(task)
    if window == "reposition":
        hexes = tuple(ctx.step_hexes(reactor))
        reason = None if hexes else "no tile to move to"
        return [
            LegalAction(
                "reposition",
                "Tactical Reposition: move 1 tile",
                reactor,
                0,
                bool(hexes),
                reason,
                "hex",
                hexes=hexes,
                side=side,
            ),
            LegalAction("pass", "Pass", reactor, 0, side=side),
        ]

    def common(d: ActionDef[RiftCtx], option: str) -> str | None:
        return ctx.common(d, reactor, option, window, offered=True)

    return window_actions(
        ctx,
        ctx.actions_of(reactor),
        reactor,
        side,
        window=window,
        step=task,
        problem=common,
        no_picks="no one to help",
    )


def _checked(
    ctx: RiftCtx, offers: list[LegalAction], cmd: Command, wrong_target: str = "pick one of the valid targets"
) -> str | None:
    def explain(action: LegalAction, command: Command) -> str | None:
        if not action.enabled:
            return None  # the action's own reason stands
        if action.needs == "target":
            return f"{action.label}: {wrong_target}"
        if action.needs == "assign" and len(command.targets) == action.max_picks:
            bad = next((t for t in command.targets if t not in action.targets), None)
            if bad is not None:
                return f"unit {bad} is not a valid target (a hostile unit in sight and in range)"
        return None

    found, reason = check_command(offers, cmd, ctx.battlefield, explain=explain)
    if found is None:
        return f"{cmd.action.replace('_', ' ')} is not possible now"
    return reason


def turn_problem(ctx: RiftCtx, cmd: Command) -> str | None:
    """Why the acting unit may not take ``cmd`` on its turn (None: it may)."""
    unit = cmd.actor
    if cmd.action == "end_turn":
        return _checked(ctx, [_end_turn(unit)], cmd)
    if cmd.action in WINDOW_ACTIONS:
        return f"there is nothing to {cmd.action} now"
    definition = ctx.book.get(cmd.action)
    if definition is None or cmd.action not in ctx.data.actions:
        return f"unknown action '{cmd.action}'"
    if not ctx.has_action(unit, cmd.action):
        return ctx.common(definition, unit, cmd.option)
    offers = _offers(ctx, definition, unit, cmd.option)
    if all(a.option != cmd.option for a in offers):
        # not offered: say why in the rules' words (a weapon not carried, nothing to hand off, ...)
        reason = ctx.problem(definition, unit, cmd.option)
        if reason is not None:
            return reason
    return _checked(ctx, offers, cmd)


def decision_problem(ctx: RiftCtx, task: Task, cmd: Command) -> str | None:
    """Why ``cmd`` does not answer the decision the step on top of the stack waits for."""
    if task.kind == "attack" and task.stage == "assign":
        if cmd.action != "assign" or cmd.actor != task.unit:
            return f"{st.name(task.unit)} must first assign the hits of the attack"
        return _checked(ctx, decision_actions(ctx, task), cmd)
    if not task.reactors:
        return "nothing to decide"
    reactor = task.reactors[0]
    if cmd.actor != reactor:
        return f"{st.name(reactor)} is deciding whether to react"
    if cmd.action != "pass":
        window = rounds.window_of(task)
        if window == "reposition":
            if cmd.action != "reposition":
                return "Tactical Reposition: move 1 tile or pass"
            if cmd.hex not in ctx.step_hexes(reactor):
                return "Tactical Reposition: pick a neighbouring tile that can be entered"
            if st.has_status(reactor, "overwhelmed"):
                return "Tactical Reposition: Overwhelmed units are incapable of moving"
        else:
            definition = ctx.book.get(cmd.action)
            if definition is None or window not in definition.windows:
                return f"{cmd.action.replace('_', ' ')} cannot be used now; react or pass"
            reason = ctx.problem(definition, reactor, "", window)
            if reason is not None:
                return reason
    return _checked(ctx, decision_actions(ctx, task), cmd, "pick one of the offered allies")


def act(ctx: RiftCtx, cmd: Command) -> None:
    """Carry out the acting unit's action: pay its AP, note an attack, apply it."""
    unit = cmd.actor
    definition = ctx.book[cmd.action]
    ctx.spend(unit, definition.cost_for(ctx, unit, cmd.option))
    if ctx.data.actions[cmd.action].attack:
        st.turn_state(unit).attacked = True
    assert definition.apply is not None
    definition.apply(ctx, unit, cmd)


SUPPOSED = frozenset({"crouch", "covering_fire", "hold_fire"})


def suppose(ctx: RiftCtx, cmd: Command) -> Callable[[], None] | None:
    """Put the effect of ``cmd`` (Crouch Down, Hold Fire or Covering Fire of the acting unit: actions that
    change their actor alone, a status on itself) in place on the match as :func:`act` leaves the actor,
    its turn kept: the AP paid, the action's own effect; the function returned puts every component of the
    actor back as it was. None (nothing changed) where the command could not be taken now or is another
    action: try that one on a copy (``MatchView.sandbox``)."""
    unit = cmd.actor
    game = ctx.game
    if cmd.action not in SUPPOSED or not ctx.is_unit(unit):
        return None
    if game.phase != "battle" or game.active != unit or game.stack or turn_problem(ctx, cmd) is not None:
        return None
    undo = set_aside(unit)
    act(ctx, cmd)
    if game.stack:  # it asked for a step to run on (none of these does): not supposed after all
        game.stack.clear()
        undo()
        return None
    return undo


def decide(ctx: RiftCtx, task: Task, cmd: Command) -> None:
    """Carry out the answer to the decision on top of the stack."""
    if cmd.action == "assign":
        task.assigned = list(cmd.targets)
        ctx.emit(ActionTaken(ctx.round, task.unit, "assign", option=",".join(map(str, cmd.targets))))
        rounds.enter_protect(ctx, task)
        return
    if cmd.action == "pass":
        task.reactors.pop(0)
        return
    if cmd.action == "reposition":
        task.reactors.pop(0)
        assert cmd.hex is not None
        ctx.push_walk(cmd.actor, [cmd.hex])
        return
    reactor = cmd.actor
    definition = ctx.book[cmd.action]
    ctx.spend(reactor, definition.cost_for(ctx, reactor, ""))
    assert definition.apply is not None
    definition.apply(ctx, reactor, cmd)
