"""The basic actions every Rifter and enemy has: "Fire Firearm (Attack) [2AP]", "Use Explosive (Attack)
[2AP]", "Move [1AP]", "Crouch Down [2AP]", "Flee [2AP]", "Hold Fire (Attack) [3AP]", "Interact [1AP]"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.commands import Command
from game.events import ActionTaken, Event
from game.hexgrid import Hex, hex_distance
from game.rules.rift.hooks import ActionDef, Picks, register_action

if TYPE_CHECKING:
    from game.engine.match import Match
    from game.rules.rift.ruleset import RiftRuleset


def steps_of(rs: RiftRuleset, unit: int, path: tuple[Hex, ...]) -> list[Hex]:
    steps = list(path)
    if steps and steps[0] == rs.hex_of(unit):
        steps = steps[1:]
    return steps


def reach_picks(rs: RiftRuleset, match: Match, unit: int, budget: int) -> Picks:
    here = rs.here(unit)
    reach = match.battlefield.reachable(here, budget)
    return Picks(hexes=tuple(sorted(h for h in reach if h != here)))


def _move_picks(rs: RiftRuleset, match: Match, unit: int, option: str) -> Picks:
    return reach_picks(rs, match, unit, rs.move_budget(unit, "move"))


def _move(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    rs.push_walk(match, unit, steps_of(rs, unit, cmd.path))


def _fire_picks(rs: RiftRuleset, match: Match, unit: int, option: str) -> Picks:
    return Picks(targets=tuple(rs.firearm_targets(match, unit, rs.weapon(option))))


def _fire(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    events.append(ActionTaken(rs.game(match).round, unit, cmd.action, option=cmd.option))
    rs.push_attack(match, unit, cmd.action, cmd.option)


def impact_hexes(rs: RiftRuleset, match: Match, unit: int, weapon: str) -> tuple[Hex, ...]:
    """Impact points in range and in sight; a Taunted thrower must catch a taunter in the blast."""
    w = rs.weapon(weapon)
    here = rs.here(unit)
    taunters = [t for t in rs.taunters(unit) if rs.alive(t)]
    out = []
    for h in match.battlefield.hexes_within(here, w.range):
        if not rs.sees(match, here, h):
            continue
        if taunters and not any(
            hex_distance(rs.here(t), h) <= (w.radius or 0) and rs.sees(match, h, rs.here(t)) for t in taunters
        ):
            continue
        out.append(h)
    return tuple(sorted(out))


def _explosive_picks(rs: RiftRuleset, match: Match, unit: int, option: str) -> Picks:
    return Picks(hexes=impact_hexes(rs, match, unit, option))


def _explosive(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    events.append(ActionTaken(rs.game(match).round, unit, "explosive", hex=cmd.hex, option=cmd.option))
    rs.push_attack(match, unit, "explosive", cmd.option, impact=cmd.hex)


def _crouch(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    events.append(ActionTaken(rs.game(match).round, unit, "crouch"))
    rs.inflict(match, unit, "in_cover", unit, events)


def _flee(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    events.append(ActionTaken(rs.game(match).round, unit, "flee"))
    rs.remove(match, unit, "fled", events)


def _hold_fire(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    events.append(ActionTaken(rs.game(match).round, unit, "hold_fire", option=cmd.option))
    rs.inflict(match, unit, "hold_fire", unit, events, weapon=cmd.option)


def _door_picks(rs: RiftRuleset, match: Match, unit: int, option: str) -> Picks:
    bf = match.battlefield
    here = rs.here(unit)
    occupied = {rs.hex_of(u) for u in match.units()}
    doors = [
        h
        for h in bf.hexes_within(here, 1)
        if (door := bf.door_at(h)) is not None and not (door.is_open and h in occupied)
    ]
    return Picks(hexes=tuple(sorted(doors)))


def _interact(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    assert cmd.hex is not None
    door = match.battlefield.door_at(cmd.hex)
    assert door is not None
    match.battlefield.set_door(cmd.hex, not door.is_open)
    what = "open_door" if door.is_open else "close_door"
    events.append(ActionTaken(rs.game(match).round, unit, what, hex=cmd.hex))


def _no_attack_flee(rs: RiftRuleset, match: Match, unit: int) -> str | None:
    if rs.has_status(unit, "overwhelmed"):
        return "Flee: Overwhelmed units are incapable of moving"
    return None


register_action(ActionDef("move", needs="path", moves=True, picks=_move_picks, apply=_move))
register_action(ActionDef("fire", weapons="firearm", picks=_fire_picks, apply=_fire))
register_action(
    ActionDef("explosive", needs="hex", weapons="explosive", picks=_explosive_picks, apply=_explosive)
)
register_action(ActionDef("crouch", apply=_crouch))
register_action(ActionDef("flee", problem=_no_attack_flee, apply=_flee))
register_action(ActionDef("hold_fire", weapons="firearm", apply=_hold_fire))
register_action(ActionDef("interact", needs="hex", picks=_door_picks, apply=_interact))

__all__ = ["impact_hexes", "reach_picks", "steps_of"]
