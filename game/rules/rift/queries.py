"""Through the Rift's answers to the questions an AI asks of a position (game.engine.facts): a unit's sheet
as numbers, the odds of an attack from and at other tiles, where a unit could walk, the Hold Fire and
Covering Fire shots a walk would set off, and morale (Through the Rift has no morale test). All
read-only: a what-if moves units for the question and puts them back before it returns."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

import esper

from game.battlefield import Cover
from game.commands import Command
from game.components import ActionPoints, Position, Removed
from game.dice import Distribution
from game.engine.facts import Odds, PathReaction, StatusFacts, Supposed, UnitFacts, WeaponFacts
from game.engine.movement import PathTree
from game.engine.protocol import AttackPreview
from game.hexgrid import Hex, hex_distance
from game.rules.rift import attacks
from game.rules.rift import state as st
from game.rules.rift.attacks import HALF
from game.rules.rift.components import Combatant, Inventory, Shield, Statuses
from game.rules.rift.context import RiftCtx
from game.rules.rift.preview import attack_preview, preview_of, unit_attack_preview
from game.rules.rift.stress import DiceTraits
from game.rules.rift.views import STATUS_RULES

__all__ = ["morale_risk", "movement", "odds", "path_reactions", "unit_facts", "what_if"]

ATTACKS = ("fire", "explosive", "haymaker")


def unit_facts(ctx: RiftCtx, unit: int) -> UnitFacts:
    c = ctx.comp(unit, Combatant)
    res = st.resolve(unit)
    points = ctx.comp(unit, ActionPoints)
    weapons = []
    for wid in c.weapons:
        w = ctx.data.weapons.get(wid)
        if w is None:
            continue
        kind = "explosive" if w.explosive else "melee" if w.melee else "ranged"
        action = "explosive" if w.explosive else "fire"
        weapons.append(
            WeaponFacts(
                w.id,
                w.name,
                kind,
                w.range,
                max(1, (w.range * 2) // 3),
                dice=f"{w.stats()}",
                radius=w.radius or 0,
                action=action,
                option=w.id,
            )
        )
    statuses = [
        StatusFacts(
            r.kind, STATUS_RULES[r.kind].helps if r.kind in STATUS_RULES else False, r.inflictor or None
        )
        for r in ctx.comp(unit, Statuses).items
    ]
    turn = st.turn_state(unit)
    inventory = ctx.try_comp(unit, Inventory)
    value = 3.0 if c.kind == "gang_boss" else 2.0 if c.kind == "rifter" else 1.0
    return UnitFacts(
        unit=unit,
        side=st.side(unit),
        kind=c.kind,
        position=st.hex_of(unit),
        health=(res.current, res.maximum),
        health_parts=(("Resolve", res.current, res.maximum),),
        action_points=(points.current, points.per_activation),
        move=c.move_tiles,
        weapons=tuple(weapons),
        statuses=tuple(statuses),
        leader=c.kind == "gang_boss",
        acted=turn.started and ctx.game.active != unit and _acted_this_round(ctx, unit),
        fights=not ctx.has(unit, Removed) and not res.overcome and not c.companion,
        items=tuple(inventory.items) if inventory is not None else (),
        value=value,
    )


def _acted_this_round(ctx: RiftCtx, unit: int) -> bool:
    order = ctx.game.order
    return unit in order and order.index(unit) < ctx.game.turn


@contextmanager
def _moved(ctx: RiftCtx, moves: dict[int, Hex | None]) -> Iterator[None]:
    before = {u: ctx.comp(u, Position).hex for u in moves}
    try:
        for u, h in moves.items():
            if h is not None:
                ctx.comp(u, Position).hex = h
        yield
    finally:
        for u, h in before.items():
            ctx.comp(u, Position).hex = h


def what_if(ctx: RiftCtx, cmd: Command, from_hex: Hex | None, at_hex: Hex | None) -> AttackPreview | None:
    """The exact odds of the attack ``cmd`` (Fire Firearm with a weapon, Haymaker; the stress on the named
    target if every hit goes to it) were the attacker at ``from_hex`` and the target at ``at_hex``; None
    where it could not be made there (out of range, out of sight, a taunt elsewhere). With both None it
    is the preview."""
    unit, target = cmd.actor, cmd.target
    if target is None or not ctx.is_unit(unit) or not ctx.is_unit(target) or cmd.action not in ATTACKS:
        return None
    if unit == target:  # a unit asked about itself is put at ``at_hex``
        from_hex = None
    with Supposed(ctx.comp(unit, Position), ctx.comp(target, Position), from_hex, at_hex) as (a, b):
        if a is None or b is None:
            return None
        if cmd.action == "explosive":
            probe = Command("explosive", actor=unit, option=cmd.option, hex=b, target=target)
            return unit_attack_preview(ctx, probe, known_target=True)
        return unit_attack_preview(ctx, cmd, known_target=True)


def odds(ctx: RiftCtx, cmd: Command) -> Odds:
    """:func:`what_if` of the attack ``cmd`` at any tiles (``ask(from_hex, at_hex)``), with all that does not
    depend on where the two units stand read once: the weapon, the dice traits and Nudges, who may be
    attacked (sides, taunts), the statuses, the shields and the traits' multipliers (which read no
    position: ``TraitDef``). Each question is then the distance, the line of sight and the cover. The same
    answers as :func:`what_if` while the match stays as it is (the AI asks one attack's odds from and at
    many tiles in a decision); what a Meatshield and Piercing Fire read of the units is asked with the two
    units supposed where the question puts them, and the rarest cases (an ally's Improved Meatshield in the
    target's tile, a unit asked about itself) of :func:`what_if` itself."""
    match = ctx.match
    unit, target = cmd.actor, cmd.target

    def exact(from_hex: Hex | None = None, at_hex: Hex | None = None) -> AttackPreview | None:
        return match.what_if(cmd, from_hex, at_hex)

    if target is None or cmd.action not in ATTACKS or not ctx.is_unit(unit) or not ctx.is_unit(target):
        return _never
    if unit == target:
        return exact
    c = st.combatant(unit)
    if cmd.action in ("fire", "explosive") and cmd.option in c.weapons:
        w = ctx.weapon(cmd.option)
    elif cmd.action == "haymaker" and ctx.has_action(unit, "haymaker"):
        w = ctx.weapon("haymaker")
    else:
        return _never
    # a blast at the target's tile (it is always in it): any unit there, friend or foe, taunt or none, and
    # thrown from anywhere (what-if asks no throwing range); shot factors from the tile itself
    blast = w.explosive
    if blast and cmd.action != "explosive":
        return exact  # aimed at no tile: no odds
    # ``_valid_target``'s and ``in_play``'s checks of the units (the target stands where it is asked at)
    if st.resolve(target).overcome or not st.in_play(target):
        return _never
    taunters = [t for t in st.taunters(unit) if t == target or st.alive(t)]
    if not blast and (st.side(target) == st.side(unit) or (taunters and target not in taunters)):
        return _never
    stack = ctx.game.stack
    nudges = sum(
        t.nudges for t in stack if t.kind == "attack" and t.unit == unit and t.stage in ("nudge", "roll")
    )
    dice = attacks.dice_traits(ctx, unit, w, nudges) if not w.melee else DiceTraits()
    here, there, reach, bf = st.hex_of(unit), st.hex_of(target), w.range, ctx.battlefield

    # shot_factors' parts that read no position, in its order
    attacking = list(ctx.traits.of(c.traits))
    defending = list(ctx.traits.of(st.combatant(target).traits))
    rest: list[tuple[str, Fraction]] = []
    if st.has_status(unit, "suppressed"):
        rest.append(("Suppressed", HALF))
    if st.has_status(target, "half_stress"):
        rest.append(("Run & Gun", HALF))
    for d in attacking:
        if d.outgoing is not None and c.weapons:
            rest += d.outgoing(ctx, unit, target, ctx.weapon(c.weapons[0]))
    for d in defending:
        if d.incoming is not None:
            rest += d.incoming(ctx, target, unit)
    sights = len(ctx.sights_factors(unit)) if w.firearm else 0

    # the shot's parts where it stands in the open, behind cover, crouched behind cover: (the multipliers,
    # why no stress is taken), each preview made the first time it is asked
    parts = [(tuple(rest), ""), ((("cover", HALF), *rest), ""), ((), "crouched behind cover")]
    if st.turn_state(target).protected_turn == ctx.game.turn_number:
        parts = [((), "prevented this turn")] * 3
    made: dict[int, AttackPreview] = {}

    def preview(kind: int, pierce: str | None = None) -> AttackPreview:
        found = made.get(kind) if pierce is None else None
        if found is None:
            factors, prevented = parts[kind]
            found = preview_of(w, dice, factors, 0 if prevented else sights, prevented, False, pierce, [])
            if pierce is None:
                made[kind] = found
        return found

    ignores = any(d.ignores_cover for d in attacking)
    crouched = st.has_status(target, "in_cover")
    cover_traits = [d.all_round_cover for d in defending if d.all_round_cover is not None]  # Meatshield
    meat = ctx.traits.get("meatshield")
    # where an ally's Improved Meatshield may cover it (if an enemy shares the ally's tile): where the other
    # allies stand, and where the attacker is supposed if it is one (a blast thrown at a friend)
    shielding: frozenset[Hex | None] = frozenset()
    shields_itself = False
    if meat is not None and meat.all_round_cover is not None:
        shielding = frozenset(
            st.hex_of(x) for x in ctx.allies(target) if x != unit and st.has_trait(x, "improved_meatshield")
        )
        shields_itself = (
            st.side(unit) == st.side(target)
            and st.has_trait(unit, "improved_meatshield")
            and st.in_play(unit)
            and not st.resolve(unit).overcome
        )
    piercing = w.firearm and "piercing_fire" in c.traits
    mine, theirs = ctx.comp(unit, Position), ctx.comp(target, Position)
    shields = frozenset(s.hex for _, s in esper.get_component(Shield))

    def ask(from_hex: Hex | None = None, at_hex: Hex | None = None) -> AttackPreview | None:
        a = from_hex if from_hex is not None else here
        b = at_hex if at_hex is not None else there
        if a is None or b is None:
            return None
        if not blast and (hex_distance(a, b) > reach or not (a == b or bf.line_of_sight(a, b))):
            return None
        if ignores:
            kind = _OPEN
        elif b in shields or bf.cover_between(b if blast else a, b) != Cover.NONE:  # real cover
            kind = _CROUCHED if crouched else _COVER
        elif crouched:  # cover in all directions (all_round_cover)
            kind = _COVER
        elif b in shielding or (shields_itself and a == b):
            return exact(from_hex, at_hex)
        elif cover_traits:  # what the trait reads, with the units where the question supposes them
            match.enter()
            with Supposed(mine, theirs, a, b):
                kind = _COVER if any(f(ctx, target) for f in cover_traits) else _OPEN
        else:
            kind = _OPEN
        if piercing:  # the unit behind the target, with the units where the question supposes them
            match.enter()
            with Supposed(mine, theirs, a, b):
                extra = attacks.pierced(ctx, unit, target, w)
            if extra is not None:
                return preview(kind, st.name(extra))
        return preview(kind)

    return ask


_OPEN, _COVER, _CROUCHED = 0, 1, 2  # where a shot finds its target (queries.odds)


def _never(from_hex: Hex | None = None, at_hex: Hex | None = None) -> AttackPreview | None:
    return None


def movement(ctx: RiftCtx, unit: int) -> PathTree:
    """Where ``unit`` could walk with a Move (its move in tiles; units do not block)."""
    return ctx.walk(unit, ctx.comp(unit, Combatant).move_tiles)


def path_reactions(ctx: RiftCtx, unit: int, path: tuple[Hex, ...]) -> tuple[PathReaction, ...]:
    """The Hold Fire and Covering Fire shots walking ``path`` would set off (docs/RULES.md "Hold Fire and
    Covering Fire"): each watcher fires at the first tile where the walker is a valid target, with the odds
    of that shot there (Covering Fire: its 1 stress shot)."""
    here = st.hex_of(unit)
    if here is None:
        return ()
    steps = list(path[1:] if path and path[0] == here else path)
    out: list[PathReaction] = []
    held: set[int] = set()
    covered: set[int] = set()
    side = st.side(unit)
    # only a hostile holding fire or covering can react: most walks meet none (then no step is tried)
    watchers = [
        w
        for w in ctx.game.order
        if w != unit
        and st.alive(w)
        and st.side(w) != side
        and (st.statuses(w, "hold_fire") or st.statuses(w, "covering_fire"))
    ]
    if not watchers:
        return ()
    for index, step in enumerate(steps):
        with _moved(ctx, {unit: step}):
            for watcher in watchers:
                for record in st.statuses(watcher, "hold_fire"):
                    if watcher in held:
                        break
                    w = ctx.weapon(record.weapon)
                    if ctx.valid_target(watcher, unit, w.range):
                        held.add(watcher)
                        cmd = Command("fire", actor=watcher, option=w.id, target=unit)
                        shot = attack_preview(ctx, cmd)
                        out.append(PathReaction(watcher, "hold fire", index, shot, at=step))
                        break
                for record in st.statuses(watcher, "covering_fire"):
                    reach = max((w.range for w in ctx.weapons_of(watcher, "firearm")), default=0)
                    if (
                        watcher in covered
                        or unit in record.shot_at
                        or not ctx.valid_target(watcher, unit, reach)
                    ):
                        continue
                    covered.add(watcher)
                    out.append(PathReaction(watcher, "covering fire", index, _one_stress(), at=step))
    return tuple(out)


def _one_stress() -> AttackPreview:
    return AttackPreview(Fraction(1), Distribution.constant(1), (), None, ("a 1 stress shot",))


def morale_risk(ctx: RiftCtx, side: str) -> dict[int, Fraction]:
    """Through the Rift has no morale test: nobody breaks."""
    return {}
