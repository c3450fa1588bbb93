"""Shared exact dice for the rules engine: acing dice, opposed rolls, keep-best pools, symbol dice.

Pure and headless. Every probability is an exact :class:`fractions.Fraction` (finite laws are
:class:`game.dice.Distribution`); every law has a roller that draws from the match's ``random.Random``,
passed in. The pure functions are memoised (``functools.lru_cache``), so AI previews may ask often.

Acing ("exploding") dice -- :class:`ExplodingDie`
    ``ExplodingDie(sides, modifier)``: roll a die of ``sides`` sides; on its highest face add it and roll
    again, without limit (Golden Frontiers: "When a player aces, the number rolled is added to the
    characters current roll, rolls start at zero, and the player may roll their die again. A character may
    ace multiple times."); the modifier is added to the total. The support is infinite, so the law is in
    closed form: with ``k`` aces and a last face ``r`` (1 .. sides-1) the total is ``sides*k + r`` with
    probability ``sides**-(k+1)``. ``probability(t)`` is ``P(total = t)``, ``at_least(t)`` is
    ``P(total >= t)``, ``at_most``, ``mean`` and ``capped(cap)`` (the finite law of ``min(total, cap)``)
    follow; ``roll(rng)`` / ``roll_faces(rng)`` roll it.

Opposed rolls -- :func:`opposed`
    ``opposed(attacker, defender)`` gives an :class:`Opposed` (``win``: attacker strictly higher, ``tie``,
    ``lose``) for any mix of :class:`~game.dice.Distribution` and :class:`ExplodingDie`. Two acing dice
    are summed in closed form: over the defender's number of aces the terms repeat, period after period,
    times one fixed ratio, so the infinite sum is a finite head plus one period divided by
    ``1 - ratio`` -- exact, never truncated. :func:`difference` is the finite law of ``a - b`` (e.g. hits
    left after defence dice). ``Opposed.win_rerolling_ties`` is the chance to win when ties are rolled
    again; ``Opposed.break_ties(other)`` settles ties by a second contest, e.g.
    :func:`card_tie_break` (each side draws a card; the higher card wins) or :func:`deck_tie_break` (the
    same from a deck's state, with its reshuffle when the pile runs out).

Pools of acing dice -- :class:`AcingPool`
    ``AcingPool(count, sides, modifier)``: ``count`` dice of ``sides`` sides, each acing on its own, summed
    (a Golden Frontiers shotgun's 2d8). Its law is a rational generating function, so the terms of an
    opposed sum repeat, period after period, as a polynomial (of degree ``count - 1``) times a fixed
    ratio: the infinite sum is a finite head plus, per residue, a closed form
    ``sum q(n) r**n = sum_k (Delta^k q)(0) r**k / (1 - r)**(k+1)`` -- exact, never truncated (the fitted
    polynomial is checked on one more period every time). :func:`opposed` takes a pool as attacker or
    defender against an :class:`ExplodingDie`. :func:`hit_split` splits a hit chance into "higher" and
    the share won on a tie by cards.

Keep-best pools -- :func:`keep_best`
    ``keep_best(count, sides, keep)``: roll ``count`` dice, keep the ``keep`` highest, sum them (Sunset's
    General Roll; ``keep=1`` is the single best die; ``keep >= count`` keeps them all). Exact, by a
    dynamic programme over the faces from the highest down. :func:`roll_keep_best` rolls it.

Symbol dice -- :class:`SymbolDie`, :func:`symbol_pool`
    A die whose faces show symbols, optionally rolling some symbols again until another comes up (the
    bullet dice's Spurs with a Talent: :data:`BULLET_BLACK`, :data:`BULLET_GOLD`, from rulebook 002's
    d6 table). ``symbol_pool((die, n), ...)`` is the exact law of the symbol counts of a pool (a count
    tuple in ``pool.symbols`` order -> Fraction); ``pool.score(BULLET_HITS)`` is the law of hits with an
    Ace worth two, so ``pool.at_least(k, BULLET_HITS)`` is P(at least k hits). :func:`roll_symbols` rolls
    a pool.

Sunset's countdown initiative has no random part of its own (its only roll is the initiative roll, a
dice sum :func:`keep_best` / :func:`game.dice.d` already give; the countdown by 6 is arithmetic), so it
has no helper here.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import TypeVar

from game.dice import Distribution
from game.engine.cards import Card, Deck, DeckEmptyError, DeckSpec

__all__ = [
    "BULLET_BLACK",
    "BULLET_GOLD",
    "BULLET_HITS",
    "AcingPool",
    "ExplodingDie",
    "KeptRoll",
    "Opposed",
    "SymbolDie",
    "SymbolPool",
    "card_tie_break",
    "deck_tie_break",
    "deck_tie_break_then",
    "difference",
    "hit_split",
    "keep_best",
    "opposed",
    "roll_keep_best",
    "roll_symbols",
    "symbol_pool",
]

T = TypeVar("T", bound=Hashable)

_ZERO = Fraction(0)
_ONE = Fraction(1)


# -- opposed results -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Opposed:
    """The exact result of a contest: the attacker's chance to be strictly higher, to tie, to be lower."""

    win: Fraction
    tie: Fraction
    lose: Fraction

    def __post_init__(self) -> None:
        if min(self.win, self.tie, self.lose) < 0:
            raise ValueError(f"negative probability in {self}")
        if self.win + self.tie + self.lose != 1:
            raise ValueError(f"win + tie + lose is {self.win + self.tie + self.lose}, not 1")

    @property
    def win_rerolling_ties(self) -> Fraction:
        """P(attacker wins) when a tie is rolled again until someone wins (bullet dice: "Roll again until
        a winner is determined"). A contest that always ties has no winner: ValueError."""
        decided = self.win + self.lose
        if decided == 0:
            raise ValueError("this contest always ties: rolling again never decides it")
        return self.win / decided

    def break_ties(self, tie_break: Opposed) -> Opposed:
        """Settle ties by a second, independent contest (what it leaves tied stays tied)."""
        return Opposed(
            self.win + self.tie * tie_break.win,
            self.tie * tie_break.tie,
            self.lose + self.tie * tie_break.lose,
        )


# -- acing dice ----------------------------------------------------------------------------------------
def _point(sides: int, x: int) -> Fraction:
    """P(T = x) for a bare acing die: x = sides*k + r, 1 <= r < sides, with probability sides**-(k+1)."""
    if x < 1:
        return _ZERO
    aces, face = divmod(x, sides)
    if face == 0:
        return _ZERO
    return Fraction(1, sides ** (aces + 1))


def _tail(sides: int, x: int) -> Fraction:
    """P(T >= x) for a bare acing die: with x - 1 = sides*k + s (0 <= s < sides) it is
    (sides - s) / sides**(k+1): the last face reaches x on the (sides-1-s) faces s+1 .. sides-1 after
    exactly k aces, or there is a (k+1)-th ace (probability sides**-(k+1))."""
    if x <= 1:
        return _ONE
    aces, s = divmod(x - 1, sides)
    return Fraction(sides - s, sides ** (aces + 1))


def _periodic_sum(term: Callable[[int], Fraction], start: int, period: int, ratio: Fraction) -> Fraction:
    """The exact sum over j >= 0 of term(j), given term(j + period) == ratio * term(j) for j >= start."""
    head = sum((term(j) for j in range(start)), _ZERO)
    block = sum((term(j) for j in range(start, start + period)), _ZERO)
    return head + block / (1 - ratio)


def _shape(a_sides: int, b_sides: int) -> tuple[int, Fraction]:
    """The period (in B's aces) after which the terms of an A-vs-B sum repeat, and their ratio.

    Stepping B's aces by ``period = a/g`` (g = gcd) adds ``b*a/g`` to B's total, which is exactly ``b/g``
    more aces of A with the same last face: B's weight falls by ``b**-period``, A's by ``a**-(b/g)``."""
    g = math.gcd(a_sides, b_sides)
    period = a_sides // g
    return period, Fraction(1, b_sides**period * a_sides ** (b_sides // g))


@lru_cache(maxsize=4096)
def _beats(a_sides: int, b_sides: int, c: int) -> Fraction:
    """P(A > B + c) for bare acing dice A (a_sides) and B (b_sides), summed over B = b*j + r exactly."""

    def term(j: int) -> Fraction:
        base = b_sides * j + c + 1
        weight = Fraction(1, b_sides ** (j + 1))  # P(B = b*j + r) for each last face r
        return sum((_tail(a_sides, base + r) for r in range(1, b_sides)), _ZERO) * weight

    # From here on every x = b*j + r + c + 1 is >= 1, where _tail's closed form repeats with the period.
    start = max(0, -((c + 1) // b_sides))
    period, ratio = _shape(a_sides, b_sides)
    return _periodic_sum(term, start, period, ratio)


@lru_cache(maxsize=4096)
def _ties(a_sides: int, b_sides: int, c: int) -> Fraction:
    """P(A = B + c) for bare acing dice, summed over B = b*j + r exactly."""

    def term(j: int) -> Fraction:
        base = b_sides * j + c
        weight = Fraction(1, b_sides ** (j + 1))  # P(B = b*j + r) for each last face r
        return sum((_point(a_sides, base + r) for r in range(1, b_sides)), _ZERO) * weight

    start = max(0, -(c // b_sides))  # from here on every x = b*j + r + c is >= 1
    period, ratio = _shape(a_sides, b_sides)
    return _periodic_sum(term, start, period, ratio)


@dataclass(frozen=True, slots=True)
class ExplodingDie:
    """A die that aces: its highest face is added and rolled again, without limit; plus a modifier."""

    sides: int
    modifier: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.sides, int) or self.sides < 2:
            raise ValueError(
                f"an acing die needs at least 2 sides, not {self.sides!r} (a 1-sided die would ace forever)"
            )

    def __add__(self, modifier: int) -> ExplodingDie:
        return ExplodingDie(self.sides, self.modifier + modifier)

    def __str__(self) -> str:
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"d{self.sides}{mod} (aces)"

    def probability(self, total: int) -> Fraction:
        """P(total = ``total``), exact."""
        return _point(self.sides, total - self.modifier)

    def at_least(self, total: int) -> Fraction:
        """P(total >= ``total``), exact (e.g. a skill check: "equal or exceed" the target number)."""
        return _tail(self.sides, total - self.modifier)

    def at_most(self, total: int) -> Fraction:
        return 1 - self.at_least(total + 1)

    @property
    def mean(self) -> Fraction:
        """E[total] = sides/(sides-1) (the expected aces times sides) + sides/2 (the last face) + modifier."""
        return Fraction(self.sides, self.sides - 1) + Fraction(self.sides, 2) + self.modifier

    def capped(self, cap: int) -> Distribution:
        """The exact finite law of min(total, cap): every total from ``cap`` up is one bucket at ``cap``."""
        low = 1 + self.modifier
        if cap <= low:
            return Distribution.constant(cap)
        probabilities = {t: self.probability(t) for t in range(low, cap) if self.probability(t)}
        probabilities[cap] = self.at_least(cap)
        return Distribution(probabilities)

    def roll_faces(self, rng: random.Random) -> list[int]:
        """The faces rolled, aces first (their sum plus the modifier is the total)."""
        faces = [rng.randint(1, self.sides)]
        while faces[-1] == self.sides:
            faces.append(rng.randint(1, self.sides))
        return faces

    def roll(self, rng: random.Random) -> int:
        return sum(self.roll_faces(rng)) + self.modifier


Rollable = Distribution | ExplodingDie


def opposed(attacker: Rollable | AcingPool, defender: Rollable | AcingPool) -> Opposed:
    """The exact chances that the attacker's total is higher than, equal to or lower than the defender's.

    Both acing: closed form (:func:`_beats`, :func:`_ties`); a pool of acing dice against one acing die
    (either way round): closed form (:func:`_pool_opposed`); one acing: a finite sum over the other's
    values; both finite: a sum over their values."""
    if isinstance(attacker, AcingPool) or isinstance(defender, AcingPool):
        return _opposed_pool(attacker, defender)
    if isinstance(attacker, ExplodingDie) and isinstance(defender, ExplodingDie):
        return _opposed_exploding(attacker.sides, defender.sides, defender.modifier - attacker.modifier)
    if isinstance(attacker, ExplodingDie):
        assert isinstance(defender, Distribution)
        return _exploding_vs(attacker, defender)
    if isinstance(defender, ExplodingDie):
        flipped = _exploding_vs(defender, attacker)
        return Opposed(flipped.lose, flipped.tie, flipped.win)
    return _finite_vs(attacker, defender)


@lru_cache(maxsize=4096)
def _opposed_exploding(a_sides: int, b_sides: int, c: int) -> Opposed:
    # attacker A + a against defender B + b, c = b - a: win = P(A > B + c), lose = P(B > A - c)
    return Opposed(_beats(a_sides, b_sides, c), _ties(a_sides, b_sides, c), _beats(b_sides, a_sides, -c))


def _opposed_pool(attacker: Rollable | AcingPool, defender: Rollable | AcingPool) -> Opposed:
    if isinstance(attacker, AcingPool) and isinstance(defender, ExplodingDie):
        return _pool_opposed(
            attacker.count, attacker.sides, defender.sides, defender.modifier - attacker.modifier
        )
    if isinstance(defender, AcingPool) and isinstance(attacker, ExplodingDie):
        flipped = _opposed_pool(defender, attacker)
        return Opposed(flipped.lose, flipped.tie, flipped.win)
    raise TypeError(
        f"opposed rolls of {attacker} against {defender} are not supported: a pool of acing dice is "
        "opposed by one acing die"
    )


def _exploding_vs(die: ExplodingDie, other: Distribution) -> Opposed:
    win = tie = lose = _ZERO
    for value, p in other.probabilities.items():
        above = die.at_least(value + 1)
        equal = die.probability(value)
        win += p * above
        tie += p * equal
        lose += p * (1 - above - equal)
    return Opposed(win, tie, lose)


def _finite_vs(a: Distribution, b: Distribution) -> Opposed:
    win = tie = _ZERO
    values = sorted(b.probabilities)
    below = _ZERO  # P(B < value of a), by a sweep over the sorted values of b
    index = 0
    for value, p in sorted(a.probabilities.items()):
        while index < len(values) and values[index] < value:
            below += b.probabilities[values[index]]
            index += 1
        win += p * below
        tie += p * b.probability(value)
    return Opposed(win, tie, 1 - win - tie)


def difference(a: Distribution, b: Distribution) -> Distribution:
    """The exact law of ``a - b`` for independent finite rolls (``.map(lambda x: max(0, x))`` then gives
    e.g. the hits an attack keeps after the defence dice)."""
    result: dict[int, Fraction] = {}
    for x, px in a.probabilities.items():
        for y, py in b.probabilities.items():
            result[x - y] = result.get(x - y, _ZERO) + px * py
    return Distribution(result)


# -- pools of acing dice ---------------------------------------------------------------------------------
@lru_cache(maxsize=16384)
def _pool_point(count: int, sides: int, x: int) -> Fraction:
    """P(S = x) for the bare sum S of ``count`` acing dice of ``sides`` sides (a finite convolution)."""
    if count == 1:
        return _point(sides, x)
    if x < count:
        return _ZERO
    return sum(
        (_point(sides, a) * _pool_point(count - 1, sides, x - a) for a in range(1, x - count + 2)), _ZERO
    )


@lru_cache(maxsize=16384)
def _pool_tail(count: int, sides: int, x: int) -> Fraction:
    """P(S >= x) for the bare sum S of ``count`` acing dice: the first die at a < x - (count - 1) needs
    the rest at x - a or more; from there on the rest (at least count - 1) always get there."""
    if count == 1:
        return _tail(sides, x)
    if x <= count:
        return _ONE
    head = sum(
        (_point(sides, a) * _pool_tail(count - 1, sides, x - a) for a in range(1, x - count + 1)), _ZERO
    )
    return head + _tail(sides, x - count + 1)


def _quasi_sum(
    term: Callable[[int], Fraction], start: int, period: int, ratio: Fraction, degree: int
) -> Fraction:
    """The exact sum over j >= 0 of term(j), given that for j >= start each residue class
    term(j + n*period) is q(n) * ratio**n with q a polynomial of at most ``degree``.

    Per class, q's forward differences at 0 give the sum in closed form:
    sum_n C(n, k) r**n = r**k / (1 - r)**(k+1). One more point than the degree needs is checked."""
    total = sum((term(j) for j in range(start)), _ZERO)
    for i in range(period):
        values = [term(start + i + n * period) / ratio**n for n in range(degree + 2)]
        diffs: list[Fraction] = []
        row = values
        while row:
            diffs.append(row[0])
            row = [b - a for a, b in itertools.pairwise(row)]
        if diffs[degree + 1] != 0:  # the last difference must vanish: the terms follow the closed form
            raise ArithmeticError("an acing sum's terms do not repeat as their closed form says")
        for k in range(degree + 1):
            total += diffs[k] * ratio**k / (1 - ratio) ** (k + 1)
    return total


@lru_cache(maxsize=4096)
def _pool_opposed(count: int, sides: int, b_sides: int, c: int) -> Opposed:
    """A pool S of ``count`` d``sides`` against an acing die B of ``b_sides``: P(S > B + c), P(S = B + c),
    summed over B = b*j + r (weight b**-(j+1) for each last face r) in closed form."""

    def beats(j: int) -> Fraction:
        base = b_sides * j + c + 1
        weight = Fraction(1, b_sides ** (j + 1))
        return sum((_pool_tail(count, sides, base + r) for r in range(1, b_sides)), _ZERO) * weight

    def ties(j: int) -> Fraction:
        base = b_sides * j + c
        weight = Fraction(1, b_sides ** (j + 1))
        return sum((_pool_point(count, sides, base + r) for r in range(1, b_sides)), _ZERO) * weight

    g = math.gcd(sides, b_sides)
    period = sides // g  # B's aces that add a whole number (b/g) of S's die size ... times sides
    ratio = Fraction(1, b_sides**period * sides ** (b_sides // g))
    start = max(0, -((c + 1) // b_sides)) + 1  # every x from here on is >= 1
    win = _quasi_sum(beats, start, period, ratio, count - 1)
    tie = _quasi_sum(ties, start, period, ratio, count - 1)
    return Opposed(win, tie, 1 - win - tie)


@dataclass(frozen=True, slots=True)
class AcingPool:
    """``count`` dice of ``sides`` sides, each acing on its own, summed; plus a modifier (added once)."""

    count: int
    sides: int
    modifier: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.count, int) or self.count < 1:
            raise ValueError(f"an acing pool needs at least one die, not {self.count!r}")
        if not isinstance(self.sides, int) or self.sides < 2:
            raise ValueError(f"an acing die needs at least 2 sides, not {self.sides!r}")

    def __add__(self, modifier: int) -> AcingPool:
        return AcingPool(self.count, self.sides, self.modifier + modifier)

    def __str__(self) -> str:
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{mod} (each aces)"

    def probability(self, total: int) -> Fraction:
        """P(total = ``total``), exact."""
        return _pool_point(self.count, self.sides, total - self.modifier)

    def at_least(self, total: int) -> Fraction:
        """P(total >= ``total``), exact."""
        return _pool_tail(self.count, self.sides, total - self.modifier)

    def roll_faces(self, rng: random.Random) -> list[list[int]]:
        """Each die's chain of faces, aces first (their sum plus the modifier is the total)."""
        return [ExplodingDie(self.sides).roll_faces(rng) for _ in range(self.count)]

    def roll(self, rng: random.Random) -> int:
        return sum(sum(chain) for chain in self.roll_faces(rng)) + self.modifier


def hit_split(contest: Opposed, tie_break: Opposed) -> tuple[Fraction, Fraction, Fraction]:
    """An attack that hits when strictly higher and, on a tie, when it wins ``tie_break`` (two cards):
    (P(higher), P(tie and the cards go the attacker's way), the total)."""
    share = contest.tie * tie_break.win
    return contest.win, share, contest.win + share


# -- card tie-breaks -----------------------------------------------------------------------------------
def card_tie_break(counts: Mapping[str, int], spec: DeckSpec) -> Opposed:
    """Both sides draw a card from one composition (without replacement); the higher card wins
    (``spec.compare``: rank, then suit priority, jokers per the spec). Two copies of one card tie.

    The attacker's chances equal the defender's by symmetry, so a deck of distinct cards gives exactly
    1/2 each."""
    return _card_tie_break(tuple(sorted((k, n) for k, n in counts.items() if n)), spec)


@lru_cache(maxsize=1024)
def _card_tie_break(items: tuple[tuple[str, int], ...], spec: DeckSpec) -> Opposed:
    total = sum(n for _, n in items)
    if total < 2:
        raise DeckEmptyError(f"a card tie-break needs 2 cards to draw, the composition has {total}")
    ordered = sorted(items, key=lambda item: spec.sort_key(item[0]))
    win_pairs = tie_pairs = 0
    below = 0  # copies of the cards lower than the current one
    for _, n in ordered:
        win_pairs += n * below
        tie_pairs += n * (n - 1)
        below += n
    pairs = total * (total - 1)
    win = Fraction(win_pairs, pairs)
    return Opposed(win, Fraction(tie_pairs, pairs), win)


def deck_tie_break(deck: Deck, spec: DeckSpec) -> Opposed:
    """:func:`card_tie_break` from a deck's state, the attacker drawing first: with one card left in the
    pile the attacker gets it and the defender draws from the discards reshuffled (:meth:`Deck.draw`);
    with none both draw from the reshuffled discards. Reads the composition only."""
    pile = deck.remaining_counts()
    if deck.remaining >= 2:
        return card_tie_break(pile, spec)
    refill = dict(Counter(deck.discards))
    if deck.remaining == 0:
        return card_tie_break(refill, spec)
    if not refill:
        raise DeckEmptyError("a card tie-break needs 2 cards: 1 is left and no discards to reshuffle")
    (last,) = pile
    total = sum(refill.values())
    win = Fraction(sum(n for c, n in refill.items() if spec.compare(last, c) > 0), total)
    tie = Fraction(sum(n for c, n in refill.items() if spec.compare(last, c) == 0), total)
    return Opposed(win, tie, 1 - win - tie)


def deck_tie_break_then(deck: Deck, spec: DeckSpec, outcome: Callable[[Card], T]) -> dict[T, Fraction]:
    """The exact odds of each ``outcome`` of the card drawn *after* a tie-break the attacker won: both
    tie cards are drawn first (the attacker's, then the defender's), both discarded, then the next card
    is drawn -- :meth:`Deck.draw`'s way, so when the pile runs out the discards (the tie cards among
    them, once discarded) are reshuffled into it, the cards in play kept out. Composition only, never the
    order. Empty when the attacker cannot win the tie-break. (Golden Frontiers: a tie won by the cards is
    a hit, and "If a hit is scored the attacker draws a card from the top of the deck".)"""
    pile = tuple(sorted(Counter(deck.pile).items()))
    discards = tuple(sorted(Counter(deck.discards).items()))
    classes = {card_id: outcome(Card.parse(card_id)) for card_id in {*deck.pile, *deck.discards}}
    if sum(n for _, n in pile) >= 3:  # no reshuffle on the way: the pile alone decides
        return _tie_then_by_class(pile, spec, classes)
    return _tie_then_drawn(pile, discards, spec, classes)


def _tie_then_by_class(
    pile: tuple[tuple[str, int], ...], spec: DeckSpec, classes: Mapping[str, T]
) -> dict[T, Fraction]:
    """Three cards or more in the pile: the winning ordered pairs (attacker's card higher) counted by the
    two cards' outcomes, in one sweep from the lowest card up; the next card comes from the pile less
    those two."""
    total = sum(n for _, n in pile)
    counts: Counter[T] = Counter()
    for card_id, n in pile:
        counts[classes[card_id]] += n
    pairs: Counter[tuple[T, T]] = Counter()
    below: Counter[T] = Counter()  # outcomes of the cards strictly lower than the current key
    ordered = sorted(pile, key=lambda item: spec.sort_key(item[0]))
    for _, group in itertools.groupby(ordered, key=lambda item: spec.sort_key(item[0])):
        same = list(group)
        for card_id, n in same:
            mine = classes[card_id]
            for theirs, m in below.items():
                pairs[(mine, theirs)] += n * m
        for card_id, n in same:
            below[classes[card_id]] += n
    won = sum(pairs.values())
    if not won:
        return {}
    found: Counter[T] = Counter()
    for (mine, theirs), ways in pairs.items():
        rest = counts.copy()
        rest[mine] -= 1
        rest[theirs] -= 1
        for key, left in rest.items():
            if left:
                found[key] += ways * left
    keys = list(dict.fromkeys(classes[c] for c, _ in pile))
    return {k: Fraction(found[k], won * (total - 2)) for k in keys if found[k]}


def _tie_then_drawn(
    pile: tuple[tuple[str, int], ...],
    discards: tuple[tuple[str, int], ...],
    spec: DeckSpec,
    classes: Mapping[str, T],
) -> dict[T, Fraction]:
    """Fewer than three cards in the pile: the attacker's card one by one, with :meth:`Deck.draw`'s
    reshuffle of the discards whenever the pile is out; the defender's lower cards and the card after
    the two counted by outcome (what is left to draw differs only by the two tie cards' outcomes)."""
    first: Counter[str] = Counter(dict(pile))
    spent: Counter[str] = Counter(dict(discards))
    if not first:
        first, spent = spent, Counter()
    if sum(first.values()) + sum(spent.values()) < 2:
        raise DeckEmptyError("a card tie-break needs 2 cards to draw")
    won = _ZERO
    found: dict[T, Fraction] = {}
    size = sum(first.values())
    for mine, n in sorted(first.items()):
        after = first.copy()
        after[mine] -= 1
        after = +after
        out = spent
        if not after:
            after, out = out, Counter()
        rest = sum(after.values())
        key = spec.sort_key(mine)
        lower: Counter[T] = Counter()  # the defender's cards this one beats, by outcome
        for theirs, m in after.items():
            if spec.sort_key(theirs) < key:
                lower[classes[theirs]] += m
        if rest > 1:  # the card after comes from what ``after`` has left
            source, sign = _by_class(after, classes), -1
        else:  # ``after`` is out: the discards, the two tie cards among them, are reshuffled
            source, sign = _by_class(out, classes), 1
            source[classes[mine]] += 1
        for theirs_class, ways in lower.items():
            chance = Fraction(n * ways, size * rest)
            won += chance
            left = source.copy()
            left[theirs_class] += sign
            total = sum(left.values())
            for outcome, count in left.items():
                if count:
                    found[outcome] = found.get(outcome, _ZERO) + chance * Fraction(count, total)
    if not won:
        return {}
    return {k: v / won for k, v in found.items()}


def _by_class(cards: Mapping[str, int], classes: Mapping[str, T]) -> Counter[T]:
    """How many of ``cards`` fall in each outcome class."""
    counts: Counter[T] = Counter()
    for card_id, n in cards.items():
        counts[classes[card_id]] += n
    return counts


# -- keep-best pools -----------------------------------------------------------------------------------
@lru_cache(maxsize=512)
def keep_best(count: int, sides: int = 6, keep: int = 1) -> Distribution:
    """The exact law of the sum of the ``keep`` highest of ``count`` dice of ``sides`` sides.

    Faces are placed from the highest down: a state is (dice still to place, dice kept, kept sum) with
    its number of ordered outcomes; ``c`` dice showing a face are chosen in C(left, c) ways. Once
    ``keep`` dice are kept the rest only need lower faces, (face-1)**left ways."""
    if sides < 1 or count < 0 or keep < 0:
        raise ValueError(f"cannot roll {count}d{sides} keeping {keep}: sides >= 1, count and keep >= 0")
    keep = min(keep, count)
    states: dict[tuple[int, int, int], int] = {(count, 0, 0): 1}
    for face in range(sides, 0, -1):
        nxt: dict[tuple[int, int, int], int] = {}
        for (left, kept, total), ways in states.items():
            if left == 0:
                nxt[(0, kept, total)] = nxt.get((0, kept, total), 0) + ways
                continue
            choices = (left,) if face == 1 else range(left + 1)
            for c in choices:
                take = min(c, keep - kept)
                rest = left - c
                weight = ways * math.comb(left, c)
                state = (rest, kept + take, total + take * face)
                if kept + take == keep and rest:  # the rest show lower faces, any of them
                    weight *= (face - 1) ** rest
                    state = (0, keep, total + take * face)
                if weight:
                    nxt[state] = nxt.get(state, 0) + weight
        states = nxt
    outcomes = sides**count
    weights: dict[int, int] = {}
    for (_, _, total), ways in states.items():
        weights[total] = weights.get(total, 0) + ways
    return Distribution(MappingProxyType({t: Fraction(w, outcomes) for t, w in sorted(weights.items())}))


@dataclass(frozen=True, slots=True)
class KeptRoll:
    """A keep-best roll: every die in the order rolled, the kept dice (highest first), their sum."""

    rolls: tuple[int, ...]
    kept: tuple[int, ...]
    total: int


def roll_keep_best(rng: random.Random, count: int, sides: int = 6, keep: int = 1) -> KeptRoll:
    """Roll ``count`` dice and keep the ``keep`` highest (the law is :func:`keep_best`)."""
    if sides < 1 or count < 0 or keep < 0:
        raise ValueError(f"cannot roll {count}d{sides} keeping {keep}: sides >= 1, count and keep >= 0")
    rolls = tuple(rng.randint(1, sides) for _ in range(count))
    kept = tuple(sorted(rolls, reverse=True)[:keep])
    return KeptRoll(rolls, kept, sum(kept))


# -- symbol dice ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SymbolDie:
    """A die whose faces (face 1 first) show symbols; a symbol in ``reroll`` is rolled again until another
    comes up."""

    name: str
    faces: tuple[str, ...]
    reroll: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if not self.faces:
            raise ValueError(f"the symbol die {self.name!r} needs at least one face")
        unknown = self.reroll - set(self.faces)
        if unknown:
            raise ValueError(f"the {self.name} die has no face {', '.join(sorted(unknown))} to roll again")
        if set(self.faces) <= self.reroll:
            raise ValueError(f"the {self.name} die would roll again forever: every face is rerolled")

    @property
    def symbols(self) -> tuple[str, ...]:
        """The die's symbols in the order of their first face."""
        return tuple(dict.fromkeys(self.faces))

    def rerolling(self, *symbols: str) -> SymbolDie:
        """The same die, rolling ``symbols`` again until another comes up (bullet dice with a Talent:
        "Reroll Spurs until a different result is rolled.")."""
        return SymbolDie(self.name, self.faces, self.reroll | frozenset(symbols))

    @property
    def probabilities(self) -> dict[str, Fraction]:
        """Each symbol's exact chance (a rerolled symbol's is 0: the others share the faces left)."""
        return dict(_symbol_probabilities(self))

    def roll(self, rng: random.Random) -> str:
        while True:
            symbol = self.faces[rng.randint(1, len(self.faces)) - 1]
            if symbol not in self.reroll:
                return symbol


@lru_cache(maxsize=256)
def _symbol_probabilities(die: SymbolDie) -> tuple[tuple[str, Fraction], ...]:
    kept = [f for f in die.faces if f not in die.reroll]
    counts = Counter(kept)
    return tuple((s, Fraction(counts[s], len(kept))) for s in die.symbols)


# Rulebook 002, "Non-Official Dice": "If using a standard d6 instead, use the following distribution:"
# | D6 | Black | Gold |  1 Blank Blank; 2 Blank Spur; 3 Spur Hit; 4 Hit Hit; 5 Hit Hit; 6 Ace Ace
BULLET_BLACK = SymbolDie("Black", ("Blank", "Blank", "Spur", "Hit", "Hit", "Ace"))
BULLET_GOLD = SymbolDie("Gold", ("Blank", "Spur", "Hit", "Hit", "Hit", "Ace"))
# "Ace ... Equal to 2 Hits."
BULLET_HITS: Mapping[str, int] = MappingProxyType({"Hit": 1, "Ace": 2})


@dataclass(frozen=True, slots=True)
class SymbolPool:
    """The exact law of a pool's symbol counts: a tuple of counts in ``symbols`` order -> probability."""

    symbols: tuple[str, ...]
    probabilities: Mapping[tuple[int, ...], Fraction]

    def probability(self, **counts: int) -> Fraction:
        """P(exactly these counts), e.g. ``pool.probability(Hit=2, Ace=0, Spur=0, Blank=1)``; symbols
        not named may show any count."""
        self._check(counts)
        return self.probability_that(lambda c: all(c[s] == n for s, n in counts.items()))

    def probability_that(self, predicate: Callable[[Mapping[str, int]], bool]) -> Fraction:
        """P(predicate holds of the counts), the predicate reading ``counts[symbol]``."""
        total = _ZERO
        for key, p in self.probabilities.items():
            if predicate(dict(zip(self.symbols, key, strict=True))):
                total += p
        return total

    def count(self, symbol: str) -> Distribution:
        """The law of how many dice show ``symbol``."""
        return self.score({symbol: 1})

    def score(self, weights: Mapping[str, int]) -> Distribution:
        """The law of the weighted sum of the counts (``BULLET_HITS``: hits with an Ace worth two)."""
        self._check(weights)
        vector = [weights.get(s, 0) for s in self.symbols]
        result: dict[int, Fraction] = {}
        for key, p in self.probabilities.items():
            value = sum(w * n for w, n in zip(vector, key, strict=True))
            result[value] = result.get(value, _ZERO) + p
        return Distribution(result)

    def at_least(self, k: int, weights: Mapping[str, int]) -> Fraction:
        """P(the weighted sum is at least ``k``): ``pool.at_least(2, BULLET_HITS)`` is P(2+ hits)."""
        return self.score(weights).at_least(k)

    def _check(self, names: Mapping[str, int]) -> None:
        unknown = [s for s in names if s not in self.symbols]
        if unknown:
            shown = ", ".join(unknown)
            raise ValueError(f"no die of this pool shows {shown}: its symbols are {', '.join(self.symbols)}")


def _parts(parts: Sequence[tuple[SymbolDie, int]]) -> tuple[tuple[SymbolDie, int], ...]:
    for part in parts:
        if (
            not isinstance(part, tuple)
            or len(part) != 2
            or not isinstance(part[0], SymbolDie)
            or not isinstance(part[1], int)
            or part[1] < 0
        ):
            raise ValueError(f"a pool part is (SymbolDie, count >= 0), not {part!r}")
    return tuple(parts)


def symbol_pool(*parts: tuple[SymbolDie, int]) -> SymbolPool:
    """The exact law of the symbol counts of a pool, e.g. ``symbol_pool((BULLET_BLACK, 3),
    (BULLET_GOLD, 1))``. Symbols are ordered as they first appear on the dice."""
    return _symbol_pool(_parts(parts))


@lru_cache(maxsize=512)
def _symbol_pool(parts: tuple[tuple[SymbolDie, int], ...]) -> SymbolPool:
    symbols = tuple(dict.fromkeys(s for die, _ in parts for s in die.symbols))
    law: dict[tuple[int, ...], Fraction] = {(0,) * len(symbols): _ONE}
    for die, n in parts:
        steps = [(symbols.index(s), p) for s, p in _symbol_probabilities(die) if p]
        for _ in range(n):
            nxt: dict[tuple[int, ...], Fraction] = {}
            for key, p in law.items():
                for index, q in steps:
                    grown = (*key[:index], key[index] + 1, *key[index + 1 :])
                    nxt[grown] = nxt.get(grown, _ZERO) + p * q
            law = nxt
    return SymbolPool(symbols, MappingProxyType(dict(sorted(law.items()))))


def roll_symbols(rng: random.Random, *parts: tuple[SymbolDie, int]) -> list[str]:
    """Roll a pool: each die's symbol, part by part, in order (the law is :func:`symbol_pool`)."""
    return [die.roll(rng) for die, n in _parts(parts) for _ in range(n)]
