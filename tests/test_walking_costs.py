"""Battlefield.walking_costs: one search from several starts gives, for every hex, the least of the
cheapest costs ``reachable`` gives from each start (the AI's way to the hostiles on foot)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.battlefield import Battlefield
from game.mapload import load_battlefield

MAPS = sorted((Path(__file__).resolve().parent.parent / "maps").glob("*.tmx"))
FIELDS = {p.stem: load_battlefield(p) for p in MAPS}


def _least(bf: Battlefield, starts: list, budget: int) -> dict:
    out: dict = {}
    for s in starts:
        for h, g in bf.reachable(s, budget).items():
            if g < out.get(h, budget + 1):
                out[h] = g
    return out


@settings(max_examples=25)
@given(
    name=st.sampled_from(sorted(FIELDS)),
    picks=st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=4),
    budget=st.sampled_from([0, 3, 12, 10_000]),
)
def test_walking_costs_are_the_least_reachable_cost_from_any_start(
    name: str, picks: list, budget: int
) -> None:
    bf = FIELDS[name]
    open_hexes = sorted((h for h in bf.hexes if bf.is_passable(h)), key=lambda h: (h.q, h.r))
    starts = [open_hexes[i % len(open_hexes)] for i in picks]
    assert bf.walking_costs(starts, budget) == _least(bf, starts, budget)


@pytest.mark.parametrize("is_open", [True, False])
@pytest.mark.parametrize("name", sorted(FIELDS))
def test_doors_count_as_they_stand(name: str, is_open: bool) -> None:
    """A closed door cannot be entered, an open one can: both searches agree either way, from a start
    next to a door."""
    bf = FIELDS[name].clone()
    assert bf.doors, f"{name} has doors"
    for h in list(bf.doors):
        bf.set_door(h, is_open)
    door = min(bf.doors, key=lambda h: (h.q, h.r))
    start = min((n for n in bf.neighbors(door) if bf.is_passable(n)), key=lambda h: (h.q, h.r))
    costs = bf.walking_costs([start], 10_000)
    assert costs == bf.reachable(start, 10_000)
    assert (door in costs) is is_open
    assert bf.walking_costs([], 5) == {}
