"""Order providers: alternating draws, rolled order with roll-offs, a countdown."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as hs

from game.engine.order import Countdown, alternating_draws, rolled_order
from tests.engine.rulebooks import Quotes

Q = Quotes()


def test_the_smaller_posse_draws_first_then_they_alternate() -> None:
    """Frontier: "The Player with the smaller Posse draws first. Players then take turns drawing for each
    Unit in their Posse, alternating with each draw." """
    Q("frontier", "The Player with the smaller Posse draws first.")
    assert alternating_draws({"side1": 4, "side2": 2}, ["side1", "side2"]) == [
        *("side2", "side1", "side2", "side1"),
        *("side1", "side1"),
    ]
    assert (
        alternating_draws({"side1": 2, "side2": 2}, ["side1", "side2"])[0] == "side1"
    )  # a tie: listed first
    assert alternating_draws({"side1": 0, "side2": 3}, ["side1", "side2"]) == ["side2"] * 3


@given(seed=hs.integers(0, 10_000), n=hs.integers(1, 12), die=hs.sampled_from([2, 4, 20]))
def test_ties_roll_off_until_the_order_is_strict(seed: int, n: int, die: int) -> None:
    """Through the Rift: "each participant rolls 1d20. Higher numbers act first, with ties rolling off"."""
    rng = random.Random(seed)
    log: list[tuple[int, int, bool]] = []
    units = list(range(100, 100 + n))
    order = rolled_order(units, lambda: rng.randint(1, die), rolled=lambda u, v, off: log.append((u, v, off)))
    assert sorted(order) == units
    firsts = {u: v for u, v, off in log if not off}
    assert [firsts[u] for u in order] == sorted(firsts.values(), reverse=True)  # higher first
    assert len([e for e in log if not e[2]]) == n


def test_units_that_act_first_do_so_whatever_they_roll() -> None:
    rolls = iter([1, 20, 3, 5])
    order = rolled_order([1, 2, 3], lambda: next(rolls), first=lambda u: u in (1, 3))
    assert order == [3, 1, 2]  # 1 and 3 first (3 rolled higher), then 2's 20


def test_a_countdown_acts_highest_first_and_rerolls_when_spent() -> None:
    """Sunset: "Once the Character has taken their action they then reduce their total by 6 and the new
    highest Initiative goes. Once everyone has reached 0 everyone re-rolls"."""
    Q("sunset", "Once the Character has taken their action they then reduce their total by 6")
    count = Countdown(step=6)
    count.roll_all([1, 2], lambda u: {1: 9, 2: 7}[u])
    turns = []
    while not count.spent:
        actor = count.next()
        assert actor is not None
        turns.append(actor)
        count.acted(actor)
    assert turns == [1, 2, 1, 2]  # 9, 7, then 3, 1
    assert count.next() is None


def test_the_quotes_are_the_rulebooks_words() -> None:
    Q("frontier", "Players then take turns drawing for each Unit in their Posse, alternating with each draw.")
    Q("sunset", "Once everyone has reached 0 everyone re-rolls")
    Q.check()
