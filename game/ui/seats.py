"""Who plays a side in the window, without pygame: ``"human"`` (a player at this screen) or a computer
player by its controller name (``"ai:normal"``, as :mod:`ai.controllers` names them).

The New Battle screen offers a human and the AI at each shipped difficulty (:func:`seat_choices`, each
with its profile's summary as the tooltip); the session keeps one seat per side, the save records them
(format version 3) and the battle screen asks :func:`is_ai` whether to wait for a player or to let the AI
decide (:mod:`game.ui.pilot`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ai.controllers import ControllerError, parse
from ai.profile import ProfileError, difficulty, known_difficulties

__all__ = [
    "DEFAULT_AI",
    "HUMAN",
    "SeatChoice",
    "SeatError",
    "ai_levels",
    "coarse",
    "is_ai",
    "normalize",
    "seat_choices",
    "seat_label",
]

HUMAN = "human"
DEFAULT_AI = "ai:normal"
LEVEL_ORDER = ("easy", "normal", "hard")  # the menus' order; other profiles follow by name
HUMAN_TIP = "A player at this screen (hotseat: the board is hidden while the seat passes)"


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
    """How a seat is called on screen: "Human", "Normal AI", or a baseline's name ("random AI")."""
    if not is_ai(seat):
        return "Human"
    if seat.startswith("ai:"):
        try:
            return f"{difficulty(seat.removeprefix('ai:')).name} AI"
        except ProfileError:
            return f"{seat.removeprefix('ai:')} AI"
    return f"{seat} AI"
