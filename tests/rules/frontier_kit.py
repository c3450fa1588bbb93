"""Helpers for the Frontier rule tests: small open maps, posses, scripted dice, and test set-ups.

Set-up helpers (``place``, ``give_turn``) write components directly so a test can start from the
situation a rule is about; everything a test then checks goes through commands.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from pathlib import Path

import esper

from game.commands import Command
from game.components import ActionPoints, Identity, Position
from game.engine.match import Match
from game.hexgrid import Hex, StaggerAxis, StaggerIndex, TiledHexGeometry, hex_distance
from game.rules import PosseSpec, UnitSpec, get_ruleset
from game.rules.frontier import auto_deploy_commands
from game.rules.frontier import state as st
from game.rules.frontier.components import Activation
from tests import maps_factory as mf

ROOT = Path(__file__).resolve().parent.parent.parent
RANCH = ROOT / "maps" / "ranch_duel.tmx"
TOWN = ROOT / "maps" / "frontier_town.tmx"
ROW = 5  # the row the tests line units up on: hexes of one row are (col) apart


class ScriptedRandom(random.Random):
    """A Random whose randint answers come from a script (then from the seeded stream)."""

    def __init__(self, rolls: Iterable[int], seed: int = 0) -> None:
        super().__init__(seed)
        self.script = list(rolls)

    def randint(self, a: int, b: int) -> int:
        if self.script:
            value = self.script.pop(0)
            assert a <= value <= b, (value, a, b)
            return value
        return super().randint(a, b)


def geometry() -> TiledHexGeometry:
    return TiledHexGeometry.create(mf.TILE_W, mf.TILE_H, mf.HEX_SIDE, StaggerAxis.Y, StaggerIndex.ODD)


def at(col: int, row: int = ROW) -> Hex:
    """The axial hex of a cell of the test map."""
    return geometry().to_hex(col, row)


def open_map(
    directory: Path,
    *,
    width: int = 30,
    height: int = 11,
    terrain: dict[tuple[int, int], int] | None = None,
    doors: Sequence[tuple[Hex, str]] = (),
    items: Sequence[tuple[Hex, str]] = (),
) -> Path:
    """A grass map with deploy zones on the left (side1) and right (side2) edges; doors and items by hex."""
    geo = geometry()
    objects = []
    next_id = 1
    for where, state in doors:
        x, y = geo.hex_center(where)
        objects.append(mf.Obj(next_id, x, y, shape="point", props={"door": mf.Enum(state, "Door")}))
        next_id += 1
    for where, name in items:
        x, y = geo.hex_center(where)
        objects.append(mf.Obj(next_id, x, y, shape="point", props={"item": name}))
        next_id += 1
    return mf.standard_map(
        directory, width, height, terrain=terrain, objects=objects, with_deploy=True, name="test.tmx"
    )


def posse(side: str, faction: str, *units: str | tuple[str, str]) -> PosseSpec:
    """Units as kind names, or (kind, weapon) pairs."""
    specs = []
    for unit in units:
        kind, weapon = (unit, "") if isinstance(unit, str) else unit
        specs.append(UnitSpec(kind, loadout=(weapon,) if weapon else ()))
    return PosseSpec(side, faction, faction, tuple(specs))


def law(*units: str | tuple[str, str]) -> PosseSpec:
    return posse("side1", "the_law", *units)


def outlaws(*units: str | tuple[str, str]) -> PosseSpec:
    return posse("side2", "the_outlaws", *units)


def new_match(map_path: Path, side1: PosseSpec, side2: PosseSpec, seed: int = 1) -> Match:
    return Match.create(map_path, get_ruleset("frontier"), [side1, side2], seed)


def deploy(match: Match) -> None:
    for cmd in auto_deploy_commands(match):
        match.apply(cmd)


def unit(match: Match, side: str, index: int = 0) -> int:
    return match.units(side, in_play=False)[index]


def place(match: Match, who: int, where: Hex) -> None:
    match.enter()
    esper.component_for_entity(who, Position).hex = where


def setup_field(match: Match, spots: dict[int, Hex]) -> None:
    """Deploy everyone (commands), then move units to ``spots`` (set-up) and park the rest far apart."""
    deploy(match)
    for who, where in spots.items():
        place(match, who, where)


def give_turn(match: Match, who: int, ap: int = 2, round_number: int = 1) -> None:
    """Set-up: make ``who`` the acting unit of an Action phase with ``ap`` action points."""
    match.enter()
    game = st.game_state(match)
    game.round = round_number
    game.phase = "action"
    game.order = [who]
    game.turn = 0
    game.active = who
    game.draw_order, game.draws_made = [], 0
    esper.component_for_entity(who, ActionPoints).current = ap
    act = esper.component_for_entity(who, Activation)
    act.card, act.activated = 13, False
    act.basic_used, act.aimed, act.disengaged, act.attacked = [], False, False, []


def script(match: Match, *rolls: int) -> ScriptedRandom:
    """Replace the match's RNG by one that answers the next randint calls with ``rolls``."""
    rng = ScriptedRandom(rolls)
    match.rng = rng
    return rng


def cmd(action: str, actor: int, **kwargs: object) -> Command:
    return Command(action, actor=actor, **kwargs)  # type: ignore[arg-type]


def name(match: Match, who: int) -> str:
    match.enter()
    return esper.component_for_entity(who, Identity).name


def reason_for(match: Match, who: int, action: str) -> str | None:
    for a in match.legal_actions():
        if a.actor == who and a.action == action:
            return a.reason
    raise AssertionError(f"{action} not listed")


def to_action_phase(match: Match) -> None:
    """Draw every card (and place a Joker first) by commands until an Action phase runs."""
    while st.game_state(match).phase in ("initiative", "joker"):
        action = match.legal_actions()[0]
        match.apply(action.command(option=action.choices[0] if action.needs == "choice" else ""))


def aggressive_command(match: Match) -> Command:
    """A simple, deterministic player that knows no rule: it reads legal_actions only. It finishes off,
    shoots (aiming first), fights, charges, else walks toward the nearest hostile unit."""
    actions = match.legal_actions()
    first = actions[0]
    if first.action == "deploy":
        return first.command(hex=first.hexes[0])
    if first.action == "draw_card":
        return first.command()
    if first.action == "place_joker":
        return first.command(option=first.choices[0])
    usable = {a.action: a for a in actions if a.enabled}
    me = first.actor
    here = match.position(me)
    assert here is not None
    if "coup_de_grace" in usable:
        return usable["coup_de_grace"].command(target=usable["coup_de_grace"].targets[0])
    if "use_item" in usable:
        a = usable["use_item"]
        return a.command(option=a.choices[0], target=a.targets[0])
    if "stand_up" in usable:
        return usable["stand_up"].command()
    if "melee" in usable:
        return usable["melee"].command(target=usable["melee"].targets[0])
    if "shoot" in usable:
        if "aim" in usable and st.ap(me).current >= 2:
            return usable["aim"].command()
        return usable["shoot"].command(target=usable["shoot"].targets[0])
    if "reload" in usable:
        return usable["reload"].command()
    hostile = [u for u in match.units() if st.side_of(u) != st.side_of(me) and st.able(u)]
    if hostile and "charge" in usable and usable["charge"].targets:
        a = usable["charge"]
        target = a.targets[0]
        there = match.position(target)
        assert there is not None
        end = min(
            (h for h in a.hexes if hex_distance(h, there) <= 1), key=lambda h: (hex_distance(h, here), h)
        )
        blocked = st.blocked_hexes(match, me)
        path = match.battlefield.path(here, end, blocked)
        if (
            path is not None
            and match.battlefield.path_cost(path) <= st.unit_data(match.ruleset.data, me).move
        ):  # type: ignore[attr-defined]
            return a.command(path=tuple(path), target=target)
    if hostile and "move" in usable:
        a = usable["move"]
        nearest = min(hostile, key=lambda u: (hex_distance(match.position(u) or here, here), u))
        there = match.position(nearest)
        assert there is not None
        end = min(a.hexes, key=lambda h: (hex_distance(h, there), h))
        if hex_distance(end, there) < hex_distance(here, there):
            path = match.battlefield.path(here, end, st.blocked_hexes(match, me))
            if path is not None:
                return a.command(path=tuple(path))
    return Command("end_activation", actor=me)


def play_out(match: Match, limit: int = 5000) -> int:
    """Play ``match`` to its end with :func:`aggressive_command` for both sides; the number of commands."""
    count = 0
    while not match.is_over:
        match.apply(aggressive_command(match))
        count += 1
        assert count < limit, "the encounter did not end"
    return count


def joker_match(
    map_path: Path, side1: PosseSpec, side2: PosseSpec, seeds: Iterable[int] = range(1, 300)
) -> Match:
    """The first match (over ``seeds``) whose cards deal a Joker, dealt by commands up to its placement.
    AssertionError if no seed deals one."""
    for seed in seeds:
        m = new_match(map_path, side1, side2, seed)
        deploy(m)
        while st.game_state(m).phase == "initiative":
            m.apply(m.legal_actions()[0].command())
        if st.game_state(m).phase == "joker":
            return m
        m.close()
    raise AssertionError("no seed dealt the Joker")


def hurt(
    match: Match, who: int, amount: int, source: int | None = None, events: list[object] | None = None
) -> None:
    """Set-up: ``who`` takes ``amount`` damage by the rules (Dastardly's wound, Toughness, Wounds)."""
    from game.rules.frontier import RULESET

    RULESET.ctx(match, events).damage(who, amount, source)  # type: ignore[arg-type]
