"""The engine's movement: one search gives every reachable hex's cheapest cost and a canonical path."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from game.battlefield import Battlefield
from game.engine.movement import INCHES, TILES, path_problem, reach
from game.hexgrid import Hex, hex_distance
from game.mapload import load_battlefield

ROOT = Path(__file__).resolve().parents[2]
MAPS = sorted((ROOT / "maps").glob("*.tmx"))
FIELDS = {p.stem: load_battlefield(p) for p in MAPS}


def _passable(bf: Battlefield) -> list[Hex]:
    return sorted(h for h in bf.hexes if bf.is_passable(h))


@settings(max_examples=60, deadline=None)
@given(name=hs.sampled_from(sorted(FIELDS)), seed=hs.integers(0, 10_000), budget=hs.integers(0, 12))
def test_the_tree_agrees_with_a_plain_cheapest_path_search(name: str, seed: int, budget: int) -> None:
    """The bit-set search gives the same cheapest costs as Dijkstra (``Battlefield.reachable``), every
    canonical path is a legal walk costing exactly its hex's cost, and cutting the tree at a smaller budget
    is the same as searching with it."""
    bf = FIELDS[name].clone()
    rng = random.Random(seed)
    cells = _passable(bf)
    start = rng.choice(cells)
    near = [h for h in cells if 0 < hex_distance(h, start) <= budget + 1]
    blocked = frozenset(rng.sample(near, min(len(near), rng.randint(0, 6))))
    doors = list(bf.doors)
    for h in rng.sample(doors, min(len(doors), rng.randint(0, 3))):  # some doors change first
        bf.set_door(h, not bf.doors[h].is_open)
    tree = reach(bf, start, budget, blocked)
    expected = bf.reachable(start, budget, blocked)
    assert tree.costs == expected
    assert set(tree.ends()) == set(expected) - {start}
    for end in tree.ends():
        path = tree.path_to(end)
        assert path is not None and path[0] == start and path[-1] == end
        assert bf.path_cost(list(path)) == expected[end]
        assert path_problem(bf, tree, path, "Move", units=TILES) is None
        assert tree.reaches(end)
    smaller = rng.randint(0, budget)
    cut = tree.within(smaller)
    again = reach(bf, start, smaller, blocked)
    assert cut.costs == again.costs
    assert all(cut.path_to(h) == again.path_to(h) for h in again.ends())


def test_a_closed_door_is_walked_round_and_an_opened_one_through() -> None:
    bf = FIELDS["frontier_town"].clone()
    door = next(h for h, d in bf.doors.items() if not d.is_open)
    start = next(n for n in bf.neighbors(door) if bf.is_passable(n))
    assert not reach(bf, start, 3).reaches(door)
    bf.set_door(door, True)
    assert reach(bf, start, 3).path_to(door) == (start, door)


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ((), "the path has no step"),
        ((Hex(9, 9),), "is not next to"),
    ],
)
def test_a_bad_path_is_refused_in_words(path: tuple[Hex, ...], words: str) -> None:
    bf = FIELDS["ranch_duel"]
    start = _passable(bf)[len(_passable(bf)) // 2]
    tree = reach(bf, start, 5)
    reason = path_problem(bf, tree, path, "Move", units=INCHES)
    assert reason is not None and words in reason


def test_a_walk_beyond_the_budget_says_what_it_costs() -> None:
    bf = FIELDS["ranch_duel"]
    tree_start = next(h for h in _passable(bf) if all(bf.is_passable(h + Hex(i, 0)) for i in range(1, 7)))
    tree = reach(bf, tree_start, 3)
    path = tuple(tree_start + Hex(i, 0) for i in range(1, 5))
    cost = bf.path_cost([tree_start, *path])
    assert path_problem(bf, tree, path, "Move", units=INCHES) == (
        f'Move: the path costs {cost}" of movement, the unit has 3"'
    )


def test_ends_beyond_a_cost_are_the_ends_that_cost_more() -> None:
    """PathTree.ends_beyond(c): exactly the ends whose cheapest cost is over c, in map order."""
    bf = load_battlefield(Path(__file__).resolve().parents[2] / "maps" / "frontier_town.tmx")
    start = min((h for h in bf.hexes if bf.is_passable(h)), key=lambda h: (h.q, h.r))
    tree = reach(bf, start, 9)
    for cost in (-1, 0, 1, 4, 9, 12):
        expected = tuple(h for h in tree.ends() if (tree.cost_to(h) or 0) > cost)
        assert tree.ends_beyond(cost) == expected


@settings(max_examples=60, deadline=None)
@given(name=hs.sampled_from(sorted(FIELDS)), seed=hs.integers(0, 10_000), budget=hs.integers(0, 10))
def test_the_cheapest_hex_next_to_a_hex_is_its_cheapest_neighbour(name: str, seed: int, budget: int) -> None:
    """``PathTree.cheapest_next_to`` (where a blow could be struck from) is the cheapest of the hex's six
    neighbours the tree reaches, ties to the smaller q then r, on the map, at its edge and off it."""
    from game.hexgrid import hex_neighbors

    bf = FIELDS[name]
    rng = random.Random(seed)
    cells = _passable(bf)
    start = rng.choice(cells)
    tree = reach(bf, start, budget, frozenset(rng.sample(cells, 3)) - {start})
    lows = (min(h.q for h in bf.hexes), min(h.r for h in bf.hexes))
    asked = [*rng.sample(cells, 20), start, Hex(lows[0] - 1, lows[1] - 1), Hex(lows[0] - 1, start.r)]
    for at in asked:
        near = [(c, n.q, n.r, n) for n in hex_neighbors(at) if (c := tree.cost_to(n)) is not None]
        expected = (min(near)[0], min(near)[3]) if near else None
        assert tree.cheapest_next_to(at) == expected
