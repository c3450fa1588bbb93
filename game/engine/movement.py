"""Movement for every ruleset: one search per unit gives a tree of cheapest paths, and one checker says
whether a path a player drew is a legal walk.

A ruleset decides the rules' part — the budget (Frontier's Move in inches, a Rifter's tiles, a charge's
Move + 1d4 at most), which hexes may not be entered (Frontier: any other unit; Through the Rift: none)
and the words for a distance — and the engine does the rest the same way for all:

- :func:`reach` searches once from the unit's hex (Dijkstra over the battlefield's move costs, doors and
  blockers) and returns a :class:`PathTree`: the cheapest cost of every reachable hex and its
  predecessor, so the canonical path to any end hex is read off the tree (no search per hovered hex);
- :func:`path_problem` checks a path step by step (neighbours, on the map, enterable, not blocked,
  within the budget) and says what is wrong in a player's words.

Ties between equally cheap paths break the same way every time (the search visits hexes in a fixed
order), so the canonical path is part of the rules: the UI draws it, ``LegalAction.expand`` sends it,
the AI plans with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from game.battlefield import Battlefield
from game.hexgrid import Hex, hex_distance

__all__ = ["PathTree", "Units", "path_problem", "reach"]


@dataclass(frozen=True, slots=True)
class Units:
    """How a ruleset words a distance: ``'6"'`` (Frontier, inches) or ``"6 tiles"`` (Through the Rift)."""

    suffix: str = " hexes"

    def __call__(self, n: int) -> str:
        return f"{n}{self.suffix}"


INCHES = Units('"')
TILES = Units(" tiles")


@dataclass(frozen=True, slots=True, eq=False)
class PathTree:
    """Every hex a unit can reach from ``start`` with ``budget`` movement, without entering ``blocked``:
    its cheapest cost (``costs``) and the hex it is entered from on a cheapest path (``came_from``)."""

    start: Hex
    budget: int
    blocked: frozenset[Hex] = frozenset()
    costs: Mapping[Hex, int] = field(default_factory=dict)
    came_from: Mapping[Hex, Hex] = field(default_factory=dict)

    def ends(self) -> tuple[Hex, ...]:
        """The hexes a walk may end on (every reachable hex but the start), sorted."""
        return tuple(sorted(h for h in self.costs if h != self.start))

    def cost_to(self, end: Hex) -> int | None:
        return self.costs.get(end)

    def within(self, budget: int) -> PathTree:
        """The tree a search with the smaller ``budget`` would give, without searching again: the search
        visits hexes in (cost, hex) order, so every hex within ``budget`` keeps its cost and predecessor.
        One search per unit serves all its walks (a Move, a Sprint, a Run & Gun)."""
        if budget >= self.budget:
            return self
        costs = {h: c for h, c in self.costs.items() if c <= budget}
        came = {h: p for h, p in self.came_from.items() if h in costs}
        return PathTree(self.start, budget, self.blocked, costs, came)

    def path_to(self, end: Hex) -> tuple[Hex, ...] | None:
        """The canonical path from ``start`` to ``end`` inclusive, or None if ``end`` is out of reach."""
        if end not in self.costs:
            return None
        out = [end]
        came = self.came_from
        while out[-1] != self.start:
            out.append(came[out[-1]])
        out.reverse()
        return tuple(out)


def reach(bf: Battlefield, start: Hex, budget: int, blocked: frozenset[Hex] = frozenset()) -> PathTree:
    """The tree of cheapest paths from ``start`` within ``budget`` (see the module docstring)."""
    costs, came = bf.reach_tree(start, budget, blocked)
    return PathTree(start, budget, blocked, costs, came)


def path_problem(
    bf: Battlefield,
    tree: PathTree,
    path: tuple[Hex, ...],
    label: str,
    *,
    units: Units = TILES,
    occupant: Mapping[Hex, str] | None = None,
) -> str | None:
    """Why ``path`` is not a legal walk for ``tree``'s unit, in a player's words; None if it is.

    The path may start with the unit's own hex or with its first step. ``occupant`` names who stands on
    a blocked hex, for the message."""
    start = tree.start
    steps = list(path)
    if steps and steps[0] == start:
        steps = steps[1:]
    if not steps:
        return f"{label}: the path has no step"
    cost = 0
    here = start
    for step in steps:
        if not isinstance(step, Hex):
            return f"{label}: a path is a list of [q, r] hexes, not {step!r}"
        if hex_distance(here, step) != 1:
            return f"{label}: {step} is not next to {here}"
        if not bf.in_bounds(step):
            return f"{label}: {step} is off the map"
        step_cost = bf.move_cost(step)
        if step_cost is None:
            door = bf.door_at(step)
            if door is not None and not door.is_open:
                return f"{label}: the door at {step} is closed"
            return f"{label}: {step} cannot be entered ({bf.terrain_at(step).name})"
        if step in tree.blocked:
            who = (occupant or {}).get(step)
            return f"{label}: {step} is taken" + (f" by {who}" if who else "")
        cost += step_cost
        here = step
    if cost > tree.budget:
        return f"{label}: the path costs {units(cost)} of movement, the unit has {units(tree.budget)}"
    return None
