"""Frontier's stat blocks, weapons and posse limits as data (frontier.toml), validated strictly on load."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from game.rules.frontier.data import DATA_FILE, FrontierDataError, default_data, load_data, parse_data


def _doc() -> dict[str, object]:
    return tomllib.loads(DATA_FILE.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("kind", "stats"),
    [
        # Move Ballistics Melee Toughness Wounds Leadership Cool, as printed ("N/A" is None)
        ("sheriff", (5, 3, 4, 3, 3, 2, 3)),
        ("deputy", (5, 4, 3, 2, 3, None, 4)),
        ("hired_gun", (6, 5, 2, 3, 2, None, 5)),
        ("dog", (8, None, 2, 1, 2, None, 2)),
        ("gang_leader", (5, 5, 2, 4, 2, 1, 3)),
        ("outlaw", (5, 4, 3, 2, 3, None, 4)),
    ],
)
def test_posse_stat_blocks_are_the_rulebooks(kind: str, stats: tuple[int | None, ...]) -> None:
    """Rulebook: "POSSE STAT BLOCKS - Below are the stat blocks for each of the Units available in the
    game." """
    u = default_data().units[kind]
    assert (u.move, u.ballistics, u.melee, u.toughness, u.wounds, u.leadership, u.cool) == stats


@pytest.mark.parametrize(
    ("kind", "weapons"),
    [
        ("sheriff", ("revolver", "rifle")),  # "Revolver OR Rifle"
        ("deputy", ("revolver",)),
        ("hired_gun", ("tomahawk", "revolver")),  # "Tomahawk OR Revolver"
        ("dog", ("bite",)),
        ("gang_leader", ("rifle", "tomahawk")),  # "Rifle OR Tomahawk"
        ("outlaw", ("tomahawk", "revolver")),
    ],
)
def test_weapons_available(kind: str, weapons: tuple[str, ...]) -> None:
    """Rulebook: "Weapons Available: Revolver OR Rifle" and the other units' options."""
    assert default_data().units[kind].weapons == weapons


@pytest.mark.parametrize(
    ("weapon", "row"),
    [
        ("revolver", (8, 16, 1, 0, 1, 6)),
        ("rifle", (12, 32, -1, 1, 2, 10)),
        ("tomahawk", (1, 1, 0, 0, 3, None)),
        ("bite", (1, 1, 0, 0, 3, None)),
    ],
)
def test_weapon_table(weapon: str, row: tuple[int | None, ...]) -> None:
    """The Weapons table: RANGE S/L, ACCURACY S/L, Damage, Ammo ("-" is no modifier / no ammo)."""
    w = default_data().weapons[weapon]
    assert (w.short_range, w.long_range, w.short_accuracy, w.long_accuracy, w.damage, w.ammo) == row


def test_leaders_and_abilities() -> None:
    """Rulebook: "(Recharge 2) Follow Me! - The Sheriff can choose up to 2 other units within 4" of him.
    Units chosen this way gain 1 additional AP each" and "(Recharge 2) Dastardly - The Gang Leader gains a
    temporary wound"."""
    data = default_data()
    assert data.units["sheriff"].leader and data.units["gang_leader"].leader
    follow = data.abilities["follow_me"]
    assert (follow.recharge, follow.range, follow.max_targets, follow.extra_ap) == (2, 4, 2, 1)
    dastardly = data.abilities["dastardly"]
    assert (dastardly.recharge, dastardly.temporary_wounds) == (2, 1)
    assert data.abilities["canine_agility"].passive
    assert "canine_agility" in data.units["dog"].abilities


def test_posse_limits() -> None:
    """Rulebook: "The maximum number of Units The Law can field during a Combat Encounter is 4." ... "The
    maximum number of Units The Outlaws can field during a Combat Encounter is 5." """
    data = default_data()
    law, outlaws = data.factions["the_law"], data.factions["the_outlaws"]
    assert (law.max_units, law.duplicates, law.units) == (4, False, ("sheriff", "deputy", "hired_gun", "dog"))
    assert (outlaws.max_units, outlaws.duplicates, outlaws.units) == (
        5,
        True,
        ("gang_leader", "outlaw", "dog"),
    )
    assert data.action_points == 2


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    text = DATA_FILE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "frontier.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("move = 5\nballistics = 3", "mvoe = 5\nballistics = 3", "[units.sheriff]: unknown key 'mvoe'"),
        ("damage = 1\nammo = 6", "damage = 1\nammo = 6\ncolour = 'red'", "[weapons.revolver]: unknown key"),
        ("move = 8", 'move = "eight"', "[units.dog]: 'move' must be a whole number"),
        ("cool = 3\nweapons", "cool = 9\nweapons", "[units.sheriff]: 'cool' is 9, must be from 1 to 7"),
        ('weapons = ["bite"]', 'weapons = ["teeth"]', "unknown weapon 'teeth'"),
        ("max_units = 4", "max_units = -1", "'max_units' is -1"),
        (
            'kind = "melee"\nshort_range = 1\ndamage = 3',
            'kind = "magic"\nshort_range = 1\ndamage = 3',
            "kind",
        ),
        ("[encounter]", "[encounterz]", "unknown table [encounterz]"),
        ("duplicates = true", "", "missing key 'duplicates'"),
        ("leadership = 2\n", "", "a leader (and only a leader) has 'leadership'"),
    ],
)
def test_unknown_keys_and_bad_values_are_errors_naming_the_key(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    """Rules as data: "data loaders that pass unknown keys through silently" are what DESIGN.md avoids."""
    with pytest.raises(FrontierDataError) as error:
        load_data(_broken(tmp_path, old, new))
    assert message in str(error.value)


def test_not_toml_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[units\n")
    with pytest.raises(FrontierDataError, match="not valid TOML"):
        load_data(path)


def test_the_shipped_file_round_trips_through_parse() -> None:
    assert parse_data(_doc()) == default_data()
