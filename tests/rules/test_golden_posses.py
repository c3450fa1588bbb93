"""Golden Frontiers' posses: characters built by the book ("Players have four points to place into their
Traits."; "The character starts with money equivalent to the maximum number on their slickness die + any
modifiers."), NPC templates, default posses, the draft and the posse library."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.posses import DATA_ENV, PosseDraft, default_posses, list_posses, read_posse_file, save_posse
from game.rules import PosseSpec, UnitSpec, get_ruleset
from game.rules.golden.data import default_data
from game.rules.golden.ruleset import money
from tests.engine.rulebooks import Quotes
from tests.rules.golden_kit import char

Q = Quotes()
POINTS = Q("golden", "Players have four points to place into their Traits.")
MONEY = Q(
    "golden",
    "The character starts with money equivalent to the maximum number on their slickness die + any "
    "modifiers.",
)
START = Q("golden", "Each character starts with a 1d4 (number of dice, d, sides on die) in each trait.")
R = get_ruleset("golden")


def test_every_quote_is_word_for_word_in_its_rulebook() -> None:
    Q.check()


def lawmen(*units: UnitSpec) -> PosseSpec:
    return PosseSpec("side1", "lawmen", "Law", units)


def test_four_trait_points_from_d4_each() -> None:
    assert POINTS and START
    assert R.validate_posse(lawmen(char("Kid", 6, 6, 6, 6))) == []  # four steps of one
    assert R.validate_posse(lawmen(char("Kid", 12, 4, 4, 4))) == []  # four steps into Survival
    problems = R.validate_posse(lawmen(char("Kid", 8, 8, 6, 6)))
    assert len(problems) == 1 and "6 trait points placed" in problems[0] and POINTS in problems[0]
    assert "3 trait points placed" in R.validate_posse(lawmen(char("Kid", 6, 6, 6, 4)))[0]
    assert "must be a trait die" in R.validate_posse(lawmen(char("Kid", 7, 6, 6, 6)))[0]


def test_money_is_the_slickness_maximum_plus_its_modifier() -> None:
    assert MONEY
    data = default_data()
    assert [money(data, d) for d in (4, 6, 8, 10, 12)] == [4, 6, 9, 12, 15]
    broke = R.validate_posse(lawmen(char("Kid", 8, 6, 6, 4, items=("revolver", "knife"))))
    assert broke == ["Kid: the equipment costs 5, the character has 4 (Slickness d4: its maximum + modifier)"]
    assert (
        R.validate_posse(
            lawmen(char("Kid", 6, 4, 4, 10, items=("rifle", "revolver", "hat", "boots", "knife")))
        )
        == []
    )


def test_a_character_needs_a_weapon_and_known_items() -> None:
    assert "carries no weapon" in R.validate_posse(lawmen(char("Kid", items=("hat",))))[0]
    assert "unknown item 'cannon'" in R.validate_posse(lawmen(char("Kid", items=("revolver", "cannon"))))[0]


def test_npc_templates_by_faction_and_the_unit_limit() -> None:
    assert R.validate_posse(lawmen(UnitSpec("marksman"), UnitSpec("gunhand"))) == []
    assert "cannot field a 'bruiser'" in R.validate_posse(lawmen(UnitSpec("bruiser")))[0]
    assert "comes as it is" in R.validate_posse(lawmen(UnitSpec("gunhand", loadout=("rifle",))))[0]
    assert "at most 6 units" in R.validate_posse(lawmen(*[UnitSpec("gunhand")] * 7))[0]
    assert "unknown posse 'Pinkertons'" in R.validate_posse(PosseSpec("side1", "Pinkertons", "", ()))[0]


def test_the_default_posses_are_valid_and_meet() -> None:
    drafts = default_posses("golden")
    assert [d.name for d in drafts] == ["Marshal's Posse", "Black Hat Gang"]
    assert all(not d.problems() and len(d.units) == 4 for d in drafts)
    specs = [drafts[0].spec("side1"), drafts[1].spec("side2")]
    assert R.validate_posses(specs) == []


def test_a_drafted_character_is_saved_and_read_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATA_ENV, str(tmp_path))
    draft = PosseDraft("golden", faction="outlaws")
    assert draft.add_unit("character") is None
    assert draft.choose(0, "traits", "10", key="survival") is not None  # a fifth point: refused
    assert draft.choose(0, "traits", "4", key="reflexes") is None
    assert draft.choose(0, "traits", "10", key="survival") is None
    assert draft.add_unit("bruiser") is None
    draft.name = "Riders"
    assert draft.problems() == []
    save_posse(draft)
    (entry,) = [e for e in list_posses("golden") if e.name == "Riders"]
    assert entry.path is not None and entry.error is None
    loaded = read_posse_file(entry.path, "golden")
    assert loaded.spec() == draft.spec()
    assert dict(loaded.spec().units[0].options)["survival"] == "10"
