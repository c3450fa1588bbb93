"""The End phase's Cool checks, Leaders (Leadership, Follow Me!, Dastardly, Recharge) and winning."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from game.commands import Command
from game.components import Removed
from game.engine.match import Match
from game.events import MatchEnded, Roll, StatusChanged, UnitRemoved
from game.rules.frontier import state as st
from tests.rules.frontier_kit import (
    at,
    give_turn,
    hurt,
    law,
    new_match,
    open_map,
    outlaws,
    script,
    setup_field,
    to_action_phase,
    unit,
)


@pytest.fixture
def town(tmp_path: Path) -> Iterator[Match]:
    """Sheriff, Deputy, Hired Gun, Dog against Gang Leader and three Outlaws: 8 units, threshold 4."""
    m = new_match(
        open_map(tmp_path),
        law("sheriff", "deputy", "hired_gun", "dog"),
        outlaws("gang_leader", "outlaw", "outlaw", "outlaw"),
    )
    setup_field(m, {})
    yield m
    m.close()


def _down(m: Match, who: int) -> None:
    """Set-up: ``who`` is Seriously Injured."""
    m.enter()
    hurt(m, who, 99, None, [])


def _end_phase(m: Match, *rolls: int) -> list[object]:
    """Run one End phase: the acting unit ends its activation with the cool-check dice scripted."""
    who = next(u for u in m.units() if st.able(u))
    give_turn(m, who)
    script(m, *rolls)
    return m.apply(Command("end_activation", actor=who))


def _cool(events: list[object]) -> list[Roll]:
    return [e for e in events if isinstance(e, Roll) and e.check == "cool"]


def test_no_cool_checks_before_the_threshold(town: Match) -> None:
    """Rulebook: "Cool checks are made from the point where half the Units on the field (rounded down) are
    considered Out of Action or when the Leader of their Posse is considered Out of Action." """
    m = town
    _down(m, unit(m, "side2", 1))
    _down(m, unit(m, "side2", 2))
    _down(m, unit(m, "side2", 3))
    assert _cool(_end_phase(m)) == []


def test_cool_checks_from_half_the_units_on_the_field(town: Match) -> None:
    """Half of 8 units is 4: from the 4th unit down (Seriously Injured counts), every able unit checks."""
    m = town
    for i in (1, 2, 3):
        _down(m, unit(m, "side2", i))
    _down(m, unit(m, "side1", 3))
    events = _end_phase(m, 6, 6, 6, 6)
    assert [r.unit for r in _cool(events)] == [unit(m, "side1", i) for i in range(3)] + [unit(m, "side2")]


def test_a_posse_whose_leader_is_out_of_action_checks(town: Match) -> None:
    """Rulebook: "... or when the Leader of their Posse is considered Out of Action." Only that posse."""
    m = town
    _down(m, unit(m, "side2"))
    events = _end_phase(m, 6, 6, 6)
    assert [r.unit for r in _cool(events)] == [unit(m, "side2", i) for i in (1, 2, 3)]
    assert all(r.modifiers == () for r in _cool(events))  # no Leadership without the leader


def test_leadership_is_added_while_the_leader_is_in_play_and_wounded_is_minus_1(town: Match) -> None:
    """Rulebook: "When a Unit makes a Cool check and their Leader is still in play, they may add their
    Leader's Leadership Skill number to their role." "Wounded units take a - 1 penalty to Cool checks." """
    m = town
    for i in (1, 2, 3):
        _down(m, unit(m, "side2", i))
    _down(m, unit(m, "side1", 3))
    deputy = unit(m, "side1", 1)
    st.status(deputy).wounded = True
    events = _end_phase(m, 3, 3, 3, 3)
    rolls = {r.unit: r for r in _cool(events)}
    sheriff, hired_gun = unit(m, "side1"), unit(m, "side1", 2)
    assert rolls[sheriff].modifiers == ()  # the leader does not add his own Leadership
    assert rolls[deputy].modifiers == (("Leadership (Sheriff)", 2), ("Wounded", -1))
    assert (rolls[deputy].total, rolls[deputy].success) == (4, True)  # Cool 4+
    assert rolls[hired_gun].modifiers == (("Leadership (Sheriff)", 2),)
    assert (rolls[hired_gun].total, rolls[hired_gun].success) == (5, True)  # Cool 5+


def test_a_failed_cool_check_breaks_the_unit_and_it_flees(town: Match) -> None:
    """Rulebook: "Broken - A Unit that fails its Cool check is considered broken. It immediately flees the
    battlefield and is removed from the Combat Encounter." """
    m = town
    _down(m, unit(m, "side2"))
    events = _end_phase(m, 1, 6, 6)
    outlaw = unit(m, "side2", 1)
    assert [(e.unit, e.reason) for e in events if isinstance(e, UnitRemoved)] == [(outlaw, "fled")]
    assert outlaw not in m.units() and outlaw not in m.occupied().values()


def test_follow_me_gives_up_to_2_units_within_4_an_ap_in_the_next_action_phase(tmp_path: Path) -> None:
    """Rulebook: "(Recharge 2) Follow Me! - The Sheriff can choose up to 2 other units within 4" of him.
    Units chosen this way gain 1 additional AP each in the next Action Phase." "Leader Action - A Leader
    Unit may use this action to expend their Leader Ability." """
    m = new_match(open_map(tmp_path), law("sheriff", "deputy", "hired_gun", "dog"), outlaws("gang_leader"))
    sheriff, deputy, hired_gun, dog = (unit(m, "side1", i) for i in range(4))
    setup_field(
        m, {sheriff: at(10), deputy: at(12), hired_gun: at(14), dog: at(15), unit(m, "side2"): at(28)}
    )
    give_turn(m, sheriff)
    action = next(a for a in m.legal_actions() if a.action == "leader_action")
    assert action.targets == (deputy, hired_gun) and action.cost == 2
    assert "choose 1 to 2" in (
        m.validate(Command("leader_action", actor=sheriff, targets=(deputy, hired_gun, dog))) or ""
    )
    assert "not an able ally within 4" in (
        m.validate(Command("leader_action", actor=sheriff, targets=(dog,))) or ""
    )
    m.apply(action.command(targets=(deputy, hired_gun)))
    assert st.ap(deputy).bonus_next == 1 and st.ap(hired_gun).bonus_next == 1
    # the next Action Phase: 3 AP for the chosen units
    to_action_phase(m)
    assert (st.ap(deputy).current, st.ap(hired_gun).current, st.ap(dog).current) == (3, 3, 2)
    m.close()


def test_recharge_2_waits_two_action_phases(tmp_path: Path) -> None:
    """Rulebook: "Leader Abilities also have a Recharge time. This is the number of Action Phases you must
    wait until you can utilise that ability again." Used in round 1: rounds 2 and 3 wait, round 4 may."""
    m = new_match(open_map(tmp_path), law("sheriff"), outlaws("gang_leader"))
    leader = unit(m, "side2")
    setup_field(m, {unit(m, "side1"): at(3), leader: at(25)})
    give_turn(m, leader, round_number=1)
    m.apply(Command("leader_action", actor=leader))
    for rnd, ready in ((2, False), (3, False), (4, True)):
        give_turn(m, leader, round_number=rnd)
        reason = m.validate(Command("leader_action", actor=leader))
        assert (reason is None) == ready, (rnd, reason)
        st.health(leader).temporary = 0
    m.close()


def test_dastardly_temporary_wound_is_lost_first(tmp_path: Path) -> None:
    """Rulebook: "Dastardly - The Gang Leader gains a temporary wound. The next time they take damage this
    wound is lost first" """
    m = new_match(open_map(tmp_path), law(("sheriff", "rifle")), outlaws("gang_leader"))
    sheriff, leader = unit(m, "side1"), unit(m, "side2")
    setup_field(m, {sheriff: at(5), leader: at(15)})
    give_turn(m, leader)
    m.apply(Command("leader_action", actor=leader))
    assert st.health(leader).temporary == 1
    give_turn(m, sheriff)
    script(m, 6)
    m.apply(Command("shoot", actor=sheriff, target=leader))  # Rifle: 2 damage
    hp = st.health(leader)
    assert (hp.temporary, hp.toughness, hp.wounds) == (0, 3, 2)  # 1 to the wound, 1 to Toughness 4
    m.close()


def test_losing_dastardlys_wound_does_not_make_the_gang_leader_wounded(tmp_path: Path) -> None:
    """Rulebook: "Wounded - Units that have taken any Wounds in a Combat Encounter are considered Wounded."
    / "Dastardly - The Gang Leader gains a temporary wound. The next time they take damage this wound is
    lost first". The temporary wound is gained and lost on top of his own track: losing it takes none of
    his Wounds, so he is not Wounded (no -1 to Cool) until his own Wounds drop (docs/RULES.md Frontier
    26a)."""
    m = new_match(open_map(tmp_path), law(("sheriff", "revolver")), outlaws("gang_leader"))
    sheriff, leader = unit(m, "side1"), unit(m, "side2")
    setup_field(m, {sheriff: at(5), leader: at(9)})
    give_turn(m, leader, ap=3)  # the activation goes on: no End phase in between
    m.apply(Command("leader_action", actor=leader))
    give_turn(m, sheriff)
    script(m, 6)
    events = m.apply(Command("shoot", actor=sheriff, target=leader))  # Revolver: 1 damage
    assert st.health(leader).temporary == 0 and not st.status(leader).wounded
    assert not [e for e in events if isinstance(e, StatusChanged) and e.status == "wounded"]
    assert m.ruleset.unit_view(m, leader).statuses == ()  # type: ignore[attr-defined]
    hurt(m, leader, 4, sheriff, [])
    assert (st.health(leader).toughness, st.health(leader).wounds) == (0, 2) and not st.status(leader).wounded
    hurt(m, leader, 1, sheriff, [])
    assert st.status(leader).wounded  # his own Wound lost
    m.close()


def test_winning_by_rendering_all_hostile_units_out_of_action(tmp_path: Path) -> None:
    """Rulebook: "A Posse wins a Combat Encounter by either, rendering all hostile Units Out of Action or
    causing all hostile Units to flee the Combat Encounter." and "any Units that are still considered
    Seriously Injured when the Combat encounter finishes are immediately classed as Out of Action." """
    m = new_match(open_map(tmp_path), law("hired_gun"), outlaws("outlaw", "outlaw"))
    hired_gun, a, b = unit(m, "side1"), unit(m, "side2"), unit(m, "side2", 1)
    setup_field(m, {hired_gun: at(10), a: at(11), b: at(25)})
    _down(m, b)
    give_turn(m, hired_gun)
    script(m, 6)
    m.apply(Command("melee", actor=hired_gun, target=a))  # Tomahawk 3 of the Outlaw's 2 + 3
    assert m.outcome() is None
    script(m, 6)
    give_turn(m, hired_gun)
    events = m.apply(Command("melee", actor=hired_gun, target=a))
    ended = [e for e in events if isinstance(e, MatchEnded)]
    assert ended and ended[0].winner == "side1" and ended[0].reason == "all hostile units are out of action"
    m.enter()
    assert all(st.comp(u, Removed).reason == "out_of_action" for u in (a, b))
    assert m.validate(Command("end_activation", actor=hired_gun)) == "the encounter is over"
    m.close()


def test_winning_when_all_hostile_units_fled(tmp_path: Path) -> None:
    m = new_match(open_map(tmp_path), law("sheriff", "deputy"), outlaws("outlaw"))
    setup_field(m, {unit(m, "side1"): at(3), unit(m, "side1", 1): at(3, 3), unit(m, "side2"): at(25)})
    _down(m, unit(m, "side1", 1))  # 1 of 3 down = half (rounded down): checks from now on
    events = _end_phase(m, 6, 1)
    assert m.outcome() is not None and m.outcome().reason == "all hostile units fled"  # type: ignore[union-attr]
    assert [e.winner for e in events if isinstance(e, MatchEnded)] == ["side1"]
    m.close()


def test_the_sun_goes_down_after_the_last_round(tmp_path: Path) -> None:
    """docs/RULES.md "Round limit" (Hexslinger's own): after 20 rounds the encounter is a draw."""
    m = new_match(open_map(tmp_path), law("sheriff"), outlaws("gang_leader"))
    setup_field(m, {unit(m, "side1"): at(3), unit(m, "side2"): at(25)})
    give_turn(m, unit(m, "side1"), round_number=20)
    m.apply(Command("end_activation", actor=unit(m, "side1")))
    outcome = m.outcome()
    assert outcome is not None and outcome.winner is None and "20 rounds" in outcome.reason
    m.close()


def test_cool_checks_of_one_end_phase_are_simultaneous(town: Match) -> None:
    """Rulebook: "During the End Phase, Units must make a Cool check" / "When a Unit makes a Cool check and
    their Leader is still in play, they may add their Leader's Leadership Skill number to their role." /
    "It immediately flees the battlefield". The checks of one End phase are made together against the
    field as the phase began: a Sheriff who breaks still lends his Leadership to the checks after his;
    the broken flee once all are rolled (docs/RULES.md Frontier 21a)."""
    m = town
    for i in (1, 2, 3):
        _down(m, unit(m, "side2", i))
    _down(m, unit(m, "side1", 3))
    sheriff, deputy, hired_gun = (unit(m, "side1", i) for i in range(3))
    events = _end_phase(m, 1, 2, 3, 6)  # the Sheriff (Cool 3+) fails; the Deputy's 2 + 2 makes its 4+
    rolls = {r.unit: r for r in _cool(events)}
    assert not rolls[sheriff].success
    assert rolls[deputy].modifiers == (("Leadership (Sheriff)", 2),) and rolls[deputy].success
    assert rolls[hired_gun].modifiers == (("Leadership (Sheriff)", 2),) and rolls[hired_gun].success
    removed = [i for i, e in enumerate(events) if isinstance(e, UnitRemoved)]
    last_check = max(i for i, e in enumerate(events) if isinstance(e, Roll) and e.check == "cool")
    assert [events[i].unit for i in removed] == [sheriff] and removed[0] > last_check  # type: ignore[attr-defined]


def test_how_many_units_are_down_does_not_modify_a_cool_check(town: Match) -> None:
    """Rulebook: "Units must make a Cool check based on how many other Units have been rendered out of
    action during the current Combat Encounter. Cool checks are made from the point where half the Units
    on the field (rounded down) are considered Out of Action". The count decides from when checks are
    made (the second sentence says how); the modifiers are the Leadership and Wounded ones the book
    numbers, whether 4 or 6 of the 8 are down (docs/RULES.md Frontier 21b)."""
    m = town
    for i in (1, 2, 3):
        _down(m, unit(m, "side2", i))
    _down(m, unit(m, "side1", 3))
    deputy = unit(m, "side1", 1)
    four_down = {r.unit: r for r in _cool(_end_phase(m, 6, 6, 6, 6))}[deputy]
    _down(m, unit(m, "side1", 2))
    _down(m, unit(m, "side2"))
    six_down = {r.unit: r for r in _cool(_end_phase(m, 6, 6))}[deputy]
    assert four_down.modifiers == six_down.modifiers == (("Leadership (Sheriff)", 2),)
    assert four_down.target_number == six_down.target_number == 4
