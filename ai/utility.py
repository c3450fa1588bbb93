"""The scoring core of Hexslinger's utility AI (Dave Mark and Mike Lewis's Infinite Axis Utility System).

An *option* (a command, or a short plan of commands) is scored by *considerations*: each reads one number
from the option (a hit chance, a distance, the exposure at the end hex), normalises it to 0..1 between
``low`` and ``high``, and maps it through a *response curve* (linear, polynomial, logistic, logit,
normal). The scores are multiplied — any consideration at 0 vetoes the option — with the *compensation
factor* ``s + (1 - s) * (1 - 1/n) * s`` applied to each, so an option judged by many considerations is not
pushed towards 0 just by their number. A weight scales the result; *ranks* order what matters first (take a
unit out or save one > attack or defend > reposition > end), and the best rank with a positive score wins.

Scoring stops early once an option cannot beat the best so far (every factor is at most 1, so the running
product bounds the final score), and an option already in progress can get an *inertia* bonus so an agent
does not dither. Every score keeps its *breakdown* (each consideration's input, normalised value and
curve output), which recomputes the score exactly: the AI can always say why it chose.

Nothing here knows a rule: considerations are functions the agents build from the rules' queries.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from game.commands import value_class

__all__ = [
    "CURVES",
    "Consideration",
    "Curve",
    "Option",
    "Part",
    "Scored",
    "choose",
    "compensated",
    "decision_rng",
    "score_option",
]

T = TypeVar("T")

CURVES = ("linear", "polynomial", "logistic", "logit", "normal", "constant")


def _clamp(x: float) -> float:
    if math.isnan(x):  # no information is no support
        return 0.0
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


@dataclass(frozen=True, slots=True)
class Curve:
    """A response curve on 0..1 (inputs and outputs clamped), in the IAUS's parameters: ``m`` slope,
    ``k`` exponent or steepness, ``b`` vertical shift, ``c`` horizontal shift.

    - linear: ``m * (x - c) + b``
    - polynomial: ``m * (x - c) ** k + b``
    - logistic: ``k / (1 + (1000 e m) ** (c - x)) + b`` (an S, steeper with larger ``m``)
    - logit: ``m * ln(y / (1 - y)) / 5 + 0.5 + b`` with ``y = x - c`` (the S on its side)
    - normal: ``m * exp(-30 k (x - c - 0.5) ** 2) + b`` (a bell around ``c + 0.5``)
    - constant: ``b``
    """

    kind: str = "linear"
    m: float = 1.0
    k: float = 1.0
    b: float = 0.0
    c: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in CURVES:
            raise ValueError(f"unknown curve '{self.kind}': use one of {', '.join(CURVES)}")

    def __call__(self, x: float) -> float:
        x = _clamp(x)
        kind = self.kind
        if kind == "linear":
            y = self.m * (x - self.c) + self.b
        elif kind == "polynomial":
            base = x - self.c
            y = self.m * (base**self.k if base >= 0 else -((-base) ** self.k)) + self.b
        elif kind == "logistic":
            y = self.k / (1.0 + (1000.0 * math.e * self.m) ** (self.c - x)) + self.b
        elif kind == "logit":
            p = min(max(x - self.c, 1e-6), 1.0 - 1e-6)
            y = self.m * math.log(p / (1.0 - p)) / 5.0 + 0.5 + self.b
        elif kind == "normal":
            y = self.m * math.exp(-30.0 * self.k * (x - self.c - 0.5) ** 2) + self.b
        else:
            y = self.b
        return _clamp(y)


@dataclass(frozen=True, slots=True)
class Consideration(Generic[T]):
    """One axis: ``read(option)`` gives a raw number, normalised between ``low`` and ``high`` (``low`` may
    be the larger: then more is worse), shaped by ``curve``. ``serves`` names the rule or aim it stands
    for (docs/AI.md)."""

    name: str
    read: Callable[[T], float]
    curve: Curve = field(default_factory=Curve)
    low: float = 0.0
    high: float = 1.0
    serves: str = ""

    def normalise(self, raw: float) -> float:
        if self.high == self.low:
            return 1.0 if raw >= self.high else 0.0
        return _clamp((raw - self.low) / (self.high - self.low))


@value_class
class Part:
    """One line of a breakdown: the consideration, its raw input, the normalised input and the score it
    gave (after the curve, before compensation)."""

    name: str
    raw: float
    x: float
    score: float


@value_class
class Option(Generic[T]):
    """Something an agent could do, with its rank (higher first), its weight and what it is about."""

    subject: T
    label: str
    rank: int
    weight: float = 1.0
    considerations: tuple[Consideration[T], ...] = ()
    in_progress: bool = False  # the option the agent is already carrying out (gets the inertia bonus)


@value_class
class Scored(Generic[T]):
    """An option's score and why: ``parts`` recompute ``score`` exactly (:meth:`recomputed`)."""

    option: Option[T]
    score: float
    parts: tuple[Part, ...]
    inertia: float = 1.0
    pruned: bool = False  # stopped early: it could not beat the best so far (``score`` is a bound)

    def recomputed(self) -> float:
        n = len(self.option.considerations)
        product = 1.0
        for part in self.parts:
            product *= compensated(part.score, n)
        return product * self.option.weight * self.inertia


def compensated(score: float, count: int) -> float:
    """The IAUS's compensation: ``s + (1 - s) * (1 - 1/n) * s`` for one of ``n`` considerations."""
    if count <= 1:
        return score
    return score + (1.0 - score) * (1.0 - 1.0 / count) * score


def score_option(option: Option[T], best: float = 0.0, inertia: float = 1.0) -> Scored[T]:
    """Score ``option``; stop early (``pruned``) once it cannot beat ``best``."""
    bonus = inertia if option.in_progress else 1.0
    ceiling = option.weight * bonus
    n = len(option.considerations)
    product = 1.0
    parts: list[Part] = []
    for consideration in option.considerations:
        raw = float(consideration.read(option.subject))
        x = consideration.normalise(raw)
        value = consideration.curve(x)
        parts.append(Part(consideration.name, raw, x, value))
        product *= compensated(value, n)
        if product * ceiling <= best and best > 0.0:
            return Scored(option, product * ceiling, tuple(parts), bonus, pruned=True)
    return Scored(option, product * ceiling, tuple(parts), bonus)


def choose(
    options: Sequence[Option[T]],
    rng: random.Random | None = None,
    *,
    band: float = 0.0,
    inertia: float = 1.0,
) -> tuple[Scored[T] | None, list[Scored[T]]]:
    """The option to take and the scores of the ranks looked at, each rank best first (lower ranks than
    the winner's are not scored).

    The highest rank with a positive score wins; within it the best score, or, with ``band`` > 0 and an
    ``rng``, any option scoring within ``band`` (a fraction) of the best, picked at random — so an agent
    is not predictable without playing worse than the band allows. An option in progress within the band
    is kept (the best of them): the plan being carried out is not dropped for one as good, so an agent
    does not dither between equals in the middle of a plan."""
    scored: list[Scored[T]] = []
    for rank in sorted({o.rank for o in options}, reverse=True):
        best = 0.0
        tier = []
        for option in (o for o in options if o.rank == rank):
            result = score_option(option, best if band <= 0 else best * (1.0 - band), inertia)
            tier.append(result)
            if not result.pruned:
                best = max(best, result.score)
        scored.extend(sorted(tier, key=lambda s: -s.score))
        live = [s for s in tier if not s.pruned and s.score > 0.0]
        if not live:
            continue
        top = max(s.score for s in live)
        if band > 0 and rng is not None:
            near = [s for s in live if s.score >= top * (1.0 - band)]
            going = [s for s in near if s.option.in_progress]
            if going:
                pick = max(going, key=lambda s: s.score)
            else:
                pick = near[rng.randrange(len(near))] if len(near) > 1 else near[0]
        else:
            pick = next(s for s in live if s.score == top)
        return pick, scored
    return None, scored


def decision_rng(seed: int, side: str, index: int) -> random.Random:
    """The AI's own RNG for one decision: seeded from the match seed, the side and the decision's index
    (a string seed is hashed with SHA-512, the same in every process) — never the match's dice RNG."""
    return random.Random(f"hexslinger-ai:{seed}:{side}:{index}")
