"""What happened: frozen data the UI animates and logs, and the AI and tests read.

Events carry facts (ids, numbers, names of rules), never UI text or colours. ``Roll`` is the combat-log
line every die roll produces: what was rolled, each modifier by name, the number needed and the outcome,
and what the roll is for in words every ruleset shares (:data:`ROLL_PURPOSES`), so a screen or the battle
statistics can tell an attack from a morale check without knowing any ruleset's check names.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.hexgrid import Hex

__all__ = [
    "ATTACK_PURPOSES",
    "FLED",
    "ROLL_PURPOSES",
    "ActionTaken",
    "ActivationEnded",
    "ActivationStarted",
    "CardDealt",
    "DamageTaken",
    "Event",
    "GmEdit",
    "ItemTaken",
    "MatchEnded",
    "Moved",
    "Note",
    "PhaseStarted",
    "Roll",
    "StatusChanged",
    "UnitRemoved",
    "chain_words",
]


# What a roll is for, the same words for every ruleset (``Roll.purpose``):
# "attack" an attack at range (a shot, a throw, a blast), "melee" an attack in close combat, "morale" a
# check of nerve (Frontier's Cool), "movement" a roll for distance (a charge's extra move), "initiative" a
# roll for the acting order (roll-offs too), "other" anything else (a skill check, a table).
ROLL_PURPOSES = ("attack", "melee", "morale", "movement", "initiative", "other")
ATTACK_PURPOSES = frozenset({"attack", "melee"})


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
    """One check: ``dice`` rolled, ``modifiers`` (name, value) added, compared with ``target_number``.

    ``check`` is the ruleset's own name for it, shown as it is ("ballistics", "cool", "fire");
    ``purpose`` is what it is for, in the shared words of :data:`ROLL_PURPOSES`."""

    unit: int
    check: str  # the ruleset's name of the check: "ballistics", "melee", "cool", "charge", ...
    dice: tuple[int, ...]
    modifiers: tuple[tuple[str, int], ...]
    total: int
    target_number: int | None
    success: bool | None
    against: int | None = None  # the entity the roll was against, if any
    purpose: str = "other"  # one of ROLL_PURPOSES
    # dice that exploded or aced: every face of each die, in order, one entry per die shown ((6, 4): a d6
    # that showed 6 and added a 4, never "10" on a d6); () when every die is its one face in ``dice``
    chains: tuple[tuple[int, ...], ...] = ()
    # each die judged on its own against ``target_number`` (a Rift volley): ``total`` is then the sum of the
    # dice that hit, not a sum compared with the target number
    each: bool = False

    def shown(self) -> list[tuple[tuple[int, ...], int]]:
        """Each die as shown: its faces (a chain when it exploded) and its value (what a hit is judged
        on: the die's entry in ``dice`` when there is one per chain, else the chain's sum)."""
        if not self.chains:
            return [((d,), d) for d in self.dice]
        one_each = len(self.dice) == len(self.chains)
        return [(c, self.dice[i] if one_each else sum(c)) for i, c in enumerate(self.chains)]

    @property
    def is_attack(self) -> bool:
        """An attack roll (at range or in close combat): what the battle statistics count as an attack."""
        return self.purpose in ATTACK_PURPOSES


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


# A unit that left the field on its own feet (UnitRemoved.reason): the engine's word for every ruleset (a
# side whose units all fled loses, game.engine.turns), which the log words as "flees the fight".
FLED = "fled"


@dataclass(frozen=True, slots=True)
class UnitRemoved(Event):
    unit: int
    reason: str  # the ruleset's reason ("out_of_action", ...), or FLED


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
class GmEdit(Event):
    """A game master's edit (game.engine.gm): what was changed, of which unit (None: the map), where."""

    unit: int | None
    change: str  # "placed on 3,4", "Wounds set to 1 (was 2)", "the door at 5,2 opened"
    hex: Hex | None = None


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    winner: str | None  # side id, or None for a draw
    reason: str


def chain_words(faces: tuple[int, ...]) -> str:
    """A die's faces as the table says them: "6" one face, "6 \u2192 +4" an exploded or aced die."""
    return " \u2192 ".join([str(faces[0]), *(f"+{f}" for f in faces[1:])]) if faces else "-"
