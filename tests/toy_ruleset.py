"""A tiny ruleset for testing the match core on its own: deploy, step, shoot (4+ on a d6), end turn.

It answers the UI's questions too (legal actions with their picks, odds, unit_view, tracker,
auto_deploy, rules_summary, describe), as simply as it can: one health point, no statuses, the tracker
lists the units in play with the side whose turn it is active. Nothing outside this file and the test that
installs it knows it exists: registered as a plugin, it is played in the battle screen
(tests/ui/test_toy_plugin.py) like any ruleset. Its posse builder (:class:`ToyBuilder`) and default
posses make it a ruleset the posse builder and New Battle offer: a unit is a gunhand or a scout with a
stance.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import esper

from game.commands import Command
from game.components import ActionPoints, Identity, Position, Removed
from game.dice import Distribution, roll
from game.engine.builder import (
    BaseBuilder,
    Choice,
    DraftError,
    DraftUnit,
    Field,
    FieldGroup,
    Option,
    Sheet,
    SheetSection,
    check_keys,
    unique_name,
)
from game.engine.protocol import DEPLOY
from game.engine.registry import Faction, RulesetPlugin
from game.events import Event, Moved, Roll, UnitRemoved
from game.hexgrid import hex_distance, hex_neighbors
from game.rules import (
    AttackPreview,
    LegalAction,
    Outcome,
    PosseSpec,
    Prompt,
    TrackerEntry,
    UnitSpec,
    UnitView,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from game.engine.match import Match


@dataclass(slots=True)
class Turn:
    side_index: int = 0
    round: int = 1


class ToyRuleset:
    name = "toy"
    title = "Toy"

    def validate_posse(self, posse: PosseSpec) -> list[str]:
        return [] if posse.units else ["a posse needs at least one unit"]

    def validate_posses(self, posses: Sequence[PosseSpec]) -> list[str]:
        return [problem for posse in posses for problem in self.validate_posse(posse)]

    def setup(self, match: Match) -> list[Event]:
        match.create_entity(Turn())
        for posse in match.posses:
            for i, unit in enumerate(posse.units):
                match.create_entity(
                    Identity(posse.side, unit.kind, unit.name or unit.kind, i), Position(), ActionPoints(2, 2)
                )
        return []

    def _turn(self, match: Match) -> Turn:
        return next(t for _, t in match.iter_components(Turn))

    def _side(self, match: Match) -> str:
        return match.posses[self._turn(match).side_index].side

    def legal_actions(self, match: Match) -> list[LegalAction]:
        taken = set(match.occupied())
        for posse in match.posses:  # deployment first, one posse after the other
            waiting = [u for u in match.units(posse.side) if match.position(u) is None]
            if waiting:
                zone = sorted(match.battlefield.deploy_zones.get(posse.side, frozenset()) - taken)
                return [
                    LegalAction(
                        DEPLOY,
                        f"Deploy {match.identity(u).name}",
                        u,
                        0,
                        needs="hex",
                        hexes=tuple(zone),
                        side=posse.side,
                    )
                    for u in waiting
                ]
        side = self._side(match)
        hostile = tuple(u for u in match.units() if match.identity(u).side != side)
        out = []
        for unit in match.units(side):
            here = match.position(unit)
            left = esper.component_for_entity(unit, ActionPoints).current
            tired = None if left >= 1 else "no action points left"
            near = hex_neighbors(here) if here is not None else ()
            steps = tuple(h for h in near if match.battlefield.is_passable(h) and h not in taken)
            out.append(
                LegalAction(
                    "step", "Step", unit, 1, tired is None, tired, needs="hex", hexes=steps, side=side
                )
            )
            out.append(
                LegalAction(
                    "shoot",
                    "Shoot",
                    unit,
                    1,
                    tired is None,
                    tired,
                    needs="target",
                    targets=hostile,
                    side=side,
                )
            )
            # every unit may end its side's turn (the screen's End Turn button is the selected unit's)
            out.append(LegalAction("end", "End turn", unit, 0, side=side, ends_turn=True))
        return out

    def validate(self, match: Match, cmd: Command) -> str | None:
        side = self._side(match)
        if cmd.action == "deploy":
            if cmd.actor not in match.units() or match.position(cmd.actor) is not None:
                return "no such undeployed unit"
            ident = match.identity(cmd.actor)
            if cmd.hex is None or cmd.hex not in match.battlefield.deploy_zones.get(ident.side, frozenset()):
                return "deploy on your side's zone"
            if cmd.hex in match.occupied():
                return "that hex is taken"
            return None
        if cmd.action == "end":
            return None if cmd.side == side else "it is not your turn"
        if cmd.actor not in match.units(side):
            return "that unit is not yours to command now"
        if esper.component_for_entity(cmd.actor, ActionPoints).current < 1:
            return "no action points left"
        here = match.position(cmd.actor)
        if here is None:
            return "deploy the unit first"
        if cmd.action == "step":
            if cmd.hex is None or hex_distance(here, cmd.hex) != 1:
                return "step to a neighbouring hex"
            if not match.battlefield.is_passable(cmd.hex) or cmd.hex in match.occupied():
                return "that hex cannot be entered"
            return None
        if cmd.action == "shoot":
            if cmd.target is None or cmd.target not in match.units() or cmd.target in match.units(side):
                return "pick a hostile unit"
            return None
        return f"unknown action '{cmd.action}'"

    def apply(self, match: Match, cmd: Command) -> list[Event]:
        turn = self._turn(match)
        if cmd.action == "deploy":
            esper.component_for_entity(cmd.actor, Position).hex = cmd.hex
            return []
        if cmd.action == "end":
            turn.side_index = (turn.side_index + 1) % len(match.posses)
            for unit in match.units():
                esper.component_for_entity(unit, ActionPoints).current = 2
            return []
        esper.component_for_entity(cmd.actor, ActionPoints).current -= 1
        if cmd.action == "step":
            start = match.position(cmd.actor)
            assert start is not None and cmd.hex is not None
            esper.component_for_entity(cmd.actor, Position).hex = cmd.hex
            return [Moved(turn.round, cmd.actor, (start, cmd.hex), 1)]
        assert cmd.target is not None
        (die,) = roll(match.rng, 6)
        events: list[Event] = [
            Roll(turn.round, cmd.actor, "shoot", (die,), (), die, 4, die >= 4, cmd.target, "attack")
        ]
        if die >= 4:
            esper.add_component(cmd.target, Removed("out_of_action"))
            events.append(UnitRemoved(turn.round, cmd.target, "out_of_action"))
        return events

    def preview(self, match: Match, cmd: Command) -> AttackPreview | None:
        """A shot: 4+ on a d6 takes the target out (its one health point)."""
        if cmd.action != "shoot" or cmd.target is None or cmd.target not in match.units():
            return None
        half = Fraction(1, 2)
        return AttackPreview(half, Distribution({0: half, 1: half}), (), 4)

    def outcome(self, match: Match) -> Outcome | None:
        standing = [p.side for p in match.posses if match.units(p.side)]
        if len(standing) == 1:
            return Outcome(standing[0], "all hostile units out of action")
        return None

    def unit_view(self, match: Match, unit: int) -> UnitView:
        ident = match.identity(unit)
        points = esper.component_for_entity(unit, ActionPoints)
        removed = esper.try_component(unit, Removed)
        return UnitView(
            unit=unit,
            name=ident.name,
            side=ident.side,
            kind=ident.kind,
            kind_name=ident.kind.title(),
            action_points=(points.current, points.per_activation),
            health=(0 if removed else 1, 1),
            health_name="Health",
            stats=(("Shoot", "4+"),),
            weapons=("Gun: 4+ on a d6 takes the target out",),
            out=removed.reason.replace("_", " ") if removed else "",
        )

    def tracker(self, match: Match) -> list[TrackerEntry]:
        side = self._side(match)
        turn = self._turn(match).side_index
        sides = [p.side for p in match.posses]
        return [
            TrackerEntry(
                u,
                match.identity(u).side,
                acted=sides.index(match.identity(u).side) < turn,
                active=match.identity(u).side == side,
            )
            for u in match.units()
        ]

    def auto_deploy(self, match: Match) -> list[Command]:
        taken = set(match.occupied())
        commands = []
        for posse in match.posses:
            free = sorted(match.battlefield.deploy_zones.get(posse.side, frozenset()) - taken)
            for unit in match.units(posse.side):
                if match.position(unit) is None and free:
                    spot = free.pop(0)
                    taken.add(spot)
                    commands.append(Command("deploy", actor=unit, side=posse.side, hex=spot))
        return commands

    def rules_summary(self) -> str:
        return (
            "Toy rules\n"
            "Sides take turns; every unit has 2 AP a turn.\n"
            "Step (1 AP): move to a neighbouring hex.\n"
            "Shoot (1 AP): a d6, 4 or more takes the target out.\n"
            "A side wins when no hostile unit is left.\n"
        )

    def printed_name(self, key: str) -> str | None:
        """The toy has no weapon or item data."""
        return None

    def describe(self, match: Match, event: Event, name: Callable[[int], str]) -> str | None:
        """The toy's events are all generic: the log's own wording serves."""
        return None

    def prompt(self, match: Match) -> Prompt | None:
        """The toy has no reactions: nothing breaks into its turns."""
        return None

    def conceal(self, match: Match, rng: random.Random) -> None:
        """The toy hides nothing but its dice."""


RULESET = ToyRuleset()

# -- the posse builder --------------------------------------------------------------------------------------
KINDS = {"gunhand": "Gunhand", "scout": "Scout"}
STANCES = {"steady": "Steady", "reckless": "Reckless"}  # cosmetic: kept in UnitSpec.options, no rule reads it
STANCE = Field("stance", "Stance", "grid", min_width=120, columns=2)


@dataclass(frozen=True, slots=True)
class ToyUnit(DraftUnit):
    """A toy unit of the draft: its kind, name and stance."""

    stance: str = "steady"


class ToyBuilder(BaseBuilder):
    """The toy's posse builder: one faction, two kinds, a stance each; the toy's rules judge the posse."""

    def factions(self, current: str) -> list[Choice]:
        return [Choice("toy", "Toy Posse", selected=current == "toy", detail="Any number of units")]

    def kinds(self) -> list[Choice]:
        return [Choice(k, name, detail=f"{name}: 2 AP, one health point") for k, name in KINDS.items()]

    def new_unit(self, kind: str, taken: Sequence[str]) -> DraftUnit:
        return ToyUnit(kind, unique_name(KINDS[kind], taken))

    def groups(self, unit: DraftUnit) -> tuple[FieldGroup, ...]:
        return (FieldGroup("stance", "Stance", (STANCE,)),) if isinstance(unit, ToyUnit) else ()

    def options(self, unit: DraftUnit, field: str, key: str) -> list[Option]:
        if field != STANCE.id or not isinstance(unit, ToyUnit):
            return []
        return [Option(Choice(s, name, selected=s == unit.stance), "set") for s, name in STANCES.items()]

    def apply(self, unit: DraftUnit, field: str, key: str, value: str) -> DraftUnit:
        return replace(unit, stance=value) if isinstance(unit, ToyUnit) and field == STANCE.id else unit

    def summary(self, unit: DraftUnit) -> str:
        stance = STANCES.get(unit.stance, unit.stance) if isinstance(unit, ToyUnit) else ""
        return f"{unit.name} \u00b7 {stance}" if stance else super().summary(unit)

    def sheet(self, unit: DraftUnit, faction: str) -> Sheet:
        sheet = super().sheet(unit, faction)
        if not isinstance(unit, ToyUnit):
            return sheet
        stance = SheetSection("Stance", (STANCES.get(unit.stance, unit.stance),))
        return replace(sheet, sections=(stance, *sheet.sections))

    def unit_spec(self, unit: DraftUnit) -> UnitSpec:
        stance = unit.stance if isinstance(unit, ToyUnit) else "steady"
        return UnitSpec(unit.kind, unit.name, (), (("stance", stance),))

    def unit_from_spec(self, spec: UnitSpec) -> DraftUnit:
        options = dict(spec.options)
        if spec.loadout or set(options) - {"stance"}:
            raise DraftError(f"{spec.name or spec.kind}: a toy unit has a stance and nothing else")
        return ToyUnit(spec.kind, spec.name, options.get("stance", "steady"))

    def unit_to_json(self, unit: DraftUnit) -> dict[str, Any]:
        return {
            "kind": unit.kind,
            "name": unit.name,
            "stance": unit.stance if isinstance(unit, ToyUnit) else "",
        }

    def unit_from_json(self, raw: Any, where: str) -> DraftUnit:
        t = check_keys(raw, where, {"kind"}, {"name", "stance"})
        return ToyUnit(t["kind"], t.get("name", ""), t.get("stance", "steady"))


BUILDER = ToyBuilder(RULESET)


def default_posses() -> list[tuple[str, PosseSpec]]:
    """Two posses: gunhands with a scout, scouts with a gunhand (recruited as the builder's Add does)."""
    out = []
    for name, kinds in (
        ("Red Hats", ("gunhand", "gunhand", "scout")),
        ("Blue Hats", ("scout", "scout", "gunhand")),
    ):
        units: list[DraftUnit] = []
        for kind in kinds:
            units = BUILDER.try_add("toy", units, kind) or units
        out.append((name, BUILDER.posse_spec("toy", units, name)))
    return out


# Registered like any ruleset, through the entry-point group (tests/plugins.py does it for a test).
PLUGIN = RulesetPlugin(
    id="toy",
    title="Toy Skirmish",
    load=lambda: RULESET,
    factions=(Faction("toy", "Toy Posse"),),
    order=90,
    blurb="Step and shoot: a test ruleset.",
    builder=lambda: BUILDER,
    default_posses=default_posses,
)
