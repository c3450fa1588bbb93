"""``dataclasses.replace`` for the utility AI's value classes, about twice as fast.

The AI makes a changed copy of a plan thousands of times a game (the turn's spare action points, the
risks found later). The standard ``replace`` looks every field up again and goes through the generated
``__init__``; for a dataclass whose ``__init__`` only stores its fields (every field an init field, no
``__post_init__``) the copy is made by storing the fields directly, with a copier generated once per
class. Any other class, or a change naming
no field of the class, goes to ``dataclasses.replace`` (the same result, the same error).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar, cast

__all__ = ["replace"]

T = TypeVar("T")

_SIMPLE: dict[type, tuple[Callable[[Any, dict[str, Any]], Any], frozenset[str]] | None] = {}


def _simple_copier(cls: type) -> tuple[Callable[[Any, dict[str, Any]], Any], frozenset[str]] | None:
    """A copier for ``cls`` and its field names if its ``__init__`` only stores them, else None (kept per
    class). The copier is generated for the class: each field stored through its slot (or by
    ``object.__setattr__``), from the changes or the original."""
    if cls in _SIMPLE:
        return _SIMPLE[cls]
    found: tuple[Callable[[Any, dict[str, Any]], Any], frozenset[str]] | None = None
    params = getattr(cls, "__dataclass_params__", None)
    generated = params is not None and params.init  # the dataclass's own __init__, not a hand-written one
    if dataclasses.is_dataclass(cls) and generated and not hasattr(cls, "__post_init__"):
        every = dataclasses.fields(cls)
        hidden = getattr(cls, "__dataclass_fields__", {})
        if all(f.init for f in every) and len(hidden) == len(every):  # no InitVar, no ClassVar
            names = tuple(f.name for f in every)
            found = (_copier(cls, names), frozenset(names))
    _SIMPLE[cls] = found
    return found


def _copier(cls: type, names: tuple[str, ...]) -> Callable[[Any, dict[str, Any]], Any]:
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls, "store": object.__setattr__}
    lines = ["def copier(obj, changes):", "    made = new(cls)"]
    for i, name in enumerate(names):
        slot = cls.__dict__.get(name)
        value = f"changes[{name!r}] if {name!r} in changes else obj.{name}"
        if slot is not None and type(slot).__name__ == "member_descriptor":  # a slot: its own setter
            scope[f"set{i}"] = slot.__set__
            lines.append(f"    set{i}(made, {value})")
        else:
            lines.append(f"    store(made, {name!r}, {value})")
    lines.append("    return made")
    exec("\n".join(lines), scope)
    copier: Callable[[Any, dict[str, Any]], Any] = scope["copier"]
    return copier


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the dataclass instance ``obj`` with ``changes`` (as ``dataclasses.replace``)."""
    simple = _simple_copier(type(obj))
    if simple is None or not simple[1].issuperset(changes):
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    return cast("T", simple[0](obj, changes))
