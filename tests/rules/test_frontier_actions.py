"""Action points and the actions list (simple, basic and major actions), through commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.commands import Command
from game.engine.match import Match
from game.events import ActivationEnded, ItemTaken, Moved
from game.hexgrid import Hex
from game.rules.frontier import state as st
from game.rules.frontier.components import Weapon
from tests import maps_factory as mf
from tests.rules.frontier_kit import (
    at,
    cmd,
    give_turn,
    law,
    new_match,
    open_map,
    outlaws,
    place,
    reason_for,
    script,
    setup_field,
    to_action_phase,
    unit,
)


@pytest.fixture
def duel(tmp_path: Path) -> Match:
    """Sheriff (revolver) and Deputy against a Gang Leader (rifle) and an Outlaw (tomahawk)."""
    path = open_map(
        tmp_path,
        terrain={(12, 4): mf.BARREL, (20, 5): mf.SCREE},
        doors=[(at(15) + Hex(0, 2), "closed")],
        items=[(at(5) + Hex(2, -1), "Smelling Salts")],
    )
    m = new_match(path, law("sheriff", "deputy"), outlaws(("gang_leader", "rifle"), "outlaw"))
    setup_field(
        m,
        {
            unit(m, "side1"): at(5),
            unit(m, "side1", 1): at(5, 3),
            unit(m, "side2"): at(15),
            unit(m, "side2", 1): at(25, 8),
        },
    )
    yield m
    m.close()


def test_two_action_points_and_replenished_each_action_phase(duel: Match) -> None:
    """Rulebook: "Each Unit has a total of 2 action points (AP) that they can use during the Action Phase."
    and "AP replenishes at the beginning of each Action Phase." """
    m = duel
    to_action_phase(m)
    assert all(st.ap(u).current == 2 for u in m.units())
    first = st.game_state(m).active
    m.apply(Command("aim", actor=first)) if reason_for(m, first, "aim") is None else None
    while st.game_state(m).round == 1:
        m.apply(Command("end_activation", actor=st.game_state(m).active))
    to_action_phase(m)
    assert all(st.ap(u).current == 2 for u in m.units())


def test_move_is_a_simple_action_that_may_be_repeated(duel: Match) -> None:
    """Rulebook: "Multiple Simple actions can be performed by a Unit during Activation; the same Simple
    action may be performed twice." "Move - The Unit makes a standard move." (Move in inches = hexes)."""
    m = duel
    sheriff = unit(m, "side1")
    give_turn(m, sheriff)
    events = m.apply(Command("move", actor=sheriff, path=(at(5), at(6), at(7))))
    assert next(e for e in events if isinstance(e, Moved)).cost == 2
    assert st.ap(sheriff).current == 1
    events = m.apply(Command("move", actor=sheriff, path=tuple(at(c) for c in range(8, 13))))
    assert m.position(sheriff) == at(12)
    assert any(isinstance(e, ActivationEnded) for e in events)  # out of AP: the activation ends


def test_move_is_checked_step_by_step(duel: Match) -> None:
    """Move: up to the Move stat in inches; no jumping, no walking through units or closed doors."""
    m = duel
    sheriff = unit(m, "side1")
    give_turn(m, sheriff)
    too_far = tuple(at(c) for c in range(6, 12))
    assert m.validate(Command("move", actor=sheriff, path=too_far)) == (
        'Move: the path costs 6" of movement, the unit has 5"'
    )
    assert "is not next to" in (m.validate(Command("move", actor=sheriff, path=(at(7),))) or "")
    assert m.validate(Command("move", actor=sheriff, path=())) == "Move: the path has no step"
    place(m, unit(m, "side1", 1), at(6))
    assert "is taken by Deputy" in (m.validate(Command("move", actor=sheriff, path=(at(6),))) or "")


def test_difficult_terrain_costs_its_move_cost(duel: Match) -> None:
    """docs/RULES.md "Movement": 1 hex = 1 inch; entering a hex costs the map's move_cost."""
    m = duel
    leader = unit(m, "side2")
    give_turn(m, leader)
    path = (at(16), at(17), at(18), at(19), at(20))  # 4 + scree 2 = 6 > 5
    assert "costs 6" in (m.validate(Command("move", actor=leader, path=path)) or "")
    assert m.validate(Command("move", actor=leader, path=path[:-1])) is None


def test_basic_actions_cannot_be_repeated_in_an_activation(duel: Match) -> None:
    """Rulebook: "Multiple Basic Actions can be performed by a Unit during its Activation; however, the same
    Basic action cannot be performed twice in the same Activation." """
    m = duel
    sheriff = unit(m, "side1")
    give_turn(m, sheriff, ap=3)
    m.apply(Command("aim", actor=sheriff))
    assert m.validate(Command("aim", actor=sheriff)) == "Aim: already done this activation"
    script(m, 1)
    m.apply(Command("shoot", actor=sheriff, target=unit(m, "side2")))
    assert reason_for(m, sheriff, "shoot") == "Shoot (Revolver): already shot this activation"


def test_major_actions_cost_2_ap(duel: Match) -> None:
    """Rulebook: "Major Actions - 2AP": with one AP left, no Charge and no Leader Action."""
    m = duel
    sheriff = unit(m, "side1")
    give_turn(m, sheriff, ap=1)
    assert reason_for(m, sheriff, "charge") == "Charge: needs 2 AP, the unit has 1"
    assert reason_for(m, sheriff, "leader_action") == "Leader Action: Follow Me!: needs 2 AP, the unit has 1"


def test_reload_refills_and_is_refused_when_full(duel: Match) -> None:
    """Rulebook: "Reload - The Unit reloads its weapon." "When a weapon has been used the number of times
    equal to its AMMO count, the user must take a Reload Action to replenish the weapon's AMMO." """
    m = duel
    sheriff = unit(m, "side1")
    give_turn(m, sheriff)
    assert reason_for(m, sheriff, "reload") == "Reload (Revolver): Revolver is full"
    st.comp(sheriff, Weapon).ammo = 0  # set-up: six shots fired
    assert reason_for(m, sheriff, "shoot") == "Shoot (Revolver): the Revolver is empty; Reload first"
    m.apply(Command("reload", actor=sheriff))
    assert st.comp(sheriff, Weapon).ammo == 6
    assert reason_for(m, sheriff, "shoot") is None


def test_melee_weapons_need_no_reload(duel: Match) -> None:
    """Rulebook: "Some weapons don't have an AMMO count, this shows that they can be used indefinitely"."""
    m = duel
    outlaw = unit(m, "side2", 1)
    give_turn(m, outlaw)
    # an action the unit can never take is not offered (no button that could never light up; own
    # decision, docs/RULES.md Frontier 32); a command for it is refused with the reason
    offered = {a.action for a in m.legal_actions() if a.actor == outlaw}
    assert {"reload", "shoot", "aim", "leader_action"}.isdisjoint(offered)
    assert {"move", "melee", "charge", "take_cover"} <= offered
    assert m.validate(cmd("reload", outlaw)) == "Reload (Tomahawk): the Tomahawk has no ammunition to reload"
    assert m.validate(cmd("shoot", outlaw, target=unit(m, "side1", 0))) == (
        "Shoot (Tomahawk): the unit has no ranged weapon"
    )
    assert m.validate(cmd("aim", outlaw)) == "Aim: the unit has no ranged weapon"
    no_leader = "Leader Action: only a Leader with a Leader Ability can"
    assert m.validate(cmd("leader_action", outlaw)) == no_leader
    words = [label for label, _ in m.ruleset.offer_words(m, outlaw)]  # the action bar's sizing
    assert not any(w.startswith(("Reload", "Shoot", "Aim", "Leader")) for w in words)


def test_a_shooter_and_a_leader_keep_the_actions_they_can_take(duel: Match) -> None:
    """Rulebook: "Shoot - The Unit makes a Ranged Weapon attack." and "Leader Action - A Leader Unit may
    use this action to expend their Leader Ability.": both stay offered to a unit that has what they need,
    even when it cannot take them now (greyed, with the reason)."""
    m = duel
    sheriff = unit(m, "side1", 0)
    give_turn(m, sheriff)
    offered = {a.action for a in m.legal_actions() if a.actor == sheriff}
    assert {"reload", "shoot", "aim", "leader_action"} <= offered


def test_operate_door_opens_and_closes_within_1_and_changes_sight_and_movement(duel: Match) -> None:
    """Rulebook: "Operate Door - Open OR close a doorway within 1" of the Unit taking the action." A closed
    door blocks sight and movement (docs/MAPS.md)."""
    m = duel
    leader = unit(m, "side2")
    door = at(15) + Hex(0, 2)
    near, beyond = at(15) + Hex(0, 1), at(15) + Hex(0, 3)
    give_turn(m, leader, ap=3)
    assert reason_for(m, leader, "operate_door") == 'Operate Door: no door within 1"'
    m.apply(Command("move", actor=leader, path=(near,)))
    assert "the door at" in (m.validate(Command("move", actor=leader, path=(door,))) or "")
    assert not m.battlefield.line_of_sight(near, beyond)
    m.apply(Command("operate_door", actor=leader, hex=door))
    assert m.battlefield.door_at(door).is_open  # type: ignore[union-attr]
    assert m.battlefield.line_of_sight(near, beyond)
    assert m.validate(Command("move", actor=leader, path=(door,))) is None
    m.apply(Command("operate_door", actor=leader, hex=door))
    assert not m.battlefield.door_at(door).is_open  # type: ignore[union-attr]


def test_take_item_puts_it_into_the_posse_inventory(duel: Match) -> None:
    """Rulebook: "Take Item - The Unit taking this action pickups up an Item within 1"." and "Each Posse has
    an inventory in which items can be stored." """
    m = duel
    sheriff = unit(m, "side1")
    give_turn(m, sheriff)
    assert reason_for(m, sheriff, "take_item") == 'Take Item: no item within 1"'
    m.apply(Command("move", actor=sheriff, path=(at(6),)))
    take = next(a for a in m.legal_actions() if a.action == "take_item")
    assert take.option == "Smelling Salts" and take.hexes == (at(5) + Hex(2, -1),)  # one offer per item
    events = m.apply(Command("take_item", actor=sheriff, hex=at(5) + Hex(2, -1), option="Smelling Salts"))
    assert [e.item for e in events if isinstance(e, ItemTaken)] == ["Smelling Salts"]
    assert st.inventory(m, "side1").items == ["Smelling Salts"]  # type: ignore[union-attr]
    assert st.items_on_map(m) == []


def test_use_item_smelling_salts_revive_a_seriously_injured_ally(duel: Match) -> None:
    """Rulebook: "Use Item - The Unit taking this action may use an Item from their Posse Inventory."
    "Seriously Injured Units can be revived with items such as Smelling Salts and considered Wounded." """
    m = duel
    sheriff, deputy = unit(m, "side1"), unit(m, "side1", 1)
    st.inventory(m, "side1").items.append("Smelling Salts")  # type: ignore[union-attr]
    place(m, deputy, at(6))
    hp = st.health(deputy)
    hp.toughness, hp.wounds = 0, 0
    status = st.status(deputy)
    status.seriously_injured = status.prone = status.wounded = True
    give_turn(m, sheriff)
    use = next(a for a in m.legal_actions() if a.action == "use_item")
    assert use.enabled and use.option == "Smelling Salts" and use.targets == (deputy,)
    m.apply(Command("use_item", actor=sheriff, option="Smelling Salts", target=deputy))
    assert not st.seriously_injured(deputy) and st.status(deputy).wounded and st.health(deputy).wounds == 1
    assert st.inventory(m, "side1").items == []  # type: ignore[union-attr]


def test_stand_up_ends_prone(duel: Match) -> None:
    """Rulebook: "Prone - A Unit may be knocked prone; they must use the Stand Up action from the action
    list to end this effect." A prone unit cannot move (docs/RULES.md "Prone")."""
    m = duel
    sheriff = unit(m, "side1")
    st.status(sheriff).prone = True
    give_turn(m, sheriff)
    assert reason_for(m, sheriff, "move") == "Move: the unit is prone; Stand Up first"
    m.apply(Command("stand_up", actor=sheriff))
    assert not st.status(sheriff).prone
    assert reason_for(m, sheriff, "stand_up") == "Stand Up: already done this activation"


def test_take_cover_only_behind_cover_and_then_no_shooting(duel: Match) -> None:
    """Rulebook: "Take Cover - If the Unit is behind any kind of cover (Half or Total), they may take cover.
    They cannot shoot" """
    m = duel
    sheriff = unit(m, "side1")
    give_turn(m, sheriff, ap=4)
    assert reason_for(m, sheriff, "take_cover") == "Take Cover: no half or total cover here"
    m.apply(Command("move", actor=sheriff, path=tuple(at(c) for c in range(6, 11))))
    m.apply(Command("move", actor=sheriff, path=(at(11, 4),)))
    m.apply(Command("take_cover", actor=sheriff))
    assert st.status(sheriff).taking_cover
    assert m.validate(Command("shoot", actor=sheriff, target=unit(m, "side2"))) == (
        "Shoot (Revolver): a unit taking cover cannot shoot"
    )


def test_legal_actions_lists_every_action_with_cost_and_reason(duel: Match) -> None:
    m = duel
    sheriff = unit(m, "side1")
    give_turn(m, sheriff)
    actions = {a.action: a for a in m.legal_actions()}
    assert set(actions) == {
        "move", "reload", "coup_de_grace", "operate_door", "take_item", "shoot", "aim", "melee",
        "disengage", "take_cover", "stand_up", "use_item", "leader_action", "charge", "end_activation",
    }  # fmt: skip
    assert actions["move"].cost == 1 and actions["charge"].cost == 2 and actions["end_activation"].cost == 0
    assert actions["shoot"].enabled and actions["shoot"].targets == (unit(m, "side2"),)
    assert actions["melee"].reason == 'Melee (Fists): no hostile unit within 1"'
    assert actions["disengage"].reason == "Disengage: not in close combat"
    assert not actions["coup_de_grace"].enabled


def test_commands_of_a_unit_out_of_turn_are_refused(duel: Match) -> None:
    m = duel
    sheriff, leader = unit(m, "side1"), unit(m, "side2")
    give_turn(m, sheriff)
    assert m.validate(Command("aim", actor=leader)) == "it is Sheriff's activation, not Gang Leader's"
    assert m.validate(Command("fly", actor=sheriff)) == "unknown action 'fly'"
    assert m.validate(Command("aim", actor=999)) == "there is no unit 999"
    assert m.validate(Command("aim", actor=sheriff, side="side2")) == "Sheriff is not in side2's posse"
