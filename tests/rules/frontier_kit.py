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
from game.hexgrid import Hex, StaggerAxis, StaggerIndex, TiledHexGeometry
from game.match import Match
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
        match.apply(action.command(number=1 if action.action == "place_joker" else None))
