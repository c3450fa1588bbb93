"""Facts about a match as numbers, for the AI (and anything else that reasons about a position).

Every ruleset answers these from its own components; they hold only what every player can see — never
an undrawn card or the RNG's state. ``UnitFacts`` is a unit's sheet as numbers; ``ThreatSource`` is a
reaction a walk would set off (an opportunity attack, a Hold Fire or Covering Fire shot) with its odds.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from game.engine.protocol import AttackPreview
from game.hexgrid import Hex

__all__ = ["PathReaction", "StatusFacts", "UnitFacts", "WeaponFacts"]


@dataclass(frozen=True, slots=True)
class WeaponFacts:
    """A weapon as numbers: its id and name, ``kind`` ("ranged", "melee", "explosive"), the farthest it
    reaches in hexes (``reach``) and where it is at its best (``best_range``: hexes), shots left (None: no
    count) of ``max_ammo``, the dice it rolls ("1d6", "3 dice, 4+") and its blast radius (explosives)."""

    id: str
    name: str
    kind: str
    reach: int
    best_range: int
    ammo: int | None = None
    max_ammo: int | None = None
    dice: str = ""
    radius: int = 0


@dataclass(frozen=True, slots=True)
class StatusFacts:
    """A status on a unit: its id, whether it helps the unit, and who inflicted it (None: itself/no one)."""

    id: str
    helps: bool
    inflictor: int | None = None


@dataclass(frozen=True, slots=True)
class UnitFacts:
    """A unit as numbers. ``health`` is (now, most) of the ruleset's damage track and ``health_parts``
    its parts by name ("Toughness", "Wounds"); ``action_points`` (now, per turn); ``move`` what it can
    walk this turn in movement points; ``fights`` False once it has left the fight (down, fled); ``acted``
    whether it has had its turn this round; ``value`` how much its side stands to lose with it (a leader
    more), on the ruleset's own scale."""

    unit: int
    side: str
    kind: str
    position: Hex | None
    health: tuple[int, int]
    health_parts: tuple[tuple[str, int, int], ...]
    action_points: tuple[int, int]
    move: int
    weapons: tuple[WeaponFacts, ...]
    statuses: tuple[StatusFacts, ...]
    leader: bool = False
    acted: bool = False
    fights: bool = True
    items: tuple[str, ...] = ()
    value: float = 1.0


@dataclass(frozen=True, slots=True)
class PathReaction:
    """An attack a walk would set off: who makes it, what kind ("opportunity attack", "hold fire",
    "covering fire"), the index of the path's hex where it happens and its exact odds there."""

    reactor: int
    kind: str
    step: int
    preview: AttackPreview | None
    chance: Fraction = Fraction(1)  # how likely it happens at all (1: certainly)
