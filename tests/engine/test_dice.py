"""game.engine.dice: acing dice in closed form, opposed rolls, card tie-breaks, keep-best pools, symbol dice.

Closed forms are checked three ways: exact identities, brute-force enumeration of the rolling procedure cut
at a depth whose left-out mass is known exactly (so the closed form must lie within it), and seeded
Monte-Carlo runs of the rollers (a fixed seed: a tolerance of several standard deviations cannot flake).
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.dice import Distribution, d
from game.engine.cards import Deck, DeckEmptyError, frontier_14, standard_54
from game.engine.dice import (
    BULLET_BLACK,
    BULLET_GOLD,
    BULLET_HITS,
    ExplodingDie,
    Opposed,
    SymbolDie,
    card_tie_break,
    deck_tie_break,
    difference,
    keep_best,
    opposed,
    roll_keep_best,
    roll_symbols,
    symbol_pool,
)
from tests.engine.rulebooks import ROOT, Quotes

Q = Quotes()
GF = standard_54()

ACE = Q(
    "golden",
    "An ace occurs when the character rolls the highest number on the die they are rolling. An example is "
    "rolling a six on a six-sided die. When a player aces, the number rolled is added to the characters "
    "current roll, rolls start at zero, and the player may roll their die again. A character may ace "
    "multiple times.",
)
CLEM = Q(
    "golden",
    "Clem first rolls a 6 and aces. Clem aces a second time and on his third roll gets a 5. This gives Clem "
    "a total of 17 for his accuracy ( 6 + 6 + 5 = 17 ).",
)
CLEM_MODIFIER = Q("golden", "Clem : Rolls a five, which goes to six thanks to Clem's modifier.")
OPPOSED_ACE = Q(
    "golden",
    "To hit a target the attacking character rolls dice associated with their weapon adding any modifiers. "
    "The defending character rolls dice based on their reflexes adding in modifiers. The results may either "
    "be a hit, miss, or tie. These rolls may ace",
)
HIT = Q("golden", "An attack hits if the attackers number is higher than the defenders.")
TIE = Q(
    "golden",
    "If both attackers and defenders numbers are equal then the attacker and defender each draw a card from "
    "the top of the deck, placing the card face up in front of them. If the attacker draws the higher card "
    "then a hit is scored, if the defenders card is higher than the attack is a miss.",
)
SUCCESS = Q("golden", "A roll equal to or greater than the TN.")
BULLET_TABLE = [
    Q("bullet", "If using a standard d6 instead, use the following distribution:"),
    Q("bullet", "| D6 | Black | Gold |"),
    Q("bullet", "| 1 | Blank | Blank |"),
    Q("bullet", "| 2 | Blank | Spur |"),
    Q("bullet", "| 3 | Spur | Hit |"),
    Q("bullet", "| 4 | Hit | Hit |"),
    Q("bullet", "| 5 | Hit | Hit |"),
    Q("bullet", "| 6 | Ace | Ace |"),
]
ACE_IS_TWO_HITS = Q("bullet", "Equal to 2 Hits.")
REROLL_SPURS = Q("bullet", "Reroll Spurs until a different result is rolled.")
DEFENCE = Q(
    "bullet",
    "Every time an attack is made or a Status is inflicted, roll the target's Defense and subtract the Hits "
    "from the incoming attack or Status.",
)
HEAVY_COVER = Q("bullet", "| Heavy Cover | 2B |")
CHALLENGE = Q(
    "bullet",
    "Whoever has the most Hits is successful in winning the challenge. If there's a tie, that means the "
    "struggle ain't over yet! Roll again until a winner is determined.",
)
TURN_ORDER = Q("bullet", "Greatest number of hits goes first. Roll again to break ties.")
GENERAL_ROLL = Q(
    "sunset",
    "To make the roll the Player rolls a number of dice equal to the Major Aspect the Skill is based in, "
    "keeping the amount of dice equal to the Skill, and then adding them up and giving the result.",
)
HORSE = Q(
    "sunset",
    "Rolling 9 dice you get 6, 6, 4, 5, 2, 1, 3, 4, and 4. Keeping the best 5 dice you have 6, 6, 5, 4, "
    "and 4 for a result of 25.",
)
KEEP_ALL = Q(
    "sunset", "the Character can only roll a number of dice equal to the Major Aspect keeping all of them."
)
SUNSET_OPPOSED = Q(
    "sunset",
    "Both Players, or the Player and the Dealer, make general rolls and compare results with the higher "
    "result winning.",
)


def test_every_quote_is_word_for_word_in_its_rulebook() -> None:
    Q.check()


class Scripted(random.Random):
    """A Random whose randint answers from a script (to replay the rulebooks' worked examples)."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        value = self.faces.pop(0)
        assert a <= value <= b
        return value


def enumerate_acing(sides: int, depth: int) -> tuple[dict[int, Fraction], Fraction]:
    """Brute force: walk the rolling procedure face by face, at most ``depth`` aces deep.

    Returns the law of the totals reached and the mass left out (chains of more than ``depth`` aces)."""
    law: dict[int, Fraction] = {}
    left_out = Fraction(0)
    stack = [(0, 0, Fraction(1))]  # aces so far, running total, probability
    while stack:
        aces, total, p = stack.pop()
        for face in range(1, sides + 1):
            q = p / sides
            if face < sides:
                law[total + face] = law.get(total + face, Fraction(0)) + q
            elif aces < depth:
                stack.append((aces + 1, total + face, q))
            else:
                left_out += q
    return law, left_out


def deep_enough(sides: int) -> int:
    """A depth whose left-out mass sides**-(depth+1) is below 10**-9."""
    depth = 0
    while sides ** (depth + 1) <= 10**9:
        depth += 1
    return depth


def shift(law: dict[int, Fraction], by: int) -> dict[int, Fraction]:
    return {v + by: p for v, p in law.items()}


# -- acing dice ----------------------------------------------------------------------------------------
def test_an_ace_is_added_and_rolled_again() -> None:
    assert ACE and CLEM
    die = ExplodingDie(6)
    assert die.roll_faces(Scripted([6, 6, 5])) == [6, 6, 5]
    assert die.roll(Scripted([6, 6, 5])) == 17
    assert die.roll(Scripted([3])) == 3
    assert die.probability(17) == Fraction(1, 6**3)  # two aces, then a 5
    assert ExplodingDie(4).roll(Scripted([4, 4, 4, 1])) == 13


def test_the_modifier_is_added_once_to_the_total() -> None:
    assert CLEM_MODIFIER and OPPOSED_ACE
    die = ExplodingDie(6, 1)
    assert die.roll(Scripted([5])) == 6
    assert die.roll(Scripted([6, 6, 2])) == 15  # not +1 per die rolled
    assert die.probability(6) == Fraction(1, 6)
    assert die.probability(7) == 0  # a bare 6 is an ace and is never a total
    assert (ExplodingDie(6) + 1) == die
    assert str(die) == "d6+1 (aces)"


def test_acing_totals_in_closed_form() -> None:
    die = ExplodingDie(6)
    assert [die.probability(t) for t in range(-1, 8)] == [0, 0, *[Fraction(1, 6)] * 5, 0, Fraction(1, 36)]
    assert die.probability(12) == 0
    assert die.probability(18) == 0
    assert die.at_least(1) == 1
    assert die.at_least(6) == Fraction(1, 6)
    assert die.at_least(7) == Fraction(1, 6)  # 6 then anything
    assert die.at_least(8) == Fraction(5, 36)
    assert die.at_least(13) == Fraction(1, 36)
    assert die.at_most(5) == Fraction(5, 6)
    assert die.mean == Fraction(21, 5)


@pytest.mark.parametrize("sides", [2, 3, 4, 6, 8, 10, 12, 20])
def test_acing_law_against_brute_force_enumeration(sides: int) -> None:
    depth = 6
    law, left_out = enumerate_acing(sides, depth)
    assert left_out == Fraction(1, sides ** (depth + 1))
    die = ExplodingDie(sides)
    top = sides * (depth + 1)  # every total below this needs at most `depth` aces
    for t in range(-2, top):
        assert die.probability(t) == law.get(t, 0), t
    assert sum(die.probability(t) for t in range(top)) == 1 - left_out
    for t in range(-2, top + sides):
        reached = sum((p for v, p in law.items() if v >= t), Fraction(0))
        # the closed form lies within the mass the enumeration left out
        assert reached <= die.at_least(t) <= reached + left_out, t
    # the mean: past `depth` aces the chain starts afresh (E[T; more aces] = left_out * (top + E[T]))
    truncated_mean = sum((v * p for v, p in law.items()), Fraction(0))
    assert die.mean == truncated_mean + left_out * (top + die.mean)


def test_a_skill_check_succeeds_on_equal_or_greater() -> None:
    assert SUCCESS
    # a d8 (+1, "Above Average") against a target number of 9: 8 and more on the die
    check = ExplodingDie(8, 1)
    assert check.at_least(9) == Fraction(1, 8)
    assert check.at_least(10) == Fraction(1, 8)  # an 8 aces and adds at least 1
    assert check.at_least(11) == Fraction(7, 64)


def test_capped_law_is_finite_and_exact() -> None:
    die = ExplodingDie(6, -1)
    capped = die.capped(15)
    assert sum(p for _, p in capped) == 1
    assert capped.probability(15) == die.at_least(15)
    assert capped.probability(10) == die.probability(10)
    assert ExplodingDie(6).capped(1) == Distribution.constant(1)
    assert opposed(capped, Distribution.constant(9)) == opposed(die, Distribution.constant(9))


def test_acing_roller_matches_the_law() -> None:
    rng = random.Random(2024)
    die = ExplodingDie(4, 1)
    trials = 40_000
    totals = Counter(die.roll(rng) for _ in range(trials))
    for t in (2, 4, 5, 6, 9, 10, 14):
        seen = sum(n for v, n in totals.items() if v >= t) / trials
        assert abs(seen - float(die.at_least(t))) < 0.012, t
    mean = sum(v * n for v, n in totals.items()) / trials
    assert abs(mean - float(die.mean)) < 0.05


def test_a_one_sided_die_cannot_ace() -> None:
    with pytest.raises(ValueError, match="at least 2 sides"):
        ExplodingDie(1)


@given(st.integers(2, 20), st.integers(-5, 5), st.integers(-10, 80))
def test_at_least_is_monotone_and_consistent_with_the_points(sides: int, modifier: int, t: int) -> None:
    die = ExplodingDie(sides, modifier)
    assert die.at_least(t) >= die.at_least(t + 1)
    assert die.at_least(t) - die.at_least(t + 1) == die.probability(t)
    assert 0 <= die.at_least(t) <= 1


# -- opposed rolls -------------------------------------------------------------------------------------
def test_opposed_acing_d6_against_d6() -> None:
    """Ties: sum over k of 5 * 36**-(k+1) = 1/7; the rest splits evenly."""
    assert opposed(ExplodingDie(6), ExplodingDie(6)) == Opposed(
        Fraction(3, 7), Fraction(1, 7), Fraction(3, 7)
    )


def test_a_hit_needs_a_strictly_higher_number() -> None:
    assert HIT and SUNSET_OPPOSED
    assert opposed(Distribution.constant(3), Distribution.constant(3)) == Opposed(
        Fraction(0), Fraction(1), Fraction(0)
    )
    assert opposed(Distribution.constant(2), Distribution.constant(3)).lose == 1
    assert opposed(d(6), d(6)) == Opposed(Fraction(15, 36), Fraction(6, 36), Fraction(15, 36))


CASES = [
    (6, 0, 6, 0),
    (8, 0, 6, 1),
    (4, 0, 12, 3),
    (10, 2, 4, 0),
    (12, 3, 12, 0),
    (2, 0, 3, -2),
    (6, -4, 8, 5),
]


@pytest.mark.parametrize(("a_sides", "a_mod", "b_sides", "b_mod"), CASES)
def test_opposed_acing_against_brute_force_enumeration(
    a_sides: int, a_mod: int, b_sides: int, b_mod: int
) -> None:
    result = opposed(ExplodingDie(a_sides, a_mod), ExplodingDie(b_sides, b_mod))
    law_a, out_a = enumerate_acing(a_sides, deep_enough(a_sides))
    law_b, out_b = enumerate_acing(b_sides, deep_enough(b_sides))
    law_a, law_b = shift(law_a, a_mod), shift(law_b, b_mod)
    win = tie = lose = Fraction(0)
    for x, px in law_a.items():
        for y, py in law_b.items():
            if x > y:
                win += px * py
            elif x == y:
                tie += px * py
            else:
                lose += px * py
    bound = out_a + out_b  # no more mass than this was left out of the double sum
    assert bound < Fraction(1, 10**8)
    for exact, truncated in ((result.win, win), (result.tie, tie), (result.lose, lose)):
        assert truncated <= exact <= truncated + bound
    assert result.win + result.tie + result.lose == 1


@pytest.mark.parametrize(("a_sides", "a_mod", "b_sides", "b_mod"), CASES[:4])
def test_opposed_acing_against_the_roller(a_sides: int, a_mod: int, b_sides: int, b_mod: int) -> None:
    a, b = ExplodingDie(a_sides, a_mod), ExplodingDie(b_sides, b_mod)
    result = opposed(a, b)
    rng = random.Random(99)
    trials = 30_000
    seen: Counter[str] = Counter()
    for _ in range(trials):
        x, y = a.roll(rng), b.roll(rng)
        seen["win" if x > y else "tie" if x == y else "lose"] += 1
    for key in ("win", "tie", "lose"):
        assert abs(seen[key] / trials - float(getattr(result, key))) < 0.015, key


def test_acing_against_a_finite_roll() -> None:
    die = ExplodingDie(8, 1)
    two_d6 = d(6, 2)
    result = opposed(die, two_d6)
    law, left_out = enumerate_acing(8, 10)
    law = shift(law, 1)
    win = sum((px * py for x, px in law.items() for y, py in two_d6 if x > y), Fraction(0))
    tie = sum((px * py for x, px in law.items() for y, py in two_d6 if x == y), Fraction(0))
    assert win <= result.win <= win + left_out
    assert tie <= result.tie <= tie + left_out
    assert opposed(two_d6, die) == Opposed(result.lose, result.tie, result.win)


@settings(deadline=None)
@given(
    st.sampled_from([4, 6, 8, 10, 12]),
    st.sampled_from([4, 6, 8, 10, 12]),
    st.integers(-6, 6),
    st.integers(-6, 6),
)
def test_opposed_acing_properties(a_sides: int, b_sides: int, a_mod: int, b_mod: int) -> None:
    a, b = ExplodingDie(a_sides, a_mod), ExplodingDie(b_sides, b_mod)
    result = opposed(a, b)
    assert result.win + result.tie + result.lose == 1
    assert opposed(b, a) == Opposed(result.lose, result.tie, result.win)
    better = opposed(a + 1, b)
    assert better.win >= result.win
    assert better.lose <= result.lose


small_laws = st.dictionaries(st.integers(-5, 12), st.integers(1, 6), min_size=1, max_size=6).map(
    Distribution.from_weights
)


@given(small_laws, small_laws)
def test_opposed_finite_properties(a: Distribution, b: Distribution) -> None:
    result = opposed(a, b)
    assert result.win + result.tie + result.lose == 1
    assert opposed(b, a) == Opposed(result.lose, result.tie, result.win)
    diff = difference(a, b)
    assert result.win == diff.probability_that(lambda v: v > 0)
    assert result.tie == diff.probability(0)


def test_opposed_results_must_add_up() -> None:
    with pytest.raises(ValueError, match="not 1"):
        Opposed(Fraction(1, 2), Fraction(0), Fraction(1, 3))
    with pytest.raises(ValueError, match="always ties"):
        _ = Opposed(Fraction(0), Fraction(1), Fraction(0)).win_rerolling_ties


# -- card tie-breaks -----------------------------------------------------------------------------------
def test_a_tie_broken_by_two_cards_from_a_fresh_deck_is_exactly_even() -> None:
    assert TIE
    fresh = dict.fromkeys(GF.card_ids(), 1)
    assert card_tie_break(fresh, GF) == Opposed(Fraction(1, 2), Fraction(0), Fraction(1, 2))
    assert card_tie_break(dict.fromkeys(frontier_14().card_ids(), 1), frontier_14()).win == Fraction(1, 2)
    # so an even fight is an even fight: acing d6 against acing d6 hits half the time
    hit = opposed(ExplodingDie(6), ExplodingDie(6)).break_ties(card_tie_break(fresh, GF))
    assert hit == Opposed(Fraction(1, 2), Fraction(0), Fraction(1, 2))


def test_card_tie_break_against_enumeration_of_both_draws() -> None:
    counts = {"AS": 2, "AH": 1, "KS": 1, "2D": 3, "RJ": 1}  # copies: two of a card tie
    cards = [c for c, n in counts.items() for _ in range(n)]
    win = tie = lose = 0
    for i, j in itertools.permutations(range(len(cards)), 2):
        sign = GF.compare(cards[i], cards[j])
        win, tie, lose = win + (sign > 0), tie + (sign == 0), lose + (sign < 0)
    pairs = win + tie + lose
    assert card_tie_break(counts, GF) == Opposed(
        Fraction(win, pairs), Fraction(tie, pairs), Fraction(lose, pairs)
    )
    with pytest.raises(DeckEmptyError, match="needs 2 cards"):
        card_tie_break({"AS": 1}, GF)


def test_golden_frontiers_hit_chance_against_the_whole_procedure() -> None:
    """A revolver (d8) against Reflexes d6+1, ties by two cards from a fresh deck: exact vs played out."""
    attack, defence = ExplodingDie(8), ExplodingDie(6, 1)
    fresh = dict.fromkeys(GF.card_ids(), 1)
    exact = opposed(attack, defence).break_ties(card_tie_break(fresh, GF))
    rng = random.Random(7)
    trials = 30_000
    hits = 0
    for _ in range(trials):
        x, y = attack.roll(rng), defence.roll(rng)
        if x == y:
            deck = Deck.shuffled(GF, rng)
            x, y = 0, GF.compare(deck.draw(rng), deck.draw(rng))  # the attacker draws first
        hits += x > y
    assert abs(hits / trials - float(exact.win)) < 0.015


def test_deck_tie_break_with_the_pile_running_out() -> None:
    # one card left: the attacker takes the 9 of Hearts, the defender draws from the reshuffled discards
    deck = Deck(["9H"], discards=["AS", "5D", "9S"], in_play=["RJ"])
    assert deck_tie_break(deck, GF) == Opposed(Fraction(1, 3), Fraction(0), Fraction(2, 3))
    rng = random.Random(3)
    trials = 12_000
    wins = 0
    for _ in range(trials):
        trial = deck.copy()
        wins += GF.compare(trial.draw(rng), trial.draw(rng)) > 0
    assert abs(wins / trials - 1 / 3) < 0.02
    # no card left: both draw from the reshuffled discards; enough left: the pile decides
    assert deck_tie_break(Deck([], discards=["AS", "2H", "3H"]), GF).win == Fraction(1, 2)
    assert deck_tie_break(Deck(["AS", "2H"]), GF).win == Fraction(1, 2)
    with pytest.raises(DeckEmptyError, match="no discards"):
        deck_tie_break(Deck(["AS"], in_play=["2H"]), GF)


# -- keep-best pools -----------------------------------------------------------------------------------
def test_keep_the_best_dice_of_a_general_roll() -> None:
    assert GENERAL_ROLL and HORSE
    rolled = roll_keep_best(Scripted([6, 6, 4, 5, 2, 1, 3, 4, 4]), 9, 6, 5)
    assert rolled.rolls == (6, 6, 4, 5, 2, 1, 3, 4, 4)
    assert rolled.kept == (6, 6, 5, 4, 4)
    assert rolled.total == 25
    law = keep_best(9, 6, 5)
    assert sum(p for _, p in law) == 1
    assert min(law.probabilities) == 5
    assert max(law.probabilities) == 30
    assert law.probability(30) == law.probability_that(lambda v: v == 30)


def test_keeping_more_dice_than_rolled_keeps_them_all() -> None:
    assert KEEP_ALL
    assert keep_best(3, 6, 5) == d(6, 3)
    assert keep_best(4, 6, 4) == d(6, 4)
    assert keep_best(0, 6, 2) == Distribution.constant(0)
    assert keep_best(5, 6, 0) == Distribution.constant(0)


@pytest.mark.parametrize(
    ("count", "sides"), [(1, 6), (2, 6), (3, 6), (4, 6), (5, 6), (4, 2), (5, 3), (3, 10)]
)
def test_keep_best_against_brute_force(count: int, sides: int) -> None:
    outcomes = list(itertools.product(range(1, sides + 1), repeat=count))
    for keep in range(count + 2):
        totals = Counter(sum(sorted(o, reverse=True)[:keep]) for o in outcomes)
        expected = {t: Fraction(n, len(outcomes)) for t, n in totals.items()}
        assert dict(keep_best(count, sides, keep).probabilities) == expected, keep


def test_the_single_best_die_is_the_maximum() -> None:
    for count in (1, 3, 7):
        law = keep_best(count, 6, 1)
        for m in range(1, 7):
            assert law.probability_that(lambda v, m=m: v <= m) == Fraction(m, 6) ** count


def test_keep_best_roller_matches_the_law() -> None:
    rng = random.Random(31)
    law = keep_best(9, 6, 5)
    trials = 20_000
    totals = Counter(roll_keep_best(rng, 9, 6, 5).total for _ in range(trials))
    for t in (18, 21, 24, 27):  # Sunset's Hard: 18, Impossible: 21
        assert abs(sum(n for v, n in totals.items() if v >= t) / trials - float(law.at_least(t))) < 0.015
    with pytest.raises(ValueError, match="keeping"):
        keep_best(3, 0, 1)
    with pytest.raises(ValueError, match="keeping"):
        roll_keep_best(rng, -1, 6, 1)


@settings(deadline=None)
@given(st.integers(0, 10), st.integers(1, 8), st.integers(0, 10))
def test_keep_best_properties(count: int, sides: int, keep: int) -> None:
    law = keep_best(count, sides, keep)
    assert sum(p for _, p in law) == 1
    kept = min(count, keep)
    assert min(law.probabilities) == kept
    assert max(law.probabilities) == kept * sides
    if keep < count:
        assert keep_best(count, sides, keep + 1).mean >= law.mean


# -- symbol dice ---------------------------------------------------------------------------------------
def test_bullet_dice_faces_follow_the_d6_table() -> None:
    assert BULLET_TABLE
    assert BULLET_BLACK.faces == ("Blank", "Blank", "Spur", "Hit", "Hit", "Ace")
    assert BULLET_GOLD.faces == ("Blank", "Spur", "Hit", "Hit", "Hit", "Ace")
    sixth = Fraction(1, 6)
    assert BULLET_BLACK.probabilities == {"Blank": 2 * sixth, "Spur": sixth, "Hit": 2 * sixth, "Ace": sixth}
    assert BULLET_GOLD.probabilities == {"Blank": sixth, "Spur": sixth, "Hit": 3 * sixth, "Ace": sixth}
    assert [BULLET_BLACK.roll(Scripted([f])) for f in range(1, 7)] == list(BULLET_BLACK.faces)


def test_spurs_rerolled_until_another_result() -> None:
    assert REROLL_SPURS
    black = BULLET_BLACK.rerolling("Spur")
    assert black.probabilities == {
        "Blank": Fraction(2, 5),
        "Spur": 0,
        "Hit": Fraction(2, 5),
        "Ace": Fraction(1, 5),
    }
    assert black.roll(Scripted([3, 3, 6])) == "Ace"
    rng = random.Random(5)
    trials = 20_000
    seen = Counter(BULLET_GOLD.rerolling("Spur").roll(rng) for _ in range(trials))
    assert seen["Spur"] == 0
    assert abs(seen["Hit"] / trials - 3 / 5) < 0.015
    with pytest.raises(ValueError, match="roll again forever"):
        SymbolDie("odd", ("Spur", "Spur")).rerolling("Spur")
    with pytest.raises(ValueError, match="no face Misfire"):
        BULLET_BLACK.rerolling("Misfire")


def brute_force_pool(dice: list[SymbolDie], symbols: tuple[str, ...]) -> dict[tuple[int, ...], Fraction]:
    faces = [[f for f in die.faces if f not in die.reroll] for die in dice]
    outcomes = list(itertools.product(*faces))
    counts = Counter(tuple(o.count(s) for s in symbols) for o in outcomes)
    return {key: Fraction(n, len(outcomes)) for key, n in counts.items()}


@pytest.mark.parametrize(
    "parts",
    [
        ((BULLET_BLACK, 1),),
        ((BULLET_BLACK, 3),),
        ((BULLET_BLACK, 2), (BULLET_GOLD, 2)),
        ((BULLET_GOLD.rerolling("Spur"), 2), (BULLET_BLACK, 1)),
        ((BULLET_BLACK, 0), (BULLET_GOLD, 1)),
    ],
)
def test_symbol_pool_against_brute_force(parts: tuple[tuple[SymbolDie, int], ...]) -> None:
    pool = symbol_pool(*parts)
    assert pool.symbols == ("Blank", "Spur", "Hit", "Ace")
    dice = [die for die, n in parts for _ in range(n)]
    assert {k: v for k, v in pool.probabilities.items() if v} == brute_force_pool(dice, pool.symbols)
    assert sum(pool.probabilities.values()) == 1


def test_hits_count_an_ace_as_two() -> None:
    assert ACE_IS_TWO_HITS
    pool = symbol_pool((BULLET_BLACK, 2))
    hits = pool.score(BULLET_HITS)
    # two Aces: 4 hits; an Ace and a Hit: 3
    assert hits.probability(4) == Fraction(1, 36)
    assert hits.probability(3) == 2 * Fraction(1, 6) * Fraction(2, 6)
    assert pool.at_least(1, BULLET_HITS) == 1 - Fraction(3, 6) ** 2
    assert pool.count("Ace").probability(2) == Fraction(1, 36)
    assert pool.probability(Hit=1, Ace=1) == 2 * Fraction(1, 6) * Fraction(2, 6)
    assert pool.probability_that(lambda c: c["Spur"] == 2) == Fraction(1, 36)
    with pytest.raises(ValueError, match="no die of this pool shows Bullseye"):
        pool.count("Bullseye")


def test_defence_dice_subtract_their_hits() -> None:
    assert DEFENCE and HEAVY_COVER
    attack = symbol_pool((BULLET_BLACK, 3)).score(BULLET_HITS)
    cover = symbol_pool((BULLET_BLACK, 2)).score(BULLET_HITS)  # Heavy Cover: 2B
    damage = difference(attack, cover).map(lambda v: max(0, v))
    faces = BULLET_BLACK.faces
    value = {"Hit": 1, "Ace": 2}
    expected: Counter[int] = Counter()
    for roll in itertools.product(faces, repeat=5):
        expected[max(0, sum(value.get(f, 0) for f in roll[:3]) - sum(value.get(f, 0) for f in roll[3:]))] += 1
    assert dict(damage.probabilities) == {k: Fraction(n, 6**5) for k, n in expected.items()}


def test_challenge_rolls_are_rolled_again_until_someone_wins() -> None:
    assert CHALLENGE and TURN_ORDER
    three = symbol_pool((BULLET_BLACK, 3)).score(BULLET_HITS)
    assert opposed(three, three).win_rerolling_ties == Fraction(1, 2)
    gold = symbol_pool((BULLET_GOLD, 2)).score(BULLET_HITS)
    two = symbol_pool((BULLET_BLACK, 2)).score(BULLET_HITS)
    exact = opposed(gold, two).win_rerolling_ties
    rng = random.Random(17)
    trials = 20_000
    wins = 0
    for _ in range(trials):
        while True:
            a = sum(BULLET_HITS.get(s, 0) for s in roll_symbols(rng, (BULLET_GOLD, 2)))
            b = sum(BULLET_HITS.get(s, 0) for s in roll_symbols(rng, (BULLET_BLACK, 2)))
            if a != b:
                wins += a > b
                break
    assert abs(wins / trials - float(exact)) < 0.015


def test_symbol_roller_matches_the_pool() -> None:
    parts = ((BULLET_BLACK, 2), (BULLET_GOLD.rerolling("Spur"), 1))
    pool = symbol_pool(*parts)
    rng = random.Random(8)
    trials = 20_000
    seen: Counter[tuple[int, ...]] = Counter()
    for _ in range(trials):
        rolled = roll_symbols(rng, *parts)
        assert len(rolled) == 3
        seen[tuple(rolled.count(s) for s in pool.symbols)] += 1
    for key, p in pool.probabilities.items():
        assert abs(seen[key] / trials - float(p)) < 0.012, key
    with pytest.raises(ValueError, match="a pool part is"):
        symbol_pool((BULLET_BLACK, -1))


@given(st.integers(0, 5), st.integers(0, 5), st.booleans())
def test_symbol_pool_properties(black: int, gold: int, talent: bool) -> None:
    gold_die = BULLET_GOLD.rerolling("Spur") if talent else BULLET_GOLD
    pool = symbol_pool((BULLET_BLACK, black), (gold_die, gold))
    assert sum(pool.probabilities.values()) == 1
    assert all(sum(key) == black + gold for key in pool.probabilities)
    assert pool.score(BULLET_HITS).mean == black * Fraction(4, 6) + gold * (
        Fraction(5, 5) if talent else Fraction(5, 6)
    )


# -- docs ----------------------------------------------------------------------------------------------
def test_rules_md_engine_decisions_name_existing_tests() -> None:
    text = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    section = text.split("\n## Shared dice and cards", 1)[1].split("\n## ", 1)[0]
    named = re.findall(r"`(test_(?:cards|dice)\.py)::(\w+)`", section)
    assert len(named) >= 8
    for file_name, test in named:
        source = (Path(__file__).parent / file_name).read_text(encoding="utf-8")
        assert f"def {test}(" in source, f"{file_name}::{test}"
