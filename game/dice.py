"""Dice and exact probability distributions (playing-card decks: game.engine.cards).

Rolls always draw from the match's own ``random.Random`` (passed in), never the global ``random``
functions, so a match replays exactly from its seed. Odds are exact: :class:`Distribution` holds
``fractions.Fraction`` probabilities, never samples.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = ["Distribution", "d", "roll"]


def roll(rng: random.Random, sides: int, count: int = 1) -> list[int]:
    """Roll ``count`` dice of ``sides`` sides with the match RNG."""
    if sides < 1 or count < 0:
        raise ValueError(f"cannot roll {count}d{sides}")
    return [rng.randint(1, sides) for _ in range(count)]


@dataclass(frozen=True, slots=True)
class Distribution:
    """An exact discrete probability distribution over integers (probabilities sum to 1)."""

    probabilities: Mapping[int, Fraction]
    _mean: Fraction | None = field(default=None, init=False, repr=False, compare=False)
    _at_least: dict[int, Fraction] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        total = sum(self.probabilities.values(), Fraction(0))
        if total != 1:
            raise ValueError(f"probabilities sum to {total}, not 1")
        if any(p < 0 for p in self.probabilities.values()):
            raise ValueError("negative probability")

    @classmethod
    def constant(cls, value: int) -> Distribution:
        return cls({value: Fraction(1)})

    @classmethod
    def uniform(cls, values: Iterable[int]) -> Distribution:
        items = list(values)
        if not items:
            raise ValueError("a uniform distribution needs at least one value")
        share = Fraction(1, len(items))
        result: dict[int, Fraction] = {}
        for v in items:
            result[v] = result.get(v, Fraction(0)) + share
        return cls(result)

    @classmethod
    def from_weights(cls, weights: Mapping[int, Fraction | int]) -> Distribution:
        total = sum((Fraction(w) for w in weights.values()), Fraction(0))
        if total <= 0:
            raise ValueError("weights must sum to more than 0")
        return cls({k: Fraction(w) / total for k, w in weights.items() if w})

    def __iter__(self) -> Iterator[tuple[int, Fraction]]:
        return iter(sorted(self.probabilities.items()))

    def probability(self, value: int) -> Fraction:
        return self.probabilities.get(value, Fraction(0))

    def probability_that(self, predicate: Callable[[int], bool]) -> Fraction:
        return sum((p for v, p in self.probabilities.items() if predicate(v)), Fraction(0))

    def at_least(self, threshold: int) -> Fraction:
        known = self._at_least
        if known is None:  # asked often (the AI's chance to take a unit out): each answer worked out once
            known = {}
            object.__setattr__(self, "_at_least", known)
        found = known.get(threshold)
        if found is None:
            found = known[threshold] = self.probability_that(lambda v: v >= threshold)
        return found

    @property
    def mean(self) -> Fraction:
        found = self._mean
        if found is None:  # asked often (every odds the AI weighs): worked out once
            found = sum((v * p for v, p in self.probabilities.items()), Fraction(0))
            object.__setattr__(self, "_mean", found)
        return found

    def map(self, function: Callable[[int], int]) -> Distribution:
        result: dict[int, Fraction] = {}
        for v, p in self.probabilities.items():
            key = function(v)
            result[key] = result.get(key, Fraction(0)) + p
        return Distribution(result)

    def add(self, other: Distribution) -> Distribution:
        """The distribution of the sum of two independent variables (convolution)."""
        result: dict[int, Fraction] = {}
        for a, pa in self.probabilities.items():
            for b, pb in other.probabilities.items():
                result[a + b] = result.get(a + b, Fraction(0)) + pa * pb
        return Distribution(result)

    def __add__(self, other: Distribution | int) -> Distribution:
        if isinstance(other, int):
            return self.map(lambda v: v + other)
        return self.add(other)

    def repeat(self, count: int) -> Distribution:
        """The sum of ``count`` independent copies."""
        if count < 0:
            raise ValueError(f"cannot repeat {count} times")
        result = Distribution.constant(0)
        for _ in range(count):
            result = result.add(self)
        return result

    @staticmethod
    def mixture(parts: Iterable[tuple[Fraction, Distribution]]) -> Distribution:
        """Pick a part with its probability, then a value from it."""
        result: dict[int, Fraction] = {}
        for weight, dist in parts:
            for v, p in dist.probabilities.items():
                result[v] = result.get(v, Fraction(0)) + weight * p
        return Distribution(result)


@functools.lru_cache(maxsize=128)
def d(sides: int, count: int = 1) -> Distribution:
    """The exact distribution of the sum of ``count`` dice of ``sides`` sides (one shared, immutable value
    per dice: the AI asks for the same few dice thousands of times)."""
    if sides < 1:
        raise ValueError(f"a die needs at least one side, not {sides}")
    return Distribution.uniform(range(1, sides + 1)).repeat(count)
