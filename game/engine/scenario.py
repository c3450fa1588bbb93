"""An encounter's own rules on top of a ruleset's: fixed starts, deploy areas, reinforcements, a round
limit and objectives. All of it is Hexslinger's own (the rulebooks give no scenario rules) and the same for
every ruleset: docs/RULES.md "Encounter objectives (own)".

A :class:`Scenario` is fixed for the whole match (``Match.scenario``; the encounter file that made it is
:mod:`game.encounter`); what changes during play — rounds an area has been held, who carries the loot,
who got away, the verdict — is a :class:`ScenarioState` component on an entity of its own, so it is part
of the digest, of a clone and of a save's replay. A match without a scenario has neither (its digests are
those of before).

The rulesets call in at four places, each one line:

- :func:`fixed_start` / :func:`start_problem` when a unit deploys (``game.engine.turns`` offers the fixed
  hex; a ruleset's deploy check asks :func:`start_problem`);
- :func:`round_starts` at the start of every round, before its initiative: the reinforcements due come on
  (a ruleset whose order is rolled once for the game appends them to it);
- :func:`round_ends` at the end of every round: held areas are counted, a time winner is named;
- :func:`settle` in the ruleset's end check after every command: the loot is picked up or dropped, exits
  are reached, a protected unit is missed; it returns the verdict once one is reached.

Taking out the other posse (the rulesets' own winning rule) always stands beside the objectives.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final

import esper

from game.components import Identity, Position, Removed
from game.engine.protocol import Outcome, UnitView
from game.events import Event, Moved, Note
from game.hexgrid import Hex, hex_distance

if TYPE_CHECKING:
    from game.engine.match import Match

__all__ = [
    "ESCAPED",
    "GOAL_KINDS",
    "RESERVE",
    "Arrival",
    "Goal",
    "GoalView",
    "Scenario",
    "ScenarioState",
    "companions",
    "fixed_start",
    "goal_views",
    "in_reserve",
    "prepare",
    "round_ends",
    "round_starts",
    "settle",
    "start_problem",
]

GOAL_KINDS: Final = ("eliminate", "hold", "escape", "protect", "loot")
RESERVE: Final = "reserve"  # Removed.reason of a reinforcement that has not come on yet
ESCAPED: Final = "escaped"


@dataclass(frozen=True, slots=True)
class Goal:
    """One objective. ``side`` wins by it (protect: the side that must keep ``unit`` in the fight; the
    other side wins if it leaves). ``area``: the area to hold, or the exit (escape, loot); ``spot``: where
    the loot lies; ``rounds``: rounds in a row to hold; ``unit``: the posse index of the unit to protect
    or to get away (-1: any unit of the side); ``count``: units that must get away."""

    kind: str
    side: str
    label: str
    area: frozenset[Hex] = frozenset()
    spot: frozenset[Hex] = frozenset()
    rounds: int = 0
    unit: int = -1
    count: int = 1


@dataclass(frozen=True, slots=True)
class Arrival:
    """A reinforcement: unit ``index`` of ``side``'s posse comes on at the start of round ``round`` on the
    first free hex of ``hexes`` (in that order)."""

    side: str
    index: int
    round: int
    hexes: tuple[Hex, ...]


@dataclass(frozen=True, slots=True)
class Scenario:
    """What an encounter adds to a match. ``starts``: (side, posse index, hex) a unit must deploy on;
    ``zones``: (side, hexes) replacing the map's deploy zone of that side; ``rounds``: the round limit
    (None: the map's or the ruleset's); ``time_winner``: the side that wins when the last round ends (""
    : the ruleset says, usually a draw)."""

    goals: tuple[Goal, ...] = ()
    starts: tuple[tuple[str, int, Hex], ...] = ()
    arrivals: tuple[Arrival, ...] = ()
    zones: tuple[tuple[str, frozenset[Hex]], ...] = ()
    rounds: int | None = None
    time_winner: str = ""
    name: str = ""

    def start_of(self, side: str, index: int) -> Hex | None:
        return next((h for s, i, h in self.starts if s == side and i == index), None)

    # -- a save keeps the scenario as JSON (game.save) --------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        def hexes(hs: Iterable[Hex]) -> list[list[int]]:
            return [[h.q, h.r] for h in sorted(hs)]

        return {
            "name": self.name,
            "rounds": self.rounds,
            "time_winner": self.time_winner,
            "goals": [
                {
                    "kind": g.kind,
                    "side": g.side,
                    "label": g.label,
                    "area": hexes(g.area),
                    "spot": hexes(g.spot),
                    "rounds": g.rounds,
                    "unit": g.unit,
                    "count": g.count,
                }
                for g in self.goals
            ],
            "starts": [[s, i, h.q, h.r] for s, i, h in self.starts],
            "arrivals": [
                {"side": a.side, "index": a.index, "round": a.round, "hexes": [[h.q, h.r] for h in a.hexes]}
                for a in self.arrivals
            ],
            "zones": [[s, hexes(hs)] for s, hs in self.zones],
        }

    @classmethod
    def from_json(cls, raw: Any) -> Scenario:
        """The scenario a save kept; ValueError (or KeyError/TypeError) if it is malformed."""

        def hexes(raw: Any) -> list[Hex]:
            return [Hex(int(q), int(r)) for q, r in raw]

        rounds = raw["rounds"]
        return cls(
            goals=tuple(
                Goal(
                    str(g["kind"]),
                    str(g["side"]),
                    str(g["label"]),
                    frozenset(hexes(g["area"])),
                    frozenset(hexes(g["spot"])),
                    int(g["rounds"]),
                    int(g["unit"]),
                    int(g["count"]),
                )
                for g in raw["goals"]
            ),
            starts=tuple((str(s), int(i), Hex(int(q), int(r))) for s, i, q, r in raw["starts"]),
            arrivals=tuple(
                Arrival(str(a["side"]), int(a["index"]), int(a["round"]), tuple(hexes(a["hexes"])))
                for a in raw["arrivals"]
            ),
            zones=tuple((str(s), frozenset(hexes(hs))) for s, hs in raw["zones"]),
            rounds=None if rounds is None else int(rounds),
            time_winner=str(raw["time_winner"]),
            name=str(raw["name"]),
        )


@dataclass(slots=True)
class ScenarioState:
    """What the objectives have come to (one entry per goal): rounds in a row an area was held, the
    loot's carrier (0: nobody) and the hexes where it lies to be picked up ([] while carried), the units
    that reached an exit; and the verdict once reached (``decided``)."""

    held: list[int] = field(default_factory=list)
    carrier: list[int] = field(default_factory=list)
    lying: list[list[Hex]] = field(default_factory=list)
    away: list[list[int]] = field(default_factory=list)
    taken: list[bool] = field(default_factory=list)  # the loot has been picked up once
    decided: bool = False
    winner: str = ""
    reason: str = ""


@dataclass(frozen=True, slots=True)
class GoalView:
    """An objective as every player may see it (the battle screen, the AI): its words, whose it is, how
    far it has come ("held 1 of 2 rounds"), the hexes to mark and where the loot is now."""

    kind: str
    side: str
    label: str
    progress: str
    area: frozenset[Hex]
    spot: frozenset[Hex]
    unit: int = 0  # the unit to get away or to protect (0: any unit of the side)
    carrier: int = 0  # who carries the loot now (0: nobody)
    words: str = ""  # whose it is, what it asks and how far it has come, in a player's words


# == setting up ===================================================================================


def prepare(match: Match) -> None:
    """After the ruleset's setup: the reinforcements wait off the map, out of play; the state entity."""
    scenario = match.scenario
    if scenario is None:
        return
    for arrival in scenario.arrivals:
        unit = _unit(match, arrival.side, arrival.index)
        if unit is not None:
            for waiting in (unit, *companions(match, unit)):  # a companion waits with its owner (RULES.md E4)
                esper.add_component(waiting, Removed(RESERVE))
    goals = scenario.goals
    match.create_entity(
        ScenarioState(
            held=[0] * len(goals),
            carrier=[0] * len(goals),
            lying=[sorted(g.spot) if g.kind == "loot" else [] for g in goals],
            away=[[] for _ in goals],
            taken=[False] * len(goals),
        )
    )


def companions(match: Match, unit: int) -> list[int]:
    """The units that belong to ``unit`` and go where it goes (Through the Rift's Animal Friend dog), from
    the ruleset's optional ``companions(match, unit)``; none when it has no such hook."""
    ask = getattr(match.ruleset, "companions", None)
    return list(ask(match, unit)) if callable(ask) else []


def _unit(match: Match, side: str, index: int) -> int | None:
    for unit in match.units(side, in_play=False):
        if esper.component_for_entity(unit, Identity).index == index:
            return unit
    return None


def _state(match: Match) -> ScenarioState | None:
    if match.scenario is None:
        return None
    for _, state in match.iter_components(ScenarioState):
        return state
    return None


def _side_name(match: Match, side: str) -> str:
    posse = next((p for p in match.posses if p.side == side), None)
    return posse.name if posse is not None and posse.name else match.battlefield.side_name(side)


def _other(match: Match, side: str) -> str:
    return next(p.side for p in match.posses if p.side != side)


# == deployment ===================================================================================


def fixed_start(match: Match, unit: int) -> Hex | None:
    """The hex the encounter fixes for ``unit`` to start on, or None (it deploys in its zone)."""
    scenario = match.scenario
    if scenario is None or not scenario.starts:
        return None
    ident = esper.component_for_entity(unit, Identity)
    return scenario.start_of(ident.side, ident.index)


def in_reserve(unit: int) -> bool:
    """Whether ``unit`` is a reinforcement that has not come on yet: it is not on the field, so a rule that
    counts the units on the field (Frontier's Cool checks, Golden Frontiers' giving up) leaves it out."""
    removed = esper.try_component(unit, Removed)
    return removed is not None and removed.reason == RESERVE


def kept_starts(match: Match) -> set[Hex]:
    """The fixed start hexes of units still to deploy (no other unit may take them)."""
    scenario = match.scenario
    if scenario is None or not scenario.starts:
        return set()
    kept = set()
    for side, index, h in scenario.starts:
        unit = _unit(match, side, index)
        if unit is not None and esper.component_for_entity(unit, Position).hex is None:
            kept.add(h)
    return kept


def start_problem(match: Match, unit: int, h: Hex) -> str | None:
    """Why ``unit`` may not deploy on ``h`` for the encounter's sake (its fixed start is elsewhere, or
    the hex is kept for another unit's), else None: the ruleset's own deploy rules still apply. A unit
    with a fixed start may stand on it even outside its side's zone (see :func:`in_deploy_area`)."""
    fixed = fixed_start(match, unit)
    name = esper.component_for_entity(unit, Identity).name
    if fixed is not None:
        return None if h == fixed else f"the encounter starts {name} on {fixed}"
    if h in kept_starts(match):
        return f"{h} is kept for another unit's fixed start"
    return None


def in_deploy_area(match: Match, unit: int, h: Hex) -> bool:
    """Whether ``h`` is where ``unit`` may deploy: its fixed start, or else its side's zone."""
    fixed = fixed_start(match, unit)
    if fixed is not None:
        return h == fixed
    side = esper.component_for_entity(unit, Identity).side
    return h in match.battlefield.deploy_zones.get(side, frozenset())


# == rounds =======================================================================================


def round_starts(match: Match, number: int, events: list[Event]) -> list[int]:
    """The reinforcements due at round ``number`` come on (before the round's initiative), each on the
    first free passable hex of its arrival hexes, its companions (:func:`companions`) with it on the free
    arrival hexes nearest it; one with none free comes on the next round. Returns the units that came on,
    in that order."""
    scenario = match.scenario
    if scenario is None or not scenario.arrivals:
        return []
    came: list[int] = []
    for arrival in scenario.arrivals:
        if arrival.round > number:
            continue
        unit = _unit(match, arrival.side, arrival.index)
        if unit is None:
            continue
        if in_reserve(unit):
            if not _come_on(match, unit, arrival.hexes, number, events):
                continue
            came.append(unit)
        here = match.position(unit)
        for pet in companions(match, unit):  # it comes on with its owner, on the free arrival hex nearest
            if in_reserve(pet) and _come_on(match, pet, _nearest(arrival.hexes, here), number, events):
                came.append(pet)
    return came


def _nearest(hexes: tuple[Hex, ...], here: Hex | None) -> tuple[Hex, ...]:
    """``hexes`` nearest ``here`` first (ties in their own order)."""
    if here is None:
        return hexes
    return tuple(sorted(hexes, key=lambda h: hex_distance(h, here)))


def _come_on(match: Match, unit: int, hexes: tuple[Hex, ...], number: int, events: list[Event]) -> bool:
    """``unit`` comes on at the first free passable hex of ``hexes``; False (said) when none is free."""
    bf = match.battlefield
    taken = set(match.occupied())
    spot = next((h for h in hexes if bf.is_passable(h) and h not in taken), None)
    name = esper.component_for_entity(unit, Identity).name
    if spot is None:
        events.append(Note(number, unit, f"{name} cannot come on: every arrival hex is taken"))
        return False
    esper.remove_component(unit, Removed)
    esper.component_for_entity(unit, Position).hex = spot
    events.append(Note(number, unit, f"reinforcement: {name} arrives"))
    events.append(Moved(number, unit, (spot,), 0))
    return True


def round_ends(match: Match, number: int, limit: int, events: list[Event]) -> Outcome | None:
    """The end of round ``number`` (``limit``: the encounter's last round): each hold objective's side
    that has a unit in its area and the other side none counts one more round in a row (else back to
    0) and wins at its ``rounds``; at the limit the time winner, if any, wins. The verdict is kept for
    :func:`settle` and returned."""
    state = _state(match)
    scenario = match.scenario
    if state is None or scenario is None or state.decided:
        return None if state is None or not state.decided else Outcome(state.winner or None, state.reason)
    where = match.occupied()
    for i, goal in enumerate(scenario.goals):
        if goal.kind != "hold":
            continue
        sides = {esper.component_for_entity(u, Identity).side for h, u in where.items() if h in goal.area}
        state.held[i] = state.held[i] + 1 if sides == {goal.side} else 0
        if sides == {goal.side}:
            events.append(
                Note(
                    number,
                    None,
                    f"{_side_name(match, goal.side)} holds {goal.label}: "
                    f"{state.held[i]} of {goal.rounds} rounds",
                )
            )
        if state.held[i] >= goal.rounds:
            return _decide(
                state,
                goal.side,
                f"{_side_name(match, goal.side)} held {goal.label} for "
                f"{goal.rounds} round{'s' if goal.rounds != 1 else ''}",
            )
    if scenario.time_winner and number >= limit:
        name = _side_name(match, scenario.time_winner)
        return _decide(
            state, scenario.time_winner, f"the sun went down after {number} rounds: {name} held out"
        )
    return None


def _decide(state: ScenarioState, winner: str, reason: str) -> Outcome:
    state.decided, state.winner, state.reason = True, winner, reason
    return Outcome(winner or None, reason)


# == after every command ============================================================================


def settle(match: Match, events: list[Event]) -> Outcome | None:
    """After a command (a ruleset's end check): the loot is picked up by a unit of its side standing on
    it, dropped where its carrier left the fight, carried off through the exit; units reach an exit; a
    protected unit that left the fight loses the encounter for its side. Returns the verdict (this one
    or one :func:`round_ends` reached), None while the encounter goes on."""
    state = _state(match)
    scenario = match.scenario
    if state is None or scenario is None:
        return None
    if state.decided:
        return Outcome(state.winner or None, state.reason)
    where = match.occupied()
    for i, goal in enumerate(scenario.goals):
        verdict = _settle_goal(match, state, i, goal, where=where, events=events)
        if verdict is not None:
            return verdict
    return None


def _settle_goal(
    match: Match, state: ScenarioState, i: int, goal: Goal, *, where: dict[Hex, int], events: list[Event]
) -> Outcome | None:
    side_name = _side_name(match, goal.side)
    if goal.kind == "protect":
        unit = _unit(match, goal.side, goal.unit)
        removed = None if unit is None else esper.try_component(unit, Removed)
        if unit is not None and removed is not None and removed.reason not in (RESERVE, ESCAPED):
            name = esper.component_for_entity(unit, Identity).name
            other = _other(match, goal.side)
            return _decide(state, other, f"{name} was taken out: {side_name} failed to protect them")
        return None
    if goal.kind == "escape":
        for h, unit in sorted(where.items()):
            ident = esper.component_for_entity(unit, Identity)
            if h not in goal.area or ident.side != goal.side or unit in state.away[i]:
                continue
            if goal.unit >= 0 and ident.index != goal.unit:
                continue
            state.away[i].append(unit)
            events.append(Note(_round(match), unit, f"{ident.name} reached the way out ({goal.label})"))
        if len(state.away[i]) >= goal.count:
            return _decide(state, goal.side, f"{side_name} got away: {goal.label}")
        return None
    if goal.kind == "loot":
        carrier = state.carrier[i]
        if carrier:
            removed = esper.try_component(carrier, Removed)
            if removed is not None:  # the carrier left the fight: the loot lies where it fell
                fell = esper.component_for_entity(carrier, Position).hex
                state.carrier[i] = 0
                state.lying[i] = [fell] if fell is not None else sorted(goal.spot)
                name = esper.component_for_entity(carrier, Identity).name
                events.append(Note(_round(match), carrier, f"{name} drops the loot ({goal.label})"))
            else:
                here = esper.component_for_entity(carrier, Position).hex
                if here in goal.area:
                    name = esper.component_for_entity(carrier, Identity).name
                    return _decide(state, goal.side, f"{name} carried off the loot: {goal.label}")
                return None
        for h in state.lying[i]:
            unit = where.get(h)
            if unit is None or esper.component_for_entity(unit, Identity).side != goal.side:
                continue
            state.carrier[i] = unit
            state.lying[i] = []
            state.taken[i] = True
            name = esper.component_for_entity(unit, Identity).name
            events.append(Note(_round(match), unit, f"{name} takes the loot ({goal.label})"))
            if h in goal.area:
                return _decide(state, goal.side, f"{name} carried off the loot: {goal.label}")
            break
    return None


def _round(match: Match) -> int:
    return match.history[-1].round if match.history else 0


# == what every player sees ==========================================================================


def goal_views(match: Match) -> list[GoalView]:
    """The objectives and how far each has come, in the scenario's order (none without a scenario)."""
    state = _state(match)
    scenario = match.scenario
    if state is None or scenario is None:
        return []
    views = []
    for i, goal in enumerate(scenario.goals):
        progress = ""
        spot = goal.spot
        named = _unit(match, goal.side, goal.unit) if goal.unit >= 0 else None
        if goal.kind == "hold":
            progress = f"held {state.held[i]} of {goal.rounds} rounds"
        elif goal.kind == "escape":
            progress = f"{len(state.away[i])} of {goal.count} got away"
        elif goal.kind == "loot":
            carrier = state.carrier[i]
            if carrier:
                progress = f"carried by {esper.component_for_entity(carrier, Identity).name}"
                here = esper.component_for_entity(carrier, Position).hex
                spot = frozenset({here}) if here is not None else frozenset()
            else:
                spot = frozenset(state.lying[i])
                progress = "lying where it fell" if state.taken[i] else "not taken yet"
        elif goal.kind == "protect":
            unit = _unit(match, goal.side, goal.unit)
            progress = (
                "" if unit is None else f"keep {esper.component_for_entity(unit, Identity).name} in the fight"
            )
        carrier = state.carrier[i]
        words = _words(match, goal, progress)
        views.append(
            GoalView(goal.kind, goal.side, goal.label, progress, goal.area, spot, named or 0, carrier, words)
        )
    return views


def _words(match: Match, goal: Goal, progress: str) -> str:
    side = _side_name(match, goal.side)
    if goal.kind == "eliminate":
        return f"{side}: take out the other posse"
    if goal.kind == "protect":
        return f"{side}: keep {goal.label} in the fight"
    verb = {"hold": "hold", "escape": "reach", "loot": "carry off"}[goal.kind]
    return f"{side}: {verb} {goal.label} ({progress})"


def adjust_view(match: Match, unit: int, view: UnitView) -> UnitView:
    """A reinforcement not yet on the map says when it comes (the ruleset's view knows no reserve)."""
    scenario = match.scenario
    removed = esper.try_component(unit, Removed)
    if scenario is None or removed is None or removed.reason != RESERVE:
        return view
    due = 0
    for arrival in scenario.arrivals:
        owner = _unit(match, arrival.side, arrival.index)
        if owner is not None and (owner == unit or unit in companions(match, owner)):
            due = arrival.round
    match.enter()
    return replace(view, out=f"arrives in round {due}")
