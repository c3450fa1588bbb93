"""Dice, the Frontier initiative deck and exact distributions."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.dice import Distribution, d, roll
from game.engine.cards import frontier_14


def test_frontier_deck_is_the_spades_suit_and_a_red_joker() -> None:
    """ "a deck of 14 cards, the whole suit of Spades (Ace through King) and a red Joker"."""
    deck = frontier_14().cards()
    assert len(deck) == 14
    jokers = [c for c in deck if c.is_joker]
    assert [c.name for c in jokers] == ["Red Joker"]
    spades = [c for c in deck if not c.is_joker]
    assert all(c.name.endswith("of Spades") for c in spades)


def test_ace_is_one_and_king_is_thirteen() -> None:
    """ "Ace acts as a 1, King as 13"."""
    spec = frontier_14()
    values = {c.name: spec.value_of(c.id) for c in spec.cards()}
    assert values["Ace of Spades"] == 1
    assert values["King of Spades"] == 13
    assert sorted(v for n, v in values.items() if n != "Red Joker") == list(range(1, 14))


def test_rolls_replay_from_the_same_seed() -> None:
    assert roll(random.Random(7), 6, 20) == roll(random.Random(7), 6, 20)
    assert all(1 <= v <= 6 for v in roll(random.Random(1), 6, 200))
    with pytest.raises(ValueError, match="cannot roll"):
        roll(random.Random(1), 0)


def test_d6_check_odds() -> None:
    """Frontier checks: "roll 1d6 and add any modifiers ... If the number is equal to or greater than the
    number in the skill then the check succeeds" -- a 4+ skill with +1 succeeds on 3..6."""
    assert (d(6) + 1).at_least(4) == Fraction(4, 6)
    assert d(6).at_least(7) == 0
    assert d(6).at_least(1) == 1


def test_2d6_is_triangular() -> None:
    two = d(6, 2)
    assert two.probability(7) == Fraction(6, 36)
    assert two.probability(2) == Fraction(1, 36)
    assert two.mean == 7


def test_distribution_rejects_bad_probabilities() -> None:
    with pytest.raises(ValueError, match="sum to"):
        Distribution({1: Fraction(1, 2)})
    with pytest.raises(ValueError, match="at least one"):
        Distribution.uniform([])


def test_mixture_and_weights() -> None:
    mixed = Distribution.mixture([(Fraction(1, 2), Distribution.constant(0)), (Fraction(1, 2), d(4))])
    assert mixed.probability(0) == Fraction(1, 2)
    assert mixed.mean == Fraction(5, 4)
    assert Distribution.from_weights({1: 1, 2: 3}).probability(2) == Fraction(3, 4)


@given(st.integers(1, 12), st.integers(0, 4))
def test_sum_of_dice_mean_and_total(sides: int, count: int) -> None:
    dist = d(sides, count)
    assert sum(p for _, p in dist) == 1
    assert dist.mean == Fraction(count * (sides + 1), 2)
