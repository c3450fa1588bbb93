"""Golden Frontiers' unit actions as engine :class:`ActionDef`\\ s: move, run, attack (one offer per
weapon), load, execute, Biding Time, wait the round, end the activation.

"Characters may do anything the GM deems reasonable." On the hex map they do these; "Common actions
include : Biding Time, Attacking, Loading Weapons, and Moving." One action a round (docs/RULES.md G11):
an attack, a load that takes the round or an execution; moving is not an action.
"""

from __future__ import annotations

from game.commands import Command
from game.engine.actions import ActionBook, ActionDef, Picks
from game.hexgrid import hex_distance
from game.rules.golden import rounds
from game.rules.golden.context import GoldenCtx

__all__ = ["build_actions"]


def _acted(ctx: GoldenCtx, unit: int) -> str | None:
    if ctx.turn(unit).acted:
        return f"{ctx.name(unit)} has taken this round's action"
    if not ctx.action_room(unit):
        enc = ctx.data.encounter
        return (
            f"{ctx.name(unit)} moved {ctx.turn(unit).moved} hexes: with an action a unit moves at most "
            f"{enc.move_with_action} in a round"
        )
    return None


def _fresh(ctx: GoldenCtx, unit: int) -> str | None:
    turn = ctx.turn(unit)
    if turn.moved or turn.acted or turn.free_load:
        return f"{ctx.name(unit)} has already moved or acted this round"
    return None


# -- move and run --------------------------------------------------------------------------------------
def _move_problem(ctx: GoldenCtx, unit: int, option: str) -> str | None:
    if ctx.walk_left(unit) <= 0:
        if ctx.run_left(unit) > 0:
            enc = ctx.data.encounter
            return (
                f"{ctx.name(unit)} has walked the {enc.move_with_action} hexes that keep the round's action: "
                "run to go further"
            )
        return f"{ctx.name(unit)} has no movement left this round"
    return None


def _move_picks(ctx: GoldenCtx, unit: int, option: str) -> Picks:
    tree = ctx.walks(unit)
    here = ctx.here(unit)
    return Picks(hexes=tuple(h for h in tree.ends() if h != here), paths=tree)


def _run_problem(ctx: GoldenCtx, unit: int, option: str) -> str | None:
    if ctx.turn(unit).acted:
        return f"{ctx.name(unit)} has taken this round's action: a run takes it"
    if not ctx.action_room(unit):
        return f"{ctx.name(unit)} is running already: move on"
    if ctx.run_left(unit) <= ctx.walk_left(unit):
        return f"{ctx.name(unit)} cannot get further by running than by walking this round"
    return None


def _run_picks(ctx: GoldenCtx, unit: int, option: str) -> Picks:
    """Own (docs/RULES.md G9): a run reaches the hexes beyond the walk that keeps the action."""
    tree = ctx.walks(unit, ctx.run_left(unit))
    return Picks(hexes=tree.ends_beyond(ctx.walk_left(unit)), paths=tree)


def _move(ctx: GoldenCtx, unit: int, cmd: Command) -> None:
    from game.events import Moved  # noqa: PLC0415

    here = ctx.here(unit)
    path = [h for h in cmd.path if h != here] if cmd.path and cmd.path[0] == here else list(cmd.path)
    cost = ctx.battlefield.path_cost([here, *path]) if path else 0
    ctx.position(unit).hex = path[-1]
    ctx.turn(unit).moved += cost
    ctx.emit(Moved(ctx.round, unit, (here, *path), cost))


# -- attack --------------------------------------------------------------------------------------------
def _weapons(ctx: GoldenCtx, unit: int) -> list[str]:
    return list(ctx.arms(unit).weapons)


def _attack_label(ctx: GoldenCtx, unit: int, option: str) -> str:
    weapon = ctx.weapon(option)
    if ctx.loads_on_firing(unit, option):
        return f"Load and shoot ({weapon.name}, loads free)"
    if weapon.is_ranged:
        return f"Shoot ({weapon.name}, {ctx.loaded(unit, option)}/{weapon.ammo})"
    return f"Attack ({weapon.name})"


def _attack_problem(ctx: GoldenCtx, unit: int, option: str) -> str | None:
    reason = _acted(ctx, unit)
    if reason is not None:
        return reason
    weapon = ctx.weapon(option)
    if not ctx.can_fire(unit, option):
        return f"the {weapon.name} is empty: load it first"
    return None


def _attack_picks(ctx: GoldenCtx, unit: int, option: str) -> Picks:
    weapon = ctx.weapon(option)
    targets = tuple(
        t
        for t in ctx.units()
        if ctx.hostile(unit, t) and ctx.target_problem(unit, weapon, t) is None  # it asks whether t fights
    )
    return Picks(targets=targets)


def _attack(ctx: GoldenCtx, unit: int, cmd: Command) -> None:
    assert cmd.target is not None
    rounds.attack(ctx, unit, cmd.target, cmd.option)


# -- load ----------------------------------------------------------------------------------------------
def _guns(ctx: GoldenCtx, unit: int) -> list[str]:
    return [w for w in ctx.arms(unit).weapons if ctx.weapon(w).is_ranged]


def _load_label(ctx: GoldenCtx, unit: int, option: str) -> str:
    weapon = ctx.weapon(option)
    how = "the round's action" if weapon.load_action else "free"
    return f"Load {weapon.name} ({how})"


def _load_problem(ctx: GoldenCtx, unit: int, option: str) -> str | None:
    weapon = ctx.weapon(option)
    if ctx.loaded(unit, option) >= weapon.ammo:
        return f"the {weapon.name} is fully loaded"
    if weapon.load_action:
        return _acted(ctx, unit)
    if ctx.turn(unit).free_load:
        return f"{ctx.name(unit)} has loaded once this round"
    return None


def _load(ctx: GoldenCtx, unit: int, cmd: Command) -> None:
    rounds.load(ctx, unit, cmd.option)


# -- execute -------------------------------------------------------------------------------------------
def _execute_picks(ctx: GoldenCtx, unit: int, option: str) -> Picks:
    here = ctx.here(unit)
    targets = tuple(
        t
        for t in ctx.units()
        if ctx.hostile(unit, t)
        and ctx.health(t).crippled
        and (there := ctx.pos(t)) is not None
        and hex_distance(here, there) == 1
    )
    return Picks(targets=targets)


def _execute(ctx: GoldenCtx, unit: int, cmd: Command) -> None:
    assert cmd.target is not None
    rounds.execute(ctx, unit, cmd.target)


# -- Biding Time, waiting, ending ----------------------------------------------------------------------
def _bide_problem(ctx: GoldenCtx, unit: int, option: str) -> str | None:
    reason = _fresh(ctx, unit)
    if reason is not None:
        return reason
    game = ctx.game
    later = [u for u in game.order[game.order.index(unit) + 1 :] if ctx.fights(u) and not ctx.turn(u).done]
    if not later:
        return f"nobody acts after {ctx.name(unit)} this round: wait the whole round instead"
    return None


def _bide(ctx: GoldenCtx, unit: int, cmd: Command) -> None:
    rounds.bide(ctx)


def _wait(ctx: GoldenCtx, unit: int, cmd: Command) -> None:
    rounds.wait_round(ctx, unit)
    rounds.end_activation(ctx)


def _end(ctx: GoldenCtx, unit: int, cmd: Command) -> None:
    rounds.end_activation(ctx)


def build_actions() -> ActionBook[GoldenCtx]:
    book: ActionBook[GoldenCtx] = ActionBook()
    book.add(
        ActionDef(
            "move",
            needs="path",
            label=lambda c, u, o: f"Move (up to {c.walk_left(u)} hexes)",
            problem=_move_problem,
            picks=_move_picks,
            no_picks="no hex to move to",
            apply=_move,
            tags=frozenset({"moves"}),
        )
    )
    book.add(
        ActionDef(
            "run",
            needs="path",
            label=lambda c, u, o: f"Run (up to {c.run_left(u)} hexes, no action this round)",
            cost=1,  # it spends the round's action (the AI and the action bar read this)
            problem=_run_problem,
            picks=_run_picks,
            no_picks="no hex beyond the walk to run to",
            apply=_move,
            tags=frozenset({"moves"}),
        )
    )
    book.add(
        ActionDef(
            "attack",
            needs="target",
            options=_weapons,
            no_options="carries no weapon",
            label=_attack_label,
            problem=_attack_problem,
            picks=_attack_picks,
            no_picks="no hostile unit in reach and in sight",
            cost=1,  # it spends the round's action, as a run does
            apply=_attack,
            tags=frozenset({"attack"}),
        )
    )
    book.add(
        ActionDef(
            "load",
            options=_guns,
            label=_load_label,
            cost=lambda c, u, o: 1 if c.weapon(o).load_action else 0,  # the round's action, or free
            problem=_load_problem,
            apply=_load,
        )
    )
    book.add(
        ActionDef(
            "execute",
            needs="target",
            label=lambda c, u, o: "Execute",
            problem=lambda c, u, o: _acted(c, u),
            picks=_execute_picks,
            no_picks="no crippled enemy next to this unit",
            cost=1,  # it spends the round's action
            apply=_execute,
        )
    )
    book.add(
        ActionDef(
            "bide",
            label=lambda c, u, o: "Bide Time (act later)",
            problem=_bide_problem,
            apply=_bide,
        )
    )
    book.add(
        ActionDef(
            "wait_round",
            label=lambda c, u, o: "Wait the round (first next round)",
            problem=lambda c, u, o: _fresh(c, u),
            apply=_wait,
        )
    )
    book.add(ActionDef("end", label=lambda c, u, o: "End activation", apply=_end, ends_turn=True))
    return book
