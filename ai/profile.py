"""AI profiles as data: a difficulty (how well the AI decides) and personalities (what it cares about).

``ai/profiles/<id>.toml`` is a difficulty: it changes only the quality of decisions — how many places a
unit weighs, whether it looks at the enemies' replies and the reactions a walk sets off, how widely it
picks among near-best options — never dice, stats, action points or hidden information.
``ai/profiles/personalities.toml`` holds the personalities: aggression, caution, focus fire, the drive to
finish a hurt hostile, leader protection, ideal range, flee threshold, each for the units it
``applies_to`` (unit kinds, or a Rifter's attitude), with the rulebook sentence that shapes it. Both
are read bounded (game.safeio: a regular file of at most 64 KB, nesting and number caps) and strictly
(game.engine.dataload): an unknown key, a missing key or a value out of range is an error naming the
file, table and key.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from game.engine import dataload
from game.safeio import FileRefusedError, JsonLimits, parse_toml, read_file

__all__ = [
    "Difficulty",
    "Personality",
    "ProfileError",
    "default_personality",
    "difficulty",
    "known_difficulties",
    "load_difficulty",
    "load_personalities",
    "personalities",
    "personality_for",
]


class ProfileError(ValueError):
    """An AI profile file is not valid; the message names the file, the table and the key."""


def _share(default: float) -> Any:
    return field(default=default, metadata={"range": (0.0, 1.0)})


@dataclass(frozen=True, slots=True)
class Difficulty:
    """How well an AI decides (``[difficulty]`` in ``ai/profiles/<id>.toml``)."""

    id: str = field(default="", metadata={"id": True})
    name: str = field(default="", metadata={"required": True})
    summary: str = field(default="", metadata={"required": True})
    band: float = _share(0.05)  # picks at random among options scoring within this share of the best
    inertia: float = field(default=1.05, metadata={"range": (1.0, 2.0)})  # the plan in progress is favoured
    places: int = field(default=24, metadata={"range": (1, 400)})  # end hexes weighed per move
    foresight: bool = True  # weighs what the enemies could do to it where it ends (exposure)
    reactions: bool = True  # weighs the attacks a walk sets off
    blunder: float = _share(0.0)  # how often it takes any sensible option instead of a good one


@dataclass(frozen=True, slots=True)
class Personality:
    """What an AI cares about (a table of ``ai/profiles/personalities.toml``)."""

    id: str = field(default="", metadata={"id": True})
    name: str = field(default="", metadata={"required": True})
    applies_to: tuple[str, ...] = ()  # unit kinds or attitudes ("outlaw", "gang_leader", "bold")
    quote: str = ""  # the rulebook sentence that shapes it
    source: str = ""  # the rulebook it is quoted from
    aggression: float = _share(0.5)  # damage dealt against the risk taken
    caution: float = _share(0.5)  # how much exposure at the end of a move counts
    focus_fire: float = _share(0.5)  # preference for hurt targets
    # how many times a hostile's share of health lost adds to its worth (finishing what was started)
    finish: float = field(default=1.0, metadata={"range": (0.0, 5.0)})
    leader_protection: float = _share(0.3)  # keeping the posse's leader out of harm
    ideal_range: float = field(default=0.75, metadata={"range": (0.0, 1.0)})  # of the weapon's reach
    flee_threshold: float = _share(0.0)  # flees when its posse's chance looks worse than this


# A profile is a few short tables: 64 KB, shallow, numbers of a few digits.
PROFILE_LIMITS = JsonLimits(max_bytes=64 * 1024, max_depth=8, max_containers=1_000, max_digits=24)


def _read(text: str | bytes, where: str) -> dict[str, Any]:
    """The TOML document of a profile's text or bytes, parsed within :data:`PROFILE_LIMITS`
    (:func:`game.safeio.parse_toml`): deep nesting, huge numbers, bad UTF-8 or bad TOML is a ProfileError
    naming the file, never a traceback."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    try:
        doc: dict[str, Any] = parse_toml(data, where, PROFILE_LIMITS, what="profile file")
    except FileRefusedError as error:
        raise ProfileError(f"{where}: {error.what}") from None
    return doc


def _read_file(path: Path, where: str) -> dict[str, Any]:
    """A profile file read as :mod:`game.safeio` reads what a user hands the game: a regular file of at
    most 64 KB (a pipe or a link to a device is refused, not read)."""
    try:
        data = read_file(path, PROFILE_LIMITS.max_bytes, what="profile file")
    except FileRefusedError as error:
        raise ProfileError(f"{where}: {error.what} -- {error.fix}") from None
    return _read(data, where)


def load_difficulty(text: str | bytes | dict[str, Any], where: str, name: str) -> Difficulty:
    """A difficulty from a profile file's text (``where`` names it in messages)."""
    doc = text if isinstance(text, dict) else _read(text, where)
    unknown = set(doc) - {"difficulty"}
    if unknown:
        raise ProfileError(f"{where}: unknown table [{sorted(unknown)[0]}] (a profile has [difficulty])")
    try:
        return dataload.load(Difficulty, "[difficulty]", doc.get("difficulty"), error=ProfileError, name=name)
    except ProfileError as error:
        raise ProfileError(f"{where}: {error}") from None


def load_personalities(text: str | bytes | dict[str, Any], where: str) -> dict[str, Personality]:
    doc = text if isinstance(text, dict) else _read(text, where)
    try:
        found = dataload.load_tables(Personality, doc, "personality", error=ProfileError)
    except ProfileError as error:
        raise ProfileError(f"{where}: {error}") from None
    unknown = set(doc) - {"personality"}
    if unknown:
        raise ProfileError(f"{where}: unknown table [{sorted(unknown)[0]}]")
    if "default" not in found:
        raise ProfileError(f"{where}: [personality.default] is missing (the personality of any other unit)")
    return found


def _folder() -> Path:
    return Path(str(resources.files("ai.profiles")))


def known_difficulties() -> list[str]:
    return sorted(
        p.stem
        for p in _folder().glob("*.toml")
        if p.stem != "personalities" and p.stem.isidentifier() and p.stem.isascii()
    )


@functools.cache
def difficulty(name: str) -> Difficulty:
    """The shipped difficulty ``name`` ("easy", "normal", "hard"); ProfileError listing the known ones."""
    known = known_difficulties()
    if name not in known:  # exact membership: a name is never a path ("../x", "/etc/x")
        raise ProfileError(f"unknown AI profile '{name}'; known profiles: {', '.join(known)}")
    where = f"ai/profiles/{name}.toml"
    return load_difficulty(_read_file(_folder() / f"{name}.toml", where), where, name)


@functools.cache
def personalities() -> dict[str, Personality]:
    where = "ai/profiles/personalities.toml"
    return load_personalities(_read_file(_folder() / "personalities.toml", where), where)


def default_personality() -> Personality:
    return personalities()["default"]


def personality_for(keys: tuple[str, ...]) -> Personality:
    """The personality for a unit described by ``keys`` (its kind, then its art keys such as a Rifter's
    attitudes): the first personality that applies to one of them, else the default."""
    found = personalities()
    for key in keys:
        for p in found.values():
            if key in p.applies_to:
                return p
    return found["default"]
