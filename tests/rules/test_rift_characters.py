"""Characters as validated data and posse files a player keeps."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.rules.rift.character import (
    CharacterError,
    character_problems,
    kit_of,
    load_posse,
    save_posse,
)
from tests.rules.rift_kit import rifter


def test_level_one_kit_the_default_pistol_plus_the_attitude_weapon() -> None:
    """ "By default, all attitudes start with a "Standard" MDTC Model 4 Pistol ... and another suggested
    weapon" """
    kit = kit_of(rifter("deliberate"))
    assert kit.weapons == ("mdtc_model_4_pistol", "mdtc_model_13_rifle")
    assert kit.resolve == 30 and kit.traits == ("firearm_mastery", "piercing_fire")


def test_second_attitude_only_from_level_4_with_the_higher_resolve() -> None:
    """ "Select a second attitude and recieve that attitude's traits and actions in addition to your own.
    Use the higher maximum resolve of the two" """
    assert any("level 4" in p for p in character_problems(rifter("cunning", level=3, second="bold")))
    kit = kit_of(rifter("cunning", level=4, second="bold"))
    assert kit.resolve == 60
    assert "meatshield" in kit.traits and "scary_yelling" in kit.actions
    assert "constant_vigilance" not in kit.traits  # the 4th-level traits are given up


def test_level_7_pick_own_or_one_4th_level_trait_of_the_second_attitude() -> None:
    """ "If you picked a second attitude, recieve one of the attitude's 4th level traits" """
    kit = kit_of(rifter("cunning", level=7, second="bold", level7="heightened_durability"))
    assert kit.resolve == 75
    assert "tactical_reposition" not in kit.actions
    assert kit_of(rifter("cunning", level=7)).actions[-1] == "tactical_reposition"
    assert character_problems(rifter("cunning", level=7, second="bold", level7="walking_fortress"))


def test_two_weapons_at_the_ready_three_with_to_the_teeth() -> None:
    """ "Characters can have two weapons at the ready"; To the Teeth: "1 additional weapon" """
    three = ("mdtc_model_4_pistol", "kelly_sr19_rifle", "sullivan_668_shotgun")
    assert character_problems(rifter("bold", weapons=three))
    assert not character_problems(rifter("calculated", weapons=three))


def test_talents_at_levels_2_and_5_and_skill_points_10_6_6() -> None:
    ok = rifter("bold", level=6)
    assert not character_problems(ok)
    assert sum(r for _, r in ok.skills) == 22
    assert character_problems(rifter("bold", level=5, talents=("architect",)))


def test_posse_files_round_trip_as_toml_and_json(tmp_path: Path) -> None:
    crew = [
        rifter("bold", "Big Al", 5, talents=("pugilist", "quick_draw")),
        rifter("cunning", "Vi", 4, second="daring"),
    ]
    for name in ("posse.toml", "posse.json"):
        path = tmp_path / name
        save_posse(path, "The Dust Devils", crew)
        title, loaded = load_posse(path)
        assert title == "The Dust Devils" and loaded == crew
    (tmp_path / "bad.toml").write_text('name = "x"\n[[rifters]]\nname = "A"\nlevel = 9\nattitude = "bold"\n')
    with pytest.raises(CharacterError, match="level 9"):
        load_posse(tmp_path / "bad.toml")
