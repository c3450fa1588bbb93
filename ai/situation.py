"""One decision's view of the match for the utility AI, with what it has asked kept for the rest of the
decision (unit facts, threats, walk and charge trees)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from game.commands import Command
from game.engine.facts import Odds, UnitFacts, WeaponFacts
from game.engine.match import MatchView
from game.engine.movement import PathTree
from game.engine.movement import reach as reach_tree
from game.hexgrid import Hex, hex_distance

__all__ = ["Aim", "Situation"]

_OFF = Hex(1 << 30, 1 << 30)  # no unit's position: not yet asked (None is an answer: off the map)


@dataclass(slots=True)
class Situation:
    """One decision's view of the match, with what it has asked kept for the rest of the decision."""

    view: MatchView
    side: str
    facts: dict[int, UnitFacts] = field(default_factory=dict)
    threat: dict[tuple[int, int, Hex], float] = field(default_factory=dict)
    charges: dict[int, PathTree | None] = field(default_factory=dict)
    reach: dict[int, tuple[Hex, ...]] = field(default_factory=dict)
    reach_sets: dict[int, frozenset[Hex]] = field(default_factory=dict)
    strides: dict[int, int] = field(default_factory=dict)
    hostile: list[int] | None = None
    goal_areas: dict[int, frozenset[Hex]] = field(default_factory=dict)
    who: dict[int, tuple[str, str]] = field(default_factory=dict)
    best_attack: dict[int, float] = field(default_factory=dict)  # a unit's best attack from where it stands
    exposures: dict[tuple[int, Hex, int], float] = field(default_factory=dict)  # ai.threat.exposure
    aims: dict[tuple[int, int], tuple[Aim, ...]] = field(default_factory=dict)
    positions: dict[int, Hex | None] = field(default_factory=dict)

    def where(self, unit: int) -> Hex | None:
        """Where ``unit`` stands (None: off the map), asked once per decision."""
        found = self.positions.get(unit, _OFF)
        if found is _OFF:
            found = self.positions[unit] = self.view.position(unit)
        return found

    def of(self, unit: int) -> UnitFacts:
        found = self.facts.get(unit)
        if found is None:
            found = self.facts[unit] = self.view.unit_facts(unit)
        return found

    def attacks(self, unit: int, target: int) -> tuple[Aim, ...]:
        """``unit``'s weapons it attacks with, each with its attack on ``target`` and that attack's what-if
        odds at any hexes (:class:`Aim`: made once per decision, for the position this situation sees;
        the threats ask them for every place weighed, the walks from every place)."""
        key = (unit, target)
        found = self.aims.get(key)
        if found is None:
            view = self.view
            found = self.aims[key] = tuple(
                Aim(w, Command(w.action, actor=unit, target=target, option=w.option), view)
                for w in self.of(unit).weapons
                if w.action
            )
        return found

    def side_of(self, unit: int) -> str:
        """The side ``unit`` plays for, asked once per decision."""
        return self._who(unit)[0]

    def name(self, unit: int) -> str:
        """``unit``'s name as the log says it, asked once per decision."""
        return self._who(unit)[1]

    def _who(self, unit: int) -> tuple[str, str]:
        found = self.who.get(unit)
        if found is None:
            ident = self.view.identity(unit)
            found = self.who[unit] = (ident.side, ident.name)
        return found

    def foes(self) -> list[int]:
        if self.hostile is None:
            self.hostile = [
                u
                for u in self.view.units()
                if self.side_of(u) != self.side and self.where(u) is not None and self.of(u).fights
            ]
        return self.hostile

    def walkable(self, unit: int) -> tuple[Hex, ...]:
        """Where ``unit`` could walk (its Move), asked once per decision."""
        found = self.reach.get(unit)
        if found is None:
            try:
                found = self.view.movement(unit).ends()
            except NotImplementedError:
                found = ()
            self.reach[unit] = found
        return found

    def walkable_set(self, unit: int) -> frozenset[Hex]:
        found = self.reach_sets.get(unit)
        if found is None:
            found = self.reach_sets[unit] = frozenset(self.walkable(unit))
        return found

    def stride(self, unit: int) -> int:
        """How far (in hexes) ``unit`` could get from where it stands this turn."""
        found = self.strides.get(unit)
        if found is None:
            here = self.where(unit)
            ends = self.walkable(unit)
            if here is None or not ends:
                found = 0
            else:  # hex_distance inline (every hostile's every place, once per decision)
                q, r = here.q, here.r
                found = max(abs(h.q - q) + abs(h.r - r) + abs(h.q + h.r - q - r) for h in ends) // 2
            self.strides[unit] = found
        return found

    def charge_tree(self, unit: int, budget: int) -> PathTree | None:
        """Where ``unit`` could get with ``budget`` movement (its Move and the most a charge adds)."""
        if unit not in self.charges:
            try:
                walk = self.view.movement(unit)
            except NotImplementedError:
                self.charges[unit] = None
            else:
                self.charges[unit] = reach_tree(self.view.battlefield, walk.start, budget, walk.blocked)
        return self.charges[unit]

    def share_threats(self, other: Situation) -> None:
        """Use ``other``'s threats and the hostiles' walk and charge trees (kept in both from now on):
        only for a position where every unit stands where it stood in ``other`` and nothing the threats
        read has changed (the AI's trial of an action that moves no one)."""
        self.threat = other.threat
        self.share_walks(other)

    def share_walks(self, other: Situation) -> None:
        """Use ``other``'s walk and charge trees of the hostiles (kept in both from now on): only for a
        position where every unit stands where it stood in ``other`` and no hostile's facts changed (the
        AI's trial of an action that moves no one but changes its own defence: its threats do change)."""
        self.charges = other.charges
        self.reach = other.reach
        self.reach_sets = other.reach_sets
        self.strides = other.strides

    def adopt(self, other: Situation) -> None:
        """Start from everything ``other`` has asked: only for a position whose public state is
        ``other``'s (``Match.key``: the AI's trial of the command that was then taken for real), where
        every answer is the same."""
        self.facts = dict(other.facts)
        self.positions = dict(other.positions)
        self.threat = other.threat
        self.charges = other.charges
        self.reach = other.reach
        self.reach_sets = other.reach_sets
        self.strides = other.strides
        self.hostile = other.hostile
        self.goal_areas = other.goal_areas
        self.who = other.who
        self.best_attack = other.best_attack
        self.exposures = other.exposures

    def allies(self, me: int) -> list[int]:
        return [u for u in self.view.units(self.side) if u != me and self.of(u).fights]

    # -- an encounter's objectives (MatchView.goals: public), none in a plain battle ---------------------
    def goal_area(self, unit: int) -> frozenset[Hex]:
        """Where ``unit``'s objectives want it: the exit when it carries the loot, else the loot where it
        lies; an exit it is to reach; an area to hold, its own side's or one the other side must hold
        (to contest it). Empty: no objective moves it (fight as in any battle)."""
        found = self.goal_areas.get(unit)
        if found is not None:
            return found
        side = self.side_of(unit)
        want: set[Hex] = set()
        for goal in self.view.goals():
            if goal.kind == "hold":
                want |= goal.area
            elif goal.side != side:
                continue
            elif goal.kind == "escape" and goal.unit in (0, unit):
                want |= goal.area
            elif goal.kind == "loot" and goal.carrier == unit:
                want = set(goal.area)
                break
            elif goal.kind == "loot" and not goal.carrier:
                want |= goal.spot
        found = self.goal_areas[unit] = frozenset(want)
        return found

    def goal_ends(self, unit: int, hexes: Iterable[Hex], ranked: list[Hex]) -> list[Hex]:
        """``ranked`` (the places weighed for a walk) and the three of ``hexes`` nearest ``unit``'s
        objective area."""
        area = self.goal_area(unit)
        if not area:
            return ranked
        near = sorted(hexes, key=lambda h: (to_area(area, h), h.q, h.r))[:3]
        return ranked + [h for h in near if h not in ranked]

    def goal_progress(self, unit: int, here: Hex, end: Hex, progress: float, budget: int) -> float:
        """A walk's progress counting its way to ``unit``'s objective area: 1 to end in it, else how much
        closer it comes per movement point (the better of that and ``progress`` towards the hostiles)."""
        area = self.goal_area(unit)
        if not area:
            return progress
        if end in area:
            return 1.0
        before = to_area(area, here)
        after = to_area(area, end)
        return max(progress, min(1.0, (before - after) / max(1, budget)))


class Aim:
    """A weapon's attack on one target, with its what-if odds at any hexes (``MatchView.odds``) made the
    first time they are asked (many attacks a decision lists are never asked: out of reach everywhere)."""

    __slots__ = ("_odds", "command", "view", "weapon")

    def __init__(self, weapon: WeaponFacts, command: Command, view: MatchView) -> None:
        self.weapon = weapon
        self.command = command
        self.view = view
        self._odds: Odds | None = None

    def odds(self) -> Odds:
        found = self._odds
        if found is None:
            found = self._odds = self.view.odds(self.command)
        return found


def to_area(area: frozenset[Hex], h: Hex) -> int:
    """The distance in hexes from ``h`` to the nearest hex of ``area``, kept per area (an objective's
    area is the same all game, and the same places are weighed decision after decision)."""
    known = _TO_AREA.get(area)
    if known is None:
        if len(_TO_AREA) >= AREAS_KEPT:
            _TO_AREA.clear()
        known = _TO_AREA[area] = {}
    found = known.get(h)
    if found is None:
        found = known[h] = min(hex_distance(h, a) for a in area)
    return found


AREAS_KEPT = 64
_TO_AREA: dict[frozenset[Hex], dict[Hex, int]] = {}
