"""Through the Rift's dice and stress arithmetic: how an attack is rolled, and its exact odds.

One module holds both the rolling procedure (with the match RNG) and the exact distribution of that same
procedure (:func:`die_outcomes`), so what `hexslinger odds rift` and the UI preview promise is what the
engine rolls.

Rulebook: "Roll the number of dice associated with your firearm. Check each die separately against the
threshold value. A result equal or higher is a success. (The stress inflicted (on a success) is equal to
the rolled value)" and "Many effects ½ or double the total stress. These effects are multiplicative, to a
minimum of ¼ and a maximum of 4x. When this results in a fraction, always round down to a minimum of 1."

The procedure of one die (every die of an attack runs it independently, in this order):

1. roll the face (a "1d0" die shows 0 and rolls nothing);
2. reroll once (Spray & Pray: a face of 1 or 2; Improved Spray & Pray: also a miss) -- only when a fresh
   die is worth more stress on average than the die showing (:func:`reroll_faces`); the reroll stands,
   even if it is low again ("once per die");
3. explode the kept face (Bring the Fireworks): on the die's maximum roll one more die and add it; with
   Improved Fireworks every added die that shows the maximum explodes again. Extra dice are never
   rerolled. A die of fewer than 2 sides never explodes;
4. add Nudge: +2 per Nudge to the die's value (firearms only: "the firearm roll");
5. hit when the value >= threshold; a hit deals its value as stress.

Firearm Mastery rolls ``count + k`` dice, runs the procedure on each, and then drops the ``k`` lowest
values ("roll three dice, drop the lowest, and then assign the remaining two if they hit") -- dropping
after rerolls and explosions is the attacker's best choice, and it makes the dice independent until the
drop, so the exact odds are order statistics of one per-die distribution.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "MAX_MULTIPLIER",
    "MIN_MULTIPLIER",
    "DiceTraits",
    "DieOutcomes",
    "Shot",
    "WeaponStats",
    "apply_multipliers",
    "clamp_multiplier",
    "die_outcomes",
    "effective_traits",
    "reroll_faces",
    "roll_attack",
    "roll_dice",
]

MIN_MULTIPLIER = Fraction(1, 4)
MAX_MULTIPLIER = Fraction(4)
NUDGE_BONUS = 2  # Nudge: "Treat the firearm roll of an ally within 6t as if it was 2 higher."


@dataclass(frozen=True, slots=True)
class WeaponStats:
    """A weapon block: "3d6 / 5+ / 6t" (count, sides, threshold, range) and "/ r1" for explosives.

    ``sides`` may be 0 for Deft Labs "Digital Peashooters" ("1d0 / 1+ / 8t"): such a die shows 0.
    """

    name: str
    count: int
    sides: int
    threshold: int
    range: int
    radius: int | None = None  # explosives only
    melee: bool = False  # Pugilist's Haymaker: an attack that is neither fired nor thrown

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"{self.name}: a weapon rolls at least one die, not {self.count}")
        if self.sides < 0:
            raise ValueError(f"{self.name}: a die cannot have {self.sides} sides")
        if self.radius is not None and self.radius < 0:
            raise ValueError(f"{self.name}: radius {self.radius}")

    @property
    def explosive(self) -> bool:
        return self.radius is not None

    @property
    def block(self) -> str:
        """The weapon block as the book writes it: "2d10 / 7+ / 8t" (and "/ r1")."""
        text = f"{self.count}d{self.sides} / {self.threshold}+ / {self.range}t"
        return text if self.radius is None else f"{text} / r{self.radius}"


@dataclass(frozen=True, slots=True)
class DiceTraits:
    """What the attacker's traits and the moment do to the dice (all off by default)."""

    extra_dice_drop_lowest: int = 0  # Firearm Mastery 1, Improved Firearm Mastery 2
    reroll_low: bool = False  # Spray & Pray: reroll a 1 or 2 once per die
    reroll_miss: bool = False  # Improved Spray & Pray: reroll a miss once per die
    explode: int = 0  # Bring the Fireworks: 1 extra die on a maximum; -1 = Improved (no limit)
    nudge: int = 0  # Nudge: "Treat the firearm roll ... as if it was 2 higher" (+2 per Nudge)

    def __post_init__(self) -> None:
        if self.extra_dice_drop_lowest < 0 or self.nudge < 0 or self.explode < -1:
            raise ValueError(f"invalid dice traits {self}")


@dataclass(frozen=True, slots=True)
class Shot:
    """One die of an attack after its traits: ``value`` is the stress it deals if ``hit``."""

    value: int
    hit: bool
    rolls: tuple[int, ...]  # every face rolled for this die, in order (rerolls, explosions), for the log


def effective_traits(weapon: WeaponStats, traits: DiceTraits) -> DiceTraits:
    """The traits that apply to this weapon.

    Firearm Mastery and Spray & Pray act "when firing your weapon" and Nudge on "the firearm roll":
    firearms only (an explosive is used, not fired). Bring the Fireworks names both ("a die rolled for an
    explosive or firearm attack"). A melee attack (Haymaker) takes none of them.
    """
    if weapon.melee:
        return DiceTraits()
    if weapon.explosive:
        return DiceTraits(explode=traits.explode)
    return traits


def _unlimited(traits: DiceTraits) -> bool:
    return traits.explode < 0


def _explodes(weapon: WeaponStats, traits: DiceTraits) -> bool:
    return traits.explode != 0 and weapon.sides >= 2


def _chain_mean(sides: int, explode: int) -> Fraction:
    """Mean of the dice added after a maximum (a plain die, exploding again if unlimited)."""
    plain = Fraction(sides + 1, 2)
    if explode < 0:
        return plain * sides / (sides - 1)  # E = plain + E/s
    return plain


def _face_mean(weapon: WeaponStats, traits: DiceTraits, face: int) -> Fraction:
    """Expected stress of a die whose kept face is ``face`` (explosions to come, no reroll left)."""
    bonus, threshold, sides = NUDGE_BONUS * traits.nudge, weapon.threshold, weapon.sides
    if not (_explodes(weapon, traits) and face == sides):
        value = face + bonus
        return Fraction(value if value >= threshold else 0)
    total, prob, mean, extra = face, Fraction(1), Fraction(0), 0
    while True:
        if not _unlimited(traits) and extra == traits.explode:
            value = total + bonus
            return mean + prob * (value if value >= threshold else 0)
        if _unlimited(traits) and total + 1 + bonus >= threshold:  # every continuation hits
            return mean + prob * (total + bonus + _chain_mean(sides, traits.explode))
        for extra_face in range(1, sides):
            value = total + extra_face + bonus
            mean += prob / sides * (value if value >= threshold else 0)
        total, prob, extra = total + sides, prob / sides, extra + 1


def reroll_faces(weapon: WeaponStats, traits: DiceTraits) -> frozenset[int]:
    """The first faces the attacker rerolls: allowed by Spray & Pray (1 or 2) or Improved Spray & Pray (a
    miss, counting Nudge), and worth it -- a fresh die's expected stress beats the die showing.

    ("you may reroll"): a 1 or 2 that already hits is kept when rerolling would lose stress on average
    (e.g. a Nudged 2 on a 4+ d4).
    """
    traits = effective_traits(weapon, traits)
    if weapon.sides < 1 or not (traits.reroll_low or traits.reroll_miss):
        return frozenset()
    bonus = NUDGE_BONUS * traits.nudge
    fresh = sum((_face_mean(weapon, traits, f) for f in range(1, weapon.sides + 1)), Fraction(0))
    fresh /= weapon.sides
    chosen = set()
    for face in range(1, weapon.sides + 1):
        allowed = (traits.reroll_low and face <= 2) or (
            traits.reroll_miss and face + bonus < weapon.threshold
        )
        if allowed and fresh > _face_mean(weapon, traits, face):
            chosen.add(face)
    return frozenset(chosen)


def _roll_die(
    rng: random.Random, weapon: WeaponStats, traits: DiceTraits, rerolled: frozenset[int]
) -> tuple[int, tuple[int, ...]]:
    sides = weapon.sides
    bonus = NUDGE_BONUS * traits.nudge
    if sides == 0:
        return bonus, (0,)
    face = rng.randint(1, sides)
    rolls = [face]
    if face in rerolled:
        face = rng.randint(1, sides)
        rolls.append(face)
    total = face
    if _explodes(weapon, traits):
        extra = 0
        last = face
        while last == sides and (_unlimited(traits) or extra < traits.explode):
            last = rng.randint(1, sides)
            rolls.append(last)
            total += last
            extra += 1
    return total + bonus, tuple(rolls)


def roll_attack(rng: random.Random, weapon: WeaponStats, traits: DiceTraits) -> list[Shot]:
    """Roll an attack with the match RNG; returns ``weapon.count`` shots (after dropping the lowest).

    The shots keep the order the dice were rolled in; of equal lowest values the earliest are dropped.
    """
    return roll_dice(rng, weapon, traits)[0]


def roll_dice(rng: random.Random, weapon: WeaponStats, traits: DiceTraits) -> tuple[list[Shot], list[Shot]]:
    """:func:`roll_attack` with the dice Firearm Mastery dropped: (kept shots, dropped dice), each in the
    order rolled (the same RNG draws as :func:`roll_attack`)."""
    traits = effective_traits(weapon, traits)
    rerolled = reroll_faces(weapon, traits)
    dice = [
        _roll_die(rng, weapon, traits, rerolled) for _ in range(weapon.count + traits.extra_dice_drop_lowest)
    ]
    dropped = set(sorted(range(len(dice)), key=lambda i: (dice[i][0], i))[: traits.extra_dice_drop_lowest])
    shots = [Shot(value=value, hit=value >= weapon.threshold, rolls=rolls) for value, rolls in dice]
    return (
        [s for i, s in enumerate(shots) if i not in dropped],
        [s for i, s in enumerate(shots) if i in dropped],
    )


@dataclass(frozen=True, slots=True)
class DieOutcomes:
    """The exact distribution of one die's final value after the per-die procedure.

    ``values`` maps each value to its probability. With Improved Fireworks the values are infinite: every
    chain of more than ``depth`` extra dice is lumped into ``tail`` (its probability), whose values are all
    at least ``tail_from``. ``values`` plus ``tail`` sum to exactly 1.
    """

    values: dict[int, Fraction]
    tail: Fraction
    tail_from: int
    hit_probability: Fraction
    mean_value: Fraction  # exact, tail included (closed form of the geometric chain)
    tail_mean_value: Fraction  # exact E[value; tail]


def die_outcomes(weapon: WeaponStats, traits: DiceTraits, depth: int = 8) -> DieOutcomes:
    """The exact distribution of one die (see the module docstring), chains deeper than ``depth`` extra dice
    lumped into the tail (Improved Fireworks only)."""
    traits = effective_traits(weapon, traits)
    sides, bonus = weapon.sides, NUDGE_BONUS * traits.nudge
    if sides == 0:
        value = bonus
        return DieOutcomes(
            {value: Fraction(1)},
            Fraction(0),
            value + 1,
            Fraction(1 if value >= weapon.threshold else 0),
            Fraction(value),
            Fraction(0),
        )
    while _unlimited(traits) and sides + sides * depth + 1 + bonus < weapon.threshold:
        depth += 1  # the tail must be all hits
    rerolled = reroll_faces(weapon, traits)
    one = Fraction(1, sides)
    kept = {
        f: (Fraction(0) if f in rerolled else one) + one * len(rerolled) * one for f in range(1, sides + 1)
    }
    values: dict[int, Fraction] = {}
    tail = Fraction(0)
    tail_from = 0
    tail_mean = Fraction(0)

    def add(value: int, p: Fraction) -> None:
        values[value] = values.get(value, Fraction(0)) + p

    explodes = _explodes(weapon, traits)
    for face, p in kept.items():
        if not (explodes and face == sides):
            add(face + bonus, p)
            continue
        limit = depth if _unlimited(traits) else traits.explode
        # chain: ``extra`` dice added so far, running total, probability
        total, prob = face, p
        for extra in range(1, limit + 1):
            for extra_face in range(1, sides):
                add(total + extra_face + bonus, prob * one)
            total += sides
            prob *= one
            if extra == limit:
                if _unlimited(traits):
                    tail = prob
                    tail_from = total + 1 + bonus
                    tail_mean = prob * (total + bonus + _chain_mean(sides, traits.explode))
                else:
                    add(total + bonus, prob)
        if limit == 0:  # depth 0 with unlimited explosions: the whole maximum is tail
            tail, tail_from = p, face + 1 + bonus
            tail_mean = p * (face + bonus + _chain_mean(sides, traits.explode))
    mean = sum((v * q for v, q in values.items()), Fraction(0)) + tail_mean
    hit = sum((q for v, q in values.items() if v >= weapon.threshold), Fraction(0)) + tail
    return DieOutcomes(dict(sorted(values.items())), tail, tail_from, hit, mean, tail_mean)


def clamp_multiplier(factors: Iterable[Fraction]) -> Fraction:
    """The product of the factors limited to [¼, 4] ("a minimum of ¼ and a maximum of 4x")."""
    product = Fraction(1)
    for factor in factors:
        if factor <= 0:
            raise ValueError(f"multiplier {factor}: stress that is prevented is not a multiplier")
        product *= Fraction(factor)
    return min(MAX_MULTIPLIER, max(MIN_MULTIPLIER, product))


def apply_multipliers(stress: int, factors: Iterable[Fraction]) -> int:
    """Stress after multiplicative effects: the product clamped to [¼, 4], rounded down, at least 1.

    A shot that deals no stress (0: a miss) stays 0 -- "to a minimum of 1" is for stress being dealt.

    (Effects that prevent or zero stress entirely -- Crouch Down behind real cover, "Duck!", Dodge Roll --
    are decided by the engine before this is called.)
    """
    multiplier = clamp_multiplier(factors)
    if stress <= 0:
        return 0
    return max(1, math.floor(stress * multiplier))
