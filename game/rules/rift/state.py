"""Read-only queries over one Through the Rift unit's components (no rule here changes anything).

They read the current esper world: call them after the match was entered (``match.enter()``; a
:class:`~game.rules.rift.context.RiftCtx` does it when it is made).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

import esper

from game.components import ActionPoints, Identity, Position, Removed
from game.hexgrid import Hex
from game.rules.rift.components import (
    Combatant,
    Inventory,
    Resolve,
    RiftGame,
    Statuses,
    StatusRecord,
    TurnState,
)

if TYPE_CHECKING:
    from game.engine.match import Match

__all__ = [
    "alive",
    "ap",
    "combatant",
    "comp",
    "game_state",
    "has_status",
    "has_trait",
    "hex_of",
    "in_play",
    "inventory",
    "name",
    "resolve",
    "side",
    "statuses",
    "taunters",
    "turn_state",
]

C = TypeVar("C")


def comp(entity: int, kind: type[C]) -> C:
    return esper.component_for_entity(entity, kind)


def game_state(match: Match) -> RiftGame:
    found = match.first_component(RiftGame)
    if found is not None:
        return found[1]
    raise LookupError("this match has no Through the Rift game state")


def side(unit: int) -> str:
    return esper.component_for_entity(unit, Identity).side


def name(unit: int) -> str:
    return esper.component_for_entity(unit, Identity).name


def combatant(unit: int) -> Combatant:
    return esper.component_for_entity(unit, Combatant)


def resolve(unit: int) -> Resolve:
    return esper.component_for_entity(unit, Resolve)


def turn_state(unit: int) -> TurnState:
    return esper.component_for_entity(unit, TurnState)


def ap(unit: int) -> ActionPoints:
    return esper.component_for_entity(unit, ActionPoints)


def inventory(unit: int) -> list[str]:
    """What ``unit`` carries (item names, as on the map)."""
    return esper.component_for_entity(unit, Inventory).items


def hex_of(unit: int) -> Hex | None:
    return esper.component_for_entity(unit, Position).hex


def in_play(unit: int) -> bool:
    return not esper.has_component(unit, Removed)


def alive(unit: int) -> bool:
    """In play, deployed and not overcome: a unit that can still act and be targeted."""
    return (
        not esper.has_component(unit, Removed)
        and not esper.component_for_entity(unit, Resolve).overcome
        and esper.component_for_entity(unit, Position).hex is not None
    )


def has_trait(unit: int, trait: str) -> bool:
    return trait in esper.component_for_entity(unit, Combatant).traits


def statuses(unit: int, kind: str) -> list[StatusRecord]:
    return [s for s in esper.component_for_entity(unit, Statuses).items if s.kind == kind]


def has_status(unit: int, kind: str) -> bool:
    return any(s.kind == kind for s in esper.component_for_entity(unit, Statuses).items)


def taunters(unit: int) -> list[int]:
    """Who Taunted ``unit`` (it "Can only attempt to attack the target that taunted you")."""
    return [s.inflictor for s in statuses(unit, "taunted")]
