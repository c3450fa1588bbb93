"""Golden Frontiers' aftermath between encounters, quoting "Recovering From Wounds"."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.commands import Command
from game.rules import get_ruleset
from game.rules.golden.campaign import Condition, Roster, RosterError, wounds_healed
from tests.engine.rulebooks import Quotes
from tests.rules.golden_kit import at, cards_on_top, char, deploy, health, new_match, script

Q = Quotes()
GRAZES = Q("golden", "Grazes do not require medical attention and are removed at the end of combat.")
RATE = Q(
    "golden",
    "Wounds may be removed at the rate of one wound per day or may be removed by seeking medical attention.",
)
CRIPPLING = Q("golden", "Crippling Wounds may only be removed through medical attention.")
SIX = Q(
    "golden",
    "the base target number for healing a wound is six and an additional wound is removed for every two "
    "numbers a skill check is above that base",
)
EIGHT = Q(
    "golden",
    "So if a character rolled an eight on their skill check, they would remove two wounds from somebody.",
)
DOCTOR = Q(
    "golden",
    "If a NPC, such as a town doctor, is giving the medical help then it should be assumed that the doctor "
    "knows how to patch people up and all wounds are removed.",
)


def test_every_quote_is_word_for_word_in_its_rulebook() -> None:
    Q.check()


def test_healing_checks() -> None:
    assert SIX and EIGHT
    assert [wounds_healed(n) for n in (5, 6, 7, 8, 9, 10, 14)] == [0, 1, 1, 2, 2, 3, 5]


def roster() -> Roster:
    return Roster("lawmen", "Law", [char("Rusty"), char("Doc", 8, 4, 6, 6)])


def test_after_a_fight_grazes_go_and_wounds_stay(tmp_path: Path) -> None:
    assert GRAZES
    match = new_match(tmp_path, (char("Rusty"), char("Doc", 8, 4, 6, 6)), (char("Clem"),))
    deploy(match, {1: at(3), 2: at(12), 3: at(6)}, cards=("AS", "2S", "3S"))
    health(match, 1).grazes, health(match, 1).wounds = 2, 1
    health(match, 2).wounds = 2
    script(match, 7, 1)
    cards_on_top(match, "RJ")  # Rusty cripples Clem: the fight is over
    match.apply(Command("attack", actor=1, target=3, option="revolver"))
    assert match.is_over
    r = roster()
    r.record(match, "side1")
    assert r.condition == {"Rusty": Condition(1, False), "Doc": Condition(2, False)}
    posse = r.posse("side1")
    assert dict(posse.units[1].options)["wounds"] == "2"
    again = new_match(tmp_path / "b", posse.units, (char("Clem"),))
    assert health(again, 2).wounds == 2 and health(again, 1).grazes == 0
    assert get_ruleset("golden").validate_posse(posse) == []


def test_rest_heals_a_wound_a_day_but_not_a_crippling_wound() -> None:
    assert RATE and CRIPPLING
    r = roster()
    r.condition["Rusty"] = Condition(2, False)
    r.condition["Doc"] = Condition(0, True)
    r.rest(1)
    assert r.condition["Rusty"] == Condition(1, False) and r.condition["Doc"].crippled
    assert [u.name for u in r.fieldable()] == ["Rusty"]


def test_treatment_and_the_doctor() -> None:
    assert DOCTOR
    r = roster()
    r.condition["Doc"] = Condition(0, True)
    assert r.treat("Doc", 8, max_wounds=3) == 2  # the crippling wound, then one wound: 2 of 3 left
    assert r.condition["Doc"] == Condition(2, False)
    r.condition["Rusty"] = Condition(3, True)
    r.doctor("Rusty")
    assert r.condition["Rusty"] == Condition()
    with pytest.raises(RosterError, match="not on Law's roster"):
        r.doctor("Clem")


def test_a_roster_round_trips_and_refuses_bad_data() -> None:
    r = roster()
    r.condition["Doc"] = Condition(1, False)
    assert Roster.from_json(r.to_json()) == r
    with pytest.raises(RosterError, match="malformed"):
        Roster.from_json({"faction": "lawmen"})
