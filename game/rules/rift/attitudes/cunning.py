"""Cunning: Shout Order, Nudge, "Duck!", Tactical Reposition; Battlefield Commander (off-turn cunning
actions, in the engine), Constant Vigilance."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.commands import Command
from game.events import ActionTaken, Event, Note
from game.rules.rift.components import Task
from game.rules.rift.hooks import ActionDef, Picks, TraitDef, register_action, register_trait

if TYPE_CHECKING:
    from game.engine.match import Match
    from game.rules.rift.ruleset import RiftRuleset


def _allies_in_range(rs: RiftRuleset, match: Match, unit: int) -> tuple[int, ...]:
    return tuple(a for a in rs.allies(match, unit) if rs.distance(unit, a) <= rs.data.ally_range)


def _shout_picks(rs: RiftRuleset, match: Match, unit: int, option: str) -> Picks:
    return Picks(targets=_allies_in_range(rs, match, unit))


def grant_point(  # noqa: PLR0917
    rs: RiftRuleset, match: Match, unit: int, target: int, action: str, events: list[Event]
) -> None:
    """ "Grant an ally within 6t 1 extra action point.": now if it is the ally's turn, else at the start
    of its next turn (docs/RULES.md "AP across turns")."""
    rnd = rs.game(match).round
    events.append(ActionTaken(rnd, unit, action, target=target))
    if rs.own_turn(match, target):
        rs.ap(target).current += 1
        events.append(Note(rnd, target, "+1 action point now"))
    else:
        rs.ap(target).bonus_next += 1
        events.append(Note(rnd, target, "+1 action point next turn"))


def _shout_order(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    assert cmd.target is not None
    grant_point(rs, match, unit, cmd.target, "shout_order", events)


def _nudge(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    """ "Treat the firearm roll of an ally within 6t as if it was 2 higher." (declared before the dice
    are rolled: docs/RULES.md "Nudge")"""
    task = rs.game(match).stack[-1]
    task.nudges += 1
    events.append(ActionTaken(rs.game(match).round, unit, "nudge", target=task.unit))


def _duck(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    """ "Prevent all damage an ally within 6t would take this turn." """
    assert cmd.target is not None
    game = rs.game(match)
    rs.turn(cmd.target).protected_turn = game.turn_number
    events.append(ActionTaken(game.round, unit, "duck", target=cmd.target))


def _reposition_problem(rs: RiftRuleset, match: Match, unit: int) -> str | None:
    return None


def reposition_movers(rs: RiftRuleset, match: Match, unit: int) -> list[int]:
    """Who Tactical Reposition moves, in turn order: the Cunning and its allies within 6t, not
    Overwhelmed ("unable to move")."""
    game = rs.game(match)
    movers = [unit, *_allies_in_range(rs, match, unit)]
    return [u for u in game.order if u in movers and rs.alive(u) and not rs.has_status(u, "overwhelmed")]


def _reposition_window_picks(rs: RiftRuleset, match: Match, task: Task, reactor: int) -> Picks:
    """Battlefield Commander off-turn: offered when another unit's turn starts, if anyone could step
    (the tiles they could step to, for the player to see)."""
    if reactor == task.unit:
        return Picks()
    steps = {h for u in reposition_movers(rs, match, reactor) for h in rs.step_hexes(match, u)}
    return Picks(hexes=tuple(sorted(steps)))


def _tactical_reposition(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    """ "You and each of your allies within 6t may move 1t.": each, in turn order, picks a tile or passes."""
    game = rs.game(match)
    events.append(ActionTaken(game.round, unit, "tactical_reposition"))
    game.stack.append(Task("reposition", unit, reactors=reposition_movers(rs, match, unit)))


def _vigilance(rs: RiftRuleset, match: Match, unit: int) -> None:
    """ "You now have 1 extra action point that may not be spent on your own turn." """
    rs.turn(unit).vigilance = 1


register_action(
    ActionDef(
        "shout_order",
        needs="target",
        cunning=True,
        windows=("turn_start",),
        picks=_shout_picks,
        apply=_shout_order,
    )
)
register_action(ActionDef("nudge", needs="target", cunning=True, windows=("nudge",), apply=_nudge))
register_action(ActionDef("duck", needs="target", cunning=True, windows=("protect",), apply=_duck))
register_action(
    ActionDef(
        "tactical_reposition",
        cunning=True,
        windows=("turn_start",),  # off-turn: when another unit's turn starts (docs/RULES.md RC4)
        problem=_reposition_problem,
        apply=_tactical_reposition,
        window_picks=_reposition_window_picks,
    )
)
register_trait(TraitDef("battlefield_commander"))  # read by RiftRuleset.action_problem
register_trait(TraitDef("constant_vigilance", turn_start=_vigilance))
