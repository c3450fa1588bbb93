"""Through the Rift's dice and stress arithmetic: how an attack is rolled, and its exact odds.

One module holds both the rolling procedure (with the match RNG) and the exact distribution of that same
procedure, so what `hexslinger odds rift` and the UI preview promise is what the engine rolls.

Rulebook: "Roll the number of dice associated with your firearm. Check each die separately against the
threshold value. A result equal or higher is a success. (The stress inflicted (on a success) is equal to
the rolled value)" and "Many effects ½ or double the total stress. These effects are multiplicative, to a
minimum of ¼ and a maximum of 4x. When this results in a fraction, always round down to a minimum of 1."

STUB: the interface the engine relies on. Implemented by the stress/odds developer.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "MAX_MULTIPLIER",
    "MIN_MULTIPLIER",
    "DiceTraits",
    "Shot",
    "WeaponStats",
    "apply_multipliers",
    "roll_attack",
]

MIN_MULTIPLIER = Fraction(1, 4)
MAX_MULTIPLIER = Fraction(4)


@dataclass(frozen=True, slots=True)
class WeaponStats:
    """A weapon block: "3d6 / 5+ / 6t" (count, sides, threshold, range) and "/ r1" for explosives."""

    name: str
    count: int
    sides: int
    threshold: int
    range: int
    radius: int | None = None  # explosives only

    @property
    def explosive(self) -> bool:
        return self.radius is not None


@dataclass(frozen=True, slots=True)
class DiceTraits:
    """What the attacker's traits and the moment do to the dice (all off by default)."""

    extra_dice_drop_lowest: int = 0  # Firearm Mastery 1, Improved Firearm Mastery 2
    reroll_low: bool = False  # Spray & Pray: reroll a 1 or 2 once per die
    reroll_miss: bool = False  # Improved Spray & Pray: reroll a miss once per die
    explode: int = 0  # Bring the Fireworks: 1 extra die on a maximum; -1 = Improved (no limit)
    nudge: int = 0  # Nudge: "Treat the firearm roll ... as if it was 2 higher" (+2 per Nudge)


@dataclass(frozen=True, slots=True)
class Shot:
    """One die of an attack after its traits: ``value`` is the stress it deals if ``hit``."""

    value: int
    hit: bool
    rolls: tuple[int, ...]  # every face rolled for this die, in order (rerolls, explosions), for the log


def roll_attack(rng: random.Random, weapon: WeaponStats, traits: DiceTraits) -> list[Shot]:
    """Roll an attack with the match RNG; returns ``weapon.count`` shots (after dropping the lowest)."""
    raise NotImplementedError


def apply_multipliers(stress: int, factors: Iterable[Fraction]) -> int:
    """Stress after multiplicative effects: the product clamped to [¼, 4], rounded down, at least 1.

    (Effects that prevent or zero stress entirely -- Crouch Down behind real cover, "Duck!", Dodge Roll --
    are decided by the engine before this is called.)
    """
    raise NotImplementedError
