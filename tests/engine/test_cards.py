"""game.engine.cards: the deck configurations the rulebooks describe, the deck's piles and exact odds."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine.cards import (
    Card,
    Deck,
    DeckEmptyError,
    DeckSpec,
    frontier_14,
    golden_frontiers_damage,
    odds,
    probability,
    standard_54,
)
from tests.engine.rulebooks import Quotes

Q = Quotes()
GF = standard_54()

STANDARD_DECK = Q(
    "golden",
    "The deck of cards needs to be a standard deck ( consisting of four suites (spades, diamonds, clubs, "
    "and hearts) and 13 values (2 \u2013 Ace) ).",
)
TWO_JOKERS = Q(
    "golden", "It is also important that this deck has two jokers that are identifiable from one another."
)
COLOURED_JOKER = Q("golden", "The joker with color has higher priority.")
HIGHEST_CARD = Q(
    "golden",
    "The character with the highest card (remember jokers are high; twos are low) gets to act first.",
)
SUIT_PRIORITY = Q(
    "golden",
    "Suite priority is as follows : Spades, Diamonds, Clubs, and Hearts. Spades has the highest priority and "
    "Hearts has the lowest.",
)
BOTH_JOKERS = Q(
    "golden",
    "In the extremely rare case that both jokers are drawn for initiative, the colored joker has higher "
    "priority.",
)
RUSTY_AND_CLEM = Q(
    "golden",
    "Rusty gets a Ten of Spades and Clem gets a Ten of Hearts. Spades has a higher priority than hearts so "
    "Rusty gets to act first, followed by Clem.",
)
DRAW_FACE_UP = Q(
    "golden", "Each combatant draws a card from the top of the deck and places it face up in front of them."
)
JOKER_RESHUFFLE = Q(
    "golden",
    "Whenever a player draws a joker from the deck, after the actions for that round, turn, check, or "
    "whatever else may qualify are completed the deck is reshuffled.",
)
RESHUFFLE_ALL = Q(
    "golden",
    "To reshuffle the deck, the GM takes all of the cards the deck started with ( 2 \u2013 Ace and both "
    "jokers ) shuffles them together and places the deck, face down, back in reach of all players.",
)
OUT_OF_CARDS = Q(
    "golden",
    "keep all cards that are currently relevant (such as initiative cards) face up in front of the players "
    "and reshuffle all of the non relevant cards into a deck so play may continue.",
)
RESHUFFLED_AGAIN = Q(
    "golden",
    "Remember, even if the deck is reshuffled in this manner, if a joker was drawn the deck will be "
    "reshuffled again.",
)
DAMAGE_TABLE = [
    Q("golden", "2-8 \u2192 Graze"),
    Q("golden", "9-King \u2192 Wound"),
    Q("golden", "Ace \u2192 Two Wounds"),
    Q("golden", "Joker \u2192 Crippling Wound"),
]
FRONTIER_DECK = Q(
    "frontier",
    "Initiative is decided by drawing from a deck of 14 cards, the whole suit of Spades (Ace through King) "
    "and a red Joker.",
)
FRONTIER_VALUES = Q("frontier", "(Ace acts as a 1, King as 13)")
SUNSET_SUITS = Q(
    "sunset", "If two Characters have the same card then the Character with the higher suit goes first."
)
SUNSET_ORDER = Q("sunset", "Spades - Hearts - Clubs - Diamonds")


def test_every_quote_is_word_for_word_in_its_rulebook() -> None:
    Q.check()


def full_counts(spec: DeckSpec) -> dict[str, int]:
    return dict.fromkeys(spec.card_ids(), 1)


# -- configurations ------------------------------------------------------------------------------------
def test_golden_frontiers_deck_is_a_standard_54_card_deck() -> None:
    assert STANDARD_DECK and TWO_JOKERS
    cards = GF.cards()
    assert len(cards) == len(GF) == 54
    assert len({c.id for c in cards}) == 54
    plain = [c for c in cards if not c.is_joker]
    assert Counter(c.suit for c in plain) == {"Spades": 13, "Diamonds": 13, "Clubs": 13, "Hearts": 13}
    assert {c.rank for c in plain} == {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}
    assert sorted(c.name for c in cards if c.is_joker) == ["Black Joker", "Red Joker"]


def test_jokers_are_high_twos_low_and_the_coloured_joker_above_the_black() -> None:
    assert HIGHEST_CARD and COLOURED_JOKER and BOTH_JOKERS
    order = GF.highest_first(GF.card_ids())
    assert order[:2] == ["RJ", "BJ"]  # the coloured (red) joker first
    assert order[2:6] == ["AS", "AD", "AC", "AH"]  # "13 values (2 - Ace)": Ace is the highest rank
    assert order[-4:] == ["2S", "2D", "2C", "2H"]  # twos are low
    assert GF.compare("BJ", "AS") == 1
    assert GF.compare("RJ", "BJ") == 1
    assert GF.compare("2S", "3H") == -1
    assert GF.compare("QC", "QC") == 0


def test_equal_ranks_go_by_suit_spades_diamonds_clubs_hearts() -> None:
    assert SUIT_PRIORITY
    for rank in ("2", "10", "K", "A"):
        ids = [f"{rank}{s}" for s in "HCDS"]
        assert GF.highest_first(ids) == [f"{rank}{s}" for s in "SDCH"]
    # the play example
    assert RUSTY_AND_CLEM
    assert GF.compare("10S", "10H") == 1
    assert GF.highest_first(["10H", "10S"]) == ["10S", "10H"]


def test_the_default_values_follow_the_ranks() -> None:
    assert [GF.value_of(i) for i in ("2S", "10D", "JC", "QH", "KS", "AS", "BJ", "RJ")] == [
        2,
        10,
        11,
        12,
        13,
        14,
        15,
        16,
    ]
    low_jokers = DeckSpec("low", ("Spades",), ("A", "2"), ("Black", "Red"), jokers_high=False)
    assert low_jokers.highest_first(low_jokers.card_ids()) == ["2S", "AS", "RJ", "BJ"]
    assert [low_jokers.value_of(i) for i in ("BJ", "RJ", "AS", "2S")] == [-1, 0, 1, 2]


def test_frontier_deck_is_the_spades_and_a_red_joker_ace_1_king_13() -> None:
    assert FRONTIER_DECK and FRONTIER_VALUES
    spec = frontier_14()
    assert len(spec) == 14
    cards = spec.cards()
    assert [c.name for c in cards if c.is_joker] == ["Red Joker"]
    assert all(c.suit == "Spades" for c in cards if not c.is_joker)
    assert spec.value_of("AS") == 1
    assert spec.value_of("KS") == 13
    assert sorted(spec.value_of(i) for i in spec.card_ids() if i != "RJ") == list(range(1, 14))
    assert spec.highest_first(["AS", "KS", "7S"]) == ["KS", "7S", "AS"]


def test_other_standard_decks_take_their_own_suit_order_and_jokers() -> None:
    assert SUNSET_SUITS and SUNSET_ORDER
    sunset = standard_54("Sunset", suit_priority=("Spades", "Hearts", "Clubs", "Diamonds"), jokers=())
    assert len(sunset) == 52
    assert sunset.highest_first(["KD", "KC", "KH", "KS"]) == ["KS", "KH", "KC", "KD"]
    ace_low = standard_54("ace low", ace_high=False)
    assert ace_low.compare("AS", "2H") == -1
    assert ace_low.value_of("AS") == 1
    with pytest.raises(ValueError, match="four suits"):
        standard_54(suit_priority=("Spades", "Hearts", "Clubs"))


def test_cards_have_ids_names_and_short_labels() -> None:
    king = Card.parse("KS")
    assert (king.rank, king.suit, king.joker) == ("K", "Spades", None)
    assert (king.id, king.name, king.label, str(king)) == ("KS", "King of Spades", "K♠", "King of Spades")
    ten = Card.parse("10h")
    assert (ten.id, ten.name, ten.label) == ("10H", "10 of Hearts", "10♥")
    assert Card.parse("QD").label == "Q♦"
    assert Card.parse("AC").name == "Ace of Clubs"
    red = Card.parse("RJ")
    assert (red.is_joker, red.id, red.name, red.label) == (True, "RJ", "Red Joker", "Red Joker")
    assert Card.parse("BJ").label == "Black Joker"
    for card in GF.cards():
        assert Card.parse(card.id) == card


@pytest.mark.parametrize("bad", ["", "1S", "11H", "KX", "JJ", "Ace of Spades", "GJ"])
def test_a_bad_card_id_is_a_clear_error(bad: str) -> None:
    with pytest.raises(ValueError, match="not a card id: write the rank"):
        Card.parse(bad)


def test_bad_cards_and_specs_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="unknown suit"):
        Card("A", "Cups")
    with pytest.raises(ValueError, match="unknown rank"):
        Card("1", "Spades")
    with pytest.raises(ValueError, match="no rank and no suit"):
        Card("A", "Spades", "Red")
    with pytest.raises(ValueError, match="not a card of the Frontier deck"):
        frontier_14().compare("AH", "AS")
    with pytest.raises(ValueError, match="listed twice"):
        DeckSpec("twice", ("Spades", "Spades"), ("A",))
    with pytest.raises(ValueError, match="unknown joker colour"):
        DeckSpec("odd", ("Spades",), ("A",), ("Green",))
    with pytest.raises(ValueError, match="needs suits and ranks"):
        DeckSpec("empty", (), ())


# -- the deck ------------------------------------------------------------------------------------------
def test_a_shuffled_deck_is_the_whole_deck_and_replays_from_its_seed() -> None:
    deck = Deck.shuffled(GF, random.Random(3))
    assert deck == Deck.shuffled(GF, random.Random(3))
    assert deck.pile != Deck.shuffled(GF, random.Random(4)).pile
    assert sorted(deck.pile) == sorted(GF.card_ids())
    assert (deck.discards, deck.in_play, deck.joker_drawn, deck.remaining) == ([], [], False, 54)


def test_drawn_cards_are_face_up_in_play_and_a_joker_marks_the_deck() -> None:
    assert DRAW_FACE_UP and JOKER_RESHUFFLE
    rng = random.Random(0)
    deck = Deck(["RJ", "5H", "KS"])  # top of the deck last
    assert deck.draw(rng) == "KS"
    assert deck.draw(rng) == "5H"
    assert (deck.in_play, deck.pile, deck.joker_drawn) == (["KS", "5H"], ["RJ"], False)
    assert deck.draw(rng) == "RJ"
    assert deck.joker_drawn
    deck.discard("5H")
    assert (deck.in_play, deck.discards) == (["KS", "RJ"], ["5H"])
    deck.discard_in_play()
    assert (deck.in_play, deck.discards) == ([], ["5H", "KS", "RJ"])


def test_reshuffle_all_gathers_every_card_the_deck_started_with() -> None:
    assert RESHUFFLE_ALL
    rng = random.Random(1)
    deck = Deck.shuffled(GF, rng)
    deck.draw_many(10, rng)
    for card in deck.in_play[:4]:
        deck.discard(card)
    deck.joker_drawn = True
    deck.reshuffle_all(rng)
    assert sorted(deck.pile) == sorted(GF.card_ids())
    assert (deck.discards, deck.in_play, deck.joker_drawn) == ([], [], False)


def test_out_of_cards_the_discards_are_reshuffled_and_cards_in_play_kept() -> None:
    assert OUT_OF_CARDS and RESHUFFLED_AGAIN
    rng = random.Random(2)
    deck = Deck(["RJ", "2H", "3H", "4H"])
    drawn = deck.draw_many(4, rng)
    assert deck.joker_drawn
    for card in ("2H", "3H"):
        deck.discard(card)  # no longer relevant
    assert deck.remaining == 0
    card = deck.draw(rng)  # the pile is out: the discards become the pile
    assert card in ("2H", "3H")
    assert deck.remaining == 1
    assert set(deck.pile) | {card} == {"2H", "3H"}
    assert "4H" in deck.in_play and "RJ" in deck.in_play  # kept face up, not reshuffled in
    assert deck.joker_drawn  # "the deck will be reshuffled again"
    assert sorted(deck.all_cards()) == sorted(drawn)


def test_nothing_to_draw_is_a_clear_error() -> None:
    rng = random.Random(0)
    deck = Deck(["AS"])
    deck.draw(rng)
    with pytest.raises(DeckEmptyError, match="all 1 cards are in play; discard some"):
        deck.draw(rng)
    with pytest.raises(ValueError, match="'KS': it is not in play"):
        deck.discard("KS")


def test_conceal_reshuffles_the_pile_only_and_forgets_its_order() -> None:
    rng = random.Random(5)
    deck = Deck.shuffled(GF, rng)
    deck.draw_many(6, rng)
    deck.discard(deck.in_play[0])
    before = deck.copy()
    deck.conceal(random.Random(9))
    assert Counter(deck.pile) == Counter(before.pile)
    assert deck.pile != before.pile
    assert (deck.discards, deck.in_play) == (before.discards, before.in_play)
    # the new order does not depend on the old one: a pile in another order conceals the same way
    other = before.copy()
    other.pile.reverse()
    other.conceal(random.Random(9))
    assert other.pile == deck.pile


def test_a_deck_is_plain_component_data() -> None:
    from game.engine.match import _canon

    rng = random.Random(7)
    deck = Deck.shuffled(frontier_14(), rng)
    deck.draw_many(3, rng)
    deck.discard(deck.in_play[1])
    text = json.dumps(_canon(deck))  # what the match digest hashes
    assert Deck(**json.loads(json.dumps(dataclasses.asdict(deck)))) == deck
    assert "in_play" in text


# -- exact odds ----------------------------------------------------------------------------------------
def test_damage_table() -> None:
    assert DAMAGE_TABLE
    damage = {
        i: golden_frontiers_damage(Card.parse(i)) for i in ("2S", "8H", "9D", "10C", "KS", "AH", "BJ", "RJ")
    }
    assert damage == {
        "2S": "Graze",
        "8H": "Graze",
        "9D": "Wound",
        "10C": "Wound",
        "KS": "Wound",
        "AH": "Two Wounds",
        "BJ": "Crippling Wound",
        "RJ": "Crippling Wound",
    }


def test_damage_odds_of_a_fresh_deck() -> None:
    result = odds(full_counts(GF), golden_frontiers_damage)
    assert result == {
        "Graze": Fraction(7 * 4, 54),
        "Wound": Fraction(5 * 4, 54),
        "Two Wounds": Fraction(4, 54),
        "Crippling Wound": Fraction(2, 54),
    }
    assert sum(result.values()) == 1


def test_odds_come_from_the_remaining_composition_only() -> None:
    rng = random.Random(11)
    deck = Deck.shuffled(GF, rng)
    drawn = deck.draw_many(20, rng)
    counts = deck.remaining_counts()
    assert sum(counts.values()) == 34
    assert not set(counts) & set(drawn)
    expected_wounds = sum(1 for i in counts if golden_frontiers_damage(Card.parse(i)) == "Wound")
    assert deck.next_card_odds(golden_frontiers_damage)["Wound"] == Fraction(expected_wounds, 34)
    assert deck.next_card_probability(lambda c: c.suit == "Spades") == Fraction(
        sum(1 for i in counts if i.endswith("S")), 34
    )
    # the order of the pile changes nothing
    shuffled = deck.copy()
    shuffled.conceal(random.Random(1))
    assert shuffled.next_card_odds(golden_frontiers_damage) == deck.next_card_odds(golden_frontiers_damage)


def test_with_the_pile_out_the_next_card_comes_from_the_discards() -> None:
    deck = Deck([], discards=["AS", "2S", "3S"], in_play=["RJ"])
    assert deck.next_counts() == {"2S": 1, "3S": 1, "AS": 1}
    assert deck.next_card_probability(lambda c: c.is_joker) == 0
    assert deck.next_card_odds(golden_frontiers_damage) == {
        "Graze": Fraction(2, 3),
        "Two Wounds": Fraction(1, 3),
    }


def test_composition_odds_count_copies_and_refuse_nonsense() -> None:
    assert probability({"AS": 3, "2H": 1}, lambda c: c.rank == "A") == Fraction(3, 4)
    with pytest.raises(DeckEmptyError, match="empty"):
        odds({"AS": 0}, golden_frontiers_damage)
    with pytest.raises(ValueError, match="negative"):
        probability({"AS": -1, "2H": 2}, lambda c: True)


def test_next_card_odds_match_draws_from_shuffled_decks() -> None:
    """Seeded Monte-Carlo: the first card of 6,000 reshuffles of a part-drawn deck."""
    rng = random.Random(1234)
    deck = Deck(["AS", "AH", "KS", "2D", "3D", "4D", "BJ", "9C"])
    expected = deck.next_card_odds(golden_frontiers_damage)
    seen: Counter[str] = Counter()
    trials = 6000
    for _ in range(trials):
        trial = deck.copy()
        trial.conceal(rng)
        seen[golden_frontiers_damage(Card.parse(trial.draw(rng)))] += 1
    for outcome, p in expected.items():
        assert abs(seen[outcome] / trials - float(p)) < 0.025, outcome


# -- properties ----------------------------------------------------------------------------------------
OPS = st.lists(
    st.sampled_from(
        ["draw", "draw", "draw", "discard", "discard_all", "reshuffle_discards", "conceal", "all"]
    ),
    max_size=120,
)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([GF, frontier_14()]), st.integers(0, 2**32), OPS)
def test_deck_invariants_under_any_sequence_of_operations(spec: DeckSpec, seed: int, ops: list[str]) -> None:
    rng = random.Random(seed)
    deck = Deck.shuffled(spec, rng)
    full = sorted(spec.card_ids())
    joker_seen = False  # a joker drawn since the last reshuffle of the whole deck
    for op in ops:
        if op == "draw":
            before_in_play = set(deck.in_play)
            try:
                card = deck.draw(rng)
            except DeckEmptyError:
                assert not deck.pile and not deck.discards
                continue
            assert card not in before_in_play  # a card in play is never drawn again
            joker_seen = joker_seen or Card.parse(card).is_joker
        elif op == "discard" and deck.in_play:
            deck.discard(deck.in_play[rng.randrange(len(deck.in_play))])
        elif op == "discard_all":
            deck.discard_in_play()
        elif op == "reshuffle_discards":
            in_play = list(deck.in_play)
            deck.reshuffle_discards(rng)
            assert deck.in_play == in_play and not deck.discards
        elif op == "conceal":
            counts = deck.remaining_counts()
            deck.conceal(rng)
            assert deck.remaining_counts() == counts
        elif op == "all":
            deck.reshuffle_all(rng)
            joker_seen = False
            assert sorted(deck.pile) == full
        # the piles always hold every card exactly once; cards in play are never in the pile
        assert deck.all_cards() == full
        assert not set(deck.in_play) & set(deck.pile)
        assert deck.joker_drawn == joker_seen


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 54))
def test_draws_never_repeat_a_card_until_the_deck_is_reshuffled(seed: int, count: int) -> None:
    rng = random.Random(seed)
    deck = Deck.shuffled(GF, rng)
    drawn = deck.draw_many(count, rng)
    assert len(set(drawn)) == count
    assert deck.joker_drawn == any(Card.parse(c).is_joker for c in drawn)


@given(st.sampled_from(GF.card_ids()), st.sampled_from(GF.card_ids()), st.sampled_from(GF.card_ids()))
def test_compare_is_a_strict_total_order_on_distinct_cards(a: str, b: str, c: str) -> None:
    assert GF.compare(a, b) == -GF.compare(b, a)
    assert (GF.compare(a, b) == 0) == (a == b)
    if GF.compare(a, b) > 0 and GF.compare(b, c) > 0:
        assert GF.compare(a, c) > 0
