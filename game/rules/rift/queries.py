"""Through the Rift's answers to the questions an AI asks of a position (game.engine.facts): a unit's sheet
as numbers, the odds of an attack from and at other tiles, where a unit could walk, the Hold Fire and
Covering Fire shots a walk would set off, and morale (Through the Rift has no morale test). All
read-only: a what-if moves units for the question and puts them back before it returns."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

from game.commands import Command
from game.components import ActionPoints, Position, Removed
from game.dice import Distribution
from game.engine.facts import PathReaction, StatusFacts, Supposed, UnitFacts, WeaponFacts
from game.engine.movement import PathTree
from game.engine.protocol import AttackPreview
from game.hexgrid import Hex
from game.rules.rift import state as st
from game.rules.rift.components import Combatant, Inventory, Statuses
from game.rules.rift.context import RiftCtx
from game.rules.rift.preview import attack_preview, unit_attack_preview
from game.rules.rift.views import STATUS_RULES

__all__ = ["morale_risk", "movement", "path_reactions", "unit_facts", "what_if"]

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
