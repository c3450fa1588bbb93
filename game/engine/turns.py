"""Turn structure shared by every ruleset: the encounter's state, deployment, the acting order, winning.

- :class:`Encounter` is the turn state on the match's game entity (round, phase, who deploys in which
  order, the acting order and whose turn it is, the result). A ruleset keeps its own extra state in a
  component of its own beside it (Frontier's deck, Through the Rift's pending steps).
- Deployment is the same for all: the posses deploy one after another in ``deploy_order``, each unit on
  a hex of its side's zone (:func:`deploy_actions`, :func:`auto_deploy`); ``stacking`` says whether a
  hex may hold several units.
- :func:`standing_outcome` is "a posse wins when no hostile unit is left in the fight", with the words
  for how the others left; :func:`finish` ends the encounter once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import esper

from game.commands import Command
from game.components import Position, Removed
from game.engine import scenario
from game.engine.protocol import DEPLOY, LegalAction, Outcome
from game.events import FLED, Event, MatchEnded, Moved

if TYPE_CHECKING:
    from game.engine.match import Match

__all__ = [
    "Encounter",
    "auto_deploy",
    "deploy_actions",
    "deploying_side",
    "encounter",
    "finish",
    "outcome_of",
    "place",
    "standing_outcome",
]


@dataclass(slots=True)
class Encounter:
    """The turn state every ruleset shares, on the game entity."""

    round: int = 0
    phase: str = "deployment"  # deployment, then the ruleset's phases, then "over"
    deploy_order: list[str] = field(default_factory=list)  # sides, in the order they deploy
    order: list[int] = field(default_factory=list)  # the acting order (this round's, or the whole game's)
    turn: int = -1  # index into ``order`` of the acting unit
    active: int = 0  # the acting unit (0: none)
    winner: str = ""
    result: str = ""  # why the encounter ended ("" while it goes on; a no-winner reason before the end)


def encounter(match: Match) -> Encounter:
    for _, enc in match.iter_components(Encounter):
        return enc
    raise LookupError("this match has no encounter state")


def deploying_side(match: Match, enc: Encounter) -> str | None:
    """The first side in deploy order with a unit still off the map, or None once all are deployed."""
    for side in enc.deploy_order:
        if any(esper.component_for_entity(u, Position).hex is None for u in match.units(side)):
            return side
    return None


def deploy_actions(
    match: Match, enc: Encounter, *, stacking: bool, name: Callable[[int], str]
) -> list[LegalAction]:
    """One "deploy" action per unit of the deploying side still off the map, aimed at a zone hex (a free
    one unless ``stacking``), or at the one hex an encounter file fixes for it (game.engine.scenario);
    no unit is offered another's fixed start."""
    side = deploying_side(match, enc)
    if side is None:
        return []
    bf = match.battlefield
    zone = bf.deploy_zones.get(side, frozenset())
    taken = set() if stacking else set(match.occupied())
    kept = scenario.kept_starts(match)
    hexes = tuple(sorted(h for h in zone if bf.is_passable(h) and h not in taken and h not in kept))
    offers = []
    for u in match.units(side):
        if esper.component_for_entity(u, Position).hex is not None:
            continue
        fixed = scenario.fixed_start(match, u)
        where = hexes if fixed is None else (fixed,)
        offers.append(LegalAction(DEPLOY, f"Deploy {name(u)}", u, 0, needs="hex", hexes=where, side=side))
    return offers


def place(match: Match, cmd: Command, events: list[Event]) -> None:
    """Carry out a validated "deploy" command."""
    assert cmd.hex is not None
    esper.component_for_entity(cmd.actor, Position).hex = cmd.hex
    events.append(Moved(0, cmd.actor, (cmd.hex,), 0))


def auto_deploy(match: Match, enc: Encounter, *, stacking: bool) -> list[Command]:
    """Deploy every undeployed unit: each side's units in posse order on its zone's hexes nearest the
    zone's centre (``Battlefield.deploy_spots``), deterministic. The "auto-deploy" button, tests, the AI.

    Without ``stacking`` each unit takes the next free hex (the units already there keep theirs). With
    it the n-th unit of a posse goes to the n-th hex, spread out one per hex while hexes last and then
    round again from the first. A unit an encounter file starts on a fixed hex goes there, and no other
    unit takes that hex."""
    kept = scenario.kept_starts(match)
    taken = (set() if stacking else set(match.occupied())) | kept
    commands: list[Command] = []
    for side in enc.deploy_order:
        free = [h for h in match.battlefield.deploy_spots(side) if h not in taken]
        for index, unit in enumerate(match.units(side)):
            if esper.component_for_entity(unit, Position).hex is not None:
                continue
            fixed = scenario.fixed_start(match, unit)
            if fixed is not None:
                commands.append(Command(DEPLOY, actor=unit, side=side, hex=fixed))
                continue
            if not free:
                continue
            spot = free[index % len(free)] if stacking else free.pop(0)
            if not stacking:
                taken.add(spot)
            commands.append(Command(DEPLOY, actor=unit, side=side, hex=spot))
    return commands


def standing_outcome(
    match: Match,
    *,
    fights: Callable[[int], bool],
    counts: Callable[[int], bool] = lambda u: True,
    beaten: str = "out of action",
    nobody: str = "no unit is left standing on either side",
) -> Outcome | None:
    """A posse wins when every hostile unit has left the fight: "rendering all hostile Units Out of
    Action or causing all hostile Units to flee" (Frontier), "overcome" or fled (Through the Rift).

    ``fights(u)``: the unit is still in the fight; ``counts(u)``: it counts at all (Through the Rift's
    companions do not); ``beaten``: the words for a unit taken out (the reason says who fled)."""
    standing = [p.side for p in match.posses if any(fights(u) for u in match.units(p.side) if counts(u))]
    if len(standing) > 1:
        return None
    if not standing:
        return Outcome(None, nobody)
    winner = standing[0]
    losers = [
        u for p in match.posses if p.side != winner for u in match.units(p.side, in_play=False) if counts(u)
    ]
    fled = [u for u in losers if (r := esper.try_component(u, Removed)) is not None and r.reason == FLED]
    if losers and len(fled) == len(losers):
        reason = "all hostile units fled"
    elif not fled:
        reason = f"all hostile units are {beaten}"
    else:
        reason = f"all hostile units are {beaten} or fled"
    return Outcome(winner, reason)


def finish(enc: Encounter, outcome: Outcome, events: list[Event]) -> bool:
    """End the encounter with ``outcome`` (once); True if it ended now."""
    if enc.phase == "over":
        return False
    enc.phase = "over"
    enc.active = 0
    enc.winner = outcome.winner or ""
    enc.result = outcome.reason
    events.append(MatchEnded(enc.round, outcome.winner, outcome.reason))
    return True


def outcome_of(enc: Encounter) -> Outcome | None:
    if enc.phase != "over":
        return None
    return Outcome(enc.winner or None, enc.result)
