"""Golden Frontiers' answers to the questions an AI asks (game.engine.facts): a unit's sheet as numbers,
the exact odds of an attack from and at other hexes, where a unit could move. Read-only: a what-if moves
units for the question and puts them back. Golden Frontiers has no reactions and no morale."""

from __future__ import annotations

from fractions import Fraction

from game.commands import Command
from game.dice import Distribution
from game.engine.facts import Odds, StatusFacts, Supposed, UnitFacts, WeaponFacts
from game.engine.movement import PathTree
from game.engine.protocol import AttackPreview
from game.hexgrid import Hex, hex_distance
from game.rules.golden.context import GoldenCtx
from game.rules.golden.data import DieBand
from game.rules.golden.rules import (
    DAMAGE_NAMES,
    attack_odds,
    cripple_points,
    damage_distribution,
    deck_key,
    defence_die,
    graze_points,
)

__all__ = ["attack_preview", "movement", "odds", "unit_facts", "what_if"]


def unit_facts(ctx: GoldenCtx, unit: int) -> UnitFacts:
    sheet, health, arms, turn = ctx.sheet(unit), ctx.health(unit), ctx.arms(unit), ctx.turn(unit)
    per = ctx.data.damage.grazes_per_wound
    top = cripple_points(health.max_wounds, per)
    weapons = []
    for wid, loaded in zip(arms.weapons, arms.loaded, strict=True):
        w = ctx.weapon(wid)
        weapons.append(
            WeaponFacts(
                wid,
                w.name,
                "ranged" if w.is_ranged else "melee",
                w.reach,
                w.bands[0].reach if w.is_ranged else 1,
                loaded if w.is_ranged else None,
                w.ammo if w.is_ranged else None,
                " / ".join(b.label for b in w.bands) + " (aces)",
                action="attack",
                option=wid,
            )
        )
    statuses = []
    if health.crippled:
        statuses.append(StatusFacts("crippled", False))
    if turn.biding:
        statuses.append(StatusFacts("biding", True))
    if turn.waiting:
        statuses.append(StatusFacts("waiting", True))
    return UnitFacts(
        unit=unit,
        side=ctx.side(unit),
        kind=sheet.kind,
        position=ctx.pos(unit),
        health=(top - graze_points(health, per), top),
        health_parts=(
            ("Wounds", health.max_wounds - health.wounds, health.max_wounds),
            ("Grazes", per - 1 - health.grazes, per - 1),
        ),
        action_points=(1 if ctx.can_act(unit) else 0, 1),
        move=ctx.walk_left(unit) if ctx.fights(unit) else 0,
        weapons=tuple(weapons),
        statuses=tuple(statuses),
        acted=turn.done,
        fights=ctx.fights(unit),
        items=tuple(arms.gear),
        value=1.0 if sheet.npc else 1.5,
    )


def attack_preview(
    ctx: GoldenCtx, unit: int, target: int, weapon_id: str, moved: int
) -> AttackPreview | None:
    """The exact odds of ``unit`` attacking ``target`` with ``weapon_id`` from where both stand, having
    moved ``moved`` hexes this round; None where the attack is not possible (out of reach or sight, or
    the gun empty and its loading an action)."""
    weapon = ctx.weapon(weapon_id)
    if ctx.target_problem(unit, weapon, target) is not None or not ctx.can_fire(unit, weapon_id):
        return None
    a, b = ctx.here(unit), ctx.here(target)
    band = ctx.band_at(weapon, a, b)
    assert band is not None
    mods = ctx.attack_modifiers(unit, weapon, moved)
    dmods = ctx.defence_modifiers(target, weapon, a, b)
    return _preview_of(ctx, _Attack(weapon_id, target, ctx), band, mods, dmods)


class _Attack:
    """What an attack's odds read of the target and the deck, wherever the two units stand."""

    __slots__ = ("deck", "health", "reflexes", "spec", "weapon", "weapon_id")

    def __init__(self, weapon_id: str, target: int, ctx: GoldenCtx) -> None:
        self.weapon_id, self.weapon = weapon_id, ctx.weapon(weapon_id)
        self.health, self.reflexes = ctx.health(target), ctx.sheet(target).reflexes
        self.spec = ctx.deck.spec()
        self.deck = deck_key(ctx.data, ctx.deck, self.spec)


def _preview_of(
    ctx: GoldenCtx, attack: _Attack, band: DieBand, mods: list[tuple[str, int]], dmods: list[tuple[str, int]]
) -> AttackPreview:
    """The preview of ``attack`` at ``band`` with the attacker's modifiers ``mods`` and the target's
    ``dmods``; its odds kept by what they are made of."""
    data, health = ctx.data, attack.health
    defence = defence_die(data, attack.reflexes, sum(v for n, v in dmods if n != "Reflexes"))
    total = sum(v for _, v in mods)
    per = data.damage.grazes_per_wound
    scars = (health.max_wounds, health.grazes, health.wounds, health.crippled, health.dead)
    key = (attack.deck, attack.weapon_id, band, total, defence, scars, per)
    found = _ODDS.get(key)
    if found is None:  # the same attack on the same deck asked again (an AI weighs many places): once
        odds = attack_odds(data, attack.spec, ctx.deck, attack.weapon, band, total, defence)
        notes = (
            f"higher {_pct(odds.higher)} + tie \u2192 cards {_pct(odds.tie_share)}",
            "damage card: " + ", ".join(f"{DAMAGE_NAMES[k]} {_pct(p)}" for k, p in odds.damage.items()),
        )
        found = (odds.hit, damage_distribution(odds, health, per), notes)
        if len(_ODDS) >= 4096:
            _ODDS.clear()
        _ODDS[key] = found
    hit, damage, notes = found
    return AttackPreview(
        hit_chance=hit,
        damage=damage,
        modifiers=tuple(mods) + tuple((f"target {n}", -v) for n, v in dmods),
        target_number=None,
        notes=notes,
    )


_ODDS: dict[tuple[object, ...], tuple[Fraction, Distribution, tuple[str, str]]] = {}


def _pct(p: object) -> str:
    from fractions import Fraction  # noqa: PLC0415

    assert isinstance(p, Fraction)
    return f"{float(p) * 100:.1f}%"


def what_if(ctx: GoldenCtx, cmd: Command, from_hex: Hex | None, at_hex: Hex | None) -> AttackPreview | None:
    """The odds of the attack ``cmd`` were the attacker at ``from_hex`` and the target at ``at_hex``
    (None: where they are). Moving to ``from_hex`` counts as having moved (a shot after moving is harder)."""
    unit, target = cmd.actor, cmd.target
    if cmd.action != "attack" or target is None or not ctx.is_unit(unit) or not ctx.is_unit(target):
        return None
    if cmd.option not in ctx.arms(unit).weapons:
        return None
    moved = ctx.turn(unit).moved
    if from_hex is not None and from_hex != ctx.pos(unit):
        moved = max(moved, 1)
    # the units put where the question supposes them by hand (asked thousands of times a game), always
    # back where they were afterwards
    with Supposed(ctx.position(unit), ctx.position(target), from_hex, at_hex) as (a, b):
        if a is None or b is None:
            return None
        return attack_preview(ctx, unit, target, cmd.option, moved)


def odds(ctx: GoldenCtx, cmd: Command) -> Odds:
    """:func:`what_if` of the attack ``cmd`` at any hexes (``ask(from_hex, at_hex)``), with all that does
    not depend on where the two units stand read once: who may be attacked, the gun's load, the attacker's
    modifiers (having moved or not), the target's Reflexes and health, the deck. Each question is then the
    distance's band, the line of sight and the cover. The same answers as :func:`what_if` while the match
    stays as it is (the AI asks one attack's odds from and at many hexes in a decision)."""
    unit, target = cmd.actor, cmd.target
    if cmd.action != "attack" or target is None or not ctx.is_unit(unit) or not ctx.is_unit(target):
        return _never
    weapon_id = cmd.option
    if weapon_id not in ctx.arms(unit).weapons:
        return _never
    weapon = ctx.weapon(weapon_id)
    # target_problem's checks of the units (they do not depend on where the units stand), can_fire
    if not ctx.hostile(unit, target) or not ctx.fights(target) or not ctx.can_fire(unit, weapon_id):
        return _never
    attack = _Attack(weapon_id, target, ctx)
    here, there = ctx.pos(unit), ctx.pos(target)
    moved = ctx.turn(unit).moved
    # the attacker's modifiers where it stands, and elsewhere (moving there counts as having moved)
    staying, moving = (
        ctx.attack_modifiers(unit, weapon, moved),
        ctx.attack_modifiers(unit, weapon, max(moved, 1)),
    )
    reflexes = ctx.modifier(attack.reflexes)
    dodge = [("Reflexes", reflexes)] if reflexes else []
    ranged, bf = weapon.is_ranged, ctx.battlefield
    # the previews already made, by what is left to tell them apart: the band, having moved, the cover
    kept: dict[tuple[DieBand, bool, str], AttackPreview] = {}

    def ask(from_hex: Hex | None = None, at_hex: Hex | None = None) -> AttackPreview | None:
        a = from_hex if from_hex is not None else here
        b = at_hex if at_hex is not None else there
        if a is None or b is None:
            return None
        band = weapon.band(hex_distance(a, b))
        if band is None or (ranged and a != b and not bf.line_of_sight(a, b)):
            return None
        bonus, name = ctx.cover_bonus(weapon, a, b)
        moves = from_hex is not None and from_hex != here
        key = (band, moves, name)
        found = kept.get(key)
        if found is None:
            dmods = [*dodge, (name, bonus)] if bonus else dodge
            found = kept[key] = _preview_of(ctx, attack, band, moving if moves else staying, dmods)
        return found

    return ask


def _never(from_hex: Hex | None = None, at_hex: Hex | None = None) -> AttackPreview | None:
    return None


def movement(ctx: GoldenCtx, unit: int) -> PathTree:
    """Where the unit could walk with an ordinary move now (keeping its action if it has one; a run is
    the "run" action's own tree)."""
    return ctx.walks(unit)
