"""``dataclasses.replace`` for the utility AI's value classes, about twice as fast.

The AI makes a changed copy of a plan thousands of times a game (the turn's spare action points, the
risks found later). The standard ``replace`` looks every field up again and goes through the generated
``__init__``; for a dataclass whose ``__init__`` only stores its fields (every field an init field, no
``__post_init__``) the copy is made by storing the fields directly. Any other class, or a change naming
no field of the class, goes to ``dataclasses.replace`` (the same result, the same error).
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

__all__ = ["replace"]

T = TypeVar("T")

_SIMPLE: dict[type, tuple[tuple[str, ...], frozenset[str]] | None] = {}


def _simple_fields(cls: type) -> tuple[tuple[str, ...], frozenset[str]] | None:
    """The field names of ``cls`` if its ``__init__`` only stores them, else None (kept per class)."""
    if cls in _SIMPLE:
        return _SIMPLE[cls]
    found: tuple[tuple[str, ...], frozenset[str]] | None = None
    params = getattr(cls, "__dataclass_params__", None)
    generated = params is not None and params.init  # the dataclass's own __init__, not a hand-written one
    if dataclasses.is_dataclass(cls) and generated and not hasattr(cls, "__post_init__"):
        every = dataclasses.fields(cls)
        hidden = getattr(cls, "__dataclass_fields__", {})
        if all(f.init for f in every) and len(hidden) == len(every):  # no InitVar, no ClassVar
            names = tuple(f.name for f in every)
            found = (names, frozenset(names))
    _SIMPLE[cls] = found
    return found


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the dataclass instance ``obj`` with ``changes`` (as ``dataclasses.replace``)."""
    cls = type(obj)
    simple = _simple_fields(cls)
    if simple is None or not simple[1].issuperset(changes):
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    new = object.__new__(cls)
    store = object.__setattr__
    for name in simple[0]:
        store(new, name, changes[name] if name in changes else getattr(obj, name))
    return new
