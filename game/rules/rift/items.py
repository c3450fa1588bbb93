"""Interact's item uses: "Interact [1AP] Use an item, hand something off, use any of your skills, etc".

The rulebook lists no items, so what they do is Hexslinger's own (``[items]`` in rift.toml; docs/RULES.md
R28-R28c): Pick Up takes an item lying in your tile or a neighbouring one, Hand Off gives a carried item to
an ally within 1 tile, Use Item uses a carried item with a use (restore resolve to a unit within its range
that is not overcome). Each is its own action with the item name as ``option`` so every use has its own
picks and its own reason when it is not possible.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.commands import Command
from game.engine.actions import EMPTY_PICKS, Picks
from game.events import ActionTaken, Note
from game.hexgrid import Hex, hex_distance
from game.rules.rift import state as st
from game.rules.rift.components import GroundItem
from game.rules.rift.context import RiftCtx
from game.rules.rift.hooks import Actions, Traits, define

if TYPE_CHECKING:
    from game.engine.match import Match

__all__ = ["ground_items", "reachable_item_hexes", "register"]

REACH = 1  # "hand something off": to someone next to you (or in your tile); items within 1 tile


def ground_items(match: Match) -> list[tuple[int, GroundItem]]:
    """Items lying on the map, in a fixed order."""
    return sorted(match.iter_components(GroundItem), key=lambda pair: (pair[1].hex, pair[1].name, pair[0]))


def _within_reach(ctx: RiftCtx, unit: int) -> list[GroundItem]:
    """Items the unit can reach into: in its own tile, or in a neighbour that is passable (an open door
    counts) — not through a wall or a closed door."""
    here = ctx.here(unit)
    bf = ctx.battlefield
    return [
        item
        for _, item in ctx.match.iter_components(GroundItem)
        if hex_distance(item.hex, here) <= REACH and (item.hex == here or bf.is_passable(item.hex))
    ]


def reachable_item_hexes(ctx: RiftCtx, unit: int, name: str) -> tuple[Hex, ...]:
    """Tiles within 1 of the unit holding an item called ``name`` that the unit can reach into."""
    return tuple(sorted({item.hex for item in _within_reach(ctx, unit) if item.name == name}))


def _pick_up_options(ctx: RiftCtx, unit: int) -> list[str]:
    return sorted({item.name for item in _within_reach(ctx, unit)})


def _pick_up_picks(ctx: RiftCtx, unit: int, option: str) -> Picks:
    return Picks(hexes=reachable_item_hexes(ctx, unit, option))


def _pick_up(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    assert cmd.hex is not None
    entity = next(e for e, item in ground_items(ctx.match) if item.hex == cmd.hex and item.name == cmd.option)
    ctx.match.delete_entity(entity)
    st.inventory(unit).append(cmd.option)
    ctx.emit(ActionTaken(ctx.round, unit, "pick_up", hex=cmd.hex, option=cmd.option))


def _carried(ctx: RiftCtx, unit: int) -> list[str]:
    return sorted(set(st.inventory(unit)))


def _near_allies(ctx: RiftCtx, unit: int) -> list[int]:
    return [
        a
        for a in ctx.allies(unit)
        if a != unit and st.alive(a) and st.hex_of(a) is not None and ctx.distance(unit, a) <= REACH
    ]


def _hand_off_picks(ctx: RiftCtx, unit: int, option: str) -> Picks:
    return Picks(targets=tuple(_near_allies(ctx, unit)))


def _hand_off(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    assert cmd.target is not None
    st.inventory(unit).remove(cmd.option)
    st.inventory(cmd.target).append(cmd.option)
    ctx.emit(ActionTaken(ctx.round, unit, "hand_off", target=cmd.target, option=cmd.option))


def _usable(ctx: RiftCtx, unit: int) -> list[str]:
    return [n for n in _carried(ctx, unit) if (d := ctx.data.item_by_name(n)) is not None and d.use]


def _use_picks(ctx: RiftCtx, unit: int, option: str) -> Picks:
    item = ctx.data.item_by_name(option)
    if item is None or item.use != "restore":
        return EMPTY_PICKS
    candidates = [unit, *ctx.allies(unit)]
    return Picks(
        targets=tuple(
            sorted(
                {
                    a
                    for a in candidates
                    if st.alive(a)
                    and st.hex_of(a) is not None
                    and ctx.distance(unit, a) <= item.range
                    and st.resolve(a).current < st.resolve(a).maximum
                }
            )
        )
    )


def _use(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    assert cmd.target is not None
    item = ctx.data.item_by_name(cmd.option)
    assert item is not None
    st.inventory(unit).remove(cmd.option)
    res = st.resolve(cmd.target)
    before = res.current
    res.current = min(res.maximum, res.current + item.amount)
    rnd = ctx.round
    ctx.emit(ActionTaken(rnd, unit, "use_item", target=cmd.target, option=cmd.option))
    ctx.emit(
        Note(
            rnd,
            cmd.target,
            f"{item.name}: {st.name(cmd.target)} gets {res.current - before} resolve back "
            f"({res.current}/{res.maximum}); the {item.name} is used up",
        )
    )


def register(book: Actions, traits: Traits) -> None:
    book.add(
        define(
            "pick_up",
            "hex",
            options=_pick_up_options,
            no_options="no item in your tile or a neighbouring one",
            picks=_pick_up_picks,
            apply=_pick_up,
        )
    )
    book.add(
        define(
            "hand_off",
            "target",
            options=_carried,
            no_options="carrying nothing to hand off",
            no_picks="no ally within 1 tile to take it",
            picks=_hand_off_picks,
            apply=_hand_off,
        )
    )
    book.add(
        define(
            "use_item",
            "target",
            options=_usable,
            no_options="carrying nothing that can be used",
            no_picks="no one within reach who is short of resolve",
            picks=_use_picks,
            apply=_use,
        )
    )
