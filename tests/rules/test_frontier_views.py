"""What the battle UI asks the Frontier ruleset: unit_view, tracker, auto_deploy, rules_summary.

The views are read-only: a test reaches each situation by commands (scripted dice) or a set-up, then
checks what the view says against the match and the rulebook's own words.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import esper
import pytest

from game.commands import Command
from game.components import Removed
from game.engine.match import Match
from game.events import CardDealt, DamageTaken
from game.hexgrid import Hex
from game.rules import StatusView, UnitView
from game.rules.frontier import RULESET, auto_deploy_commands
from game.rules.frontier import state as st
from game.rules.frontier.components import Status
from game.rules.frontier.views import STATUS_RULES, card_label
from tests import maps_factory as mf
from tests.rules.frontier_kit import (
    RANCH,
    ROOT,
    ROW,
    at,
    deploy,
    give_turn,
    hurt,
    joker_match,
    law,
    new_match,
    open_map,
    outlaws,
    place,
    script,
    setup_field,
    to_action_phase,
    unit,
)

SEEDS = ROOT.parent / "shared" / "seeds"
RULES_CODE = ROOT / "game" / "rules" / "frontier"


def rulebook() -> str:
    """The Frontier rulebook (seed 001) as text; the test is skipped where the seeds are not checked out."""
    found = sorted(SEEDS.glob("001_*.txt"))
    if not found:
        pytest.skip(f"the Frontier rulebook is not at {SEEDS}")
    return found[0].read_text(encoding="utf-8")


def view(m: Match, who: int) -> UnitView:
    return RULESET.unit_view(m, who)


def status(v: UnitView, key: str) -> StatusView:
    found = [s for s in v.statuses if s.key == key]
    assert found, f"{key} not in {[s.key for s in v.statuses]}"
    return found[0]


def keys(v: UnitView) -> set[str]:
    return {s.key for s in v.statuses}


@pytest.fixture
def duel(tmp_path: Path) -> Match:
    m = new_match(
        open_map(tmp_path, items=[(at(5) + Hex(2, -1), "Smelling Salts")]),
        law("sheriff", "deputy"),
        outlaws("gang_leader", ("outlaw", "revolver")),
    )
    setup_field(
        m,
        {
            unit(m, "side1"): at(5),
            unit(m, "side1", 1): at(3),
            unit(m, "side2"): at(9),
            unit(m, "side2", 1): at(25),
        },
    )
    return m


# -- unit_view ---------------------------------------------------------------------------------------


def test_unit_view_shows_the_stat_block_from_the_data(duel: Match) -> None:
    """The Sheriff's stat block as printed: "Move 5" Ballisitics 3+ Melee 4+ Toughness 3 Wounds 3
    Leadership 2 Cool 3+", a leader ("Sheriff (Leader)"), 2 AP, his weapon and his fists."""
    sheriff, outlaw = unit(duel, "side1"), unit(duel, "side2", 1)
    v = view(duel, sheriff)
    assert (v.unit, v.name, v.side, v.kind) == (sheriff, "Sheriff", "side1", "sheriff")
    assert v.kind_name == "Sheriff (Leader)"
    assert dict(v.stats) == {
        "Move": '5"',
        "Ballistics": "3+",
        "Melee": "4+",
        "Toughness": "3/3",
        "Wounds": "3/3",
        "Leadership": "2",
        "Cool": "3+",
        "Follow Me!": "ready (Recharge 2)",
    }
    assert v.weapons == (
        'Revolver: range 8"/16", accuracy +1/-, damage 1, ammo 6/6',
        'Fists (melee): range 1", damage 1',
    )
    assert v.health == (6, 6) and v.health_name == "Toughness + Wounds"
    assert v.statuses == () and v.out == "" and v.art == ()
    o = view(duel, outlaw)
    assert o.kind_name == "Outlaw" and dict(o.stats)["Leadership"] == "N/A"
    assert view(duel, unit(duel, "side2")).weapons[0] == (
        'Rifle: range 12"/32", accuracy -1/+1, damage 2, ammo 10/10'
    )


def test_action_points_are_the_units_ap_of_its_2_per_activation(duel: Match) -> None:
    sheriff = unit(duel, "side1")
    give_turn(duel, sheriff)
    assert view(duel, sheriff).action_points == (2, 2)
    duel.apply(Command("aim", actor=sheriff))
    assert view(duel, sheriff).action_points == (1, 2)


def test_health_drops_by_exactly_the_damage_taken_and_ammo_by_the_shot(duel: Match) -> None:
    """Toughness and Wounds are one damage track (docs/RULES.md decision 3): a hit for 2 is 2 off."""
    sheriff, leader = unit(duel, "side1"), unit(duel, "side2")
    give_turn(duel, leader)
    before = view(duel, sheriff).health
    script(duel, 6)
    events = duel.apply(Command("shoot", actor=leader, target=sheriff))  # Rifle: 2 damage
    dealt = sum(e.amount for e in events if isinstance(e, DamageTaken) and e.unit == sheriff)
    after = view(duel, sheriff)
    assert dealt == 2 and after.health == (before[0] - 2, before[1])
    assert dict(after.stats)["Toughness"] == "1/3" and dict(after.stats)["Wounds"] == "3/3"
    assert "wounded" not in keys(after)  # Toughness took it all
    assert view(duel, leader).weapons[0].endswith("ammo 9/10")


def test_losing_a_wound_shows_wounded_and_zero_wounds_seriously_injured_and_prone(duel: Match) -> None:
    """ "Units that have taken any Wounds in a Combat Encounter are considered Wounded." and "When a Unit is
    reduced to 0 Wounds, they are considered Seriously Injured and fall Prone." """
    deputy = unit(duel, "side1", 1)
    duel.enter()
    hurt(duel, deputy, 3, None, [])  # Toughness 2, then 1 Wound
    v = view(duel, deputy)
    assert v.health == (2, 5) and dict(v.stats)["Wounds"] == "2/3"
    assert keys(v) == {"wounded"} and status(v, "wounded").name == "Wounded"
    hurt(duel, deputy, 2, None, [])
    v = view(duel, deputy)
    assert v.health == (0, 5)
    assert keys(v) == {"wounded", "seriously_injured", "prone"}
    assert v.out == "seriously injured"


def test_a_prone_unit_shows_prone_with_the_rulebook_sentence(duel: Match) -> None:
    sheriff = unit(duel, "side1")
    duel.enter()
    st.status(sheriff).prone = True
    prone = status(view(duel, sheriff), "prone")
    assert prone.name == "Prone"
    assert prone.rule == (
        "A Unit may be knocked prone; they must use the Stand Up action from the action list to end this "
        "effect."
    )
    assert prone.rule in rulebook()


def test_aim_taking_cover_and_close_combat_show_while_they_apply(tmp_path: Path) -> None:
    m = new_match(
        open_map(tmp_path, terrain={(6, ROW): mf.BARREL}),  # half cover next to the sheriff
        law("sheriff", "deputy"),
        outlaws("gang_leader", ("outlaw", "tomahawk")),
    )
    sheriff, deputy, leader, outlaw = (unit(m, s, i) for s in ("side1", "side2") for i in (0, 1))
    setup_field(m, {sheriff: at(5), deputy: at(12), leader: at(20), outlaw: at(13)})
    give_turn(m, sheriff, ap=3)
    m.apply(Command("aim", actor=sheriff))
    assert status(view(m, sheriff), "aimed").rule.startswith("If the Unit makes a subsequent Shoot")
    m.apply(Command("take_cover", actor=sheriff))
    v = view(m, sheriff)
    assert keys(v) == {"aimed", "taking_cover"}
    assert "total cover" in status(v, "taking_cover").rule
    m.apply(Command("end_activation", actor=sheriff))
    # Aim was for that activation; Take Cover lasts until the sheriff's next activation
    assert keys(view(m, sheriff)) == {"taking_cover"}
    engaged = status(view(m, deputy), "engaged")
    assert engaged.detail == 'in close combat (within 1") with Outlaw'
    assert "engaged" in keys(view(m, outlaw)) and "engaged" not in keys(view(m, leader))


def test_leader_abilities_show_their_effects_and_recharge(tmp_path: Path) -> None:
    m = new_match(open_map(tmp_path), law("sheriff", "deputy"), outlaws("gang_leader"))
    sheriff, deputy, leader = unit(m, "side1"), unit(m, "side1", 1), unit(m, "side2")
    setup_field(m, {sheriff: at(5), deputy: at(7), leader: at(25)})
    give_turn(m, sheriff)
    m.apply(Command("leader_action", actor=sheriff, targets=(deputy,)))
    follow = status(view(m, deputy), "follow_me")
    assert follow.detail == "+1 AP in the next Action Phase"
    assert dict(view(m, sheriff).stats)["Follow Me!"] == "recharging, ready in round 4 (Recharge 2)"
    give_turn(m, leader)
    before = view(m, leader).health
    m.apply(Command("leader_action", actor=leader))
    v = view(m, leader)
    assert "dastardly" in keys(v) and v.health == (before[0] + 1, before[1] + 1)
    assert dict(v.stats)["Temporary wound"] == "1"


def test_removed_units_say_how_they_left(duel: Match) -> None:
    sheriff, deputy, leader = unit(duel, "side1"), unit(duel, "side1", 1), unit(duel, "side2")
    duel.enter()
    hurt(duel, leader, 6, None, [])
    place(duel, leader, at(6))
    give_turn(duel, sheriff)
    duel.apply(Command("coup_de_grace", actor=sheriff, target=leader))
    v = view(duel, leader)
    assert v.out == "out of action" and v.statuses[0].key == "out_of_action"
    esper.add_component(deputy, Removed("fled"))  # set-up: a failed Cool check
    v = view(duel, deputy)
    assert v.out == "fled" and v.statuses[0].name == "Broken"


def test_items_are_the_posse_inventory_shown_on_each_of_its_units(duel: Match) -> None:
    """ "Each Posse has an inventory ... Items stored this way are accessible to the whole Posse" """
    sheriff = unit(duel, "side1")
    give_turn(duel, sheriff)
    duel.apply(Command("move", actor=sheriff, path=(at(6),)))
    duel.apply(Command("take_item", actor=sheriff, hex=at(5) + Hex(2, -1), option="Smelling Salts"))
    assert view(duel, sheriff).items == ("Smelling Salts",)
    assert view(duel, unit(duel, "side1", 1)).items == ("Smelling Salts",)
    assert view(duel, unit(duel, "side2")).items == ()


def test_every_status_the_rules_set_has_a_rule_quoted_from_the_rulebook() -> None:
    """Status ids from the code: the Status flags, every StatusChanged kind and every removal reason."""
    code = "\n".join(
        p.read_text(encoding="utf-8") for p in sorted(RULES_CODE.glob("*.py")) if p.name != "views.py"
    )
    ids = {f.name for f in dataclasses.fields(Status)}
    ids |= set(re.findall(r'StatusChanged\([^,]+,\s*[^,]+,\s*"(\w+)"', code))
    reasons = set(re.findall(r'Removed\("(\w+)"\)', code)) | set(re.findall(r'remove\([^)]*"(\w+)"', code))
    assert {"prone", "taking_cover", "dastardly", "broken"} <= ids and {"fled", "out_of_action"} <= reasons
    ids |= {{"fled": "broken"}.get(r, r) for r in reasons}
    assert ids - set(STATUS_RULES) == set()
    book = rulebook()
    for key, rule in STATUS_RULES.items():
        assert rule.name and rule.rule, key
        assert rule.rule in book, f"{key}: {rule.rule!r} is not in the rulebook"


# -- tracker -----------------------------------------------------------------------------------------


def test_tracker_before_and_during_the_draw_shows_what_is_known(tmp_path: Path) -> None:
    m = new_match(open_map(tmp_path), law("sheriff", "deputy"), outlaws("gang_leader"))
    assert RULESET.tracker(m) == []  # deployment: nothing is known
    deploy(m)
    waiting = RULESET.tracker(m)
    assert [e.unit for e in waiting] == m.units() and all(
        e.label == "to draw" and not e.card for e in waiting
    )
    first = m.legal_actions()[0]
    dealt = [e for e in m.apply(first.command()) if isinstance(e, CardDealt)]
    entries = RULESET.tracker(m)
    assert entries[0].unit == first.actor and entries[0].card
    assert entries[0].label == card_label(dealt[0].card)
    assert [e.unit for e in entries[1:]] == [u for u in m.units() if u != first.actor]


def test_tracker_is_the_activation_order_with_the_cards_and_the_active_unit(tmp_path: Path) -> None:
    m = new_match(open_map(tmp_path), law("sheriff", "deputy", "dog"), outlaws("gang_leader", "outlaw"))
    deploy(m)
    to_action_phase(m)
    game = st.game_state(m)
    entries = RULESET.tracker(m)
    assert [e.unit for e in entries] == game.order
    assert [e.label for e in entries] == [card_label(st.activation(u).card_name) for u in game.order]
    assert all(e.card for e in entries)
    assert [e.active for e in entries] == [u == game.active for u in game.order]
    assert sum(e.active for e in entries) == 1 and not any(e.acted for e in entries)
    first = game.active
    m.apply(Command("end_activation", actor=first))
    entries = RULESET.tracker(m)
    assert entries[0].acted and not entries[0].active
    assert next(e for e in entries if e.active).unit == st.game_state(m).active != first


def test_seriously_injured_units_leave_the_tracker(tmp_path: Path) -> None:
    m = new_match(open_map(tmp_path), law("sheriff", "deputy"), outlaws("gang_leader", "outlaw"))
    deploy(m)
    to_action_phase(m)
    victim = next(u for u in st.game_state(m).order if u != st.game_state(m).active)
    m.enter()
    hurt(m, victim, 10, None, [])
    assert victim not in [e.unit for e in RULESET.tracker(m)]


def test_the_joker_is_shown_as_joker_last_until_placed_then_where_its_owner_put_it(tmp_path: Path) -> None:
    m = joker_match(
        open_map(tmp_path), law("sheriff", "deputy"), outlaws("gang_leader", "outlaw"), range(1, 200)
    )
    entries = RULESET.tracker(m)
    holder = m.legal_actions()[0].actor
    assert entries[-1].unit == holder and entries[-1].label == "Joker" and entries[-1].card
    values = [st.activation(e.unit).card or 0 for e in entries[:-1]]
    assert values == sorted(values, reverse=True) and "Joker" not in [e.label for e in entries[:-1]]
    m.apply(Command("place_joker", actor=holder, option="1"))
    entries = RULESET.tracker(m)
    assert entries[0].unit == holder and entries[0].label == "Joker" and entries[0].active


def test_card_labels() -> None:
    assert card_label("King of Spades") == "K\u2660"
    assert card_label("Ace of Spades") == "A\u2660"
    assert card_label("10 of Spades") == "10\u2660"
    assert card_label("Red Joker") == "Joker"


# -- auto_deploy, summary, purity --------------------------------------------------------------------


def test_auto_deploy_commands_all_validate_and_deploy_everyone() -> None:
    m = new_match(
        RANCH, law("sheriff", "deputy", "hired_gun", "dog"), outlaws("gang_leader", "outlaw", "dog")
    )
    commands = RULESET.auto_deploy(m)
    assert commands == auto_deploy_commands(m)
    assert sorted(c.actor for c in commands) == sorted(m.units())
    for c in commands:
        assert m.validate(c) is None, c
        m.apply(c)
    assert all(m.position(u) is not None for u in m.units())
    assert st.game_state(m).phase == "initiative" and RULESET.auto_deploy(m) == []
    m.close()


def test_rules_summary_is_short_and_covers_a_turn() -> None:
    text = RULESET.rules_summary()
    assert 10 <= len(text.strip().splitlines()) <= 25
    for word in ("Initiative", "Joker", "2 AP", "Shoot", "Charge", "1d6", "Toughness", "Cool", "wins"):
        assert word in text, word


def test_the_views_change_nothing(duel: Match) -> None:
    give_turn(duel, unit(duel, "side1"))
    digest = duel.digest()
    for u in duel.units(in_play=False):
        view(duel, u)
    RULESET.tracker(duel)
    RULESET.auto_deploy(duel)
    assert duel.digest() == digest
    with pytest.raises(ValueError, match="no Frontier unit"):
        RULESET.unit_view(duel, 9999)
