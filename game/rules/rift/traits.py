"""Traits: what a passive ability changes, as hooks the rules call at fixed points.

A :class:`TraitDef` says what one trait does at each hook point (any it leaves None it does not touch);
a ruleset instance keeps them in a :class:`TraitBook`. The hooks are given the rules context (``Ctx``:
:class:`~game.rules.rift.context.RiftCtx`), never the ruleset:

- ``dice(weapon, traits)`` -> :class:`~game.rules.rift.stress.DiceTraits`: how the unit's dice roll;
- ``outgoing(ctx, attacker, target, weapon)`` / ``incoming(ctx, target, attacker)``: stress multipliers
  on the way out and in, each named; they read no position (the AI's what-if odds at any tiles,
  ``queries.odds``, ask them once per attack, wherever the units are supposed);
- ``on_hit(ctx, attacker, target, weapon, mode)``: what a hit does besides stress;
- ``after_explosion(ctx, attacker, impact)``: what an explosion does besides stress;
- ``immune``: statuses the unit cannot be given; ``ignores_cover``: its shots ignore cover;
- ``all_round_cover(ctx, unit)``: whether it has cover in all directions now;
- ``turn_start(ctx, unit)``: what it gains as its turn starts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, TypeVar

from game.hexgrid import Hex
from game.rules.rift.data import WeaponData
from game.rules.rift.stress import DiceTraits

__all__ = ["Factors", "TraitBook", "TraitDef"]

Ctx = TypeVar("Ctx")
Factors = list[tuple[str, Fraction]]


@dataclass(frozen=True, slots=True)
class TraitDef(Generic[Ctx]):
    id: str
    dice: Callable[[WeaponData, DiceTraits], DiceTraits] | None = None
    outgoing: Callable[[Ctx, int, int, WeaponData], Factors] | None = None
    incoming: Callable[[Ctx, int, int], Factors] | None = None
    on_hit: Callable[[Ctx, int, int, WeaponData, str], None] | None = None
    after_explosion: Callable[[Ctx, int, Hex], None] | None = None
    immune: frozenset[str] = field(default_factory=frozenset)
    ignores_cover: bool = False
    all_round_cover: Callable[[Ctx, int], bool] | None = None
    turn_start: Callable[[Ctx, int], None] | None = None


class TraitBook(Generic[Ctx]):
    """A ruleset instance's traits by id, in registration order."""

    def __init__(self) -> None:
        self._defs: dict[str, TraitDef[Ctx]] = {}

    def add(self, definition: TraitDef[Ctx]) -> TraitDef[Ctx]:
        if definition.id in self._defs:
            raise ValueError(f"trait '{definition.id}' is registered twice")
        self._defs[definition.id] = definition
        return definition

    def get(self, trait: str) -> TraitDef[Ctx] | None:
        return self._defs.get(trait)

    def __contains__(self, trait: object) -> bool:
        return trait in self._defs

    def __iter__(self) -> Iterator[TraitDef[Ctx]]:
        return iter(self._defs.values())

    def of(self, traits: Iterable[str]) -> Iterator[TraitDef[Ctx]]:
        """The definitions of ``traits`` (a unit's trait ids, in its order); unknown ids are skipped."""
        defs = self._defs
        for t in traits:
            d = defs.get(t)
            if d is not None:
                yield d
