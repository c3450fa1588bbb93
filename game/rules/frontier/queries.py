"""Frontier's answers to the questions an AI asks of a position (game.engine.facts): a unit's sheet as
numbers, the odds of an attack from and at other hexes, where a unit could walk, what a walk would set
off, how likely a charge reaches, and who may break at the End phase. All read-only: a what-if moves
units for the question and puts them back before it returns."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from itertools import pairwise

import esper

from game.battlefield import Cover
from game.commands import Command
from game.components import Identity, Position
from game.dice import d
from game.engine.facts import Odds, PathReaction, StatusFacts, UnitFacts, WeaponFacts
from game.engine.movement import PathTree, reach
from game.engine.protocol import AttackPreview
from game.engine.world import set_aside
from game.hexgrid import Hex, hex_distance
from game.rules.frontier import state as st
from game.rules.frontier.actions import CHARGE_DIE, common_problem
from game.rules.frontier.combat import check_chance
from game.rules.frontier.components import FrontierUnit, Weapon
from game.rules.frontier.context import FrontierCtx, preview_of
from game.rules.frontier.data import WeaponData
from game.rules.frontier.endphase import cool_check_modifiers, cool_checks_due
from game.rules.frontier.rounds import opportunity_attackers

__all__ = [
    "SUPPOSED",
    "charge_reach_chance",
    "morale_risk",
    "movement",
    "odds",
    "path_reactions",
    "suppose",
    "unit_facts",
    "what_if",
]

HELPS = {"taking_cover": True, "dastardly": True}  # the other statuses hinder (prone, wounded, ...)
# the actions whose whole effect is on their actor's own components (and its AP): no walk, no roll, no card
SUPPOSED = frozenset({"aim", "disengage", "reload", "take_cover"})


def unit_facts(ctx: FrontierCtx, unit: int) -> UnitFacts:
    stats = ctx.stats(unit)
    hp = st.health(unit)
    status = st.status(unit)
    weapon = ctx.weapon(unit)
    ammo = st.comp(unit, Weapon).ammo
    weapons = _weapon_facts(ctx, unit, weapon, ammo=ammo, ballistics=stats.ballistics, melee=stats.melee)
    statuses = [
        StatusFacts(s, HELPS.get(s, False))
        for s in ("prone", "wounded", "taking_cover")
        if getattr(status, s)
    ]
    if hp.temporary:
        statuses.append(StatusFacts("dastardly", True))
    act = st.activation(unit)
    ap = st.ap(unit)
    inv = st.inventory(ctx.match, st.side_of(unit))
    return UnitFacts(
        unit=unit,
        side=st.side_of(unit),
        kind=stats.id,
        position=st.hex_of(unit),
        health=(hp.toughness + hp.wounds + hp.temporary, stats.toughness + stats.wounds + hp.temporary),
        health_parts=(("Toughness", hp.toughness, stats.toughness), ("Wounds", hp.wounds, stats.wounds)),
        action_points=(ap.current, ap.per_activation + ap.bonus_next),
        move=stats.move,
        weapons=weapons,
        statuses=tuple(statuses),
        leader=stats.leader,
        acted=act.activated,
        fights=st.able(unit),
        items=tuple(inv.items) if inv is not None else (),
        value=3.0 if stats.leader else 1.0,
        # Charge: "may move its full movement + 1d4" (any unit: a melee weapon or fists)
        charge=d(CHARGE_DIE),
    )


def _weapon_facts(
    ctx: FrontierCtx,
    unit: int,
    weapon: WeaponData,
    *,
    ammo: int | None,
    ballistics: int | None,
    melee: int | None,
) -> tuple[WeaponFacts, ...]:
    """A unit's weapons as numbers: what it carries and, with a gun, its fists. Made once for each weapon,
    shots left and skills (every unit's facts are asked at every decision: a few such sets a game)."""
    key = (id(weapon), ammo, ballistics, melee)
    found = _WEAPON_FACTS.get(key)
    if found is not None and found[0] is weapon:
        return found[1]
    skill = ballistics if weapon.is_ranged else melee
    facts = [
        WeaponFacts(
            weapon.id,
            weapon.name,
            "ranged" if weapon.is_ranged else "melee",
            weapon.long_range,
            weapon.short_range,
            ammo,
            weapon.ammo,
            f"1d6 vs {skill}+, {weapon.damage} damage",
            action="shoot" if weapon.is_ranged else "melee",
        )
    ]
    if weapon.is_ranged:
        fists = ctx.melee_weapon(unit)
        facts.append(
            WeaponFacts(fists.id, fists.name, "melee", 1, 1, None, None, f"1d6 vs {melee}+", action="melee")
        )
    if len(_WEAPON_FACTS) >= 256:
        _WEAPON_FACTS.clear()
    _WEAPON_FACTS[key] = (weapon, tuple(facts))
    return tuple(facts)


_WEAPON_FACTS: dict[
    tuple[int, int | None, int | None, int | None], tuple[WeaponData, tuple[WeaponFacts, ...]]
] = {}


@contextmanager
def _moved(ctx: FrontierCtx, moves: dict[int, Hex | None]) -> Iterator[None]:
    """Put units where a question supposes them; always back where they were afterwards."""
    before = {u: st.comp(u, Position).hex for u in moves}
    try:
        for u, h in moves.items():
            if h is not None:
                st.comp(u, Position).hex = h
        yield
    finally:
        for u, h in before.items():
            st.comp(u, Position).hex = h


def what_if(ctx: FrontierCtx, cmd: Command, from_hex: Hex | None, at_hex: Hex | None) -> AttackPreview | None:
    """The exact odds of the attack ``cmd`` (shoot, melee, charge's attack) were the attacker at
    ``from_hex`` and the target at ``at_hex`` (None: where they are); None where it would be illegal
    there (out of range, out of sight, not within 1", a Seriously Injured target). With both None it is
    the preview. (The AI asks this thousands of times a game: the units are put where the question
    supposes them by hand, not through :func:`_moved`, and the target, known to be a unit, is checked
    once.)"""
    pair = _attack_pair(cmd)
    if pair is None:
        return None
    unit, target = pair
    action = cmd.action
    mine, theirs = st.comp(unit, Position), st.comp(target, Position)
    here, there = mine.hex, theirs.hex  # put back however the question ends (Supposed, by hand)
    a = mine.hex = from_hex if from_hex is not None else here
    b = theirs.hex = at_hex if at_hex is not None else there
    # a target supposed elsewhere got there by moving, and moving ends Take Cover (docs/RULES.md, Frontier 5)
    status = st.status(target)
    covered = status.taking_cover
    if covered and b != there:
        status.taking_cover = False
    try:
        if a is None or b is None:
            return None
        if action == "shoot":
            weapon = ctx.weapon(unit)
            if not weapon.is_ranged or st.empty(unit):  # an empty gun fires from nowhere
                return None
            if not _may_attack(ctx, unit, target, a, b, shot=weapon.long_range):
                return None
            return ctx.preview(unit, target, weapon)
        if not _may_attack(ctx, unit, target, a, b, shot=None):
            return None
        return ctx.preview(unit, target, ctx.melee_weapon(unit))
    finally:
        mine.hex, theirs.hex = here, there
        status.taking_cover = covered


def _attack_pair(cmd: Command) -> tuple[int, int] | None:
    """The attacker and the target of an attack command (shoot, melee, charge) naming two units."""
    unit, target = cmd.actor, cmd.target
    if target is None or cmd.action not in ("shoot", "melee", "charge"):
        return None
    if not (_is_unit(unit) and _is_unit(target)):
        return None
    return unit, target


def _never(from_hex: Hex | None = None, at_hex: Hex | None = None) -> AttackPreview | None:
    return None


def odds(ctx: FrontierCtx, cmd: Command) -> Odds:
    """:func:`what_if` of the attack ``cmd`` at any hexes (``ask(from_hex, at_hex)``), with all that does
    not depend on the hexes read once: the units, the weapon, the attacker's skill and Aim, the target's
    statuses and health. The same answers as :func:`what_if` while the match stays as it is (the AI asks
    one attack's odds from and at many hexes in a decision)."""
    pair = _attack_pair(cmd)
    if pair is None:
        return _never
    unit, target = pair
    action = cmd.action
    # _may_attack's checks of the units (they do not depend on where the units stand)
    if not st.in_play(target) or target == unit or st.side_of(target) == st.side_of(unit):
        return _never
    if st.seriously_injured(target):
        return _never
    weapon = ctx.weapon(unit) if action == "shoot" else ctx.melee_weapon(unit)
    ranged = weapon.is_ranged
    if action == "shoot" and (not ranged or st.empty(unit)):  # an empty gun fires from nowhere
        return _never
    reach = weapon.long_range if ranged else 1
    stats = ctx.stats(unit)
    skill = stats.ballistics if ranged else stats.melee
    hp, status = st.health(target), st.status(target)
    aimed = ranged and st.activation(unit).aimed
    here, there = st.hex_of(unit), st.hex_of(target)
    skill = skill if skill is not None else 7
    prone, cover_taken = status.prone, status.taking_cover
    toughness, wounds, temporary = hp.toughness, hp.wounds, hp.temporary
    bf = ctx.battlefield
    none = Cover.NONE

    def ask(from_hex: Hex | None = None, at_hex: Hex | None = None) -> AttackPreview | None:
        a = from_hex if from_hex is not None else here
        b = at_hex if at_hex is not None else there
        if a is None or b is None:
            return None
        dist = hex_distance(a, b)
        if dist > reach or (ranged and not bf.line_of_sight(a, b)):
            return None
        cover = bf.cover_between(a, b) if ranged else none
        # a target supposed elsewhere got there by moving, which ends Take Cover (docs/RULES.md, Frontier 5)
        taken = cover_taken and b == there
        parts = (skill, dist, cover, aimed, prone, taken, toughness, wounds, temporary)
        return preview_of(weapon, parts)

    return ask


def _is_unit(entity: object) -> bool:
    """``FrontierCtx.is_unit`` in one call (a what-if asks it of both units, thousands of times a game)."""
    return (
        isinstance(entity, int)
        and not isinstance(entity, bool)
        and esper.entity_exists(entity)
        and esper.has_component(entity, Identity)
        and esper.has_component(entity, FrontierUnit)
    )


def _may_attack(ctx: FrontierCtx, unit: int, target: int, a: Hex, b: Hex, *, shot: int | None) -> bool:
    """``known_target_problem(...) is None`` for a shot (``shot``: the weapon's long range) or a blow
    (``shot`` None) of ``unit`` at ``a`` on ``target`` at ``b``, without wording a problem: the same
    checks in the same order (a what-if asks this thousands of times a game)."""
    if not st.in_play(target) or target == unit or st.side_of(target) == st.side_of(unit):
        return False
    if st.seriously_injured(target):  # Coup de Grace instead
        return False
    dist = hex_distance(a, b)
    if shot is None:
        return dist <= 1
    return dist <= shot and ctx.battlefield.line_of_sight(a, b)


def movement(ctx: FrontierCtx, unit: int, *, charge: bool = False) -> PathTree:
    """Where ``unit`` could walk with its Move (or, ``charge``, Move + 4: the most a charge's d4 adds),
    not through other units: cheapest costs and canonical paths."""
    budget = ctx.stats(unit).move + (CHARGE_DIE if charge else 0)
    return reach(ctx.battlefield, ctx.here(unit), budget, ctx.blocked(unit))


def path_reactions(ctx: FrontierCtx, unit: int, path: tuple[Hex, ...]) -> tuple[PathReaction, ...]:
    """The opportunity attacks walking ``path`` would provoke (each hostile once, where the walk leaves
    its reach), with the exact odds of each from where it stands at the unit's hex before the step."""
    here = st.hex_of(unit)
    if here is None:
        return ()
    steps = list(path[1:] if path and path[0] == here else path)
    # only a step that starts next to a hostile can leave close combat: most walks meet none
    side = st.side_of(unit)
    near = [  # where the hostiles stand (ctx.hostiles' units, in no particular order: one pass, no sort)
        (h.q, h.r)
        for u, ident in esper.get_component(Identity)
        if ident.side != side and st.able(u) and (h := st.hex_of(u)) is not None
    ]

    starts = (here, *steps[:-1])  # where each step starts
    # a hostile further from the walk's start than the walk goes (to its last step's start) and one more
    # is never next to a step's start: most walks meet none, and then no step is looked at
    walked = sum(hex_distance(a, b) for a, b in pairwise(starts))
    hq0, hr0 = here.q, here.r
    near = [
        (hq, hr)
        for hq, hr in near
        if (abs(hq - hq0) + abs(hr - hr0) + abs(hq - hq0 + hr - hr0)) // 2 <= walked + 1
    ]
    if not near:
        return ()

    def engaged(at: Hex) -> bool:  # within 1" of a hostile (asked of every walk the AI weighs: no set)
        q, r = at.q, at.r
        return any(abs(q - hq) + abs(r - hr) + abs(q - hq + r - hr) <= 2 for hq, hr in near)

    if not any(engaged(at) for at in starts):
        return ()
    done: list[int] = []
    out: list[PathReaction] = []
    at = here
    for index, step in enumerate(steps):
        if not engaged(at):
            at = step  # no hostile next to this step's start: it leaves no close combat
            continue
        with _moved(ctx, {unit: at}):
            for enemy in opportunity_attackers(ctx, unit, at, step, done):
                done.append(enemy)
                preview = ctx.preview(enemy, unit, ctx.melee_weapon(enemy))
                out.append(PathReaction(enemy, "opportunity attack", index, preview, at=at))
        at = step
    return tuple(out)


def charge_reach_chance(ctx: FrontierCtx, unit: int, path: tuple[Hex, ...]) -> Fraction:
    """How likely a charge along ``path`` gets to its end: Move + 1d4 against the path's cost."""
    here = st.hex_of(unit)
    if here is None:
        return Fraction(0)
    walk = [here, *(path[1:] if path and path[0] == here else path)]
    cost = ctx.battlefield.path_cost(walk)
    move = ctx.stats(unit).move
    return (d(CHARGE_DIE) + move).at_least(cost)


def morale_risk(ctx: FrontierCtx, side: str) -> dict[int, Fraction]:
    """How likely each unit of ``side`` still in the fight breaks at the next End phase as things stand:
    0 when no Cool check is due (docs/RULES.md "Cool checks")."""
    units = [u for u in ctx.units(side) if st.able(u)]
    if not cool_checks_due(ctx.match, side):
        return {u: Fraction(0) for u in units}
    out: dict[int, Fraction] = {}
    for u in units:
        mods = sum(v for _, v in cool_check_modifiers(ctx.match, ctx.data, u))
        out[u] = 1 - check_chance(ctx.stats(u).cool, mods)
    return out


def suppose(ctx: FrontierCtx, cmd: Command) -> Callable[[], None] | None:
    """Put the effect of ``cmd`` (Aim, Disengage, Reload or Take Cover of the active unit: actions that
    change their actor alone) in place on the match as :meth:`FrontierRuleset.apply` would leave the actor
    with its turn kept: the AP paid, a Basic action noted, the action's own effect; the function returned
    puts every component of the actor back as it was. None (nothing changed) where the command could not
    be taken now or is another action: try that one on a copy (``MatchView.sandbox``)."""
    unit = cmd.actor
    book = ctx.book
    if cmd.action not in SUPPOSED or book is None or not _is_unit(unit):
        return None
    game = ctx.game
    if game.result or game.phase != "action" or game.active != unit or game.stack:
        return None
    definition = book.get(cmd.action)
    if definition is None or definition.apply is None or definition.needs:
        return None
    if common_problem(ctx, definition, unit) is not None:
        return None
    if definition.problem is not None and definition.problem(ctx, unit, cmd.option) is not None:
        return None
    undo = set_aside(unit)
    info = ctx.data.actions[cmd.action]
    st.ap(unit).current -= info.cost  # as FrontierRuleset._act: pay, note a Basic action, carry it out
    if info.kind == "basic":
        st.activation(unit).basic_used.append(cmd.action)
    definition.apply(ctx, unit, cmd)
    if game.stack:  # it asked for a step to run on (none of these does): not supposed after all
        game.stack.clear()
        undo()
        return None
    return undo
