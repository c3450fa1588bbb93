"""Through the Rift: rolling an attack (roll_attack), the per-die exact distribution, and multipliers."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules.rift.stress import (
    DiceTraits,
    Shot,
    WeaponStats,
    apply_multipliers,
    die_outcomes,
    effective_traits,
    reroll_faces,
    roll_attack,
)

HALF, QUARTER, FOUR = Fraction(1, 2), Fraction(1, 4), Fraction(4)

# Weapon blocks built here, as the book prints them (the engine's data file is the one weapon table).
MODEL_4 = WeaponStats('"Standard" MDTC Model 4 Pistol', 3, 6, 5, 6)
MODEL_13 = WeaponStats('"Outset Special" MDTC Model 13 Rifle', 2, 10, 7, 8)
SULLIVAN_870 = WeaponStats("Sullivan 870 Heavy Machine Gun", 3, 4, 2, 8)
PEASHOOTERS = WeaponStats('Deft Labs "Digital Peashooters"', 1, 0, 1, 8)
OBLITERATOR = WeaponStats('Deft Labs "Obliterator"', 1, 100, 96, 6)
ANTIPERSONNEL = WeaponStats("MDTC Antipersonnel Grenade", 2, 6, 5, 6, radius=1)


# -- multipliers ---------------------------------------------------------------------------------------


def test_multipliers_are_multiplicative_and_round_down() -> None:
    """ "Many effects ½ or double the total stress. These effects are multiplicative, to a minimum of ¼
    and a maximum of 4x. When this results in a fraction, always round down to a minimum of 1." """
    assert apply_multipliers(7, []) == 7
    assert apply_multipliers(7, [HALF]) == 3
    assert apply_multipliers(7, [HALF, HALF]) == 1
    assert apply_multipliers(9, [FOUR, HALF]) == 18
    assert apply_multipliers(1, [HALF]) == 1  # "to a minimum of 1"


def test_multipliers_are_limited_to_a_quarter_and_four_times() -> None:
    """ "the 1/4x to 4x multiplier limit always applies" """
    assert apply_multipliers(8, [HALF, HALF, HALF]) == 2  # 1/8 -> 1/4
    assert apply_multipliers(5, [FOUR, Fraction(2)]) == 20  # 8x -> 4x
    assert apply_multipliers(10, [FOUR, HALF, HALF, HALF]) == 5  # 1/2 inside the limit


def test_bullet_sponge_still_cannot_go_below_a_quarter() -> None:
    """Bullet Sponge: "You innately take 1/2 stress. (It still can't be reduced to less than 1/4)" """
    assert apply_multipliers(12, [HALF, HALF, HALF]) == 3


def test_a_miss_stays_zero_and_prevention_is_not_a_multiplier() -> None:
    assert apply_multipliers(0, [FOUR]) == 0
    with pytest.raises(ValueError, match="prevented"):
        apply_multipliers(5, [Fraction(0)])


@given(
    st.integers(min_value=1, max_value=500),
    st.lists(st.sampled_from([QUARTER, HALF, Fraction(2), FOUR]), max_size=6),
)
def test_multiplied_stress_stays_within_the_limits(stress: int, factors: list[Fraction]) -> None:
    result = apply_multipliers(stress, factors)
    assert max(1, stress // 4) <= result <= 4 * stress


# -- rolling -------------------------------------------------------------------------------------------

traits_strategy = st.builds(
    DiceTraits,
    extra_dice_drop_lowest=st.integers(0, 2),
    reroll_low=st.booleans(),
    reroll_miss=st.booleans(),
    explode=st.sampled_from([0, 1, -1]),
    nudge=st.integers(0, 2),
)
weapon_strategy = st.builds(
    WeaponStats,
    name=st.just("test"),
    count=st.integers(1, 4),
    sides=st.integers(0, 12),
    threshold=st.integers(1, 14),
    range=st.just(6),
    radius=st.none() | st.integers(0, 2),
)


@settings(max_examples=200)
@given(weapon_strategy, traits_strategy, st.integers(0, 2**32))
def test_rolled_shots_are_consistent(weapon: WeaponStats, traits: DiceTraits, seed: int) -> None:
    shots = roll_attack(random.Random(seed), weapon, traits)
    assert shots == roll_attack(random.Random(seed), weapon, traits)  # the seed replays
    assert len(shots) == weapon.count
    used = effective_traits(weapon, traits)
    bonus = 2 * used.nudge
    for shot in shots:
        assert shot.hit == (shot.value >= weapon.threshold)
        assert all(0 <= r <= weapon.sides for r in shot.rolls)
        assert shot.value >= bonus + min(1, weapon.sides)
        if used.explode == 0:
            assert shot.value <= weapon.sides + bonus
        assert len(shot.rolls) >= 1
    outcomes = die_outcomes(weapon, traits, depth=30)
    assert sum(outcomes.values.values()) + outcomes.tail == 1
    for shot in shots:
        assert shot.value in outcomes.values or shot.value >= outcomes.tail_from


def test_the_model_4_rolls_three_dice_checked_separately() -> None:
    """ "Check each die separately against the threshold value. A result equal or higher is a success.
    (The stress inflicted (on a success) is equal to the rolled value)" """
    shots = roll_attack(random.Random(3), MODEL_4, DiceTraits())
    assert len(shots) == 3
    assert all(s.rolls == (s.value,) and s.hit == (s.value >= 5) for s in shots)


class Scripted(random.Random):
    """An RNG that plays back given faces and says when it runs out (to walk every possible roll)."""

    class ExhaustedError(Exception):
        pass

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = faces
        self.used = 0

    def randint(self, a: int, b: int) -> int:
        if self.used == len(self.faces):
            raise Scripted.ExhaustedError
        self.used += 1
        return self.faces[self.used - 1]


def enumerate_attack(
    weapon: WeaponStats, traits: DiceTraits, max_rolls: int = 14
) -> tuple[Counter[tuple[int, ...]], Fraction]:
    """Every possible roll of ``roll_attack`` walked exactly: kept values (sorted) -> probability, plus the
    probability of the walks cut at ``max_rolls`` faces (long explosion chains)."""
    result: Counter[tuple[int, ...]] = Counter()
    cut = Fraction(0)
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while stack:
        faces, p = stack.pop()
        try:
            shots = roll_attack(Scripted(faces), weapon, traits)
        except Scripted.ExhaustedError:
            if len(faces) == max_rolls:
                cut += p
                continue
            stack.extend(([*faces, f], p / weapon.sides) for f in range(1, weapon.sides + 1))
            continue
        result[tuple(sorted(s.value for s in shots))] += p  # type: ignore[assignment]
    return result, cut


def exact_attack(weapon: WeaponStats, traits: DiceTraits) -> Counter[tuple[int, ...]]:
    """The same from die_outcomes: independent dice, then the k lowest dropped."""
    outcome = die_outcomes(weapon, traits)
    assert outcome.tail == 0
    used = effective_traits(weapon, traits)
    dice = weapon.count + used.extra_dice_drop_lowest
    result: Counter[tuple[int, ...]] = Counter()
    for values in itertools.product(outcome.values.items(), repeat=dice):
        p = Fraction(1)
        for _, q in values:
            p *= q
        kept = sorted(v for v, _ in values)[used.extra_dice_drop_lowest :]
        result[tuple(kept)] += p  # type: ignore[assignment]
    return result


SMALL_CASES = [
    (WeaponStats("2d4 4+", 2, 4, 4, 6), DiceTraits(extra_dice_drop_lowest=1)),
    (WeaponStats("1d4 3+", 1, 4, 3, 6), DiceTraits(extra_dice_drop_lowest=2, reroll_low=True)),
    (WeaponStats("2d3 3+", 2, 3, 3, 6), DiceTraits(reroll_low=True, reroll_miss=True, explode=1)),
    (WeaponStats("1d4 4+", 1, 4, 4, 6), DiceTraits(reroll_low=True, nudge=1)),
    (WeaponStats("2d4 2+", 2, 4, 2, 6, radius=1), DiceTraits(explode=1, reroll_low=True)),
    (WeaponStats("1d3 5+", 1, 3, 5, 6), DiceTraits(reroll_miss=True, explode=1, extra_dice_drop_lowest=1)),
    (WeaponStats("1d0 1+", 1, 0, 1, 8), DiceTraits(nudge=1)),
]


@pytest.mark.parametrize(("weapon", "traits"), SMALL_CASES, ids=[w.name for w, _ in SMALL_CASES])
def test_the_procedure_is_the_exact_distribution(weapon: WeaponStats, traits: DiceTraits) -> None:
    """Walking every roll of roll_attack gives exactly the distribution the odds are computed from."""
    walked, cut = enumerate_attack(weapon, traits)
    assert cut == 0
    assert walked == exact_attack(weapon, traits)


def test_improved_fireworks_chains_match_up_to_the_tail() -> None:
    """Improved Fireworks: "Any die displaying the maximum value explodes and is added." The walk, cut at
    a chain length, agrees with the per-die distribution up to its tail bucket."""
    weapon = WeaponStats("1d3 2+", 1, 3, 2, 6)
    traits = DiceTraits(explode=-1)
    walked, cut = enumerate_attack(weapon, traits, max_rolls=5)
    outcome = die_outcomes(weapon, traits, depth=4)
    assert cut == outcome.tail == Fraction(1, 3**5)
    assert {v[0]: p for v, p in walked.items()} == outcome.values
    assert outcome.tail_from == 3 * 5 + 1
    # E = 2 / (1 - 1/3) = 3, the geometric chain in closed form
    assert outcome.mean_value == 3


def test_spray_and_pray_rerolls_a_one_or_two_once() -> None:
    """Spray & Pray: "When firing your weapon, you may reroll a result of 1 or 2 once per die." """
    traits = DiceTraits(reroll_low=True)
    assert reroll_faces(MODEL_4, traits) == {1, 2}
    assert roll_attack(Scripted([1, 2, 6, 2, 3]), MODEL_4, traits) == [
        Shot(2, False, (1, 2)),  # the reroll stands even when it is low again
        Shot(6, True, (6,)),
        Shot(3, False, (2, 3)),
    ]


def test_improved_spray_and_pray_rerolls_any_miss_once() -> None:
    """Improved Spray & Pray: "When firing your weapon, you may now reroll a miss once per die." """
    traits = DiceTraits(reroll_low=True, reroll_miss=True)
    assert reroll_faces(MODEL_4, traits) == {1, 2, 3, 4}
    shots = roll_attack(Scripted([4, 5, 1, 1, 6]), MODEL_4, traits)
    assert shots == [Shot(5, True, (4, 5)), Shot(1, False, (1, 1)), Shot(6, True, (6,))]


def test_a_low_hit_is_kept_when_a_reroll_would_lose_stress() -> None:
    """ "you may reroll": a Nudged 2 on a 4+ d4 is 4 stress; a fresh die averages (0+4+5+6)/4 < 4."""
    weapon = WeaponStats("1d4 4+", 1, 4, 4, 6)
    assert reroll_faces(weapon, DiceTraits(reroll_low=True, nudge=1)) == {1}
    assert reroll_faces(SULLIVAN_870, DiceTraits(reroll_low=True)) == {1, 2}  # a 2 hits, 2.25 > 2


def test_firearm_mastery_rolls_three_dice_and_drops_the_lowest() -> None:
    """ "If your weapon has two shots roll three dice, drop the lowest, and then assign the remaining two
    if they hit." """
    shots = roll_attack(Scripted([3, 9, 7]), MODEL_13, DiceTraits(extra_dice_drop_lowest=1))
    assert shots == [Shot(9, True, (9,)), Shot(7, True, (7,))]
    improved = DiceTraits(extra_dice_drop_lowest=2)  # "roll two additional dice and drop the lowest two"
    shots = roll_attack(Scripted([3, 9, 7, 1]), MODEL_13, improved)
    assert shots == [Shot(9, True, (9,)), Shot(7, True, (7,))]
    # the drop is after rerolls and explosions: the lowest final values go
    both = DiceTraits(extra_dice_drop_lowest=1, reroll_low=True)
    assert roll_attack(Scripted([1, 10, 4, 5]), MODEL_13, both) == [
        Shot(10, True, (1, 10)),
        Shot(5, False, (5,)),
    ]


def test_bring_the_fireworks_adds_one_die_on_a_maximum() -> None:
    """ "When a die rolled for an explosive or firearm attack displays the maximum value, you may roll one
    additional die and add it to the result of the first die." """
    traits = DiceTraits(explode=1)
    assert roll_attack(Scripted([6, 6, 2]), ANTIPERSONNEL, traits) == [
        Shot(12, True, (6, 6)),  # the extra die does not explode again
        Shot(2, False, (2,)),
    ]
    improved = DiceTraits(explode=-1)  # "Any die displaying the maximum value explodes and is added."
    assert roll_attack(Scripted([6, 6, 6, 1, 5]), ANTIPERSONNEL, improved) == [
        Shot(19, True, (6, 6, 6, 1)),
        Shot(5, True, (5,)),
    ]


def test_explosives_take_only_fireworks() -> None:
    """Firearm Mastery and Spray & Pray act "when firing your weapon", Nudge on "the firearm roll"."""
    everything = DiceTraits(extra_dice_drop_lowest=2, reroll_low=True, reroll_miss=True, explode=1, nudge=3)
    assert effective_traits(ANTIPERSONNEL, everything) == DiceTraits(explode=1)
    assert effective_traits(MODEL_4, everything) == everything
    haymaker = WeaponStats("Haymaker", 2, 6, 2, 0, melee=True)  # "2d6 / 2+ / 0t", not a firearm
    assert effective_traits(haymaker, everything) == DiceTraits()


def test_nudge_adds_two_to_every_die_of_the_roll() -> None:
    """Nudge: "Treat the firearm roll of an ally within 6t as if it was 2 higher." -- "turn an ally's
    narrow miss into a hit, or a decent hit into an incredible one"."""
    shots = roll_attack(Scripted([3, 4, 6]), MODEL_4, DiceTraits(nudge=1))
    assert [(s.value, s.hit) for s in shots] == [(5, True), (6, True), (8, True)]
    shots = roll_attack(Scripted([1, 1, 1]), MODEL_4, DiceTraits(nudge=2))
    assert [(s.value, s.hit) for s in shots] == [(5, True)] * 3


def test_digital_peashooters_roll_a_zero_that_never_hits() -> None:
    """Deft Labs "Digital Peashooters": "1d0 / 1+ / 8t" -- a die of no sides shows 0, under the 1+."""
    assert roll_attack(random.Random(1), PEASHOOTERS, DiceTraits(explode=-1, reroll_miss=True)) == [
        Shot(0, False, (0,))
    ]
    assert die_outcomes(PEASHOOTERS, DiceTraits()).hit_probability == 0


def test_the_obliterator_hits_one_time_in_twenty() -> None:
    """Deft Labs "Obliterator": "1d100 / 96+ / 6t"."""
    outcome = die_outcomes(OBLITERATOR, DiceTraits())
    assert outcome.hit_probability == Fraction(5, 100)
    assert outcome.mean_value == Fraction(101, 2)
