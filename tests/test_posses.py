"""The posse builder's model (game.posses): choices with the rules' reasons, specs that play, the library."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import esper
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from game.components import Identity
from game.engine.match import Match
from game.posses import (
    DATA_ENV,
    Choice,
    DraftError,
    PosseDraft,
    PosseFileError,
    buildable_rulesets,
    data_dir,
    default_posses,
    delete_posse,
    file_stem,
    list_posses,
    load_posse,
    posse_dir,
    read_posse_file,
    save_posse,
)
from game.rules import PosseSpec, UnitSpec, get_ruleset
from game.rules.rift.character import Character, character_problems, unit_spec
from tests.plugins import installed_plugin
from tests.rules import frontier_kit as fk
from tests.rules import rift_kit as rk

ROOT = Path(__file__).resolve().parent.parent
FRONTIER = get_ruleset("frontier")
RIFT = get_ruleset("rift")


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test keeps its posses in its own folder."""
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "data"))
    return tmp_path / "data"


def by_id(choices: list[Choice]) -> dict[str, Choice]:
    return {c.id: c for c in choices}


def law(*kinds: str) -> PosseDraft:
    draft = PosseDraft("frontier", faction="the_law")
    for kind in kinds:
        assert draft.add_unit(kind) is None
    return draft


def rifter_draft(faction: str = "rifters", attitude: str = "deliberate", level: int = 1) -> PosseDraft:
    """A posse of one valid Rifter built by edits only."""
    draft = PosseDraft("rift", faction=faction)
    assert draft.add_unit("rifter") is None
    assert draft.choose(0, "attitude", attitude) is None
    assert draft.choose(0, "level", str(level)) is None
    assert draft.act(0, "auto_skills") is None
    for talent in ("architect", "professional")[: draft.todo_left(0, "talents")]:
        assert draft.choose(0, "talents", talent) is None
    assert draft.problems() == []
    return draft


# == Frontier =======================================================================================


def test_frontier_units_offered_from_the_data_with_the_factions_limits_as_reasons() -> None:
    draft = law()
    add = by_id(draft.choices_for(None, "add"))
    assert list(add) == list(FRONTIER.data.units)  # type: ignore[attr-defined]
    assert all(add[k].enabled for k in ("sheriff", "deputy", "hired_gun", "dog"))
    expected = FRONTIER.validate_posse(PosseSpec("side1", "the_law", "", (UnitSpec("outlaw"),)))
    assert not add["outlaw"].enabled and add["outlaw"].reason == expected[0]
    assert "The Law cannot field a 'outlaw'" in (add["outlaw"].reason or "")

    draft.add_unit("deputy")
    add = by_id(draft.choices_for(None, "add"))
    assert not add["deputy"].enabled
    assert add["deputy"].reason == "The Law cannot field duplicate Units: 2 x Deputy"
    assert draft.add_unit("deputy") == add["deputy"].reason  # refused, with the same reason
    assert len(draft.units) == 1

    for kind in ("sheriff", "hired_gun", "dog"):
        draft.add_unit(kind)
    assert draft.problems() == []
    add = by_id(draft.choices_for(None, "add"))
    assert not any(c.enabled for c in add.values())
    assert all(
        "The maximum number of Units The Law can field is 4, not 5" in (c.reason or "") for c in add.values()
    )


def test_the_outlaws_field_duplicates_but_one_leader_and_at_most_5() -> None:
    draft = PosseDraft("frontier", faction="the_outlaws")
    assert draft.add_unit("gang_leader") is None
    add = by_id(draft.choices_for(None, "add"))
    assert add["gang_leader"].reason == "The Outlaws has one leader: 2 x Gang Leader"
    assert add["outlaw"].enabled and add["dog"].enabled
    for _ in range(4):
        assert draft.add_unit("outlaw") is None
    assert [u.name for u in draft.units] == ["Gang Leader", "Outlaw", "Outlaw 2", "Outlaw 3", "Outlaw 4"]
    assert "The maximum number of Units The Outlaws can field is 5, not 6" in (draft.add_unit("outlaw") or "")


def test_frontier_weapon_options_are_the_units_weapons_available() -> None:
    draft = law("sheriff", "hired_gun")
    weapons = by_id(draft.choices_for(0, "weapon"))
    assert [c.id for c in weapons.values() if c.enabled] == ["revolver", "rifle"]
    assert weapons["revolver"].selected  # the first option until another is picked
    tomahawk = FRONTIER.validate_posse(
        PosseSpec("side1", "the_law", "", (UnitSpec("sheriff", loadout=("tomahawk",)),))
    )
    assert weapons["tomahawk"].reason == tomahawk[0]
    assert "unarmed" not in weapons  # the Fists fallback is nobody's option
    assert draft.choose(0, "weapon", "rifle") is None
    assert draft.spec().units[0].loadout == ("rifle",)
    assert by_id(draft.choices_for(0, "weapon"))["rifle"].selected
    assert draft.choose(0, "weapon", "bite") == weapons["bite"].reason
    assert by_id(draft.choices_for(1, "weapon"))["tomahawk"].enabled


def test_frontier_faction_change_is_refused_while_the_units_do_not_fit() -> None:
    draft = law("sheriff")
    factions = by_id(draft.choices_for(None, "faction"))
    assert factions["the_law"].selected and factions["the_law"].enabled
    assert factions["the_outlaws"].reason == (
        "The Outlaws cannot field a 'sheriff' (its units: Gang Leader, Outlaw, Dog)"
    )
    draft.remove_unit(0)
    assert draft.problems() == ["The Law must field at least one unit"]
    assert draft.choose(None, "faction", "the_outlaws") is None
    assert draft.faction == "the_outlaws"


# == Through the Rift ===============================================================================


def test_rift_second_attitude_only_from_level_4_and_never_the_first() -> None:
    draft = rifter_draft(level=3)
    second = by_id(draft.choices_for(0, "second_attitude"))
    assert second[""].enabled and second[""].selected
    assert not second["bold"].enabled
    assert second["bold"].reason == "Rifter: a second attitude is chosen at level 4, not at level 3"
    assert draft.choose(0, "second_attitude", "bold") == second["bold"].reason
    assert draft.choose(0, "level", "4") is None
    second = by_id(draft.choices_for(0, "second_attitude"))
    assert second["bold"].enabled
    assert second["deliberate"].reason == "Rifter: the second attitude must differ from the first"
    assert draft.choose(0, "second_attitude", "bold") is None
    # now the level may not drop below 4 again, for the rules' reason
    levels = by_id(draft.choices_for(0, "level"))
    assert [c.id for c in levels.values() if c.enabled] == ["4", "5", "6", "7"]
    assert levels["3"].reason == "Rifter: a second attitude is chosen at level 4, not at level 3"


def test_rift_level_7_pick_is_the_own_7th_level_or_a_4th_level_trait_of_the_second() -> None:
    draft = rifter_draft(attitude="cunning", level=7)
    assert [c.id for c in draft.choices_for(0, "level7")] == [""]  # no second attitude: the own
    assert draft.choose(0, "second_attitude", "bold") is None
    picks = by_id(draft.choices_for(0, "level7"))
    assert list(picks) == ["", "improved_meatshield", "heightened_durability"]
    assert picks[""].label == "Cunning 7th level: Tactical Reposition"
    assert draft.choose(0, "level7", "heightened_durability") is None
    assert draft.problems() == []
    seconds = by_id(draft.choices_for(0, "second_attitude"))
    assert seconds[""].reason == (
        "Rifter: only with a second attitude may level 7 take one of its 4th level traits"
    )
    assert "is not a 4th level trait of Daring" in (seconds["daring"].reason or "")
    lower = by_id(draft.choices_for(0, "level"))["6"]
    assert lower.reason == "Rifter: the 7th-level pick 'heightened_durability' needs level 7"


def test_rift_a_third_weapon_only_with_to_the_teeth() -> None:
    draft = rifter_draft(attitude="bold")
    assert draft.weapons(0) == ("mdtc_model_4_pistol", "sullivan_668_shotgun")
    weapons = by_id(draft.choices_for(0, "weapons"))
    assert weapons["sullivan_668_shotgun"].selected and weapons["sullivan_668_shotgun"].enabled
    rifle = weapons["kelly_sr19_rifle"]
    assert not rifle.enabled and rifle.reason == "Rifter: carries 3 weapons; 2 at the ready"
    three = Character(
        "Rifter", 1, "bold", weapons=("mdtc_model_4_pistol", "sullivan_668_shotgun", "kelly_sr19_rifle")
    )
    assert rifle.reason in character_problems(three)  # the rules' own words
    # goons' weapons and the Haymaker are nobody's choice
    assert "goon_revolver" not in weapons and "haymaker" not in weapons
    # swap: take one away (always allowed), then another fits
    assert draft.choose(0, "weapons", "sullivan_668_shotgun") is None
    assert draft.choose(0, "weapons", "kelly_sr19_rifle") is None
    assert draft.weapons(0) == ("mdtc_model_4_pistol", "kelly_sr19_rifle")
    assert draft.problems() == []
    # the last weapon stays; reset gives the defaults back
    assert draft.choose(0, "weapons", "kelly_sr19_rifle") is None
    last = by_id(draft.choices_for(0, "weapons"))["mdtc_model_4_pistol"]
    assert not last.enabled and "at least one weapon" in (last.reason or "")
    assert draft.act(0, "reset_weapons") is None and draft.weapons(0)[1] == "sullivan_668_shotgun"

    calculated = rifter_draft(attitude="calculated")
    assert len(calculated.weapons(0)) == 3  # To the Teeth: three at the ready by default
    assert calculated.choose(0, "weapons", "mdtc_antipersonnel_grenade") is None
    assert by_id(calculated.choices_for(0, "weapons"))["kelly_sr19_rifle"].enabled
    assert calculated.choose(0, "weapons", "kelly_sr19_rifle") is None
    fourth = by_id(calculated.choices_for(0, "weapons"))["sullivan_668_shotgun"]
    assert fourth.reason == "Rifter: carries 4 weapons; 3 at the ready (To the Teeth)"
    # Bold with three weapons would be too many: the attitude change is refused for that reason
    assert (
        by_id(calculated.choices_for(0, "attitude"))["bold"].reason
        == "Rifter: carries 3 weapons; 2 at the ready"
    )


def test_rift_talents_at_levels_2_and_5_taking_one_away_is_always_allowed() -> None:
    draft = rifter_draft(level=1)
    talents = draft.choices_for(0, "talents")
    assert [c.id for c in talents] == list(RIFT.data.talents)  # type: ignore[attr-defined]
    assert all(c.reason == "Rifter: a level 1 Rifter has 0 talent(s), not 1" for c in talents)
    assert draft.choose(0, "level", "2") is None  # talents still to pick are a to-do, not a refusal
    assert draft.problems() == ["Rifter: a level 2 Rifter has 1 talent(s), not 0"]
    assert all(c.enabled for c in draft.choices_for(0, "talents"))
    assert draft.choose(0, "talents", "animal_friend") is None
    assert draft.problems() == []
    talents_now = by_id(draft.choices_for(0, "talents"))
    assert talents_now["animal_friend"].selected and talents_now["animal_friend"].enabled
    assert talents_now["quick_draw"].reason == "Rifter: a level 2 Rifter has 1 talent(s), not 2"
    assert "Dog (15 resolve, 3 AP)" in talents_now["animal_friend"].detail
    assert draft.fielded(0) == ["Rifter", "Rifter's Dog"]
    # the level can go down again; the talent then is a to-do to take away
    assert draft.choose(0, "level", "1") is None
    assert draft.problems() == ["Rifter: a level 1 Rifter has 0 talent(s), not 1"]
    assert draft.choose(0, "talents", "animal_friend") is None
    assert draft.problems() == []


def test_rift_skill_ranks_within_the_levels_points() -> None:
    draft = PosseDraft("rift")
    draft.add_unit("rifter")
    assert draft.todo_left(0, "skill_points") == 10
    assert draft.problems() == ["Rifter: skills use 0 points; a level 1 Rifter allocates 10"]
    skills = draft.keys(0, "skill")
    assert [s for s, _ in skills] == list(RIFT.data.skills)  # type: ignore[attr-defined]
    assert all(c.enabled for c in draft.choices_for(0, "skill", "musclehead"))  # 0..4, points are left
    for skill in ("musclehead", "city_slicker"):
        assert draft.choose(0, "skill", "4", key=skill) is None
    ranks = by_id(draft.choices_for(0, "skill", "greasemonkey"))
    assert [c.id for c in ranks.values() if c.enabled] == ["0", "1", "2"]
    assert ranks["3"].reason == "Rifter: skills use 11 points; a level 1 Rifter allocates 10"
    assert draft.choose(0, "skill", "2", key="greasemonkey") is None
    assert draft.todo_left(0, "skill_points") == 0 and draft.problems() == []
    assert draft.choices_for(0, "skill", "no_such_skill") == []
    # at level 3 there are 6 more; auto_skills allocates what is left
    draft.choose(0, "level", "3")
    assert draft.todo_left(0, "skill_points") == 6
    assert draft.act(0, "auto_skills") is None
    assert draft.problems() == ["Rifter: a level 3 Rifter has 1 talent(s), not 0"]


def test_rift_goons_only_for_the_outlaws() -> None:
    rifters = PosseDraft("rift", faction="rifters")
    add = by_id(rifters.choices_for(None, "add"))
    assert list(add) == ["rifter", *RIFT.data.enemies]  # type: ignore[attr-defined]
    assert add["rifter"].enabled
    assert add["outlaw_goon"].reason == "the rifters cannot field a 'outlaw_goon'"
    outlaws = PosseDraft("rift", faction="outlaws")
    for kind in ("outlaw_goon", "sharpshooter", "dynamiter", "gang_boss", "outlaw_goon"):
        assert outlaws.add_unit(kind) is None
    assert outlaws.units[4].name == "Outlaw Goon 2"
    assert outlaws.fields(0) == () and outlaws.choices_for(0, "weapons") == []
    assert by_id(outlaws.choices_for(None, "faction"))["rifters"].reason == (
        "the rifters cannot field a 'outlaw_goon'; the rifters cannot field a 'sharpshooter'; "
        "the rifters cannot field a 'dynamiter'; the rifters cannot field a 'gang_boss'; "
        "the rifters cannot field a 'outlaw_goon'"
    )
    assert outlaws.problems() == []


def test_every_field_has_a_label_and_bad_requests_are_refused_with_a_reason() -> None:
    for draft in (law("sheriff"), rifter_draft()):
        for field in (*draft.fields(None), *draft.fields(0)):
            assert draft.field_label(field) != field
        assert draft.choices_for(5, "weapon") == [] and draft.choices_for(0, "nonsense") == []
        assert draft.choose(5, "weapon", "rifle") == "there is no unit 5"
        assert draft.choose(None, "add", "cowboy") == "'cowboy' is not an option for Add a unit"
        assert (
            draft.set_name(0, "two\nlines")
            == "a unit's name cannot contain control characters or line breaks"
        )
        assert draft.remove_unit(9) == "there is no unit 9"


# == specs that play ================================================================================


def _names(match: Match, side: str) -> list[str]:
    match.enter()
    return [esper.component_for_entity(u, Identity).name for u in match.units(side, in_play=False)]


def test_built_frontier_posses_pass_the_rules_and_play_on_ranch_duel() -> None:
    posse = law("sheriff", "hired_gun", "dog")
    posse.set_posse_name("Marshal Dunn's Men")
    posse.set_name(0, "Marshal Dunn")
    posse.choose(0, "weapon", "rifle")
    gang = PosseDraft("frontier", "side2", "the_outlaws", "Blackwater Gang")
    for kind in ("gang_leader", "outlaw", "outlaw"):
        gang.add_unit(kind)
    for draft in (posse, gang):
        assert draft.problems() == [] and FRONTIER.validate_posse(draft.spec()) == []
    match = Match.create(fk.RANCH, FRONTIER, [posse.spec(), gang.spec()], seed=5)
    fk.deploy(match)
    assert _names(match, "side1") == ["Marshal Dunn", "Hired Gun", "Dog"]
    assert _names(match, "side2") == ["Gang Leader", "Outlaw", "Outlaw 2"]
    assert all(match.position(u) is not None for u in match.units())
    fk.play_out(match)
    assert match.outcome() is not None


def test_built_rift_posses_pass_the_rules_and_play_on_ranch_duel_with_the_dog() -> None:
    crew = rifter_draft(attitude="bold", level=5)
    crew.set_name(0, "Big Jo")
    assert crew.choose(0, "second_attitude", "cunning") is None
    crew.choose(0, "talents", "architect")  # take one of the two away, pick Animal Friend instead
    assert crew.choose(0, "talents", "animal_friend") is None
    crew.add_unit("rifter")
    crew.choose(1, "attitude", "calculated")
    crew.act(1, "auto_skills")
    assert crew.problems() == [] and RIFT.validate_posse(crew.spec()) == []
    assert crew.fielded(0) == ["Big Jo", "Big Jo's Dog"]
    gang = PosseDraft("rift", "side2", "outlaws", "Outlaw Gang")
    for kind in ("gang_boss", "outlaw_goon", "sharpshooter"):
        gang.add_unit(kind)
    match = Match.create(rk.RANCH, RIFT, [crew.spec(), gang.spec()], seed=2)
    rk.deploy(match)
    assert _names(match, "side1") == ["Big Jo", "Rifter", "Big Jo's Dog"]
    assert _names(match, "side2") == ["Gang Boss", "Outlaw Goon", "Outlaw Sharpshooter"]
    rk.play_out(match)
    assert match.outcome() is not None


@pytest.mark.parametrize("ruleset", ["frontier", "rift"])
def test_default_posses_are_built_from_the_data_and_fight_each_other(ruleset: str) -> None:
    first, second = default_posses(ruleset)
    names = {"frontier": ["Sheriff's Posse", "Blackwater Gang"], "rift": ["Rifter Crew", "Outlaw Gang"]}
    assert [first.name, second.name] == names[ruleset]
    for draft in (first, second):
        assert draft.units and draft.problems() == []
    if ruleset == "rift":
        assert [u.character.attitude for u in first.units if u.character] == list(RIFT.data.attitudes)  # type: ignore[attr-defined]
    rules = FRONTIER if ruleset == "frontier" else RIFT
    match = Match.create(fk.RANCH, rules, [first.spec(), second.spec("side2")], seed=1)
    (fk if ruleset == "frontier" else rk).deploy(match)
    assert all(match.position(u) is not None for u in match.units())


def test_from_spec_holds_what_the_rules_hold() -> None:
    spec = rk.rifters("side2", rk.rifter("daring", "Ada", level=4, second="bold"))
    draft = PosseDraft.from_spec("rift", spec)
    assert draft.spec() == spec and draft.side == "side2"
    flaw = fk.law("sheriff", ("hired_gun", "revolver"))
    assert PosseDraft.from_spec("frontier", flaw).spec().units[1].loadout == ("revolver",)


# == the library ====================================================================================


def test_save_list_load_round_trip(_data_dir: Path) -> None:
    assert data_dir() == _data_dir and posse_dir("rift") == _data_dir / "posses" / "rift"
    crew = rifter_draft(attitude="resolute", level=2)
    crew.set_name(0, "Señora Vega")
    path = save_posse(crew, "  Vega's Irregulars ")
    assert path == _data_dir / "posses" / "rift" / "vega-s-irregulars.json"
    assert crew.name == "Vega's Irregulars"
    entries = list_posses("rift")
    assert [(e.name, e.builtin) for e in entries] == [
        ("Vega's Irregulars", False),
        ("Rifter Crew", True),
        ("Outlaw Gang", True),
    ]
    loaded = load_posse("rift", "vega's irregulars", side="side2")  # names match whatever the case
    assert loaded.spec() == crew.spec("side2")
    assert loaded.units[0].name == "Señora Vega"
    # saving again replaces the file; a copy under a default's name takes the default's place
    assert save_posse(loaded) == path
    law_copy = default_posses("frontier")[0]
    law_copy.remove_unit(3)
    save_posse(law_copy)
    entries = list_posses("frontier")
    assert [(e.name, e.builtin, e.units) for e in entries] == [
        ("Sheriff's Posse", False, 3),
        ("Blackwater Gang", True, 5),
    ]
    assert len(load_posse("frontier", "Sheriff's Posse").units) == 3
    delete_posse("frontier", "Sheriff's Posse")
    assert len(load_posse("frontier", "Sheriff's Posse").units) == 4  # the default again
    with pytest.raises(PosseFileError, match="is built in and cannot be deleted"):
        delete_posse("frontier", "Sheriff's Posse")
    with pytest.raises(PosseFileError, match="there is no Frontier posse called 'Nobody'"):
        load_posse("frontier", "Nobody")


def test_names_are_kept_as_typed_and_files_stay_in_the_folder(_data_dir: Path) -> None:
    folder = _data_dir / "posses" / "frontier"
    for name, stem in [
        ("../../etc/passwd", "etc-passwd"),
        ("..", "posse"),
        ("CON", "posse-con"),
        ("Los Ángeles Rangers", "los-ángeles-rangers"),
        ("a/b\\c:d*e?f", "a-b-c-d-e-f"),
    ]:
        assert file_stem(name) == stem
        draft = law("sheriff")
        path = save_posse(draft, name)
        assert path.parent == folder and path.name == f"{stem}.json"
        assert load_posse("frontier", name).name == name
    # two names that make the same file name get two files
    assert save_posse(law("deputy"), "Dunn's Gang").name == "dunn-s-gang.json"
    assert save_posse(law("dog"), "Dunn s Gang").name == "dunn-s-gang-2.json"
    assert load_posse("frontier", "Dunn's Gang").units[0].kind == "deputy"
    assert load_posse("frontier", "Dunn s Gang").units[0].kind == "dog"
    assert sorted(p.name for p in (_data_dir / "posses").rglob("*") if p.is_file()) == sorted(
        p.name for p in folder.iterdir()
    )
    assert not list(folder.glob("*.tmp"))  # written atomically: no temporary file left


def test_saving_refuses_an_unfinished_posse_or_a_bad_name() -> None:
    draft = PosseDraft("rift")
    draft.add_unit("rifter")
    with pytest.raises(PosseFileError, match="cannot be saved yet: Rifter: skills use 0 points") as info:
        save_posse(draft, "Half Done")
    assert info.value.fix == "fix what is listed in the posse builder first"
    with pytest.raises(PosseFileError, match="a posse needs a name"):
        save_posse(law("sheriff"), "   ")
    with pytest.raises(PosseFileError, match="control characters"):
        save_posse(law("sheriff"), "a\x00b")


def _good_frontier_doc() -> dict[str, object]:
    return law("sheriff", "deputy").to_json() | {"name": "Hand Made"}


BAD_FILES: list[tuple[str, object, str, str]] = [
    ("empty", b"", "the posse file is empty", "delete it"),
    ("not json", b"{ this is not json", "not valid JSON", "delete it"),
    ("cut off", json.dumps(_good_frontier_doc()).encode()[:40], "the file is cut off", "delete it"),
    ("binary", b"\xff\xfe\x00\x01", "not text", "delete it"),
    ("a list", [1, 2], "not a Hexslinger posse file", "move it out"),
    ("a save", {"format": "hexslinger-save", "version": 1}, "not a Hexslinger posse file", "move it out"),
    ("newer", _good_frontier_doc() | {"version": 99}, "format version 99, newer", "update Hexslinger"),
    ("version text", _good_frontier_doc() | {"version": "1"}, "'version' is missing", "delete it"),
    ("version 0", _good_frontier_doc() | {"version": 0}, "unknown posse file version 0", "delete it"),
    (
        "rift file",
        _good_frontier_doc() | {"ruleset": "rift"},
        "a Through the Rift posse, not a Frontier one",
        "move it to",
    ),
    (
        "no ruleset",
        _good_frontier_doc() | {"ruleset": "chess"},
        "names no ruleset Hexslinger knows",
        "delete it",
    ),
    ("extra key", _good_frontier_doc() | {"gold": 100}, "unknown key(s) gold", "remove them"),
    ("no name", _good_frontier_doc() | {"name": ""}, "'name' is missing or not a usable name", "delete it"),
    (
        "units",
        _good_frontier_doc() | {"units": {"kind": "sheriff"}},
        "'units' is missing or not a list",
        "delete it",
    ),
    (
        "unit key",
        _good_frontier_doc() | {"units": [{"kind": "sheriff", "horse": "yes"}]},
        "unit 1: unknown key(s) horse",
        "correct the file by hand",
    ),
    (
        "unit type",
        _good_frontier_doc() | {"units": [{"kind": "sheriff", "weapon": 3}]},
        "unit 1: 'weapon' must be text",
        "correct the file by hand",
    ),
    (
        "too many",
        _good_frontier_doc()
        | {"units": [{"kind": k} for k in ("sheriff", "deputy", "hired_gun", "dog", "dog")]},
        "does not follow the Frontier rules: The maximum number of Units The Law can field is 4, not 5",
        "correct the file by hand",
    ),
    (
        "wrong weapon",
        _good_frontier_doc() | {"units": [{"kind": "sheriff", "weapon": "tomahawk"}]},
        "Sheriff cannot carry 'tomahawk' (Weapons Available: Revolver or Rifle)",
        "correct the file by hand",
    ),
]


@pytest.mark.parametrize(("case", "content", "what", "fix"), BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_a_bad_frontier_file_is_a_posse_file_error_saying_what_and_how_to_fix(
    case: str, content: object, what: str, fix: str
) -> None:
    folder = posse_dir("frontier")
    folder.mkdir(parents=True)
    path = folder / "hand-made.json"
    path.write_bytes(content if isinstance(content, bytes) else json.dumps(content).encode())
    with pytest.raises(PosseFileError) as info:
        read_posse_file(path, "frontier")
    assert what in info.value.what and fix in info.value.fix, (info.value.what, info.value.fix)
    assert str(path) in str(info.value)
    # the library lists it with its error, never raising; the defaults are still there
    entries = list_posses("frontier")
    assert [e.error is not None for e in entries] == [True, False, False]
    assert what in (entries[0].error or "")


def test_hand_edited_rift_files_that_break_the_rules_say_why(_data_dir: Path) -> None:
    crew = rifter_draft(attitude="bold")
    path = save_posse(crew, "Bold Ones")
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["units"][0]["character"]["weapons"] = [
        "mdtc_model_4_pistol",
        "kelly_sr19_rifle",
        "sullivan_668_shotgun",
    ]
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(PosseFileError, match="Rifter: carries 3 weapons; 2 at the ready"):
        load_posse("rift", "Bold Ones")
    doc["units"][0]["character"] = {"name": "X", "level": "three", "attitude": "bold"}
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(PosseFileError, match="'level' must be a whole number"):
        load_posse("rift", "Bold Ones")
    doc["units"] = [{"kind": "outlaw_goon", "name": "Slim"}]
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(PosseFileError, match="the rifters cannot field a 'outlaw_goon'"):
        load_posse("rift", "Bold Ones")
    path.write_text(json.dumps(doc | {"faction": "outlaws"}), encoding="utf-8")
    assert load_posse("rift", "Bold Ones").units[0].name == "Slim"
    # a Frontier file in the Rift folder
    path.write_text(json.dumps(_good_frontier_doc()), encoding="utf-8")
    with pytest.raises(PosseFileError) as info:
        read_posse_file(path, "rift")
    assert info.value.what == "this is a Frontier posse, not a Through the Rift one"
    assert info.value.fix == f"move it to {_data_dir / 'posses' / 'frontier'}"


# == properties =====================================================================================

FIELDS = [
    "faction",
    "add",
    "weapon",
    "attitude",
    "level",
    "second_attitude",
    "level7",
    "weapons",
    "talents",
    "skill",
    "bogus",
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=st.sampled_from(["frontier", "rift"]), data=st.data())
def test_random_edits_never_raise_and_the_rules_agree_with_the_draft(
    ruleset: str, data: st.DataObject
) -> None:
    draft = PosseDraft(ruleset)
    rules = FRONTIER if ruleset == "frontier" else RIFT
    for _ in range(data.draw(st.integers(0, 25), label="edits")):
        count = len(draft.units)
        index = data.draw(st.one_of(st.none(), st.integers(-1, count)), label="index")
        op = data.draw(
            st.sampled_from(["choose", "choose", "choose", "add", "remove", "name", "skills", "reset"])
        )
        before = draft.spec()
        if op == "add":
            kind = data.draw(st.sampled_from([c.id for c in draft.choices_for(None, "add")] + ["nobody"]))
            result = draft.add_unit(kind)
        elif op == "remove":
            result = draft.remove_unit(index if index is not None else 0)
        elif op == "name":
            result = draft.set_name(index if index is not None else 0, data.draw(st.text(max_size=8)))
        elif op == "skills":
            result = draft.act(index if index is not None else 0, "auto_skills")
        elif op == "reset":
            result = draft.act(index if index is not None else 0, "reset_weapons")
        else:
            field = data.draw(st.sampled_from(FIELDS), label="field")
            key = data.draw(st.sampled_from(["musclehead", "twinkletoed", ""]), label="key")
            choices = draft.choices_for(index, field, key)
            pick = data.draw(st.booleans(), label="pick one of the list")
            if choices and pick:
                choice = data.draw(st.sampled_from(choices), label="choice")
                result = draft.choose(index, field, choice.id, key)
                # what the list promised is what choose does
                if choice.enabled:
                    assert result is None
                else:
                    assert result == choice.reason and draft.spec() == before
            else:
                result = draft.choose(index, field, data.draw(st.text(max_size=4)), key)
        assert result is None or isinstance(result, str)
        problems = draft.problems()
        assert problems == rules.validate_posse(draft.spec())
        if not problems:
            assert draft.units
    event("valid at the end" if not draft.problems() else "unfinished at the end")
    if not draft.problems():
        Match.create(fk.RANCH, rules, [draft.spec(), default_posses(ruleset, "side2")[0].spec()], seed=1)


@settings(max_examples=40, deadline=None)
@given(
    level=st.integers(1, 7),
    attitude=st.sampled_from(sorted(["deliberate", "daring", "bold", "resolute", "cunning", "calculated"])),
    data=st.data(),
)
def test_enabled_rift_choices_leave_only_to_dos(level: int, attitude: str, data: st.DataObject) -> None:
    """Whatever enabled choices are taken, finishing the to-dos (talents, skills) makes a valid Rifter."""
    draft = rifter_draft(attitude=attitude, level=level)
    for _ in range(data.draw(st.integers(1, 12))):
        field = data.draw(st.sampled_from(draft.fields(0)))
        key = data.draw(st.sampled_from(list(RIFT.data.skills))) if field == "skill" else ""  # type: ignore[attr-defined]
        enabled = [c for c in draft.choices_for(0, field, key) if c.enabled]
        if enabled:
            assert draft.choose(0, field, data.draw(st.sampled_from(enabled)).id, key) is None
    unit = draft.units[0]
    assert unit.character is not None
    while draft.todo_left(0, "talents") < 0:
        draft.choose(0, "talents", unit.character.talents[-1])
        unit = draft.units[0]
        assert unit.character is not None
    for choice in draft.choices_for(0, "talents"):
        if draft.todo_left(0, "talents") > 0 and choice.enabled and not choice.selected:
            draft.choose(0, "talents", choice.id)
    draft.act(0, "auto_skills")
    assert draft.problems() == []
    assert character_problems(unit_spec_character(draft)) == []


def unit_spec_character(draft: PosseDraft) -> Character:
    unit = draft.units[0]
    assert unit.character is not None
    assert draft.spec().units[0] == unit_spec(unit.character)
    return unit.character


def test_the_data_dir_is_platformdirs_unless_the_environment_says_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import platformdirs

    monkeypatch.delenv(DATA_ENV)
    assert data_dir() == Path(platformdirs.user_data_dir("hexslinger", appauthor=False))
    assert posse_dir("frontier") == data_dir() / "posses" / "frontier"


# == a ruleset the posse model has never heard of ==================================================


@pytest.fixture
def toy(tmp_path: Path) -> Iterator[None]:
    """The toy ruleset (tests/toy_ruleset.py) installed as a plugin, builder and default posses included."""
    with installed_plugin(tmp_path / "plugins", "toy", "tests.toy_ruleset:PLUGIN"):
        yield


def test_a_plugged_in_ruleset_is_drafted_through_its_builder(toy: None) -> None:
    assert "toy" in buildable_rulesets()
    draft = PosseDraft("toy")
    assert draft.title == "Toy Skirmish" and draft.faction == "toy"
    # the toy's own rule: an empty posse is a to-do, not a reason to refuse a recruit
    assert draft.problems() == ["a posse needs at least one unit"]
    assert all(c.enabled for c in draft.choices_for(None, "add"))
    assert draft.add_unit("gunhand") is None and draft.add_unit("gunhand") is None
    assert [u.name for u in draft.units] == ["Gunhand", "Gunhand 2"]
    # the unit's fields are the builder's groups
    assert draft.fields(0) == ("stance",) and [g.title for g in draft.groups(0)] == ["Stance"]
    assert draft.field_label("stance") == "Stance"
    stances = by_id(draft.choices_for(0, "stance"))
    assert stances["steady"].selected and stances["reckless"].enabled
    assert draft.choose(0, "stance", "reckless") is None
    assert draft.summary(0) == "Gunhand \u00b7 Reckless"
    assert draft.choose(0, "stance", "sleepy") == "'sleepy' is not an option for Stance"
    assert draft.act(0, "auto_skills") == "Gunhand has nothing to do called 'auto_skills'"
    assert draft.todo_left(0, "talents") == 0 and draft.weapons(0) == ()
    assert draft.fielded(1) == ["Gunhand 2"]
    sheet = draft.sheet(0)
    assert sheet is not None and sheet.subtitle == "Gunhand \u2014 Toy Posse"
    assert [s.title for s in sheet.sections] == ["Stance", "Profile"]
    assert draft.problems() == []
    spec = draft.spec()
    assert spec.units[0].options == (("stance", "reckless"),)
    assert PosseDraft.from_spec("toy", spec).spec() == spec


def test_a_plugged_in_ruleset_has_defaults_and_a_folder_in_the_library(toy: None, _data_dir: Path) -> None:
    red, blue = default_posses("toy", "side2")
    assert (red.name, blue.name) == ("Red Hats", "Blue Hats")
    assert [u.kind for u in red.units] == ["gunhand", "gunhand", "scout"] and red.side == "side2"
    draft = PosseDraft("toy", name="Dust Devils")
    draft.add_unit("scout")
    draft.choose(0, "stance", "reckless")
    path = save_posse(draft)
    assert path == _data_dir / "posses" / "toy" / "dust-devils.json"
    assert [(e.name, e.builtin) for e in list_posses("toy")] == [
        ("Dust Devils", False),
        ("Red Hats", True),
        ("Blue Hats", True),
    ]
    assert load_posse("toy", "dust devils").spec() == draft.spec()
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["units"] == [{"kind": "scout", "name": "Scout", "stance": "reckless"}]
    # a Frontier file in the toy's folder is told apart by the registry's titles
    path.write_text(json.dumps(law("sheriff").to_json() | {"name": "Lost"}), encoding="utf-8")
    with pytest.raises(PosseFileError, match="this is a Frontier posse, not a Toy Skirmish one"):
        read_posse_file(path, "toy")
    # the defaults fight under the toy's rules
    match = Match.create(fk.RANCH, get_ruleset("toy"), [red.spec("side1"), blue.spec("side2")], seed=3)
    try:
        assert len(match.units()) == 6
    finally:
        match.close()


def test_a_ruleset_that_is_not_installed_is_refused_with_the_known_ones() -> None:
    with pytest.raises(DraftError, match=r"unknown ruleset 'toy' \(rulesets: frontier, rift, golden\)"):
        PosseDraft("toy")
    with pytest.raises(PosseFileError, match="unknown ruleset 'toy'") as info:
        list_posses("toy")
    assert info.value.fix == "use one of: frontier, rift, golden"


def test_the_posse_model_and_the_engine_import_no_ruleset_and_no_ui() -> None:
    """game.posses reads every ruleset from the registry; game.engine is below the rulesets and the UI."""
    code = (
        "import sys, importlib, pkgutil\n"
        "import game.posses, game.engine\n"
        "for m in pkgutil.iter_modules(game.engine.__path__):\n"
        "    importlib.import_module('game.engine.' + m.name)\n"
        "print(sorted(m for m in sys.modules if m.startswith(('game.rules.', 'game.ui', 'pygame'))))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_the_issues_colliding_names_get_a_posse_file_each(_data_dir: Path) -> None:
    """Issue 11: ``../../x``, ``~/x`` and ``x`` behind full-width dots and slash all make ``x``; ``..``,
    ``*`` and emoji-only names all make ``posse``. Each posse keeps its own file, none outside the folder,
    and each loads by its own name; an unreadable file at a posse's file name is never replaced."""
    folder = _data_dir / "posses" / "frontier"
    folder.mkdir(parents=True)
    (folder / "posse.json").write_text("[" * 50_000)  # damaged: not a posse to replace
    kinds = ["sheriff", "deputy", "dog", "hired_gun"]
    names = ["../../x", "~/x", "\uff0e\uff0e\uff0fx", "..", "*", "\U0001f920"]
    paths = [save_posse(law(kinds[i % 4]), name) for i, name in enumerate(names)]
    assert [p.name for p in paths] == [
        "x.json",
        "x-2.json",
        "x-3.json",
        "posse-2.json",
        "posse-3.json",
        "posse-4.json",
    ]
    assert all(p.parent == folder for p in paths)
    assert (folder / "posse.json").read_text() == "[" * 50_000
    for i, name in enumerate(names):
        assert load_posse("frontier", name).units[0].kind == kinds[i % 4], name
    assert sorted(p.name for p in _data_dir.rglob("*") if p.is_file()) == sorted(
        ["posse.json", *(p.name for p in paths)]
    )
