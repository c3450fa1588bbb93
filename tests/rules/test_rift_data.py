"""rift.toml: every weapon of the weapons chapter as printed, attitudes, talents, the enemy roster; strict."""

from __future__ import annotations

import pytest

from game.rules.rift.data import RiftDataError, default_data, parse_data


def test_every_firearm_and_explosive_of_the_weapons_chapter_as_printed() -> None:
    """ "Sullivan 870 Heavy Machine Gun 3d4 / 2+ / 8t", "MDTC Antipersonnel Grenade 2d6 / 5+ / 6t / r1"."""
    w = default_data().weapons
    book = [w[k] for k in w if not w[k].own and not w[k].melee]
    assert len([x for x in book if x.explosive]) == 6
    assert len([x for x in book if x.firearm]) == 14
    assert w["sullivan_870_hmg"].block == "3d4 / 2+ / 8t"
    assert w["mdtc_antipersonnel_grenade"].block == "2d6 / 5+ / 6t / r1"
    assert w["mdtc_model_4_pistol"].block == "3d6 / 5+ / 6t"
    assert w["deft_labs_obliterator"].block == "1d100 / 96+ / 6t"


def test_impact_grenade_is_r0_as_in_the_explosives_table() -> None:
    """ "Sullivan 1402 Impact Grenade 2d4 / 2+ / 6t / r0" (table) vs "/ r2" (Calculated page): r0."""
    assert default_data().weapons["sullivan_1402_impact_grenade"].block == "2d4 / 2+ / 6t / r0"


def test_digital_peashooters_are_1d0() -> None:
    """ "Deft Labs "Digital Peashooters" 1d0 / 1+ / 8t": a die that shows 0."""
    assert default_data().weapons["deft_labs_digital_peashooters"].sides == 0


def test_attitudes_resolve_weapons_and_kits() -> None:
    """ "Deliberate ... 30 Resolve", "Daring 45", "Bold 60", "Resolute 45", "Cunning 30", "Calculated 30"."""
    a = default_data().attitudes
    assert {k: v.resolve for k, v in a.items()} == {
        "deliberate": 30,
        "daring": 45,
        "bold": 60,
        "resolute": 45,
        "cunning": 30,
        "calculated": 30,
    }
    assert a["calculated"].weapons == ("sullivan_1402_impact_grenade", "mdtc_antipersonnel_grenade")
    assert a["daring"].actions[7] == ("dodge_roll",)
    assert a["bold"].actions[1] == ("scary_yelling", "massive_presence")


def test_talents_with_combat_effects() -> None:
    t = default_data().talents
    combat = sorted(k for k, v in t.items() if v.combat)
    assert combat == [
        "animal_friend",
        "back_alley_tourist",
        "implausibly_well_groomed",
        "no_truce_with_the_furies",
        "polyglot",
        "pugilist",
        "quick_draw",
        "smooth_sidearm",
    ]


def test_enemy_roster_is_weak_and_consistent() -> None:
    """ "enemy weapons should be weak and consistent": low thresholds, small dice."""
    data = default_data()
    assert set(data.enemies) == {"outlaw_goon", "sharpshooter", "dynamiter", "gang_boss"}
    for enemy in data.enemies.values():
        for wid in enemy.weapons:
            w = data.weapons[wid]
            assert w.own and w.sides <= 6 and w.threshold <= 3


def test_unknown_keys_and_bad_values_are_errors_naming_the_key() -> None:
    import tomllib

    from game.rules.rift.data import DATA_FILE

    doc = tomllib.loads(DATA_FILE.read_text(encoding="utf-8"))
    doc["weapons"]["mdtc_model_4_pistol"]["colour"] = "red"
    with pytest.raises(RiftDataError, match="colour"):
        parse_data(doc)
    doc = tomllib.loads(DATA_FILE.read_text(encoding="utf-8"))
    doc["weapons"]["mdtc_model_4_pistol"]["dice"] = "three d six"
    with pytest.raises(RiftDataError, match="dice"):
        parse_data(doc)
    doc = tomllib.loads(DATA_FILE.read_text(encoding="utf-8"))
    doc["attitudes"]["bold"]["level1_traits"] = ["meatshield", "nope"]
    with pytest.raises(RiftDataError, match="nope"):
        parse_data(doc)
