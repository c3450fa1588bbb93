"""Saves: versioned JSON, a header (ruleset, map and its hash, posses, seed) and the command log.

Loading replays the log on a fresh match and must reach the saved digest. Saves are untrusted input: no
pickle, no eval; every way a file can be wrong ends in a :class:`SaveError` saying what and how to fix it.
Writing is atomic (a temporary file in the same folder, synced, then a rename, then the folder synced), so
a crash never leaves half a save and never destroys the previous one. Reading is bounded
(:mod:`game.safeio`): the save and the map it names are read only if they are regular files within a size
cap, and the JSON within depth and number caps.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.battlefield import Battlefield
from game.commands import Command, CommandFormatError, command_from_json, command_to_json
from game.engine.board import BoardError, board_from_json, board_json
from game.engine.match import IllegalCommandError, Match
from game.engine.protocol import PosseSpec, UnitSpec
from game.engine.registry import UnknownRulesetError, get_ruleset
from game.engine.scenario import Scenario
from game.journal import read_journal
from game.mapload import load_battlefield
from game.safeio import (
    MAX_PATH_CHARS,
    FileRefusedError,
    JsonLimits,
    nesting,
    parse_json,
    read_file,
    write_atomic,
)
from game.tiledmap import MapLoadError

__all__ = ["FORMAT", "VERSION", "SaveError", "load_match", "read_save", "save_match", "write_save"]

FORMAT = "hexslinger-save"
# 2: the rules engine (issue 10) changed how a match's state is laid out, so a version-1 save's digest
# cannot be compared any more; such a save still loads when every command replays legally.
# 3: "seats" records who plays each side ("human" or a computer player such as "ai:normal"); a save of
# an older version has no seats and loads with every side played by a human.
VERSION = 3
DIGEST_SINCE = 2  # the first version whose saved digest is comparable with today's
SEATS_SINCE = 3  # the first version that records the seats
HUMAN = "human"
MAX_SAVE_BYTES = 16 * 1024 * 1024
# a save nests 6 deep (document > commands > command > path > hex); its numbers are ids, hexes and seeds
SAVE_LIMITS = JsonLimits(max_bytes=MAX_SAVE_BYTES, max_depth=32, max_digits=40)
_LONG_NUMBER = re.compile(r"\d{41,}")  # more digits than SAVE_LIMITS.max_digits allows


class SaveError(Exception):
    """A save that cannot be loaded: ``what`` is wrong and ``fix`` says what to do."""

    def __init__(self, path: Path, what: str, fix: str) -> None:
        self.path = path
        self.what = what
        self.fix = fix
        super().__init__(f"{path}: {what} -- {fix}")


@dataclass(frozen=True, slots=True)
class SaveData:
    ruleset: str
    map_file: str
    map_sha256: str
    seed: int
    posses: list[PosseSpec]
    commands: list[Command]
    digest: str
    name: str = ""
    # how far the battle had gone, for listings only (the Load screen): never trusted, the replay decides
    round: int = 0
    over: bool = False
    version: int = VERSION
    # side -> who plays it ("human", "ai:normal", ...), as written; every side "human" before version 3.
    # Not checked against the installed AI profiles here (the window does that: game.ui.seats)
    seats: dict[str, str] = field(default_factory=dict)
    # the digests to compare on replay: after how many commands -> the digest (the save's own, and those
    # of its autosave journal: game.journal); empty means the saved digest after every command
    digests: dict[int, str] = field(default_factory=dict)
    journal_note: str = ""  # what of the autosave's journal could not be used ("" when all of it)
    # the encounter file's rules the match was built with (game.engine.scenario), None: none
    scenario: Scenario | None = None
    # the board the battle started on, as JSON (game.engine.board), when a GM reloaded the map into it
    board: str = ""

    @property
    def digest_comparable(self) -> bool:
        """Whether the saved digest can be compared with a replay's (saves of format version 2 on)."""
        return self.version >= DIGEST_SINCE


# -- writing ------------------------------------------------------------------------------------------


def _posse_to_json(posse: PosseSpec) -> dict[str, Any]:
    return {
        "side": posse.side,
        "faction": posse.faction,
        "name": posse.name,
        "controller": posse.controller,
        "units": [
            {
                "kind": u.kind,
                "name": u.name,
                "loadout": list(u.loadout),
                "options": [list(kv) for kv in u.options],
            }
            for u in posse.units
        ],
    }


def save_document(match: Match, name: str = "", seats: dict[str, str] | None = None) -> dict[str, Any]:
    """The save of ``match``; ``seats`` says who plays each side (a side left out: a human)."""
    if match.map_path is None:
        raise ValueError("a match made without a map file cannot be saved")
    given = seats or {}
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": name,
        "ruleset": match.ruleset_name,
        "map": _map_entry(match),
        "seed": match.seed,
        "posses": [_posse_to_json(p) for p in match.posses],
        "seats": {p.side: given.get(p.side, HUMAN) for p in match.posses},
        **({"scenario": match.scenario.to_json()} if match.scenario is not None else {}),
        "commands": [command_to_json(c) for c in match.log],
        "digest": match.digest(),
        "progress": {"round": match.history[-1].round if match.history else 0, "over": match.is_over},
    }


def _map_entry(match: Match) -> dict[str, str]:
    """The map a save replays on: the file and its sha256, and, once a GM reloaded the map into the
    battle (``gm_map``), the board the battle started on whole (the file has changed since)."""
    first = match.first_board
    entry = {"file": str(match.map_path), "sha256": first.file_hash}
    if match.board_sha:
        entry["board"] = board_json(first)
    return entry


def write_save(path: Path, document: dict[str, Any]) -> str:
    """Write atomically: a temporary file next to ``path``, flushed and synced, renamed over it, and the
    folder synced so the rename survives a power cut. Temporary files that killed writes left in the
    folder (older than a minute) are deleted first. Returns the sha256 of the bytes written (an autosave's
    journal is bound to it)."""
    path = Path(path)
    data = json.dumps(document, indent=1, sort_keys=False).encode("utf-8")
    write_atomic(path, data)
    return hashlib.sha256(data).hexdigest()


def save_match(match: Match, path: str | Path, name: str = "", seats: dict[str, str] | None = None) -> str:
    """Write ``match`` to ``path`` (see :func:`write_save`); the sha256 of the bytes written."""
    return write_save(Path(path), save_document(match, name, seats))


# -- reading ------------------------------------------------------------------------------------------


def _short(error: object, limit: int = 200) -> str:
    """An error's text for a message, cut short: it may quote a value of any size from the file."""
    text = str(error)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _need(doc: dict[str, Any], key: str, kind: type | tuple[type, ...], path: Path) -> Any:
    if key not in doc:
        raise SaveError(path, f"the save has no '{key}'", "the file is damaged; load an earlier save")
    value = doc[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise SaveError(
            path, f"'{key}' in the save has the wrong type", "the file is damaged; load an earlier save"
        )
    return value


def _posse_from_json(data: Any, path: Path) -> PosseSpec:
    damaged = "the file is damaged or was edited; load an earlier save"
    if not isinstance(data, dict):
        raise SaveError(path, "a posse in the save is not an object", damaged)
    for unit in data.get("units", []) if isinstance(data.get("units"), list) else []:
        options = unit.get("options", []) if isinstance(unit, dict) else []
        for pair in options if isinstance(options, list) else []:
            value = pair[1] if isinstance(pair, list) and len(pair) == 2 else None
            # an option may hold JSON of its own (a Rifter's character): the same depth cap as the save's
            if not isinstance(value, str):
                continue
            if nesting(value.encode("utf-8", "replace"))[0] > SAVE_LIMITS.max_depth:
                what = f"a unit option in the save nests more than {SAVE_LIMITS.max_depth} deep"
                raise SaveError(path, what, damaged)
            if _LONG_NUMBER.search(value):
                what = (
                    f"a unit option in the save holds a number of more than {SAVE_LIMITS.max_digits} digits"
                )
                raise SaveError(path, what, damaged)
    try:
        units = tuple(
            UnitSpec(
                kind=str(u["kind"]),
                name=str(u.get("name", "")),
                loadout=tuple(str(x) for x in u.get("loadout", [])),
                options=tuple((str(k), str(v)) for k, v in u.get("options", [])),
            )
            for u in data["units"]
        )
        return PosseSpec(
            side=str(data["side"]),
            faction=str(data["faction"]),
            name=str(data.get("name", "")),
            units=units,
            controller=str(data.get("controller", "human")),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise SaveError(path, f"a posse in the save is malformed ({_short(error)})", damaged) from None


def read_save(path: str | Path) -> SaveData:
    """Parse and check a save's structure (not yet replayed).

    The file is read only if it is a regular file of at most :data:`MAX_SAVE_BYTES`, and parsed within
    :data:`SAVE_LIMITS` (:mod:`game.safeio`): a FIFO, a device, deep nesting or a 5,000-digit number is a
    :class:`SaveError` naming the limit, never a hang or a traceback."""
    path = Path(path)
    damaged = "the file is damaged; load an earlier save (autosaves are kept per turn)"
    try:
        raw = read_file(path, MAX_SAVE_BYTES, what="save")
        doc = parse_json(raw, path, SAVE_LIMITS, what="save")
    except FileRefusedError as error:
        if error.reason == "missing":
            raise SaveError(path, "the save file does not exist", "check the path") from None
        if error.reason == "empty":
            raise SaveError(path, "the save file is empty", damaged) from None
        if error.reason == "not_text":
            raise SaveError(path, "the save is not text", damaged) from None
        if error.reason == "too_large":
            raise SaveError(
                path,
                f"the file is larger than {MAX_SAVE_BYTES // (1024 * 1024)} MB, too large to be a "
                "Hexslinger save",
                "pick a .json save file",
            ) from None
        fix = damaged if error.reason not in ("not_regular", "unreadable") else error.fix
        raise SaveError(path, error.what, fix) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveError(path, "this is not a Hexslinger save", "pick a save written by Hexslinger")
    version = _need(doc, "version", int, path)
    if version > VERSION:
        raise SaveError(
            path,
            f"the save is format version {version}, newer than this Hexslinger understands ({VERSION})",
            "update Hexslinger to load it",
        )
    if version < 1:
        raise SaveError(path, f"unknown save format version {version}", damaged)
    map_info = _need(doc, "map", dict, path)
    map_file = map_info.get("file")
    map_hash = map_info.get("sha256")
    board = map_info.get("board", "")
    if not isinstance(map_file, str) or not isinstance(map_hash, str) or not isinstance(board, str):
        raise SaveError(path, "the save's map entry is malformed", damaged)
    if len(map_file) > MAX_PATH_CHARS:
        raise SaveError(
            path,
            f"the save's map path is {len(map_file)} characters long, more than {MAX_PATH_CHARS}",
            damaged,
        )
    commands_json = _need(doc, "commands", list, path)
    try:
        commands = [command_from_json(c) for c in commands_json]
    except CommandFormatError as error:
        raise SaveError(path, f"a command in the save is malformed ({_short(error)})", damaged) from None
    posses = [_posse_from_json(p, path) for p in _need(doc, "posses", list, path)]
    seats = _seats(doc, posses, version, path)
    progress = doc.get("progress")  # optional (saves written before it have none); a bad one is ignored
    progress = progress if isinstance(progress, dict) else {}
    reached = progress.get("round")
    over = progress.get("over")
    digest = _need(doc, "digest", str, path)
    journal = read_journal(path, raw, commands, SAVE_LIMITS)
    if journal.lines:
        commands = journal.commands
        seats = _journal_seats(journal.seats, seats)
        reached = journal.round if journal.round is not None else reached
        over = journal.over if journal.over is not None else over
    digests = {
        n: d for n, d in ({len(commands_json): digest} | journal.digests).items() if n <= len(commands)
    }
    if journal.lines and len(commands) < len(commands_json):
        digests.pop(len(commands_json), None)  # the log was cut below the base: its digest no longer fits
    scenario = None
    if "scenario" in doc:
        try:
            scenario = Scenario.from_json(doc["scenario"])
        except (KeyError, TypeError, ValueError):
            raise SaveError(
                path, "the save's encounter rules (its 'scenario') are malformed", damaged
            ) from None
    return SaveData(
        scenario=scenario,
        ruleset=_need(doc, "ruleset", str, path),
        map_file=map_file,
        map_sha256=map_hash,
        seed=_need(doc, "seed", int, path),
        posses=posses,
        commands=commands,
        digest=digest,
        name=str(doc.get("name", "")),
        round=reached if isinstance(reached, int) and not isinstance(reached, bool) and reached >= 0 else 0,
        over=over is True,
        version=version,
        seats=seats,
        digests=digests,
        journal_note=journal.note,
        board=board,
    )


def _journal_seats(changed: dict[str, str] | None, seats: dict[str, str]) -> dict[str, str]:
    """The seats after the journal's last change of them (sides the save does not have are left out)."""
    if changed is None:
        return seats
    return {side: changed.get(side, seat).strip() or seat for side, seat in seats.items()}


def _seats(doc: dict[str, Any], posses: list[PosseSpec], version: int, path: Path) -> dict[str, str]:
    """Who plays each side: from "seats" (version 3 on; a side left out is a human's), else every side a
    human's (an older save knows no computer players, whatever its posses say)."""
    humans = {p.side: HUMAN for p in posses}
    if version < SEATS_SINCE:
        return humans
    raw = doc.get("seats", {})
    damaged = "the file is damaged or was edited; load an earlier save"
    if not isinstance(raw, dict):
        raise SaveError(path, "'seats' in the save has the wrong type", damaged)
    for side, seat in raw.items():
        if side not in humans:
            raise SaveError(path, f"the save names a seat for '{side}', a side no posse is on", damaged)
        if not isinstance(seat, str) or not seat.strip():
            raise SaveError(path, f"the seat of '{side}' in the save is not a name", damaged)
        humans[side] = seat.strip()
    return humans


def _resolve_map(save_path: Path, map_file: str) -> Path:
    """The map a save names: its path as saved, else a map of that name beside the save. A name the OS
    cannot even look up (too long, a NUL byte) is returned as it is, for the loader to refuse."""
    candidate = Path(map_file)
    try:
        if candidate.is_absolute() or candidate.exists():
            return candidate
        beside = save_path.parent / candidate.name
        return beside if beside.exists() else candidate
    except (OSError, ValueError):
        return candidate


def _check_digest(match: Match, checks: dict[int, str], number: int, path: Path) -> None:
    """After ``number`` commands of a replay: the digest saved for that point, if one was, must match."""
    if number in checks and match.digest() != checks[number]:
        match.close()
        raise SaveError(
            path,
            "replaying the save does not reach the saved game state (digest mismatch"
            + (f" after command {number})" if number else ")"),
            "the file was edited or made by a different version; load an earlier save",
        )


def _map_file(path: Path, map_path: Path, data: SaveData) -> Battlefield:
    """The map file a save names, loaded: it must be the file the battle was played on (its sha256)."""
    try:
        battlefield = load_battlefield(map_path)
    except MapLoadError as error:
        raise SaveError(
            path,
            f"the save's map {data.map_file} cannot be loaded: {error.problems[0].what}",
            "restore the map file the save was made on",
        ) from None
    if battlefield.file_hash != data.map_sha256:
        raise SaveError(
            path,
            f"the map {map_path} has changed since the game was saved",
            "restore the map as it was (the save records its sha256), or start a new game on the new map",
        )
    return battlefield


def load_match(path: str | Path, *, verify: bool = True) -> tuple[Match, SaveData]:
    """Rebuild the saved match by replaying its log; with ``verify`` the digest must match."""
    path = Path(path)
    data = read_save(path)
    try:
        ruleset = get_ruleset(data.ruleset)
    except UnknownRulesetError:
        raise SaveError(
            path,
            f"the save uses the ruleset '{data.ruleset}', which this Hexslinger lacks",
            "update Hexslinger",
        ) from None
    map_path = _resolve_map(path, data.map_file)
    if data.board:  # a GM reloaded the map into the battle: the save holds the board it started on
        try:
            battlefield = board_from_json(data.board)
        except BoardError as error:
            raise SaveError(
                path,
                f"the save's first board is damaged ({_short(error)})",
                "the file was edited or is damaged; load an earlier save",
            ) from None
        if battlefield.file_hash != data.map_sha256:
            raise SaveError(
                path,
                "the save's first board is not the map it names (their sha256 differ)",
                "the file was edited or is damaged; load an earlier save",
            )
    else:
        battlefield = _map_file(path, map_path, data)
    try:
        match = Match(battlefield, ruleset, data.posses, data.seed, map_path=map_path, scenario=data.scenario)
    except (ValueError, RecursionError) as error:
        raise SaveError(
            path,
            f"the save's posses are not valid ({_short(error)})",
            "the file was edited; load an earlier save",
        ) from None
    checks = data.digests if verify and data.digest_comparable else {}
    _check_digest(match, checks, 0, path)
    for number, cmd in enumerate(data.commands, start=1):
        try:
            match.apply(cmd)
            _check_digest(match, checks, number, path)
        except IllegalCommandError as error:
            match.close()
            raise SaveError(
                path,
                f"command {number} of {len(data.commands)} ({cmd.action}) is not legal on replay: "
                f"{error.reason}",
                "the file was edited or is damaged; load an earlier save",
            ) from None
    # a version-1 save predates today's state layout: its commands replayed legally, which is all that
    # can be checked (docs/ARCHITECTURE.md "Saves replay")
    if verify and data.digest_comparable and not checks and match.digest() != data.digest:
        match.close()
        raise SaveError(
            path,
            "replaying the save does not reach the saved game state (digest mismatch)",
            "the file was edited or made by a different version; load an earlier save",
        )
    return match, data
