"""The game master's edits (issue 15, "Sandbox"): one command family for every ruleset.

A GM edit is a :class:`~game.commands.Command` like any other: it goes through ``Match.validate`` (every
field checked, a bad one refused with a reason, nothing changed) and ``Match.apply``, it is logged, saved,
replayed and covered by the digest. It draws nothing from the RNG and reveals nothing hidden, so it may
be undone. Every edit leaves a :class:`~game.events.GmEdit` event, which the combat log marks as a GM
edit.

The engine does what is the same for every ruleset — units placed, moved and taken off the map, doors,
a hex's cover — and asks the ruleset's small :class:`GmRules` hook (``ruleset.gm``) for what is its own:
the fields of a unit it lets a GM set (health, AP, ammo, statuses), whether a hex holds several units,
whose turn it may become and how, how a unit out of the fight comes back, and whether the encounter has
ended after an edit. A ruleset without the hook gets the engine's edits only.

The commands and the fields each reads (every other field must be left at its default):

=============  ====================================================================================
``gm_place``   ``actor`` a unit, ``hex`` where: moves a unit on the map, or puts one that is off it back
``gm_remove``  ``actor``: takes a unit off the map (out of play, "removed by the GM")
``gm_set``     ``actor``, ``option`` a field the ruleset names, ``number`` its new value (in its range)
``gm_door``    ``hex`` a door, ``number`` 1 open / 0 closed
``gm_cover``   ``hex``, ``number`` the cover it gives: 0 none, 1 half, 2 full
``gm_turn``    ``actor``: this unit's turn now
``gm_map``     ``extra`` ``(("board", text),)``: the map reloaded from disk, the new board whole as
               :func:`game.engine.board.board_json` wrote it (units whose hexes no longer do are moved
               to the nearest free hex they can stand on, or set aside: :func:`game.engine.board.carry`)
=============  ====================================================================================
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import esper

from game.battlefield import Battlefield, Cover
from game.commands import Command
from game.components import Identity, Position, Removed
from game.engine.board import BoardError, board_from_json, board_json, board_sha, carry
from game.engine.turns import Encounter
from game.events import Event, GmEdit
from game.hexgrid import Hex

if TYPE_CHECKING:
    from game.engine.match import Match

__all__ = [
    "GM_ACTIONS",
    "GM_COVER",
    "GM_DOOR",
    "GM_MAP",
    "GM_PLACE",
    "GM_REMOVE",
    "GM_REMOVED",
    "GM_SET",
    "GM_TURN",
    "GmField",
    "GmRules",
    "apply_edit",
    "edit_problem",
    "gm_fields",
    "is_gm",
]

GM_PLACE, GM_REMOVE, GM_SET, GM_DOOR, GM_COVER, GM_TURN = (
    "gm_place",
    "gm_remove",
    "gm_set",
    "gm_door",
    "gm_cover",
    "gm_turn",
)
GM_MAP = "gm_map"
GM_ACTIONS = (GM_PLACE, GM_REMOVE, GM_SET, GM_DOOR, GM_COVER, GM_TURN, GM_MAP)
GM_REMOVED = "removed by the GM"  # the Removed reason of a unit the GM took off the map

# the fields each edit reads; every other field of the command must be at its default
_READS: dict[str, frozenset[str]] = {
    GM_PLACE: frozenset({"actor", "hex"}),
    GM_REMOVE: frozenset({"actor"}),
    GM_SET: frozenset({"actor", "option", "number"}),
    GM_DOOR: frozenset({"hex", "number"}),
    GM_COVER: frozenset({"hex", "number"}),
    GM_TURN: frozenset({"actor"}),
    GM_MAP: frozenset({"extra"}),
}
_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Command) if f.name != "action"}
_COVER_WORDS = {0: "no cover", 1: "half cover", 2: "full cover"}


@dataclass(frozen=True, slots=True)
class GmField:
    """A value of a unit a GM may set: ``key`` (what ``gm_set`` names in ``option``), a ``label`` in a
    player's words ("Wounds", "Prone"), its ``value`` now and its range; ``flag``: a yes/no (0 or 1)."""

    key: str
    label: str
    value: int
    low: int
    high: int
    flag: bool = False


class GmRules(Protocol):
    """What a ruleset adds to the engine's GM edits (``ruleset.gm``); each method is handed a match whose
    world is entered."""

    stacking: bool  # whether a hex may hold several units

    def busy(self, match: Match) -> str | None:
        """Why no edit may be made now (a reaction waiting for its decision), or None."""
        ...

    def fields(self, match: Match, unit: int) -> list[GmField]:
        """The values of ``unit`` a GM may set, in the order the panel shows them."""
        ...

    def set_field(self, match: Match, unit: int, key: str, value: int) -> list[Event]:
        """Set a value ``fields`` offered (the engine has checked the key and the range)."""
        ...

    def revive_problem(self, match: Match, unit: int) -> str | None:
        """Why ``unit`` (out of the fight by the rules) cannot be put back on the map, or None."""
        ...

    def revive(self, match: Match, unit: int) -> None:
        """Make ``unit`` fit to fight again as it is put back on the map."""
        ...

    def turn_problem(self, match: Match, unit: int) -> str | None:
        """Why it cannot become ``unit``'s turn now, or None."""
        ...

    def give_turn(self, match: Match, unit: int) -> list[Event]:
        """Make it ``unit``'s turn (the events it starts)."""
        ...

    def settle(self, match: Match) -> list[Event]:
        """After an edit: end the encounter if a side has no unit left in the fight (its events)."""
        ...


def is_gm(cmd: Command) -> bool:
    return cmd.action in _READS


def _hooks(match: Match) -> GmRules | None:
    hooks: GmRules | None = getattr(match.ruleset, "gm", None)
    return hooks


def _encounter(match: Match) -> Encounter | None:
    """The encounter state (a ruleset keeps a subclass of it on the game entity)."""
    for entity in match.entities():
        components: tuple[object, ...] = esper.components_for_entity(entity)
        for comp in components:
            if isinstance(comp, Encounter):
                return comp
    return None


def _is_unit(unit: int) -> bool:
    return esper.entity_exists(unit) and esper.has_component(unit, Identity)


def _name(unit: int) -> str:
    return esper.component_for_entity(unit, Identity).name


def gm_fields(match: Match, unit: int) -> list[GmField]:
    """The values of ``unit`` the ruleset lets a GM set (empty: none, or no such unit)."""
    match.enter()
    hooks = _hooks(match)
    if hooks is None or not _is_unit(unit):
        return []
    return hooks.fields(match, unit)


def edit_problem(match: Match, cmd: Command) -> str | None:
    """Why the GM edit ``cmd`` may not be made now (a player's words: what, and how to fix it), or None.
    Pure: reads the match, changes nothing. The command's fields are already well-formed
    (``game.engine.validation``)."""
    match.enter()
    reads = _READS[cmd.action]
    for name, default in _DEFAULTS.items():
        if name not in reads and getattr(cmd, name) != default:
            fields = ", ".join(sorted(reads))
            return f"{cmd.action} reads only {fields}; leave '{name}' out"
    hooks = _hooks(match)
    if hooks is not None:
        busy = hooks.busy(match)
        if busy is not None:
            return busy
    if "actor" in reads and not _is_unit(cmd.actor):
        return f"there is no unit {cmd.actor} in this battle: name a unit by its id"
    if "hex" in reads:
        if cmd.hex is None:
            return f"{cmd.action} needs a hex"
        if not match.battlefield.in_bounds(cmd.hex):
            return f"{cmd.hex.q},{cmd.hex.r} is off the map"
    check: Callable[[Match, Command, GmRules | None], str | None] = _CHECKS[cmd.action]
    return check(match, cmd, hooks)


def _place_problem(match: Match, cmd: Command, hooks: GmRules | None) -> str | None:
    assert cmd.hex is not None
    bf = match.battlefield
    name = _name(cmd.actor)
    if not bf.is_passable(cmd.hex):
        return f"{cmd.hex.q},{cmd.hex.r} is {bf.terrain_at(cmd.hex).name}, which no unit can stand on"
    here = match.position(cmd.actor)
    removed = esper.try_component(cmd.actor, Removed)
    if here == cmd.hex and removed is None:
        return f"{name} already stands on {cmd.hex.q},{cmd.hex.r}"
    stacking = hooks.stacking if hooks is not None else False
    other = match.occupied().get(cmd.hex)
    if not stacking and other is not None and other != cmd.actor:
        return f"{_name(other)} stands on {cmd.hex.q},{cmd.hex.r}: one unit to a hex in this ruleset"
    if removed is not None and removed.reason != GM_REMOVED:
        if hooks is None:
            return f"{name} is out of the fight ({removed.reason}) and this ruleset cannot bring units back"
        return hooks.revive_problem(match, cmd.actor)
    return None


def _active(match: Match) -> int:
    enc = _encounter(match)
    return enc.active if enc is not None else 0


def _remove_problem(match: Match, cmd: Command, hooks: GmRules | None) -> str | None:
    name = _name(cmd.actor)
    if esper.has_component(cmd.actor, Removed) or match.position(cmd.actor) is None:
        return f"{name} is not on the map"
    if _active(match) == cmd.actor:
        return f"{name} is acting now: give the turn to another unit first"
    return None


def _set_problem(match: Match, cmd: Command, hooks: GmRules | None) -> str | None:
    name = _name(cmd.actor)
    if hooks is None:
        return f"{match.ruleset_title} names no values a GM may set"
    fields = {f.key: f for f in hooks.fields(match, cmd.actor)}
    found = fields.get(cmd.option)
    if found is None:
        known = ", ".join(fields) or "none"
        return f"{name} has no value '{cmd.option}' a GM may set (its values: {known})"
    if cmd.number is None or not found.low <= cmd.number <= found.high:
        return f"{name}'s {found.label} must be from {found.low} to {found.high}, not {cmd.number}"
    if cmd.number == found.value:
        return f"{name}'s {found.label} is {_shown(found)} already"
    return None


def _door_problem(match: Match, cmd: Command, hooks: GmRules | None) -> str | None:
    assert cmd.hex is not None
    door = match.battlefield.door_at(cmd.hex)
    if door is None:
        return f"there is no door at {cmd.hex.q},{cmd.hex.r}"
    if cmd.number not in (0, 1):
        return "a door is opened with number 1 and closed with number 0"
    if door.is_open == bool(cmd.number):
        return f"the door at {cmd.hex.q},{cmd.hex.r} is {'open' if door.is_open else 'closed'} already"
    if not cmd.number and cmd.hex in match.occupied():
        return f"a unit stands in the doorway at {cmd.hex.q},{cmd.hex.r}: move it before closing the door"
    return None


def _cover_problem(match: Match, cmd: Command, hooks: GmRules | None) -> str | None:
    assert cmd.hex is not None
    bf = match.battlefield
    if cmd.number not in _COVER_WORDS:
        return "cover is 0 (none), 1 (half) or 2 (full)"
    terrain = bf.terrain_at(cmd.hex)
    if terrain.impassable or bf.door_at(cmd.hex) is not None:
        return f"{cmd.hex.q},{cmd.hex.r} is {terrain.name}: only open ground or cover can be changed"
    if int(terrain.cover) == cmd.number:
        return f"{cmd.hex.q},{cmd.hex.r} gives {_COVER_WORDS[cmd.number]} already"
    return None


def _turn_problem(match: Match, cmd: Command, hooks: GmRules | None) -> str | None:
    name = _name(cmd.actor)
    if hooks is None:
        return f"{match.ruleset_title} cannot change whose turn it is"
    if esper.has_component(cmd.actor, Removed) or match.position(cmd.actor) is None:
        return f"{name} is not on the map"
    if _active(match) == cmd.actor:
        return f"it is {name}'s turn already"
    return hooks.turn_problem(match, cmd.actor)


def board_of(cmd: Command) -> tuple[Battlefield, str]:
    """The board a ``gm_map`` command carries and its name (:func:`game.engine.board.board_sha`);
    BoardError when it carries none or a malformed one."""
    if len(cmd.extra) != 1 or cmd.extra[0][0] != "board":
        raise BoardError('gm_map carries the board as its one extra pair, ("board", text)')
    text = cmd.extra[0][1]
    return board_from_json(text), board_sha(text)


def _map_problem(match: Match, cmd: Command, hooks: GmRules | None) -> str | None:
    try:
        board, sha = board_of(cmd)
    except BoardError as error:
        return str(error)
    if sha == (match.board_sha or _first_sha(match)):
        return "the battle is on this board already"
    stacking = hooks.stacking if hooks is not None else False
    placed = carry(_standing(match), _carried_board(match, board), stacking=stacking)
    active = _active(match)
    if active in placed.aside:
        return f"the new map has no free hex for {_name(active)}, who is acting now: give it room in Tiled"
    return None


def _first_sha(match: Match) -> str:
    return board_sha(board_json(match.first_board))


def _standing(match: Match) -> dict[int, Hex]:
    """The units in play on the map, where they stand (in the match's unit order)."""
    found = {}
    for unit in match.units():
        where = match.position(unit)
        if where is not None:
            found[unit] = where
    return found


def _carried_board(match: Match, board: Battlefield) -> Battlefield:
    """``board`` as the battle will have it: the encounter's deploy areas, and the doors it shares with
    the board now open or closed as they are now."""
    from game.engine.match import with_encounter_zones  # noqa: PLC0415 - match imports this module

    board = with_encounter_zones(board, match.scenario)
    for h, door in match.battlefield.doors.items():
        new = board.door_at(h)
        if new is not None and new.is_open != door.is_open:
            board.set_door(h, door.is_open)
    return board


_CHECKS: dict[str, Callable[[Match, Command, GmRules | None], str | None]] = {
    GM_PLACE: _place_problem,
    GM_REMOVE: _remove_problem,
    GM_SET: _set_problem,
    GM_DOOR: _door_problem,
    GM_COVER: _cover_problem,
    GM_TURN: _turn_problem,
    GM_MAP: _map_problem,
}


def apply_edit(match: Match, cmd: Command) -> list[Event]:
    """Carry out a GM edit that :func:`edit_problem` accepted; its events, a :class:`GmEdit` first."""
    match.enter()
    hooks = _hooks(match)
    enc = _encounter(match)
    rnd = enc.round if enc is not None else 0
    events: list[Event] = []
    if cmd.action == GM_PLACE:
        assert cmd.hex is not None
        removed = esper.try_component(cmd.actor, Removed)
        was = match.position(cmd.actor)
        if removed is not None:
            esper.remove_component(cmd.actor, Removed)
            if removed.reason != GM_REMOVED and hooks is not None:
                hooks.revive(match, cmd.actor)
        esper.component_for_entity(cmd.actor, Position).hex = cmd.hex
        verb = "moved to" if removed is None and was is not None else "placed on"
        events.append(GmEdit(rnd, cmd.actor, f"{verb} {cmd.hex.q},{cmd.hex.r}", cmd.hex))
    elif cmd.action == GM_REMOVE:
        esper.add_component(cmd.actor, Removed(GM_REMOVED))
        was = match.position(cmd.actor)
        esper.component_for_entity(cmd.actor, Position).hex = None
        events.append(GmEdit(rnd, cmd.actor, "taken off the map", was))
    elif cmd.action == GM_SET:
        assert hooks is not None and cmd.number is not None
        field = next(f for f in hooks.fields(match, cmd.actor) if f.key == cmd.option)
        value = ("yes" if cmd.number else "no") if field.flag else str(cmd.number)
        events.append(GmEdit(rnd, cmd.actor, f"{field.label} set to {value} (was {_shown(field)})", None))
        events.extend(hooks.set_field(match, cmd.actor, cmd.option, cmd.number))
    elif cmd.action == GM_DOOR:
        assert cmd.hex is not None
        match.battlefield.set_door(cmd.hex, bool(cmd.number))
        state = "opened" if cmd.number else "closed"
        events.append(GmEdit(rnd, None, f"the door at {cmd.hex.q},{cmd.hex.r} {state}", cmd.hex))
    elif cmd.action == GM_COVER:
        assert cmd.hex is not None and cmd.number is not None
        bf = match.battlefield
        terrain = bf.terrain_at(cmd.hex)
        bf.set_terrain(cmd.hex, dataclasses.replace(terrain, cover=Cover(cmd.number)))
        words = _COVER_WORDS[cmd.number]
        events.append(GmEdit(rnd, None, f"{cmd.hex.q},{cmd.hex.r} now gives {words}", cmd.hex))
    elif cmd.action == GM_TURN:
        assert hooks is not None
        events.append(GmEdit(rnd, cmd.actor, "acts now", match.position(cmd.actor)))
        events.extend(hooks.give_turn(match, cmd.actor))
    elif cmd.action == GM_MAP:
        events.extend(_reload_board(match, cmd, hooks))
    if hooks is not None:
        match.enter()
        events.extend(hooks.settle(match))
    return events


def _reload_board(match: Match, cmd: Command, hooks: GmRules | None) -> list[Event]:
    """``gm_map``: the new board in place (doors it shares with the old one as they were), the units
    carried over (:func:`game.engine.board.carry`), and a line for each unit that had to move."""
    board, sha = board_of(cmd)
    rnd = _round(match)
    standing = _standing(match)
    new = _carried_board(match, board)
    placed = carry(standing, new, stacking=hooks.stacking if hooks is not None else False)
    match.battlefield = new
    match.board_sha = sha
    title = new.title
    events: list[Event] = [GmEdit(rnd, None, f"the map reloaded from disk ({title})", None)]
    for unit, (where, why) in placed.moved.items():
        esper.component_for_entity(unit, Position).hex = where
        events.append(GmEdit(rnd, unit, f"moved to {where.q},{where.r}: {why}", where))
    for unit, why in placed.aside.items():
        esper.add_component(unit, Removed(GM_REMOVED))
        esper.component_for_entity(unit, Position).hex = None
        events.append(GmEdit(rnd, unit, f"set aside off the map: {why}", None))
    for _entity, pos in match.iter_components(Position):  # units out of the fight, left where they fell
        if pos.hex is not None and not new.in_bounds(pos.hex):
            pos.hex = None
    return events


def _round(match: Match) -> int:
    enc = _encounter(match)
    return enc.round if enc is not None else 0


def _shown(field: GmField) -> str:
    return ("yes" if field.value else "no") if field.flag else str(field.value)
