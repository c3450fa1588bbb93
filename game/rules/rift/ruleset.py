"""The Through the Rift ruleset: what the engine asks of Through the Rift, answered from its rules modules.

Every command goes ``validate`` (pure) then ``apply``. Deployment, winning and the encounter's turn state
(:class:`~game.rules.rift.components.RiftGame` extends the engine's Encounter) come from
:mod:`game.engine.turns`; the turns and the flow of pending steps (walks, attacks in their stages,
reaction windows) are :mod:`~game.rules.rift.rounds` on the engine's step stack; what a unit may do and
why not is :mod:`~game.rules.rift.actions`, the actions themselves the basic actions, the items, the
attitudes and the talents, registered per ruleset instance into its :class:`ActionBook` and
:class:`~game.rules.rift.traits.TraitBook`. Interpretations: docs/RULES.md, "Through the Rift".
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING

from game.commands import Command
from game.components import ActionPoints, Identity, Position
from game.engine import scenario, turns
from game.engine.actions import ActionBook, ActionDef, check_command, offer_words
from game.engine.facts import Odds, PathReaction, UnitFacts
from game.engine.movement import PathTree
from game.events import Event, PhaseStarted
from game.hexgrid import Hex
from game.rules import AttackPreview, LegalAction, Outcome, PosseSpec, Prompt, TrackerEntry, UnitView
from game.rules.rift import actions, attitudes, basic, items, queries, rounds, talents, views
from game.rules.rift import state as st
from game.rules.rift.attacks import StressDealt
from game.rules.rift.character import CharacterError, character_from_spec, character_problems, kit_of
from game.rules.rift.components import (
    Combatant,
    GroundItem,
    Inventory,
    Resolve,
    RiftGame,
    Statuses,
    TurnState,
)
from game.rules.rift.context import RiftCtx
from game.rules.rift.data import RiftData, default_data
from game.rules.rift.gm import RiftGm
from game.rules.rift.preview import attack_preview
from game.rules.rift.traits import TraitBook

if TYPE_CHECKING:
    from collections.abc import Sequence

    from game.engine.match import Match

__all__ = [
    "FACTIONS",
    "RiftRuleset",
    "StressDealt",
    "auto_deploy_commands",
    "build_books",
    "end_of_encounter",
]

# The posses a PosseSpec.faction may name, with their names for players: the rifters field only Rifters;
# the outlaws field the enemy roster (rift.toml [enemies]) and may field Rifters too.
FACTIONS: dict[str, str] = {"rifters": "Rifters", "outlaws": "Outlaws"}


def build_books() -> tuple[ActionBook[RiftCtx], TraitBook[RiftCtx]]:
    """A fresh instance's actions and traits: the basic actions, the items, the attitudes, the talents."""
    book: ActionBook[RiftCtx] = ActionBook()
    traits: TraitBook[RiftCtx] = TraitBook()
    for module in (basic, items, attitudes, talents):
        module.register(book, traits)
    return book, traits


class RiftRuleset:
    """Through the Rift (see the module docstring); ``RULESET`` in this package is the instance to use."""

    name = "rift"
    title = "Through the Rift"

    def __init__(self, data: RiftData | None = None) -> None:
        self.data = data if data is not None else default_data()
        self.actions, self.traits = build_books()
        self._defs: dict[tuple[bool, tuple[str, ...]], list[ActionDef[RiftCtx]]] = {}
        self.gm = RiftGm(self)  # the game master's edits (game.engine.gm)

    def ctx(self, match: Match, events: list[Event] | None = None) -> RiftCtx:
        """The rules' view of ``match`` for one call (it enters the match's world)."""
        return RiftCtx(match, self.data, self.actions, self.traits, events, defs=self._defs)

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
                    attitude_ids = [ch.attitude, *([ch.second_attitude] if ch.second_attitude else [])]
                    combatant = Combatant(
                        "rifter", ch.level, attitude_ids, list(kit.actions), list(kit.traits),
                        list(ch.talents), list(kit.weapons), move_tiles=data.move_tiles,
                    )  # fmt: skip
                    name, resolve, points = spec.name or ch.name, kit.resolve, data.action_points
                else:
                    enemy = data.enemies[spec.kind]
                    combatant = Combatant(
                        spec.kind, 1, [], list(enemy.actions), list(enemy.traits), [], list(enemy.weapons),
                        move_tiles=data.move_tiles,
                    )  # fmt: skip
                    name, resolve, points = spec.name or enemy.name, enemy.resolve, enemy.action_points
                unit = _create_unit(
                    match, Identity(posse.side, spec.kind, name, index), combatant, resolve, points
                )
                if "animal_friend" in combatant.traits:
                    dog = data.companions["dog"]
                    pet = Combatant("dog", 1, [], list(dog.actions), [], [], [], unit, True, dog.move_tiles)
                    ident = Identity(posse.side, "dog", f"{name}'s {dog.name}", 100 + index)
                    _create_unit(match, ident, pet, dog.resolve, dog.action_points)
        for h in sorted(match.battlefield.items):
            for item in match.battlefield.items[h]:
                match.create_entity(GroundItem(h, item))
        match.create_entity(RiftGame(deploy_order=[p.side for p in match.posses]))
        return [PhaseStarted(0, "deployment")]

    # == legal actions ==============================================================================
    def legal_actions(self, match: Match) -> list[LegalAction]:
        ctx = self.ctx(match)
        game = ctx.game
        if game.phase == "over":
            return []
        if game.phase == "deployment":
            return turns.deploy_actions(match, game, stacking=True, name=st.name)
        if game.stack:
            return actions.decision_actions(ctx, game.stack[-1])
        if game.active:
            return actions.turn_actions(ctx, game.active)
        return []

    def offer_words(self, match: Match, unit: int) -> list[tuple[str, int]]:
        """The label and cost of every action ``unit`` may be offered on its turn (whether or not it
        could be taken now; End Turn left out): the battle screen fits its action bar over every unit's
        when the battle opens (issue 13)."""
        ctx = self.ctx(match)
        return offer_words(ctx, ctx.actions_of(unit), unit)

    # == validate (pure) ============================================================================
    def validate(self, match: Match, cmd: Command) -> str | None:
        ctx = self.ctx(match)
        game = ctx.game
        if game.phase == "over":
            return "the encounter is over"
        if not ctx.is_unit(cmd.actor):
            return f"there is no unit {cmd.actor}"
        unit = cmd.actor
        if cmd.side and cmd.side != st.side(unit):
            return f"{st.name(unit)} is not in {cmd.side}'s posse"
        if game.phase == "deployment":
            return self._deploy_problem(ctx, cmd)
        if cmd.action == "deploy":
            return "deployment is over"
        if game.stack:
            return actions.decision_problem(ctx, game.stack[-1], cmd)
        if unit != game.active:
            active = st.name(game.active) if game.active else "no one"
            return f"it is {active}'s turn, not {st.name(unit)}'s"
        return actions.turn_problem(ctx, cmd)

    @staticmethod
    def _deploy_problem(ctx: RiftCtx, cmd: Command) -> str | None:
        if cmd.action != "deploy":
            return "the posses are still deploying"
        unit = cmd.actor
        side = turns.deploying_side(ctx.match, ctx.game)
        if st.side(unit) != side:
            return f"it is {side}'s turn to deploy"
        if st.hex_of(unit) is not None:
            return f"{st.name(unit)} is already deployed"
        if cmd.hex is None:
            return f"pick a tile in {side}'s deploy zone"
        fixed = scenario.start_problem(ctx.match, unit, cmd.hex)  # an encounter file's fixed start
        if fixed is not None:
            return fixed
        if not scenario.in_deploy_area(ctx.match, unit, cmd.hex):
            return f"pick a tile in {side}'s deploy zone"
        if not ctx.battlefield.is_passable(cmd.hex):
            return f"{cmd.hex} cannot be stood on"
        # the tile is one turns.deploy_actions offers (a passable zone tile; units stack): the rest exactly
        offer = LegalAction(
            "deploy", f"Deploy {st.name(unit)}", unit, 0, needs="hex", hexes=(cmd.hex,), side=side
        )
        return check_command([offer], cmd, ctx.battlefield)[1]

    # == apply ======================================================================================
    def apply(self, match: Match, cmd: Command) -> list[Event]:
        events: list[Event] = []
        ctx = self.ctx(match, events)
        game = ctx.game
        if game.phase == "deployment":
            turns.place(match, cmd, events)
            if turns.deploying_side(match, game) is None:
                rounds.start_battle(ctx)
        elif game.stack:
            actions.decide(ctx, game.stack[-1], cmd)
            rounds.run(ctx)
        elif cmd.action == "end_turn":
            rounds.end_turn(ctx)
        else:
            actions.act(ctx, cmd)
            rounds.run(ctx)
        rounds.check_end(ctx)
        return events

    def outcome(self, match: Match) -> Outcome | None:
        return turns.outcome_of(self.ctx(match).game)

    def preview(self, match: Match, cmd: Command) -> AttackPreview | None:
        """The exact odds of an attack command, or of an attack's hits assigned as ``cmd`` says
        (:func:`~game.rules.rift.preview.attack_preview`); None for anything else."""
        return attack_preview(self.ctx(match), cmd)

    # == what the UI shows (views.py) ===============================================================
    def unit_view(self, match: Match, unit: int) -> UnitView:
        return views.unit_view(self.ctx(match), unit)

    def tracker(self, match: Match) -> list[TrackerEntry]:
        return views.tracker(self.ctx(match))

    def prompt(self, match: Match) -> Prompt | None:
        """The decision on top of the stack in a player's words (:func:`~game.rules.rift.views.prompt`)."""
        return views.prompt(self.ctx(match))

    def auto_deploy(self, match: Match) -> list[Command]:
        return auto_deploy_commands(match)

    def rules_summary(self) -> str:
        return views.RULES_SUMMARY.format(max_rounds=self.data.max_rounds) + views.actions_summary(self.data)

    # -- what the AI asks (game.engine.facts.Reasoner; game/rules/rift/queries.py) --------------------
    def unit_facts(self, match: Match, unit: int) -> UnitFacts:
        return queries.unit_facts(self.ctx(match), unit)

    def what_if(
        self, match: Match, cmd: Command, from_hex: Hex | None = None, at_hex: Hex | None = None
    ) -> AttackPreview | None:
        return queries.what_if(self.ctx(match), cmd, from_hex, at_hex)

    def odds(self, match: Match, cmd: Command) -> Odds:
        """``Match.odds``: what_if with the units read once (queries.odds)."""
        return queries.odds(self.ctx(match), cmd)

    def movement(self, match: Match, unit: int) -> PathTree:
        return queries.movement(self.ctx(match), unit)

    def path_reactions(self, match: Match, unit: int, path: tuple[Hex, ...]) -> tuple[PathReaction, ...]:
        return queries.path_reactions(self.ctx(match), unit, path)

    def morale_risk(self, match: Match, side: str) -> dict[int, Fraction]:
        return queries.morale_risk(self.ctx(match), side)

    def suppose(self, match: Match, cmd: Command) -> Callable[[], None] | None:
        """``Match.suppose``: Crouch Down, Hold Fire and Covering Fire (actions.suppose)."""
        return actions.suppose(self.ctx(match), cmd)

    def describe(self, match: Match, event: Event, name: Callable[[int], str]) -> str | None:
        return views.describe(event, name)

    def action_rule(self, action: str) -> str:
        """The rulebook's sentence for an action (its tooltip), from the ruleset's data; "" if none."""
        entry = self.data.actions.get(action)
        return entry.text if entry is not None else ""

    def companions(self, match: Match, unit: int) -> list[int]:
        """The units that go where ``unit`` goes: its Animal Friend dog (an encounter's reinforcement comes
        on with it, game.engine.scenario)."""
        return [u for u in match.units(in_play=False) if (c := st.combatant(u)).companion and c.owner == unit]

    def printed_name(self, key: str) -> str | None:
        entry = self.data.weapons.get(key) or self.data.items.get(key)
        return entry.name if entry is not None and entry.name.strip() else None

    def conceal(self, match: Match, rng: random.Random) -> None:
        """Nothing is hidden in Through the Rift but the dice RNG (every roll is made in the open)."""


def _create_unit(match: Match, ident: Identity, c: Combatant, resolve: int, points: int) -> int:
    return match.create_entity(
        ident, Position(None), ActionPoints(0, points), c, Resolve(resolve, resolve), Statuses(), TurnState(),
        Inventory(),
    )  # fmt: skip


def end_of_encounter(match: Match) -> list[tuple[int, int]]:
    """After the encounter: (unit, resolve) for every overcome unit an ally stabilised."""
    match.enter()
    return [(u, r) for u, r in st.game_state(match).stabilised]


def auto_deploy_commands(match: Match) -> list[Command]:
    """Deploy every undeployed unit on the passable zone tiles nearest the zone's centre, spread out one
    per tile while tiles last (deterministic). For tests, quick starts and the AI."""
    match.enter()
    return turns.auto_deploy(match, st.game_state(match), stacking=True)
