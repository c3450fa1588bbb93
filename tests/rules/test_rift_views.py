"""What the battle UI asks the Through the Rift ruleset: unit_view, tracker, auto_deploy, rules_summary.

The views are read-only: a test reaches each situation by commands (scripted dice) or a set-up, then
checks what the view says against the match and the rulebook's own words.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.engine.match import Match
from game.events import DamageTaken, Roll
from game.rules import PosseSpec, StatusView, UnitView
from game.rules.rift import RULESET, auto_deploy_commands
from game.rules.rift import state as st
from game.rules.rift.views import STATUS_RULES
from tests.rules.frontier_kit import at, open_map
from tests.rules.rift_kit import (
    RANCH,
    ROOT,
    cmd,
    deploy,
    find,
    game,
    give_turn,
    new_match,
    outlaws,
    place,
    rifter,
    rifters,
    script,
    unit,
)

SEEDS = ROOT.parent / "shared" / "seeds"
RULES_CODE = ROOT / "game" / "rules" / "rift"


def rulebook() -> str:
    """Through the Rift (seed 003) as text; the test is skipped where the seeds are not checked out."""
    found = sorted(SEEDS.glob("003_*.txt"))
    if not found:
        pytest.skip(f"the Through the Rift rulebook is not at {SEEDS}")
    return found[0].read_text(encoding="utf-8")


def _match(tmp_path: Path, side1: PosseSpec, side2: PosseSpec) -> Match:
    m = new_match(side1, side2, 1, open_map(tmp_path))
    deploy(m)
    return m


def view(m: Match, who: int) -> UnitView:
    return RULESET.unit_view(m, who)


def status(v: UnitView, key: str) -> StatusView:
    found = [s for s in v.statuses if s.key == key]
    assert found, f"{key} not in {[s.key for s in v.statuses]}"
    return found[0]


def keys(v: UnitView) -> set[str]:
    return {s.key for s in v.statuses}


# -- unit_view ---------------------------------------------------------------------------------------


def test_a_rifter_shows_level_attitudes_talents_and_weapon_blocks(tmp_path: Path) -> None:
    m = _match(
        tmp_path,
        rifters("side1", rifter("cunning", "Cora", 4, second="bold"), rifter("calculated", "Cal")),
        outlaws("side2", "outlaw_goon"),
    )
    cora, cal = unit(m, "side1"), unit(m, "side1", 1)
    v = view(m, cora)
    assert (v.name, v.side, v.kind) == ("Cora", "side1", "rifter")
    assert v.kind_name == "Rifter \u2014 Cunning 4 / Bold"
    assert v.art == ("cunning", "bold")
    assert v.health == (60, 60) and v.health_name == "Resolve"  # "Use the higher maximum resolve of the two"
    stats = dict(v.stats)
    assert (
        stats["Level"] == "4" and stats["Attitudes"] == "Cunning / Bold" and stats["Talents"] == "Architect"
    )
    assert "Battlefield Commander" in stats["Traits"] and "Meatshield" in stats["Traits"]
    assert v.weapons == ('"Standard" MDTC Model 4 Pistol \u2014 3d6 / 5+ / 6t',)
    c = view(m, cal)
    assert c.kind_name == "Rifter \u2014 Calculated 1" and c.health == (30, 30)
    assert "Sullivan 1402 Impact Grenade \u2014 2d4 / 2+ / 6t / r0 (blast radius 0)" in c.weapons
    assert "MDTC Antipersonnel Grenade \u2014 2d6 / 5+ / 6t / r1 (blast radius 1)" in c.weapons


def test_enemies_and_companions_show_their_names_and_abilities(tmp_path: Path) -> None:
    m = _match(
        tmp_path,
        rifters(
            "side1",
            rifter("bold", "Pug", 2, talents=("pugilist",)),
            rifter("daring", "Al", 2, talents=("animal_friend",)),
        ),
        outlaws("side2", "outlaw_goon", "dynamiter"),
    )
    pug, al = unit(m, "side1"), unit(m, "side1", 1)
    dog = next(u for u in m.units("side1") if u not in (pug, al))
    goon, dynamiter = unit(m, "side2"), unit(m, "side2", 1)
    assert "Haymaker \u2014 2d6 / 2+ / 0t (melee)" in view(m, pug).weapons
    d = view(m, dog)
    assert (d.kind, d.kind_name, d.health) == ("dog", "Dog", (15, 15))
    assert dict(d.stats)["Companion of"] == "Al" and dict(d.stats)["Move"] == "3 tiles"
    g = view(m, goon)
    assert g.kind_name == "Outlaw Goon" and g.health == (12, 12) and g.art == ()
    assert dict(g.stats)["Ability"].startswith("Heckle [1AP]")
    assert g.weapons == ("Goon's Revolver \u2014 2d4 / 2+ / 6t",)
    assert view(m, dynamiter).weapons[0] == "Bundle of Dynamite \u2014 1d6 / 3+ / 5t / r1 (blast radius 1)"


def test_action_points_are_the_ap_left_of_the_3_a_turn(tmp_path: Path) -> None:
    m = _match(tmp_path, rifters("side1", rifter("deliberate")), outlaws("side2", "outlaw_goon"))
    me = unit(m, "side1")
    give_turn(m, me)
    assert view(m, me).action_points == (3, 3)
    m.apply(cmd("down_the_sights", me))
    assert view(m, me).action_points == (1, 3)


def test_resolve_drops_by_exactly_the_stress_taken(tmp_path: Path) -> None:
    m = _match(tmp_path, rifters("side1", rifter("cunning")), outlaws("side2", "outlaw_goon"))
    me, goon = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(5))
    place(m, goon, at(8))
    give_turn(m, me)
    before = view(m, goon).health
    script(m, 6, 1, 1)  # the Model 4 Pistol: one hit of 6
    events = m.apply(cmd("fire", me, option="mdtc_model_4_pistol"))
    taken = sum(e.amount for e in events if isinstance(e, DamageTaken) and e.unit == goon)
    assert taken == 6 and view(m, goon).health == (before[0] - 6, before[1])


def test_overcome_and_fled_units_say_so(tmp_path: Path) -> None:
    m = _match(
        tmp_path,
        rifters("side1", rifter("cunning"), rifter("bold", "B")),
        outlaws("side2", "outlaw_goon", "outlaw_goon"),
    )
    me, bold, goon = unit(m, "side1"), unit(m, "side1", 1), unit(m, "side2")
    place(m, me, at(5))
    place(m, goon, at(8))
    place(m, unit(m, "side2", 1), at(28))
    st.resolve(goon).current = 2
    give_turn(m, me)
    script(m, 6, 1, 1)
    m.apply(cmd("fire", me, option="mdtc_model_4_pistol"))
    v = view(m, goon)
    assert v.out == "overcome" and v.health == (0, 12) and status(v, "overcome").name == "Overcome"
    give_turn(m, bold)
    m.apply(cmd("flee", bold))
    v = view(m, bold)
    assert v.out == "fled" and v.statuses[0].key == "fled"
    assert bold not in [e.unit for e in RULESET.tracker(m)] and goon not in [
        e.unit for e in RULESET.tracker(m)
    ]


def test_crouching_shows_in_cover_with_the_rulebook_sentence(tmp_path: Path) -> None:
    m = _match(tmp_path, rifters("side1", rifter("bold")), outlaws("side2", "outlaw_goon"))
    me = unit(m, "side1")
    give_turn(m, me)
    m.apply(cmd("crouch", me))
    crouched = status(view(m, me), "in_cover")
    assert crouched.name == "In Cover (crouched)"
    assert crouched.detail == "until the start of its next turn"
    assert crouched.rule.startswith("Until the start of your next turn, you are treated as if you have cover")
    assert crouched.rule in rulebook()


def test_statuses_from_others_name_who_and_until_when(tmp_path: Path) -> None:
    m = _match(tmp_path, rifters("side1", rifter("bold")), outlaws("side2", "outlaw_goon"))
    me, goon = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(5))
    place(m, goon, at(8))
    give_turn(m, goon)
    m.apply(cmd("heckle", goon, target=me))
    taunted = status(view(m, me), "taunted")
    assert taunted.rule == "Can only attempt to attack the target that taunted you"
    assert taunted.detail == "by Outlaw Goon, until the start of Outlaw Goon's next turn"
    m.enter()
    for kind in (
        "stunned",
        "suppressed",
        "overwhelmed",
    ):  # set-up: as Custom Blend, a hit, Lockdown give them
        RULESET.ctx(m).inflict(me, kind, goon)
    v = view(m, me)
    assert [s.key for s in v.statuses][:4] == ["stunned", "suppressed", "taunted", "overwhelmed"]
    assert status(v, "stunned").rule == "Lose 1 Action Point"


def test_own_readiness_statuses(tmp_path: Path) -> None:
    m = _match(
        tmp_path,
        rifters("side1", rifter("deliberate"), rifter("resolute", "R")),
        outlaws("side2", "outlaw_goon"),
    )
    dee, res = unit(m, "side1"), unit(m, "side1", 1)
    place(m, dee, at(5))
    place(m, res, at(5))
    place(m, unit(m, "side2"), at(28))
    give_turn(m, dee)
    m.apply(cmd("down_the_sights", dee))
    assert status(view(m, dee), "down_the_sights").detail == "until a shot hits"
    give_turn(m, res, ap=6)
    m.apply(cmd("hold_fire", res, option="sullivan_870_hmg"))
    hold = status(view(m, res), "hold_fire")
    assert hold.detail.startswith("Sullivan 870 Heavy Machine Gun ready")
    m.apply(cmd("deploy_cover", res))
    shield = status(view(m, dee), "shield")
    assert shield.detail == "R's shield in this tile" and "cover in all directions" in shield.rule


def test_duck_protection_shows_for_the_turn(tmp_path: Path) -> None:
    m = _match(
        tmp_path,
        rifters("side1", rifter("cunning"), rifter("deliberate", "D")),
        outlaws("side2", "outlaw_goon"),
    )
    cun, dee, goon = unit(m, "side1", 0), unit(m, "side1", 1), unit(m, "side2")
    place(m, cun, at(5))
    place(m, dee, at(11))
    place(m, goon, at(14))
    give_turn(m, cun)
    give_turn(m, goon)
    script(m, 4, 3)
    m.apply(cmd("fire", goon, option="goon_revolver"))
    m.apply(find(m, cun, "duck").command(target=dee))
    duck = status(view(m, dee), "duck")
    assert duck.name == '"Duck!"' and duck.detail == "no stress this turn"
    assert "duck" not in keys(view(m, cun))


def test_meatshield_shows_while_an_enemy_shares_the_tile(tmp_path: Path) -> None:
    m = _match(
        tmp_path,
        rifters("side1", rifter("bold", level=4), rifter("cunning", "K")),
        outlaws("side2", "outlaw_goon"),
    )
    bold, cun, goon = unit(m, "side1", 0), unit(m, "side1", 1), unit(m, "side2")
    place(m, bold, at(8))
    place(m, cun, at(8))
    place(m, goon, at(20))
    assert "meatshield" not in keys(view(m, bold))
    place(m, goon, at(8))
    assert "meatshield" in keys(view(m, bold))
    assert "improved_meatshield" in keys(
        view(m, cun)
    )  # "The cover effects of meatshield now apply to allies"


def test_items_are_what_the_unit_carries(tmp_path: Path) -> None:
    m = _match(tmp_path, rifters("side1", rifter("cunning")), outlaws("side2", "outlaw_goon"))
    me = unit(m, "side1")
    assert view(m, me).items == ()
    st.inventory(me).append("Canteen")  # set-up
    assert view(m, me).items == ("Canteen",)


def test_every_status_the_rules_set_has_a_rule_quoted_from_the_rulebook() -> None:
    """Status ids from the code: every inflicted kind, the talents' status actions, every StatusChanged kind
    and every removal reason."""
    code = "\n".join(
        p.read_text(encoding="utf-8") for p in sorted(RULES_CODE.rglob("*.py")) if p.name != "views.py"
    )
    ids = set(re.findall(r'inflict\(\s*[\w.]+,\s*"(\w+)"', code))
    ids |= set(re.findall(r'\("\w+",\s*"(\w+)",\s*\d+\)', code))  # talents.py: (action, status, reach)
    ids |= set(re.findall(r'StatusChanged\([^,]+,\s*[^,]+,\s*"(\w+)"', code))
    ids |= set(re.findall(r'\.remove\(\s*\w+,\s*"(\w+)"', code))
    assert {
        "in_cover",
        "stunned",
        "taunted",
        "covering_fire",
        "down_the_sights",
        "overcome",
        "fled",
    } <= ids, ids
    assert ids - set(STATUS_RULES) == set()
    book = rulebook()
    for key, rule in STATUS_RULES.items():
        assert rule.name and rule.rule, key
        assert rule.rule in book, f"{key}: {rule.rule!r} is not in the rulebook"


# -- tracker -----------------------------------------------------------------------------------------


def test_tracker_is_the_rolled_order_with_each_d20_and_the_active_unit(tmp_path: Path) -> None:
    m = new_match(
        rifters("side1", rifter("bold", level=2, talents=("quick_draw",)), rifter("daring", "D")),
        outlaws("side2", "outlaw_goon", "outlaw_goon"),
        1,
        open_map(tmp_path),
    )
    assert RULESET.tracker(m) == []  # deploying: nothing rolled yet
    deploy(m)
    g = game(m)
    entries = RULESET.tracker(m)
    assert [e.unit for e in entries] == g.order
    rolls = {e.unit: e.dice[0] for e in m.history if isinstance(e, Roll) and e.check == "initiative"}
    assert [e.label.split(" Quick Draw")[0] for e in entries] == [f"d20: {rolls[u]}" for u in g.order]
    assert entries[0].label.endswith("Quick Draw") and entries[0].unit == unit(m, "side1")
    assert not any(e.card for e in entries)
    assert [e.active for e in entries] == [u == g.active for u in g.order] and entries[0].active
    m.apply(cmd("end_turn", g.active))
    entries = RULESET.tracker(m)
    assert entries[0].acted and not entries[0].active and entries[1].active
    assert not any(e.acted for e in entries[1:])


def test_a_new_round_clears_the_acted_marks(tmp_path: Path) -> None:
    m = _match(tmp_path, rifters("side1", rifter("bold")), outlaws("side2", "outlaw_goon"))
    first = game(m).active
    m.apply(cmd("end_turn", first))
    m.apply(cmd("end_turn", game(m).active))
    assert game(m).round == 2 and game(m).active == first
    entries = RULESET.tracker(m)
    assert not any(e.acted for e in entries) and entries[0].active


# -- auto_deploy, summary, purity --------------------------------------------------------------------


def test_auto_deploy_commands_all_validate_and_deploy_everyone() -> None:
    m = new_match(
        rifters("side1", rifter("bold"), rifter("daring", "Al", 2, talents=("animal_friend",))),
        outlaws("side2", "outlaw_goon", "gang_boss", "dynamiter"),
        map_path=RANCH,
    )
    commands = RULESET.auto_deploy(m)
    assert commands == auto_deploy_commands(m)
    assert sorted(c.actor for c in commands) == sorted(m.units())  # the dog too
    for c in commands:
        assert m.validate(c) is None, c
        m.apply(c)
    assert all(m.position(u) is not None for u in m.units())
    assert game(m).phase == "battle" and RULESET.auto_deploy(m) == []
    m.close()


def test_rules_summary_is_short_and_covers_a_turn() -> None:
    text = RULESET.rules_summary()
    turn, _, actions = text.partition("Every action")
    assert 10 <= len(turn.strip().splitlines()) <= 25
    # issue 13: "the Rift F1 page explains every action as the Frontier one does": each action of
    # rift.toml with its cost and the rulebook's words
    for action in RULESET.data.actions.values():
        assert f"{action.name} ({action.cost} AP" in actions, action.id
        assert action.text.rstrip(".") in actions, action.id
    for word in (
        "1d20",
        "3 action points",
        "one attack",
        "Fire Firearm",
        "threshold",
        "cover",
        "overcome",
        "wins",
    ):
        assert word in text, word


def test_the_views_change_nothing(tmp_path: Path) -> None:
    m = _match(tmp_path, rifters("side1", rifter("cunning")), outlaws("side2", "outlaw_goon"))
    digest = m.digest()
    for u in m.units(in_play=False):
        view(m, u)
    RULESET.tracker(m)
    RULESET.auto_deploy(m)
    assert m.digest() == digest
    with pytest.raises(ValueError, match="no Through the Rift unit"):
        RULESET.unit_view(m, 9999)
