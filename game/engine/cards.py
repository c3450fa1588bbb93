"""Playing cards for the rules engine: cards, deck configurations, a deck as component data, exact odds.

Pure and headless (no esper, no pygame); shuffles use the match's own ``random.Random``, passed in.

Cards
    :class:`Card` is one playing card: a rank (``"A"``, ``"2"`` .. ``"10"``, ``"J"``, ``"Q"``, ``"K"``) and a
    suit, or a joker of a colour (``"Red"``, ``"Black"``). ``card.id`` is its short ASCII id, the form decks
    store (``"KS"``, ``"10H"``, ``"RJ"``), ``card.name`` its printed name (``"King of Spades"``,
    ``"Red Joker"``) and ``card.label`` its short label (``"K♠"``, ``"Red Joker"``).
    ``Card.parse("10H")`` reads an id back.

Configurations
    A :class:`DeckSpec` says which cards a deck has and how they compare: its suits in tie priority
    (highest first), its ranks from lowest to highest (so Ace low or Ace high), its jokers from lowest to
    highest and whether jokers sit above or below every rank, and a value function (a card's number for
    the rules). ``spec.compare(a, b)`` compares two card ids: the higher rank wins, equal ranks go by suit
    priority, jokers per the spec. :func:`standard_54` is Golden Frontiers' deck (54 cards, Ace high, ties
    "Spades, Diamonds, Clubs, and Hearts", the coloured joker above the black one; its arguments give
    other standard decks, e.g. 52 cards with no jokers); :func:`frontier_14` is Frontier's initiative deck
    (the Spades and a red Joker, "Ace acts as a 1, King as 13").

The deck
    :class:`Deck` is plain data that can live in an esper component and so in the match digest and saves:
    ``pile`` (undrawn card ids, face down, the top of the deck last), ``discards``, ``in_play`` (drawn
    cards still relevant, face up, in draw order) and ``joker_drawn``. Operations: :meth:`Deck.shuffled`
    (a new shuffled deck), :meth:`~Deck.draw` (refilling from the discards when the pile is out, keeping
    the cards in play out: Golden Frontiers' "If the deck runs out of cards!"), :meth:`~Deck.discard`,
    :meth:`~Deck.discard_in_play`, :meth:`~Deck.reshuffle_all` (every card the deck started with),
    :meth:`~Deck.reshuffle_discards` (the discards back into the pile; in-play cards stay out) and
    :meth:`~Deck.conceal`.

Hidden information
    The order of ``pile`` is hidden. Code that previews or plans (the UI's odds, the AI) asks only about
    its composition: :meth:`Deck.remaining_counts`, :meth:`Deck.next_counts` (what the next draw comes
    from, the discards if the pile is out), :meth:`Deck.next_card_odds` and
    :meth:`Deck.next_card_probability`, or the module functions :func:`odds` and :func:`probability` on a
    composition. An AI that simulates draws works on ``deck.copy()`` after ``conceal(rng)``, which
    reshuffles the undrawn pile only, so what it draws is not what the match will.

Odds are exact :class:`fractions.Fraction` values: ``odds(counts, outcome)`` maps each outcome of the next
card (e.g. :func:`golden_frontiers_damage`) to its probability.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import TypeVar

__all__ = [
    "GOLDEN_FRONTIERS_SUITS",
    "RANKS_ACE_HIGH",
    "RANKS_ACE_LOW",
    "SUITS",
    "Card",
    "Deck",
    "DeckEmptyError",
    "DeckSpec",
    "MatchDeck",
    "frontier_14",
    "golden_frontiers_damage",
    "odds",
    "probability",
    "standard_54",
]

T = TypeVar("T", bound=Hashable)

# suit -> (id letter, symbol)
SUITS: dict[str, tuple[str, str]] = {
    "Spades": ("S", "♠"),
    "Hearts": ("H", "♥"),
    "Diamonds": ("D", "♦"),
    "Clubs": ("C", "♣"),
}
_SUIT_BY_LETTER = {letter: suit for suit, (letter, _) in SUITS.items()}
RANKS_ACE_LOW = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANKS_ACE_HIGH = (*RANKS_ACE_LOW[1:], "A")
_RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
_RANK_NUMBERS = {"J": 11, "Q": 12, "K": 13}
JOKER_COLOURS = ("Red", "Black")
# Golden Frontiers: "Suite priority is as follows : Spades, Diamonds, Clubs, and Hearts."
GOLDEN_FRONTIERS_SUITS = ("Spades", "Diamonds", "Clubs", "Hearts")


class DeckEmptyError(ValueError):
    """A draw was asked of a deck with no card left to draw, not even after reshuffling its discards."""


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card: a rank and a suit, or a joker of a colour (``rank`` and ``suit`` None)."""

    rank: str | None = None
    suit: str | None = None
    joker: str | None = None

    def __post_init__(self) -> None:
        if self.joker is not None:
            if self.joker not in JOKER_COLOURS:
                colours = ", ".join(JOKER_COLOURS)
                raise ValueError(f"unknown joker colour {self.joker!r}: use one of {colours}")
            if self.rank is not None or self.suit is not None:
                raise ValueError("a joker has no rank and no suit")
            return
        if self.rank not in RANKS_ACE_LOW:
            raise ValueError(f"unknown rank {self.rank!r}: use one of {', '.join(RANKS_ACE_LOW)}")
        if self.suit not in SUITS:
            raise ValueError(f"unknown suit {self.suit!r}: use one of {', '.join(SUITS)}")

    @classmethod
    def parse(cls, card_id: str) -> Card:
        """The card of a short id: ``"AS"``, ``"10H"``, ``"QD"``, ``"RJ"`` (red joker), ``"BJ"``."""
        return _parse(card_id)

    @property
    def is_joker(self) -> bool:
        return self.joker is not None

    @property
    def id(self) -> str:
        """The short ASCII id decks store: rank and suit letter (``"10H"``), or ``"RJ"`` / ``"BJ"``."""
        if self.joker is not None:
            return f"{self.joker[0]}J"
        assert self.rank is not None and self.suit is not None
        return self.rank + SUITS[self.suit][0]

    @property
    def name(self) -> str:
        """The printed name: ``"King of Spades"``, ``"10 of Hearts"``, ``"Red Joker"``."""
        if self.joker is not None:
            return f"{self.joker} Joker"
        assert self.rank is not None
        return f"{_RANK_NAMES.get(self.rank, self.rank)} of {self.suit}"

    @property
    def label(self) -> str:
        """The short label: ``"K♠"``, ``"10♥"``, ``"Red Joker"``."""
        if self.joker is not None:
            return self.name
        assert self.rank is not None and self.suit is not None
        return self.rank + SUITS[self.suit][1]

    def __str__(self) -> str:
        return self.name


@lru_cache(maxsize=128)
def _parse(card_id: str) -> Card:
    text = card_id.strip().upper() if isinstance(card_id, str) else ""
    if len(text) == 2 and text[1] == "J" and text[0] in "RB":
        return Card(joker="Red" if text[0] == "R" else "Black")
    rank, letter = text[:-1], text[-1:]
    if rank in RANKS_ACE_LOW and letter in _SUIT_BY_LETTER:
        return Card(rank, _SUIT_BY_LETTER[letter])
    raise ValueError(
        f"{card_id!r} is not a card id: write the rank (A, 2-10, J, Q, K) and the suit letter "
        "(S, H, D, C), e.g. 'AS' or '10H', or 'RJ' / 'BJ' for the red / black joker"
    )


def _rank_number(rank: str, ace_high: bool) -> int:
    if rank == "A":
        return 14 if ace_high else 1
    return _RANK_NUMBERS.get(rank) or int(rank)


@dataclass(frozen=True, slots=True)
class DeckSpec:
    """Which cards a deck holds and how they compare.

    ``suit_priority``: the deck's suits, highest priority first (it breaks ties between equal ranks).
    ``ranks``: the deck's ranks, lowest first (``RANKS_ACE_HIGH`` or ``RANKS_ACE_LOW``).
    ``jokers``: joker colours, lowest first. ``jokers_high``: jokers rank above every other card (False:
    below). ``value``: a card's number for the rules; None gives the rank's number (2-10, J 11, Q 12,
    K 13, Ace 1 when it is the lowest rank, else 14) and jokers the numbers just above (or 0 and below
    when low) in their order.
    """

    name: str
    suit_priority: tuple[str, ...]
    ranks: tuple[str, ...]
    jokers: tuple[str, ...] = ()
    jokers_high: bool = True
    value: Callable[[Card], int] | None = None

    def __post_init__(self) -> None:
        for suit in self.suit_priority:
            if suit not in SUITS:
                raise ValueError(f"{self.name}: unknown suit {suit!r}: use one of {', '.join(SUITS)}")
        for rank in self.ranks:
            if rank not in RANKS_ACE_LOW:
                raise ValueError(f"{self.name}: unknown rank {rank!r}: use one of {', '.join(RANKS_ACE_LOW)}")
        for colour in self.jokers:
            if colour not in JOKER_COLOURS:
                raise ValueError(
                    f"{self.name}: unknown joker colour {colour!r}: use one of {', '.join(JOKER_COLOURS)}"
                )
        for label, items in (("suit", self.suit_priority), ("rank", self.ranks), ("joker", self.jokers)):
            if len(set(items)) != len(items):
                raise ValueError(f"{self.name}: a {label} is listed twice in {items}")
        if not self.jokers and not (self.suit_priority and self.ranks):
            raise ValueError(f"{self.name}: a deck needs suits and ranks, or jokers")

    def card_ids(self) -> tuple[str, ...]:
        """Every card of the deck, suit by suit in priority order, ranks low to high, then the jokers."""
        return _card_ids(self)

    def cards(self) -> tuple[Card, ...]:
        return tuple(Card.parse(card_id) for card_id in self.card_ids())

    def __len__(self) -> int:
        return len(self.card_ids())

    def card(self, card_id: str) -> Card:
        """The card of an id of this deck; a clear ValueError for anything else."""
        card = Card.parse(card_id)
        if card.id not in _keys(self):
            raise ValueError(f"{card.name} ({card_id!r}) is not a card of the {self.name} deck")
        return card

    def sort_key(self, card_id: str) -> tuple[int, int, int]:
        """Orders the cards of this deck from lowest to highest (jokers, rank, then suit priority)."""
        return _keys(self)[self.card(card_id).id]

    def compare(self, a: str, b: str) -> int:
        """1 if card ``a`` beats ``b``, -1 if ``b`` beats ``a``, 0 for the same card."""
        ka, kb = self.sort_key(a), self.sort_key(b)
        return (ka > kb) - (ka < kb)

    def highest_first(self, card_ids: Iterable[str]) -> list[str]:
        """The ids sorted from the highest card to the lowest (e.g. an initiative order)."""
        return sorted(card_ids, key=self.sort_key, reverse=True)

    def value_of(self, card_id: str) -> int:
        """The card's number for the rules (the spec's value function, or the default one)."""
        card = self.card(card_id)
        if self.value is not None:
            return self.value(card)
        if card.joker is not None:
            index = self.jokers.index(card.joker)
            if self.jokers_high:
                top = max((_rank_number(r, self.ranks[0] != "A") for r in self.ranks), default=0)
                return top + 1 + index
            return index - len(self.jokers) + 1
        assert card.rank is not None
        return _rank_number(card.rank, self.ranks[0] != "A")


@lru_cache(maxsize=64)
def _card_ids(spec: DeckSpec) -> tuple[str, ...]:
    ids = [Card(rank, suit).id for suit in spec.suit_priority for rank in spec.ranks]
    ids += [Card(joker=colour).id for colour in spec.jokers]
    return tuple(ids)


@lru_cache(maxsize=64)
def _keys(spec: DeckSpec) -> dict[str, tuple[int, int, int]]:
    keys: dict[str, tuple[int, int, int]] = {}
    suits = len(spec.suit_priority)
    for s, suit in enumerate(spec.suit_priority):
        for r, rank in enumerate(spec.ranks):
            keys[Card(rank, suit).id] = (0, r, suits - s)
    for j, colour in enumerate(spec.jokers):
        keys[Card(joker=colour).id] = (1 if spec.jokers_high else -1, j, 0)
    return keys


def standard_54(
    name: str = "Golden Frontiers",
    *,
    suit_priority: tuple[str, ...] = GOLDEN_FRONTIERS_SUITS,
    ace_high: bool = True,
    jokers: tuple[str, ...] = ("Black", "Red"),
) -> DeckSpec:
    """A standard deck: 4 suits of 13 ranks and its jokers (54 cards by default).

    The defaults are Golden Frontiers': "a standard deck ( consisting of four suites (spades, diamonds,
    clubs, and hearts) and 13 values (2 - Ace) )" with "two jokers that are identifiable from one
    another"; "jokers are high; twos are low"; ties by "Spades, Diamonds, Clubs, and Hearts"; "The joker
    with color has higher priority" (the coloured joker is the ``"Red"`` one here). ``jokers=()`` gives 52
    cards; ``suit_priority`` another tie order (Sunset's "Spades - Hearts - Clubs - Diamonds").
    """
    if sorted(suit_priority) != sorted(SUITS):
        raise ValueError(f"a standard deck has the four suits {', '.join(SUITS)}, each once: {suit_priority}")
    ranks = RANKS_ACE_HIGH if ace_high else RANKS_ACE_LOW
    return DeckSpec(name, tuple(suit_priority), ranks, tuple(jokers))


def _frontier_value(card: Card) -> int:
    # "Ace acts as a 1, King as 13"; the Joker has no number (its owner places it: 0, as game.dice.Card).
    if card.rank is None:
        return 0
    return _rank_number(card.rank, ace_high=False)


def frontier_14() -> DeckSpec:
    """Frontier's initiative deck: "a deck of 14 cards, the whole suit of Spades (Ace through King) and a
    red Joker"; "Ace acts as a 1, King as 13" (the Joker's value is 0: its owner places it)."""
    return _FRONTIER


_FRONTIER = DeckSpec("Frontier", ("Spades",), RANKS_ACE_LOW, ("Red",), value=_frontier_value)


def golden_frontiers_damage(card: Card) -> str:
    """Golden Frontiers' recommended damage table: "2-8 → Graze", "9-King → Wound", "Ace → Two Wounds",
    "Joker → Crippling Wound"."""
    if card.is_joker:
        return "Crippling Wound"
    if card.rank == "A":
        return "Two Wounds"
    if card.rank in ("J", "Q", "K") or int(card.rank or 0) >= 9:
        return "Wound"
    return "Graze"


def odds(counts: Mapping[str, int], outcome: Callable[[Card], T]) -> dict[T, Fraction]:
    """The exact odds of each outcome of the next card drawn from a composition (card id -> copies)."""
    total = _total(counts)
    result: dict[T, Fraction] = {}
    for card_id in sorted(counts):
        if counts[card_id]:
            key = outcome(Card.parse(card_id))
            result[key] = result.get(key, Fraction(0)) + Fraction(counts[card_id], total)
    return result


def probability(counts: Mapping[str, int], predicate: Callable[[Card], bool]) -> Fraction:
    """The exact probability that the next card drawn from a composition satisfies ``predicate``."""
    total = _total(counts)
    hits = sum(n for card_id, n in counts.items() if n and predicate(Card.parse(card_id)))
    return Fraction(hits, total)


def _total(counts: Mapping[str, int]) -> int:
    if any(n < 0 for n in counts.values()):
        raise ValueError(f"a card count cannot be negative: {dict(counts)}")
    total = sum(counts.values())
    if total == 0:
        raise DeckEmptyError("no card to draw: the composition is empty")
    return total


@dataclass(slots=True)
class Deck:
    """A deck as plain component data: card ids only, so it is part of the digest and of saves.

    ``pile``: undrawn cards, face down, the top of the deck last (its order is hidden: ask
    :meth:`remaining_counts`; the field is marked ``metadata={"hidden": "order"}``, so a deck held as a
    component is in the digest and saves but shows only its composition in ``Match.view``).
    ``discards``: cards done with. ``in_play``: drawn cards still relevant (face up in front of the
    players), in draw order. ``joker_drawn``: a joker was drawn since the last
    :meth:`reshuffle_all` (Golden Frontiers then reshuffles every card at the end of the round).
    """

    pile: list[str] = field(default_factory=list, metadata={"hidden": "order"})
    discards: list[str] = field(default_factory=list)
    in_play: list[str] = field(default_factory=list)
    joker_drawn: bool = False

    @classmethod
    def shuffled(cls, spec: DeckSpec, rng: random.Random) -> Deck:
        """Every card of ``spec``, shuffled with the match RNG."""
        pile = list(spec.card_ids())
        rng.shuffle(pile)
        return cls(pile)

    def copy(self) -> Deck:
        return Deck(list(self.pile), list(self.discards), list(self.in_play), self.joker_drawn)

    @property
    def remaining(self) -> int:
        """How many cards are left in the pile."""
        return len(self.pile)

    def all_cards(self) -> list[str]:
        """Every card the deck holds, wherever it is, sorted (the deck's multiset)."""
        return sorted(self.pile + self.discards + self.in_play)

    def remaining_counts(self) -> dict[str, int]:
        """The undrawn pile's composition (card id -> copies), without its order."""
        return dict(sorted(Counter(self.pile).items()))

    def next_counts(self) -> dict[str, int]:
        """The composition the next draw comes from: the pile, or, when it is out, the discards that
        :meth:`draw` would reshuffle into a new pile."""
        return self.remaining_counts() if self.pile else dict(sorted(Counter(self.discards).items()))

    def next_card_odds(self, outcome: Callable[[Card], T]) -> dict[T, Fraction]:
        """The exact odds of each outcome of the next card (composition only, see :func:`odds`)."""
        return odds(self.next_counts(), outcome)

    def next_card_probability(self, predicate: Callable[[Card], bool]) -> Fraction:
        """The exact probability that the next card satisfies ``predicate`` (composition only)."""
        return probability(self.next_counts(), predicate)

    def draw(self, rng: random.Random) -> str:
        """Take the top card and put it in play. With the pile out, the discards are reshuffled into a
        new pile first and the cards in play stay out (Golden Frontiers: "keep all cards that are
        currently relevant ... and reshuffle all of the non relevant cards into a deck"). ``rng`` is used
        only for that reshuffle."""
        if not self.pile:
            if not self.discards:
                raise DeckEmptyError(
                    f"no card left to draw: all {len(self.in_play)} cards are in play; "
                    "discard some (or reshuffle the whole deck) first"
                )
            self.reshuffle_discards(rng)
        card_id = self.pile.pop()
        self.in_play.append(card_id)
        if Card.parse(card_id).is_joker:
            self.joker_drawn = True
        return card_id

    def draw_many(self, count: int, rng: random.Random) -> list[str]:
        return [self.draw(rng) for _ in range(count)]

    def discard(self, card_id: str) -> None:
        """Move one card from play to the discards."""
        if card_id not in self.in_play:
            shown = ", ".join(self.in_play) or "none"
            raise ValueError(f"cannot discard {card_id!r}: it is not in play (in play: {shown})")
        self.in_play.remove(card_id)
        self.discards.append(card_id)

    def discard_in_play(self) -> None:
        """Move every card in play to the discards (e.g. the initiative cards at the end of a round)."""
        self.discards.extend(self.in_play)
        self.in_play.clear()

    def reshuffle_all(self, rng: random.Random) -> None:
        """Every card back into one shuffled pile (Golden Frontiers: "the GM takes all of the cards the
        deck started with ( 2 - Ace and both jokers ) shuffles them together"); clears ``joker_drawn``."""
        pile = self.all_cards()
        rng.shuffle(pile)
        self.pile, self.discards, self.in_play = pile, [], []
        self.joker_drawn = False

    def reshuffle_discards(self, rng: random.Random) -> None:
        """The discards back into the pile, shuffled with it; cards in play stay out. ``joker_drawn`` is
        kept: "even if the deck is reshuffled in this manner, if a joker was drawn the deck will be
        reshuffled again"."""
        pile = sorted(self.pile + self.discards)
        rng.shuffle(pile)
        self.pile, self.discards = pile, []

    def conceal(self, rng: random.Random) -> None:
        """Reshuffle only the undrawn pile: same cards, new hidden order (for an AI's simulated copy)."""
        pile = sorted(self.pile)
        rng.shuffle(pile)
        self.pile = pile


@dataclass(slots=True)
class MatchDeck(Deck):
    """A standard deck (:func:`standard_54`) held as one match's state: an esper component on its own.

    Its configuration is part of the state: ``suit_priority`` (highest first), ``ace_high`` and the
    ``jokers`` (lowest first), so a ruleset configures it from its data and every save and digest carries
    it. The pile's order is hidden (the digest has it, ``Match.view`` only the composition); the
    composition (:meth:`Deck.remaining_counts`) is public for previews and the AI.

    Reshuffle rules (Golden Frontiers): :meth:`Deck.draw` refills from the discards when the pile is out,
    keeping the cards in play ("If the deck runs out of cards!"); :meth:`end_of_round` reshuffles all the
    cards when a joker was drawn ("Whenever a player draws a joker from the deck, after the actions for
    that round, turn, check, or whatever else may qualify are completed the deck is reshuffled") and
    otherwise discards the cards that stopped mattering."""

    suit_priority: tuple[str, ...] = GOLDEN_FRONTIERS_SUITS
    ace_high: bool = True
    jokers: tuple[str, ...] = ("Black", "Red")

    @classmethod
    def new(
        cls,
        rng: random.Random,
        *,
        suit_priority: tuple[str, ...] = GOLDEN_FRONTIERS_SUITS,
        ace_high: bool = True,
        jokers: tuple[str, ...] = ("Black", "Red"),
    ) -> MatchDeck:
        """A shuffled standard deck of this configuration (a clear ValueError for a bad one)."""
        deck = cls([], [], [], False, tuple(suit_priority), ace_high, tuple(jokers))
        pile = list(deck.spec().card_ids())
        rng.shuffle(pile)
        deck.pile = pile
        return deck

    def spec(self) -> DeckSpec:
        """The deck's configuration as a :class:`DeckSpec` (memoised: equal configurations share one)."""
        return _standard(self.suit_priority, self.ace_high, self.jokers)

    def copy(self) -> MatchDeck:
        return MatchDeck(
            list(self.pile),
            list(self.discards),
            list(self.in_play),
            self.joker_drawn,
            self.suit_priority,
            self.ace_high,
            self.jokers,
        )

    @property
    def reshuffle_due(self) -> bool:
        """A joker was drawn: every card is reshuffled at the end of the round."""
        return self.joker_drawn

    def end_of_round(self, rng: random.Random, keep: Iterable[str] = ()) -> bool:
        """The end of a round: with a joker drawn, every card the deck started with is reshuffled (True);
        otherwise the cards in play are discarded except ``keep`` (cards still relevant next round)."""
        if self.joker_drawn:
            self.reshuffle_all(rng)
            return True
        kept = list(keep)
        for card_id in list(self.in_play):
            if card_id in kept:
                kept.remove(card_id)
            else:
                self.discard(card_id)
        return False


@lru_cache(maxsize=32)
def _standard(suit_priority: tuple[str, ...], ace_high: bool, jokers: tuple[str, ...]) -> DeckSpec:
    return standard_54(suit_priority=suit_priority, ace_high=ace_high, jokers=jokers)
