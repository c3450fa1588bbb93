"""The context a rule runs in: queries bound to one match, and the effects rules apply to it.

Rules code — a ruleset's actions, its hooks, an attitude module — is handed a :class:`Context`, never
the ruleset object: it reads the match through the context's queries (who is where, who is hostile, who
can see whom) and changes it through the context's effects (events, removing a unit), so what a rule
may touch is one small, typed surface. A ruleset subclasses :class:`Context` with its own queries and
effects (a Frontier unit's Toughness, a Rifter's stress); its data and action book are reachable as
``ctx.data`` and ``ctx.rules``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, TypeVar

import esper

from game.components import Identity, Position, Removed
from game.events import Event, StatusChanged, UnitRemoved
from game.hexgrid import Hex, hex_distance

if TYPE_CHECKING:
    from game.battlefield import Battlefield
    from game.engine.match import Match

__all__ = ["Context"]

C = TypeVar("C")

FAR = 1 << 30  # the distance to a unit that is not on the map


class Context:
    """One match as the rules see it during one call (a query, a validation, a command being applied)."""

    __slots__ = ("events", "match")

    def __init__(self, match: Match, events: list[Event] | None = None) -> None:
        self.match = match
        self.events: list[Event] = events if events is not None else []
        match.enter()

    # -- the match --------------------------------------------------------------------------------
    @property
    def battlefield(self) -> Battlefield:
        return self.match.battlefield

    @property
    def rng(self) -> random.Random:
        """The match's one seeded RNG (only ``apply`` may draw from it)."""
        return self.match.rng

    @property
    def round(self) -> int:
        return 0

    def round_limit(self, default: int) -> int:
        """The encounter's last round: the encounter file's ``rounds`` if it sets one (docs/GM.md), else
        the map's ``max_rounds`` if it sets one (a big map needs more rounds to cross; docs/MAPS.md), else
        the ruleset's ``default`` (Hexslinger's own, docs/RULES.md)."""
        scenario = self.match.scenario
        if scenario is not None and scenario.rounds:
            return scenario.rounds
        return self.match.battlefield.max_rounds or default

    def emit(self, event: Event) -> None:
        self.events.append(event)

    # -- components -------------------------------------------------------------------------------
    @staticmethod
    def comp(entity: int, kind: type[C]) -> C:
        return esper.component_for_entity(entity, kind)

    @staticmethod
    def try_comp(entity: int, kind: type[C]) -> C | None:
        return esper.try_component(entity, kind)

    @staticmethod
    def has(entity: int, kind: type[Any]) -> bool:
        return esper.has_component(entity, kind)

    def is_unit(self, entity: Any) -> bool:
        """Whether ``entity`` is a unit of this match (any int from a command may be asked)."""
        return (
            isinstance(entity, int)
            and not isinstance(entity, bool)
            and esper.entity_exists(entity)
            and esper.has_component(entity, Identity)
        )

    # -- units ------------------------------------------------------------------------------------
    def units(self, side: str | None = None, *, in_play: bool = True) -> list[int]:
        return self.match.units(side, in_play=in_play)

    @staticmethod
    def side(unit: int) -> str:
        return esper.component_for_entity(unit, Identity).side

    @staticmethod
    def name(unit: int) -> str:
        return esper.component_for_entity(unit, Identity).name

    @staticmethod
    def pos(unit: int) -> Hex | None:
        p = esper.try_component(unit, Position)
        return None if p is None else p.hex

    def here(self, unit: int) -> Hex:
        h = self.pos(unit)
        if h is None:
            raise LookupError(f"unit {unit} is not on the map")
        return h

    @staticmethod
    def in_play(unit: int) -> bool:
        return not esper.has_component(unit, Removed)

    def distance(self, a: int, b: int) -> int:
        ha, hb = self.pos(a), self.pos(b)
        if ha is None or hb is None:
            return FAR
        return hex_distance(ha, hb)

    def sees(self, a: Hex, b: Hex) -> bool:
        """Line of sight centre to centre (either nudged line clear); a tile always sees itself."""
        return a == b or self.match.battlefield.line_of_sight(a, b)

    def occupied(self) -> dict[Hex, int]:
        return self.match.occupied()

    # -- effects ----------------------------------------------------------------------------------
    def remove(self, unit: int, reason: str) -> None:
        """Take a unit out of play for ``reason`` ("out_of_action", "fled", ...); it stays an entity."""
        esper.add_component(unit, Removed(reason))
        self.emit(StatusChanged(self.round, unit, reason, True))
        self.emit(UnitRemoved(self.round, unit, reason))
