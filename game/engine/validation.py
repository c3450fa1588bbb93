"""Total checking of a command's fields before any rule looks at it.

A :class:`~game.commands.Command` is a frozen dataclass, but Python does not check its field types: a
command built by a script, read from a save or sent by a buggy client can hold anything — a float, a
5,000-digit number, a list, a string of Unicode digits. :func:`field_problem` refuses every field of the
wrong type or out of range with a reason, so the rules downstream only ever see well-formed commands and
never raise on one. Choices are then matched exactly against what ``legal_actions`` offered (never
parsed with ``int()``), in the ruleset's ``validate``.
"""

from __future__ import annotations

from typing import Any

from game.commands import Command
from game.hexgrid import Hex

__all__ = ["MAX_COORD", "MAX_ID", "MAX_PATH", "MAX_TARGETS", "MAX_TEXT", "field_problem"]

MAX_ID = 2**31 - 1  # entity ids are small positive integers
MAX_COORD = 1 << 16  # maps are at most 1024 x 1024 cells
MAX_PATH = 4096
MAX_TARGETS = 64
MAX_TEXT = 200
MAX_NUMBER = 10**6
MAX_EXTRA = 16
MAX_BOARD = 8 * 1024 * 1024  # the board a gm_map command carries (game.engine.board), as JSON text


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: Any, name: str, limit: int = MAX_TEXT) -> str | None:
    if not isinstance(value, str):
        return f"'{name}' must be text, not {type(value).__name__}"
    if len(value) > limit:
        return f"'{name}' is {len(value)} characters long; at most {limit} are allowed"
    if not value.isprintable():
        return f"'{name}' holds control characters"
    return None


def _unit_id(value: Any, name: str) -> str | None:
    if not _is_int(value):
        return f"'{name}' must be a unit id (a whole number), not {type(value).__name__}"
    if not 0 <= value <= MAX_ID:
        return f"'{name}' is not a unit id (ids are 0 to {MAX_ID})"
    return None


def _hex(value: Any, name: str) -> str | None:
    if not isinstance(value, Hex):
        return f"'{name}' must be a hex, not {type(value).__name__}"
    if not (_is_int(value.q) and _is_int(value.r)):
        return f"'{name}' must have whole-number coordinates"
    if not (-MAX_COORD <= value.q <= MAX_COORD and -MAX_COORD <= value.r <= MAX_COORD):
        return f"'{name}' {value.q},{value.r} is far off any map"
    return None


def field_problem(cmd: Any) -> str | None:
    """Why ``cmd`` is not a well-formed command (a field of the wrong type or out of range), or None.

    Never raises, whatever the fields hold."""
    if not isinstance(cmd, Command):
        return f"not a command: {type(cmd).__name__}"
    reason = _text(cmd.action, "action", 64)
    if reason is not None:
        return reason
    if not cmd.action:
        return "the command names no action"
    checks = (
        _unit_id(cmd.actor, "actor"),
        _text(cmd.side, "side", 64),
        None if cmd.target is None else _unit_id(cmd.target, "target"),
        _text(cmd.option, "option"),
        None if cmd.hex is None else _hex(cmd.hex, "hex"),
    )
    for reason in checks:
        if reason is not None:
            return reason
    if not isinstance(cmd.targets, tuple):
        return f"'targets' must be a list of unit ids, not {type(cmd.targets).__name__}"
    if len(cmd.targets) > MAX_TARGETS:
        return f"'targets' names {len(cmd.targets)} units; at most {MAX_TARGETS} are allowed"
    for t in cmd.targets:
        reason = _unit_id(t, "targets")
        if reason is not None:
            return reason
    if not isinstance(cmd.path, tuple):
        return f"'path' must be a list of hexes, not {type(cmd.path).__name__}"
    if len(cmd.path) > MAX_PATH:
        return f"'path' has {len(cmd.path)} steps; at most {MAX_PATH} are allowed"
    for h in cmd.path:
        reason = _hex(h, "path")
        if reason is not None:
            return reason
    if cmd.number is not None and (not _is_int(cmd.number) or not -MAX_NUMBER <= cmd.number <= MAX_NUMBER):
        return f"'number' must be a whole number from {-MAX_NUMBER} to {MAX_NUMBER}"
    if not isinstance(cmd.extra, tuple) or len(cmd.extra) > MAX_EXTRA:
        return f"'extra' must be a list of at most {MAX_EXTRA} [key, value] pairs"
    for pair in cmd.extra:
        if not (isinstance(pair, tuple) and len(pair) == 2):
            return "'extra' entries must be [key, value] pairs"
        board = cmd.action == "gm_map" and pair[0] == "board"
        for part in pair:
            reason = _text(part, "extra", MAX_BOARD if board and part is pair[1] else 64)
            if reason is not None:
                return reason
    return None
