"""The Frontier ruleset: what the engine asks of Frontier, answered from its rules modules.

Every command goes ``validate`` (pure: reads components, never writes, never draws from the RNG) then
``apply``. The round is the rulebook's: Initiative (cards drawn as commands, the Joker placed), Action
(each carded unit's activation: :mod:`~game.rules.frontier.actions`, walked and fought out on the engine's
step stack), End (Cool checks) — :mod:`~game.rules.frontier.rounds`. Interpretations of unclear rules are
in docs/RULES.md, section "Frontier"; each is quoted where it is applied.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING

from game.commands import Command
from game.components import ActionPoints, Identity, Inventory, Position
from game.engine import scenario, turns
from game.engine.actions import ActionBook, ActionDef, check_command, offer, offer_words
from game.engine.facts import Odds, PathReaction, UnitFacts
from game.engine.movement import INCHES, PathTree
from game.events import ActionTaken, Event, PhaseStarted
from game.hexgrid import Hex, hex_distance
from game.rules import AttackPreview, LegalAction, Outcome, PosseSpec, Prompt, TrackerEntry, UnitView
from game.rules.frontier import queries, rounds
from game.rules.frontier import state as st
from game.rules.frontier.actions import build_actions, common_problem, explain
from game.rules.frontier.components import (
    Activation,
    FrontierGame,
    FrontierUnit,
    Health,
    LeaderAbility,
    MapItem,
    Status,
    Weapon,
)
from game.rules.frontier.context import FrontierCtx
from game.rules.frontier.data import ACTION_IDS, FrontierData, default_data
from game.rules.frontier.gm import FrontierGm
from game.rules.frontier.views import RULES_SUMMARY, describe, tracker, unit_view

if TYPE_CHECKING:
    from game.engine.match import Match

__all__ = ["ACTIONS", "FrontierRuleset", "auto_deploy_commands", "normalize_id"]

ACTIONS = ACTION_IDS  # the unit actions, in the action bar's order
PHASE_ACTIONS = ("deploy", "draw_card", "place_joker")


def normalize_id(text: str) -> str:
    """ "Hired Gun" -> "hired_gun", "The Law" -> "the_law"."""
    return "_".join(text.strip().lower().replace("-", " ").split())


def _faction_id(data: FrontierData, faction: str) -> str | None:
    fid = normalize_id(faction)
    if fid in data.factions:
        return fid
    for f in data.factions.values():
        if normalize_id(f.name) == fid or fid in (f.id.removeprefix("the_"),):
            return f.id
    return None


class FrontierRuleset:
    """Frontier (see the module docstring); ``RULESET`` in this package is the instance to use."""

    name = "frontier"
    title = "Frontier"

    def __init__(self, data: FrontierData | None = None) -> None:
        self.data = data if data is not None else default_data()
        self.actions: ActionBook[FrontierCtx] = build_actions()
        self.gm = FrontierGm(self.data)  # the game master's edits (game.engine.gm)

    def ctx(self, match: Match, events: list[Event] | None = None) -> FrontierCtx:
        return FrontierCtx(match, self.data, events, self.actions)

    # -- posses ------------------------------------------------------------------------------------
    def validate_posse(self, posse: PosseSpec) -> list[str]:
        data = self.data
        problems: list[str] = []
        fid = _faction_id(data, posse.faction)
        if fid is None:
            known = ", ".join(f.name for f in data.factions.values())
            return [f"unknown posse '{posse.faction}' (Frontier posses: {known})"]
        faction = data.factions[fid]
        if not posse.units:
            problems.append(f"{faction.name} must field at least one unit")
        if len(posse.units) > faction.max_units:
            problems.append(
                f"The maximum number of Units {faction.name} can field is {faction.max_units}, "
                f"not {len(posse.units)}"
            )
        kinds: list[str] = []
        for spec in posse.units:
            kind = normalize_id(spec.kind)
            if kind not in faction.units:
                names = ", ".join(data.units[u].name for u in faction.units)
                problems.append(f"{faction.name} cannot field a '{spec.kind}' (its units: {names})")
                continue
            kinds.append(kind)
            unit = data.units[kind]
            if len(spec.loadout) > 1:
                problems.append(f"{unit.name} carries one weapon, not {len(spec.loadout)}")
            for w in spec.loadout:
                if normalize_id(w) not in unit.weapons:
                    allowed = " or ".join(data.weapons[x].name for x in unit.weapons)
                    problems.append(f"{unit.name} cannot carry '{w}' (Weapons Available: {allowed})")
        for kind in sorted(set(kinds)):
            count = kinds.count(kind)
            if count > 1 and (not faction.duplicates or data.units[kind].leader):
                why = "cannot field duplicate Units" if not faction.duplicates else "has one leader"
                problems.append(f"{faction.name} {why}: {count} x {data.units[kind].name}")
        return problems

    def validate_posses(self, posses: Sequence[PosseSpec]) -> list[str]:
        """The posses of one encounter (docs/RULES.md Frontier 8a): each valid, two of them ("The Player
        with the smaller Posse draws first. Players then take turns drawing for each Unit in their Posse,
        alternating with each draw."), and no more units than the initiative deck has cards ("a deck of
        14 cards": every unit draws one). Two posses of one faction may meet."""
        problems = [
            f"posse '{posse.name or posse.side}': " + "; ".join(found)
            for posse in posses
            if (found := self.validate_posse(posse))
        ]
        if len(posses) != 2:
            problems.append(
                f"Frontier is played by two posses, not {len(posses)}: its Initiative is dealt to two "
                '("The Player with the smaller Posse draws first. Players then take turns drawing ..., '
                'alternating with each draw"); field two posses'
            )
        deck = len(rounds.DECK)
        units = sum(len(posse.units) for posse in posses)
        if units > deck:
            problems.append(
                f"{units} units cannot all draw an initiative card from the deck of {deck} (the suit of "
                f"Spades and a red Joker): field {deck} units or fewer in all"
            )
        return problems

    # -- setup -------------------------------------------------------------------------------------
    def setup(self, match: Match) -> list[Event]:
        data = self.data
        zones = match.battlefield.deploy_zones
        fielded = 0
        problems = self.validate_posses(match.posses)
        if problems:
            raise ValueError("; ".join(problems))
        for posse in match.posses:
            if posse.side not in zones:
                raise ValueError(f"the map has no deploy zone for {posse.side}")
            fid = _faction_id(data, posse.faction)
            assert fid is not None
            match.create_entity(Inventory(posse.side, []))
            for index, spec in enumerate(posse.units):
                kind = normalize_id(spec.kind)
                unit = data.units[kind]
                weapon = normalize_id(spec.loadout[0]) if spec.loadout else unit.weapons[0]
                components: list[object] = [
                    Identity(posse.side, kind, spec.name or unit.name, index),
                    Position(None),
                    ActionPoints(0, data.action_points),
                    FrontierUnit(kind, fid, unit.leader),
                    Weapon(weapon, data.weapons[weapon].ammo),
                    Health(unit.toughness, unit.wounds),
                    Status(),
                    Activation(),
                ]
                active_abilities = [a for a in unit.abilities if not data.abilities[a].passive]
                if unit.leader and active_abilities:
                    components.append(LeaderAbility(active_abilities[0], 1))
                match.create_entity(*components)
                fielded += 1
        for h in sorted(match.battlefield.items):
            for name in match.battlefield.items[h]:
                match.create_entity(MapItem(h, name))
        game = FrontierGame(deploy_order=[p.side for p in match.posses], fielded=fielded, turn=0)
        match.create_entity(game)
        return [PhaseStarted(0, "deployment")]

    # -- what may be done --------------------------------------------------------------------------
    def legal_actions(self, match: Match) -> list[LegalAction]:
        ctx = self.ctx(match)
        game = ctx.game
        if game.result or game.phase == "over":
            return []
        if game.phase == "deployment":
            return turns.deploy_actions(match, game, stacking=False, name=st.name_of)
        if game.phase == "initiative":
            return self._draws(ctx)
        if game.phase == "joker":
            return self._joker_places(ctx)
        if game.phase == "action" and game.active:
            return self._unit_actions(ctx, game.active)
        return []

    def _draws(self, ctx: FrontierCtx) -> list[LegalAction]:
        side = ctx.game.draw_order[ctx.game.draws_made]
        return [
            LegalAction("draw_card", f"Draw for {st.name_of(u)}", u, 0, side=side, public=True)
            for u in rounds.drawable(ctx, side)
        ]

    def _joker_places(self, ctx: FrontierCtx) -> list[LegalAction]:
        unit = rounds.joker_holder(ctx)
        assert unit is not None
        others = rounds.joker_others(ctx, unit)
        return [
            LegalAction(
                "place_joker",
                f"Place {st.name_of(unit)}'s Joker in the initiative order",
                unit,
                0,
                needs="choice",
                choices=tuple(str(n) for n in range(1, len(others) + 2)),
                side=st.side_of(unit),
                choice_labels=rounds.joker_slot_labels(others),
                public=True,
            )
        ]

    def _offers(self, ctx: FrontierCtx, definition: ActionDef[FrontierCtx], unit: int) -> list[LegalAction]:
        def common(d: ActionDef[FrontierCtx], option: str) -> str | None:
            return common_problem(ctx, d, unit)

        return offer(ctx, definition, unit, st.side_of(unit), problem=common, keep_never=True)

    def _unit_actions(self, ctx: FrontierCtx, unit: int) -> list[LegalAction]:
        side = st.side_of(unit)

        def common(d: ActionDef[FrontierCtx], option: str) -> str | None:
            return common_problem(ctx, d, unit)

        return [a for d in self.actions for a in offer(ctx, d, unit, side, problem=common)]

    def offer_words(self, match: Match, unit: int) -> list[tuple[str, int]]:
        """The label and cost of every action ``unit`` may be offered on its turn (whether or not it
        could be taken now; End Turn left out): the battle screen fits its action bar over every unit's
        when the battle opens (issue 13)."""
        return offer_words(self.ctx(match), self.actions, unit)

    # -- validate (pure) ---------------------------------------------------------------------------
    def validate(self, match: Match, cmd: Command) -> str | None:
        return self.validate_listed(match, cmd, None)

    def validate_listed(self, match: Match, cmd: Command, legal: Sequence[LegalAction] | None) -> str | None:
        """``validate`` with ``legal``, the legal actions just listed for the match as it stands (None: list
        the offers here): an action-phase command is checked against them (its action's offers are among
        them, made by the same ``offer``) instead of listing its action's offers again; an action they do
        not list (one the unit can ``never`` take) is offered afresh, for its reason."""
        ctx = self.ctx(match)
        game = ctx.game
        if game.result or game.phase == "over":
            return "the encounter is over"
        if cmd.action not in self.actions and cmd.action not in PHASE_ACTIONS:
            return f"unknown action '{cmd.action}'"
        if not ctx.is_unit(cmd.actor):
            return f"there is no unit {cmd.actor}"
        unit = cmd.actor
        if cmd.side and cmd.side != st.side_of(unit):
            return f"{st.name_of(unit)} is not in {cmd.side}'s posse"
        offers: Sequence[LegalAction]
        if cmd.action == "deploy":
            reason = self._deploy_problem(ctx, cmd)
            offers = turns.deploy_actions(match, game, stacking=False, name=st.name_of)
        elif cmd.action == "draw_card":
            reason = self._draw_problem(ctx, cmd)
            offers = self._draws(ctx) if reason is None else []
        elif cmd.action == "place_joker":
            reason = self._joker_problem(ctx, cmd)
            offers = self._joker_places(ctx) if reason is None else []
        elif game.phase != "action":
            return f"it is the {game.phase} phase, not the Action phase"
        elif unit != game.active:
            active = st.name_of(game.active) if game.active else "no one"
            return f"it is {active}'s activation, not {st.name_of(unit)}'s"
        else:
            reason = None
            offers = legal if legal is not None else []
            if not any(a.action == cmd.action and a.actor == unit for a in offers):
                # not listed: listed afresh, with an action the unit can never take (not offered) kept for
                # its reason
                offers = self._offers(ctx, self.actions[cmd.action], unit)
        if reason is not None:
            return reason
        _, reason = check_command(
            offers,
            cmd,
            match.battlefield,
            units=INCHES,
            occupant=ctx.occupant_names(),
            explain=lambda action, command: explain(ctx, action, command),
        )
        return reason

    def _deploy_problem(self, ctx: FrontierCtx, cmd: Command) -> str | None:
        game = ctx.game
        if game.phase != "deployment":
            return "deployment is over"
        unit = cmd.actor
        side = turns.deploying_side(ctx.match, game)
        if st.side_of(unit) != side:
            return f"it is {side}'s turn to deploy"
        if st.hex_of(unit) is not None:
            return f"{st.name_of(unit)} is already deployed"
        if cmd.hex is None:
            return "pick a hex in your deploy zone"
        fixed = scenario.start_problem(ctx.match, unit, cmd.hex)  # an encounter file's fixed start
        if fixed is not None:
            return fixed
        if not scenario.in_deploy_area(ctx.match, unit, cmd.hex):
            return f"{cmd.hex} is not in {side}'s deploy zone"
        if cmd.hex in ctx.occupied():
            return f"{cmd.hex} is taken"
        return None

    def _draw_problem(self, ctx: FrontierCtx, cmd: Command) -> str | None:
        game = ctx.game
        if game.phase != "initiative":
            return "cards are drawn in the Initiative phase"
        side = game.draw_order[game.draws_made]
        if st.side_of(cmd.actor) != side:
            return f"it is {side}'s turn to draw"
        if cmd.actor not in rounds.drawable(ctx, side):
            return f"{st.name_of(cmd.actor)} already has a card or takes no turns"
        return None

    def _joker_problem(self, ctx: FrontierCtx, cmd: Command) -> str | None:
        if ctx.game.phase != "joker":
            return "there is no Joker to place"
        if cmd.actor != rounds.joker_holder(ctx):
            return f"{st.name_of(cmd.actor)} did not draw the Joker"
        slots = len(rounds.carded(ctx))
        # exactly one of the places offered ("1" .. "n"), never parsed by int(): other digits are no place
        if cmd.option not in {str(n) for n in range(1, slots + 1)}:
            return f"pick the Joker's place in the initiative order: 1 (first) to {slots} (last)"
        return None

    # -- apply -------------------------------------------------------------------------------------
    def apply(self, match: Match, cmd: Command) -> list[Event]:
        events: list[Event] = []
        ctx = self.ctx(match, events)
        game = ctx.game
        if cmd.action == "deploy":
            turns.place(match, cmd, events)
            if turns.deploying_side(match, game) is None:
                rounds.start_round(ctx, 1)
        elif cmd.action == "draw_card":
            rounds.draw(ctx, cmd.actor)
        elif cmd.action == "place_joker":
            events.append(ActionTaken(game.round, cmd.actor, "place_joker", option=cmd.option))
            rounds.place_joker(ctx, cmd.actor, int(cmd.option))
        elif cmd.action == "end_activation":
            rounds.end_activation(ctx)
        else:
            self._act(ctx, cmd)
        rounds.check_end(ctx)
        return events

    def _act(self, ctx: FrontierCtx, cmd: Command) -> None:
        """A unit action: pay its AP, note a Basic action, carry it out, let the step stack settle, and
        end the activation when the AP are spent or the unit is down."""
        unit = cmd.actor
        info = self.data.actions[cmd.action]
        st.ap(unit).current -= info.cost
        if info.kind == "basic":
            st.activation(unit).basic_used.append(cmd.action)
        apply = self.actions[cmd.action].apply
        assert apply is not None
        apply(ctx, unit, cmd)
        rounds.FLOW.run(ctx, ctx.game.stack)
        game = ctx.game
        if game.active == unit and (st.ap(unit).current <= 0 or not st.able(unit)):
            rounds.end_activation(ctx)

    def outcome(self, match: Match) -> Outcome | None:
        return turns.outcome_of(self.ctx(match).game)

    # -- odds --------------------------------------------------------------------------------------
    def preview(self, match: Match, cmd: Command) -> AttackPreview | None:
        if cmd.action not in ("shoot", "melee", "charge") or cmd.target is None:
            return None
        ctx = self.ctx(match)
        if not ctx.is_unit(cmd.actor) or not ctx.is_unit(cmd.target):
            return None
        unit, target = cmd.actor, cmd.target
        here, there = st.hex_of(unit), st.hex_of(target)
        if here is None or there is None or not st.in_play(target):
            return None
        if cmd.action == "shoot":
            weapon = ctx.weapon(unit)
            if not weapon.is_ranged or hex_distance(here, there) > weapon.long_range or st.empty(unit):
                return None  # an empty gun has no odds until reloaded (docs/RULES.md, Frontier 33)
            return ctx.preview(unit, target, weapon)
        if cmd.action == "charge" and cmd.path:
            return self._charge_preview(ctx, cmd)
        preview = ctx.preview(unit, target, ctx.melee_weapon(unit))
        if cmd.action == "charge":
            notes = (*preview.notes, 'if the charge ends within 1" of the target')
            return replace(preview, notes=notes)
        return preview

    def _charge_preview(self, ctx: FrontierCtx, cmd: Command) -> AttackPreview | None:
        """A charge along its path: the melee odds from the path's end (None if the end is not within 1"
        of the target: the attack would go to another, or none), and the chance Move + 1d4 gets there."""
        assert cmd.target is not None
        end = cmd.path[-1]
        preview = queries.what_if(ctx, replace(cmd, action="melee"), end, None)
        if preview is None:
            return None
        reach = queries.charge_reach_chance(ctx, cmd.actor, cmd.path)
        notes = (*preview.notes, f"reaches its end on Move + 1d4: {round(100 * reach)}%")
        return replace(preview, notes=notes, reach_chance=reach)

    # -- what the UI shows (game/rules/frontier/views.py) -----------------------------------------------
    def unit_view(self, match: Match, unit: int) -> UnitView:
        return unit_view(self.data, match, unit)

    def tracker(self, match: Match) -> list[TrackerEntry]:
        return tracker(match)

    def auto_deploy(self, match: Match) -> list[Command]:
        return auto_deploy_commands(match)

    def rules_summary(self) -> str:
        return RULES_SUMMARY

    def action_rule(self, action: str) -> str:
        """The rulebook's sentence for an action (its tooltip), from the ruleset's data; "" if none."""
        entry = self.data.actions.get(action)
        return entry.text if entry is not None else ""

    def printed_name(self, key: str) -> str | None:
        entry = self.data.weapons.get(key) or self.data.items.get(key)
        return entry.name if entry is not None and entry.name.strip() else None

    # -- what the AI asks (game.engine.facts.Reasoner; game/rules/frontier/queries.py) ----------------
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
        """``Match.suppose``: Aim, Disengage, Reload and Take Cover (queries.suppose)."""
        return queries.suppose(self.ctx(match), cmd)

    def describe(self, match: Match, event: Event, name: Callable[[int], str]) -> str | None:
        return describe(event, name)

    def conceal(self, match: Match, rng: random.Random) -> None:
        """The one hidden thing in Frontier is the order of the cards not yet drawn this round."""
        rng.shuffle(self.ctx(match).game.deck)

    def prompt(self, match: Match) -> Prompt | None:
        """The Joker's placement, the one decision that breaks into Frontier's flow ("If a Player draws the
        Joker for a Unit, they may choose when that Unit acts initiative after all other Units have received
        their initiative cards."); None otherwise. Frontier has no reaction: an opportunity attack is made
        at once, without a choice."""
        ctx = self.ctx(match)
        if ctx.game.result or ctx.game.phase != "joker":
            return None
        holder = rounds.joker_holder(ctx)
        if holder is None:
            return None
        name = st.name_of(holder)
        text = f"{name} drew the Joker: choose where {name} acts in this round's initiative order."
        return Prompt("Place the Joker", text, holder, holder)


def auto_deploy_commands(match: Match) -> list[Command]:
    """Deploy every undeployed unit: each side's units in posse order on the free zone hexes nearest the
    centre of its zone (deterministic). For tests, quick starts and the AI."""
    match.enter()
    return turns.auto_deploy(match, st.game_state(match), stacking=False)
