"""Through the Rift's turns and its flow: the turn order rolled once, each unit's turn, the steps on the
engine's stack (a walk with the Hold Fire and Covering Fire it sets off, an attack in its stages with
its reaction windows, a Tactical Reposition) and how the encounter ends.

An attack goes nudge window -> roll -> assign -> protect window -> apply; a step that needs a decision
(a window with reactors, the hits to assign) stops the flow, and ``legal_actions`` offers that decision,
even to a unit whose turn it is not. Interpretations: docs/RULES.md, "Through the Rift".
"""

from __future__ import annotations

from fractions import Fraction

from game.dice import roll
from game.engine import scenario
from game.engine.flow import Flow
from game.engine.order import rolled_order
from game.engine.protocol import Outcome
from game.engine.turns import finish, standing_outcome
from game.events import ActivationEnded, ActivationStarted, Moved, Note, PhaseStarted, Roll, StatusChanged
from game.rules.rift import attacks
from game.rules.rift import state as st
from game.rules.rift.components import Shield, Statuses, Task
from game.rules.rift.context import RiftCtx

__all__ = [
    "FLOW",
    "check_end",
    "end_turn",
    "enter_protect",
    "pickup_possible",
    "run",
    "start_battle",
    "window_of",
    "winner",
]


def window_of(task: Task) -> str:
    """The window a step with reactors holds open: "nudge" (before the roll), "protect" (before the hits
    land), "turn_start", "reposition" (a Tactical Reposition's steps)."""
    if task.kind == "reposition":
        return "reposition"
    if task.kind == "turn_start":
        return "turn_start"
    return "nudge" if task.stage == "nudge" else "protect"


# == turns =========================================================================================


def start_battle(ctx: RiftCtx) -> None:
    """ "To determine turn order, each participant rolls 1d20. Higher numbers act first, with ties
    rolling off." Quick Draw: "you always act first. If two characters have this talent, they roll off
    for first and second"."""
    game = ctx.game
    game.phase = "battle"
    game.round = 1
    ctx.emit(PhaseStarted(1, "initiative"))
    units = ctx.units()
    die = ctx.data.initiative_die

    def rolled(u: int, value: int, rolloff: bool) -> None:
        if not rolloff:
            st.turn_state(u).initiative = value
        check = "initiative roll-off" if rolloff else "initiative"
        ctx.emit(Roll(1, u, check, (value,), (), value, None, None, None, "initiative"))

    # "To determine turn order, each participant rolls 1d20. Higher numbers act first, with ties rolling
    # off." Quick Draw: "you always act first" (ties among Quick Draws roll off too): the engine's order
    game.order = rolled_order(
        units,
        lambda: roll(ctx.rng, die)[0],
        first=lambda u: st.has_trait(u, "quick_draw"),
        rolled=rolled,
    )
    ctx.emit(PhaseStarted(1, "battle"))
    game.turn = -1
    next_turn(ctx)


def next_turn(ctx: RiftCtx) -> None:
    game = ctx.game
    game.active = 0
    for _ in range(len(game.order) + 1):
        game.turn += 1
        if game.turn >= len(game.order):
            limit = ctx.round_limit(ctx.data.max_rounds)
            if scenario.round_ends(ctx.match, game.round, limit, ctx.events) is not None:
                return  # an encounter's objective decided it: check_end ends it
            if game.round >= limit:
                game.result = f"the sun went down after {game.round} rounds: no winner"
                return
            game.round += 1
            game.turn = 0
            ctx.emit(PhaseStarted(game.round, "round"))
            # an encounter's reinforcements come on and act last in the order rolled for the game (own)
            game.order.extend(scenario.round_starts(ctx.match, game.round, ctx.events))
        unit = game.order[game.turn]
        ctx.expire(unit)  # the inflictor's turn (taken or not) begins
        if not st.alive(unit):
            continue
        start_turn(ctx, unit)
        return
    game.result = "no unit can act: no winner"


def start_turn(ctx: RiftCtx, unit: int) -> None:
    game = ctx.game
    game.active = unit
    game.turn_number += 1
    t = st.turn_state(unit)
    t.attacked = t.sprinted = False
    t.started = True
    t.vigilance = 0
    points = st.ap(unit)
    points.current = points.per_activation + points.bonus_next
    points.bonus_next = 0
    if st.has_status(unit, "stunned"):
        points.current = max(0, points.current - 1)  # Stunned: "Lose 1 Action Point"
        ctx.emit(Note(game.round, unit, "Stunned: 1 action point lost"))
    for d in ctx.traits.of(st.combatant(unit).traits):
        if d.turn_start is not None:
            d.turn_start(ctx, unit)
    ctx.emit(ActivationStarted(game.round, unit, points.current))
    start = Task("turn_start", unit)
    start.reactors = ctx.reactors(start, "turn_start")
    if start.reactors:
        game.stack.append(start)
    elif points.current <= 0 and not pickup_possible(ctx, unit):
        end_turn(ctx)


def end_turn(ctx: RiftCtx) -> None:
    game = ctx.game
    if game.active:
        ctx.emit(ActivationEnded(game.round, game.active))
    next_turn(ctx)
    run(ctx)


def pickup_possible(ctx: RiftCtx, unit: int) -> bool:
    """Pick Up Cover costs no AP: a unit standing on its own shield keeps its turn at 0 AP."""
    return ctx.has_action(unit, "pick_up_cover") and any(
        s.owner == unit and s.hex == st.hex_of(unit) for _, s in ctx.match.iter_components(Shield)
    )


# == the flow ======================================================================================


def run(ctx: RiftCtx) -> None:
    """Carry the flow on until it needs a decision or the stack is empty; then a turn with nothing left
    to do (no AP, the unit overcome) ends."""
    game = ctx.game
    FLOW.run(ctx, game.stack)
    if game.phase == "battle" and not game.stack and game.active:
        unit = game.active
        if not st.alive(unit) or (st.ap(unit).current <= 0 and not pickup_possible(ctx, unit)):
            end_turn(ctx)


def _walk(ctx: RiftCtx, task: Task) -> None:
    """One tile of a move, then the watchers' triggers: docs/RULES.md "Hold Fire and Covering Fire"."""
    game = ctx.game
    unit = task.unit
    if not task.steps or not st.alive(unit):
        game.stack.pop()
        return
    step = task.steps.pop(0)
    before = ctx.here(unit)
    ctx.move_to(unit, step)
    cost = ctx.battlefield.move_cost(step) or 1
    ctx.emit(Moved(game.round, unit, (before, step), cost))
    if not task.steps:
        game.stack.pop()
    side = st.side(unit)
    triggered: list[Task] = []
    for watcher in game.order:
        if watcher == unit or not st.alive(watcher) or st.side(watcher) == side:
            continue
        for record in list(st.statuses(watcher, "hold_fire")):
            w = ctx.weapon(record.weapon)
            if ctx.valid_target(watcher, unit, w.range):
                ctx.comp(watcher, Statuses).items.remove(record)
                ctx.emit(StatusChanged(game.round, watcher, "hold_fire", False))
                ctx.emit(Note(game.round, watcher, "Hold Fire: fires at the first valid target to move"))
                triggered.append(
                    Task("attack", watcher, mode="hold_fire", weapon=w.id, stage="nudge", forced=unit)
                )
                break
        for record in st.statuses(watcher, "covering_fire"):
            reach = max((w.range for w in ctx.weapons_of(watcher, "firearm")), default=0)
            if unit not in record.shot_at and ctx.valid_target(watcher, unit, reach):
                record.shot_at.append(unit)
                ctx.emit(Note(game.round, watcher, "Covering Fire: a 1 stress shot at a target that moved"))
                triggered.append(Task("attack", watcher, mode="covering_fire", stage="roll", forced=unit))
    for t in reversed(triggered):
        if t.stage == "nudge":
            t.reactors = ctx.reactors(t, "nudge")
            if not t.reactors:
                t.stage = "roll"
        game.stack.append(t)


def _attack(ctx: RiftCtx, task: Task) -> bool:
    """Carry an attack on by one stage; True while its hits wait to be assigned."""
    game = ctx.game
    attacker = task.unit
    if task.stage == "nudge":
        task.stage = "roll"
    elif task.stage == "roll":
        if not st.alive(attacker):
            game.stack.pop()
            return False
        attacks.roll(ctx, task)
        w = ctx.weapon(task.weapon) if task.weapon else None
        if w is not None and w.explosive:
            enter_protect(ctx, task)
            return False
        hits = sum(1 for s in task.shots if s.hit)
        valid = attacks.assign_targets(ctx, task)
        if hits == 0 or not valid:
            if hits:
                ctx.emit(Note(game.round, attacker, "no valid target for the hits"))
            game.stack.pop()
            return False
        if task.forced or len(valid) == 1:
            # one valid target (or the mover that set off Hold Fire): every hit goes to it
            task.assigned = [valid[0]] * hits
            enter_protect(ctx, task)
            return False
        task.stage = "assign"
    elif task.stage == "assign":
        return True
    elif task.stage == "protect":
        task.stage = "apply"
    elif task.stage == "apply":
        game.stack.pop()
        attacks.resolve(ctx, task)
    return False


def enter_protect(ctx: RiftCtx, task: Task) -> None:
    """The hits are known: open the window for "Duck!" and Dodge Roll before they land."""
    task.stage = "protect"
    task.reactors = ctx.reactors(task, "protect")
    if not task.reactors:
        task.stage = "apply"


def _done(ctx: RiftCtx, task: Task) -> None:
    ctx.game.stack.pop()  # a Tactical Reposition, a turn's start: their windows are over


def _decided(ctx: RiftCtx) -> bool:
    """The encounter is over or decided: nothing pending matters any more."""
    if ctx.game.phase == "over":
        return True
    if winner(ctx) is not None:
        ctx.game.stack.clear()
        return True
    return False


FLOW: Flow[RiftCtx, Task] = Flow(
    {"walk": _walk, "attack": _attack, "reposition": _done, "turn_start": _done},
    still_reacts=lambda ctx, task, unit: st.alive(unit),
    stop=_decided,
)


# == the end =======================================================================================


def winner(ctx: RiftCtx) -> Outcome | None:
    """A side wins when every hostile unit is overcome or has fled (companions do not count):
    docs/RULES.md "Winning"."""
    if ctx.game.phase == "deployment":
        return None
    return standing_outcome(
        ctx.match,
        fights=st.alive,
        counts=lambda u: not st.combatant(u).companion,
        beaten="overcome",
        nobody="no one is left standing on either side",
    )


def check_end(ctx: RiftCtx) -> None:
    game = ctx.game
    if game.phase in {"over", "deployment"}:
        return
    result = winner(ctx)
    if result is None:
        result = scenario.settle(ctx.match, ctx.events)  # an encounter's objectives (own)
    if result is None and game.result:
        result = Outcome(None, game.result)
    if result is None:
        return
    game.stack.clear()
    finish(game, result, ctx.events)
    stabilise(ctx)


def stabilise(ctx: RiftCtx) -> None:
    """ "At the end of the encounter, an ally can stabilize them, returning them to 1/3 of their maximum
    resolve." Implausibly Well Groomed: "instead return to 2/3 resolve". An ally: a unit of the same
    side still standing (not overcome, not fled)."""
    game = ctx.game
    for u in ctx.units():
        res = st.resolve(u)
        if not res.overcome:
            continue
        if not any(st.alive(a) for a in ctx.units(st.side(u)) if a != u):
            continue
        share = Fraction(2, 3) if st.has_trait(u, "implausibly_well_groomed") else Fraction(1, 3)
        res.current = max(1, int(res.maximum * share))
        res.overcome = False
        game.stabilised.append([u, res.current])
        ctx.emit(Note(game.round, u, f"stabilised by an ally: {res.current} resolve"))
