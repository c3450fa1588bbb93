"""Exact odds of a Through the Rift attack: hits, the stress distribution and the expected stress.

Built on :func:`~game.rules.rift.stress.die_outcomes`, the exact distribution of the same per-die
procedure :func:`~game.rules.rift.stress.roll_attack` rolls. The dice of an attack are independent until
Firearm Mastery drops the lowest, so the attack is the top ``count`` of ``count + k`` independent draws:
a dynamic programme over the die values from the highest down (how many dice show each value, a
multinomial weight) gives the exact joint law of the kept dice without enumerating ``S ** (n + k)``
rolls. All arithmetic is on integers over one common denominator, then turned into Fractions.

Improved Fireworks makes the values unbounded. Chains longer than ``depth`` extra dice are lumped into a
tail: the stress distribution is exact below ``tail_from`` and carries every total from there up as one
exact ``>= tail_from`` bucket, so the probabilities still sum to exactly 1; the expected stress is then
given as exact lower and upper bounds (the upper bound a rigorous bound on the tail's contribution).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from game.dice import Distribution
from game.rules.rift.stress import (
    MAX_MULTIPLIER,
    DiceTraits,
    WeaponStats,
    apply_multipliers,
    clamp_multiplier,
    die_outcomes,
    effective_traits,
)

__all__ = [
    "DOWN_THE_SIGHTS",
    "HALF",
    "AttackOdds",
    "attack_odds",
    "tail_depth",
]

HALF = Fraction(1, 2)
DOWN_THE_SIGHTS = MAX_MULTIPLIER  # "The next shot you make that hits inflicts 4x as much stress."
DEFAULT_TAIL = Fraction(1, 10**6)


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """The exact odds of one attack with every hit assigned to one target.

    ``stress`` holds P(total = t) for every total below ``tail_from``; ``tail`` is P(total >= tail_from)
    (0 and ``tail_from`` None when the attack cannot explode without limit). ``mean_low`` and ``mean_high``
    bound the expected stress exactly; they are equal when there is no tail.
    """

    weapon: WeaponStats
    traits: DiceTraits  # as applied to this weapon (effective_traits)
    factors: tuple[Fraction, ...]
    down_the_sights: bool
    zeroed: bool
    dice_rolled: int
    hit_probability: Fraction  # each die rolled, before any is dropped
    hits: Distribution  # hits among the kept dice
    stress: dict[int, Fraction]
    tail: Fraction
    tail_from: int | None
    mean_low: Fraction
    mean_high: Fraction
    depth: int  # extra dice of an explosion chain computed exactly (Improved Fireworks)
    beyond_depth: Fraction = Fraction(0)  # P(some die's chain is longer than depth), inside ``tail``

    @property
    def exact(self) -> bool:
        return self.tail == 0

    @property
    def mean(self) -> Fraction:
        """The expected stress (exact when :attr:`exact`, else the lower bound)."""
        return self.mean_low

    @property
    def multiplier(self) -> Fraction:
        """The multiplier every hit takes (the ¼-4x limit applied)."""
        return clamp_multiplier(self.factors)


def tail_depth(weapon: WeaponStats, traits: DiceTraits, tail: Fraction = DEFAULT_TAIL) -> int:
    """The smallest chain depth whose tail (probability that any die of the attack explodes deeper) is
    at most ``tail``; 0 when the attack cannot explode without limit."""
    used = effective_traits(weapon, traits)
    if used.explode >= 0 or weapon.sides < 2:
        return 0
    dice = weapon.count + used.extra_dice_drop_lowest
    per_die = die_outcomes(weapon, used, depth=0).tail
    depth = 1
    while dice * per_die / weapon.sides**depth > tail:
        depth += 1
    return depth


def _binomial_hits(dice: int, kept: int, p: Fraction) -> Distribution:
    result: dict[int, Fraction] = {}
    for hits in range(dice + 1):
        q = math.comb(dice, hits) * p**hits * (1 - p) ** (dice - hits)
        result[min(hits, kept)] = result.get(min(hits, kept), Fraction(0)) + q
    return Distribution({k: v for k, v in result.items() if v})


def attack_odds(
    weapon: WeaponStats,
    traits: DiceTraits = DiceTraits(),  # noqa: B008 - frozen
    factors: tuple[Fraction, ...] = (),
    *,
    down_the_sights: bool = False,
    zeroed: bool = False,
    depth: int | None = None,
    tail: Fraction = DEFAULT_TAIL,
) -> AttackOdds:
    """The exact odds of ``weapon`` fired (or thrown) with ``traits``, every hit at one target.

    ``factors`` are the multipliers each hit takes (cover ½, Suppressed ½, Bullet Sponge ½, Piercing
    Fire's ½ ...), limited to ¼-4x and rounded down to at least 1 per shot. ``down_the_sights``: the
    highest kept hit also takes 4x (Down the Sights "only affects individual shots"; the attacker assigns
    the dice of a volley together, so it picks the best one). ``zeroed``: every hit is reduced to zero
    (Crouch Down behind existing cover). ``depth``: extra dice of an explosion chain computed exactly
    (default: deep enough that the tail is at most ``tail``).
    """
    used = effective_traits(weapon, traits)
    if depth is None:
        depth = tail_depth(weapon, used, tail)
    die = die_outcomes(weapon, used, depth=max(depth, 0))
    kept, dice = weapon.count, weapon.count + used.extra_dice_drop_lowest
    hits = _binomial_hits(dice, kept, die.hit_probability)
    if zeroed:  # Crouch Down: "If a shot would have already been halved ... it is instead reduced to zero."
        zero = Fraction(0)
        return AttackOdds(
            weapon, used, tuple(factors), down_the_sights, zeroed, dice, die.hit_probability, hits,
            {0: Fraction(1)}, zero, None, zero, zero, depth,
        )  # fmt: skip
    factor_list = list(factors)
    top_factors = [*factor_list, DOWN_THE_SIGHTS] if down_the_sights else factor_list

    def base(value: int) -> int:
        return apply_multipliers(value, factor_list)

    def top(value: int) -> int:
        return apply_multipliers(value, top_factors)

    # integer weights over one denominator
    denominator = math.lcm(*(p.denominator for p in die.values.values()), die.tail.denominator)
    weights = {v: int(p * denominator) for v, p in die.values.items()}
    tail_weight = int(die.tail * denominator)
    hit_values = sorted((v for v in weights if v >= weapon.threshold), reverse=True)
    below: dict[int, int] = {}
    running = sum(weights.values())
    for v in hit_values:
        running -= weights[v]
        below[v] = running  # weight of every finite value under v (misses included)
    miss_weight = sum(w for v, w in weights.items() if v < weapon.threshold)

    finished: dict[int, int] = {}
    states: dict[tuple[int, int, bool], int] = {(0, 0, down_the_sights): 1}
    for v in hit_values:
        w = weights[v]
        powers = [w**t for t in range(dice + 1)]
        nxt: dict[tuple[int, int, bool], int] = {}
        for (placed, total, pending), weight in states.items():
            left = dice - placed
            for t in range(left + 1):
                ways = weight * math.comb(left, t) * powers[t]
                if not ways:
                    continue
                taken = min(t, kept - placed)
                new_total, new_pending = total, pending
                if taken > 0:
                    if pending:
                        new_total += top(v) + (taken - 1) * base(v)
                        new_pending = False
                    else:
                        new_total += taken * base(v)
                if placed + t >= kept:  # every kept slot filled: the rest only need to be lower
                    rest = ways * below[v] ** (dice - placed - t)
                    finished[new_total] = finished.get(new_total, 0) + rest
                else:
                    key = (placed + t, new_total, new_pending)
                    nxt[key] = nxt.get(key, 0) + ways
        states = nxt
    for (placed, total, _), weight in states.items():
        finished[total] = finished.get(total, 0) + weight * miss_weight ** (dice - placed)

    scale = denominator**dice
    finite = {t: Fraction(w, scale) for t, w in finished.items() if w}
    mean_finite = sum((t * p for t, p in finite.items()), Fraction(0))
    tail_p = 1 - Fraction(denominator - tail_weight, denominator) ** dice
    if tail_p == 0:
        return AttackOdds(
            weapon, used, tuple(factors), down_the_sights, zeroed, dice, die.hit_probability, hits,
            dict(sorted(finite.items())), Fraction(0), None, mean_finite, mean_finite, depth,
        )  # fmt: skip
    # Every tail outcome has a tail die on top: kept, a hit, and the Down the Sights shot if any.
    cut = top(die.tail_from) if down_the_sights else base(die.tail_from)
    stress = {t: p for t, p in sorted(finite.items()) if t < cut}
    bucket = tail_p + sum((p for t, p in finite.items() if t >= cut), Fraction(0))
    low = mean_finite + tail_p * cut
    # E[total; tail] <= kept * P(tail) + M * sum_i E[V_i; tail], each shot being at most max(1, M * v)
    most = clamp_multiplier(top_factors)
    q = die.tail
    others = 1 - (1 - q) ** (dice - 1)
    high = mean_finite + kept * tail_p + most * dice * (die.tail_mean_value + die.mean_value * others)
    return AttackOdds(
        weapon, used, tuple(factors), down_the_sights, zeroed, dice, die.hit_probability, hits,
        stress, bucket, cut, low, high, depth, tail_p,
    )  # fmt: skip
