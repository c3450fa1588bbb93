"""Aiming an action on the map (game/ui/picking.py, no pygame): the Picker follows the LegalAction
contract only and asks the match for paths, odds and who a blast reaches."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from game.commands import Command
from game.engine.match import Match
from game.ui.picking import Picker, units_at
from tests.rules import frontier_kit as fk
from tests.rules import rift_kit as rk
from tests.rules.frontier_kit import at, open_map

PISTOL = "mdtc_model_4_pistol"


def _rift(tmp_path: Path, *chars: object, goons: int = 2) -> Match:
    side1 = rk.rifters("side1", *(chars or (rk.rifter("calculated"),)))  # type: ignore[arg-type]
    m = rk.new_match(side1, rk.outlaws("side2", *["outlaw_goon"] * goons), 1, open_map(tmp_path))
    rk.deploy(m)
    return m


def test_fire_names_no_target_but_pointing_at_a_unit_shows_the_odds_against_it(tmp_path: Path) -> None:
    m = _rift(tmp_path)
    me, near, far = rk.unit(m, "side1"), rk.unit(m, "side2", 0), rk.unit(m, "side2", 1)
    rk.place(m, me, at(5))
    rk.place(m, near, at(8))
    rk.place(m, far, at(25))  # beyond the pistol's 6t
    rk.give_turn(m, me)
    picker = Picker(m, rk.find(m, me, "fire", PISTOL))
    assert picker.reachable_targets() == (near,)
    hover = picker.hover(at(8))
    assert hover.valid and hover.target == near
    assert hover.preview == m.preview(Command("fire", actor=me, side="side1", option=PISTOL, target=near))
    assert not picker.hover(at(25)).valid and not picker.hover(at(12)).valid
    assert picker.click(at(12)) is None
    fire = picker.click(at(8))
    assert fire is not None and fire.action == "fire" and fire.option == PISTOL
    assert m.validate(fire) is None


def test_move_previews_the_path_and_its_cost_and_refuses_out_of_reach(tmp_path: Path) -> None:
    m = _rift(tmp_path)
    me = rk.unit(m, "side1")
    rk.place(m, me, at(5))
    rk.give_turn(m, me)
    picker = Picker(m, rk.find(m, me, "move"))
    hover = picker.hover(at(7))
    assert hover.valid and hover.path[0] == at(5) and hover.path[-1] == at(7) and hover.path_cost == 2
    assert picker.hover(at(9)).reason == "out of reach"
    move = picker.click(at(7))
    assert move is not None
    m.apply(move)
    assert m.position(me) == at(7)


def test_explosive_shows_who_the_blast_would_catch(tmp_path: Path) -> None:
    m = _rift(tmp_path, goons=3)
    me = rk.unit(m, "side1")
    g = [rk.unit(m, "side2", i) for i in range(3)]
    rk.place(m, me, at(3))
    for who, col in zip(g, (7, 8, 12), strict=True):
        rk.place(m, who, at(col))
    rk.give_turn(m, me)
    picker = Picker(m, rk.find(m, me, "explosive", "mdtc_antipersonnel_grenade"))
    hover = picker.hover(at(7))
    assert hover.valid and set(hover.caught) == {g[0], g[1]}
    assert hover.command is not None and hover.command.hex == at(7)


def test_assign_takes_one_click_per_hit_in_die_order_and_can_take_one_back(tmp_path: Path) -> None:
    """Through the Rift: "Assign each die to a valid target. You may choose the same target more than
    once." - one click per successful die; the command is complete with the last one."""
    m, me, g1, g2 = rk.fired_at_two_goons(open_map(tmp_path))
    picker = Picker(m, rk.find(m, me, "assign"))
    assert picker.action.dice == (6, 5)  # the successful dice, in die order
    assert picker.click(at(8)) is None and picker.slots == [g1, None]
    picker.unpick()
    assert picker.slots == [None, None]
    assert picker.click(at(9)) is None
    assert picker.click(at(12)) is None  # nobody there: no pick
    done = picker.click(at(9))
    assert done is not None and done.targets == (g2, g2)
    assert picker.preview() is not None and picker.preview().per_target == ((g2, 11),)  # type: ignore[union-attr]


def test_assign_puts_a_dragged_die_on_its_target_in_any_order_and_sends_in_die_order(
    tmp_path: Path,
) -> None:
    """Through the Rift: "Assign each die to a valid target." - a die dropped on a target (the second
    die first) fills its own slot; the command names the targets in die order."""
    m, me, g1, g2 = rk.fired_at_two_goons(open_map(tmp_path))
    picker = Picker(m, rk.find(m, me, "assign"))
    picker.assign(1, g2)  # the 5 dragged onto the second goon
    assert picker.slots == [None, g2] and picker.command() is None
    picker.hold(1)  # picked up again and clicked onto the first goon: it moves
    assert picker.click(at(8)) is None and picker.slots == [None, g1]
    assert picker.next_die == 0
    done = picker.click(at(9))
    assert done is not None and done.targets == (g2, g1)
    picker.unpick()  # takes back the die assigned last (the 6)
    assert picker.slots == [None, g1]


def test_frontier_shoot_picks_a_target_by_its_hex(tmp_path: Path) -> None:
    m = fk.new_match(open_map(tmp_path), fk.law("sheriff", "deputy"), fk.outlaws("gang_leader", "outlaw"))
    deputy, outlaw = fk.unit(m, "side1", 1), fk.unit(m, "side2", 1)
    fk.setup_field(m, {deputy: at(5), outlaw: at(10)})
    fk.give_turn(m, deputy)
    shoot = next(a for a in m.legal_actions() if a.action == "shoot" and a.actor == deputy)
    picker = Picker(m, shoot)
    assert outlaw in picker.reachable_targets()
    hover = picker.hover(at(10))
    assert hover.valid and hover.preview is not None and hover.preview.target_number is not None
    cmd = picker.click(at(10))
    assert cmd == replace(shoot.command(), target=outlaw)
    assert units_at(m, at(10)) == [outlaw]


def test_frontier_charge_names_the_hostile_its_path_ends_next_to_or_none(tmp_path: Path) -> None:
    """A charge (needs "path", with targets): a tile within 1" of a target names it; any other tile in
    reach is a charge toward nothing, which the rules accept too (docs/RULES.md Frontier 16)."""
    m = fk.new_match(open_map(tmp_path), fk.law("sheriff", "deputy"), fk.outlaws("gang_leader", "outlaw"))
    deputy, leader, outlaw = fk.unit(m, "side1", 1), fk.unit(m, "side2"), fk.unit(m, "side2", 1)
    fk.setup_field(m, {deputy: at(5), outlaw: at(10), leader: at(25)})
    fk.give_turn(m, deputy)
    charge = next(a for a in m.legal_actions() if a.action == "charge" and a.actor == deputy)
    assert charge.targets == (outlaw,)  # the leader is beyond Move 5 + 4
    picker = Picker(m, charge)
    next_to = picker.hover(at(9))
    assert next_to.valid and next_to.target == outlaw and next_to.preview is not None
    toward_nothing = picker.hover(at(5, 1))
    assert toward_nothing.valid and toward_nothing.target is None and toward_nothing.command is not None
    for h in (at(9), at(5, 1)):
        cmd = picker.click(h)
        assert cmd is not None and cmd.action == "charge" and m.validate(cmd) is None


def test_a_walk_follows_the_rules_own_paths(tmp_path: Path) -> None:
    """Issue 10: "Turning a LegalAction into Commands is half specified": the picker (and the demo player)
    walk the path the rules chose (LegalAction.path_to) at the cost the rules counted, not one of their
    own; every end hex offered is reached that way and the command sent is legal."""
    from game.ui.demo import walk

    m = fk.new_match(open_map(tmp_path), fk.law("sheriff", "deputy"), fk.outlaws("gang_leader", "outlaw"))
    deputy, outlaw = fk.unit(m, "side1", 1), fk.unit(m, "side2", 1)
    fk.setup_field(m, {deputy: at(5), outlaw: at(7)})
    fk.give_turn(m, deputy)
    move = next(a for a in m.legal_actions() if a.action == "move" and a.actor == deputy)
    assert move.needs == "path" and move.paths is not None and move.hexes
    picker = Picker(m, move)
    for end in move.hexes:
        hover = picker.hover(end)
        assert hover.valid and hover.path == move.path_to(end) == walk(m, move, end)
        assert hover.path_cost == move.paths.cost_to(end)
        assert hover.command is not None and hover.command.path == hover.path
        assert m.validate(hover.command) is None
