"""The Frontier ruleset: deployment, initiative, activations, actions, close combat, Cool checks, winning.

Every command goes ``validate`` (pure: reads components, never writes, never draws from the RNG) then
``apply``. Phases follow the rulebook: Initiative (cards drawn as commands), Action (the acting unit's
commands), End (Cool checks, run by :class:`EndPhaseProcessor` with the match's RNG). Interpretations of
unclear rules are in docs/RULES.md, section "Frontier"; each is quoted where it is applied.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import esper

from game.battlefield import Cover
from game.commands import Command
from game.components import ActionPoints, Identity, Inventory, Position, Removed
from game.dice import frontier_initiative_deck, roll
from game.events import (
    ActionTaken,
    ActivationEnded,
    ActivationStarted,
    CardDealt,
    DamageTaken,
    Event,
    ItemTaken,
    MatchEnded,
    Moved,
    Note,
    PhaseStarted,
    Roll,
    StatusChanged,
    UnitRemoved,
)
from game.hexgrid import Hex, hex_distance
from game.rules import AttackPreview, LegalAction, Outcome, PosseSpec, Prompt, TrackerEntry, UnitView
from game.rules.frontier import state as st
from game.rules.frontier.combat import (
    AttackSituation,
    attack_preview,
    damage_after_cover,
    hit_modifiers,
    split_damage,
)
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
from game.rules.frontier.data import FrontierData, WeaponData, default_data
from game.rules.frontier.endphase import EndPhaseProcessor
from game.rules.frontier.views import RULES_SUMMARY, card_label, tracker, unit_view

if TYPE_CHECKING:
    from collections.abc import Sequence

    from game.match import Match

__all__ = ["ACTIONS", "CHARGE_DIE", "FrontierRuleset", "auto_deploy_commands", "normalize_id"]

CARD_VALUES = {card.name: card.value for card in frontier_initiative_deck()}
JOKER = next(card.name for card in frontier_initiative_deck() if card.joker)
CHARGE_DIE = 4  # "Charge - The Unit ... may move its full movement + 1d4""


@dataclass(frozen=True, slots=True)
class ActionInfo:
    label: str
    cost: int
    kind: str  # "simple" (repeatable), "basic" (once per activation), "major" (2 AP), "free"
    needs: str = ""


ACTIONS: dict[str, ActionInfo] = {
    # "Simple Actions - 1AP (Repeatable)"
    "move": ActionInfo("Move", 1, "simple", "path"),
    "reload": ActionInfo("Reload", 1, "simple"),
    "coup_de_grace": ActionInfo("Coup de Grace", 1, "simple", "target"),
    "operate_door": ActionInfo("Operate Door", 1, "simple", "hex"),
    "take_item": ActionInfo("Take Item", 1, "simple", "hex"),
    # "Basic Actions - 1AP (Non-Repeatable)"
    "shoot": ActionInfo("Shoot", 1, "basic", "target"),
    "aim": ActionInfo("Aim", 1, "basic"),
    "melee": ActionInfo("Melee", 1, "basic", "target"),
    "disengage": ActionInfo("Disengage", 1, "basic"),
    "take_cover": ActionInfo("Take Cover", 1, "basic"),
    "stand_up": ActionInfo("Stand Up", 1, "basic"),
    "use_item": ActionInfo("Use Item", 1, "basic", "choice"),
    # "Major Actions - 2AP"
    "leader_action": ActionInfo("Leader Action", 2, "major"),
    "charge": ActionInfo("Charge", 2, "major", "path"),
    "end_activation": ActionInfo("End Activation", 0, "free"),
}


def normalize_id(text: str) -> str:
    """ "Hired Gun" -> "hired_gun", "The Law" -> "the_law"."""
    return "_".join(text.strip().lower().replace("-", " ").split())


# ==================================================================================================
# helpers used by validate (pure) and apply


def _faction_id(data: FrontierData, faction: str) -> str | None:
    fid = normalize_id(faction)
    if fid in data.factions:
        return fid
    for f in data.factions.values():
        if normalize_id(f.name) == fid or fid in (f.id.removeprefix("the_"),):
            return f.id
    return None


def _path_problem(match: Match, unit: int, path: tuple[Hex, ...], budget: int, label: str) -> str | None:
    """Check a path step by step: adjacent steps, on the map, passable, doors open, no units, cost."""
    start = st.hex_of(unit)
    if start is None:
        return f"{label}: the unit is not on the map"
    steps = list(path)
    if steps and steps[0] == start:
        steps = steps[1:]
    if not steps:
        return f"{label}: the path has no step"
    blocked = st.blocked_hexes(match, unit)
    bf = match.battlefield
    cost = 0
    here = start
    for step in steps:
        if hex_distance(here, step) != 1:
            return f"{label}: {step} is not next to {here}"
        if not bf.in_bounds(step):
            return f"{label}: {step} is off the map"
        door = bf.door_at(step)
        if door is not None and not door.is_open:
            return f"{label}: the door at {step} is closed"
        step_cost = bf.move_cost(step)
        if step_cost is None:
            return f"{label}: {step} cannot be entered ({bf.terrain_at(step).name})"
        if step in blocked:
            return f"{label}: {step} is taken by {st.name_of(match.occupied()[step])}"
        cost += step_cost
        here = step
    if cost > budget:
        return f'{label}: the path costs {cost}" of movement, the unit has {budget}"'
    return None


def _path_steps(unit: int, path: tuple[Hex, ...]) -> list[Hex]:
    start = st.hex_of(unit)
    steps = list(path)
    if steps and steps[0] == start:
        steps = steps[1:]
    return steps


def _behind_cover(match: Match, unit: int) -> bool:
    """Take Cover: "If the Unit is behind any kind of cover (Half or Total)": a neighbouring hex gives
    half or total cover (docs/RULES.md "Take Cover")."""
    here = st.hex_of(unit)
    if here is None:
        return False
    bf = match.battlefield
    return any(bf.terrain_at(n).cover != Cover.NONE for n in bf.neighbors(here))


def _situation(
    match: Match, data: FrontierData, attacker: int, target: int, weapon: WeaponData
) -> AttackSituation:
    a, t = st.hex_of(attacker), st.hex_of(target)
    assert a is not None and t is not None
    cover = match.battlefield.cover_between(a, t) if weapon.is_ranged else Cover.NONE
    stats = st.unit_data(data, attacker)
    skill = stats.ballistics if weapon.is_ranged else stats.melee
    hp = st.health(target)
    tstatus = st.status(target)
    return AttackSituation(
        weapon=weapon,
        skill=skill if skill is not None else 7,
        distance=hex_distance(a, t),
        cover=cover,
        aimed=weapon.is_ranged and st.activation(attacker).aimed,
        target_prone=tstatus.prone,
        target_taking_cover=tstatus.taking_cover,
        target_toughness=hp.toughness,
        target_wounds=hp.wounds,
        target_temporary=hp.temporary,
    )


# ==================================================================================================


class FrontierRuleset:
    """Frontier (see the module docstring); ``RULESET`` in this package is the instance to use."""

    name = "frontier"
    title = "Frontier"

    def __init__(self, data: FrontierData | None = None) -> None:
        self.data = data if data is not None else default_data()

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
        deck = len(frontier_initiative_deck())
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
        game = FrontierGame(deploy_order=[p.side for p in match.posses], fielded=fielded)
        match.create_entity(game)
        return [PhaseStarted(0, "deployment")]

    # -- what may be done --------------------------------------------------------------------------
    def legal_actions(self, match: Match) -> list[LegalAction]:
        game = st.game_state(match)
        if game.result:
            return []
        if game.phase == "deployment":
            side = self._deploying_side(match)
            if side is None:
                return []
            free = sorted(match.battlefield.deploy_zones[side] - set(match.occupied()))
            return [
                LegalAction(
                    "deploy", f"Deploy {st.name_of(u)}", u, 0, needs="hex", hexes=tuple(free), side=side
                )
                for u in match.units(side)
                if st.hex_of(u) is None
            ]
        if game.phase == "initiative":
            side = game.draw_order[game.draws_made]
            return [
                LegalAction("draw_card", f"Draw a card for {st.name_of(u)}", u, 0, side=side)
                for u in self._drawable(match, side)
            ]
        if game.phase == "joker":
            unit = self._joker_holder(match)
            assert unit is not None
            others = self._joker_others(match, unit)
            slots = tuple(str(n) for n in range(1, len(others) + 2))
            return [
                LegalAction(
                    "place_joker",
                    f"Place {st.name_of(unit)}'s Joker in the initiative order",
                    unit,
                    0,
                    needs="choice",
                    choices=slots,
                    side=st.side_of(unit),
                    choice_labels=_joker_slot_labels(others),
                )
            ]
        if game.phase == "action" and game.active:
            return self._unit_actions(match, game.active)
        return []

    def _unit_actions(self, match: Match, unit: int) -> list[LegalAction]:
        side = st.side_of(unit)
        out: list[LegalAction] = []
        for action, info in ACTIONS.items():
            reason = self._action_problem(match, unit, action)
            label = self._label(unit, action)
            targets: tuple[int, ...] = ()
            hexes: tuple[Hex, ...] = ()
            choices: tuple[str, ...] = ()
            option = ""
            needs = info.needs
            if action == "leader_action" and (ability := st.leader_ability(unit)) is not None:
                needs = "targets" if ability.ability == "follow_me" else ""
            if reason is None:
                targets, hexes, choices = self._picks(match, unit, action)
                picked = {"target": targets, "hex": hexes, "path": hexes, "choice": choices}
                if (info.needs and not picked[info.needs]) or (
                    action == "leader_action" and needs and not targets
                ):
                    reason = self._no_pick_reason(action, label)
                if action == "shoot":
                    option = st.comp(unit, Weapon).weapon
            out.append(
                LegalAction(
                    action,
                    label,
                    unit,
                    info.cost,
                    enabled=reason is None,
                    reason=reason,
                    needs=needs,
                    targets=targets,
                    hexes=hexes,
                    choices=choices,
                    side=side,
                    option=option,
                    max_picks=2 if needs == "targets" else 1,
                    ends_turn=action == "end_activation",
                )
            )
        return out

    def _label(self, unit: int, action: str) -> str:
        info = ACTIONS[action]
        if action in ("shoot", "reload"):
            return f"{info.label} ({st.weapon_data(self.data, unit).name})"
        if action == "melee":
            return f"{info.label} ({st.melee_weapon(self.data, unit).name})"
        if action == "leader_action":
            ability = st.leader_ability(unit)
            if ability is not None:
                return f"{info.label}: {self.data.abilities[ability.ability].name}"
        return info.label

    @staticmethod
    def _no_pick_reason(action: str, label: str) -> str:
        return {
            "move": f"{label}: nowhere to move",
            "charge": f"{label}: nowhere to move",
            "shoot": f"{label}: no hostile unit in sight and in range",
            "melee": f'{label}: no hostile unit within 1"',
            "coup_de_grace": f'{label}: no Seriously Injured hostile unit within 1" and in sight',
            "operate_door": f'{label}: no door within 1"',
            "take_item": f'{label}: no item within 1"',
            "use_item": f"{label}: nothing usable in the posse inventory",
            "leader_action": f"{label}: no other able unit of the posse within range",
        }.get(action, f"{label}: nothing to pick")

    def _action_problem(self, match: Match, unit: int, action: str) -> str | None:
        """Why ``unit`` cannot take ``action`` at all now (targets aside), or None."""
        data = self.data
        info = ACTIONS[action]
        label = self._label(unit, action)
        if action == "end_activation":
            return None
        act = st.activation(unit)
        points = st.ap(unit).current
        if points < info.cost:
            return f"{label}: needs {info.cost} AP, the unit has {points}"
        if info.kind == "basic" and action in act.basic_used:
            verb = {"shoot": "already shot", "melee": "already fought"}.get(action, "already done")
            return f"{label}: {verb} this activation"
        status = st.status(unit)
        weapon = st.weapon_data(data, unit)
        wstate = st.comp(unit, Weapon)
        if action in ("move", "charge", "melee", "disengage") and status.prone:
            return f"{label}: the unit is prone; Stand Up first"
        if action == "reload":
            if weapon.ammo is None:
                return f"{label}: the {weapon.name} has no ammunition to reload"
            if wstate.ammo == weapon.ammo:
                return f"{label}: {weapon.name} is full"
        elif action == "shoot":
            if not weapon.is_ranged or st.unit_data(data, unit).ballistics is None:
                return f"{label}: the unit has no ranged weapon"
            if status.taking_cover:
                return f"{label}: a unit taking cover cannot shoot"
            if wstate.ammo is not None and wstate.ammo <= 0:
                return f"{label}: the {weapon.name} is empty; Reload first"
        elif action == "aim":
            if not weapon.is_ranged:
                return f"{label}: the unit has no ranged weapon"
            if "shoot" in act.basic_used:
                return f"{label}: already shot this activation"
        elif action == "disengage":
            if not st.engaged_with(match, unit):
                return f"{label}: not in close combat"
        elif action == "take_cover":
            if status.taking_cover:
                return f"{label}: already taking cover"
            if not _behind_cover(match, unit):
                return f"{label}: no half or total cover here"
        elif action == "stand_up":
            if not status.prone:
                return f"{label}: the unit is not prone"
        elif action == "leader_action":
            ability = st.leader_ability(unit)
            if ability is None:
                return f"{label}: only a Leader with a Leader Ability can"
            game = st.game_state(match)
            if game.round < ability.ready_round:
                return f"{label}: recharging until round {ability.ready_round}"
            if ability.ability == "dastardly" and st.health(unit).temporary > 0:
                return f"{label}: the temporary wound is still there"
        return None

    def _picks(
        self, match: Match, unit: int, action: str
    ) -> tuple[tuple[int, ...], tuple[Hex, ...], tuple[str, ...]]:
        """Valid targets / hexes / choices for an action already known to be possible."""
        data = self.data
        here = st.hex_of(unit)
        assert here is not None
        bf = match.battlefield
        if action == "move":
            reach = bf.reachable(here, st.unit_data(data, unit).move, st.blocked_hexes(match, unit))
            return (), tuple(sorted(h for h in reach if h != here)), ()
        if action == "charge":
            # "may move its full movement + 1d4"": any hex within Move + 4 (the most the d4 can give);
            # the targets are the hostile units the charge could end within 1" of (docs/RULES.md 16)
            budget = st.unit_data(data, unit).move + CHARGE_DIE
            ends = sorted(h for h in bf.reachable(here, budget, st.blocked_hexes(match, unit)) if h != here)
            targets = tuple(
                t
                for t in st.hostiles(match, unit)
                if any(hex_distance(h, st.hex_of(t) or h) <= 1 for h in ends)
            )
            return targets, tuple(ends), ()
        if action == "shoot":
            return (
                tuple(
                    t
                    for t in st.hostiles(match, unit)
                    if self._target_problem(match, unit, action, t) is None
                ),
                (),
                (),
            )
        if action == "melee":
            return tuple(st.engaged_with(match, unit)), (), ()
        if action == "coup_de_grace":
            return (
                tuple(t for t in match.units() if self._target_problem(match, unit, action, t) is None),
                (),
                (),
            )
        if action == "operate_door":
            occupied = match.occupied()
            doors = (
                h
                for h in bf.hexes_within(here, 1)
                if (door := bf.door_at(h)) is not None and not (door.is_open and h in occupied)
            )
            return (), tuple(doors), ()
        if action == "take_item":
            near = sorted(
                {item.hex for _, item in st.items_on_map(match) if hex_distance(item.hex, here) <= 1}
            )
            names = sorted(
                {item.name for _, item in st.items_on_map(match) if hex_distance(item.hex, here) <= 1}
            )
            return (), tuple(near), tuple(names)
        if action == "use_item":
            inv = st.inventory(match, st.side_of(unit))
            names = sorted(
                {n for n in (inv.items if inv else []) if self._item_use_problem(match, unit, n) is None}
            )
            targets = tuple(sorted({t for n in names for t in self._item_targets(match, unit, n)}))
            return targets, (), tuple(names)
        if action == "leader_action":
            ability = st.leader_ability(unit)
            if ability is not None and ability.ability == "follow_me":
                return tuple(self._follow_me_targets(match, unit)), (), ()
        return (), (), ()

    def _target_problem(self, match: Match, unit: int, action: str, target: int | None) -> str | None:
        label = self._label(unit, action)
        if target is None:
            return f"{label}: pick a target"
        if not st.is_unit(match, target):
            return f"{label}: there is no unit {target}"
        if not st.in_play(target) or st.hex_of(target) is None:
            return f"{label}: {st.name_of(target)} is not on the field"
        if target == unit:
            return f"{label}: a unit cannot target itself"
        if st.side_of(target) == st.side_of(unit):
            return f"{label}: {st.name_of(target)} is not hostile"
        here, there = st.hex_of(unit), st.hex_of(target)
        assert here is not None and there is not None
        dist = hex_distance(here, there)
        if action == "coup_de_grace":
            # "Pick a seriously injured Unit within 1" and in sight of the Unit taking the action."
            if not st.seriously_injured(target):
                return f"{label}: {st.name_of(target)} is not Seriously Injured"
            if dist > 1:
                return f'{label}: {st.name_of(target)} is not within 1"'
            if not match.battlefield.line_of_sight(here, there):
                return f"{label}: {st.name_of(target)} is not in sight"
            return None
        if st.seriously_injured(target):
            return f"{label}: {st.name_of(target)} is Seriously Injured (Coup de Grace instead)"
        if action == "shoot":
            weapon = st.weapon_data(self.data, unit)
            # "if the target is outside of the weapon's Long Range then they cannot be targeted"
            if dist > weapon.long_range:
                return (
                    f'{label}: {st.name_of(target)} is {dist}" away, beyond the '
                    f"{weapon.name}'s long range ({weapon.long_range}\")"
                )
            if not match.battlefield.line_of_sight(here, there):
                return f"{label}: {st.name_of(target)} is not in sight"
            return None
        if action == "melee" and dist > 1:
            return f'{label}: {st.name_of(target)} is not within 1"'
        return None

    def _item_use_problem(self, match: Match, unit: int, name: str) -> str | None:
        item = self.data.item_by_name(name)
        if item is None:
            return f"Use Item: {name} has no use in Frontier"
        if not self._item_targets(match, unit, name):
            return f'Use Item: no Seriously Injured ally within {item.range}" to revive'
        return None

    def _item_targets(self, match: Match, unit: int, name: str) -> list[int]:
        item = self.data.item_by_name(name)
        if item is None:
            return []
        return [
            a
            for a in st.allies(match, unit)
            if st.seriously_injured(a) and st.in_play(a) and st.distance(unit, a) <= item.range
        ]

    def _follow_me_targets(self, match: Match, unit: int) -> list[int]:
        ability = self.data.abilities["follow_me"]
        return [a for a in st.allies(match, unit) if st.able(a) and st.distance(unit, a) <= ability.range]

    # -- validate (pure) ---------------------------------------------------------------------------
    def validate(self, match: Match, cmd: Command) -> str | None:
        game = st.game_state(match)
        if game.result:
            return "the encounter is over"
        if cmd.action not in ACTIONS and cmd.action not in ("deploy", "draw_card", "place_joker"):
            return f"unknown action '{cmd.action}'"
        if not st.is_unit(match, cmd.actor):
            return f"there is no unit {cmd.actor}"
        unit = cmd.actor
        if cmd.side and cmd.side != st.side_of(unit):
            return f"{st.name_of(unit)} is not in {cmd.side}'s posse"
        if cmd.action == "deploy":
            return self._validate_deploy(match, game, cmd)
        if cmd.action == "draw_card":
            if game.phase != "initiative":
                return "cards are drawn in the Initiative phase"
            side = game.draw_order[game.draws_made]
            if st.side_of(unit) != side:
                return f"it is {side}'s turn to draw"
            if unit not in self._drawable(match, side):
                return f"{st.name_of(unit)} already has a card or takes no turns"
            return None
        if cmd.action == "place_joker":
            if game.phase != "joker":
                return "there is no Joker to place"
            if unit != self._joker_holder(match):
                return f"{st.name_of(unit)} did not draw the Joker"
            slots = len(self._carded(match))
            # exactly one of the places offered ("1" .. "n"), never parsed by int(): other digits are no place
            if cmd.option not in {str(n) for n in range(1, slots + 1)}:
                return f"pick the Joker's place in the initiative order: 1 (first) to {slots} (last)"
            return None
        if game.phase != "action":
            return f"it is the {game.phase} phase, not the Action phase"
        if unit != game.active:
            active = st.name_of(game.active) if game.active else "no one"
            return f"it is {active}'s activation, not {st.name_of(unit)}'s"
        reason = self._action_problem(match, unit, cmd.action)
        if reason is not None:
            return reason
        return self._command_problem(match, unit, cmd)

    def _validate_deploy(self, match: Match, game: FrontierGame, cmd: Command) -> str | None:
        if game.phase != "deployment":
            return "deployment is over"
        unit = cmd.actor
        side = self._deploying_side(match)
        if st.side_of(unit) != side:
            return f"it is {side}'s turn to deploy"
        if st.hex_of(unit) is not None:
            return f"{st.name_of(unit)} is already deployed"
        if cmd.hex is None:
            return "pick a hex in your deploy zone"
        if cmd.hex not in match.battlefield.deploy_zones[side]:
            return f"{cmd.hex} is not in {side}'s deploy zone"
        if cmd.hex in match.occupied():
            return f"{cmd.hex} is taken"
        return None

    def _command_problem(self, match: Match, unit: int, cmd: Command) -> str | None:
        """The command's own picks (path, target, hex, option) for an action that is possible."""
        data = self.data
        action = cmd.action
        label = self._label(unit, action)
        here = st.hex_of(unit)
        assert here is not None
        if action == "move":
            return _path_problem(match, unit, cmd.path, st.unit_data(data, unit).move, label)
        if action == "charge":
            budget = st.unit_data(data, unit).move + CHARGE_DIE
            reason = _path_problem(match, unit, cmd.path, budget, label)
            if reason is not None:
                return reason
            # the target is optional: the hostile to attack if the charge ends within 1" of it
            if cmd.target is not None:
                return self._target_problem(match, unit, "charge", cmd.target)
            return None
        if action in ("shoot", "melee", "coup_de_grace"):
            return self._target_problem(match, unit, action, cmd.target)
        if action == "operate_door":
            if cmd.hex is None:
                return f"{label}: pick a door"
            door = match.battlefield.door_at(cmd.hex)
            if door is None:
                return f"{label}: there is no door at {cmd.hex}"
            if hex_distance(here, cmd.hex) > 1:
                return f'{label}: the door at {cmd.hex} is not within 1"'
            if door.is_open and cmd.hex in match.occupied():
                return f"{label}: {st.name_of(match.occupied()[cmd.hex])} stands in the doorway"
            return None
        if action == "take_item":
            if cmd.hex is None:
                return f"{label}: pick an item's hex"
            if hex_distance(here, cmd.hex) > 1:
                return f'{label}: {cmd.hex} is not within 1"'
            names = [item.name for _, item in st.items_on_map(match) if item.hex == cmd.hex]
            if not names:
                return f"{label}: there is no item at {cmd.hex}"
            if cmd.option and cmd.option not in names:
                return f"{label}: there is no {cmd.option} at {cmd.hex}"
            return None
        if action == "use_item":
            inv = st.inventory(match, st.side_of(unit))
            if not cmd.option or inv is None or cmd.option not in inv.items:
                return f"{label}: pick an item from the posse inventory"
            reason = self._item_use_problem(match, unit, cmd.option)
            if reason is not None:
                return reason
            if cmd.target not in self._item_targets(match, unit, cmd.option):
                return f'{label}: pick a Seriously Injured ally within 1"'
            return None
        if action == "leader_action":
            ability = st.leader_ability(unit)
            assert ability is not None
            if ability.ability == "follow_me":
                info = data.abilities["follow_me"]
                chosen = cmd.targets or ((cmd.target,) if cmd.target is not None else ())
                if not 1 <= len(chosen) <= info.max_targets:
                    return f"{label}: choose 1 to {info.max_targets} other units"
                if len(set(chosen)) != len(chosen):
                    return f"{label}: a unit is chosen twice"
                allowed = self._follow_me_targets(match, unit)
                for t in chosen:
                    if t not in allowed:
                        return f'{label}: unit {t} is not an able ally within {info.range}"'
            return None
        return None

    # -- apply -------------------------------------------------------------------------------------
    def apply(self, match: Match, cmd: Command) -> list[Event]:
        game = st.game_state(match)
        events: list[Event] = []
        if cmd.action == "deploy":
            assert cmd.hex is not None
            st.comp(cmd.actor, Position).hex = cmd.hex
            events.append(Moved(0, cmd.actor, (cmd.hex,), 0))
            if self._deploying_side(match) is None:
                self._start_round(match, game, 1, events)
        elif cmd.action == "draw_card":
            self._draw(match, game, cmd.actor, events)
        elif cmd.action == "place_joker":
            place = int(cmd.option)
            act = st.activation(cmd.actor)
            act.joker = False
            others = self._joker_others(match, cmd.actor)
            others.insert(place - 1, cmd.actor)
            events.append(ActionTaken(game.round, cmd.actor, "place_joker", option=cmd.option))
            self._start_action_phase(match, game, others, events)
        else:
            self._apply_action(match, game, cmd, events)
        self._check_end(match, game, events)
        return events

    # deployment and rounds
    def _deploying_side(self, match: Match) -> str | None:
        game = st.game_state(match)
        for side in game.deploy_order:
            if any(st.hex_of(u) is None for u in match.units(side)):
                return side
        return None

    def _drawable(self, match: Match, side: str) -> list[int]:
        return [u for u in match.units(side) if st.able(u) and st.activation(u).card is None]

    def _carded(self, match: Match) -> list[int]:
        return [u for u in match.units() if st.activation(u).card is not None]

    def _joker_others(self, match: Match, holder: int) -> list[int]:
        """The units with a card other than the Joker's holder, in activation order (highest card first):
        placing the Joker at n puts its holder before the n-th of them (after all of them for the last)."""
        return sorted(
            (u for u in self._carded(match) if u != holder),
            key=lambda u: (-(st.activation(u).card or 0), u),
        )

    def _joker_holder(self, match: Match) -> int | None:
        for u in match.units():
            if st.activation(u).joker:
                return u
        return None

    def _start_round(self, match: Match, game: FrontierGame, number: int, events: list[Event]) -> None:
        """Initiative phase: a fresh 14-card deck is shuffled every round (docs/RULES.md "Initiative")."""
        game.round = number
        game.phase = "initiative"
        events.append(PhaseStarted(number, "initiative"))
        deck = [card.name for card in frontier_initiative_deck()]
        match.rng.shuffle(deck)
        game.deck = deck
        for u in match.units(in_play=False):
            act = st.activation(u)
            act.card, act.card_name, act.joker, act.activated = None, "", False, False
        # "The Player with the smaller Posse draws first. Players then take turns drawing for each Unit in
        # their Posse, alternating with each draw." Posse size = its units that still take turns; a tie
        # goes to the posse listed first.
        counts = {p.side: len(self._drawable(match, p.side)) for p in match.posses}
        order = sorted(
            (s for s in counts if counts[s]), key=lambda s: (counts[s], game.deploy_order.index(s))
        )
        draws: list[str] = []
        while any(counts[s] for s in order):
            for s in order:
                if counts[s]:
                    draws.append(s)
                    counts[s] -= 1
        game.draw_order = draws
        game.draws_made = 0
        game.order, game.turn, game.active = [], 0, 0

    def _draw(self, match: Match, game: FrontierGame, unit: int, events: list[Event]) -> None:
        card = game.deck.pop()
        value = CARD_VALUES[card]
        act = st.activation(unit)
        act.card, act.card_name = value, card
        act.joker = card == JOKER
        events.append(CardDealt(game.round, unit, card, value, act.joker))
        game.draws_made += 1
        if game.draws_made < len(game.draw_order):
            return
        # "If a Player draws the Joker for a Unit, they may choose when that Unit acts initiative after all
        # other Units have received their initiative cards."
        if self._joker_holder(match) is not None:
            game.phase = "joker"
            return
        # "The Unit with the highest initiative takes the first activation of the Action Phase."
        order = sorted(self._carded(match), key=lambda u: (-(st.activation(u).card or 0), u))
        self._start_action_phase(match, game, order, events)

    def _start_action_phase(
        self, match: Match, game: FrontierGame, order: list[int], events: list[Event]
    ) -> None:
        game.phase = "action"
        game.order = order
        game.turn = -1
        events.append(PhaseStarted(game.round, "action"))
        # "AP replenishes at the beginning of each Action Phase."; granted AP (Follow Me!) arrive now.
        for u in match.units():
            points = st.ap(u)
            points.current = points.per_activation + points.bonus_next
            points.bonus_next = 0
        self._next_activation(match, game, events)

    def _next_activation(self, match: Match, game: FrontierGame, events: list[Event]) -> None:
        game.active = 0
        while game.turn + 1 < len(game.order):
            game.turn += 1
            unit = game.order[game.turn]
            act = st.activation(unit)
            # "A Unit that is seriously injured no longer takes turns in combat"
            if not st.able(unit) or act.card is None or act.activated:
                continue
            game.active = unit
            act.basic_used = []
            act.aimed = act.disengaged = False
            act.attacked = []
            status = st.status(unit)
            if status.taking_cover:  # Take Cover lasts until the unit's next activation
                status.taking_cover = False
                events.append(StatusChanged(game.round, unit, "taking_cover", False))
            events.append(ActivationStarted(game.round, unit, st.ap(unit).current))
            if st.ap(unit).current <= 0:
                self._end_activation(match, game, events)
            return
        self._end_phase(match, game, events)

    def _end_activation(self, match: Match, game: FrontierGame, events: list[Event]) -> None:
        unit = game.active
        act = st.activation(unit)
        act.activated = True
        st.ap(unit).current = 0  # unspent AP are lost (docs/RULES.md "Action points")
        events.append(ActivationEnded(game.round, unit))
        self._next_activation(match, game, events)

    def _end_phase(self, match: Match, game: FrontierGame, events: list[Event]) -> None:
        game.phase = "end"
        game.active = 0
        events.append(PhaseStarted(game.round, "end"))
        EndPhaseProcessor(self, match).process(events)
        if self._winner(match) is not None:
            return
        if game.round >= self.data.max_rounds:
            game.result = f"the sun went down after {game.round} rounds: no winner"
            return
        self._start_round(match, game, game.round + 1, events)

    # actions
    def _apply_action(self, match: Match, game: FrontierGame, cmd: Command, events: list[Event]) -> None:
        unit = cmd.actor
        action = cmd.action
        if action == "end_activation":
            self._end_activation(match, game, events)
            return
        info = ACTIONS[action]
        st.ap(unit).current -= info.cost
        act = st.activation(unit)
        if info.kind == "basic":
            act.basic_used.append(action)
        rnd = game.round
        data = self.data
        if action == "move":
            self._walk(match, unit, _path_steps(unit, cmd.path), events)
        elif action == "charge":
            self._charge(match, unit, cmd, events)
        elif action == "reload":
            weapon = st.weapon_data(data, unit)
            st.comp(unit, Weapon).ammo = weapon.ammo
            events.append(ActionTaken(rnd, unit, "reload", option=weapon.id))
        elif action == "shoot":
            assert cmd.target is not None
            wstate = st.comp(unit, Weapon)
            if wstate.ammo is not None:
                wstate.ammo -= 1
            events.append(ActionTaken(rnd, unit, "shoot", target=cmd.target, option=wstate.weapon))
            self._attack(match, unit, cmd.target, st.weapon_data(data, unit), events)
        elif action == "melee":
            assert cmd.target is not None
            events.append(ActionTaken(rnd, unit, "melee", target=cmd.target))
            self._attack(match, unit, cmd.target, st.melee_weapon(data, unit), events)
        elif action == "aim":
            act.aimed = True
            events.append(ActionTaken(rnd, unit, "aim"))
        elif action == "disengage":
            act.disengaged = True
            events.append(ActionTaken(rnd, unit, "disengage"))
        elif action == "take_cover":
            st.status(unit).taking_cover = True
            events.append(ActionTaken(rnd, unit, "take_cover"))
            events.append(StatusChanged(rnd, unit, "taking_cover", True))
        elif action == "stand_up":
            st.status(unit).prone = False
            events.append(ActionTaken(rnd, unit, "stand_up"))
            events.append(StatusChanged(rnd, unit, "prone", False))
        elif action == "coup_de_grace":
            assert cmd.target is not None
            events.append(ActionTaken(rnd, unit, "coup_de_grace", target=cmd.target))
            # "That Unit immediately is taken Out Of Action."
            self._remove(match, cmd.target, "out_of_action", events)
        elif action == "operate_door":
            assert cmd.hex is not None
            door = match.battlefield.door_at(cmd.hex)
            assert door is not None
            match.battlefield.set_door(cmd.hex, not door.is_open)
            events.append(ActionTaken(rnd, unit, "open_door" if door.is_open else "close_door", hex=cmd.hex))
        elif action == "take_item":
            assert cmd.hex is not None
            for _, item in st.items_on_map(match):
                if item.hex == cmd.hex and (not cmd.option or item.name == cmd.option):
                    item.taken_by = st.side_of(unit)
                    inv = st.inventory(match, item.taken_by)
                    assert inv is not None
                    inv.items.append(item.name)
                    events.append(ItemTaken(rnd, unit, item.name, cmd.hex))
                    break
        elif action == "use_item":
            self._use_item(match, unit, cmd, events)
        elif action == "leader_action":
            self._leader_action(match, game, unit, cmd, events)
        if game.active == unit and (st.ap(unit).current <= 0 or not st.able(unit)):
            self._end_activation(match, game, events)

    def _walk(self, match: Match, unit: int, steps: list[Hex], events: list[Event]) -> None:
        """Move along ``steps``; leaving close combat without Disengage provokes opportunity attacks."""
        rnd = st.game_state(match).round
        here = st.hex_of(unit)
        assert here is not None
        walked: list[Hex] = [here]
        cost = 0
        attacked_by: set[int] = set()
        for step in steps:
            for enemy in self._opportunity_attackers(match, unit, here, step, attacked_by):
                if len(walked) > 1:
                    events.append(Moved(rnd, unit, tuple(walked), cost))
                    walked, cost = [here], 0
                attacked_by.add(enemy)
                events.append(Note(rnd, enemy, "opportunity attack"))
                self._attack(match, enemy, unit, st.melee_weapon(self.data, enemy), events)
                if not st.able(unit):
                    return
            c = match.battlefield.move_cost(step)
            assert c is not None
            cost += c
            here = step
            walked.append(step)
            st.comp(unit, Position).hex = step
        if st.status(unit).taking_cover:  # moving out of cover ends Take Cover
            st.status(unit).taking_cover = False
            events.append(StatusChanged(rnd, unit, "taking_cover", False))
        if len(walked) > 1:
            events.append(Moved(rnd, unit, tuple(walked), cost))

    def _opportunity_attackers(
        self, match: Match, unit: int, here: Hex, step: Hex, done: set[int]
    ) -> list[int]:
        """Hostiles in close combat with ``unit`` at ``here`` that it leaves by stepping to ``step``.

        "Disengage - The Unit taking this action may move out of close combat with hostile Units without
        provoking an Opportunity Attack." Canine Agility: "The Dog can disengage from Close Combat with an
        Enemy Unit for free if it has made an attack against that Unit this turn."
        """
        act = st.activation(unit)
        if act.disengaged:
            return []
        agile = "canine_agility" in st.unit_data(self.data, unit).abilities
        out = []
        for enemy in st.hostiles(match, unit):
            there = st.hex_of(enemy)
            assert there is not None
            if enemy in done or hex_distance(here, there) > 1 or hex_distance(step, there) <= 1:
                continue
            if st.status(enemy).prone:
                continue  # a prone unit cannot fight in close combat (docs/RULES.md "Prone")
            if agile and enemy in act.attacked:
                continue
            out.append(enemy)
        return out

    def _charge(self, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
        rnd = st.game_state(match).round
        move = st.unit_data(self.data, unit).move
        (extra,) = roll(match.rng, CHARGE_DIE)
        budget = move + extra
        events.append(Roll(rnd, unit, "charge", (extra,), (("Move", move),), budget, None, None, cmd.target))
        steps: list[Hex] = []
        spent = 0
        for step in _path_steps(unit, cmd.path):
            c = match.battlefield.move_cost(step)
            assert c is not None
            if spent + c > budget:
                break
            spent += c
            steps.append(step)
        self._walk(match, unit, steps, events)
        if not st.able(unit):
            return
        # "If they finish their movement within 1" of a standing or Prone Hostile Unit they may immediately
        # make a Melee Weapon attack against that Unit."
        target = self.charge_target(match, unit, cmd.target)
        if target is None:
            short = 'no hostile unit within 1": no attack' if cmd.target is None else "the charge fell short"
            events.append(Note(rnd, unit, short))
            return
        if cmd.target is not None and target != cmd.target:
            missed = f'{st.name_of(cmd.target)} is not within 1"'
            events.append(Note(rnd, unit, f"charge attack on {st.name_of(target)}: {missed}"))
        else:
            events.append(Note(rnd, unit, "charge attack"))
        self._attack(match, unit, target, st.melee_weapon(self.data, unit), events)

    def charge_target(self, match: Match, unit: int, declared: int | None) -> int | None:
        """Whom a charge that ends where ``unit`` stands attacks (docs/RULES.md 16): the declared target if
        it is an able hostile within 1"; else, of the able hostiles within 1", the one the attack is most
        likely to hit (a prone one: +1), ties to the first in the match's unit order; None if there is
        none. Seriously Injured units are not attacked (they are for Coup de Grace)."""
        near = st.engaged_with(match, unit)
        if declared in near:
            return declared
        if not near:
            return None
        weapon = st.melee_weapon(self.data, unit)

        def chance(target: int) -> Fraction:
            return attack_preview(_situation(match, self.data, unit, target, weapon)).hit_chance

        return max(near, key=lambda t: (chance(t), -near.index(t)))

    def _attack(
        self, match: Match, attacker: int, target: int, weapon: WeaponData, events: list[Event]
    ) -> None:
        """One attack: "Any attack action, whether Ballistic or Melee, is considered a check in the
        corresponding skill and is handled as all checks are."."""
        game = st.game_state(match)
        situation = _situation(match, self.data, attacker, target, weapon)
        mods = hit_modifiers(situation)
        (die,) = roll(match.rng, 6)
        total = die + sum(v for _, v in mods)
        hit = total >= situation.skill
        check = "ballistics" if weapon.is_ranged else "melee"
        events.append(Roll(game.round, attacker, check, (die,), mods, total, situation.skill, hit, target))
        if game.active == attacker:
            st.activation(attacker).attacked.append(target)
        if hit:
            amount = damage_after_cover(weapon.damage, situation.target_taking_cover)
            if situation.target_taking_cover:
                events.append(Note(game.round, target, "taking cover: half damage"))
            self.damage(match, target, amount, attacker, events)

    def damage(self, match: Match, unit: int, amount: int, source: int | None, events: list[Event]) -> None:
        """Take damage: Dastardly's wound first, then Toughness, then Wounds (docs/RULES.md "Damage")."""
        rnd = st.game_state(match).round
        hp = st.health(unit)
        after = split_damage(amount, hp.toughness, hp.wounds, hp.temporary)
        if hp.temporary and after.temporary < hp.temporary:
            events.append(Note(rnd, unit, "Dastardly: the temporary wound is lost first"))
        lost_wounds = hp.wounds - after.wounds
        hp.temporary, hp.toughness, hp.wounds = after.temporary, after.toughness, after.wounds
        events.append(DamageTaken(rnd, unit, amount, source, hp.toughness + hp.wounds + hp.temporary))
        status = st.status(unit)
        # "Units that have taken any Wounds in a Combat Encounter are considered Wounded."
        if lost_wounds and not status.wounded:
            status.wounded = True
            events.append(StatusChanged(rnd, unit, "wounded", True))
        # "When a Unit is reduced to 0 Wounds, they are considered Seriously Injured and fall Prone."
        if hp.wounds == 0 and not status.seriously_injured:
            status.seriously_injured = True
            events.append(StatusChanged(rnd, unit, "seriously_injured", True))
            if not status.prone:
                status.prone = True
                events.append(StatusChanged(rnd, unit, "prone", True))
            if status.taking_cover:
                status.taking_cover = False
                events.append(StatusChanged(rnd, unit, "taking_cover", False))
            act = st.activation(unit)
            act.card, act.card_name = None, ""  # it no longer takes turns: its card is discarded

    def _remove(self, match: Match, unit: int, reason: str, events: list[Event]) -> None:
        rnd = st.game_state(match).round
        esper.add_component(unit, Removed(reason))
        events.append(StatusChanged(rnd, unit, reason, True))
        events.append(UnitRemoved(rnd, unit, reason))

    def _use_item(self, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
        rnd = st.game_state(match).round
        inv = st.inventory(match, st.side_of(unit))
        item = self.data.item_by_name(cmd.option)
        assert inv is not None and item is not None and cmd.target is not None
        inv.items.remove(cmd.option)
        events.append(ActionTaken(rnd, unit, "use_item", target=cmd.target, option=cmd.option))
        # "Seriously Injured Units can be revived with items such as Smelling Salts and considered Wounded."
        target = cmd.target
        hp = st.health(target)
        hp.wounds = item.restores
        status = st.status(target)
        status.seriously_injured = False
        status.wounded = True
        events.append(StatusChanged(rnd, target, "seriously_injured", False))

    def _leader_action(
        self, match: Match, game: FrontierGame, unit: int, cmd: Command, events: list[Event]
    ) -> None:
        ability = st.leader_ability(unit)
        assert ability is not None
        info = self.data.abilities[ability.ability]
        # "Recharge time. This is the number of Action Phases you must wait until you can utilise that
        # ability again." Used in round N: rounds N+1 .. N+recharge are waited, ready in N+recharge+1.
        ability.ready_round = game.round + info.recharge + 1
        if ability.ability == "follow_me":
            chosen = cmd.targets or ((cmd.target,) if cmd.target is not None else ())
            events.append(ActionTaken(game.round, unit, "follow_me", option=info.name))
            for t in chosen:
                # "Units chosen this way gain 1 additional AP each in the next Action Phase."
                st.ap(t).bonus_next += info.extra_ap
                events.append(Note(game.round, t, f"Follow Me!: +{info.extra_ap} AP next Action Phase"))
        elif ability.ability == "dastardly":
            # "The Gang Leader gains a temporary wound. The next time they take damage this wound is lost
            # first"
            st.health(unit).temporary = info.temporary_wounds
            events.append(ActionTaken(game.round, unit, "dastardly", option=info.name))
            events.append(StatusChanged(game.round, unit, "dastardly", True))

    # -- the end -----------------------------------------------------------------------------------
    def _winner(self, match: Match) -> Outcome | None:
        """ "A Posse wins a Combat Encounter by either, rendering all hostile Units Out of Action or causing
        all hostile Units to flee the Combat Encounter." (Seriously Injured counts: docs/RULES.md)."""
        game = st.game_state(match)
        if game.phase == "deployment":
            return None
        standing = [p.side for p in match.posses if any(st.able(u) for u in match.units(p.side))]
        if len(standing) > 1:
            return None
        if not standing:
            return Outcome(None, "no unit is left standing on either side")
        winner = standing[0]
        beaten = [u for u in match.units(in_play=False) if st.side_of(u) != winner]
        fled = [
            u for u in beaten if (r := esper.try_component(u, Removed)) is not None and r.reason == "fled"
        ]
        if len(fled) == len(beaten):
            reason = "all hostile units fled"
        elif not fled:
            reason = "all hostile units are out of action"
        else:
            reason = "all hostile units are out of action or fled"
        return Outcome(winner, reason)

    def _check_end(self, match: Match, game: FrontierGame, events: list[Event]) -> None:
        if game.phase == "over":
            return
        result = self._winner(match)
        if result is None and game.result:
            result = Outcome(None, game.result)
        if result is None:
            return
        game.phase = "over"
        game.active = 0
        game.winner = result.winner or ""
        game.result = result.reason
        # "any Units that are still considered Seriously Injured when the Combat encounter finishes are
        # immediately classed as Out of Action."
        for u in match.units():
            if st.seriously_injured(u):
                self._remove(match, u, "out_of_action", events)
        events.append(MatchEnded(game.round, result.winner, result.reason))

    def outcome(self, match: Match) -> Outcome | None:
        game = st.game_state(match)
        if game.phase != "over":
            return None
        return Outcome(game.winner or None, game.result)

    # -- odds --------------------------------------------------------------------------------------
    def preview(self, match: Match, cmd: Command) -> AttackPreview | None:
        if cmd.action not in ("shoot", "melee", "charge") or cmd.target is None:
            return None
        if not st.is_unit(match, cmd.actor) or not st.is_unit(match, cmd.target):
            return None
        unit, target = cmd.actor, cmd.target
        if st.hex_of(unit) is None or st.hex_of(target) is None or not st.in_play(target):
            return None
        if cmd.action == "shoot":
            weapon = st.weapon_data(self.data, unit)
            if not weapon.is_ranged:
                return None
            if hex_distance(st.hex_of(unit) or Hex(0, 0), st.hex_of(target) or Hex(0, 0)) > weapon.long_range:
                return None
            return attack_preview(_situation(match, self.data, unit, target, weapon))
        weapon = st.melee_weapon(self.data, unit)
        situation = _situation(match, self.data, unit, target, weapon)
        preview = attack_preview(situation)
        if cmd.action == "charge":
            notes = (*preview.notes, 'if the charge ends within 1" of the target')
            return AttackPreview(
                preview.hit_chance, preview.damage, preview.modifiers, preview.target_number, notes
            )
        return preview

    # -- what the UI shows (game/rules/frontier/views.py) -----------------------------------------------
    def unit_view(self, match: Match, unit: int) -> UnitView:
        return unit_view(self.data, match, unit)

    def tracker(self, match: Match) -> list[TrackerEntry]:
        return tracker(match)

    def auto_deploy(self, match: Match) -> list[Command]:
        return auto_deploy_commands(match)

    def rules_summary(self) -> str:
        return RULES_SUMMARY

    def printed_name(self, key: str) -> str | None:
        entry = self.data.weapons.get(key) or self.data.items.get(key)
        return entry.name if entry is not None and entry.name.strip() else None

    def conceal(self, match: Match, rng: random.Random) -> None:
        """The one hidden thing in Frontier is the order of the cards not yet drawn this round."""
        rng.shuffle(st.game_state(match).deck)

    def prompt(self, match: Match) -> Prompt | None:
        """The Joker's placement, the one decision that breaks into Frontier's flow ("If a Player draws the
        Joker for a Unit, they may choose when that Unit acts initiative after all other Units have received
        their initiative cards."); None otherwise. Frontier has no reaction: an opportunity attack is made
        at once, without a choice."""
        match.enter()
        game = st.game_state(match)
        if game.result or game.phase != "joker":
            return None
        holder = self._joker_holder(match)
        if holder is None:
            return None
        name = st.name_of(holder)
        text = f"{name} drew the Joker: choose where {name} acts in this round's initiative order."
        return Prompt("Place the Joker", text, holder, holder)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _joker_slot_labels(others: list[int]) -> tuple[str, ...]:
    """The Joker's places in a player's words, one per choice "1" ... "n": where its holder would act among
    ``others`` (the other carded units, in activation order): "Act 1st, before Sheriff (K♠)", "Act 2nd,
    after Sheriff (K♠)", ..., "Act last, after Outlaw (2♠)"."""

    def who(u: int) -> str:
        return f"{st.name_of(u)} ({card_label(st.activation(u).card_name)})"

    if not others:
        return ("Act 1st (no other unit has a card)",)
    labels = [f"Act 1st, before {who(others[0])}"]
    labels += [f"Act {_ordinal(n + 1)}, after {who(u)}" for n, u in enumerate(others[:-1], start=1)]
    labels.append(f"Act last, after {who(others[-1])}")
    return tuple(labels)


def auto_deploy_commands(match: Match) -> list[Command]:
    """Deploy every undeployed unit: each side's units in posse order on the free zone hexes nearest the
    centre of the map (deterministic). For tests, quick starts and the AI."""
    taken = set(match.occupied())
    commands: list[Command] = []
    game = st.game_state(match)
    for side in game.deploy_order:
        free = [h for h in match.battlefield.deploy_spots(side) if h not in taken]
        for unit in match.units(side):
            if st.hex_of(unit) is not None:
                continue
            spot = free.pop(0)
            taken.add(spot)
            commands.append(Command("deploy", actor=unit, side=side, hex=spot))
    return commands
