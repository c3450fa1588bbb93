"""An attack's dice and stress: "Roll shots, check shots versus threshold, assign shots to valid targets,
apply any multipliers, deal stress to targets".

The stages an attack goes through on the stack (a Nudge window, the roll, the hit assignment, a window
for "Duck!" and Dodge Roll, the stress) are run by :mod:`~game.rules.rift.rounds`; this module is what
each stage computes: the roll (:func:`roll`), who the hits may go to (:func:`assign_targets`), every
stress about to be dealt (:func:`blows`), what one shot meets at its target (:func:`shot_factors`:
cover, statuses, traits) and the stress dealt (:func:`deal`). The preview uses the same functions, so
its odds are the rules'. Interpretations: docs/RULES.md, "Through the Rift".
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import esper

from game.battlefield import Cover
from game.components import Position
from game.events import DamageTaken, Event, Note, Roll, StatusChanged
from game.hexgrid import DIRECTIONS, Hex, hex_distance
from game.rules.rift import state as st
from game.rules.rift.components import Shield, ShotRecord, Task
from game.rules.rift.context import RiftCtx
from game.rules.rift.data import WeaponData
from game.rules.rift.stress import NUDGE_BONUS, DiceTraits, apply_multipliers, effective_traits, roll_dice

__all__ = [
    "HALF",
    "Blow",
    "StressDealt",
    "all_round_cover",
    "assign_targets",
    "blows",
    "deal",
    "dice_traits",
    "endangered",
    "hit_values",
    "pierced",
    "resolve",
    "roll",
    "shot_factors",
    "sights_at",
]

HALF = Fraction(1, 2)
# (target, die value, the tile it comes from, extra named multipliers)
Blow = tuple[int, int, Hex, tuple[tuple[str, Fraction], ...]]


@dataclass(frozen=True, slots=True)
class StressDealt(Event):
    """One shot's stress on one unit: the die ``value``, every multiplier by name, what was dealt."""

    unit: int
    source: int
    value: int
    factors: tuple[tuple[str, Fraction], ...]
    amount: int
    prevented: str = ""  # why no stress was taken ("Duck!", "crouched behind cover", ...)


def hit_values(task: Task) -> tuple[int, ...]:
    """The values of an attack's successful dice, in die order (the ones its hit assignment names)."""
    return tuple(s.value for s in task.shots if s.hit)


def dice_traits(ctx: RiftCtx, unit: int, weapon: WeaponData, nudges: int) -> DiceTraits:
    traits = DiceTraits(nudge=nudges)
    for d in ctx.traits.of(st.combatant(unit).traits):
        if d.dice is not None:
            traits = d.dice(weapon, traits)
    return traits


def roll(ctx: RiftCtx, task: Task) -> None:
    rnd = ctx.round
    if task.mode == "covering_fire":
        # "deal a 1 stress shot against them": no dice
        task.shots = [ShotRecord(1, True, [])]
        return
    w = ctx.weapon(task.weapon)
    traits = dice_traits(ctx, task.unit, w, task.nudges) if not w.melee else DiceTraits()
    shots, dropped = roll_dice(ctx.rng, w.stats(), traits)
    task.shots = [ShotRecord(s.value, s.hit, list(s.rolls)) for s in shots]
    if any(len(s.rolls) > 1 for s in shots + dropped):
        # every face of each die (rerolls, explosions): the kept dice, then the dropped ones
        faces = ", ".join("→".join(map(str, s.rolls)) for s in shots + dropped)
        ctx.emit(Note(rnd, task.unit, f"faces per die: {faces}"))
    if dropped:
        # Firearm Mastery: "roll one additional die and drop the lowest result"
        lowest = ", ".join(str(s.value) for s in dropped)
        ctx.emit(Note(rnd, task.unit, f"Firearm Mastery: dropped the lowest: {lowest}"))
    mods = tuple((n, v) for n, v in (("nudge", 2 * task.nudges),) if v)
    bonus = NUDGE_BONUS * effective_traits(w.stats(), traits).nudge
    chains = tuple(_chain(s.rolls, s.value - bonus) for s in shots)
    ctx.emit(
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
            chains=chains if any(len(c) > 1 for c in chains) else (),
            each=True,
        )
    )


def _chain(rolls: tuple[int, ...], faces_total: int) -> tuple[int, ...]:
    """The faces of one die that add up to its value (Bring the Fireworks: the maximum and the extra
    die): a rerolled first face (Reliable) is not part of it."""
    if len(rolls) > 1 and sum(rolls) != faces_total and sum(rolls[1:]) == faces_total:
        return tuple(rolls[1:])
    return tuple(rolls)


def assign_targets(ctx: RiftCtx, task: Task) -> list[int]:
    """Who the attack's hits may go to: the one it is aimed at (Hold Fire's and Covering Fire's mover, a
    Haymaker's enemy) if still a valid target, else every valid target of its weapon."""
    if task.forced:
        reach = (
            ctx.weapon(task.weapon).range
            if task.weapon
            else max((w.range for w in ctx.weapons_of(task.unit, "firearm")), default=0)
        )
        return [task.forced] if ctx.valid_target(task.unit, task.forced, reach) else []
    return ctx.firearm_targets(task.unit, ctx.weapon(task.weapon))


def blows(ctx: RiftCtx, task: Task) -> list[Blow]:
    """(target, value, source tile, extra factors) for every stress an attack is about to deal."""
    out: list[Blow] = []
    attacker = task.unit
    hits = [s for s in task.shots if s.hit]
    if task.impact is not None:
        radius = ctx.weapon(task.weapon).radius or 0
        for u in ctx.units():
            there = st.hex_of(u)
            if there is None or not st.alive(u) or hex_distance(there, task.impact) > radius:
                continue
            if not ctx.sees(task.impact, there):
                continue
            for s in hits:
                out.append((u, s.value, task.impact, ()))
        return out
    source = st.hex_of(attacker)
    if source is None:
        return []
    piercing = st.has_trait(attacker, "piercing_fire") and task.weapon and ctx.weapon(task.weapon).firearm
    for s, target in zip(hits, task.assigned, strict=False):
        out.append((target, s.value, source, ()))
        if piercing:
            extra = pierced(ctx, attacker, target, ctx.weapon(task.weapon))
            if extra is not None:
                out.append((extra, s.value, source, (("Piercing Fire", HALF),)))
    return out


def endangered(ctx: RiftCtx, task: Task) -> list[int]:
    """Units the attack's hits are about to reach (assigned targets; everyone in a blast)."""
    if task.kind != "attack":
        return []
    return sorted({b[0] for b in blows(ctx, task)})


def pierced(ctx: RiftCtx, attacker: int, target: int, weapon: WeaponData) -> int | None:
    """Piercing Fire: "If a target of your firearm is in a direct line with you, your hits penetrate,
    dealing ½ stress to another target in a tile behind. (The extra target must still be within
    range)". Direct line: along one of the six hex axes; the tile behind: the next tile on that axis
    (docs/RULES.md "Piercing Fire")."""
    a, t = st.hex_of(attacker), st.hex_of(target)
    if a is None or t is None or a == t:
        return None
    d = t - a
    n = hex_distance(a, t)
    direction = Hex(d.q // n, d.r // n) if d.q % n == 0 and d.r % n == 0 else None
    if direction is None or direction not in DIRECTIONS:
        return None
    behind = t + direction
    for u in ctx.units():
        if u != target and st.hex_of(u) == behind and ctx.valid_target(attacker, u, weapon.range):
            return u
    return None


def sights_at(ctx: RiftCtx, attacker: int, weapon: WeaponData | None, coming: list[Blow]) -> int:
    """Which of ``coming`` Down the Sights multiplies (-1: none): "The next shot you make that hits
    inflicts 4x as much stress.": the best direct hit of the volley (the dice are rolled and assigned
    together; as in odds.py)."""
    if weapon is None or not weapon.firearm or not st.turn_state(attacker).down_the_sights:
        return -1
    direct = [i for i, b in enumerate(coming) if not b[3]]
    if not direct:
        return -1
    return max(direct, key=lambda i: (coming[i][1], -i))


def resolve(ctx: RiftCtx, task: Task) -> None:
    """Deal the attack's stress, then what its hits and its explosion do besides (traits, a taunt)."""
    attacker = task.unit
    w = ctx.weapon(task.weapon) if task.weapon else None
    coming = blows(ctx, task)
    sights = sights_at(ctx, attacker, w, coming)
    hit_units: list[int] = []
    for i, (target, value, source, extra) in enumerate(coming):
        factors = list(extra)
        if i == sights:
            factors += ctx.sights_factors(attacker)
        dealt = deal(ctx, target, value, attacker, source, factors)
        if dealt and target not in hit_units:
            hit_units.append(target)
    if sights >= 0:
        st.turn_state(attacker).down_the_sights = False
        ctx.emit(StatusChanged(ctx.round, attacker, "down_the_sights", False))
    # what hit them: the attack's weapon; a Covering Fire shot is one of the gun it sweeps with
    # ("Set up your gun to sweep the battlefield"), so "hit by your firearm" (docs/RULES.md R10a)
    hit_with = w
    if hit_with is None and task.mode == "covering_fire":
        hit_with = ctx.covering_firearm(attacker)
    traits = list(ctx.traits.of(st.combatant(attacker).traits))
    if hit_with is not None:
        for target in hit_units:
            for d in traits:
                if d.on_hit is not None:
                    d.on_hit(ctx, attacker, target, hit_with, task.mode)
            if task.mode == "scary_yelling" and st.alive(target):
                # "Anyone you hit is Taunted and can only attack you until the start of your next turn."
                ctx.inflict(target, "taunted", attacker)
    if w is not None and w.explosive and task.impact is not None:
        for d in traits:
            if d.after_explosion is not None:
                d.after_explosion(ctx, attacker, task.impact)


def has_real_cover(ctx: RiftCtx, target: int, source: Hex) -> bool:
    """Map cover on the shortest line, next to the target (either nudged line), or a shield in the
    target's tile: docs/RULES.md "Cover"."""
    there = ctx.here(target)
    ctx.match.enter()
    if any(s.hex == there for _, s in esper.get_component(Shield)):  # any order: no sort
        return True
    return ctx.battlefield.cover_between(source, there) != Cover.NONE


def all_round_cover(ctx: RiftCtx, target: int) -> bool:
    """Cover in all directions: crouched, a trait's (Meatshield), or an ally's Improved Meatshield in the
    tile ("The cover effects of meatshield now apply to allies as well.")."""
    if st.has_status(target, "in_cover"):
        return True
    for d in ctx.traits.of(st.combatant(target).traits):
        if d.all_round_cover is not None and d.all_round_cover(ctx, target):
            return True
    there = st.hex_of(target)
    meat = ctx.traits.get("meatshield")
    if meat is None or meat.all_round_cover is None:
        return False
    ctx.match.enter()
    if not any(  # most often no other unit shares the tile: then no ally's shield (one pass, no sort)
        u != target and pos.hex == there for u, pos in esper.get_component(Position)
    ):
        return False
    return any(
        st.hex_of(ally) == there
        and st.has_trait(ally, "improved_meatshield")
        and meat.all_round_cover(ctx, ally)
        for ally in ctx.allies(target)
    )


def shot_factors(
    ctx: RiftCtx, target: int, attacker: int, source: Hex
) -> tuple[str, list[tuple[str, Fraction]]]:
    """What one shot from ``source`` meets at ``target`` (pure): why it deals nothing ("" if it does) and
    the named multipliers of cover, statuses and traits. :func:`deal` and the preview both use it."""
    factors: list[tuple[str, Fraction]] = []
    if st.turn_state(target).protected_turn == ctx.game.turn_number:
        return "prevented this turn", factors
    attacking = list(ctx.traits.of(st.combatant(attacker).traits))
    if not any(d.ignores_cover for d in attacking):
        real = has_real_cover(ctx, target, source)
        crouched = st.has_status(target, "in_cover")
        if crouched and real:
            # Crouch Down: "If a shot would have already been halved due to being behind existing cover,
            # it is instead reduced to zero."
            return "crouched behind cover", factors
        if real or all_round_cover(ctx, target):
            factors.append(("cover", HALF))
    if st.has_status(attacker, "suppressed"):
        factors.append(("Suppressed", HALF))  # "Deal ½ stress"
    if st.has_status(target, "half_stress"):
        factors.append(("Run & Gun", HALF))
    weapons = st.combatant(attacker).weapons
    for d in attacking:
        if d.outgoing is not None and weapons:
            factors += d.outgoing(ctx, attacker, target, ctx.weapon(weapons[0]))
    for d in ctx.traits.of(st.combatant(target).traits):
        if d.incoming is not None:
            factors += d.incoming(ctx, target, attacker)
    return "", factors


def deal(  # noqa: PLR0917
    ctx: RiftCtx, target: int, value: int, attacker: int, source: Hex, factors: list[tuple[str, Fraction]]
) -> int:
    """Deal one shot's stress: prevention, cover, statuses, traits (:func:`shot_factors`), then
    stress.apply_multipliers."""
    rnd = ctx.round
    if not st.alive(target):
        return 0
    prevented, more = shot_factors(ctx, target, attacker, source)
    if prevented:
        ctx.emit(StressDealt(rnd, target, attacker, value, tuple(factors), 0, prevented))
        return 0
    factors += more
    amount = apply_multipliers(value, [f for _, f in factors])
    res = st.resolve(target)
    res.current = max(0, res.current - amount)
    ctx.emit(StressDealt(rnd, target, attacker, value, tuple(factors), amount))
    ctx.emit(DamageTaken(rnd, target, amount, attacker, res.current))
    if res.current == 0 and not res.overcome:
        # "When a character's resolve is reduced to 0, they are overcome and cannot act for the
        # remainder of the encounter."
        res.overcome = True
        ctx.emit(StatusChanged(rnd, target, "overcome", True))
        ctx.drop_items(target)
    return amount
