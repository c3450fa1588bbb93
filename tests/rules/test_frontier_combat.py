"""Checks, shooting and melee, weapons, damage and statuses, cover, Take Cover, Aim, Charge, previews."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from game.commands import Command
from game.engine.match import Match
from game.events import DamageTaken, Note, Roll, StatusChanged, UnitRemoved
from game.hexgrid import hex_distance
from game.rules.frontier import RULESET, rounds
from game.rules.frontier import state as st
from game.rules.frontier.combat import check_chance
from game.rules.frontier.odds import attack_odds
from tests import maps_factory as mf
from tests.rules.frontier_kit import (
    at,
    give_turn,
    hurt,
    law,
    new_match,
    open_map,
    outlaws,
    place,
    script,
    setup_field,
    unit,
)


@pytest.fixture
def field(tmp_path: Path) -> Iterator[Match]:
    """Law: Sheriff (rifle), Deputy (revolver), Hired Gun (tomahawk); Outlaws: Gang Leader (tomahawk),
    Outlaw (revolver), Outlaw (tomahawk). Half cover (a barrel) at col 14 of row 5, total cover (a boulder)
    at col 14 of row 3."""
    path = open_map(tmp_path, terrain={(14, 5): mf.BARREL, (14, 3): mf.BOULDER})
    m = new_match(
        path,
        law(("sheriff", "rifle"), "deputy", ("hired_gun", "tomahawk")),
        outlaws(("gang_leader", "tomahawk"), ("outlaw", "revolver"), ("outlaw", "tomahawk")),
    )
    setup_field(
        m,
        {
            unit(m, "side1"): at(2, 9),
            unit(m, "side1", 1): at(2, 1),
            unit(m, "side1", 2): at(2, 7),
            unit(m, "side2"): at(27, 9),
            unit(m, "side2", 1): at(27, 1),
            unit(m, "side2", 2): at(27, 7),
        },
    )
    yield m
    m.close()


def _rolls(events: list[object]) -> list[Roll]:
    return [e for e in events if isinstance(e, Roll)]


def test_checks_succeed_on_equal_or_greater() -> None:
    """Rulebook: "To make a check with a Unit, roll 1d6 and add any modifiers which may affect the role,
    then compare it to the value of the skill which the Unit is making a check in. If the number is equal to
    or greater than the number in the skill then the check succeeds." """
    assert check_chance(4, 0) == Fraction(1, 2)
    assert check_chance(3, 0) == Fraction(2, 3)
    assert check_chance(5, 1) == Fraction(1, 2)
    assert check_chance(5, -2) == 0  # no automatic hit on a 6 (docs/RULES.md "Checks")
    assert check_chance(2, 1) == 1


def test_shooting_is_a_ballistics_check(field: Match) -> None:
    """Rulebook: "Any attack action, whether Ballistic or Melee, is considered a check in the corresponding
    skill and is handled as all checks are." Deputy (Ballistics 4+) at 10": long range, no modifier."""
    m = field
    deputy, outlaw = unit(m, "side1", 1), unit(m, "side2", 1)
    place(m, deputy, at(5))
    place(m, outlaw, at(15, 7))
    give_turn(m, deputy, ap=4)
    script(m, 4)
    (hit,) = _rolls(m.apply(Command("shoot", actor=deputy, target=outlaw)))
    assert (hit.check, hit.dice, hit.total, hit.target_number, hit.success) == (
        "ballistics",
        (4,),
        4,
        4,
        True,
    )
    st.activation(deputy).basic_used.clear()
    script(m, 3)
    (miss,) = _rolls(m.apply(Command("shoot", actor=deputy, target=outlaw)))
    assert miss.success is False and miss.against == outlaw


@pytest.mark.parametrize(
    ("who", "distance", "modifier"),
    [
        ("deputy", 8, ("Revolver short range accuracy", 1)),  # Revolver S 8" +1
        ("deputy", 9, None),  # Revolver L "-"
        ("sheriff", 12, ("Rifle short range accuracy", -1)),  # Rifle S 12" -1
        ("sheriff", 13, ("Rifle long range accuracy", 1)),  # Rifle L +1
    ],
)
def test_accuracy_by_range_band(
    field: Match, who: str, distance: int, modifier: tuple[str, int] | None
) -> None:
    """Rulebook: "If the target is within the weapon's Short Range then the Short (S) Accuracy modifier is
    used (if applicable). In the same way, if the target is past the weapon's Short range but is still
    within its Long range then the Long (L) Accuracy modifier is used." """
    m = field
    shooter = unit(m, "side1", 0 if who == "sheriff" else 1)
    target = unit(m, "side2", 1)
    place(m, shooter, at(3, 9))
    place(m, target, at(3 + distance, 9))
    give_turn(m, shooter)
    script(m, 6)
    (r,) = _rolls(m.apply(Command("shoot", actor=shooter, target=target)))
    assert r.modifiers == ((modifier,) if modifier else ())


def test_targets_beyond_long_range_cannot_be_attacked(field: Match) -> None:
    """Rulebook: "if the target is outside of the weapon's Long Range then they cannot be targeted by an
    attack from that weapon." """
    m = field
    deputy, outlaw = unit(m, "side1", 1), unit(m, "side2", 1)
    place(m, deputy, at(3))
    place(m, outlaw, at(20))
    give_turn(m, deputy)
    assert m.validate(Command("shoot", actor=deputy, target=outlaw)) == (
        'Shoot (Revolver): Outlaw is 17" away, beyond the Revolver\'s long range (16")'
    )
    shoot = next(a for a in m.legal_actions() if a.action == "shoot")
    assert outlaw not in shoot.targets
    place(m, outlaw, at(19))
    assert m.validate(Command("shoot", actor=deputy, target=outlaw)) is None


def test_each_shot_uses_ammo(field: Match) -> None:
    """Rulebook: "This number is how much ammunition the weapon has; this represents how many times the
    weapon can be fired without reloading." """
    m = field
    deputy, outlaw = unit(m, "side1", 1), unit(m, "side2", 1)
    place(m, deputy, at(5))
    place(m, outlaw, at(10))
    give_turn(m, deputy)
    script(m, 1)
    m.apply(Command("shoot", actor=deputy, target=outlaw))
    from game.rules.frontier.components import Weapon

    assert st.comp(deputy, Weapon).ammo == 5


def test_damage_wears_toughness_then_wounds_then_seriously_injured(field: Match) -> None:
    """Rulebook: "Toughness - How many points of Damage a Unit can take in total before they can be
    Wounded." "Wounds - How many points of Damage a Unit can take before becoming Seriously Injured."
    "Wounded - Units that have taken any Wounds ... are considered Wounded." "When a Unit is reduced to 0
    Wounds, they are considered Seriously Injured and fall Prone." """
    m = field
    events: list[object] = []
    outlaw = unit(m, "side2", 1)  # Toughness 2, Wounds 3
    m.enter()
    hurt(m, outlaw, 2, None, events)
    assert (st.health(outlaw).toughness, st.health(outlaw).wounds) == (0, 3)
    assert not st.status(outlaw).wounded
    hurt(m, outlaw, 1, None, events)
    assert st.status(outlaw).wounded and st.health(outlaw).wounds == 2
    hurt(m, outlaw, 3, None, events)
    assert st.status(outlaw).seriously_injured and st.status(outlaw).prone
    assert [(e.status, e.active) for e in events if isinstance(e, StatusChanged)] == [
        ("wounded", True),
        ("seriously_injured", True),
        ("prone", True),
    ]
    assert [e.remaining for e in events if isinstance(e, DamageTaken)] == [3, 2, 0]


def test_seriously_injured_units_can_only_be_coup_de_graced(field: Match) -> None:
    """Rulebook: "A Unit that is seriously injured no longer takes turns in combat and can now be Coup De
    Graced." "Coup De Grace - Pick a seriously injured Unit within 1" and in sight of the Unit taking the
    action. That Unit immediately is taken Out Of Action." """
    m = field
    deputy, outlaw = unit(m, "side1", 1), unit(m, "side2", 1)
    place(m, deputy, at(5))
    place(m, outlaw, at(7))
    m.enter()
    hurt(m, outlaw, 5, None, [])
    give_turn(m, deputy)
    assert "Coup de Grace instead" in (m.validate(Command("shoot", actor=deputy, target=outlaw)) or "")
    assert m.validate(Command("coup_de_grace", actor=deputy, target=outlaw)) == (
        'Coup de Grace: Outlaw is not within 1"'
    )
    m.apply(Command("move", actor=deputy, path=(at(6),)))
    events = m.apply(Command("coup_de_grace", actor=deputy, target=outlaw))
    assert [e.reason for e in events if isinstance(e, UnitRemoved)] == ["out_of_action"]
    assert outlaw not in m.units()


@pytest.mark.parametrize(
    ("row", "name", "value"),
    [(5, "Half cover", -1), (3, "Total cover", -2)],
)
def test_cover_from_the_map_makes_ranged_attacks_harder(
    field: Match, row: int, name: str, value: int
) -> None:
    """Rulebook: "If the Unit is behind any kind of cover (Half or Total)" names the two kinds of cover and
    gives them no effect; Hexslinger's own (docs/RULES.md Frontier 4): cover as the map marks it, half -1
    and total -2 to hit."""
    m = field
    sheriff, outlaw = unit(m, "side1"), unit(m, "side2", 1)
    place(m, sheriff, at(5, row))
    place(m, outlaw, at(15, row))
    give_turn(m, sheriff)
    script(m, 6)
    (r,) = _rolls(m.apply(Command("shoot", actor=sheriff, target=outlaw)))
    assert r.modifiers == (("Rifle short range accuracy", -1), (name, value))
    assert r.total == 6 - 1 + value


def test_shooting_needs_line_of_sight(tmp_path: Path) -> None:
    """Rulebook: "Shoot - The Unit makes a Ranged Weapon attack." and "if the target is outside of the
    weapon's Long Range then they cannot be targeted" -- nothing about sight. Hexslinger's own
    (docs/RULES.md Frontier 4a): a target must also be in sight, as "Coup De Grace - Pick a seriously
    injured Unit within 1" and in sight" asks; a wall between hides it, an open line does not."""
    m = new_match(
        open_map(tmp_path, terrain={(10, 5): mf.WALL}),
        law("sheriff", "deputy"),
        outlaws("gang_leader", "outlaw"),
    )
    deputy, outlaw = unit(m, "side1", 1), unit(m, "side2", 1)
    setup_field(m, {deputy: at(5), outlaw: at(13)})
    give_turn(m, deputy)
    assert not m.battlefield.line_of_sight(at(5), at(13))
    assert (
        m.validate(Command("shoot", actor=deputy, target=outlaw))
        == "Shoot (Revolver): Outlaw is not in sight"
    )
    (shoot,) = [a for a in m.legal_actions() if a.action == "shoot"]
    assert outlaw not in shoot.targets
    place(m, outlaw, at(13, 3))  # 8" away, round the wall
    assert m.battlefield.line_of_sight(at(5), at(13, 3))
    assert m.validate(Command("shoot", actor=deputy, target=outlaw)) is None
    m.close()


def test_aim_adds_one_to_a_later_shot(field: Match) -> None:
    """Rulebook: "Aim - If the Unit makes a subsequent Shoot action in the same turn, +1 to the result of
    any Hit rolls they make." """
    m = field
    deputy, outlaw = unit(m, "side1", 1), unit(m, "side2", 1)
    place(m, deputy, at(5))
    place(m, outlaw, at(15, 7))
    give_turn(m, deputy)
    m.apply(Command("aim", actor=deputy))
    script(m, 3)
    (r,) = _rolls(m.apply(Command("shoot", actor=deputy, target=outlaw)))
    assert r.modifiers == (("Aim", 1),) and r.success


def test_take_cover_gives_total_cover_and_halves_damage(field: Match) -> None:
    """Rulebook: "Take Cover - ... they gain the benefits of total cover and take half of any damage they
    would normally receive should they be hit with an attack." (halves round up: docs/RULES.md)"""
    m = field
    sheriff, outlaw = unit(m, "side1"), unit(m, "side2", 1)
    place(m, sheriff, at(5))
    place(m, outlaw, at(15))  # behind the barrel
    give_turn(m, outlaw, ap=1)
    m.apply(Command("take_cover", actor=outlaw))
    assert st.status(outlaw).taking_cover
    give_turn(m, sheriff)
    script(m, 6)
    events = m.apply(Command("shoot", actor=sheriff, target=outlaw))
    (r,) = _rolls(events)
    assert ("Target taking cover (total cover)", -2) in r.modifiers
    assert [e.amount for e in events if isinstance(e, DamageTaken)] == [1]  # a Rifle's 2, halved
    assert any(isinstance(e, Note) and e.rule == "taking cover: half damage" for e in events)


def test_take_cover_ends_with_the_units_next_activation(field: Match) -> None:
    """docs/RULES.md "Take Cover": it lasts until the unit's next activation, or until it moves."""
    m = field
    outlaw = unit(m, "side2", 1)
    place(m, outlaw, at(15))
    give_turn(m, outlaw, ap=1)
    m.apply(Command("take_cover", actor=outlaw))
    give_turn(m, outlaw, ap=2)
    m.enter()
    game = st.game_state(m)
    game.turn, game.active = -1, 0
    rounds.next_activation(RULESET.ctx(m))
    assert not st.status(outlaw).taking_cover


def test_prone_targets(field: Match) -> None:
    """docs/RULES.md "Prone": a prone target is -1 to shoot from beyond 1", +1 to hit in melee."""
    m = field
    deputy, outlaw = unit(m, "side1", 1), unit(m, "side2", 1)
    place(m, deputy, at(5))
    place(m, outlaw, at(10, 7))
    st.status(outlaw).prone = True
    give_turn(m, deputy)
    preview = m.preview(Command("shoot", actor=deputy, target=outlaw))
    assert preview is not None and ("Target prone", -1) in preview.modifiers
    place(m, outlaw, at(6))
    preview = m.preview(Command("melee", actor=deputy, target=outlaw))
    assert preview is not None and preview.modifiers == (("Target prone", 1),)


def test_melee_uses_the_melee_skill_and_weapon(field: Match) -> None:
    """Rulebook: "Melee - The Unit makes a Melee Weapon attack." Tomahawk: damage 3. A gun-only unit fights
    with its fists (1 damage, Hexslinger's own: docs/RULES.md "Melee without a melee weapon")."""
    m = field
    hired_gun, leader = unit(m, "side1", 2), unit(m, "side2")
    place(m, hired_gun, at(10))
    place(m, leader, at(11))
    give_turn(m, hired_gun)
    script(m, 2)
    events = m.apply(Command("melee", actor=hired_gun, target=leader))
    (r,) = _rolls(events)
    assert (r.check, r.target_number, r.success) == ("melee", 2, True)
    assert [e.amount for e in events if isinstance(e, DamageTaken)] == [3]
    deputy = unit(m, "side1", 1)
    place(m, deputy, at(12))
    give_turn(m, deputy)
    script(m, 3)
    events = m.apply(Command("melee", actor=deputy, target=leader))
    assert [e.amount for e in events if isinstance(e, DamageTaken)] == [1]
    assert m.validate(Command("melee", actor=deputy, target=unit(m, "side2", 1))) == (
        "Melee (Fists): already fought this activation"
    )


def test_charge_moves_full_move_plus_1d4_then_attacks(field: Match) -> None:
    """Rulebook: "Charge - The Unit taking this action may move its full movement + 1d4". If they finish
    their movement within 1" of a standing or Prone Hostile Unit they may immediately make a Melee Weapon
    attack against that Unit." """
    m = field
    hired_gun, leader = unit(m, "side1", 2), unit(m, "side2")  # Move 6
    place(m, hired_gun, at(3))
    place(m, leader, at(12))
    give_turn(m, hired_gun)
    path = tuple(at(c) for c in range(4, 12))  # 8 hexes: needs 2+ on the d4
    assert m.validate(Command("charge", actor=hired_gun, path=path, target=leader)) is None
    place(m, leader, at(15))
    too_far = tuple(at(c) for c in range(4, 15))
    assert "costs 11" in (m.validate(Command("charge", actor=hired_gun, path=too_far, target=leader)) or "")
    place(m, leader, at(12))
    script(m, 3, 5)
    events = m.apply(Command("charge", actor=hired_gun, path=path, target=leader))
    rolls = _rolls(events)
    assert (rolls[0].check, rolls[0].dice, rolls[0].total) == ("charge", (3,), 9)
    assert rolls[1].check == "melee" and rolls[1].success
    assert m.position(hired_gun) == at(11)
    assert st.ap(hired_gun).current == 0


def test_a_short_charge_makes_no_attack(field: Match) -> None:
    m = field
    hired_gun, leader = unit(m, "side1", 2), unit(m, "side2")
    place(m, hired_gun, at(3))
    place(m, leader, at(12))
    give_turn(m, hired_gun)
    script(m, 1)
    events = m.apply(
        Command("charge", actor=hired_gun, path=tuple(at(c) for c in range(4, 12)), target=leader)
    )
    assert m.position(hired_gun) == at(10)
    assert [r.check for r in _rolls(events)] == ["charge"]
    assert any(isinstance(e, Note) and e.rule == "the charge fell short" for e in events)


def test_preview_is_exact_and_matches_the_odds_cli_code(field: Match) -> None:
    """The preview and `hexslinger odds` share one calculation; fractions, not samples."""
    m = field
    sheriff, outlaw = unit(m, "side1"), unit(m, "side2", 1)
    place(m, sheriff, at(5))
    place(m, outlaw, at(15))  # behind the barrel: half cover; 10" rifle: short -1
    give_turn(m, sheriff)
    preview = m.preview(Command("shoot", actor=sheriff, target=outlaw))
    assert preview is not None
    assert preview.hit_chance == Fraction(1, 3)  # 3+ -1 -1: needs a 5 or 6
    assert preview.damage.probability(2) == Fraction(1, 3) and preview.damage.probability(0) == Fraction(2, 3)
    assert preview.expected_damage == Fraction(2, 3)
    same = attack_odds("sheriff", "outlaw", 10, weapon="rifle", cover="half")
    assert (same.hit_chance, same.modifiers, same.damage) == (
        preview.hit_chance,
        preview.modifiers,
        preview.damage,
    )
    assert m.preview(Command("aim", actor=sheriff)) is None


def test_charge_is_a_move_of_move_plus_1d4_even_with_no_hostile_in_reach(field: Match) -> None:
    """Rulebook: "Charge - The Unit taking this action may move its full movement + 1d4"." Nothing in the
    sentence asks for a hostile unit in reach: the charge is offered with every hex within Move + 4 and no
    target, and the command may name none (docs/RULES.md 16)."""
    m = field
    hired_gun = unit(m, "side1", 2)  # Move 6; every outlaw is 20" or more away
    place(m, hired_gun, at(3))
    give_turn(m, hired_gun)
    (charge,) = [a for a in m.legal_actions() if a.action == "charge"]
    assert charge.enabled and charge.needs == "path" and charge.targets == ()
    assert at(13) in charge.hexes and at(14) not in charge.hexes  # 10" = Move 6 + the d4's 4
    path = tuple(at(c) for c in range(4, 14))
    assert m.validate(Command("charge", actor=hired_gun, path=path)) is None
    script(m, 2)
    events = m.apply(Command("charge", actor=hired_gun, path=path))
    assert [(r.check, r.total) for r in _rolls(events)] == [("charge", 8)]
    assert m.position(hired_gun) == at(11)  # Move 6 + 2
    assert any(isinstance(e, Note) and e.rule == 'no hostile unit within 1": no attack' for e in events)
    assert st.ap(hired_gun).current == 0


def test_a_charge_ending_within_1_of_another_hostile_attacks_that_unit(field: Match) -> None:
    """Rulebook: "If they finish their movement within 1" of a standing or Prone Hostile Unit they may
    immediately make a Melee Weapon attack against that Unit." The unit it ends next to is attacked, even
    when the command named another (docs/RULES.md 16)."""
    m = field
    hired_gun, leader, outlaw = unit(m, "side1", 2), unit(m, "side2"), unit(m, "side2", 1)
    place(m, hired_gun, at(3))
    place(m, leader, at(12, 3))  # the declared target: in reach of Move + 4, not of this roll
    place(m, outlaw, at(10))
    give_turn(m, hired_gun)
    path = tuple(at(c) for c in range(4, 10))  # ends at col 9, next to the outlaw at col 10
    script(m, 1, 5)  # d4 = 1: Move 7 covers the 6 steps; then the melee roll
    events = m.apply(Command("charge", actor=hired_gun, path=path, target=leader))
    rolls = _rolls(events)
    assert [(r.check, r.against) for r in rolls] == [("charge", leader), ("melee", outlaw)]
    assert rolls[1].success
    assert any(isinstance(e, Note) and e.rule.startswith("charge attack on Outlaw") for e in events)
    assert [(e.unit, e.amount) for e in events if isinstance(e, DamageTaken)] == [(outlaw, 3)]  # Tomahawk


def test_charge_attacks_the_declared_target_else_the_one_likeliest_hit(field: Match) -> None:
    """Rulebook: "they may immediately make a Melee Weapon attack against that Unit" -- one attack. With
    several hostile units within 1" at the end: the declared one; with none declared, the one the attack
    is likeliest to hit (a Prone one: +1), ties to the first listed (docs/RULES.md 16)."""
    m = field
    deputy, leader, outlaw = unit(m, "side1", 1), unit(m, "side2"), unit(m, "side2", 1)  # Deputy: Move 5
    path = tuple(at(c) for c in range(4, 10))
    assert hex_distance(at(9), at(10)) == hex_distance(at(9), at(10, 4)) == 1
    for declared, prone, expected in (
        (outlaw, True, outlaw),  # declared: attacked, though the prone leader is the easier mark
        (None, True, leader),  # none declared: the prone leader (+1)
        (None, False, leader),  # none declared, none prone: the first listed
    ):
        place(m, deputy, at(3))
        place(m, leader, at(10))
        place(m, outlaw, at(10, 4))
        st.status(leader).prone = prone
        give_turn(m, deputy)
        script(m, 1, 1)  # d4 = 1 (Move 6 for the 6 steps); the Fists roll a 1: a miss even +1 against 3+
        events = m.apply(Command("charge", actor=deputy, path=path, target=declared))
        assert m.position(deputy) == at(9)
        assert [(r.check, r.against) for r in _rolls(events)][1] == ("melee", expected), (declared, prone)
        assert not [e for e in events if isinstance(e, DamageTaken)]
