"""Who acts when: the order providers rulesets configure.

- :func:`alternating_draws` — cards dealt to the posses in turn, the smaller posse first (Frontier: "The
  Player with the smaller Posse draws first. Players then take turns drawing for each Unit in their Posse,
  alternating with each draw."); the acting order then follows the cards (``game.engine.cards``), with a
  Joker placed by its holder as a choice.
- :func:`rolled_order` — each unit rolls, higher first, ties rolling off until every unit's sequence of
  rolls differs (Through the Rift: "each participant rolls 1d20. Higher numbers act first, with ties rolling
  off"), with an optional rule that puts some units first (Quick Draw) among themselves.
- :class:`Countdown` — each unit acts at its current total, highest first, and loses a fixed amount per
  action; when every total is spent, all roll again (Sunset: "Once the Character has taken their action
  they then reduce their total by 6 and the new highest Initiative goes. Once everyone has reached 0
  everyone re-rolls").

They take their randomness as a function (the match's RNG behind it) and report each roll through a
callback, so the ruleset logs the rolls in its own events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

__all__ = ["Countdown", "alternating_draws", "rolled_order"]


def alternating_draws(sizes: Mapping[str, int], side_order: Sequence[str]) -> list[str]:
    """The side drawing each card: sides take turns, the one with fewer to draw first (ties in
    ``side_order``), until every side has drawn ``sizes[side]`` cards."""
    counts = {s: n for s, n in sizes.items() if n > 0}
    order = sorted(
        counts, key=lambda s: (counts[s], side_order.index(s) if s in side_order else len(side_order))
    )
    draws: list[str] = []
    while any(counts[s] for s in order):
        for s in order:
            if counts[s]:
                draws.append(s)
                counts[s] -= 1
    return draws


def rolled_order(
    units: Sequence[int],
    roll: Callable[[], int],
    *,
    first: Callable[[int], bool] = lambda unit: False,
    rolled: Callable[[int, int, bool], None] = lambda unit, value, rolloff: None,
) -> list[int]:
    """Each unit rolls (``roll()``), higher first; units whose rolls tie roll again (a roll-off) until all
    sequences differ. Units for which ``first`` holds act before all others, ordered the same way among
    themselves. ``rolled(unit, value, rolloff)`` hears of every roll, in the order they are made."""
    rolls: dict[int, list[int]] = {}
    for u in units:
        value = roll()
        rolls[u] = [value]
        rolled(u, value, False)
    while True:
        groups: dict[tuple[bool, tuple[int, ...]], list[int]] = {}
        for u in units:
            groups.setdefault((first(u), tuple(rolls[u])), []).append(u)
        tied = [g for g in groups.values() if len(g) > 1]
        if not tied:
            break
        for group in tied:
            for u in group:
                value = roll()
                rolls[u].append(value)
                rolled(u, value, True)
    return sorted(units, key=lambda u: (not first(u), [-v for v in rolls[u]]))


@dataclass(slots=True)
class Countdown:
    """A countdown initiative: ``totals`` per unit; :meth:`next` is the highest total above 0 (ties to
    the lower ``tie`` key: "equal rolls acting at the same time" — one after the other here), :meth:`acted`
    takes ``step`` off, and :attr:`spent` says when everyone is at 0 or below and all roll again."""

    step: int = 6
    totals: dict[int, int] = field(default_factory=dict)

    def roll_all(self, units: Sequence[int], roll: Callable[[int], int]) -> None:
        self.totals = {u: roll(u) for u in units}

    def next(self, tie: Callable[[int], object] = lambda unit: unit) -> int | None:
        live = [u for u, t in self.totals.items() if t > 0]
        if not live:
            return None
        return min(live, key=lambda u: (-self.totals[u], tie(u)))

    def acted(self, unit: int) -> None:
        self.totals[unit] = self.totals.get(unit, 0) - self.step

    @property
    def spent(self) -> bool:
        return all(t <= 0 for t in self.totals.values())
