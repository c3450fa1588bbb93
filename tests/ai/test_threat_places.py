"""ai.threat.nearest_end: the ring search finds the same place as looking at every place a hostile could
walk to (the nearest to the hex asked about, the least (q, r) of the nearest)."""

from __future__ import annotations

from typing import cast

from hypothesis import given, settings
from hypothesis import strategies as st

from ai.situation import Situation
from ai.threat import firing_places, nearest_end
from game.engine.match import MatchView
from game.hexgrid import Hex, hex_distance

FOE = 7


class _Where:
    """The one thing the search asks of the view: where the hostile stands."""

    def __init__(self, here: Hex) -> None:
        self.here = here

    def position(self, unit: int) -> Hex | None:
        return self.here if unit == FOE else None


def _situation(here: Hex, ends: tuple[Hex, ...]) -> Situation:
    s = Situation(cast(MatchView, _Where(here)), "law")
    s.reach[FOE] = ends  # what view.movement(FOE).ends() would have given
    return s


def _brute(ends: tuple[Hex, ...], at: Hex) -> Hex:
    return min(ends, key=lambda h: (hex_distance(h, at), h.q, h.r))


disc = [Hex(q, r) for q in range(-6, 7) for r in range(-6, 7) if hex_distance(Hex(0, 0), Hex(q, r)) <= 6]


@settings(max_examples=300, deadline=None)
@given(
    st.sets(st.sampled_from([h for h in disc if h != Hex(0, 0)]), min_size=1),
    st.integers(-16, 16),
    st.integers(-16, 16),
)
def test_the_ring_search_finds_the_nearest_place_as_a_full_scan_does(
    reachable: set[Hex], q: int, r: int
) -> None:
    ends = tuple(sorted(reachable, key=lambda h: (h.r, h.q)))  # holes anywhere: walls, other units
    at = Hex(q, r)
    s = _situation(Hex(0, 0), ends)
    if at in reachable:
        assert firing_places(s, FOE, Hex(0, 0), at) == [Hex(0, 0), at]
        return
    assert nearest_end(s, FOE, at) == _brute(ends, at)
    assert firing_places(s, FOE, Hex(0, 0), at) == [Hex(0, 0), _brute(ends, at)]


def test_ties_go_to_the_least_q_then_r() -> None:
    ends = (Hex(2, 0), Hex(0, 2), Hex(-2, 2), Hex(2, -2))
    s = _situation(Hex(0, 0), ends)
    # (0, 0) is 2 away from all four: the least (q, r) wins
    assert nearest_end(s, FOE, Hex(0, 0)) == Hex(-2, 2)
