"""A Match: one encounter of one ruleset on one battlefield, in its own esper world.

Everything that happens goes through :meth:`Match.apply`, which validates the command with the ruleset
(pure), applies it (which may draw from the match's one seeded RNG), logs it and returns the events. A
save is the match's header plus that log; replaying the log reaches the same :meth:`digest`.

esper 3 keeps its worlds in module state, so every public method switches to this match's world first
(``_in_world``); two matches never see each other's entities.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import random
from collections.abc import Callable, Iterator
from enum import Enum
from fractions import Fraction
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import esper

from game.battlefield import Battlefield, load_battlefield
from game.commands import Command
from game.components import Identity, Position, Removed
from game.events import Event
from game.hexgrid import Hex
from game.rules import AttackPreview, LegalAction, Outcome, PosseSpec, Ruleset

__all__ = ["IllegalCommandError", "Match"]

P = ParamSpec("P")
R = TypeVar("R")

_world_numbers = itertools.count(1)


class IllegalCommandError(ValueError):
    """A command the rules do not allow now; ``reason`` says why, in a player's words."""

    def __init__(self, command: Command, reason: str) -> None:
        self.command = command
        self.reason = reason
        super().__init__(f"{command.action}: {reason}")


def _in_world(method: Callable[P, R]) -> Callable[P, R]:
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        match = args[0]
        assert isinstance(match, Match)
        match.enter()
        return method(*args, **kwargs)

    wrapper.__name__ = method.__name__
    wrapper.__doc__ = method.__doc__
    return wrapper


class Match:
    """One encounter. Build it with :meth:`create` (from a map file) or the constructor."""

    def __init__(
        self,
        battlefield: Battlefield,
        ruleset: Ruleset,
        posses: list[PosseSpec],
        seed: int,
        map_path: Path | None = None,
    ) -> None:
        if len(posses) < 2:
            raise ValueError("a match needs at least two posses")
        sides = [p.side for p in posses]
        if len(set(sides)) != len(sides):
            raise ValueError(f"two posses deploy on the same side: {sides}")
        self.battlefield = battlefield
        self.ruleset = ruleset
        self.posses = list(posses)
        self.seed = seed
        self.map_path = map_path
        self.rng = random.Random(seed)
        self.world = f"hexslinger-match-{next(_world_numbers)}"
        self.log: list[Command] = []
        self.history: list[Event] = []
        self._entities: list[int] = []
        esper.switch_world(self.world)
        self.history.extend(ruleset.setup(self))

    @classmethod
    def create(cls, map_path: str | Path, ruleset: Ruleset, posses: list[PosseSpec], seed: int) -> Match:
        path = Path(map_path)
        return cls(load_battlefield(path), ruleset, posses, seed, map_path=path)

    # -- world and entities -------------------------------------------------------------------------
    def enter(self) -> None:
        """Make this match's esper world the current one (every public method does this first)."""
        if esper.current_world != self.world:
            esper.switch_world(self.world)

    def close(self) -> None:
        """Delete this match's esper world."""
        if self.world in esper.list_worlds():
            if esper.current_world == self.world:
                esper.switch_world("default")
            esper.delete_world(self.world)

    def __enter__(self) -> Match:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def create_entity(self, *components: Any) -> int:
        """Create an entity in this match (rulesets use this, so the match knows every entity)."""
        self.enter()
        entity = esper.create_entity(*components)
        self._entities.append(entity)
        return entity

    def delete_entity(self, entity: int) -> None:
        """Delete an entity of this match at once (an item picked up); it leaves the digest with it."""
        self.enter()
        esper.delete_entity(entity, immediate=True)
        self._entities.remove(entity)

    @_in_world
    def entities(self) -> list[int]:
        return [e for e in self._entities if esper.entity_exists(e)]

    @_in_world
    def units(self, side: str | None = None, *, in_play: bool = True) -> list[int]:
        """Unit entity ids in a fixed order (side, then posse index); by default only those in play."""
        found = []
        for entity, ident in esper.get_component(Identity):
            if side is not None and ident.side != side:
                continue
            if in_play and esper.has_component(entity, Removed):
                continue
            found.append((ident.side, ident.index, entity))
        return [e for _, _, e in sorted(found)]

    @_in_world
    def identity(self, unit: int) -> Identity:
        return esper.component_for_entity(unit, Identity)

    @_in_world
    def position(self, unit: int) -> Hex | None:
        pos = esper.try_component(unit, Position)
        return None if pos is None else pos.hex

    @_in_world
    def occupied(self) -> dict[Hex, int]:
        """Hex -> unit standing there, for units in play."""
        return {
            pos.hex: entity
            for entity, pos in esper.get_component(Position)
            if pos.hex is not None and not esper.has_component(entity, Removed)
        }

    # -- the rules ----------------------------------------------------------------------------------
    @_in_world
    def legal_actions(self) -> list[LegalAction]:
        return self.ruleset.legal_actions(self)

    @_in_world
    def validate(self, cmd: Command) -> str | None:
        """None if ``cmd`` is legal now, else why not. Never changes the match."""
        if self.outcome() is not None:
            return "the encounter is over"
        return self.ruleset.validate(self, cmd)

    @_in_world
    def apply(self, cmd: Command) -> list[Event]:
        """Validate and apply ``cmd``; if illegal, raise :class:`IllegalCommandError`, changing nothing."""
        reason = self.validate(cmd)
        if reason is not None:
            raise IllegalCommandError(cmd, reason)
        events = self.ruleset.apply(self, cmd)
        self.enter()
        esper.clear_dead_entities()
        self.log.append(cmd)
        self.history.extend(events)
        return events

    @_in_world
    def preview(self, cmd: Command) -> AttackPreview | None:
        return self.ruleset.preview(self, cmd)

    @_in_world
    def outcome(self) -> Outcome | None:
        return self.ruleset.outcome(self)

    @property
    def is_over(self) -> bool:
        return self.outcome() is not None

    # -- state --------------------------------------------------------------------------------------
    @_in_world
    def state(self) -> dict[str, Any]:
        """The whole game state as canonical JSON-ready data (what :meth:`digest` hashes)."""
        entities = []
        for entity in self.entities():
            components: tuple[Any, ...] = esper.components_for_entity(entity)
            comps = sorted(([type(c).__name__, _canon(c)] for c in components), key=lambda pair: pair[0])
            entities.append([entity, comps])
        return {
            "ruleset": self.ruleset.name,
            "doors": sorted([[d.hex.q, d.hex.r, d.is_open] for d in self.battlefield.doors.values()]),
            "terrain_changes": sorted(
                [h.q, h.r, _canon(t)] for h, t in self.battlefield.terrain_changes.items()
            ),
            "entities": entities,
            "rng": _canon(self.rng.getstate()),
        }

    def digest(self) -> str:
        """sha256 of the whole game state: entities and components, doors, changed terrain, the RNG."""
        text = json.dumps(self.state(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def iter_components(self, component_type: type[R]) -> Iterator[tuple[int, R]]:
        """(entity, component) pairs in entity order: never rely on esper's own order."""
        self.enter()
        yield from sorted(esper.get_component(component_type), key=lambda pair: pair[0])


def _canon(value: Any) -> Any:
    """A canonical, JSON-ready form of component data (sets sorted, dataclasses as dicts)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if isinstance(value, Hex):
            return [value.q, value.r]
        return {f.name: _canon(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return _canon(value.value)
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, dict):
        return [[_canon(k), _canon(v)] for k, v in sorted(value.items(), key=lambda kv: repr(kv[0]))]
    if isinstance(value, set | frozenset):
        return sorted((_canon(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, list | tuple):
        return [_canon(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"component data of type {type(value).__name__} cannot be part of the game state")
