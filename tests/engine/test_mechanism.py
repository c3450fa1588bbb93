"""The engine mechanism Through the Rift brought in: one walk search serving several budgets, the
battlefield's kept reach trees, offers per option (none, a disabled "nothing to pick", one option only),
a command naming an option its action does not take, a flow step that waits without a window,
reactions aimed by the window's step, and deployment with stacking."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from game.battlefield import Battlefield
from game.commands import Command
from game.engine.actions import ActionDef, Picks, check_command, offer
from game.engine.flow import Flow, reactors, window_actions
from game.engine.movement import reach
from game.hexgrid import Hex
from game.mapload import load_battlefield
from tests import maps_factory as mf
from tests.rules import rift_kit as rk

ROOT = Path(__file__).resolve().parents[2]
MAPS = sorted((ROOT / "maps").glob("*.tmx"))


@pytest.mark.parametrize("map_path", MAPS, ids=lambda p: p.stem)
def test_a_tree_within_a_smaller_budget_is_the_smaller_search(map_path: Path) -> None:
    bf = load_battlefield(map_path)
    starts = sorted(h for h in bf.hexes if bf.is_passable(h))[::37]
    assert starts
    for start in starts:
        big = reach(bf, start, 5)
        for budget in range(6):
            small = reach(bf, start, budget)
            cut = big.within(budget)
            assert dict(cut.costs) == dict(small.costs)
            assert cut.budget == budget and cut.ends() == small.ends()
            assert all(cut.path_to(h) == small.path_to(h) for h in small.ends())


def _door_field(tmp_path: Path) -> tuple[Battlefield, Hex, Hex, Hex]:
    geo = load_battlefield(mf.standard_map(tmp_path / "g", with_deploy=True)).geometry
    walls = {(3, row): mf.WALL for row in range(8) if row != 3}
    x, y = geo.cell_center(3, 3)
    door = mf.Obj(7, x - 10, y - 10, 20, 20, props={"door": mf.Enum("closed", "Door")})
    bf = load_battlefield(mf.standard_map(tmp_path, 8, 8, terrain=walls, objects=[door], with_deploy=True))
    return bf, bf.geometry.to_hex(1, 3), bf.geometry.to_hex(5, 3), bf.geometry.to_hex(3, 3)


def test_reach_follows_the_doors_and_a_clone_keeps_its_own(tmp_path: Path) -> None:
    bf, left, right, gap = _door_field(tmp_path)
    shut = reach(bf, left, 30)
    assert right not in shut.costs
    twin = bf.clone()
    bf.set_door(gap, True)
    assert reach(bf, left, 30).cost_to(right) == 4  # the door opened: searched again
    assert right not in reach(twin, left, 30).costs  # the clone's door is still shut
    bf.set_door(gap, False)
    assert right not in reach(bf, left, 30).costs


@dataclass
class _Ctx:
    options: list[str] = field(default_factory=list)


def _options(ctx: _Ctx, unit: int) -> list[str]:
    return ctx.options


def _targets(ctx: _Ctx, unit: int, option: str) -> Picks:
    return Picks(targets=(7,))


def test_offers_per_option_none_nothing_to_pick_and_only_one() -> None:
    hidden: ActionDef[_Ctx] = ActionDef("fire", options=_options)
    listed: ActionDef[_Ctx] = ActionDef("hand_off", "target", options=_options, no_options="carrying nothing")
    ctx = _Ctx()
    assert offer(ctx, hidden, 1, "side1") == []  # no weapon of the kind: not offered at all
    (empty,) = offer(ctx, listed, 1, "side1")
    assert not empty.enabled and empty.option == "" and empty.reason == "Hand off: carrying nothing"
    ctx.options = ["Canteen", "Jail Keys"]
    both = offer(ctx, listed, 1, "side1", picks=_targets)
    assert [(a.option, a.enabled, a.targets) for a in both] == [
        ("Canteen", True, (7,)),
        ("Jail Keys", True, (7,)),
    ]
    assert [a.option for a in offer(ctx, listed, 1, "side1", only="Jail Keys")] == ["Jail Keys"]
    assert [a.option for a in offer(ctx, listed, 1, "side1", only="Map")] == ["Canteen", "Jail Keys"]


def test_a_command_naming_an_option_its_action_takes_none_of_is_refused(tmp_path: Path) -> None:
    bf = load_battlefield(mf.standard_map(tmp_path, 8, 8, with_deploy=True))
    flee_def: ActionDef[_Ctx] = ActionDef("flee")
    (flee,) = offer(_Ctx(), flee_def, 1, "side1")
    assert check_command([flee], Command("flee", actor=1), bf) == (flee, None)
    assert check_command([flee], Command("flee", actor=1, option="Canteen"), bf) == (
        flee,
        "Flee takes no option",
    )
    assert check_command([flee], Command("flee", actor=1, target=2), bf)[1] == "Flee takes no single target"


@dataclass
class _Step:
    kind: str
    unit: int
    reactors: list[int] = field(default_factory=list)
    stage: int = 0


def test_a_flow_step_may_wait_for_a_decision_without_a_window() -> None:
    def advance(ctx: None, step: _Step) -> bool:
        step.stage += 1
        return step.stage == 2  # waits at stage 2 (hits to assign), then goes on

    flow: Flow[None, _Step] = Flow(
        {"attack": advance}, still_reacts=lambda c, s, u: True, stop=lambda c: False
    )
    stack = [_Step("attack", 1)]
    flow.run(None, stack)
    assert stack[0].stage == 2
    stack[0].kind = "done"
    with pytest.raises(Exception, match="no handler"):
        flow.run(None, stack)


def _helps(ctx: _Ctx, step: _Step, unit: int) -> Picks:
    return Picks(targets=(step.unit,) if unit != step.unit else ())


def test_reactions_are_aimed_by_the_step_that_opened_the_window() -> None:
    nudge: ActionDef[_Ctx] = ActionDef("nudge", "target", windows=("nudge",), window_picks=_helps)
    walk: ActionDef[_Ctx] = ActionDef("move", "path")  # no window: never a reaction
    step = _Step("attack", 2)
    ctx = _Ctx()
    found = reactors(
        ctx, [1, 2, 3], "nudge", step, actions=lambda u: [walk, nudge], usable=lambda u, d: u != 3
    )
    assert found == [1]  # 2 is the attacker itself (nothing to aim at), 3 cannot act now
    offered = window_actions(
        ctx, [walk, nudge], 1, "side1", window="nudge", step=step, problem=lambda d, o: None
    )
    assert [(a.action, a.targets) for a in offered] == [("nudge", (2,)), ("pass", ())]


def test_stacking_deployment_spreads_units_one_per_tile_while_tiles_last(tmp_path: Path) -> None:
    m = rk.new_match(
        rk.rifters("side1", rk.rifter("cunning"), rk.rifter("bold"), rk.rifter("daring")),
        rk.outlaws("side2", "outlaw_goon", "outlaw_goon"),
    )
    commands = m.auto_deploy()
    spots = m.battlefield.deploy_spots("side1")
    side1 = [c.hex for c in commands if c.side == "side1"]
    assert side1 == spots[:3] and len(set(side1)) == 3


def test_each_rift_ruleset_builds_its_own_books_of_actions_and_traits() -> None:
    """Nothing is registered at import: each instance's actions and traits are its own."""
    from game.rules.rift import RULESET, RiftRuleset
    from game.rules.rift.hooks import define
    from game.rules.rift.ruleset import build_books

    other = RiftRuleset()
    assert other.actions is not RULESET.actions and other.traits is not RULESET.traits
    assert other.actions.ids() == RULESET.actions.ids() and "tactical_reposition" in other.actions
    assert [t.id for t in other.traits] == [t.id for t in RULESET.traits]
    other.actions.add(define("sing"))  # a variant's own action: the shared instance does not see it
    assert "sing" in other.actions and "sing" not in RULESET.actions
    book, _ = build_books()
    with pytest.raises(ValueError, match="registered twice"):
        book.add(define("move"))
