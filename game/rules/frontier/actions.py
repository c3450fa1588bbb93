"""Frontier's actions ("ACTIONS LIST" in the rulebook) as engine :class:`ActionDef`\\ s.

Each action says when it may be taken (``problem``), what it may be aimed at (``picks``) and what it does
(``apply``); its name, AP cost and kind ("simple" repeatable, "basic" once per activation, "major") come
from frontier.toml ``[actions]``. What every action shares — the AP, "the same Basic action cannot be
performed twice in the same Activation", a prone unit that must stand up first — is
:func:`common_problem`. Interpretations are in docs/RULES.md, section "Frontier".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from game.commands import Command
from game.engine.actions import EMPTY_PICKS, ActionBook, ActionDef, Picks
from game.engine.protocol import LegalAction
from game.events import ActionTaken, ItemTaken, Note, StatusChanged
from game.hexgrid import Hex, hex_distance
from game.rules.frontier import state as st
from game.rules.frontier.components import FrontierTask, Weapon
from game.rules.frontier.context import FrontierCtx, charge_roll

__all__ = ["CHARGE_DIE", "build_actions", "common_problem", "explain", "label", "target_problem"]

CHARGE_DIE = 4  # "Charge - The Unit ... may move its full movement + 1d4""
PRONE_BLOCKS = ("move", "charge", "melee", "disengage")

Def = ActionDef


def label(ctx: FrontierCtx, unit: int, action: str) -> str:
    """The action's button words: "Shoot (Revolver)", "Melee (Fists)", "Leader Action: Follow Me!"."""
    name = ctx.data.actions[action].name
    if action in ("shoot", "reload"):
        return f"{name} ({ctx.weapon(unit).name})"
    if action == "melee":
        return f"{name} ({ctx.melee_weapon(unit).name})"
    if action == "leader_action" and (ability := st.leader_ability(unit)) is not None:
        return f"{name}: {ctx.data.abilities[ability.ability].name}"
    return name


class _Words:
    """An action's label, worked out only when a problem message needs it (what-if odds ask often)."""

    __slots__ = ("action", "ctx", "unit")

    def __init__(self, ctx: FrontierCtx, unit: int, action: str) -> None:
        self.ctx, self.unit, self.action = ctx, unit, action

    def __str__(self) -> str:
        return label(self.ctx, self.unit, self.action)


def common_problem(ctx: FrontierCtx, definition: ActionDef[FrontierCtx], unit: int) -> str | None:
    """What stops any action: the AP it costs, a Basic action taken already, being prone."""
    action = definition.id
    info = ctx.data.actions[action]
    if info.kind == "free":
        return None
    words = _Words(ctx, unit, action)
    points = st.ap(unit).current
    if points < info.cost:
        return f"{words}: needs {info.cost} AP, the unit has {points}"
    if info.kind == "basic" and action in st.activation(unit).basic_used:
        verb = {"shoot": "already shot", "melee": "already fought"}.get(action, "already done")
        return f"{words}: {verb} this activation"
    if action in PRONE_BLOCKS and st.status(unit).prone:
        return f"{words}: the unit is prone; Stand Up first"
    return None


def known_target_problem(ctx: FrontierCtx, unit: int, action: str, target: int) -> str | None:
    """Why ``target`` (known to be a unit of this match) is not a valid target of ``action`` (shoot, melee,
    coup de grace), or None."""
    fault = target_fault(ctx, unit, action, target)
    if fault is None:
        return None
    words, name = _Words(ctx, unit, action), st.name_of(target)
    if fault == "range":
        here, there = st.hex_of(unit), st.hex_of(target)
        assert here is not None and there is not None
        weapon = ctx.weapon(unit)
        return (
            f'{words}: {name} is {hex_distance(here, there)}" away, beyond the '
            f"{weapon.name}'s long range ({weapon.long_range}\")"
        )
    return f"{words}: {name} {_FAULTS[fault]}" if fault != "self" else f"{words}: a unit cannot target itself"


_FAULTS = {
    "off": "is not on the field",
    "friend": "is not hostile",
    "not_injured": "is not Seriously Injured",
    "not_near": 'is not within 1"',
    "unseen": "is not in sight",
    "injured": "is Seriously Injured (Coup de Grace instead)",
}


def target_fault(ctx: FrontierCtx, unit: int, action: str, target: int) -> str | None:
    """The first check ``target`` (known to be a unit) fails as a target of ``action``, as a key of
    :func:`known_target_problem`'s words ("range", "self", ...), or None: the checks without the words (a
    unit's legal actions ask them of every unit)."""
    if not st.in_play(target) or st.hex_of(target) is None:
        return "off"
    if target == unit:
        return "self"
    if st.side_of(target) == st.side_of(unit):
        return "friend"
    here, there = st.hex_of(unit), st.hex_of(target)
    assert here is not None and there is not None
    dist = hex_distance(here, there)
    if action == "coup_de_grace":
        # "Pick a seriously injured Unit within 1" and in sight of the Unit taking the action."
        if not st.seriously_injured(target):
            return "not_injured"
        if dist > 1:
            return "not_near"
        if not ctx.battlefield.line_of_sight(here, there):
            return "unseen"
        return None
    if st.seriously_injured(target):
        return "injured"
    if action == "shoot":
        # "if the target is outside of the weapon's Long Range then they cannot be targeted"
        if dist > ctx.weapon(unit).long_range:
            return "range"
        # docs/RULES.md Frontier 26a (Hexslinger's own): a shot needs line of sight
        if not ctx.battlefield.line_of_sight(here, there):
            return "unseen"
        return None
    if action == "melee" and dist > 1:
        return "not_near"
    return None


def target_problem(ctx: FrontierCtx, unit: int, action: str, target: int | None) -> str | None:
    """:func:`known_target_problem` for any id a command may hold."""
    words = _Words(ctx, unit, action)  # the words only when there is a problem to word
    if target is None:
        return f"{words}: pick a target"
    if not ctx.is_unit(target):
        return f"{words}: there is no unit {target}"
    return known_target_problem(ctx, unit, action, target)


# == Simple actions ================================================================================


def _move_picks(ctx: FrontierCtx, unit: int, option: str) -> Picks:
    tree = ctx.reach_tree(unit).within(ctx.stats(unit).move)
    return Picks(hexes=tree.ends(), paths=tree)


def _walk(ctx: FrontierCtx, unit: int, path: tuple[Hex, ...]) -> None:
    steps = list(path)
    if steps and steps[0] == st.hex_of(unit):
        steps = steps[1:]
    ctx.game.stack.append(FrontierTask("walk", unit, steps=steps))


def _move(ctx: FrontierCtx, unit: int, cmd: Command) -> None:
    _walk(ctx, unit, cmd.path)


def _reload_problem(ctx: FrontierCtx, unit: int, option: str) -> str | None:
    weapon = ctx.weapon(unit)
    words = _Words(ctx, unit, "reload")
    if weapon.ammo is None:
        return f"{words}: the {weapon.name} has no ammunition to reload"
    if st.comp(unit, Weapon).ammo == weapon.ammo:
        return f"{words}: {weapon.name} is full"
    return None


def _no_ammunition(ctx: FrontierCtx, unit: int) -> bool:
    return ctx.weapon(unit).ammo is None


def _reload(ctx: FrontierCtx, unit: int, cmd: Command) -> None:
    weapon = ctx.weapon(unit)
    st.comp(unit, Weapon).ammo = weapon.ammo
    ctx.emit(ActionTaken(ctx.round, unit, "reload", option=weapon.id))


def _coup_picks(ctx: FrontierCtx, unit: int, option: str) -> Picks:
    return Picks(targets=tuple(t for t in ctx.units() if target_fault(ctx, unit, "coup_de_grace", t) is None))


def _coup(ctx: FrontierCtx, unit: int, cmd: Command) -> None:
    assert cmd.target is not None
    ctx.emit(ActionTaken(ctx.round, unit, "coup_de_grace", target=cmd.target))
    # "That Unit immediately is taken Out Of Action."
    ctx.remove(cmd.target, "out_of_action")


def _door_picks(ctx: FrontierCtx, unit: int, option: str) -> Picks:
    bf = ctx.battlefield
    near = [h for h in bf.hexes_within(ctx.here(unit), 1) if h in bf.doors] if bf.doors else []
    if not near:
        return EMPTY_PICKS
    occupied = ctx.occupied()
    return Picks(hexes=tuple(h for h in near if not (bf.doors[h].is_open and h in occupied)))


def _operate_door(ctx: FrontierCtx, unit: int, cmd: Command) -> None:
    assert cmd.hex is not None
    door = ctx.battlefield.door_at(cmd.hex)
    assert door is not None
    was_open = door.is_open
    ctx.battlefield.set_door(cmd.hex, not was_open)
    ctx.emit(ActionTaken(ctx.round, unit, "close_door" if was_open else "open_door", hex=cmd.hex))


def _item_names_near(ctx: FrontierCtx, unit: int) -> list[str]:
    here = ctx.here(unit)
    return sorted({item.name for _, item in st.items_on_map(ctx.match) if hex_distance(item.hex, here) <= 1})


def _take_item_picks(ctx: FrontierCtx, unit: int, option: str) -> Picks:
    here = ctx.here(unit)
    hexes = sorted(
        {
            item.hex
            for _, item in st.items_on_map(ctx.match)
            if item.name == option and hex_distance(item.hex, here) <= 1
        }
    )
    return Picks(hexes=tuple(hexes))


def _take_item(ctx: FrontierCtx, unit: int, cmd: Command) -> None:
    assert cmd.hex is not None
    for _, item in st.items_on_map(ctx.match):
        if item.hex == cmd.hex and item.name == cmd.option:
            item.taken_by = st.side_of(unit)
            inv = st.inventory(ctx.match, item.taken_by)
            assert inv is not None
            inv.items.append(item.name)
            ctx.emit(ItemTaken(ctx.round, unit, item.name, cmd.hex))
            return


# == Basic actions =================================================================================


def _shoot_problem(ctx: FrontierCtx, unit: int, option: str) -> str | None:
    weapon = ctx.weapon(unit)
    words = _Words(ctx, unit, "shoot")
    if _no_ranged_weapon(ctx, unit):
        return f"{words}: the unit has no ranged weapon"
    if st.status(unit).taking_cover:
        return f"{words}: a unit taking cover cannot shoot"
    if st.empty(unit):
        return f"{words}: the {weapon.name} is empty; Reload first"
    return None


def _shoot_picks(ctx: FrontierCtx, unit: int, option: str) -> Picks:
    return Picks(targets=tuple(t for t in ctx.hostiles(unit) if target_fault(ctx, unit, "shoot", t) is None))


def _shoot(ctx: FrontierCtx, unit: int, cmd: Command) -> None:
    assert cmd.target is not None
    wstate = st.comp(unit, Weapon)
    if wstate.ammo is not None:
        wstate.ammo -= 1
    ctx.emit(ActionTaken(ctx.round, unit, "shoot", target=cmd.target, option=wstate.weapon))
    ctx.attack(unit, cmd.target, ctx.weapon(unit))


def _no_ranged_weapon(ctx: FrontierCtx, unit: int) -> bool:
    """Shoot and Aim are never the unit's (a Frontier unit keeps the one weapon it was built with)."""
    return not ctx.weapon(unit).is_ranged or ctx.stats(unit).ballistics is None


def _aim_problem(ctx: FrontierCtx, unit: int, option: str) -> str | None:
    words = _Words(ctx, unit, "aim")
    if not ctx.weapon(unit).is_ranged:
        return f"{words}: the unit has no ranged weapon"
    if "shoot" in st.activation(unit).basic_used:
        return f"{words}: already shot this activation"
    return None


def _aim(ctx: FrontierCtx, unit: int, cmd: Command) -> None:
    st.activation(unit).aimed = True
    ctx.emit(ActionTaken(ctx.round, unit, "aim"))


def _melee_picks(ctx: FrontierCtx, unit: int, option: str) -> Picks:
    return Picks(targets=tuple(ctx.engaged(unit)))


def _melee(ctx: FrontierCtx, unit: int, cmd: Command) -> None:
    assert cmd.target is not None
    ctx.emit(ActionTaken(ctx.round, unit, "melee", target=cmd.target))
    ctx.attack(unit, cmd.target, ctx.melee_weapon(unit))


def _disengage_problem(ctx: FrontierCtx, unit: int, option: str) -> str | None:
    if not ctx.engaged(unit):
        return f"{label(ctx, unit, 'disengage')}: not in close combat"
    return None


def _disengage(ctx: FrontierCtx, unit: int, cmd: Command) -> None:
    st.activation(unit).disengaged = True
    ctx.emit(ActionTaken(ctx.round, unit, "disengage"))


def _take_cover_problem(ctx: FrontierCtx, unit: int, option: str) -> str | None:
    words = _Words(ctx, unit, "take_cover")
    if st.status(unit).taking_cover:
        return f"{words}: already taking cover"
    if not ctx.behind_cover(unit):
        return f"{words}: no half or total cover here"
    return None


def _take_cover(ctx: FrontierCtx, unit: int, cmd: Command) -> None:
    st.status(unit).taking_cover = True
    ctx.emit(ActionTaken(ctx.round, unit, "take_cover"))
    ctx.emit(StatusChanged(ctx.round, unit, "taking_cover", True))


def _stand_up_problem(ctx: FrontierCtx, unit: int, option: str) -> str | None:
    if not st.status(unit).prone:
        return f"{label(ctx, unit, 'stand_up')}: the unit is not prone"
    return None


def _stand_up(ctx: FrontierCtx, unit: int, cmd: Command) -> None:
    st.status(unit).prone = False
    ctx.emit(ActionTaken(ctx.round, unit, "stand_up"))
    ctx.emit(StatusChanged(ctx.round, unit, "prone", False))


def item_targets(ctx: FrontierCtx, unit: int, name: str) -> list[int]:
    """Who an item may be used on: a Seriously Injured ally in play within the item's range."""
    item = ctx.data.item_by_name(name)
    if item is None:
        return []
    return [
        a
        for a in ctx.allies(unit)
        if st.seriously_injured(a) and st.in_play(a) and st.distance(unit, a) <= item.range
    ]


def _use_item_options(ctx: FrontierCtx, unit: int) -> list[str]:
    """One Use Item per kind of item in the posse inventory (its name), in name order."""
    inv = st.inventory(ctx.match, st.side_of(unit))
    return sorted(set(inv.items)) if inv is not None and inv.items else [""]


def _use_item_problem(ctx: FrontierCtx, unit: int, option: str) -> str | None:
    if not option:
        return f"{label(ctx, unit, 'use_item')}: nothing usable in the posse inventory"
    item = ctx.data.item_by_name(option)
    if item is None:
        return f"Use Item: {option} has no use in Frontier"
    if not item_targets(ctx, unit, option):
        return f'Use Item: no Seriously Injured ally within {item.range}" to revive'
    return None


def _use_item_picks(ctx: FrontierCtx, unit: int, option: str) -> Picks:
    return Picks(targets=tuple(item_targets(ctx, unit, option)))


def _use_item(ctx: FrontierCtx, unit: int, cmd: Command) -> None:
    rnd = ctx.round
    inv = st.inventory(ctx.match, st.side_of(unit))
    item = ctx.data.item_by_name(cmd.option)
    assert inv is not None and item is not None and cmd.target is not None
    inv.items.remove(cmd.option)
    ctx.emit(ActionTaken(rnd, unit, "use_item", target=cmd.target, option=cmd.option))
    # "Seriously Injured Units can be revived with items such as Smelling Salts and considered Wounded."
    target = cmd.target
    st.health(target).wounds = item.restores
    status = st.status(target)
    status.seriously_injured = False
    status.wounded = True
    ctx.emit(StatusChanged(rnd, target, "seriously_injured", False))


# == Major actions =================================================================================


def _leader_problem(ctx: FrontierCtx, unit: int, option: str) -> str | None:
    words = _Words(ctx, unit, "leader_action")
    ability = st.leader_ability(unit)
    if ability is None:
        return f"{words}: only a Leader with a Leader Ability can"
    if ctx.round < ability.ready_round:
        return f"{words}: recharging until round {ability.ready_round}"
    if ability.ability == "dastardly" and st.health(unit).temporary > 0:
        return f"{words}: the temporary wound is still there"
    return None


def _no_leader_ability(ctx: FrontierCtx, unit: int) -> bool:
    return st.leader_ability(unit) is None


def _leader_needs(ctx: FrontierCtx, unit: int, option: str) -> str:
    """Follow Me! names the units it helps; Dastardly needs nothing."""
    ability = st.leader_ability(unit)
    return "targets" if ability is not None and ability.ability == "follow_me" else ""


def _leader_picks(ctx: FrontierCtx, unit: int, option: str) -> Picks:
    ability = st.leader_ability(unit)
    if ability is None or ability.ability != "follow_me":
        return EMPTY_PICKS
    info = ctx.data.abilities["follow_me"]
    targets = tuple(a for a in ctx.allies(unit) if st.able(a) and st.distance(unit, a) <= info.range)
    return Picks(targets=targets, max_picks=info.max_targets)


def _leader_action(ctx: FrontierCtx, unit: int, cmd: Command) -> None:
    ability = st.leader_ability(unit)
    assert ability is not None
    info = ctx.data.abilities[ability.ability]
    rnd = ctx.round
    # "Recharge time. This is the number of Action Phases you must wait until you can utilise that
    # ability again." Used in round N: rounds N+1 .. N+recharge are waited, ready in N+recharge+1.
    ability.ready_round = rnd + info.recharge + 1
    if ability.ability == "follow_me":
        ctx.emit(ActionTaken(rnd, unit, "follow_me", option=info.name))
        for t in cmd.targets:
            # "Units chosen this way gain 1 additional AP each in the next Action Phase."
            st.ap(t).bonus_next += info.extra_ap
            ctx.emit(Note(rnd, t, f"Follow Me!: +{info.extra_ap} AP next Action Phase"))
    elif ability.ability == "dastardly":
        # "The Gang Leader gains a temporary wound. The next time they take damage this wound is lost
        # first"
        st.health(unit).temporary = info.temporary_wounds
        ctx.emit(ActionTaken(rnd, unit, "dastardly", option=info.name))
        ctx.emit(StatusChanged(rnd, unit, "dastardly", True))


def _charge_picks(ctx: FrontierCtx, unit: int, option: str) -> Picks:
    """ "may move its full movement + 1d4"": any hex within Move + 4 (the most the d4 can give). Naming a
    target is optional: a hostile unit the charge could end within 1" of may be named, and it is attacked
    if the charge does end within 1" of it, else the likeliest hit of those it ends next to
    (docs/RULES.md 16)."""
    tree = ctx.reach_tree(unit).within(ctx.stats(unit).move + CHARGE_DIE)
    reaches = tree.reaches
    neighbors = ctx.battlefield.neighbors
    targets = []
    for t in ctx.hostiles(unit):
        there = st.hex_of(t)
        assert there is not None
        if any(reaches(h) for h in (there, *neighbors(there))):
            targets.append(t)
    return Picks(targets=tuple(targets), hexes=tree.ends(), paths=tree)


def explain(ctx: FrontierCtx, action: LegalAction, cmd: Command) -> str | None:
    """Why a target a command names is not among those offered, in the rules' words (for validate)."""
    unit = cmd.actor
    assert ctx.book is not None
    definition = ctx.book[cmd.action]
    if common_problem(ctx, definition, unit) or definition.problem(ctx, unit, cmd.option):
        return None  # the action itself is not possible: its own reason stands
    if cmd.action == "charge" and cmd.target is not None:
        if target_problem(ctx, unit, "charge", cmd.target) is None:
            return f'{action.label}: {st.name_of(cmd.target)} is out of reach (no end within 1" of it)'
        return target_problem(ctx, unit, "charge", cmd.target)
    if cmd.action in ("shoot", "melee", "coup_de_grace") and cmd.target is not None:
        return target_problem(ctx, unit, cmd.action, cmd.target)
    if cmd.action == "leader_action" and cmd.targets:
        info = ctx.data.abilities["follow_me"]
        words = _Words(ctx, unit, "leader_action")
        if not 1 <= len(cmd.targets) <= info.max_targets:
            return f"{words}: choose 1 to {info.max_targets} other units"
        if len(set(cmd.targets)) != len(cmd.targets):
            return f"{words}: a unit is chosen twice"
        for t in cmd.targets:
            if t not in action.targets:
                return f'{words}: unit {t} is not an able ally within {info.range}"'
    if cmd.action == "use_item" and cmd.target is not None and cmd.target not in action.targets:
        item = ctx.data.item_by_name(cmd.option)
        reach_words = f'{item.range}"' if item is not None else '1"'
        return f"{label(ctx, unit, 'use_item')}: pick a Seriously Injured ally within {reach_words}"
    return None


def _charge(ctx: FrontierCtx, unit: int, cmd: Command) -> None:
    budget = charge_roll(ctx, unit, CHARGE_DIE, cmd.target)
    steps: list[Hex] = []
    spent = 0
    start = st.hex_of(unit)
    for step in cmd.path:
        if step == start and not steps:
            continue
        c = ctx.battlefield.move_cost(step)
        assert c is not None
        if spent + c > budget:
            break
        spent += c
        steps.append(step)
    stack = ctx.game.stack
    # the attack waits under the walk: "If they finish their movement within 1" of ..."
    stack.append(FrontierTask("charge_attack", unit, target=cmd.target or 0))
    stack.append(FrontierTask("walk", unit, steps=steps))


def _end_activation(ctx: FrontierCtx, unit: int, cmd: Command) -> None:
    """Carried out by the ruleset (it ends the activation and moves the round on)."""


def _label_of(action: str) -> Callable[[FrontierCtx, int, str], str]:
    def words(ctx: FrontierCtx, unit: int, option: str) -> str:
        return label(ctx, unit, action)

    return words


def _cost_of(action: str) -> Callable[[FrontierCtx, int, str], int]:
    def cost(ctx: FrontierCtx, unit: int, option: str) -> int:
        return ctx.data.actions[action].cost

    return cost


def _take_item_options(ctx: FrontierCtx, unit: int) -> list[str]:
    return _item_names_near(ctx, unit) or [""]


def _no_item_near(ctx: FrontierCtx, unit: int, option: str) -> str | None:
    return None if option else f'{label(ctx, unit, "take_item")}: no item within 1"'


ATTACK = frozenset({"attack"})
MOVES = frozenset({"moves"})


def build_actions() -> ActionBook[FrontierCtx]:
    """Every Frontier action, in the rulebook's list order (the action bar's order)."""
    book: ActionBook[FrontierCtx] = ActionBook()

    def add(definition: ActionDef[FrontierCtx]) -> None:
        book.add(replace(definition, label=_label_of(definition.id), cost=_cost_of(definition.id)))

    # Simple Actions - 1AP (Repeatable)
    add(Def("move", "path", picks=_move_picks, no_picks="nowhere to move", apply=_move, tags=MOVES))
    add(Def("reload", problem=_reload_problem, apply=_reload, never=_no_ammunition))
    add(
        Def(
            "coup_de_grace",
            "target",
            picks=_coup_picks,
            apply=_coup,
            no_picks='no Seriously Injured hostile unit within 1" and in sight',
        )
    )
    add(Def("operate_door", "hex", picks=_door_picks, apply=_operate_door, no_picks='no door within 1"'))
    add(
        Def(
            "take_item",
            "hex",
            options=_take_item_options,
            problem=_no_item_near,
            picks=_take_item_picks,
            apply=_take_item,
            no_picks='no item within 1"',
        )
    )
    # Basic Actions - 1AP (Non-Repeatable)
    add(
        Def(
            "shoot",
            "target",
            problem=_shoot_problem,
            picks=_shoot_picks,
            apply=_shoot,
            never=_no_ranged_weapon,
            no_picks="no hostile unit in sight and in range",
            tags=ATTACK,
        )
    )
    add(Def("aim", problem=_aim_problem, apply=_aim, never=_no_ranged_weapon))
    add(
        Def(
            "melee",
            "target",
            picks=_melee_picks,
            apply=_melee,
            no_picks='no hostile unit within 1"',
            tags=ATTACK,
        )
    )
    add(Def("disengage", problem=_disengage_problem, apply=_disengage))
    add(Def("take_cover", problem=_take_cover_problem, apply=_take_cover))
    add(Def("stand_up", problem=_stand_up_problem, apply=_stand_up))
    add(
        Def(
            "use_item",
            "target",
            options=_use_item_options,
            problem=_use_item_problem,
            picks=_use_item_picks,
            apply=_use_item,
            no_picks="nothing usable in the posse inventory",
        )
    )
    # Major Actions - 2AP
    add(
        Def(
            "leader_action",
            needs_for=_leader_needs,
            problem=_leader_problem,
            picks=_leader_picks,
            apply=_leader_action,
            never=_no_leader_ability,
            no_picks="no other able unit of the posse within range",
        )
    )
    add(
        Def(
            "charge",
            "path",
            picks=_charge_picks,
            apply=_charge,
            no_picks="nowhere to move",
            tags=ATTACK | MOVES,
        )
    )
    add(Def("end_activation", apply=_end_activation, ends_turn=True))
    return book
