"""Strict checks for a ruleset's TOML data: unknown keys, missing keys and wrong types are errors.

Each ruleset binds its own error class (``functools.partial(check_table, error=FrontierDataError)``), so a
GM editing a data file gets a message naming the ruleset's table and key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["BOOL", "INT", "STR", "STRS", "check_table", "in_range", "tables"]

INT = "a whole number"
STR = "text"
BOOL = "true or false"
STRS = "a list of names"


def _is(kind: str, value: Any) -> bool:
    if kind == INT:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == STR:
        return isinstance(value, str) and bool(value.strip())
    if kind == BOOL:
        return isinstance(value, bool)
    if kind == STRS:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    raise ValueError(f"unknown kind {kind!r}")


def check_table(
    where: str, table: Any, spec: Mapping[str, tuple[str, bool]], *, error: type[ValueError]
) -> dict[str, Any]:
    """Check ``table`` against ``spec`` (key -> (kind, required)) and return it."""
    if not isinstance(table, dict):
        raise error(f"{where} must be a table")
    for key in table:
        if key not in spec:
            known = ", ".join(sorted(spec))
            raise error(f"{where}: unknown key '{key}' (known keys: {known})")
    for key, (kind, required) in spec.items():
        if key not in table:
            if required:
                raise error(f"{where}: missing key '{key}'")
            continue
        if not _is(kind, table[key]):
            raise error(f"{where}: '{key}' must be {kind}, not {table[key]!r}")
    return table


def in_range(where: str, key: str, value: int, low: int, high: int, *, error: type[ValueError]) -> int:
    if not low <= value <= high:
        raise error(f"{where}: '{key}' is {value}, must be from {low} to {high}")
    return value


def tables(doc: dict[str, Any], name: str, *, error: type[ValueError]) -> dict[str, Any]:
    found = doc.get(name)
    if not isinstance(found, dict) or not found:
        raise error(f"[{name}] is missing or empty")
    return found
