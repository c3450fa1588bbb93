"""Who plays a side in the window, without pygame: ``"human"`` (a player at this screen) or a computer
player by its controller name (``"ai:normal"``, as :mod:`ai.controllers` names them).

The New Battle screen offers a human and the AI at each shipped difficulty (:func:`seat_choices`, each
with its profile's summary as the tooltip) and, for an AI seat, its personality
(:func:`personality_choices`): "by unit" (each unit with the personality for its kind, the AI's default)
or one personality of ``ai/profiles/personalities.toml`` for every unit of the side
(``"ai:hard:outlaw"``). The session keeps one seat per side, the save records them (format version 3) and
the battle screen asks :func:`is_ai` whether to wait for a player or to let the AI decide
(:mod:`game.ui.pilot`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ai.controllers import ControllerError, parse, split
from ai.profile import Personality, ProfileError, difficulty, known_difficulties, personalities

__all__ = [
    "BY_UNIT",
    "DEFAULT_AI",
    "HUMAN",
    "SeatChoice",
    "SeatError",
    "ai_levels",
    "coarse",
    "is_ai",
    "normalize",
    "personality_choices",
    "seat_choices",
    "seat_label",
    "seat_level",
    "seat_personality",
    "with_level",
    "with_personality",
]

HUMAN = "human"
DEFAULT_AI = "ai:normal"
LEVEL_ORDER = ("easy", "normal", "hard")  # the menus' order; other profiles follow by name
HUMAN_TIP = "A player at this screen (hotseat: the board is hidden while the seat passes)"
BY_UNIT = "By unit (default)"
BY_UNIT_TIP = (
    "Each unit plays as its kind does (lawmen careful, outlaws bold, each Rifter by attitude; "
    "ai/profiles/personalities.toml)"
)


class SeatError(ValueError):
    """A seat that is neither ``human`` nor a known computer player; the message lists the known ones."""


@dataclass(frozen=True, slots=True)
class SeatChoice:
    """One way a side can be played: the seat's name, its button's text and its tooltip."""

    seat: str
    label: str
    tooltip: str


def ai_levels() -> list[str]:
    """The AI's difficulties (``ai/profiles``), easy to hard, then any others by name."""
    known = known_difficulties()
    return [p for p in LEVEL_ORDER if p in known] + [p for p in known if p not in LEVEL_ORDER]


def seat_choices() -> list[SeatChoice]:
    """A human, then the AI at each difficulty with the profile's own summary."""
    out = [SeatChoice(HUMAN, "Human", HUMAN_TIP)]
    for level in ai_levels():
        try:
            profile = difficulty(level)
        except ProfileError:
            continue  # a profile file that does not read is not offered (the AI's tests catch it)
        out.append(SeatChoice(f"ai:{level}", f"AI: {profile.name}", f"The computer plays: {profile.summary}"))
    return out


def _person_tip(person: Personality) -> str:
    said = f"“{person.quote}” ({person.source}). " if person.quote else ""
    return (
        f"Every unit of the side plays as {person.name}: {said}aggression {person.aggression:.2f}, "
        f"caution {person.caution:.2f}, focus fire {person.focus_fire:.2f}, "
        f"leader protection {person.leader_protection:.2f}, ideal range {person.ideal_range:.2f}"
    )


def personality_choices(source: str = "") -> list[SeatChoice]:
    """An AI seat's personalities: "by unit" (``seat`` ""), then the default one and those quoted from
    the rulebook titled ``source`` (every one when ``source`` is "")."""
    out = [SeatChoice("", BY_UNIT, BY_UNIT_TIP)]
    try:
        found = personalities()
    except ProfileError:
        return out  # the personalities file does not read: the AI's tests say why
    for pid, person in found.items():
        if not source or not person.source or person.source == source:
            out.append(SeatChoice(pid, person.name, _person_tip(person)))
    return out


def seat_level(seat: str) -> str:
    """An AI seat's difficulty ("" for a human or a baseline)."""
    return split(seat)[0] if seat.startswith("ai:") else ""


def seat_personality(seat: str) -> str:
    """An AI seat's own personality id ("" when each unit has its kind's, or not an AI of profiles)."""
    return (split(seat)[1] or "") if seat.startswith("ai:") else ""


def with_level(seat: str, level: str) -> str:
    """The AI at ``level``, keeping ``seat``'s personality if it had one."""
    person = seat_personality(seat)
    return f"ai:{level}:{person}" if person else f"ai:{level}"


def with_personality(seat: str, person: str) -> str:
    """The AI seat ``seat`` with personality ``person`` ("": by unit); a human seat stays a human's."""
    level = seat_level(seat)
    if not level:
        return seat
    return f"ai:{level}:{person}" if person else f"ai:{level}"


def normalize(seat: str) -> str:
    """``seat`` as the session keeps it: ``human``, or a controller name checked by ``ai.controllers``
    (``"ai"`` alone is the normal AI). SeatError naming the known seats otherwise."""
    text = seat.strip().lower() if isinstance(seat, str) else ""
    if text == HUMAN:
        return HUMAN
    try:
        return parse(text)
    except ControllerError:
        known = ", ".join(c.seat for c in seat_choices())
        raise SeatError(f"unknown seat '{seat}'; known seats: {known}") from None


def is_ai(seat: str) -> bool:
    """Whether the computer plays this seat."""
    return seat != HUMAN


def coarse(seat: str) -> str:
    """The seat as a posse records it (``PosseSpec.controller``: "human" or "ai")."""
    return "ai" if is_ai(seat) else HUMAN


def seat_label(seat: str) -> str:
    """How a seat is called on screen: "Human", "Normal AI", "Hard AI, Outlaw" (one personality for the
    side), or a baseline's name ("random AI")."""
    if not is_ai(seat):
        return "Human"
    if seat.startswith("ai:"):
        level, _, person = seat.removeprefix("ai:").partition(":")
        try:
            said = f"{difficulty(level).name} AI"
        except ProfileError:
            said = f"{level} AI"
        if person:
            try:
                said += f", {personalities()[person].name}"
            except (ProfileError, KeyError):
                said += f", {person}"
        return said
    return f"{seat} AI"
