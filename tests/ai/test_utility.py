"""The utility AI's scoring core: curves, compensation, early-out, ranks, random choice within a band."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from ai.utility import (
    CURVES,
    Consideration,
    Curve,
    Option,
    choose,
    compensated,
    decision_rng,
    score_option,
)

unit = hs.floats(min_value=0.0, max_value=1.0)


@pytest.mark.parametrize("kind", CURVES)
@given(x=hs.floats(allow_nan=True, allow_infinity=True))
def test_every_curve_stays_between_0_and_1(kind: str, x: float) -> None:
    assert 0.0 <= Curve(kind, m=3, k=2, b=0.1, c=0.2)(x) <= 1.0


def test_curves_have_the_iaus_shapes() -> None:
    assert Curve("linear")(0.25) == 0.25
    assert Curve("linear", m=-1, b=1)(0.25) == 0.75  # more is worse
    assert Curve("polynomial", k=2)(0.5) == 0.25
    logistic = Curve("logistic", m=1, k=1, c=0.5)
    assert logistic(0.5) == pytest.approx(0.5) and logistic(0.9) > 0.9 and logistic(0.1) < 0.1
    logit = Curve("logit")
    assert logit(0.5) == pytest.approx(0.5) and logit(0.99) == 1.0 and logit(0.01) == 0.0
    normal = Curve("normal", k=1, c=0.0)
    assert normal(0.5) == 1.0 and normal(0.0) == pytest.approx(math.exp(-7.5)) and normal(0.2) < normal(0.4)
    assert Curve("constant", b=0.3)(0.9) == 0.3
    with pytest.raises(ValueError, match="unknown curve"):
        Curve("spline")


def test_the_compensation_factor_keeps_many_considerations_from_collapsing_the_score() -> None:
    """Dave Mark's compensation: s + (1 - s) * (1 - 1/n) * s per consideration."""
    assert compensated(0.5, 1) == 0.5
    assert compensated(0.5, 4) == 0.5 + 0.5 * 0.75 * 0.5
    raw = 0.8**6
    made_up = compensated(0.8, 6) ** 6
    assert raw < made_up < 0.8
    assert compensated(0.0, 9) == 0.0 and compensated(1.0, 9) == 1.0  # a veto stays a veto


def _option(values: list[float], rank: int = 1, weight: float = 1.0, label: str = "o") -> Option[list[float]]:
    considerations = tuple(Consideration(f"c{i}", (lambda v, i=i: v[i])) for i in range(len(values)))
    return Option(values, label, rank, weight, considerations)


@given(values=hs.lists(unit, min_size=1, max_size=6), weight=hs.floats(0.1, 3.0))
def test_a_breakdown_recomputes_its_score(values: list[float], weight: float) -> None:
    scored = score_option(_option(values, weight=weight))
    assert not scored.pruned
    assert scored.recomputed() == pytest.approx(scored.score)
    assert [p.raw for p in scored.parts] == values


@given(options=hs.lists(hs.lists(unit, min_size=1, max_size=5), min_size=1, max_size=12))
def test_early_out_never_changes_the_choice(options: list[list[float]]) -> None:
    built = [_option(v, label=str(i)) for i, v in enumerate(options)]
    pick, _ = choose(built)
    full = [score_option(o) for o in built]
    best = max(s.score for s in full)
    if best <= 0:
        assert pick is None
    else:
        assert pick is not None and pick.score == pytest.approx(best)
        assert not pick.pruned and pick.recomputed() == pytest.approx(pick.score)


def test_a_higher_rank_wins_over_a_better_score_lower_down() -> None:
    kill = _option([0.2], rank=3, label="take the shot")
    move = _option([1.0], rank=1, label="walk")
    pick, scored = choose([move, kill])
    assert pick is not None and pick.option.label == "take the shot"
    assert all(s.option.rank == 3 for s in scored)  # lower ranks are not scored once one wins
    vetoed = _option([0.0], rank=3, label="impossible")
    pick, _ = choose([vetoed, move])
    assert pick is not None and pick.option.label == "walk"  # a rank with nothing positive is passed over


def test_random_choice_within_the_band_is_seeded_and_stays_near_the_best() -> None:
    options = [_option([v], label=f"{v}") for v in (1.0, 0.97, 0.95, 0.5)]
    picks = {choose(options, decision_rng(7, "side1", i), band=0.06)[0].option.label for i in range(60)}  # type: ignore[union-attr]
    assert picks == {"1.0", "0.97", "0.95"}
    again = [choose(options, decision_rng(7, "side1", i), band=0.06)[0] for i in range(10)]
    same = [choose(options, decision_rng(7, "side1", i), band=0.06)[0] for i in range(10)]
    assert [p.option.label for p in again if p] == [p.option.label for p in same if p]
    assert choose(options, random.Random(1))[0].option.label == "1.0"  # type: ignore[union-attr]


def test_inertia_favours_the_option_in_progress() -> None:
    a = _option([0.8], label="keep going")
    a = Option(a.subject, a.label, a.rank, a.weight, a.considerations, in_progress=True)
    b = _option([0.85], label="switch")
    assert choose([a, b])[0].option.label == "switch"  # type: ignore[union-attr]
    assert choose([a, b], inertia=1.1)[0].option.label == "keep going"  # type: ignore[union-attr]


def test_an_option_in_progress_within_the_band_is_kept() -> None:
    """Within the band the pick is random, except that the plan being carried out is kept over an equal
    one (no dithering in the middle of a plan); one in progress but below the band is not."""
    options = [_option([v], label=f"{v}") for v in (1.0, 0.97, 0.95)]
    going = Option(options[2].subject, "going", 1, 1.0, options[2].considerations, in_progress=True)
    mixed = [options[0], options[1], going]
    picks = {choose(mixed, decision_rng(7, "side1", i), band=0.06)[0].option.label for i in range(40)}  # type: ignore[union-attr]
    assert picks == {"going"}
    far = _option([0.5], label="far")
    stale = Option(far.subject, "stale", 1, 1.0, far.considerations, in_progress=True)
    picks = {
        choose([*options, stale], decision_rng(7, "side1", i), band=0.06)[0].option.label for i in range(40)
    }  # type: ignore[union-attr]
    assert picks == {"1.0", "0.97", "0.95"}


def test_considerations_normalise_between_low_and_high() -> None:
    near_is_good = Consideration("distance", lambda d: d, low=10, high=0)
    assert near_is_good.normalise(0) == 1.0 and near_is_good.normalise(10) == 0.0
    assert near_is_good.normalise(5) == 0.5 and near_is_good.normalise(20) == 0.0
