"""The Golden Frontiers ruleset: what the engine asks, answered from the rules modules.

Every command goes ``validate`` (pure) then ``apply``. The round: initiative cards dealt to every unit
still fighting (:mod:`~game.rules.golden.rounds`), activations in card order with Biding Time windows,
one action a round (:mod:`~game.rules.golden.actions`), the joker reshuffle at the end of the round.
Interpretations are in docs/RULES.md, section "Golden Frontiers".
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from game.commands import Command
from game.components import Identity, Position
from game.engine import scenario, turns
from game.engine.actions import ActionBook, ActionDef, check_command, offer, offer_words
from game.engine.cards import MatchDeck
from game.engine.facts import Odds, PathReaction, UnitFacts
from game.engine.movement import PathTree, Units
from game.events import ActionTaken, Event, PhaseStarted
from game.hexgrid import Hex
from game.rules import AttackPreview, LegalAction, Outcome, PosseSpec, Prompt, TrackerEntry, UnitView
from game.rules.golden import queries, rounds, views
from game.rules.golden.actions import build_actions
from game.rules.golden.components import Arms, Character, GoldenGame, Health, RoundState
from game.rules.golden.context import GoldenCtx
from game.rules.golden.data import TRAITS, GoldenData, default_data
from game.rules.golden.gm import GoldenGm

if TYPE_CHECKING:
    from game.engine.match import Match

__all__ = ["CHARACTER", "GoldenRuleset", "auto_deploy_commands", "character_problems", "money"]

CHARACTER = "character"  # the kind of a character built with trait points and money
HEXES = Units(" hexes")
WINDOW_ACTIONS = ("act_now", "keep_biding")


def money(data: GoldenData, slickness: int) -> int:
    """ "The character starts with money equivalent to the maximum number on their slickness die + any
    modifiers.\""""
    return slickness + data.traits.modifier(slickness)


def trait_points(data: GoldenData, traits: dict[str, int]) -> int:
    """The points spent: "Every point they place in a trait raises the die the player uses for that trait
    up one size." from "Each character starts with a 1d4 ... in each trait"."""
    return sum(data.traits.dice.index(die) for die in traits.values())


def character_problems(
    data: GoldenData, spec_name: str, options: dict[str, str], loadout: Sequence[str]
) -> list[str]:
    """What is wrong with a built character (four trait dice bought with the points, its equipment
    bought with its money, at least one weapon)."""
    problems: list[str] = []
    traits: dict[str, int] = {}
    for t in TRAITS:
        raw = options.get(t, "")
        die = int(raw) if raw in {str(d) for d in data.traits.dice} else None
        if die is None:
            dice = ", ".join(f"{d}" for d in data.traits.dice)
            problems.append(f"{spec_name}: {t.capitalize()} must be a trait die ({dice}), not '{raw}'")
        else:
            traits[t] = die
    unknown = sorted(set(options) - {*TRAITS, "wounds"})
    if unknown:
        problems.append(
            f"{spec_name}: unknown option(s) {', '.join(unknown)} (a character has its four traits)"
        )
    if len(traits) == len(TRAITS):
        spent = trait_points(data, traits)
        if spent != data.traits.points:
            problems.append(
                f'{spec_name}: {spent} trait points placed; "Players have four points to place into their '
                f'Traits." (place {data.traits.points})'
            )
    for item in loadout:
        if item not in data.weapons and item not in data.gear:
            known = ", ".join([*data.weapons, *data.gear])
            problems.append(f"{spec_name}: unknown item '{item}' (the equipment: {known})")
    if len(set(loadout)) != len(loadout):
        problems.append(f"{spec_name}: an item is bought twice")
    if not any(i in data.weapons for i in loadout):
        problems.append(f"{spec_name} carries no weapon: buy a knife, revolver, rifle or shotgun")
    if "slickness" in traits and all(i in data.weapons or i in data.gear for i in loadout):
        cost = sum(data.cost(i) for i in loadout)
        purse = money(data, traits["slickness"])
        if cost > purse:
            problems.append(
                f"{spec_name}: the equipment costs {cost}, the character has {purse} (Slickness "
                f"d{traits['slickness']}: its maximum + modifier)"
            )
    return problems


class GoldenRuleset:
    """Golden Frontiers (see the module docstring); ``RULESET`` in this package is the instance to use."""

    name = "golden"
    title = "Golden Frontiers"

    def __init__(self, data: GoldenData | None = None) -> None:
        self.data = data if data is not None else default_data()
        self.actions: ActionBook[GoldenCtx] = build_actions()
        self.gm = GoldenGm(self)  # the game master's edits (game.engine.gm)

    def ctx(self, match: Match, events: list[Event] | None = None) -> GoldenCtx:
        return GoldenCtx(match, self.data, events, self.actions)

    # -- posses ---------------------------------------------------------------------------------------
    def faction_id(self, faction: str) -> str | None:
        key = "_".join(faction.strip().lower().split())
        for fid, f in self.data.factions.items():
            if key in (fid, "_".join(f.name.lower().split())):
                return fid
        return None

    def validate_posse(self, posse: PosseSpec) -> list[str]:
        data = self.data
        fid = self.faction_id(posse.faction)
        if fid is None:
            known = ", ".join(f.name for f in data.factions.values())
            return [f"unknown posse '{posse.faction}' (Golden Frontiers posses: {known})"]
        faction = data.factions[fid]
        problems: list[str] = []
        if not posse.units:
            problems.append(f"{faction.name} must field at least one unit")
        limit = data.encounter.max_units
        if len(posse.units) > limit:
            problems.append(f"{faction.name} fields at most {limit} units, not {len(posse.units)}")
        for spec in posse.units:
            name = spec.name or spec.kind
            carried = dict(spec.options).get("wounds")
            if carried is not None and carried not in {str(n) for n in range(6)}:
                problems.append(f"{name}: 'wounds' carried into a fight is 0 to 5, not '{carried}'")
                continue
            if spec.kind == CHARACTER:
                problems += character_problems(data, name, dict(spec.options), spec.loadout)
            elif spec.kind in faction.npcs:
                if spec.loadout or set(dict(spec.options)) - {"wounds"}:
                    problems.append(
                        f"{name}: an NPC template comes as it is (no equipment or traits to choose)"
                    )
            else:
                kinds = ", ".join(["Character", *(data.npcs[n].name for n in faction.npcs)])
                problems.append(f"{faction.name} cannot field a '{spec.kind}' (its units: {kinds})")
        return problems

    def validate_posses(self, posses: Sequence[PosseSpec]) -> list[str]:
        problems = [
            f"posse '{posse.name or posse.side}': " + "; ".join(found)
            for posse in posses
            if (found := self.validate_posse(posse))
        ]
        if len(posses) < 2:
            problems.append(f"a battle needs two posses or more, not {len(posses)}")
        units = sum(len(p.units) for p in posses)
        if units > 50:
            problems.append(
                f"{units} units cannot all draw from one deck of 54 with cards left for the fight"
            )
        return problems

    # -- setup ----------------------------------------------------------------------------------------
    def setup(self, match: Match) -> list[Event]:
        data = self.data
        problems = self.validate_posses(match.posses)
        if problems:
            raise ValueError("; ".join(problems))
        zones = match.battlefield.deploy_zones
        for posse in match.posses:
            if posse.side not in zones:
                raise ValueError(f"the map has no deploy zone for {posse.side}")
            kinds = [u.kind for u in posse.units]
            for index, spec in enumerate(posse.units):
                if spec.kind == CHARACTER:
                    opts = dict(spec.options)
                    s, i, r, k = (int(opts[t]) for t in TRAITS)
                    weapons = [i for i in spec.loadout if i in data.weapons]
                    gear = [i for i in spec.loadout if i in data.gear]
                    sheet = Character(CHARACTER, s, i, r, k)
                    name = spec.name or "Character"
                else:
                    npc = data.npcs[spec.kind]
                    weapons, gear = list(npc.weapons), []
                    # Large Groups (own): the NPCs of one template in a posse share one initiative card
                    group = spec.kind if kinds.count(spec.kind) > 1 else ""
                    s, i, r, k = (npc.traits()[t] for t in TRAITS)
                    sheet = Character(spec.kind, s, i, r, k, npc=True, group=group)
                    name = spec.name or npc.name
                most = data.traits.wounds(sheet.survival)
                carried = min(int(dict(spec.options).get("wounds", "0")), most)  # from the campaign
                match.create_entity(
                    Identity(posse.side, sheet.kind, name, index),
                    Position(None),
                    sheet,
                    Health(most, wounds=carried),
                    Arms(weapons, [data.weapons[w].ammo for w in weapons], gear),
                    RoundState(),
                )
        deck = MatchDeck.new(
            match.rng,
            suit_priority=data.deck.suit_priority,
            ace_high=data.deck.ace_high,
            jokers=data.deck.jokers,
        )
        match.create_entity(GoldenGame(deploy_order=[p.side for p in match.posses]), deck)
        return [PhaseStarted(0, "deployment")]

    # -- what may be done -------------------------------------------------------------------------------
    def legal_actions(self, match: Match) -> list[LegalAction]:
        ctx = self.ctx(match).asking()
        game = ctx.game
        if game.phase == "over":
            return []
        if game.phase == "deployment":
            return turns.deploy_actions(match, game, stacking=False, name=ctx.name)
        if game.phase == "window":
            return self._window(ctx)
        if game.phase == "action" and game.active:
            return self._unit_actions(ctx, game.active)
        return []

    def _window(self, ctx: GoldenCtx) -> list[LegalAction]:
        game = ctx.game
        if not game.asking:
            return []
        bider = game.asking[0]
        side = ctx.side(bider)
        keep = "Wait the whole round (first next round)" if game.last else "Keep biding time"
        return [
            LegalAction("act_now", f"{ctx.name(bider)} acts now", bider, 0, side=side),
            LegalAction("keep_biding", keep, bider, 0, side=side, ends_turn=True),
        ]

    def _unit_actions(self, ctx: GoldenCtx, unit: int) -> list[LegalAction]:
        return [a for d in self.actions for a in self._offers(ctx, d, unit)]

    def _offers(self, ctx: GoldenCtx, definition: ActionDef[GoldenCtx], unit: int) -> list[LegalAction]:
        return offer(ctx, definition, unit, ctx.side(unit))

    def offer_words(self, match: Match, unit: int) -> list[tuple[str, int]]:
        """The label and cost of every action ``unit`` may be offered on its turn (whether or not it
        could be taken now; End Turn left out): the battle screen fits its action bar over every unit's
        when the battle opens (issue 13)."""
        return offer_words(self.ctx(match), self.actions, unit)

    # -- validate (pure) -------------------------------------------------------------------------------
    def validate(self, match: Match, cmd: Command) -> str | None:
        ctx = self.ctx(match).asking()
        game = ctx.game
        if game.phase == "over":
            return "the encounter is over"
        known = (*self.actions.ids(), "deploy", *WINDOW_ACTIONS)
        if cmd.action not in known:
            return f"unknown action '{cmd.action}' (Golden Frontiers: {', '.join(known)})"
        if not ctx.is_unit(cmd.actor):
            return f"there is no unit {cmd.actor}"
        unit = cmd.actor
        if cmd.side and cmd.side != ctx.side(unit):
            return f"{ctx.name(unit)} is not in {cmd.side}'s posse"
        if cmd.action == "deploy":
            if game.phase != "deployment":
                return "deployment is over"
            side = turns.deploying_side(match, game)
            if ctx.side(unit) != side:
                return f"it is {side}'s turn to deploy"
            if cmd.hex is not None and (fixed := scenario.start_problem(match, unit, cmd.hex)) is not None:
                return fixed  # an encounter file's fixed start
            offers = turns.deploy_actions(match, game, stacking=False, name=ctx.name)
        elif cmd.action in WINDOW_ACTIONS:
            if game.phase != "window" or not game.asking:
                return "nobody is biding their time now"
            if unit != game.asking[0]:
                return f"it is {ctx.name(game.asking[0])}'s moment to act or wait, not {ctx.name(unit)}'s"
            offers = self._window(ctx)
        elif game.phase != "action":
            return f"it is the {game.phase} phase: no unit is acting"
        elif unit != game.active:
            active = ctx.name(game.active) if game.active else "no one"
            return f"it is {active}'s activation, not {ctx.name(unit)}'s"
        else:
            offers = self._offers(ctx, self.actions[cmd.action], unit)
        _, reason = check_command(
            offers,
            cmd,
            match.battlefield,
            units=HEXES,
            occupant=ctx.occupant_names(),
            explain=lambda action, command: self._explain(ctx, action, command),
        )
        if reason is None and not any(a.action == cmd.action and a.actor == cmd.actor for a in offers):
            return f"{ctx.name(unit)} cannot {cmd.action.replace('_', ' ')} now"
        return reason

    def _explain(self, ctx: GoldenCtx, action: LegalAction, cmd: Command) -> str | None:
        if action.action != "attack" or cmd.target is None or not action.option:
            return None
        return ctx.target_problem(cmd.actor, ctx.weapon(action.option), cmd.target)

    # -- apply ----------------------------------------------------------------------------------------
    def apply(self, match: Match, cmd: Command) -> list[Event]:
        events: list[Event] = []
        ctx = self.ctx(match, events)
        self._apply(ctx, cmd)
        if match.scenario is not None:  # an encounter's objectives are settled after every command
            rounds.check_end(ctx)
        return events

    def _apply(self, ctx: GoldenCtx, cmd: Command) -> None:
        match, events = ctx.match, ctx.events
        game = ctx.game
        if cmd.action == "deploy":
            turns.place(match, cmd, events)
            if turns.deploying_side(match, game) is None:
                rounds.start_round(ctx, 1)
            return
        if cmd.action == "act_now":
            rounds.act_now(ctx, cmd.actor)
            return
        if cmd.action == "keep_biding":
            rounds.keep_biding(ctx, cmd.actor)
            return
        unit = cmd.actor
        if cmd.action in ("load", "execute"):
            events.append(ActionTaken(game.round, unit, cmd.action, target=cmd.target, option=cmd.option))
        apply = self.actions[cmd.action].apply
        assert apply is not None
        apply(ctx, unit, cmd)
        # the activation ends by itself once the unit can do nothing more this round
        if game.phase == "action" and game.active == unit and self._spent(ctx, unit):
            rounds.end_activation(ctx)

    def _spent(self, ctx: GoldenCtx, unit: int) -> bool:
        if not ctx.fights(unit):
            return True
        turn = ctx.turn(unit)
        if ctx.can_act(unit) or ctx.walk_left(unit) > 0:
            return False
        free = [
            w for w in ctx.arms(unit).weapons if ctx.weapon(w).is_ranged and not ctx.weapon(w).load_action
        ]
        return turn.free_load or all(ctx.loaded(unit, w) >= ctx.weapon(w).ammo for w in free)

    def outcome(self, match: Match) -> Outcome | None:
        return turns.outcome_of(self.ctx(match).game)

    # -- odds -----------------------------------------------------------------------------------------
    def preview(self, match: Match, cmd: Command) -> AttackPreview | None:
        if cmd.action != "attack" or cmd.target is None:
            return None
        ctx = self.ctx(match).asking()
        if not ctx.is_unit(cmd.actor) or not ctx.is_unit(cmd.target) or ctx.pos(cmd.actor) is None:
            return None
        if cmd.option not in ctx.arms(cmd.actor).weapons:
            return None
        return queries.attack_preview(ctx, cmd.actor, cmd.target, cmd.option, ctx.turn(cmd.actor).moved)

    # -- what the UI shows ------------------------------------------------------------------------------
    def unit_view(self, match: Match, unit: int) -> UnitView:
        return views.unit_view(self.ctx(match).asking(), unit)

    def tracker(self, match: Match) -> list[TrackerEntry]:
        return views.tracker(self.ctx(match).asking())

    def tracker_note(self, match: Match) -> str:
        """Beside the tracker: the deck's cards left and whether a reshuffle is due."""
        return views.deck_line(self.ctx(match))

    def auto_deploy(self, match: Match) -> list[Command]:
        return auto_deploy_commands(match)

    def rules_summary(self) -> str:
        return views.rules_summary(self.data)

    def action_rule(self, action: str) -> str:
        """The rulebook's sentence for an action (its tooltip), from the ruleset's data; "" if none."""
        entry = self.data.actions.get(action)
        return entry.text if entry is not None else ""

    def printed_name(self, key: str) -> str | None:
        entry = self.data.weapons.get(key) or self.data.gear.get(key)
        return entry.name if entry is not None else None

    def describe(self, match: Match, event: Event, name: Callable[[int], str]) -> str | None:
        return views.describe(match, event, name)

    def prompt(self, match: Match) -> Prompt | None:
        return views.prompt(self.ctx(match))

    def conceal(self, match: Match, rng: random.Random) -> None:
        """The one hidden thing is the order of the undrawn cards."""
        self.ctx(match).deck.conceal(rng)

    # -- what the AI asks (game.engine.facts.Reasoner) ------------------------------------------------
    def unit_facts(self, match: Match, unit: int) -> UnitFacts:
        return queries.unit_facts(self.ctx(match).asking(), unit)

    def what_if(
        self, match: Match, cmd: Command, from_hex: Hex | None = None, at_hex: Hex | None = None
    ) -> AttackPreview | None:
        return queries.what_if(self.ctx(match).asking(), cmd, from_hex, at_hex)

    def odds(self, match: Match, cmd: Command) -> Odds:
        """``Match.odds``: what_if with the units read once (queries.odds)."""
        return queries.odds(self.ctx(match).asking(), cmd)

    def movement(self, match: Match, unit: int) -> PathTree:
        return queries.movement(self.ctx(match), unit)

    def path_reactions(self, match: Match, unit: int, path: tuple[Hex, ...]) -> tuple[PathReaction, ...]:
        """Golden Frontiers has no reactions: a walk sets nothing off."""
        return ()

    def morale_risk(self, match: Match, side: str) -> dict[int, Fraction]:
        """Golden Frontiers has no morale test."""
        return {}


def auto_deploy_commands(match: Match) -> list[Command]:
    """Deploy every undeployed unit on the free zone hexes nearest its zone's centre (deterministic)."""
    match.enter()
    for _, game in match.iter_components(GoldenGame):
        return turns.auto_deploy(match, game, stacking=False)
    return []
