"""The Through the Rift ruleset: deployment, turn order, actions, attacks, reactions, stress, victory.

Every command goes ``validate`` (pure) then ``apply``. The flow is a stack of :class:`Task` on the game
entity: a walk, an attack in its stages (nudge window -> roll -> assign -> protect window -> apply), a
reposition; a task that needs a decision (a reaction window, a hit assignment) stops the flow and
``legal_actions`` offers that decision, even to a unit whose turn it is not. Attitude and talent abilities
live in ``attitudes/`` and ``talents.py`` and plug in through ``hooks``. Interpretations: docs/RULES.md,
"Through the Rift"; each is quoted where it is applied.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

import esper

from game.battlefield import Cover, Terrain
from game.commands import Command
from game.components import ActionPoints, Identity, Position, Removed
from game.dice import Distribution, roll
from game.events import (
    ActionTaken,
    ActivationEnded,
    ActivationStarted,
    DamageTaken,
    Event,
    MatchEnded,
    Moved,
    Note,
    PhaseStarted,
    Roll,
    StatusChanged,
    UnitRemoved,
)
from game.hexgrid import DIRECTIONS, Hex, hex_distance
from game.rules import AttackPreview, LegalAction, Outcome, PosseSpec, Prompt, TrackerEntry, UnitView
from game.rules.rift import hooks
from game.rules.rift.character import CharacterError, character_from_spec, character_problems, kit_of
from game.rules.rift.components import (
    Combatant,
    GroundItem,
    Inventory,
    Resolve,
    RiftGame,
    Shield,
    ShotRecord,
    Statuses,
    StatusRecord,
    Task,
    TurnState,
)
from game.rules.rift.data import RiftData, WeaponData, default_data
from game.rules.rift.hooks import Picks
from game.rules.rift.odds import DOWN_THE_SIGHTS, attack_odds
from game.rules.rift.stress import DiceTraits, apply_multipliers, roll_dice
from game.rules.rift.views import RULES_SUMMARY, describe, tracker, unit_view

if TYPE_CHECKING:
    from collections.abc import Sequence

    from game.engine.match import Match

__all__ = ["BASIC", "FACTIONS", "RiftRuleset", "StressDealt", "auto_deploy_commands", "end_of_encounter"]

C = TypeVar("C")
HALF = Fraction(1, 2)
BASIC = (
    *("fire", "explosive", "move", "crouch", "flee", "hold_fire"),
    *("interact", "pick_up", "hand_off", "use_item"),
)
CUNNING = ("shout_order", "nudge", "duck", "tactical_reposition")
WINDOW_ACTIONS = ("pass", "assign", "reposition")
# The posses a PosseSpec.faction may name, with their names for players: the rifters field only Rifters;
# the outlaws field the enemy roster (rift.toml [enemies]) and may field Rifters too.
FACTIONS: dict[str, str] = {"rifters": "Rifters", "outlaws": "Outlaws"}


@dataclass(frozen=True, slots=True)
class StressDealt(Event):
    """One shot's stress on one unit: the die ``value``, every multiplier by name, what was dealt."""

    unit: int
    source: int
    value: int
    factors: tuple[tuple[str, Fraction], ...]
    amount: int
    prevented: str = ""  # why no stress was taken ("Duck!", "crouched behind cover", ...)


def comp(entity: int, kind: type[C]) -> C:
    return esper.component_for_entity(entity, kind)


class RiftRuleset:
    """Through the Rift (see the module docstring); ``RULESET`` in this package is the instance to use."""

    name = "rift"
    title = "Through the Rift"

    def __init__(self, data: RiftData | None = None) -> None:
        self.data = data if data is not None else default_data()

    # == queries ====================================================================================
    def game(self, match: Match) -> RiftGame:
        for _, game in match.iter_components(RiftGame):
            return game
        raise LookupError("this match has no Through the Rift game state")

    def is_unit(self, match: Match, e: int) -> bool:
        match.enter()
        return isinstance(e, int) and esper.entity_exists(e) and esper.has_component(e, Combatant)

    @staticmethod
    def side(u: int) -> str:
        return comp(u, Identity).side

    @staticmethod
    def uname(u: int) -> str:
        return comp(u, Identity).name

    @staticmethod
    def combatant(u: int) -> Combatant:
        return comp(u, Combatant)

    @staticmethod
    def resolve(u: int) -> Resolve:
        return comp(u, Resolve)

    @staticmethod
    def turn(u: int) -> TurnState:
        return comp(u, TurnState)

    @staticmethod
    def ap(u: int) -> ActionPoints:
        return comp(u, ActionPoints)

    @staticmethod
    def hex_of(u: int) -> Hex | None:
        return comp(u, Position).hex

    def here(self, u: int) -> Hex:
        h = self.hex_of(u)
        assert h is not None
        return h

    @staticmethod
    def in_play(u: int) -> bool:
        return not esper.has_component(u, Removed)

    def alive(self, u: int) -> bool:
        """In play, deployed and not overcome: a unit that can still act and be targeted."""
        return self.in_play(u) and not self.resolve(u).overcome and self.hex_of(u) is not None

    def has_trait(self, u: int, trait: str) -> bool:
        return trait in self.combatant(u).traits

    def has_action(self, u: int, action: str) -> bool:
        c = self.combatant(u)
        if c.companion:
            return action in c.actions
        return action in BASIC or action in c.actions

    def statuses(self, u: int, kind: str) -> list[StatusRecord]:
        return [s for s in comp(u, Statuses).items if s.kind == kind]

    def has_status(self, u: int, kind: str) -> bool:
        return bool(self.statuses(u, kind))

    def weapon(self, wid: str) -> WeaponData:
        return self.data.weapons[wid]

    def sights_factors(self, u: int) -> list[tuple[str, Fraction]]:
        """Down the Sights pending on ``u``: one 4x for each taken and not yet spent (docs/RULES.md R29)."""
        return [("Down the Sights", DOWN_THE_SIGHTS)] * int(self.turn(u).down_the_sights)

    def covering_firearm(self, u: int) -> WeaponData | None:
        """The gun Covering Fire sweeps with: the longest-ranged firearm carried (the first of equals)."""
        return max(self.weapons_of(u, "firearm"), key=lambda w: w.range, default=None)

    def weapons_of(self, u: int, kind: str) -> list[WeaponData]:
        out = []
        for wid in self.combatant(u).weapons:
            w = self.weapon(wid)
            if (kind == "firearm" and w.firearm) or (kind == "explosive" and w.explosive):
                out.append(w)
        return out

    def hostiles(self, match: Match, u: int) -> list[int]:
        side = self.side(u)
        return [x for x in match.units() if self.side(x) != side and self.alive(x)]

    def allies(self, match: Match, u: int) -> list[int]:
        side = self.side(u)
        return [x for x in match.units(side) if x != u and self.alive(x)]

    def distance(self, a: int, b: int) -> int:
        ha, hb = self.hex_of(a), self.hex_of(b)
        if ha is None or hb is None:
            return 1 << 30
        return hex_distance(ha, hb)

    def sees(self, match: Match, a: Hex, b: Hex) -> bool:
        """ "Line of sight is measured in a straight line between the centers of the source and target
        tile. You cannot see through buildings and other large obstacles." (same tile: always)"""
        return a == b or match.battlefield.line_of_sight(a, b)

    def taunters(self, u: int) -> list[int]:
        return [s.inflictor for s in self.statuses(u, "taunted")]

    def valid_target(
        self, match: Match, attacker: int, target: int, reach: int, source: Hex | None = None
    ) -> bool:
        """A hostile unit still in the fight, within ``reach`` tiles and in sight; a Taunted attacker
        "Can only attempt to attack the target that taunted you"."""
        if (
            not self.is_unit(match, target)
            or not self.alive(target)
            or self.side(target) == self.side(attacker)
        ):
            return False
        src = source or self.hex_of(attacker)
        there = self.hex_of(target)
        if src is None or there is None:
            return False
        if hex_distance(src, there) > reach or not self.sees(match, src, there):
            return False
        taunters = [t for t in self.taunters(attacker) if self.alive(t)]
        return not taunters or target in taunters

    def firearm_targets(self, match: Match, attacker: int, weapon: WeaponData) -> list[int]:
        return [t for t in match.units() if self.valid_target(match, attacker, t, weapon.range)]

    # AP
    def own_turn(self, match: Match, u: int) -> bool:
        return self.game(match).active == u

    def spendable(self, match: Match, u: int) -> int:
        """AP a unit can spend now: on its turn its AP; off its turn what is left of its last turn plus
        Constant Vigilance's point (docs/RULES.md "AP across turns")."""
        if self.own_turn(match, u):
            return self.ap(u).current
        t = self.turn(u)
        if not t.started:
            return 0
        return self.ap(u).current + t.vigilance

    def spend(self, match: Match, u: int, cost: int) -> None:
        if not self.own_turn(match, u):
            t = self.turn(u)
            from_vigilance = min(cost, t.vigilance)
            t.vigilance -= from_vigilance
            cost -= from_vigilance
        points = self.ap(u)
        points.current = max(0, points.current - cost)

    def action_cost(self, u: int, action: str, weapon: str = "") -> int:
        cost = self.data.actions[action].cost
        # Smooth Sidearm: "Firing a pistol now only takes 1 action point."
        w = self.data.weapons.get(weapon)
        if action == "fire" and w is not None and w.pistol and self.has_trait(u, "smooth_sidearm"):
            return 1
        return cost

    def move_budget(self, u: int, action: str) -> int:
        definition = hooks.ACTIONS[action]
        if definition.budget is not None:
            return definition.budget(self, u)
        return self.combatant(u).move_tiles

    # == posses and setup ===========================================================================
    def validate_posses(self, posses: Sequence[PosseSpec]) -> list[str]:
        """Each posse's own problems, named by the posse: any number of posses may meet (the turn order is
        rolled, "each participant rolls 1d20")."""
        return [
            f"posse '{posse.name or posse.side}': " + "; ".join(found)
            for posse in posses
            if (found := self.validate_posse(posse))
        ]

    def validate_posse(self, posse: PosseSpec) -> list[str]:
        problems: list[str] = []
        if posse.faction not in FACTIONS:
            return [f"unknown posse '{posse.faction}' (Through the Rift posses: {', '.join(FACTIONS)})"]
        if not posse.units:
            problems.append("a posse must field at least one unit")
        for spec in posse.units:
            if spec.kind == "rifter":
                try:
                    ch = character_from_spec(spec)
                except CharacterError as error:
                    problems.append(str(error))
                    continue
                problems += character_problems(ch, self.data)
            elif spec.kind in self.data.enemies:
                if posse.faction == "rifters":
                    problems.append(f"the rifters cannot field a '{spec.kind}'")
            else:
                known = ", ".join(["rifter", *self.data.enemies])
                problems.append(f"unknown unit kind '{spec.kind}' (kinds: {known})")
        return problems

    def setup(self, match: Match) -> list[Event]:
        data = self.data
        zones = match.battlefield.deploy_zones
        problems = self.validate_posses(match.posses)
        if problems:
            raise ValueError("; ".join(problems))
        for posse in match.posses:
            if posse.side not in zones:
                raise ValueError(f"the map has no deploy zone for {posse.side}")
            for index, spec in enumerate(posse.units):
                if spec.kind == "rifter":
                    ch = character_from_spec(spec)
                    kit = kit_of(ch, data)
                    combatant = Combatant(
                        "rifter",
                        ch.level,
                        [ch.attitude, *([ch.second_attitude] if ch.second_attitude else [])],
                        list(kit.actions),
                        list(kit.traits),
                        list(ch.talents),
                        list(kit.weapons),
                        move_tiles=data.move_tiles,
                    )
                    name, resolve, points = spec.name or ch.name, kit.resolve, data.action_points
                else:
                    enemy = data.enemies[spec.kind]
                    combatant = Combatant(
                        spec.kind,
                        1,
                        [],
                        list(enemy.actions),
                        list(enemy.traits),
                        [],
                        list(enemy.weapons),
                        move_tiles=data.move_tiles,
                    )
                    name, resolve, points = spec.name or enemy.name, enemy.resolve, enemy.action_points
                unit = self._create_unit(
                    match, posse.side, spec.kind, name, index, combatant, resolve, points
                )
                if "animal_friend" in combatant.traits:
                    dog = data.companions["dog"]
                    pet = Combatant("dog", 1, [], list(dog.actions), [], [], [], unit, True, dog.move_tiles)
                    self._create_unit(
                        match,
                        posse.side,
                        "dog",
                        f"{name}'s {dog.name}",
                        100 + index,
                        pet,
                        dog.resolve,
                        dog.action_points,
                    )
        for h in sorted(match.battlefield.items):
            for item in match.battlefield.items[h]:
                match.create_entity(GroundItem(h, item))
        match.create_entity(RiftGame(deploy_order=[p.side for p in match.posses]))
        return [PhaseStarted(0, "deployment")]

    @staticmethod
    def _create_unit(  # noqa: PLR0917
        match: Match, side: str, kind: str, name: str, index: int, c: Combatant, resolve: int, points: int
    ) -> int:
        return match.create_entity(
            Identity(side, kind, name, index),
            Position(None),
            ActionPoints(0, points),
            c,
            Resolve(resolve, resolve),
            Statuses(),
            TurnState(),
            Inventory(),
        )

    # == legal actions ==============================================================================
    def legal_actions(self, match: Match) -> list[LegalAction]:
        game = self.game(match)
        if game.phase == "over":
            return []
        if game.phase == "deployment":
            side = self._deploying_side(match)
            if side is None:
                return []
            zone = tuple(
                sorted(h for h in match.battlefield.deploy_zones[side] if match.battlefield.is_passable(h))
            )
            return [
                LegalAction("deploy", f"Deploy {self.uname(u)}", u, 0, needs="hex", hexes=zone, side=side)
                for u in match.units(side)
                if self.hex_of(u) is None
            ]
        if game.stack:
            return self._decision_actions(match, game.stack[-1])
        if game.active:
            return self._turn_actions(match, game.active)
        return []

    def _turn_actions(self, match: Match, unit: int) -> list[LegalAction]:
        out: list[LegalAction] = []
        side = self.side(unit)
        for action in self._action_ids(unit):
            definition = hooks.ACTIONS[action]
            options = self.options_of(match, unit, definition)
            if definition.weapons and not options:
                continue
            for option in options or [""]:
                label = self.label(unit, action, option)
                cost = self.action_cost(unit, action, option)
                reason = self.action_problem(match, unit, action, option)
                picks = Picks()
                if reason is None:
                    picks = definition.picks(self, match, unit, option)
                    if definition.needs in ("target",) and not picks.targets:
                        reason = f"{label}: {definition.no_picks or 'no valid target'}"
                    elif definition.needs in ("hex", "path") and not picks.hexes:
                        reason = (
                            f"{label}: nowhere to go"
                            if definition.needs == "path"
                            else f"{label}: {definition.no_picks or 'no tile to pick'}"
                        )
                    elif action == "fire" and not picks.targets:
                        w = self.weapon(option)
                        reason = f"{label}: no hostile unit in sight within {w.range}t"
                out.append(
                    LegalAction(
                        action,
                        label,
                        unit,
                        cost,
                        reason is None,
                        reason,
                        definition.needs,
                        () if action == "fire" else picks.targets,
                        picks.hexes,
                        picks.choices,
                        side,
                        option,
                    )
                )
        out.append(LegalAction("end_turn", "End Turn", unit, 0, side=side, ends_turn=True))
        return out

    def _action_ids(self, unit: int) -> list[str]:
        c = self.combatant(unit)
        ids = list(c.actions) if c.companion else [*BASIC, *c.actions]
        return [a for a in dict.fromkeys(ids) if a in hooks.ACTIONS]

    def options_of(self, match: Match, unit: int, definition: hooks.ActionDef) -> list[str]:
        """The entries an action is offered as: one per carried weapon of its kind, one per string its
        ``options`` gives (an item name), else one plain entry ([""])."""
        if definition.weapons:
            return [w.id for w in self.weapons_of(unit, definition.weapons)]
        if definition.options is not None:
            return definition.options(self, match, unit)
        return [""]

    def label(self, unit: int, action: str, option: str = "") -> str:
        name = self.data.actions[action].name
        definition = hooks.ACTIONS.get(action)
        if definition is not None and definition.options is not None and option:
            return f"{name} ({option})"
        w = self.data.weapons.get(option) if definition is None or definition.weapons else None
        return f"{name} ({w.name})" if w is not None else name

    def action_problem(
        self, match: Match, unit: int, action: str, option: str = "", *, window: str = ""
    ) -> str | None:
        """Why ``unit`` cannot take ``action`` now (picks aside), in a player's words, or None."""
        definition = hooks.ACTIONS.get(action)
        if definition is None or not self.has_action(unit, action):
            return f"{self.uname(unit)} cannot {action.replace('_', ' ')}"
        label = self.label(unit, action, option)
        if not self.alive(unit):
            return f"{label}: {self.uname(unit)} is overcome"
        info = self.data.actions[action]
        if definition.weapons and option not in [w.id for w in self.weapons_of(unit, definition.weapons)]:
            return f"{label}: pick a {definition.weapons} {self.uname(unit)} carries"
        if definition.options is not None and option not in definition.options(self, match, unit):
            return f"{label}: {definition.no_options}"
        cost = self.action_cost(unit, action, option)
        if not self.own_turn(match, unit):
            if not window or window not in definition.windows:
                return f"{label}: not now"
            if not (
                definition.anytime or (definition.cunning and self.has_trait(unit, "battlefield_commander"))
            ):
                return f"{label}: only on {self.uname(unit)}'s own turn"
        points = self.spendable(match, unit)
        if points < cost:
            return f"{label}: needs {cost} AP, {self.uname(unit)} has {points}"
        if info.attack and self.own_turn(match, unit) and self.turn(unit).attacked:
            # "You are only able to make one attack per turn."
            return f"{label}: you have already attacked this turn"
        if definition.moves and self.has_status(unit, "overwhelmed"):
            return f"{label}: Overwhelmed units are incapable of moving"
        return definition.problem(self, match, unit)

    # decisions
    def _decision_actions(self, match: Match, task: Task) -> list[LegalAction]:
        if task.kind == "attack" and task.stage == "assign":
            hits = sum(1 for s in task.shots if s.hit)
            targets = tuple(self._assign_targets(match, task))
            return [
                LegalAction(
                    "assign",
                    f"Assign {hits} hit(s)",
                    task.unit,
                    0,
                    needs="assign",
                    targets=targets,
                    side=self.side(task.unit),
                    max_picks=hits,
                    dice=self._hit_values(task),
                )
            ]
        if not task.reactors:
            return []
        reactor = task.reactors[0]
        window = self._window(task)
        out: list[LegalAction] = []
        if window == "reposition":
            hexes = tuple(self._step_hexes(match, reactor))
            out.append(
                LegalAction(
                    "reposition",
                    "Tactical Reposition: move 1 tile",
                    reactor,
                    0,
                    bool(hexes),
                    None if hexes else "no tile to move to",
                    "hex",
                    hexes=hexes,
                    side=self.side(reactor),
                )
            )
        else:
            for action in self._action_ids(reactor):
                definition = hooks.ACTIONS[action]
                if window not in definition.windows:
                    continue
                reason = self.action_problem(match, reactor, action, window=window)
                picks = Picks()
                if reason is None:
                    picks = self._window_picks(match, task, reactor, action)
                    if definition.needs and not (picks.targets or picks.hexes):
                        reason = f"{self.label(reactor, action)}: no one to help"
                out.append(
                    LegalAction(
                        action,
                        self.label(reactor, action),
                        reactor,
                        self.action_cost(reactor, action),
                        reason is None,
                        reason,
                        definition.needs,
                        picks.targets,
                        picks.hexes,
                        (),
                        self.side(reactor),
                    )
                )
        out.append(LegalAction("pass", "Pass", reactor, 0, side=self.side(reactor)))
        return out

    @staticmethod
    def _window(task: Task) -> str:
        if task.kind == "reposition":
            return "reposition"
        if task.kind == "turn_start":
            return "turn_start"
        return "nudge" if task.stage == "nudge" else "protect"

    def _window_picks(self, match: Match, task: Task, reactor: int, action: str) -> Picks:
        definition = hooks.ACTIONS.get(action)
        if definition is not None and definition.window_picks is not None:
            return definition.window_picks(self, match, task, reactor)
        ally_range = self.data.ally_range
        if action == "nudge":
            # "Treat the firearm roll of an ally within 6t as if it was 2 higher."
            ok = (
                self.side(task.unit) == self.side(reactor)
                and task.unit != reactor
                and self.distance(reactor, task.unit) <= ally_range
            )
            return Picks(targets=(task.unit,) if ok else ())
        if action == "duck":
            # "Prevent all damage an ally within 6t would take this turn."
            turn_number = self.game(match).turn_number
            return Picks(
                targets=tuple(
                    t
                    for t in self._endangered(match, task)
                    if t != reactor
                    and self.side(t) == self.side(reactor)
                    and self.distance(reactor, t) <= ally_range
                    and self.turn(t).protected_turn != turn_number
                )
            )
        if action == "dodge_roll":
            if (
                reactor not in self._endangered(match, task)
                or self.turn(reactor).protected_turn == self.game(match).turn_number
            ):
                return Picks()
            return Picks(hexes=tuple(self._step_hexes(match, reactor)))
        if action == "shout_order":
            ok = (
                self.side(task.unit) == self.side(reactor)
                and task.unit != reactor
                and self.distance(reactor, task.unit) <= ally_range
            )
            return Picks(targets=(task.unit,) if ok else ())
        return Picks()

    def step_hexes(self, match: Match, unit: int) -> list[Hex]:
        return self._step_hexes(match, unit)

    def _step_hexes(self, match: Match, unit: int) -> list[Hex]:
        here = self.hex_of(unit)
        if here is None:
            return []
        return [h for h in match.battlefield.neighbors(here) if match.battlefield.move_cost(h) is not None]

    def _endangered(self, match: Match, task: Task) -> list[int]:
        """Units the attack's hits are about to reach (assigned targets; everyone in a blast)."""
        if task.kind != "attack":
            return []
        return sorted({b[0] for b in self._blows(match, task)})

    # == validate (pure) ============================================================================
    def validate(self, match: Match, cmd: Command) -> str | None:
        game = self.game(match)
        if game.phase == "over":
            return "the encounter is over"
        if not self.is_unit(match, cmd.actor):
            return f"there is no unit {cmd.actor}"
        unit = cmd.actor
        if cmd.side and cmd.side != self.side(unit):
            return f"{self.uname(unit)} is not in {cmd.side}'s posse"
        if game.phase == "deployment":
            return self._validate_deploy(match, cmd)
        if cmd.action == "deploy":
            return "deployment is over"
        if game.stack:
            return self._validate_decision(match, game.stack[-1], cmd)
        if unit != game.active:
            active = self.uname(game.active) if game.active else "no one"
            return f"it is {active}'s turn, not {self.uname(unit)}'s"
        if cmd.action == "end_turn":
            return None
        if cmd.action in WINDOW_ACTIONS:
            return f"there is nothing to {cmd.action} now"
        if cmd.action not in hooks.ACTIONS or cmd.action not in self.data.actions:
            return f"unknown action '{cmd.action}'"
        reason = self.action_problem(match, unit, cmd.action, cmd.option)
        if reason is not None:
            return reason
        return self._picks_problem(match, unit, cmd)

    def _picks_problem(self, match: Match, unit: int, cmd: Command) -> str | None:
        definition = hooks.ACTIONS[cmd.action]
        label = self.label(unit, cmd.action, cmd.option)
        if definition.check is not None:
            return definition.check(self, match, unit, cmd)
        picks = definition.picks(self, match, unit, cmd.option)
        if definition.needs == "target" and cmd.target not in picks.targets:
            return f"{label}: pick one of the valid targets"
        if definition.needs == "hex" and cmd.hex not in picks.hexes:
            return f"{label}: pick one of the offered tiles"
        if definition.needs == "path":
            return self.path_problem(match, unit, cmd.path, self.move_budget(unit, cmd.action), label)
        if cmd.action == "fire" and not picks.targets:
            return f"{label}: no hostile unit in sight and in range"
        return None

    def path_problem(
        self, match: Match, unit: int, path: tuple[Hex, ...], budget: int, label: str
    ) -> str | None:
        """A path checked step by step: neighbouring tiles, on the map, passable, within ``budget`` tiles
        (a tile's map move cost counts: docs/RULES.md "Movement")."""
        start = self.hex_of(unit)
        if start is None:
            return f"{label}: the unit is not on the map"
        steps = list(path)
        if steps and steps[0] == start:
            steps = steps[1:]
        if not steps:
            return f"{label}: the path has no step"
        bf = match.battlefield
        cost, here = 0, start
        for step in steps:
            if hex_distance(here, step) != 1:
                return f"{label}: {step} is not next to {here}"
            if not bf.in_bounds(step):
                return f"{label}: {step} is off the map"
            c = bf.move_cost(step)
            if c is None:
                door = bf.door_at(step)
                what = "a closed door" if door is not None and not door.is_open else bf.terrain_at(step).name
                return f"{label}: {step} cannot be entered ({what})"
            cost += c
            here = step
        if cost > budget:
            return f"{label}: the path costs {cost} tiles of movement, {budget} allowed"
        return None

    def _validate_deploy(self, match: Match, cmd: Command) -> str | None:
        if cmd.action != "deploy":
            return "the posses are still deploying"
        unit = cmd.actor
        side = self._deploying_side(match)
        if self.side(unit) != side:
            return f"it is {side}'s turn to deploy"
        if self.hex_of(unit) is not None:
            return f"{self.uname(unit)} is already deployed"
        if cmd.hex is None or cmd.hex not in match.battlefield.deploy_zones[side]:
            return f"pick a tile in {side}'s deploy zone"
        if not match.battlefield.is_passable(cmd.hex):
            return f"{cmd.hex} cannot be stood on"
        return None

    def _validate_decision(self, match: Match, task: Task, cmd: Command) -> str | None:
        if task.kind == "attack" and task.stage == "assign":
            if cmd.action != "assign" or cmd.actor != task.unit:
                return f"{self.uname(task.unit)} must first assign the hits of the attack"
            hits = sum(1 for s in task.shots if s.hit)
            if len(cmd.targets) != hits:
                return f"assign each of the {hits} hit(s) to a target, in die order"
            valid = self._assign_targets(match, task)
            for t in cmd.targets:
                if t not in valid:
                    return f"unit {t} is not a valid target (a hostile unit in sight and in range)"
            return None
        if not task.reactors:
            return "nothing to decide"
        reactor = task.reactors[0]
        if cmd.actor != reactor:
            return f"{self.uname(reactor)} is deciding whether to react"
        if cmd.action == "pass":
            return None
        window = self._window(task)
        if window == "reposition":
            if cmd.action != "reposition":
                return "Tactical Reposition: move 1 tile or pass"
            if cmd.hex not in self._step_hexes(match, reactor):
                return "Tactical Reposition: pick a neighbouring tile that can be entered"
            if self.has_status(reactor, "overwhelmed"):
                return "Tactical Reposition: Overwhelmed units are incapable of moving"
            return None
        definition = hooks.ACTIONS.get(cmd.action)
        if definition is None or window not in definition.windows:
            return f"{cmd.action.replace('_', ' ')} cannot be used now; react or pass"
        reason = self.action_problem(match, reactor, cmd.action, window=window)
        if reason is not None:
            return reason
        picks = self._window_picks(match, task, reactor, cmd.action)
        if definition.needs == "target" and cmd.target not in picks.targets:
            return f"{self.label(reactor, cmd.action)}: pick one of the offered allies"
        if definition.needs == "hex" and cmd.hex not in picks.hexes:
            return f"{self.label(reactor, cmd.action)}: pick one of the offered tiles"
        return None

    # == apply ======================================================================================
    def apply(self, match: Match, cmd: Command) -> list[Event]:
        game = self.game(match)
        events: list[Event] = []
        if game.phase == "deployment":
            assert cmd.hex is not None
            comp(cmd.actor, Position).hex = cmd.hex
            events.append(Moved(0, cmd.actor, (cmd.hex,), 0))
            if self._deploying_side(match) is None:
                self._start_battle(match, game, events)
        elif game.stack:
            self._apply_decision(match, game, game.stack[-1], cmd, events)
            self._run(match, events)
        elif cmd.action == "end_turn":
            self._end_turn(match, game, events)
        else:
            self._apply_action(match, game, cmd, events)
            self._run(match, events)
        self._check_end(match, game, events)
        return events

    def _apply_action(self, match: Match, game: RiftGame, cmd: Command, events: list[Event]) -> None:
        unit = cmd.actor
        definition = hooks.ACTIONS[cmd.action]
        self.spend(match, unit, self.action_cost(unit, cmd.action, cmd.option))
        if self.data.actions[cmd.action].attack:
            self.turn(unit).attacked = True
        assert definition.apply is not None
        definition.apply(self, match, unit, cmd, events)

    def _apply_decision(
        self, match: Match, game: RiftGame, task: Task, cmd: Command, events: list[Event]
    ) -> None:
        if cmd.action == "assign":
            task.assigned = list(cmd.targets)
            events.append(
                ActionTaken(game.round, task.unit, "assign", option=",".join(map(str, cmd.targets)))
            )
            self._enter_protect(match, task)
            return
        if cmd.action == "pass":
            task.reactors.pop(0)
            return
        if cmd.action == "reposition":
            task.reactors.pop(0)
            assert cmd.hex is not None
            game.stack.append(Task("walk", cmd.actor, steps=[cmd.hex]))
            return
        reactor = cmd.actor
        self.spend(match, reactor, self.action_cost(reactor, cmd.action))
        definition = hooks.ACTIONS[cmd.action]
        assert definition.apply is not None
        definition.apply(self, match, reactor, cmd, events)

    # -- the flow ---------------------------------------------------------------------------------
    def push_attack(
        self,
        match: Match,
        attacker: int,
        mode: str,
        weapon: str,
        *,
        impact: Hex | None = None,
        forced: int = 0,
    ) -> Task:
        """Start an attack: a firearm attack first opens the Nudge window; others roll at once."""
        w = self.weapon(weapon) if weapon else None
        stage = "nudge" if w is not None and w.firearm and mode != "covering_fire" else "roll"
        task = Task("attack", attacker, mode=mode, weapon=weapon, stage=stage, impact=impact, forced=forced)
        if stage == "nudge":
            task.reactors = self._reactors(match, task, "nudge")
            if not task.reactors:
                task.stage = "roll"
        self.game(match).stack.append(task)
        return task

    def push_walk(self, match: Match, unit: int, steps: list[Hex]) -> None:
        self.game(match).stack.append(Task("walk", unit, steps=list(steps)))

    def _reactors(self, match: Match, task: Task, window: str) -> list[int]:
        """Units that have an enabled reaction in this window, in turn order."""
        game = self.game(match)
        order = [u for u in game.order if self.alive(u)]
        out = []
        for u in order:
            for action in self._action_ids(u):
                definition = hooks.ACTIONS[action]
                if window not in definition.windows:
                    continue
                if self.action_problem(match, u, action, window=window) is not None:
                    continue
                picks = self._window_picks(match, task, u, action)
                if picks.targets or picks.hexes:
                    out.append(u)
                    break
        return out

    def _run(self, match: Match, events: list[Event]) -> None:
        """Carry the flow on until it needs a decision or the stack is empty."""
        game = self.game(match)
        guard = 0
        while game.stack and game.phase != "over":
            guard += 1
            assert guard < 10_000, "the flow does not settle"
            task = game.stack[-1]
            if task.reactors:
                # a window: drop reactors that can no longer react; stop for a decision
                window = self._window(task)
                while task.reactors and (not self.alive(task.reactors[0]) and window != "reposition"):
                    task.reactors.pop(0)
                if window == "reposition" and task.reactors and not self.alive(task.reactors[0]):
                    task.reactors.pop(0)
                    continue
                if task.reactors:
                    return
            if task.kind == "walk":
                self._step(match, task, events)
            elif task.kind in ("reposition", "turn_start"):
                game.stack.pop()
            elif task.kind == "attack":
                if task.stage == "assign":
                    return
                self._advance_attack(match, task, events)
            if self._winner(match) is not None:
                game.stack.clear()
        if game.phase == "battle" and not game.stack and game.active:
            unit = game.active
            if not self.alive(unit) or (
                self.ap(unit).current <= 0 and not self._pickup_possible(match, unit)
            ):
                self._end_turn(match, game, events)

    def _pickup_possible(self, match: Match, unit: int) -> bool:
        return self.has_action(unit, "pick_up_cover") and any(
            s.owner == unit and s.hex == self.hex_of(unit) for _, s in match.iter_components(Shield)
        )

    def _step(self, match: Match, task: Task, events: list[Event]) -> None:
        """One tile of a move, then the watchers' triggers: docs/RULES.md "Hold Fire and Covering Fire"."""
        game = self.game(match)
        unit = task.unit
        if not task.steps or not self.alive(unit):
            game.stack.pop()
            return
        step = task.steps.pop(0)
        before = self.here(unit)
        comp(unit, Position).hex = step
        cost = match.battlefield.move_cost(step) or 1
        events.append(Moved(game.round, unit, (before, step), cost))
        if not task.steps:
            game.stack.pop()
        triggered: list[Task] = []
        for watcher in game.order:
            if watcher == unit or not self.alive(watcher) or self.side(watcher) == self.side(unit):
                continue
            for record in list(self.statuses(watcher, "hold_fire")):
                w = self.weapon(record.weapon)
                if self.valid_target(match, watcher, unit, w.range):
                    comp(watcher, Statuses).items.remove(record)
                    events.append(StatusChanged(game.round, watcher, "hold_fire", False))
                    events.append(
                        Note(game.round, watcher, "Hold Fire: fires at the first valid target to move")
                    )
                    triggered.append(
                        Task("attack", watcher, mode="hold_fire", weapon=w.id, stage="nudge", forced=unit)
                    )
                    break
            for record in self.statuses(watcher, "covering_fire"):
                reach = max((w.range for w in self.weapons_of(watcher, "firearm")), default=0)
                if unit not in record.shot_at and self.valid_target(match, watcher, unit, reach):
                    record.shot_at.append(unit)
                    events.append(
                        Note(game.round, watcher, "Covering Fire: a 1 stress shot at a target that moved")
                    )
                    triggered.append(Task("attack", watcher, mode="covering_fire", stage="roll", forced=unit))
        for t in reversed(triggered):
            if t.stage == "nudge":
                t.reactors = self._reactors(match, t, "nudge")
                if not t.reactors:
                    t.stage = "roll"
            game.stack.append(t)

    def _advance_attack(self, match: Match, task: Task, events: list[Event]) -> None:
        game = self.game(match)
        attacker = task.unit
        if task.stage == "nudge":
            task.stage = "roll"
            return
        if task.stage == "roll":
            if not self.alive(attacker):
                game.stack.pop()
                return
            self._roll(match, task, events)
            w = self.weapon(task.weapon) if task.weapon else None
            if w is not None and w.explosive:
                self._enter_protect(match, task)
                return
            hits = sum(1 for s in task.shots if s.hit)
            valid = self._assign_targets(match, task)
            if hits == 0 or not valid:
                if hits:
                    events.append(Note(game.round, attacker, "no valid target for the hits"))
                game.stack.pop()
                return
            if task.forced or len(valid) == 1:
                # one valid target (or the mover that set off Hold Fire): every hit goes to it
                task.assigned = [valid[0]] * hits
                self._enter_protect(match, task)
                return
            task.stage = "assign"
            return
        if task.stage == "protect":
            task.stage = "apply"
            return
        if task.stage == "apply":
            game.stack.pop()
            self._resolve(match, task, events)

    def _enter_protect(self, match: Match, task: Task) -> None:
        task.stage = "protect"
        task.reactors = self._reactors(match, task, "protect")
        if not task.reactors:
            task.stage = "apply"

    def dice_traits(self, unit: int, weapon: WeaponData, nudges: int) -> DiceTraits:
        traits = DiceTraits(nudge=nudges)
        for t in self.combatant(unit).traits:
            definition = hooks.TRAITS.get(t)
            if definition is not None and definition.dice is not None:
                traits = definition.dice(weapon, traits)
        return traits

    def _roll(self, match: Match, task: Task, events: list[Event]) -> None:
        rnd = self.game(match).round
        if task.mode == "covering_fire":
            # "deal a 1 stress shot against them": no dice
            task.shots = [ShotRecord(1, True, [])]
            return
        w = self.weapon(task.weapon)
        traits = self.dice_traits(task.unit, w, task.nudges) if not w.melee else DiceTraits()
        shots, dropped = roll_dice(match.rng, w.stats(), traits)
        task.shots = [ShotRecord(s.value, s.hit, list(s.rolls)) for s in shots]
        if any(len(s.rolls) > 1 for s in shots + dropped):
            # every face of each die (rerolls, explosions): the kept dice, then the dropped ones
            faces = ", ".join("→".join(map(str, s.rolls)) for s in shots + dropped)
            events.append(Note(rnd, task.unit, f"faces per die: {faces}"))
        if dropped:
            # Firearm Mastery: "roll one additional die and drop the lowest result"
            lowest = ", ".join(str(s.value) for s in dropped)
            events.append(Note(rnd, task.unit, f"Firearm Mastery: dropped the lowest: {lowest}"))
        mods = tuple((n, v) for n, v in (("nudge", 2 * task.nudges),) if v)
        events.append(
            Roll(
                rnd,
                task.unit,
                task.mode,
                tuple(s.value for s in shots),
                mods,
                sum(s.value for s in shots if s.hit),
                w.threshold,
                any(s.hit for s in shots),
                task.forced or None,
                "melee" if w.melee else "attack",
            )
        )

    def _assign_targets(self, match: Match, task: Task) -> list[int]:
        if task.forced:
            reach = (
                self.weapon(task.weapon).range
                if task.weapon
                else max((w.range for w in self.weapons_of(task.unit, "firearm")), default=0)
            )
            ok = self.valid_target(match, task.unit, task.forced, reach)
            return [task.forced] if ok else []
        w = self.weapon(task.weapon)
        return self.firearm_targets(match, task.unit, w)

    def _blows(
        self, match: Match, task: Task
    ) -> list[tuple[int, int, Hex, tuple[tuple[str, Fraction], ...]]]:
        """(target, value, source tile, extra factors) for every stress an attack is about to deal."""
        out: list[tuple[int, int, Hex, tuple[tuple[str, Fraction], ...]]] = []
        attacker = task.unit
        hits = [s for s in task.shots if s.hit]
        if task.impact is not None:
            w = self.weapon(task.weapon)
            radius = w.radius or 0
            bf = match.battlefield
            for u in match.units():
                there = self.hex_of(u)
                if there is None or not self.alive(u) or hex_distance(there, task.impact) > radius:
                    continue
                if not self.sees(match, task.impact, there):
                    continue
                for s in hits:
                    out.append((u, s.value, task.impact, ()))
            del bf
            return out
        source = self.hex_of(attacker)
        if source is None:
            return []
        piercing = (
            self.has_trait(attacker, "piercing_fire") and task.weapon and self.weapon(task.weapon).firearm
        )
        for s, target in zip(hits, task.assigned, strict=False):
            out.append((target, s.value, source, ()))
            if piercing:
                extra = self.pierced(match, attacker, target, self.weapon(task.weapon))
                if extra is not None:
                    out.append((extra, s.value, source, (("Piercing Fire", HALF),)))
        return out

    def pierced(self, match: Match, attacker: int, target: int, weapon: WeaponData) -> int | None:
        """Piercing Fire: "If a target of your firearm is in a direct line with you, your hits penetrate,
        dealing ½ stress to another target in a tile behind. (The extra target must still be within
        range)". Direct line: along one of the six hex axes; the tile behind: the next tile on that axis
        (docs/RULES.md "Piercing Fire")."""
        a, t = self.hex_of(attacker), self.hex_of(target)
        if a is None or t is None or a == t:
            return None
        d = t - a
        n = hex_distance(a, t)
        direction = Hex(d.q // n, d.r // n) if d.q % n == 0 and d.r % n == 0 else None
        if direction is None or direction not in DIRECTIONS:
            return None
        behind = t + direction
        for u in match.units():
            if (
                u != target
                and self.hex_of(u) == behind
                and self.valid_target(match, attacker, u, weapon.range)
            ):
                return u
        return None

    def _resolve(self, match: Match, task: Task, events: list[Event]) -> None:
        attacker = task.unit
        w = self.weapon(task.weapon) if task.weapon else None
        blows = self._blows(match, task)
        sights_used = False
        sights_at = -1
        if w is not None and w.firearm and self.turn(attacker).down_the_sights:
            # "The next shot you make that hits inflicts 4x as much stress.": the best hit of the volley
            # (the dice are rolled and assigned together; as in odds.py)
            direct = [i for i, b in enumerate(blows) if not b[3]]
            if direct:
                sights_at = max(direct, key=lambda i: (blows[i][1], -i))
        hit_units: list[int] = []
        for i, (target, value, source, extra) in enumerate(blows):
            factors = list(extra)
            if i == sights_at:
                factors += self.sights_factors(attacker)
                sights_used = True
            dealt = self.deal(match, target, value, attacker, source, factors, events)
            if dealt and target not in hit_units:
                hit_units.append(target)
        if sights_used:
            self.turn(attacker).down_the_sights = False
            events.append(StatusChanged(self.game(match).round, attacker, "down_the_sights", False))
        # what hit them: the attack's weapon; a Covering Fire shot is one of the gun it sweeps with
        # ("Set up your gun to sweep the battlefield"), so "hit by your firearm" (docs/RULES.md R10a)
        hit_with = w
        if hit_with is None and task.mode == "covering_fire":
            hit_with = self.covering_firearm(attacker)
        if hit_with is not None:
            for target in hit_units:
                for t in self.combatant(attacker).traits:
                    definition = hooks.TRAITS.get(t)
                    if definition is not None and definition.on_hit is not None:
                        definition.on_hit(self, match, attacker, target, hit_with, task.mode, events)
                if task.mode == "scary_yelling" and self.alive(target):
                    # "Anyone you hit is Taunted and can only attack you until the start of your next turn."
                    self.inflict(match, target, "taunted", attacker, events)
        if w is not None and w.explosive and task.impact is not None:
            for t in self.combatant(attacker).traits:
                definition = hooks.TRAITS.get(t)
                if definition is not None and definition.after_explosion is not None:
                    definition.after_explosion(self, match, attacker, task.impact, events)

    def has_real_cover(self, match: Match, target: int, source: Hex) -> bool:
        """Map cover on the shortest line, next to the target (either nudged line), or a shield in the
        target's tile: docs/RULES.md "Cover"."""
        there = self.here(target)
        if any(s.hex == there for _, s in match.iter_components(Shield)):
            return True
        return match.battlefield.cover_between(source, there) != Cover.NONE

    def all_round_cover(self, match: Match, target: int) -> bool:
        if self.has_status(target, "in_cover"):
            return True
        for t in self.combatant(target).traits:
            definition = hooks.TRAITS.get(t)
            if (
                definition is not None
                and definition.all_round_cover is not None
                and definition.all_round_cover(self, match, target)
            ):
                return True
        # Improved Meatshield: "The cover effects of meatshield now apply to allies as well."
        there = self.hex_of(target)
        for ally in self.allies(match, target):
            if self.hex_of(ally) == there and self.has_trait(ally, "improved_meatshield"):
                meat = hooks.TRAITS.get("meatshield")
                if (
                    meat is not None
                    and meat.all_round_cover is not None
                    and meat.all_round_cover(self, match, ally)
                ):
                    return True
        return False

    def shot_factors(
        self, match: Match, target: int, attacker: int, source: Hex
    ) -> tuple[str, list[tuple[str, Fraction]]]:
        """What one shot from ``source`` meets at ``target`` (pure): why it deals nothing ("" if it does) and
        the named multipliers of cover, statuses and traits. :meth:`deal` and :meth:`preview` both use it."""
        game = self.game(match)
        factors: list[tuple[str, Fraction]] = []
        if self.turn(target).protected_turn == game.turn_number:
            return "prevented this turn", factors
        ignores = any(
            (d := hooks.TRAITS.get(t)) is not None and d.ignores_cover
            for t in self.combatant(attacker).traits
        )
        if not ignores:
            real = self.has_real_cover(match, target, source)
            crouched = self.has_status(target, "in_cover")
            if crouched and real:
                # Crouch Down: "If a shot would have already been halved due to being behind existing cover,
                # it is instead reduced to zero."
                return "crouched behind cover", factors
            if real or self.all_round_cover(match, target):
                factors.append(("cover", HALF))
        if self.has_status(attacker, "suppressed"):
            factors.append(("Suppressed", HALF))  # "Deal ½ stress"
        if self.has_status(target, "half_stress"):
            factors.append(("Run & Gun", HALF))
        for t in self.combatant(attacker).traits:
            d = hooks.TRAITS.get(t)
            if d is not None and d.outgoing is not None:
                w = (
                    self.weapon(self.combatant(attacker).weapons[0])
                    if self.combatant(attacker).weapons
                    else None
                )
                if w is not None:
                    factors += d.outgoing(self, match, attacker, target, w)
        for t in self.combatant(target).traits:
            d = hooks.TRAITS.get(t)
            if d is not None and d.incoming is not None:
                factors += d.incoming(self, match, target, attacker)
        return "", factors

    def deal(  # noqa: PLR0917
        self,
        match: Match,
        target: int,
        value: int,
        attacker: int,
        source: Hex,
        factors: list[tuple[str, Fraction]],
        events: list[Event],
    ) -> int:
        """Deal one shot's stress: prevention, cover, statuses, traits (:meth:`shot_factors`), then
        stress.apply_multipliers."""
        rnd = self.game(match).round
        if not self.alive(target):
            return 0
        prevented, more = self.shot_factors(match, target, attacker, source)
        if prevented:
            events.append(StressDealt(rnd, target, attacker, value, tuple(factors), 0, prevented))
            return 0
        factors += more
        amount = apply_multipliers(value, [f for _, f in factors])
        res = self.resolve(target)
        res.current = max(0, res.current - amount)
        events.append(StressDealt(rnd, target, attacker, value, tuple(factors), amount))
        events.append(DamageTaken(rnd, target, amount, attacker, res.current))
        if res.current == 0 and not res.overcome:
            # "When a character's resolve is reduced to 0, they are overcome and cannot act for the
            # remainder of the encounter."
            res.overcome = True
            events.append(StatusChanged(rnd, target, "overcome", True))
            self.drop_items(match, target, events)
        return amount

    # -- statuses ---------------------------------------------------------------------------------
    def inflict(  # noqa: PLR0917
        self, match: Match, target: int, kind: str, inflictor: int, events: list[Event], weapon: str = ""
    ) -> bool:
        """Give a status until the start of ``inflictor``'s next turn ("Most status effects last until the
        start of the inflictor's next turn")."""
        rnd = self.game(match).round
        for t in self.combatant(target).traits:
            d = hooks.TRAITS.get(t)
            if d is not None and kind in d.immune:
                events.append(Note(rnd, target, f"cannot be {kind}"))
                return False
        items = comp(target, Statuses).items
        already = any(s.kind == kind for s in items)
        for s in items:
            if s.kind == kind and s.inflictor == inflictor:
                items.remove(s)
                break
        items.append(StatusRecord(kind, inflictor, weapon))
        events.append(StatusChanged(rnd, target, kind, True))
        if kind == "stunned" and self.own_turn(match, target) and not already:
            # "Lose 1 Action Point": stunned during its own turn, the unit loses it at once; a unit already
            # Stunned is not stunned more (one point however many stun it: docs/RULES.md R25a)
            points = self.ap(target)
            points.current = max(0, points.current - 1)
        return True

    def _expire(self, match: Match, inflictor: int, events: list[Event]) -> None:
        rnd = self.game(match).round
        for u in match.units(in_play=False):
            items = comp(u, Statuses).items
            for s in [s for s in items if s.inflictor == inflictor]:
                items.remove(s)
                if not any(x.kind == s.kind for x in items):
                    events.append(StatusChanged(rnd, u, s.kind, False))

    # -- deployment, turns, rounds ----------------------------------------------------------------
    def _deploying_side(self, match: Match) -> str | None:
        for side in self.game(match).deploy_order:
            if any(self.hex_of(u) is None for u in match.units(side)):
                return side
        return None

    def _start_battle(self, match: Match, game: RiftGame, events: list[Event]) -> None:
        """ "To determine turn order, each participant rolls 1d20. Higher numbers act first, with ties
        rolling off." Quick Draw: "you always act first. If two characters have this talent, they roll off
        for first and second"."""
        game.phase = "battle"
        game.round = 1
        events.append(PhaseStarted(1, "initiative"))
        units = match.units()
        die = self.data.initiative_die
        rolls: dict[int, list[int]] = {}
        for u in units:
            (value,) = roll(match.rng, die)
            rolls[u] = [value]
            self.turn(u).initiative = value
            events.append(Roll(1, u, "initiative", (value,), (), value, None, None, None, "initiative"))
        # roll-offs among ties until every unit's roll sequence is distinct
        while True:
            groups: dict[tuple[bool, tuple[int, ...]], list[int]] = {}
            for u in units:
                groups.setdefault((self.has_trait(u, "quick_draw"), tuple(rolls[u])), []).append(u)
            tied = [g for g in groups.values() if len(g) > 1]
            if not tied:
                break
            for group in tied:
                for u in group:
                    (value,) = roll(match.rng, die)
                    rolls[u].append(value)
                    events.append(
                        Roll(1, u, "initiative roll-off", (value,), (), value, None, None, None, "initiative")
                    )
        game.order = sorted(
            units, key=lambda u: (not self.has_trait(u, "quick_draw"), [-v for v in rolls[u]])
        )
        events.append(PhaseStarted(1, "battle"))
        game.turn_index = -1
        self._next_turn(match, game, events)

    def _next_turn(self, match: Match, game: RiftGame, events: list[Event]) -> None:
        game.active = 0
        for _ in range(len(game.order) + 1):
            game.turn_index += 1
            if game.turn_index >= len(game.order):
                if game.round >= self.data.max_rounds:
                    game.result = f"the sun went down after {game.round} rounds: no winner"
                    return
                game.round += 1
                game.turn_index = 0
                events.append(PhaseStarted(game.round, "round"))
            unit = game.order[game.turn_index]
            self._expire(match, unit, events)  # the inflictor's turn (taken or not) begins
            if not self.alive(unit):
                continue
            self._start_turn(match, game, unit, events)
            return
        game.result = "no unit can act: no winner"

    def _start_turn(self, match: Match, game: RiftGame, unit: int, events: list[Event]) -> None:
        game.active = unit
        game.turn_number += 1
        t = self.turn(unit)
        t.attacked = t.sprinted = False
        t.started = True
        t.vigilance = 0
        points = self.ap(unit)
        points.current = points.per_activation + points.bonus_next
        points.bonus_next = 0
        if self.has_status(unit, "stunned"):
            points.current = max(0, points.current - 1)  # Stunned: "Lose 1 Action Point"
            events.append(Note(game.round, unit, "Stunned: 1 action point lost"))
        for trait in self.combatant(unit).traits:
            d = hooks.TRAITS.get(trait)
            if d is not None and d.turn_start is not None:
                d.turn_start(self, match, unit)
        events.append(ActivationStarted(game.round, unit, points.current))
        start = Task("turn_start", unit)
        start.reactors = self._reactors(match, start, "turn_start")
        if start.reactors:
            game.stack.append(start)
        elif points.current <= 0 and not self._pickup_possible(match, unit):
            self._end_turn(match, game, events)

    def _end_turn(self, match: Match, game: RiftGame, events: list[Event]) -> None:
        if game.active:
            events.append(ActivationEnded(game.round, game.active))
        self._next_turn(match, game, events)
        self._run(match, events)

    # -- the end ----------------------------------------------------------------------------------
    def _fighters(self, match: Match, side: str) -> list[int]:
        return [u for u in match.units(side) if not self.combatant(u).companion]

    def _winner(self, match: Match) -> Outcome | None:
        """A side wins when every hostile unit is overcome or has fled (companions do not count):
        docs/RULES.md "Winning"."""
        game = self.game(match)
        if game.phase == "deployment":
            return None
        standing = [p.side for p in match.posses if any(self.alive(u) for u in self._fighters(match, p.side))]
        if len(standing) > 1:
            return None
        if not standing:
            return Outcome(None, "no one is left standing on either side")
        winner = standing[0]
        beaten = [u for p in match.posses if p.side != winner for u in self._fighters_all(match, p.side)]
        fled = [
            u for u in beaten if (r := esper.try_component(u, Removed)) is not None and r.reason == "fled"
        ]
        if len(fled) == len(beaten):
            reason = "every hostile unit fled"
        elif not fled:
            reason = "every hostile unit is overcome"
        else:
            reason = "every hostile unit is overcome or fled"
        return Outcome(winner, reason)

    def _fighters_all(self, match: Match, side: str) -> list[int]:
        return [u for u in match.units(side, in_play=False) if not self.combatant(u).companion]

    def _check_end(self, match: Match, game: RiftGame, events: list[Event]) -> None:
        if game.phase in {"over", "deployment"}:
            return
        result = self._winner(match)
        if result is None and game.result:
            result = Outcome(None, game.result)
        if result is None:
            return
        game.phase = "over"
        game.active = 0
        game.stack.clear()
        game.winner = result.winner or ""
        game.result = result.reason
        events.append(MatchEnded(game.round, result.winner, result.reason))
        self._stabilise(match, game, events)

    def _stabilise(self, match: Match, game: RiftGame, events: list[Event]) -> None:
        """ "At the end of the encounter, an ally can stabilize them, returning them to 1/3 of their maximum
        resolve." Implausibly Well Groomed: "instead return to 2/3 resolve". An ally: a unit of the same
        side still standing (not overcome, not fled)."""
        for u in match.units():
            res = self.resolve(u)
            if not res.overcome:
                continue
            if not any(self.alive(a) for a in match.units(self.side(u)) if a != u):
                continue
            share = Fraction(2, 3) if self.has_trait(u, "implausibly_well_groomed") else Fraction(1, 3)
            res.current = max(1, int(res.maximum * share))
            res.overcome = False
            game.stabilised.append([u, res.current])
            events.append(Note(game.round, u, f"stabilised by an ally: {res.current} resolve"))

    def outcome(self, match: Match) -> Outcome | None:
        game = self.game(match)
        if game.phase != "over":
            return None
        return Outcome(game.winner or None, game.result)

    def preview(self, match: Match, cmd: Command) -> AttackPreview | None:
        """The exact odds of an attack command (Fire Firearm, Scary Yelling, Run & Gun, Use Explosive,
        Haymaker) against one target, from ``odds.attack_odds`` with the attacker's real dice traits and the
        multipliers :meth:`shot_factors` gives the engine (docs/RULES.md RA1).

        The target: ``cmd.target`` if it is one the attack could reach, else the nearest (a Fire command
        names none: its hits are assigned after the roll). Nudges: those already declared for this
        attacker's pending attack plus ``cmd.number`` more the player counts on. ``damage`` is the stress
        that target takes if every hit goes to it; ``modifiers`` name each multiplier as a percentage
        (cover 50) and a Nudge as its bonus per die (+2). Hold Fire: the same odds against the target where
        it stands now (it fires later, at the first to move). An ``assign`` command of an attack already
        rolled: the exact stress each unit would take from that split (``per_target``; Piercing Fire and
        Down the Sights included), before any "Duck!" or Dodge Roll (docs/RULES.md RA2). None for
        anything else."""
        if not self.is_unit(match, cmd.actor) or self.hex_of(cmd.actor) is None:
            return None
        if cmd.action == "assign":
            return self._assign_preview(match, cmd)
        attacker = cmd.actor
        if cmd.action in ("fire", "scary_yelling", "run_and_gun", "explosive", "hold_fire"):
            if cmd.option not in self.combatant(attacker).weapons:
                return None
            w = self.weapon(cmd.option)
        elif cmd.action == "haymaker" and self.has_action(attacker, "haymaker"):
            w = self.weapon("haymaker")
        else:
            return None
        source = self.here(attacker)
        if cmd.action == "run_and_gun" and cmd.path:
            source = cmd.path[-1]  # "Move 2 tiles. Fire your firearm.": fired from where the run ends
        if w.explosive:
            if cmd.hex is None:
                return None
            source, reach = cmd.hex, w.radius or 0
            candidates = [
                u
                for u in match.units()
                if self.alive(u)
                and hex_distance(self.here(u), source) <= reach
                and self.sees(match, source, self.here(u))
            ]
            hostile = [u for u in candidates if self.side(u) != self.side(attacker)]
            candidates = hostile + [u for u in candidates if u not in hostile]
        else:
            candidates = [
                u for u in match.units() if self.valid_target(match, attacker, u, w.range, source=source)
            ]
        notes: list[str] = []
        if cmd.target is not None:
            if cmd.target not in candidates:
                return None
            target: int | None = cmd.target
        elif candidates:
            target = min(candidates, key=lambda u: (hex_distance(self.here(u), source), u))
            notes.append(f"against the nearest target, {self.uname(target)}")
        else:
            target = None
            notes.append("no unit to hit: the stress a target in the open would take")
        nudges = max(0, cmd.number or 0)
        for task in self.game(match).stack:
            if task.kind == "attack" and task.unit == attacker and task.stage in ("nudge", "roll"):
                nudges += task.nudges
        traits = self.dice_traits(attacker, w, nudges) if not w.melee else DiceTraits()
        prevented, factors = "", list[tuple[str, Fraction]]()
        if target is not None:
            prevented, factors = self.shot_factors(match, target, attacker, source)
        sights = len(self.sights_factors(attacker)) if w.firearm and not prevented else 0
        odds = attack_odds(w.stats(), traits, tuple(f for _, f in factors), down_the_sights=sights,
                           zeroed=bool(prevented))  # fmt: skip
        stress = dict(odds.stress)
        if odds.tail_from is not None and odds.tail:
            stress[odds.tail_from] = stress.get(odds.tail_from, Fraction(0)) + odds.tail
            notes.append(f"{odds.tail_from} stands for {odds.tail_from} or more (Improved Fireworks)")
        modifiers: list[tuple[str, int]] = []
        if odds.traits.nudge:
            modifiers.append(("Nudge", 2 * odds.traits.nudge))
        modifiers += [(name, int(f * 100)) for name, f in factors]
        modifiers += [("Down the Sights (the best hit)", int(DOWN_THE_SIGHTS * 100))] * sights
        if prevented:
            notes.append(f"no stress: {prevented}")
        if w.explosive:
            notes.append("every unit in the blast takes every hit")
        elif cmd.action == "hold_fire":
            notes.append(
                "Hold Fire shoots later, at the first valid target to move: these are the odds against "
                "this target where it stands now, if every hit goes to it"
            )
        else:
            notes.append("stress if every hit is assigned to this target")
        if target is not None and self.has_trait(attacker, "piercing_fire") and w.firearm:
            extra = self.pierced(match, attacker, target, w)
            if extra is not None:
                notes.append(f"Piercing Fire: {self.uname(extra)} behind takes 1/2 of each hit")
        return AttackPreview(
            hit_chance=1 - odds.hits.probabilities.get(0, Fraction(0)),
            damage=Distribution(stress),
            modifiers=tuple(modifiers),
            target_number=w.threshold,
            notes=tuple(notes),
        )

    def _assign_preview(self, match: Match, cmd: Command) -> AttackPreview | None:
        """What the hits already rolled would deal if assigned as ``cmd.targets`` (RA2): the engine's own
        blows (:meth:`_blows`), multipliers (:meth:`shot_factors`) and Down the Sights choice."""
        game = self.game(match)
        if not game.stack:
            return None
        task = game.stack[-1]
        if task.kind != "attack" or task.stage != "assign" or cmd.actor != task.unit:
            return None
        if self._validate_decision(match, task, cmd) is not None:
            return None
        attacker = task.unit
        w = self.weapon(task.weapon) if task.weapon else None
        trial = Task(
            task.kind, attacker, mode=task.mode, weapon=task.weapon, impact=task.impact, forced=task.forced,
            shots=task.shots, assigned=list(cmd.targets),
        )  # fmt: skip
        blows = self._blows(match, trial)
        sights_at = -1
        if w is not None and w.firearm and self.turn(attacker).down_the_sights:
            direct = [i for i, b in enumerate(blows) if not b[3]]
            if direct:
                sights_at = max(direct, key=lambda i: (blows[i][1], -i))
        left = {b[0]: self.resolve(b[0]).current if self.alive(b[0]) else 0 for b in blows}
        per: dict[int, int] = {}
        notes: list[str] = []
        for i, (target, value, source, extra) in enumerate(blows):
            factors = list(extra)
            if i == sights_at:
                factors += self.sights_factors(attacker)
            prevented, more = self.shot_factors(match, target, attacker, source)
            amount = 0
            if left[target] > 0 and not prevented:
                amount = apply_multipliers(value, [f for _, f in factors + more])
                left[target] = max(0, left[target] - amount)
            per[target] = per.get(target, 0) + amount
            named = ", ".join(f"{n} x{f}" for n, f in factors + more)
            why = f" ({prevented})" if prevented else (f" ({named})" if named else "")
            notes.append(f"{value} on {self.uname(target)}: {amount} stress{why}")
        for target, amount in per.items():
            if amount and left[target] == 0:
                notes.append(f"{self.uname(target)} would be overcome")
        notes.append('before any "Duck!" or Dodge Roll')
        return AttackPreview(
            hit_chance=Fraction(1) if blows else Fraction(0),
            damage=Distribution.constant(sum(per.values())),
            modifiers=(),
            target_number=w.threshold if w is not None else None,
            notes=tuple(notes),
            per_target=tuple(per.items()),
        )

    # == what the UI shows (views.py) ===============================================================
    def unit_view(self, match: Match, unit: int) -> UnitView:
        return unit_view(self, match, unit)

    def tracker(self, match: Match) -> list[TrackerEntry]:
        return tracker(self, match)

    def auto_deploy(self, match: Match) -> list[Command]:
        return auto_deploy_commands(match)

    def rules_summary(self) -> str:
        return RULES_SUMMARY

    def printed_name(self, key: str) -> str | None:
        entry = self.data.weapons.get(key) or self.data.items.get(key)
        return entry.name if entry is not None and entry.name.strip() else None

    def describe(self, match: Match, event: Event, name: Callable[[int], str]) -> str | None:
        return describe(event, name)

    def conceal(self, match: Match, rng: random.Random) -> None:
        """Nothing is hidden in Through the Rift but the dice RNG (every roll is made in the open)."""

    def prompt(self, match: Match) -> Prompt | None:
        """The decision on top of the stack in a player's words, for the battle screen's banner: the
        attacker's hit assignment, or a reaction window (a Nudge before the roll, "Duck!" / Dodge Roll
        before the hits land, a reaction as a turn starts, a Tactical Reposition step). None in an ordinary
        turn, while the posses deploy and after the end. Read-only."""
        match.enter()
        game = self.game(match)
        if game.phase != "battle" or not game.stack:
            return None
        task = game.stack[-1]
        if task.kind == "attack" and task.stage == "assign":
            return self._assign_prompt(match, task)
        if task.reactors:
            return self._window_prompt(match, task)
        return None

    @staticmethod
    def _hit_values(task: Task) -> tuple[int, ...]:
        """The values of an attack's successful dice, in die order (the ones its hit assignment names)."""
        return tuple(s.value for s in task.shots if s.hit)

    def _assign_prompt(self, match: Match, task: Task) -> Prompt:
        attacker = task.unit
        values = self._hit_values(task)
        hits = f"{len(values)} hit" + ("" if len(values) == 1 else "s")
        text = (
            f"{self._attack_words(task)}: {hits} ({_and_list([str(v) for v in values])}). "
            "Assign each die to a valid target; the same one may take several."
        )
        targets = tuple(self._assign_targets(match, task))
        return Prompt("Assign the hits", text, attacker, attacker, targets)

    def _window_prompt(self, match: Match, task: Task) -> Prompt:
        reactor = task.reactors[0]
        who = self.uname(reactor)
        window = self._window(task)
        if window == "reposition":
            caller = self.uname(task.unit)
            can = bool(self._step_hexes(match, reactor))
            if reactor == task.unit:
                text = f"{caller} calls a Tactical Reposition" + (
                    " and may move 1 tile, or pass." if can else " but has no tile to move to: pass."
                )
            else:
                text = f"{caller} calls a Tactical Reposition. " + (
                    f"{who} may move 1 tile, or pass." if can else f"{who} has no tile to move to: pass."
                )
            return Prompt("Tactical Reposition", text, reactor, task.unit)
        labels = [a.label for a in self._decision_actions(match, task) if a.enabled and a.action != "pass"]
        options = f"{who} may use {_or_list(labels)}, or pass." if labels else f"{who} can only pass now."
        if window == "turn_start":
            text = f"{self.uname(task.unit)}'s turn starts. {options}"
            return Prompt("React before the turn", text, reactor, task.unit)
        prefix = {"hold_fire": "Hold Fire! ", "covering_fire": "Covering Fire! "}.get(task.mode, "")
        if window == "nudge":
            text = f"{self._attack_words(task)}. {options}"
            aimed_at: tuple[int, ...] = (task.forced,) if task.forced else ()
            return Prompt(prefix + "React before the roll", text, reactor, task.unit, aimed_at)
        coming: dict[int, list[str]] = {}
        for target, value, _source, extra in self._blows(match, task):
            named = ", ".join(f"{n} x{f}" for n, f in extra)
            coming.setdefault(target, []).append(f"{value} ({named})" if named else str(value))
        hits = "; ".join(f"{_and_list(values)} on {self.uname(t)}" for t, values in coming.items())
        landing = f"Hits coming: {hits}." if hits else "No hit reaches anyone."
        text = f"{self._attack_words(task)}. {landing} {options}"
        about = tuple(self._endangered(match, task))
        return Prompt(prefix + "React before the hits land", text, reactor, task.unit, about)

    def _attack_words(self, task: Task) -> str:
        """An attack on the stack as a clause: who attacks with what (and whom, when there is one target):
        "Goon fires Goon's Revolver at Kid as Kid moves"."""
        attacker = self.uname(task.unit)
        w = self.weapon(task.weapon) if task.weapon else None
        what = _weapon_words(w.name) if w is not None else "a weapon"
        mover = self.uname(task.forced) if task.forced else ""
        if task.mode == "hold_fire":
            return f"{attacker} fires {what} at {mover} as {mover} moves"
        if task.mode == "covering_fire":
            return f"{attacker} fires a 1 stress shot at {mover} as {mover} moves"
        if task.mode == "haymaker":
            return f"{attacker} throws a Haymaker at {mover}"
        if w is not None and w.explosive:
            return f"{attacker} throws {what}"
        words = f"{attacker} {'is about to fire' if task.stage == 'nudge' else 'fires'} {what}"
        if task.forced:
            words += f" at {mover}"
        if task.mode != "fire" and task.mode in self.data.actions:
            words += f" ({self.data.actions[task.mode].name})"
        return words

    # helpers for ability modules
    def destroy_cover(self, match: Match, h: Hex, events: list[Event], by: int) -> bool:
        """Destroy one unit of destructible map cover: it becomes open ground named "wrecked ..."
        (docs/RULES.md "Destroying cover")."""
        bf = match.battlefield
        if not bf.in_bounds(h):
            return False
        t = bf.terrain_at(h)
        if t.cover == Cover.NONE or not t.destructible:
            return False
        bf.set_terrain(h, Terrain(name=f"wrecked {t.name}"))
        events.append(ActionTaken(self.game(match).round, by, "cover_destroyed", hex=h, option=t.name))
        return True

    def inventory(self, u: int) -> list[str]:
        return comp(u, Inventory).items

    def drop_items(self, match: Match, unit: int, events: list[Event]) -> None:
        """An overcome unit drops what it carries in its tile, for anyone to pick up (docs/RULES.md R28)."""
        carried = self.inventory(unit)
        here = self.hex_of(unit)
        if not carried or here is None:
            return
        for item in carried:
            match.create_entity(GroundItem(here, item))
            events.append(ActionTaken(self.game(match).round, unit, "drop_item", hex=here, option=item))
        carried.clear()

    def remove(self, match: Match, unit: int, reason: str, events: list[Event]) -> None:
        rnd = self.game(match).round
        esper.add_component(unit, Removed(reason))
        events.append(StatusChanged(rnd, unit, reason, True))
        events.append(UnitRemoved(rnd, unit, reason))


def _joined(words: list[str], last: str) -> str:
    """ "6", "6 and 5", "6, 5 and 4" (``last`` is the word before the last item)."""
    return ", ".join(words[:-1]) + f" {last} " + words[-1] if len(words) > 1 else "".join(words)


def _and_list(words: list[str]) -> str:
    return _joined(words, "and")


def _or_list(words: list[str]) -> str:
    return _joined(words, "or")


def _weapon_words(name: str) -> str:
    """A weapon's printed name after a verb: "the MDTC Antipersonnel Grenade", but "Goon's Revolver"."""
    return name if "'s " in name else f"the {name}"


def end_of_encounter(match: Match) -> list[tuple[int, int]]:
    """After the encounter: (unit, resolve) for every overcome unit an ally stabilised."""
    ruleset = match.ruleset
    assert isinstance(ruleset, RiftRuleset)
    match.enter()
    return [(u, r) for u, r in ruleset.game(match).stabilised]


def auto_deploy_commands(match: Match) -> list[Command]:
    """Deploy every undeployed unit on the passable zone tiles nearest the map centre, spread out one per
    tile while tiles last (deterministic). For tests, quick starts and the AI."""
    ruleset = match.ruleset
    assert isinstance(ruleset, RiftRuleset)
    match.enter()
    commands: list[Command] = []
    for side in ruleset.game(match).deploy_order:
        free = match.battlefield.deploy_spots(side)
        for i, unit in enumerate(match.units(side)):
            if ruleset.hex_of(unit) is not None:
                continue
            commands.append(Command("deploy", actor=unit, side=side, hex=free[i % len(free)]))
    return commands
