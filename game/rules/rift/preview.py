"""The exact odds of a Through the Rift attack before it is made (docs/RULES.md RA1, RA2): from
``odds.attack_odds`` with the attacker's real dice traits and the multipliers the attack itself would
meet (:mod:`~game.rules.rift.attacks`), so the preview and the rules agree."""

from __future__ import annotations

from fractions import Fraction

from game.commands import Command
from game.dice import Distribution
from game.engine.protocol import AttackPreview
from game.hexgrid import hex_distance
from game.rules.rift import attacks
from game.rules.rift import state as st
from game.rules.rift.actions import decision_problem
from game.rules.rift.components import Task
from game.rules.rift.context import RiftCtx
from game.rules.rift.data import WeaponData
from game.rules.rift.odds import DOWN_THE_SIGHTS, AttackOdds, attack_odds
from game.rules.rift.stress import DiceTraits, apply_multipliers

__all__ = ["attack_preview", "preview_of", "unit_attack_preview"]


def attack_preview(ctx: RiftCtx, cmd: Command) -> AttackPreview | None:
    """The exact odds of an attack command (Fire Firearm, Scary Yelling, Run & Gun, Use Explosive,
    Haymaker) against one target, from ``odds.attack_odds`` with the attacker's real dice traits and the
    multipliers :func:`~game.rules.rift.attacks.shot_factors` gives the rules (docs/RULES.md RA1).

    The target: ``cmd.target`` if it is one the attack could reach, else the nearest (a Fire command
    names none: its hits are assigned after the roll). Nudges: those already declared for this
    attacker's pending attack plus ``cmd.number`` more the player counts on. ``damage`` is the stress
    that target takes if every hit goes to it; ``modifiers`` name each multiplier as a percentage
    (cover 50) and a Nudge as its bonus per die (+2). Hold Fire: the same odds against the target where
    it stands now (it fires later, at the first to move). An ``assign`` command of an attack already
    rolled: the exact stress each unit would take from that split (``per_target``; Piercing Fire and
    Down the Sights included), before any "Duck!" or Dodge Roll (docs/RULES.md RA2). None for
    anything else."""
    if not ctx.is_unit(cmd.actor) or st.hex_of(cmd.actor) is None:
        return None
    if cmd.action == "assign":
        return _assign_preview(ctx, cmd)
    return unit_attack_preview(ctx, cmd)


def unit_attack_preview(ctx: RiftCtx, cmd: Command, *, known_target: bool = False) -> AttackPreview | None:
    """:func:`attack_preview` of an attack (not an ``assign``) by a unit of this match standing on the
    map; ``known_target``: ``cmd.target`` is known to be a unit of this match too (a what-if, asked
    thousands of times a game, has checked both)."""
    attacker = cmd.actor
    if cmd.action in ("fire", "scary_yelling", "run_and_gun", "explosive", "hold_fire"):
        if cmd.option not in st.combatant(attacker).weapons:
            return None
        w = ctx.weapon(cmd.option)
    elif cmd.action == "haymaker" and ctx.has_action(attacker, "haymaker"):
        w = ctx.weapon("haymaker")
    else:
        return None
    source = ctx.here(attacker)
    if cmd.action == "run_and_gun" and cmd.path:
        source = cmd.path[-1]  # "Move 2 tiles. Fire your firearm.": fired from where the run ends
    if w.explosive:
        if cmd.hex is None:
            return None
        source, reach = cmd.hex, w.radius or 0
        candidates = [
            u
            for u in ctx.units()
            if st.alive(u) and hex_distance(ctx.here(u), source) <= reach and ctx.sees(source, ctx.here(u))
        ]
        hostile = [u for u in candidates if st.side(u) != st.side(attacker)]
        candidates = hostile + [u for u in candidates if u not in hostile]
    elif cmd.target is not None:  # one target named: only it needs checking (what-if odds ask often)
        named = cmd.target
        valid = ctx._valid_target if known_target else ctx.valid_target
        ok = valid(attacker, named, w.range, source=source) and ctx.in_play(named)
        candidates = [named] if ok else []
    else:
        candidates = [u for u in ctx.units() if ctx.valid_target(attacker, u, w.range, source=source)]
    notes: list[str] = []
    if cmd.target is not None:
        if cmd.target not in candidates:
            return None
        target: int | None = cmd.target
    elif candidates:
        target = min(candidates, key=lambda u: (hex_distance(ctx.here(u), source), u))
        notes.append(f"against the nearest target, {st.name(target)}")
    else:
        target = None
        notes.append("no unit to hit: the stress a target in the open would take")
    nudges = max(0, cmd.number or 0)
    for task in ctx.game.stack:
        if task.kind == "attack" and task.unit == attacker and task.stage in ("nudge", "roll"):
            nudges += task.nudges
    traits = attacks.dice_traits(ctx, attacker, w, nudges) if not w.melee else DiceTraits()
    prevented, factors = "", list[tuple[str, Fraction]]()
    if target is not None:
        prevented, factors = attacks.shot_factors(ctx, target, attacker, source)
    sights = len(ctx.sights_factors(attacker)) if w.firearm and not prevented else 0
    pierce: str | None = None  # the unit behind that Piercing Fire hits too, by name
    if target is not None and st.has_trait(attacker, "piercing_fire") and w.firearm:
        extra = attacks.pierced(ctx, attacker, target, w)
        pierce = st.name(extra) if extra is not None else None
    return preview_of(w, traits, tuple(factors), sights, prevented, cmd.action == "hold_fire", pierce, notes)


def preview_of(  # noqa: PLR0917
    w: WeaponData,
    traits: DiceTraits,
    factors: tuple[tuple[str, Fraction], ...],
    sights: int,
    prevented: str,
    hold: bool,
    pierce: str | None,
    notes: list[str],
) -> AttackPreview:
    """The preview of an attack with ``w`` made of these parts (:func:`unit_attack_preview`'s, after the
    checks of who may be hit): kept, the same preview for the same parts (the AI asks the odds of the same
    shot from many places; a preview is immutable)."""
    stats = w.stats()
    key = (stats, traits, factors, sights, prevented, w.explosive, hold, pierce, tuple(notes))
    found = _PREVIEWS.get(key)
    if found is not None:
        return found
    notes = list(notes)
    odds = attack_odds(stats, traits, tuple(f for _, f in factors), down_the_sights=sights,
                       zeroed=bool(prevented))  # fmt: skip
    damage, hit_chance = _damage(odds)
    if odds.tail_from is not None and odds.tail:
        notes.append(f"{odds.tail_from} stands for {odds.tail_from} or more (Improved Fireworks)")
    modifiers: list[tuple[str, int]] = []
    if odds.traits.nudge:
        modifiers.append(("Nudge", 2 * odds.traits.nudge))
    modifiers += [(name, _percent(f)) for name, f in factors]
    modifiers += [("Down the Sights (the best hit)", int(DOWN_THE_SIGHTS * 100))] * sights
    if prevented:
        notes.append(f"no stress: {prevented}")
    if w.explosive:
        notes.append("every unit in the blast takes every hit")
    elif hold:
        notes.append(
            "Hold Fire shoots later, at the first valid target to move: these are the odds against "
            "this target where it stands now, if every hit goes to it"
        )
    else:
        notes.append("stress if every hit is assigned to this target")
    if pierce is not None:
        notes.append(f"Piercing Fire: {pierce} behind takes 1/2 of each hit")
    preview = AttackPreview(
        hit_chance=hit_chance,
        damage=damage,
        modifiers=tuple(modifiers),
        target_number=w.threshold,
        notes=tuple(notes),
        later=hold,
        effective_number=w.threshold - 2 * odds.traits.nudge,  # "+2 on every die" per Nudge
    )
    if len(_PREVIEWS) >= PREVIEWS_KEPT:
        _PREVIEWS.clear()
    _PREVIEWS[key] = preview
    return preview


PREVIEWS_KEPT = 8192
_PREVIEWS: dict[tuple[object, ...], AttackPreview] = {}


def _percent(f: Fraction) -> int:
    """``int(f * 100)`` (towards zero) in integers: no Fraction made (a preview names every factor)."""
    n, d = f.numerator * 100, f.denominator
    return n // d if n >= 0 else -(-n // d)


_DAMAGE: dict[int, tuple[AttackOdds, Distribution, Fraction]] = {}


def _damage(odds: AttackOdds) -> tuple[Distribution, Fraction]:
    """The stress distribution (the tail counted at its first value) and the hit chance of ``odds``,
    worked out once per odds (``attack_odds`` keeps them: the same odds object for the same attack)."""
    found = _DAMAGE.get(id(odds))
    if found is not None and found[0] is odds:
        return found[1], found[2]
    stress = dict(odds.stress)
    if odds.tail_from is not None and odds.tail:
        stress[odds.tail_from] = stress.get(odds.tail_from, Fraction(0)) + odds.tail
    damage = Distribution(stress)
    hit_chance = 1 - odds.hits.probabilities.get(0, Fraction(0))
    if len(_DAMAGE) >= 8192:
        _DAMAGE.clear()
    _DAMAGE[id(odds)] = (odds, damage, hit_chance)
    return damage, hit_chance


def _assign_preview(ctx: RiftCtx, cmd: Command) -> AttackPreview | None:
    """What the hits already rolled would deal if assigned as ``cmd.targets`` (RA2): the attack's own
    blows, multipliers and Down the Sights choice (:mod:`~game.rules.rift.attacks`)."""
    game = ctx.game
    if not game.stack:
        return None
    task = game.stack[-1]
    if task.kind != "attack" or task.stage != "assign" or cmd.actor != task.unit:
        return None
    if decision_problem(ctx, task, cmd) is not None:
        return None
    attacker = task.unit
    w = ctx.weapon(task.weapon) if task.weapon else None
    trial = Task(
        task.kind, attacker, mode=task.mode, weapon=task.weapon, impact=task.impact, forced=task.forced,
        shots=task.shots, assigned=list(cmd.targets),
    )  # fmt: skip
    blows = attacks.blows(ctx, trial)
    sights_at = attacks.sights_at(ctx, attacker, w, blows)
    left = {b[0]: st.resolve(b[0]).current if st.alive(b[0]) else 0 for b in blows}
    per: dict[int, int] = {}
    notes: list[str] = []
    for i, (target, value, source, extra) in enumerate(blows):
        factors = list(extra)
        if i == sights_at:
            factors += ctx.sights_factors(attacker)
        prevented, more = attacks.shot_factors(ctx, target, attacker, source)
        amount = 0
        if left[target] > 0 and not prevented:
            amount = apply_multipliers(value, [f for _, f in factors + more])
            left[target] = max(0, left[target] - amount)
        per[target] = per.get(target, 0) + amount
        named = ", ".join(f"{n} x{f}" for n, f in factors + more)
        why = f" ({prevented})" if prevented else (f" ({named})" if named else "")
        notes.append(f"{value} on {st.name(target)}: {amount} stress{why}")
    for target, amount in per.items():
        if amount and left[target] == 0:
            notes.append(f"{st.name(target)} would be overcome")
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
