"""What happened: frozen data the UI animates and logs, and the AI and tests read.

Events carry facts (ids, numbers, names of rules), never UI text or colours. ``Roll`` is the combat-log
line every die roll produces: what was rolled, each modifier by name, the number needed and the outcome.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.hexgrid import Hex

__all__ = [
    "ActionTaken",
    "ActivationEnded",
    "ActivationStarted",
    "CardDealt",
    "DamageTaken",
    "Event",
    "ItemTaken",
    "MatchEnded",
    "Moved",
    "Note",
    "PhaseStarted",
    "Roll",
    "StatusChanged",
    "UnitRemoved",
]


@dataclass(frozen=True, slots=True)
class Event:
    """Base class; every event names the match round it happened in."""

    round: int


@dataclass(frozen=True, slots=True)
class PhaseStarted(Event):
    phase: str


@dataclass(frozen=True, slots=True)
class CardDealt(Event):
    unit: int
    card: str
    value: int
    joker: bool = False


@dataclass(frozen=True, slots=True)
class ActivationStarted(Event):
    unit: int
    action_points: int


@dataclass(frozen=True, slots=True)
class ActivationEnded(Event):
    unit: int


@dataclass(frozen=True, slots=True)
class Moved(Event):
    unit: int
    path: tuple[Hex, ...]
    cost: int


@dataclass(frozen=True, slots=True)
class Roll(Event):
    """One check: ``dice`` rolled, ``modifiers`` (name, value) added, compared with ``target_number``."""

    unit: int
    check: str  # "ballistics", "melee", "cool", "charge", ...
    dice: tuple[int, ...]
    modifiers: tuple[tuple[str, int], ...]
    total: int
    target_number: int | None
    success: bool | None
    against: int | None = None  # the entity the roll was against, if any


@dataclass(frozen=True, slots=True)
class DamageTaken(Event):
    unit: int
    amount: int
    source: int | None
    remaining: int  # what is left of the damage track the ruleset uses


@dataclass(frozen=True, slots=True)
class StatusChanged(Event):
    unit: int
    status: str
    active: bool


@dataclass(frozen=True, slots=True)
class ItemTaken(Event):
    unit: int
    item: str
    hex: Hex


@dataclass(frozen=True, slots=True)
class UnitRemoved(Event):
    unit: int
    reason: str  # "out_of_action", "fled", ...


@dataclass(frozen=True, slots=True)
class ActionTaken(Event):
    """A non-moving, non-rolling action (aim, reload, take cover, open a door, ...)."""

    unit: int
    action: str
    target: int | None = None
    hex: Hex | None = None
    option: str = ""


@dataclass(frozen=True, slots=True)
class Note(Event):
    """A rule applied that the log should mention (e.g. "Dastardly wound absorbed the damage")."""

    unit: int | None
    rule: str


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    winner: str | None  # side id, or None for a draw
    reason: str
