"""Rules as data: a ruleset's TOML tables loaded into its frozen dataclasses, driven by their fields.

A ruleset describes each table once, as a dataclass; :func:`load` reads a TOML table into it strictly:

- every key must be a field (an unknown key is an error naming the known ones), every field without a
  default must be there, and every value must have the field's type (``int``, ``float``, ``str``,
  ``bool``, ``tuple[str, ...]``, ``X | None``; a nested dataclass is a sub-table);
- a field's ``metadata`` adds what the type cannot say: ``range=(low, high)`` for numbers,
  ``choices=(...)`` for text, ``key="..."`` when the TOML key differs from the field's name,
  ``required=True`` for a key the table must have although the field has a (placeholder) default, and
  ``id=True`` for the field that takes the table's own name (``[weapons.rifle]`` -> ``id = "rifle"``),
  ``default_from="other"`` for a key that, when left out, takes another field's value;
- every problem is the ruleset's own error class, naming the table and key (``[units.sheriff]: 'cool' is
  9, must be from 1 to 7``), so a GM editing a data file is told exactly what to fix.

What a table cannot check alone (a unit naming a weapon that does not exist) stays in the ruleset's
loader, after this.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar, Union

__all__ = ["describe", "load", "load_tables"]

T = TypeVar("T")

_KINDS = {int: "a whole number", float: "a number", str: "text", bool: "true or false"}


def _hints(cls: type) -> dict[str, Any]:
    hints: dict[str, Any] = typing.get_type_hints(cls)
    return hints


def describe(kind: Any) -> str:
    """A type in a GM's words ("a whole number", "a list of names")."""
    origin = typing.get_origin(kind)
    if origin in (Union, types.UnionType):
        parts = [a for a in typing.get_args(kind) if a is not type(None)]
        return describe(parts[0]) if len(parts) == 1 else " or ".join(describe(a) for a in parts)
    if origin is tuple:
        return "a list of names" if typing.get_args(kind)[0] is str else "a list"
    if dataclasses.is_dataclass(kind):
        return "a table"
    return _KINDS.get(kind, getattr(kind, "__name__", str(kind)))


def _check(  # noqa: PLR0917 - the recursion passes everything along
    where: str, key: str, value: Any, kind: Any, meta: Mapping[str, Any], error: type[ValueError]
) -> Any:
    origin = typing.get_origin(kind)
    if origin in (Union, types.UnionType):
        args = typing.get_args(kind)
        if value is None and type(None) in args:
            return None
        real = [a for a in args if a is not type(None)]
        if len(real) == 1:  # "X | None": the value must be an X, with X's message
            return _check(where, key, value, real[0], meta, error)
        for arg in real:
            try:
                return _check(where, key, value, arg, meta, error)
            except error:
                continue
        raise error(f"{where}: '{key}' must be {describe(kind)}, not {value!r}")
    if origin is tuple:
        (item, *_rest) = typing.get_args(kind)
        if not isinstance(value, list):
            raise error(f"{where}: '{key}' must be {describe(kind)}, not {value!r}")
        return tuple(_check(where, key, v, item, meta, error) for v in value)
    if dataclasses.is_dataclass(kind):
        return load(kind, f"{where[:-1]}.{key}]", value, error=error)  # type: ignore[arg-type]
    ok = (
        (kind is int and isinstance(value, int) and not isinstance(value, bool))
        or (kind is float and isinstance(value, int | float) and not isinstance(value, bool))
        or (kind is str and isinstance(value, str) and bool(value.strip()))
        or (kind is bool and isinstance(value, bool))
    )
    if not ok:
        raise error(f"{where}: '{key}' must be {describe(kind)}, not {value!r}")
    low_high = meta.get("range")
    if low_high is not None:
        low, high = low_high
        if not low <= value <= high:
            raise error(f"{where}: '{key}' is {value}, must be from {low} to {high}")
    choices = meta.get("choices")
    if choices is not None and value not in choices:
        raise error(f"{where}: '{key}' is '{value}', must be one of {', '.join(choices)}")
    return float(value) if kind is float else value


def load(cls: type[T], where: str, table: Any, *, error: type[ValueError], name: str = "") -> T:
    """The dataclass ``cls`` read from one TOML ``table`` (``where`` names it in messages: "[units.dog]";
    ``name`` fills the field marked ``id``)."""
    if not isinstance(table, dict):
        raise error(f"{where} must be a table")
    assert dataclasses.is_dataclass(cls)
    hints = _hints(cls)
    fields = [f for f in dataclasses.fields(cls) if f.init]
    by_key = {f.metadata.get("key", f.name): f for f in fields if not f.metadata.get("id")}
    for key in table:
        if key not in by_key:
            raise error(f"{where}: unknown key '{key}' (known keys: {', '.join(sorted(by_key))})")
    values: dict[str, Any] = {}
    for f in fields:
        if f.metadata.get("id"):
            values[f.name] = name
            continue
        key = f.metadata.get("key", f.name)
        if key not in table:
            if "default_from" in f.metadata:  # e.g. a long range that is the short one when not given
                values[f.name] = values[f.metadata["default_from"]]
                continue
            has_default = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
            if f.metadata.get("required") or not has_default:
                raise error(f"{where}: missing key '{key}'")
            continue
        values[f.name] = _check(where, key, table[key], hints[f.name], f.metadata, error)
    return cls(**values)


def load_tables(
    cls: type[T], doc: Mapping[str, Any], name: str, *, error: type[ValueError], required: bool = True
) -> dict[str, T]:
    """Every sub-table of ``[name]`` (``[weapons.rifle]``, ...) as ``cls``, by its name, in file order."""
    found = doc.get(name)
    if found is None and not required:
        return {}
    if not isinstance(found, dict) or (required and not found):
        raise error(f"[{name}] is missing or empty")
    return {key: load(cls, f"[{name}.{key}]", raw, error=error, name=key) for key, raw in found.items()}
