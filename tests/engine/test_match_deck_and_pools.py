"""The engine's standard deck as match state (hidden order, public composition) and pools of acing dice
(a Golden Frontiers shotgun's 2d8) with their exact opposed odds, checked against brute force."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine.cards import GOLDEN_FRONTIERS_SUITS, Card, Deck, DeckEmptyError, MatchDeck, standard_54
from game.engine.dice import (
    AcingPool,
    ExplodingDie,
    card_tie_break,
    deck_tie_break,
    deck_tie_break_then,
    hit_split,
    opposed,
)
from game.engine.match import _canon
from game.engine.world import World, freeze
from tests.engine.rulebooks import Quotes
from tests.engine.test_dice import deep_enough, enumerate_acing

Q = Quotes()
JOKER_RESHUFFLE = Q(
    "golden",
    "Whenever a player draws a joker from the deck, after the actions for that round, turn, check, or "
    "whatever else may qualify are completed the deck is reshuffled.",
)
AGAIN = Q(
    "golden",
    "Remember, even if the deck is reshuffled in this manner, if a joker was drawn the deck will be "
    "reshuffled again.",
)
CARDS_WIN = Q("golden", "If the attacker draws the higher card then a hit is scored")
TIE_CARDS = Q(
    "golden",
    "If both attackers and defenders numbers are equal then the attacker and defender each draw a card "
    "from the top of the deck, placing the card face up in front of them.",
)
DAMAGE_CARD = Q(
    "golden",
    "If a hit is scored the attacker draws a card from the top of the deck and places it face up in front "
    "of them.",
)
OUT_OF_CARDS = Q(
    "golden",
    "keep all cards that are currently relevant (such as initiative cards) face up in front of the players "
    "and reshuffle all of the non relevant cards into a deck so play may continue.",
)


def test_every_quote_is_word_for_word_in_its_rulebook() -> None:
    Q.check()


# -- the deck as match state -------------------------------------------------------------------------------
def test_a_match_deck_is_a_shuffled_standard_54_with_its_configuration() -> None:
    deck = MatchDeck.new(random.Random(3))
    assert sorted(deck.pile) == sorted(standard_54().card_ids())
    assert deck.suit_priority == GOLDEN_FRONTIERS_SUITS and deck.ace_high
    assert deck.spec() == standard_54()
    other = MatchDeck.new(
        random.Random(3), suit_priority=("Spades", "Hearts", "Clubs", "Diamonds"), jokers=()
    )
    assert len(other.pile) == 52
    assert other.spec().compare("5H", "5D") == 1  # Hearts above Diamonds in this configuration
    with pytest.raises(ValueError, match="four suits"):
        MatchDeck.new(random.Random(3), suit_priority=("Spades",))


def test_the_pile_order_is_hidden_but_in_the_state_and_the_composition_public() -> None:
    deck = MatchDeck.new(random.Random(5))
    twin = deck.copy()
    twin.pile.reverse()
    # the full state (digest, saves) tells the two orders apart ...
    assert _canon(deck) != _canon(twin)
    # ... the public view and the public key do not
    assert _canon(deck, public=True) == _canon(twin, public=True)
    assert freeze(deck) == freeze(twin)
    assert deck.remaining_counts() == twin.remaining_counts()
    world = World()
    world.create_entity(deck)
    hidden = world.hidden()
    assert tuple(deck.pile) in hidden  # what no player may know: a command changing it revealed something
    world.close()


def test_a_joker_drawn_reshuffles_all_54_at_the_end_of_the_round() -> None:
    assert JOKER_RESHUFFLE
    rng = random.Random(1)
    deck = MatchDeck.new(rng)
    deck.pile.remove("RJ")
    deck.pile.append("RJ")  # the joker on top
    deck.draw(rng)
    deck.draw(rng)
    assert deck.reshuffle_due
    assert deck.end_of_round(rng) is True
    assert len(deck.pile) == 54 and not deck.in_play and not deck.discards and not deck.reshuffle_due


def test_without_a_joker_the_round_discards_all_but_the_cards_kept() -> None:
    rng = random.Random(2)
    deck = MatchDeck.new(rng)
    deck.pile = [c for c in deck.pile if c not in ("RJ", "BJ")]
    a, b, c = deck.draw_many(3, rng)
    assert deck.end_of_round(rng, keep=[b]) is False
    assert deck.in_play == [b] and sorted(deck.discards) == sorted([a, c])


def test_out_of_cards_keeps_the_cards_in_play_and_still_reshuffles_for_a_joker() -> None:
    assert AGAIN
    rng = random.Random(4)
    deck = MatchDeck.new(rng)
    held = deck.draw_many(54, rng)  # everything drawn: both jokers among them
    for card in held[:50]:
        deck.discard(card)
    deck.draw(rng)  # the pile is out: the 50 discards are reshuffled, the 4 cards in play stay out
    assert set(held[50:]) <= set(deck.in_play)
    assert len(deck.pile) == 49
    assert deck.reshuffle_due
    deck.end_of_round(rng)
    assert len(deck.pile) == 54


# -- pools of acing dice ------------------------------------------------------------------------------------
def enumerate_pool(count: int, sides: int, depth: int) -> tuple[dict[int, Fraction], Fraction]:
    law, _out = enumerate_acing(sides, depth)
    total: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(count):
        nxt: dict[int, Fraction] = {}
        for x, px in total.items():
            for y, py in law.items():
                nxt[x + y] = nxt.get(x + y, Fraction(0)) + px * py
        total = nxt
    return total, 1 - sum(total.values())


@pytest.mark.parametrize(
    ("count", "sides", "b_sides", "c"),
    [(2, 8, 6, 0), (2, 8, 8, 1), (2, 8, 12, 3), (2, 6, 4, -2), (3, 6, 6, 0)],
)
def test_pool_opposed_against_brute_force_enumeration(count: int, sides: int, b_sides: int, c: int) -> None:
    exact = opposed(AcingPool(count, sides), ExplodingDie(b_sides, c))
    law_a, out_a = enumerate_pool(count, sides, min(deep_enough(sides), 6))
    law_b, out_b = enumerate_acing(b_sides, min(deep_enough(b_sides), 6))
    win = tie = Fraction(0)
    for x, px in law_a.items():
        for y, py in law_b.items():
            if x > y + c:
                win += px * py
            elif x == y + c:
                tie += px * py
    bound = out_a + out_b  # the mass the truncated enumeration left out
    assert bound < Fraction(1, 10**4)
    assert win <= exact.win <= win + bound
    assert tie <= exact.tie <= tie + bound
    assert exact.win + exact.tie + exact.lose == 1


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 12), st.integers(-4, 4), st.integers(2, 12), st.integers(-4, 4))
def test_a_pool_of_one_die_is_the_acing_die(sides: int, a_mod: int, b_sides: int, b_mod: int) -> None:
    assert opposed(AcingPool(1, sides, a_mod), ExplodingDie(b_sides, b_mod)) == opposed(
        ExplodingDie(sides, a_mod), ExplodingDie(b_sides, b_mod)
    )


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 3), st.sampled_from([4, 6, 8]), st.sampled_from([4, 6, 8, 10, 12]), st.integers(-3, 3))
def test_pool_odds_are_a_law_and_monotone_in_the_modifier(
    count: int, sides: int, b_sides: int, mod: int
) -> None:
    low = opposed(AcingPool(count, sides, mod), ExplodingDie(b_sides))
    high = opposed(AcingPool(count, sides, mod + 1), ExplodingDie(b_sides))
    assert low.win + low.tie + low.lose == 1
    assert 0 < low.win < high.win < 1
    flipped = opposed(ExplodingDie(b_sides), AcingPool(count, sides, mod))
    assert (flipped.win, flipped.tie, flipped.lose) == (low.lose, low.tie, low.win)


def test_pool_points_and_tails_against_enumeration() -> None:
    pool = AcingPool(2, 8, 1)
    law, out = enumerate_pool(2, 8, 6)
    for t in range(2, 60):
        assert law.get(t - 1, Fraction(0)) <= pool.probability(t) <= law.get(t - 1, Fraction(0)) + out
    assert pool.at_least(3) == 1
    assert pool.at_least(4) == 1 - pool.probability(3)


def test_pool_roller_matches_the_law() -> None:
    pool, die = AcingPool(2, 8), ExplodingDie(8, 1)
    exact = opposed(pool, die)
    rng = random.Random(12)
    trials = 30_000
    wins = sum(pool.roll(rng) > die.roll(rng) for _ in range(trials))
    assert abs(wins / trials - float(exact.win)) < 0.015


def test_hit_split_adds_the_tie_share_won_by_cards() -> None:
    assert CARDS_WIN
    contest = opposed(ExplodingDie(8), ExplodingDie(6))
    cards = card_tie_break(dict.fromkeys(standard_54().card_ids(), 1), standard_54())
    higher, share, total = hit_split(contest, cards)
    assert cards.win == Fraction(1, 2)
    assert higher == contest.win and share == contest.tie / 2 and total == higher + share


def test_a_pool_needs_dice_and_sides() -> None:
    with pytest.raises(ValueError, match="at least one die"):
        AcingPool(0, 8)
    with pytest.raises(ValueError, match="2 sides"):
        AcingPool(2, 1)
    with pytest.raises(TypeError, match="not supported"):
        opposed(AcingPool(2, 8), AcingPool(2, 8))


# -- the card drawn after a tie-break ------------------------------------------------------------------------
def _branches(deck: Deck) -> Iterator[tuple[Deck, Fraction]]:
    """Every way the next draw can go, each as likely (the pile's hidden order is uniform): the real
    :meth:`Deck.draw`, refill from the discards included, with each pile position brought to the top."""
    ready = deck.copy()
    if not ready.pile:
        ready.reshuffle_discards(random.Random(0))  # the order is enumerated below, the seed is moot
    size = len(ready.pile)
    for i in range(size):
        branch = ready.copy()
        branch.pile.append(branch.pile.pop(i))
        branch.draw(random.Random(0))
        yield branch, Fraction(1, size)


def _brute_tie_then(deck: Deck, outcome: Callable[[Card], str]) -> tuple[Fraction, dict[str, Fraction]]:
    """P(the attacker's tie card wins) and the odds of the card drawn after, given that, by enumeration:
    the attacker draws, the defender draws, both tie cards are discarded, the next card is drawn."""
    spec = standard_54()
    won = Fraction(0)
    found: dict[str, Fraction] = {}
    for after_mine, p_mine in _branches(deck):
        mine = after_mine.in_play[-1]
        for after_theirs, p_theirs in _branches(after_mine):
            theirs = after_theirs.in_play[-1]
            if spec.compare(mine, theirs) <= 0:
                continue
            after_theirs.discard(mine)
            after_theirs.discard(theirs)
            won += p_mine * p_theirs
            for after_next, p_next in _branches(after_theirs):
                key = outcome(Card.parse(after_next.in_play[-1]))
                found[key] = found.get(key, Fraction(0)) + p_mine * p_theirs * p_next
    return won, ({k: v / won for k, v in found.items()} if won else {})


def _damage_class(card: Card) -> str:
    """Golden Frontiers' recommended table ("2-8 → Graze", "9-King → Wound", "Ace → Two Wounds",
    "Joker → Crippling Wound")."""
    if card.rank is None:
        return "crippling"
    if card.rank == "A":
        return "two_wounds"
    return "wound" if card.rank in ("9", "10", "J", "Q", "K") else "graze"


SMALL = ("2H", "5S", "8D", "9C", "QH", "AS", "AD", "BJ", "RJ")


@settings(max_examples=120, deadline=None)
@given(
    st.lists(st.sampled_from(SMALL), max_size=6),
    st.lists(st.sampled_from(SMALL), max_size=5),
)
def test_the_card_after_a_tie_break_against_brute_force(pile: list[str], spent: list[str]) -> None:
    """TIE_CARDS, DAMAGE_CARD, OUT_OF_CARDS: the two tie cards come off the deck before the damage card,
    so the damage card's odds given a tie won by the attacker are those of the composition left after
    those two draws (with the out-of-cards reshuffle on the way): exact, against enumerating every draw
    with the real deck, on small decks (copies of one card allowed)."""
    deck = Deck(list(pile), list(spent))
    if len(pile) + len(spent) < 2:
        with pytest.raises(DeckEmptyError):
            deck_tie_break_then(deck, standard_54(), _damage_class)
        return
    won, expected = _brute_tie_then(deck, _damage_class)
    assert deck_tie_break(deck, standard_54()).win == won
    assert deck_tie_break_then(deck, standard_54(), _damage_class) == expected


def test_a_full_deck_after_a_tie_is_the_next_card_and_a_short_pile_is_not() -> None:
    """With three cards or more in the pile and no two alike, the two tie cards are a uniformly random
    pair whichever of them won, so the card after them has the next card's odds; when the pile runs
    out on the way the discards come back and the odds change."""
    spec = standard_54()
    full = Deck(list(spec.card_ids()))
    after = deck_tie_break_then(full, spec, _damage_class)
    assert after == {
        "graze": Fraction(28, 54),
        "wound": Fraction(20, 54),
        "two_wounds": Fraction(4, 54),
        "crippling": Fraction(2, 54),
    }
    short = Deck(["AS", "2H"], ["3C", "4D"])  # the tie takes both; the damage card comes from all four
    assert deck_tie_break_then(short, spec, _damage_class) == {
        "graze": Fraction(3, 4),
        "two_wounds": Fraction(1, 4),
    }
    # (the next card's odds would say 1/2 two wounds: the Ace on the pile)
    assert deck_tie_break_then(Deck(["5S", "5S", "5S"]), spec, _damage_class) == {}  # equal cards never win
