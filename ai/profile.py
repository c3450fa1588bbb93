"""AI profiles as data: a difficulty (how well the AI decides) and personalities (what it cares about).

``ai/profiles/<id>.toml`` is a difficulty: it changes only the quality of decisions — how many places a
unit weighs, whether it looks at the enemies' replies and the reactions a walk sets off, how widely it
picks among near-best options — never dice, stats, action points or hidden information.
``ai/profiles/personalities.toml`` holds the personalities: aggression, caution, focus fire, leader
protection, ideal range, flee threshold, each for the units it ``applies_to`` (unit kinds, or a Rifter's
attitude), with the rulebook sentence that shapes it. Both are read strictly (game.engine.dataload): an
unknown key, a missing key or a value out of range is an error naming the file, table and key.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from game.engine import dataload

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
    leader_protection: float = _share(0.3)  # keeping the posse's leader out of harm
    ideal_range: float = field(default=0.75, metadata={"range": (0.0, 1.0)})  # of the weapon's reach
    flee_threshold: float = _share(0.0)  # flees when its posse's chance looks worse than this


def _read(text: str, where: str) -> dict[str, Any]:
    try:
        doc: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ProfileError(f"{where} is not valid TOML: {error}") from None
    return doc


def load_difficulty(text: str, where: str, name: str) -> Difficulty:
    """A difficulty from a profile file's text (``where`` names it in messages)."""
    doc = _read(text, where)
    unknown = set(doc) - {"difficulty"}
    if unknown:
        raise ProfileError(f"{where}: unknown table [{sorted(unknown)[0]}] (a profile has [difficulty])")
    try:
        return dataload.load(Difficulty, "[difficulty]", doc.get("difficulty"), error=ProfileError, name=name)
    except ProfileError as error:
        raise ProfileError(f"{where}: {error}") from None


def load_personalities(text: str, where: str) -> dict[str, Personality]:
    doc = _read(text, where)
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
    return sorted(p.stem for p in _folder().glob("*.toml") if p.stem != "personalities")


@functools.cache
def difficulty(name: str) -> Difficulty:
    """The shipped difficulty ``name`` ("easy", "normal", "hard"); ProfileError listing the known ones."""
    path = _folder() / f"{name}.toml"
    if name == "personalities" or not path.is_file():
        raise ProfileError(f"unknown AI profile '{name}'; known profiles: {', '.join(known_difficulties())}")
    return load_difficulty(path.read_text(encoding="utf-8"), f"ai/profiles/{name}.toml", name)


@functools.cache
def personalities() -> dict[str, Personality]:
    path = _folder() / "personalities.toml"
    return load_personalities(path.read_text(encoding="utf-8"), "ai/profiles/personalities.toml")


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
