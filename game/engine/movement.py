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
from dataclasses import dataclass

from game.battlefield import Battlefield
from game.hexgrid import Hex, hex_distance, hex_neighbors

__all__ = ["PathTree", "Units", "path_problem", "reach"]


@dataclass(frozen=True, slots=True)
class Units:
    """How a ruleset words a distance: ``'6"'`` (Frontier, inches) or ``"6 tiles"`` (Through the Rift)."""

    suffix: str = " hexes"

    def __call__(self, n: int) -> str:
        return f"{n}{self.suffix}"


INCHES = Units('"')
TILES = Units(" tiles")


class PathTree:
    """Every hex a unit can reach from ``start`` with ``budget`` movement, without entering ``blocked``,
    by cheapest cost (:meth:`Battlefield.reach_layers`: one bit set per cost). Hex objects are made only
    when asked for (the ends, a path). The canonical path to a hex steps back, from each hex, to the
    first neighbour (in direction order) one move cheaper — a property of the costs alone, so a tree cut
    at a smaller budget (:meth:`within`) gives the same paths as a search with that budget."""

    __slots__ = ("_bf", "_ends", "_key", "_layers", "_reached", "blocked", "budget", "start")

    def __init__(
        self, bf: Battlefield, start: Hex, budget: int, blocked: frozenset[Hex], layers: list[int]
    ) -> None:
        self._bf = bf
        self.start = start
        self.budget = budget
        self.blocked = blocked
        self._layers = layers
        reached = 0
        for layer in layers:
            reached |= layer
        self._reached = reached
        self._key = bf.key_at(start)
        self._ends: tuple[Hex, ...] | None = None

    def _cost_of_key(self, k: int) -> int | None:
        bit = 1 << k
        if not self._reached & bit:
            return None
        for g, layer in enumerate(self._layers):
            if layer & bit:
                return g
        return None  # pragma: no cover - the bit is in some layer

    @property
    def costs(self) -> dict[Hex, int]:
        """Reachable hex -> its cheapest cost, in map order (row by row)."""
        bf = self._bf
        out: dict[Hex, int] = {}
        for g, layer in enumerate(self._layers):
            for k in bf.keys_of(layer):
                out[bf.hex_at_key(k)] = g
        return {h: out[h] for h in sorted(out, key=lambda h: bf.key_at(h) or 0)}

    def ends(self) -> tuple[Hex, ...]:
        """The hexes a walk may end on (every reachable hex but the start), in map order (row by row)."""
        if self._ends is None:
            start = 1 << self._key if self._key is not None else 0
            self._ends = self._bf.hexes_of(self._reached & ~start)
        return self._ends

    def ends_beyond(self, cost: int) -> tuple[Hex, ...]:
        """The ends whose cheapest cost is more than ``cost`` (a run's hexes past the walk), map order."""
        inner = 1 << self._key if self._key is not None else 0  # the start is never an end
        for layer in self._layers[: max(cost, -1) + 1]:
            inner |= layer
        return self._bf.hexes_of(self._reached & ~inner)

    def reaches(self, h: Hex) -> bool:
        """Whether a walk may end on ``h`` (reachable, not the start)."""
        k = self._bf.key_at(h)
        return k is not None and k != self._key and bool(self._reached >> k & 1)

    def cost_to(self, end: Hex) -> int | None:
        k = self._bf.key_at(end)
        return None if k is None else self._cost_of_key(k)

    def cheapest_next_to(self, at: Hex) -> tuple[int, Hex] | None:
        """The cheapest reachable hex next to ``at`` (the start counts, at cost 0) and its cost, ties to the
        smaller q, then r; None if none is reachable (where a blow at ``at`` could be struck from)."""
        bf = self._bf
        k = bf.key_at(at)
        if k is None:  # off the map: its neighbours one by one
            found = [(c, n.q, n.r, n) for n in hex_neighbors(at) if (c := self.cost_to(n)) is not None]
        else:  # by hex number: the neighbours' numbers are fixed offsets (padding is never reached)
            reached = self._reached
            hex_at = bf.hex_at_key
            found = []
            for n in bf.step_keys(k):
                if reached >> n & 1:
                    h = hex_at(n)
                    found.append((self._cost_of_key(n) or 0, h.q, h.r, h))
        if not found:
            return None
        cost, _, _, best = min(found)
        return cost, best

    def path_to(self, end: Hex) -> tuple[Hex, ...] | None:
        """The canonical path from ``start`` to ``end`` inclusive, or None if ``end`` is out of reach."""
        bf = self._bf
        k = bf.key_at(end)
        if k is None:
            return None
        g = self._cost_of_key(k)
        if g is None:
            return None
        return bf.hexes_back(self._layers, k, g)

    def within(self, budget: int) -> PathTree:
        """The same tree cut at a smaller ``budget`` (exactly the search with that budget)."""
        if budget >= self.budget:
            return self
        return PathTree(self._bf, self.start, budget, self.blocked, self._layers[: max(budget, 0) + 1])


def reach(bf: Battlefield, start: Hex, budget: int, blocked: frozenset[Hex] = frozenset()) -> PathTree:
    """The tree of cheapest paths from ``start`` within ``budget`` (see the module docstring)."""
    return PathTree(bf, start, budget, blocked, bf.reach_layers(start, budget, blocked))


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
