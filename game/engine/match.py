"""A Match: one encounter of one ruleset on one battlefield, in its own esper world.

Everything that happens goes through :meth:`Match.apply`, which validates the command with the ruleset
(pure), applies it (which may draw from the match's one seeded RNG), logs it and returns the events. A
save is the match's header plus that log; replaying the log reaches the same :meth:`digest`.

Each match has its own esper world (:class:`game.engine.world.World`), entered by every public method
(``_in_world``): two matches never see each other's entities, and :meth:`Match.clone` copies one.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from collections.abc import Callable, Iterator, Sequence
from enum import Enum
from fractions import Fraction
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import esper

from game.battlefield import Battlefield, DeployZone
from game.commands import Command
from game.components import Identity, Position, Removed
from game.engine import gm
from game.engine.facts import Odds, PathReaction, Reasoner, UnitFacts
from game.engine.movement import PathTree
from game.engine.protocol import (
    AttackPreview,
    LegalAction,
    Outcome,
    PosseSpec,
    Prompt,
    Ruleset,
    TrackerEntry,
    UnitView,
)
from game.engine.scenario import GoalView, Scenario, adjust_view, goal_views, prepare
from game.engine.validation import field_problem
from game.engine.world import World, copy_value, freeze
from game.events import CardDealt, Event, Roll
from game.hexgrid import Hex
from game.mapload import load_battlefield

__all__ = ["IllegalCommandError", "Match", "MatchView"]

P = ParamSpec("P")
R = TypeVar("R")


_REASONERS: dict[int, bool] = {}  # ruleset object id -> whether it answers the AI's questions


class Dice(random.Random):
    """The match's one seeded RNG: a ``random.Random`` (the same numbers from the same seed) that counts
    what moves its state (``moves``), so a command's having drawn from it is known without copying the
    whole state before and after (``Match.apply`` asks it of every command, the AI's trials too)."""

    moves = 0

    def random(self) -> float:
        self.moves += 1
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        self.moves += 1
        return super().getrandbits(k)

    def seed(self, a: Any = None, version: int = 2) -> None:
        self.moves += 1
        super().seed(a, version)

    def setstate(self, state: tuple[Any, ...]) -> None:
        self.moves += 1
        super().setstate(state)


class IllegalCommandError(ValueError):
    """A command the rules do not allow now; ``reason`` says why, in a player's words."""

    def __init__(self, command: Command, reason: str) -> None:
        self.command = command
        self.reason = reason
        super().__init__(f"{command.action}: {reason}")


def _in_world(method: Callable[P, R]) -> Callable[P, R]:
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        world = args[0].world  # type: ignore[attr-defined]
        if esper.current_world != world.name:  # World.enter's test inline: most calls are in the world
            world.enter()
        return method(*args, **kwargs)

    wrapper.__name__ = method.__name__
    wrapper.__doc__ = method.__doc__
    return wrapper


class Match:
    """One encounter. Build it with :meth:`create` (from a map file) or the constructor."""

    def __init__(
        self,
        battlefield: Battlefield,
        ruleset: Ruleset,
        posses: list[PosseSpec],
        seed: int,
        map_path: Path | None = None,
        *,
        scenario: Scenario | None = None,
    ) -> None:
        if len(posses) < 2:
            raise ValueError("a match needs at least two posses")
        sides = [p.side for p in posses]
        if len(set(sides)) != len(sides):
            raise ValueError(f"two posses deploy on the same side: {sides}")
        # the board the match starts on, as loaded: a save of a battle whose board a GM changed holds it
        self.first_board = battlefield.clone()
        self.board_sha = ""  # the board a GM reloaded into the battle (game.engine.board), "" the first
        self.battlefield = with_encounter_zones(battlefield, scenario)
        self.scenario = scenario
        self.ruleset = ruleset
        self.posses = list(posses)
        self.seed = seed
        self.map_path = map_path
        self.rng = Dice(seed)
        self.world = World()
        self._units: dict[tuple[str | None, bool], tuple[object, list[int]]] = {}  # Match.units, kept
        self.log: list[Command] = []
        self.history: list[Event] = []
        self.last_reveal = ""  # what the last command applied revealed ("a card was drawn"), "" nothing
        self.history.extend(ruleset.setup(self))
        if scenario is not None:
            prepare(self)

    @staticmethod
    def posse_problems(ruleset: Ruleset, posses: Sequence[PosseSpec]) -> list[str]:
        """Why these posses may not meet in a match of ``ruleset`` (empty: they may), asked before any
        match exists (the New Battle screen); the constructor refuses the same with a ValueError."""
        return ruleset.validate_posses(posses)

    @classmethod
    def create(
        cls,
        map_path: str | Path,
        ruleset: Ruleset,
        posses: list[PosseSpec],
        seed: int,
        scenario: Scenario | None = None,
    ) -> Match:
        path = Path(map_path)
        return cls(load_battlefield(path), ruleset, posses, seed, map_path=path, scenario=scenario)

    # -- copies ---------------------------------------------------------------------------------------
    def clone(self, *, reseed: int | None = None) -> Match:
        """An independent copy: the same digest, and no command applied to one ever reaches the other.

        The map is shared (it never changes); the overlay (doors, changed terrain), every component, the
        RNG and the log are copied. ``reseed`` gives the copy a new dice RNG seeded with it and has the
        ruleset re-shuffle what no player could know (undrawn cards), so a search on the copy
        learns nothing hidden; its digest then differs from the original's.
        """
        other = Match.__new__(Match)
        other.battlefield = self.battlefield.clone()
        other.first_board = self.first_board
        other.board_sha = self.board_sha
        other.ruleset = self.ruleset
        other.scenario = self.scenario
        other.posses = self.posses
        other.seed = self.seed
        other.map_path = self.map_path
        other.rng = Dice.__new__(Dice)  # not seeded from the system's entropy: its state is set next
        other.rng.setstate(self.rng.getstate())
        other.world = self.world.clone()
        other._units = {}
        other.log = self.log.copy()
        other.history = self.history.copy()
        other.last_reveal = self.last_reveal
        if reseed is not None:
            other.rng.seed(reseed)
            other.world.enter()
            self.ruleset.conceal(other, other.rng)
        return other

    # -- world and entities -------------------------------------------------------------------------
    def enter(self) -> None:
        """Make this match's esper world the current one (every public method does this first)."""
        self.world.enter()

    def close(self) -> None:
        """Delete this match's esper world now (it is also deleted when the match is collected)."""
        self.world.close()

    def __enter__(self) -> Match:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def create_entity(self, *components: Any) -> int:
        """Create an entity in this match (rulesets use this, so the match knows every entity)."""
        return self.world.create_entity(*components)

    def delete_entity(self, entity: int) -> None:
        """Delete an entity of this match at once (an item picked up); it leaves the digest with it."""
        self.enter()
        esper.delete_entity(entity, immediate=True)

    @_in_world
    def entities(self) -> list[int]:
        return sorted(esper._entities)

    @_in_world
    def units(self, side: str | None = None, *, in_play: bool = True) -> list[int]:
        """Unit entity ids in a fixed order (side, then posse index); by default only those in play.

        Kept while esper's list of the units is the same list: esper makes a new one whenever any
        component is added or removed (a unit taken out of play gets ``Removed``); a unit's side and index
        never change."""
        owners = esper.get_component(Identity)
        key = (side, in_play)
        known = self._units.get(key)
        if known is not None and known[0] is owners:
            return list(known[1])
        found = []
        for entity, ident in owners:
            if side is not None and ident.side != side:
                continue
            if in_play and esper.has_component(entity, Removed):
                continue
            found.append((ident.side, ident.index, entity))
        units = [e for _, _, e in sorted(found)]
        self._units[key] = (owners, units)
        return list(units)

    @_in_world
    def identity(self, unit: int) -> Identity:
        return esper.component_for_entity(unit, Identity)

    @_in_world
    def position(self, unit: int) -> Hex | None:
        pos = esper.try_component(unit, Position)
        return None if pos is None else pos.hex

    @_in_world
    def occupied(self) -> dict[Hex, int]:
        """Hex -> unit standing there, for units in play."""
        return {
            pos.hex: entity
            for entity, pos in esper.get_component(Position)
            if pos.hex is not None and not esper.has_component(entity, Removed)
        }

    # -- the rules ----------------------------------------------------------------------------------
    @_in_world
    def legal_actions(self) -> list[LegalAction]:
        return self.ruleset.legal_actions(self)

    @_in_world
    def validate(self, cmd: Command, *, legal: Sequence[LegalAction] | None = None) -> str | None:
        """None if ``cmd`` is legal now, else why not. Never changes the match, never raises: a field of
        the wrong type or out of range is refused before any rule looks at it. ``legal``: the legal actions
        just listed for the match as it stands (:meth:`legal_actions`, nothing done since), which a ruleset
        that checks a command against its offers (Frontier) then takes instead of listing them again."""
        problem = field_problem(cmd)
        if problem is not None:
            return problem
        if self.outcome() is not None:
            return "the encounter is over"
        if gm.is_gm(cmd):
            return gm.edit_problem(self, cmd)
        if legal is not None:
            listed = getattr(self.ruleset, "validate_listed", None)
            if listed is not None:
                found: str | None = listed(self, cmd, legal)
                return found
        return self.ruleset.validate(self, cmd)

    @_in_world
    def apply(self, cmd: Command, *, legal: Sequence[LegalAction] | None = None) -> list[Event]:
        """Validate and apply ``cmd``; if illegal, raise :class:`IllegalCommandError`, changing nothing.
        ``legal``: the legal actions just listed for the match as it stands (as for :meth:`validate`)."""
        reason = self.validate(cmd, legal=legal)
        if reason is not None:
            raise IllegalCommandError(cmd, reason)
        moves, hidden = _rng_mark(self.rng), self.world.hidden()
        events = gm.apply_edit(self, cmd) if gm.is_gm(cmd) else self.ruleset.apply(self, cmd)
        self.enter()
        esper.clear_dead_entities()
        self.log.append(cmd)
        self.history.extend(events)
        self.last_reveal = _reveal(events, moves != _rng_mark(self.rng), hidden != self.world.hidden())
        return events

    def hidden_state(self) -> tuple[Any, ...]:
        """What no player may know: the RNG's state and the fields marked hidden (undrawn cards' order).

        A command that changed it revealed something (a die, a card): see :meth:`undo_refusal`."""
        return (self.rng.getstate(), self.world.hidden())

    @property
    def last_revealed(self) -> bool:
        """Whether the last command applied revealed hidden information (a die, a card)."""
        return bool(self.last_reveal)

    def undo_refusal(self) -> str | None:
        """Why the last command can never be taken back, or None: the one undo rule of every ruleset.

        Undo never takes back anything that revealed information: a command that moved the match's RNG
        (a die rolled, a deck shuffled) or changed a field marked hidden (a card drawn from the pile)
        stands, whatever screen asks ("can't undo: a card was drawn"). Taking it back would let the
        player see the next card or die and choose again."""
        return f"can't undo: {self.last_reveal}" if self.last_reveal else None

    @_in_world
    def gm_fields(self, unit: int) -> list[gm.GmField]:
        """The values of ``unit`` a game master may set with a ``gm_set`` edit (game.engine.gm)."""
        return gm.gm_fields(self, unit)

    @_in_world
    def preview(self, cmd: Command) -> AttackPreview | None:
        return self.ruleset.preview(self, cmd)

    @_in_world
    def outcome(self) -> Outcome | None:
        return self.ruleset.outcome(self)

    # -- what a player sees (the UI and the CLI ask the match, never the ruleset) ----------------------
    @_in_world
    def unit_view(self, unit: int) -> UnitView:
        view = self.ruleset.unit_view(self, unit)
        return view if self.scenario is None else adjust_view(self, unit, view)

    @_in_world
    def goals(self) -> list[GoalView]:
        """The encounter's objectives and how far each has come (none without an encounter)."""
        return goal_views(self)

    @_in_world
    def tracker(self) -> list[TrackerEntry]:
        return self.ruleset.tracker(self)

    @_in_world
    def offer_words(self, unit: int) -> list[tuple[str, int]]:
        """The label and cost of every action ``unit`` may be offered on its turn, from the ruleset's
        optional ``offer_words(match, unit)`` (empty when it has none): what the battle screen sizes its
        action bar for when the battle opens."""
        words = getattr(self.ruleset, "offer_words", None)
        return list(words(self, unit)) if callable(words) else []

    @_in_world
    def tracker_note(self) -> str:
        """What the tracker shows beside the order: an encounter's objectives and how far each has come,
        then the ruleset's words (a deck's cards left, a reshuffle due) from its optional
        ``tracker_note(match)``; "" when there is neither."""
        note = getattr(self.ruleset, "tracker_note", None)
        said = str(note(self)) if callable(note) else ""
        if self.scenario is None:
            return said
        goals = "; ".join(v.words for v in goal_views(self))  # an encounter's objectives come first
        return " \u00b7 ".join(w for w in (goals, said) if w)

    @_in_world
    def prompt(self) -> Prompt | None:
        return None if self.outcome() is not None else self.ruleset.prompt(self)

    @_in_world
    def auto_deploy(self) -> list[Command]:
        """Commands that deploy every unit not yet on the map (the "auto-deploy" button)."""
        return self.ruleset.auto_deploy(self)

    @_in_world
    def describe(self, event: Event, name: Callable[[int], str] | None = None) -> str | None:
        """The ruleset's own combat-log line for ``event``, or None when the generic wording serves;
        ``name`` names a unit as the log does (default: the unit's name)."""
        return self.ruleset.describe(self, event, name or self._unit_name)

    def _unit_name(self, unit: int) -> str:
        try:
            return self.identity(unit).name
        except KeyError:
            return f"#{unit}"

    def printed_name(self, key: str) -> str | None:
        """A weapon or item id of the ruleset as printed ("Smelling Salts"), None for an unknown id."""
        return self.ruleset.printed_name(key)

    def action_rule(self, action: str) -> str:
        """What an action does in the rulebook's words ("The Unit makes a Ranged Weapon attack."), from
        the ruleset's data through its optional ``action_rule(action)``; "" when it has none."""
        rule = getattr(self.ruleset, "action_rule", None)
        return str(rule(action)) if callable(rule) else ""

    def rules_summary(self) -> str:
        """The ruleset's short summary of how a turn works (the F1 help page)."""
        return self.ruleset.rules_summary()

    @property
    def ruleset_name(self) -> str:
        """The ruleset's id (``Ruleset.name``), as saves and the plugin registry name it."""
        return self.ruleset.name

    @property
    def ruleset_title(self) -> str:
        """The ruleset's name for players (``Ruleset.title``)."""
        return self.ruleset.title

    def view(self, side: str, *, legal: list[LegalAction] | None = None) -> MatchView:
        """What the player (or AI) of ``side`` may know: no RNG state, no undrawn card order. ``legal``:
        the legal actions just listed for the match as it stands (a game loop that asked whose turn it
        is), which the view then answers with instead of listing them again until a command is applied."""
        return MatchView(self, side, legal)

    # -- what the AI asks (game.engine.facts.Reasoner) -------------------------------------------------
    def _reasoner(self) -> Reasoner:
        found = _REASONERS.get(id(self.ruleset))
        if found is None:  # a runtime Protocol check is slow: once per ruleset object
            found = isinstance(self.ruleset, Reasoner)
            _REASONERS[id(self.ruleset)] = found
        if not found:
            raise NotImplementedError(f"{self.ruleset.title} answers no questions for the AI")
        return self.ruleset  # type: ignore[return-value]

    @_in_world
    def unit_facts(self, unit: int) -> UnitFacts:
        return self._reasoner().unit_facts(self, unit)

    @_in_world
    def what_if(
        self, cmd: Command, from_hex: Hex | None = None, at_hex: Hex | None = None
    ) -> AttackPreview | None:
        """The exact odds of the attack ``cmd`` with the attacker at ``from_hex`` and its target at ``at_hex``
        (None: where they stand); None where it would be illegal there. Changes nothing."""
        return self._reasoner().what_if(self, cmd, from_hex, at_hex)

    @_in_world
    def odds(self, cmd: Command) -> Odds:
        """:meth:`what_if` of the attack ``cmd`` at any hexes, as a function ``ask(from_hex, at_hex)``:
        the same answers while the match stays as it is (ask again after anything changes it: a command,
        a supposition). A ruleset may read the units once for all the hexes asked (the three shipped
        rulesets do)."""
        odds = getattr(self.ruleset, "odds", None)
        if odds is not None:
            found: Odds = odds(self, cmd)
            return found

        def ask(from_hex: Hex | None = None, at_hex: Hex | None = None) -> AttackPreview | None:
            return self.what_if(cmd, from_hex, at_hex)

        return ask

    @_in_world
    def movement(self, unit: int) -> PathTree:
        return self._reasoner().movement(self, unit)

    @_in_world
    def path_reactions(self, unit: int, path: tuple[Hex, ...]) -> tuple[PathReaction, ...]:
        return self._reasoner().path_reactions(self, unit, path)

    @_in_world
    def morale_risk(self, side: str) -> dict[int, Fraction]:
        return self._reasoner().morale_risk(self, side)

    @_in_world
    def suppose(self, cmd: Command) -> Callable[[], None] | None:
        """Put the effect of ``cmd``, a command that changes only its actor's own state (Frontier's Aim,
        Reload, Take Cover), in place by hand, the turn kept its own, so that questions (unit facts,
        what-if odds) can be asked of the position after it without a copy of the match; the function
        returned puts the actor back exactly as it was, and must be called before anything else is done
        with the match (no command applied, no legal actions asked in between). None, with nothing
        changed, where the ruleset does not suppose that command: try it on a copy (``sandbox``)."""
        suppose = getattr(self.ruleset, "suppose", None)
        return suppose(self, cmd) if suppose is not None else None

    @property
    def is_over(self) -> bool:
        return self.outcome() is not None

    # -- state --------------------------------------------------------------------------------------
    @_in_world
    def state(self, *, public: bool = False) -> dict[str, Any]:
        """The whole game state as canonical JSON-ready data (what :meth:`digest` hashes).

        ``public``: what every player may know — no RNG, and fields marked hidden (the order of undrawn
        cards) sorted."""
        entities = []
        for entity in self.entities():
            components: tuple[Any, ...] = esper.components_for_entity(entity)
            comps = sorted(
                ([type(c).__name__, _canon(c, public=public)] for c in components), key=lambda pair: pair[0]
            )
            entities.append([entity, comps])
        board = {"board": self.board_sha} if self.board_sha else {}  # a board a GM reloaded (gm_map)
        if public:
            return {
                **board,
                "ruleset": self.ruleset.name,
                "doors": sorted([[d.hex.q, d.hex.r, d.is_open] for d in self.battlefield.doors.values()]),
                "terrain_changes": sorted(
                    [h.q, h.r, _canon(t)] for h, t in self.battlefield.terrain_changes.items()
                ),
                "entities": entities,
            }
        return {
            **board,
            "ruleset": self.ruleset.name,
            "doors": sorted([[d.hex.q, d.hex.r, d.is_open] for d in self.battlefield.doors.values()]),
            "terrain_changes": sorted(
                [h.q, h.r, _canon(t)] for h, t in self.battlefield.terrain_changes.items()
            ),
            "entities": entities,
            "rng": _canon(self.rng.getstate()),
        }

    def digest(self) -> str:
        """sha256 of the whole game state: entities and components, doors, changed terrain, the RNG."""
        text = json.dumps(self.state(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    @_in_world
    def key(self) -> int:
        """A cheap key of the public state for caches (the AI's transposition tables), in this process.

        Equal for equal public states: every component (fields marked ``hidden="order"`` as a sorted
        multiset), the doors and the changed terrain; not the RNG. Unlike :meth:`digest` it is not
        stable across processes (Python's string hashing is salted)."""
        entities: dict[int, dict[type[Any], Any]] = esper._entities
        parts = [(e, tuple(freeze(c) for c in entities[e].values())) for e in sorted(entities)]
        bf = self.battlefield
        doors = tuple(d.is_open for d in bf.doors.values())
        changed = tuple(sorted(bf.terrain_changes.items())) if bf.terrain_changes else ()
        return hash((tuple(parts), doors, changed, self.board_sha))

    def first_component(
        self, component_type: type[R], where: Callable[[R], bool] | None = None
    ) -> tuple[int, R] | None:
        """The (entity, component) pair of the lowest entity holding a ``component_type`` (for which
        ``where`` holds, if given; None: none does): :meth:`iter_components`' first such pair without
        sorting them all (a ruleset's game state, which one entity holds, is looked up on every rules
        call)."""
        self.enter()
        found = esper.get_component(component_type)
        if where is not None:
            found = [pair for pair in found if where(pair[1])]
        if not found:
            return None
        return found[0] if len(found) == 1 else min(found, key=lambda pair: pair[0])

    def iter_components(self, component_type: type[R]) -> Iterator[tuple[int, R]]:
        """(entity, component) pairs in entity order: never rely on esper's own order."""
        self.enter()
        yield from sorted(esper.get_component(component_type), key=lambda pair: pair[0])


def with_encounter_zones(battlefield: Battlefield, scenario: Scenario | None) -> Battlefield:
    """``battlefield`` with an encounter's deploy areas in place of the map's zones for those sides (a
    copy; the same battlefield when the encounter gives none)."""
    if scenario is None or not scenario.zones:
        return battlefield
    battlefield = battlefield.clone()
    given = {side for side, _ in scenario.zones}
    battlefield.zones = [z for z in battlefield.zones if z.side not in given] + [
        DeployZone(side, 0, hexes) for side, hexes in scenario.zones
    ]
    return battlefield


def _rng_mark(rng: random.Random) -> object:
    """What changes when ``rng`` is drawn from: the match's own :class:`Dice` counts it; another RNG put
    in its place (a test's scripted dice) is copied whole."""
    return rng.moves if isinstance(rng, Dice) else rng.getstate()


def _reveal(events: Sequence[Event], rng_moved: bool, hidden_changed: bool) -> str:
    """What a command revealed, in a player's words ("" nothing): a card when a hidden field changed or a
    card was dealt, a die when a roll was made; the RNG moved with neither shown is still hidden
    information revealed (a shuffle, a drawn position)."""
    said = []
    if hidden_changed or any(isinstance(e, CardDealt) for e in events):
        said.append("a card was drawn")
    if any(isinstance(e, Roll) for e in events):
        said.append("a die was rolled")
    if not said and (rng_moved or hidden_changed):
        said.append("it revealed hidden information")
    return " and ".join(said)


def _canon(value: Any, *, public: bool = False) -> Any:
    """A canonical, JSON-ready form of component data (sets sorted, dataclasses as dicts); ``public``
    sorts the fields marked ``metadata={"hidden": "order"}`` so their order does not show."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if isinstance(value, Hex):
            return [value.q, value.r]
        out = {}
        for f in dataclasses.fields(value):
            item = _canon(getattr(value, f.name), public=public)
            if public and f.metadata.get("hidden") == "order" and isinstance(item, list):
                item = sorted(item, key=lambda v: json.dumps(v, sort_keys=True))
            out[f.name] = item
        return out
    if isinstance(value, Enum):
        return _canon(value.value)
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, dict):
        return [[_canon(k), _canon(v)] for k, v in sorted(value.items(), key=lambda kv: repr(kv[0]))]
    if isinstance(value, set | frozenset):
        return sorted((_canon(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, list | tuple):
        return [_canon(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"component data of type {type(value).__name__} cannot be part of the game state")


class MatchView:
    """A match as the player (or AI) of one side may know it: everything on the table, nothing hidden.

    It answers what the battle screen and the AI ask — legal actions, odds, unit panels, the tracker, the
    prompt, positions, the public :meth:`state` and :meth:`key` — and gives no way to the RNG or to the
    order of undrawn cards. :meth:`sandbox` is a copy to search on, re-shuffled so it holds nothing the
    side could not know.
    """

    __slots__ = ("_legal", "_match", "side")

    def __init__(self, match: Match, side: str, legal: list[LegalAction] | None = None) -> None:
        self._match = match
        self.side = side
        # the legal actions listed for the match as it stood after its log's last command (Match.view)
        self._legal = (self._stamp(), legal) if legal is not None else None

    def _stamp(self) -> tuple[int, Command | None]:
        log = self._match.log
        return len(log), log[-1] if log else None

    @property
    def ruleset_name(self) -> str:
        return self._match.ruleset.name

    @property
    def battlefield(self) -> Battlefield:
        return self._match.battlefield

    @property
    def posses(self) -> list[PosseSpec]:
        return list(self._match.posses)

    @property
    def history(self) -> list[Event]:
        return list(self._match.history)

    @property
    def log(self) -> list[Command]:
        return list(self._match.log)

    def legal_actions(self) -> list[LegalAction]:
        known = self._legal
        if known is not None:
            count, last = self._stamp()
            if count == known[0][0] and last is known[0][1]:
                return list(known[1])
        return self._match.legal_actions()

    def validate(self, cmd: Command) -> str | None:
        return self._match.validate(cmd)

    def preview(self, cmd: Command) -> AttackPreview | None:
        return self._match.preview(cmd)

    def outcome(self) -> Outcome | None:
        return self._match.outcome()

    def units(self, side: str | None = None, *, in_play: bool = True) -> list[int]:
        return self._match.units(side, in_play=in_play)

    def identity(self, unit: int) -> Identity:
        return copy_value(self._match.identity(unit))  # a copy: the view never hands out the match's own

    def position(self, unit: int) -> Hex | None:
        return self._match.position(unit)

    def occupied(self) -> dict[Hex, int]:
        return self._match.occupied()

    def unit_view(self, unit: int) -> UnitView:
        return self._match.unit_view(unit)

    def tracker(self) -> list[TrackerEntry]:
        return self._match.tracker()

    def goals(self) -> list[GoalView]:
        """The encounter's objectives and their progress: public, like the map's objective objects."""
        return self._match.goals()

    def tracker_note(self) -> str:
        return self._match.tracker_note()

    def prompt(self) -> Prompt | None:
        return self._match.prompt()

    def key(self) -> int:
        return self._match.key()

    def state(self) -> dict[str, Any]:
        """The public state: :meth:`Match.state` without the RNG and with hidden orders sorted."""
        return self._match.state(public=True)

    def sandbox(self, seed: int) -> Match:
        """A copy of the match to try commands on, with the hidden parts re-drawn from ``seed``."""
        return self._match.clone(reseed=seed)

    def unit_facts(self, unit: int) -> UnitFacts:
        return self._match.unit_facts(unit)

    def what_if(
        self, cmd: Command, from_hex: Hex | None = None, at_hex: Hex | None = None
    ) -> AttackPreview | None:
        return self._match.what_if(cmd, from_hex, at_hex)

    def odds(self, cmd: Command) -> Odds:
        return self._match.odds(cmd)

    def movement(self, unit: int) -> PathTree:
        return self._match.movement(unit)

    def path_reactions(self, unit: int, path: tuple[Hex, ...]) -> tuple[PathReaction, ...]:
        return self._match.path_reactions(unit, path)

    def morale_risk(self, side: str) -> dict[int, Fraction]:
        return self._match.morale_risk(side)

    def suppose(self, cmd: Command) -> Callable[[], None] | None:
        """:meth:`Match.suppose` (the view's own legal actions are not asked until it is undone)."""
        return self._match.suppose(cmd)
