"""Who plays a side, by name: ``ai:PROFILE`` (the utility AI at a difficulty, each unit with the
personality for its kind), ``ai:PROFILE:PERSONALITY`` (every unit of the side with that personality of
``ai/profiles/personalities.toml``), ``random`` or ``greedy``.

The names are what ``hexslinger simulate`` takes for ``--side1`` / ``--side2``, what a save records for an
AI seat and what New Battle offers; :func:`make_player` builds the player, :func:`parse` refuses a bad name
with the known ones listed.
"""

from __future__ import annotations

from ai.agent import UtilityAgent
from ai.baselines import GreedyPlayer, Player, RandomPlayer
from ai.profile import ProfileError, difficulty, known_difficulties, personalities

__all__ = ["ControllerError", "known", "make_player", "parse", "split"]

BASELINES = ("random", "greedy")


class ControllerError(ValueError):
    """A controller name that is not ``ai:PROFILE``, ``random`` or ``greedy``; says which are known."""


def known() -> list[str]:
    """Every controller name, the AI's profiles first."""
    return [*(f"ai:{p}" for p in known_difficulties()), *BASELINES]


def parse(name: str) -> str:
    """``name`` checked (``"ai"`` alone means ``ai:normal``); ControllerError listing the known ones."""
    text = name.strip().lower() if isinstance(name, str) else ""
    if text == "ai":
        text = "ai:normal"
    if text in BASELINES:
        return text
    if text.startswith("ai:"):
        level, _, person = text.removeprefix("ai:").partition(":")
        try:
            difficulty(level)
            known_people = personalities()
        except ProfileError:
            pass
        else:
            if not person:
                return f"ai:{level}"
            if person in known_people:
                return f"ai:{level}:{person}"
            raise ControllerError(
                f"unknown personality '{person}' in '{name}'; known personalities: {', '.join(known_people)}"
            )
    raise ControllerError(
        f"unknown controller '{name}'; known controllers: {', '.join(known())} "
        "(ai:PROFILE:PERSONALITY gives every unit one personality of ai/profiles/personalities.toml)"
    )


def split(name: str) -> tuple[str, str | None]:
    """An ``ai:`` controller name as its difficulty and personality (None: each unit's own)."""
    level, _, person = parse(name).removeprefix("ai:").partition(":")
    return level, person or None


def make_player(name: str, seed: int) -> Player:
    """The player for controller ``name``, drawing from its own RNG seeded with ``seed``."""
    text = parse(name)
    if text == "random":
        return RandomPlayer(seed)
    if text == "greedy":
        return GreedyPlayer(seed)
    level, person = split(text)
    return UtilityAgent(level, seed, person)
