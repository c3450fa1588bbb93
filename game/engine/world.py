"""Per-match esper worlds that can be copied.

esper 3 keeps its worlds in module state and switches between them by name. A :class:`World` is one
match's named esper world: it switches to it on :meth:`enter`, copies it on :meth:`clone` (every component
copied, so a command applied to the copy never reaches the original) and deletes it when the world is
closed or garbage-collected, so thousands of short-lived copies (the AI's look-ahead) leave nothing behind.

Copying reaches into esper's context table (``esper._context_map``): esper 3 has no public "copy a world".
The layout of that table is pinned by ``tests/engine/test_world.py`` (esper >= 3.3, < 4 in pyproject).

Components are slotted dataclasses holding plain values: numbers, strings, ``Hex``, ``Fraction``, tuples
and frozen dataclasses (shared, never changed in place) and lists, sets, dicts and mutable dataclasses
(copied, recursively). :func:`copy_value` is that copy; :func:`freeze` turns the same values into
hashable tuples for cheap state keys. A field declared with ``metadata={"hidden": "order"}`` (the undrawn
cards) is frozen as a sorted multiset: its order is hidden from every player.
"""

from __future__ import annotations

import dataclasses
import itertools
import weakref
from collections.abc import Callable, Iterator
from enum import Enum
from fractions import Fraction
from typing import Any, TypeVar, cast

import esper

from game.hexgrid import Hex

__all__ = ["World", "copy_value", "freeze", "set_aside"]

T = TypeVar("T")

_numbers = itertools.count(1)
_doomed: list[str] = []  # worlds collected while current: deleted at the next switch

_IMMUTABLE: set[type] = {int, str, bool, float, type(None), Fraction, Hex, bytes}
_COPIERS: dict[type, Callable[[Any], Any]] = {}
_FREEZERS: dict[type, Callable[[Any], Any]] = {}


def _copy_list(value: list[Any]) -> list[Any]:
    imm = _IMMUTABLE
    if all(v.__class__ in imm for v in value):
        return value.copy()
    return [v if v.__class__ in imm else copy_value(v) for v in value]


def _copy_dict(value: dict[Any, Any]) -> dict[Any, Any]:
    imm = _IMMUTABLE
    return {k: (v if v.__class__ in imm else copy_value(v)) for k, v in value.items()}


def _dataclass_copier(cls: type) -> Callable[[Any], Any]:
    params = getattr(cls, "__dataclass_params__", None)
    if params is not None and params.frozen:
        return _identity
    names = [f.name for f in dataclasses.fields(cls)]
    imm = _IMMUTABLE
    new = object.__new__
    # Generated once per class: one attribute read and write per field, a copy only for mutable values.
    lines = ["def copier(o):", "    n = new(cls)"]
    for name in names:
        lines.append(f"    v = o.{name}")
        lines.append(f"    n.{name} = v if v.__class__ in imm else copy_value(v)")
    lines.append("    return n")
    scope: dict[str, Any] = {"new": new, "cls": cls, "imm": imm, "copy_value": copy_value}
    exec("\n".join(lines), scope)
    copier: Callable[[Any], Any] = scope["copier"]
    return copier


def _identity(value: T) -> T:
    return value


def copy_value(value: T) -> T:
    """An independent copy of component data (immutable parts shared, mutable parts copied)."""
    cls: type = value.__class__
    copier: Callable[[Any], Any] | None = _COPIERS.get(cls)
    if copier is None:
        if cls in _IMMUTABLE or issubclass(cls, Enum):
            copier = _identity
        elif cls is list:
            copier = _copy_list
        elif cls is dict:
            copier = _copy_dict
        elif cls is set:
            copier = set.copy
        elif cls is tuple or cls is frozenset:
            copier = _identity
        elif dataclasses.is_dataclass(cls):
            copier = _dataclass_copier(cls)
        else:
            raise TypeError(f"component data of type {cls.__name__} cannot be copied with its match")
        _COPIERS[cls] = copier
    return cast("T", _COPIERS[cls](value))


def set_aside(entity: int) -> Callable[[], None]:
    """Copy every component of ``entity`` (of the current world) aside; the function returned puts each
    back to its values then, in place (a ruleset's ``suppose``: an action's effect on its actor alone put
    in place by hand, then undone)."""
    owned: tuple[Any, ...] = esper.components_for_entity(entity)
    kept = [(c, copy_value(c)) for c in owned]

    def put_back() -> None:
        for component, before in kept:
            for f in dataclasses.fields(component):
                setattr(component, f.name, getattr(before, f.name))

    return put_back


def _freeze_dataclass(cls: type) -> Callable[[Any], Any]:
    parts = []
    for f in dataclasses.fields(cls):
        n = f.name
        if f.metadata.get("hidden") == "order":  # only the multiset is public: its order must not show
            parts.append(f"tuple(sorted(freeze(o.{n}), key=repr))")
        else:
            parts.append(f"(o.{n} if o.{n}.__class__ in imm else freeze(o.{n}))")
    imm = _IMMUTABLE
    body = ", ".join(parts)
    scope: dict[str, Any] = {"imm": imm, "freeze": freeze, "name": cls.__name__}
    exec(f"def freezer(o):\n    return (name, {body})", scope)
    freezer: Callable[[Any], Any] = scope["freezer"]
    return freezer


def freeze(value: Any) -> Any:
    """A hashable form of component data, equal exactly when the data is equal."""
    cls: type = value.__class__
    if cls in _IMMUTABLE:
        return value
    freezer: Callable[[Any], Any] | None = _FREEZERS.get(cls)
    if freezer is None:
        if cls is list or cls is tuple:
            freezer = _freeze_sequence
        elif cls is set or cls is frozenset:
            freezer = _freeze_set
        elif cls is dict:
            freezer = _freeze_dict
        elif issubclass(cls, Enum):
            freezer = _identity
        elif dataclasses.is_dataclass(cls):
            freezer = _freeze_dataclass(cls)
        else:
            raise TypeError(f"component data of type {cls.__name__} cannot be part of a state key")
        _FREEZERS[cls] = freezer
    return freezer(value)


def _freeze_sequence(value: list[Any] | tuple[Any, ...]) -> tuple[Any, ...]:
    imm = _IMMUTABLE
    return tuple(v if v.__class__ in imm else freeze(v) for v in value)


def _freeze_set(value: set[Any] | frozenset[Any]) -> frozenset[Any]:
    return frozenset(freeze(v) for v in value)


def _freeze_dict(value: dict[Any, Any]) -> tuple[Any, ...]:
    return tuple(sorted(((freeze(k), freeze(v)) for k, v in value.items()), key=repr))


_HIDDEN: dict[type, tuple[str, ...]] = {}


def _hidden_fields(cls: type) -> tuple[str, ...]:
    names = _HIDDEN.get(cls)
    if names is None:
        fields = dataclasses.fields(cls) if dataclasses.is_dataclass(cls) else ()
        names = tuple(f.name for f in fields if f.metadata.get("hidden"))
        _HIDDEN[cls] = names
    return names


_WITH_HIDDEN: dict[frozenset[type], tuple[tuple[type, tuple[str, ...]], ...]] = {}


def _with_hidden(owners: dict[type[Any], set[int]]) -> tuple[tuple[type, tuple[str, ...]], ...]:
    """The component types among ``owners`` with fields marked hidden, with those fields, in a fixed
    order (module, then name): worked out once per set of types a world holds."""
    kinds = frozenset(owners)
    found = _WITH_HIDDEN.get(kinds)
    if found is None:
        ordered = sorted(kinds, key=lambda c: (c.__module__, c.__qualname__))
        found = tuple((c, names) for c in ordered if (names := _hidden_fields(c)))
        if len(_WITH_HIDDEN) >= 256:
            _WITH_HIDDEN.clear()
        _WITH_HIDDEN[kinds] = found
    return found


def _drop(name: str) -> None:
    """Delete a world that is no longer used (called when its owner is collected or closed)."""
    if esper.current_world == name:
        _doomed.append(name)
        return
    if name in esper._context_map:
        esper.delete_world(name)


class World:
    """One match's esper world. Every method that reads or writes components calls :meth:`enter` first."""

    __slots__ = ("__weakref__", "_finalizer", "name", "next_entity")

    def __init__(self) -> None:
        self.name = f"hexslinger-match-{next(_numbers)}"
        self.next_entity = 1
        esper.switch_world(self.name)
        self._finalizer = weakref.finalize(self, _drop, self.name)

    def enter(self) -> None:
        """Make this the current esper world."""
        if esper.current_world != self.name:
            esper.switch_world(self.name)
            while _doomed:
                doomed = _doomed.pop()
                if doomed != self.name and doomed in esper._context_map:
                    esper.delete_world(doomed)

    def close(self) -> None:
        """Delete the world now (its entities are gone; the object must not be used again)."""
        if esper.current_world == self.name:
            esper.switch_world("default")
        self._finalizer()

    def create_entity(self, *components: Any) -> int:
        self.enter()
        entity = esper.create_entity(*components)
        self.next_entity = entity + 1
        return entity

    def clone(self) -> World:
        """A new world with a copy of every entity and component (same entity ids)."""
        self.enter()
        esper.clear_dead_entities()
        entities: dict[int, dict[type[Any], Any]] = esper._entities
        components: dict[type[Any], set[int]] = esper._components
        copy = copy_value
        new_entities = {e: {t: copy(c) for t, c in comps.items()} for e, comps in entities.items()}
        new_components = {t: set(ids) for t, ids in components.items()}
        other = World.__new__(World)
        other.name = f"hexslinger-match-{next(_numbers)}"
        other.next_entity = self.next_entity
        esper._context_map[other.name] = (
            itertools.count(start=self.next_entity),
            new_components,
            new_entities,
            set(),
            {},
            {},
            [],
            {},
            False,
            {},
            {},
        )
        other._finalizer = weakref.finalize(other, _drop, other.name)
        return other

    def hidden(self) -> tuple[Any, ...]:
        """The values of every field marked ``metadata={"hidden": ...}``, in a fixed order: what no
        player may know (the order of undrawn cards). A command that changes them reveals something."""
        self.enter()
        entities: dict[int, dict[type[Any], Any]] = esper._entities
        owners: dict[type[Any], set[int]] = esper._components
        out: list[Any] = []
        # by component type (esper's index), then entity: only the few types with hidden fields are
        # visited, not every component of every entity (this runs twice per command)
        for cls, names in _with_hidden(owners):
            for e in sorted(owners[cls]):
                component = entities[e][cls]
                out.extend(freeze(getattr(component, n)) for n in names)
        return tuple(out)

    def components(self) -> Iterator[tuple[int, tuple[Any, ...]]]:
        """Every (entity, components) pair, entities in id order."""
        self.enter()
        entities: dict[int, dict[type[Any], Any]] = esper._entities
        for e in sorted(entities):
            yield e, tuple(entities[e].values())
