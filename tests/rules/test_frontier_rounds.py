"""Posses, deployment and the Initiative phase."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from game.commands import Command
from game.engine.cards import frontier_14
from game.engine.match import Match
from game.events import ActivationStarted, CardDealt
from game.rules import PosseSpec, UnitSpec, get_ruleset
from game.rules.frontier import FrontierRuleset
from game.rules.frontier import state as st
from tests.rules.frontier_kit import RANCH, deploy, law, new_match, open_map, outlaws, unit


def _problems(p: PosseSpec) -> list[str]:
    return get_ruleset("frontier").validate_posse(p)


def test_the_law_fields_at_most_4_unique_units() -> None:
    """Rulebook: "The Law have access to 4 unique Units ... They cannot however field duplicate Units. The
    maximum number of Units The Law can field during a Combat Encounter is 4." """
    assert _problems(law("sheriff", "deputy", "hired_gun", "dog")) == []
    assert any("duplicate" in p for p in _problems(law("sheriff", "deputy", "deputy")))
    too_many = PosseSpec(
        "side1", "the_law", "x", tuple(UnitSpec(k) for k in ("sheriff", "deputy", "dog") * 2)
    )
    assert any("maximum number of Units The Law can field is 4" in p for p in _problems(too_many))
    assert any("cannot field a 'outlaw'" in p for p in _problems(law("sheriff", "outlaw")))


def test_the_outlaws_field_non_leader_duplicates_at_most_5() -> None:
    """Rulebook: "The Outlaws have access to 3 unique Units ... They can field (Non-Leader) duplicates. The
    maximum number of Units The Outlaws can field during a Combat Encounter is 5." """
    assert _problems(outlaws("gang_leader", "outlaw", "outlaw", "outlaw", "dog")) == []
    assert any("one leader" in p for p in _problems(outlaws("gang_leader", "gang_leader")))
    six = outlaws("gang_leader", "outlaw", "outlaw", "outlaw", "dog", "dog")
    assert any("is 5, not 6" in p for p in _problems(six))


def test_two_posses_meet_and_no_more_units_than_the_deck_has_cards(tmp_path: Path) -> None:
    """Rulebook: "Initiative is decided by drawing from a deck of 14 cards" / "The Player with the smaller
    Posse draws first. Players then take turns drawing for each Unit in their Posse, alternating with each
    draw." Two posses (of any factions, one faction twice too); a third is refused when the match is made,
    with the reason, instead of the 15th card failing to be drawn (docs/RULES.md Frontier 8a)."""
    rules = get_ruleset("frontier")
    five = ("gang_leader", "outlaw", "outlaw", "outlaw", "dog")
    three = [outlaws(*five), PosseSpec("side3", "the_outlaws", "B", tuple(UnitSpec(k) for k in five))]
    three.insert(0, PosseSpec("side1", "the_outlaws", "A", tuple(UnitSpec(k) for k in five)))
    problems = rules.validate_posses(three)
    assert any(p.startswith("Frontier is played by two posses, not 3") for p in problems), problems
    assert any("15 units cannot all draw an initiative card from the deck of 14" in p for p in problems)
    with pytest.raises(ValueError, match="Frontier is played by two posses, not 3"):
        Match.create(open_map(tmp_path), rules, three, 1)
    bad = rules.validate_posses([law("sheriff", "sheriff"), outlaws(*five)])
    assert bad == ["posse 'the_law': The Law cannot field duplicate Units: 2 x Sheriff"]
    # one faction twice: 10 units, every one gets its card
    mirror = [three[0], outlaws(*five)]
    assert rules.validate_posses(mirror) == []
    m = Match.create(open_map(tmp_path), rules, mirror, 1)
    deploy(m)
    while st.game_state(m).phase == "initiative":
        m.apply(m.legal_actions()[0].command())
    assert sum(1 for u in m.units() if st.activation(u).card_name) == 10
    m.close()
    # a posse size the data allowed beyond the deck: refused by the count of cards
    data = rules.data  # type: ignore[attr-defined]
    big = dataclasses.replace(data.factions["the_outlaws"], max_units=8)
    roomy = FrontierRuleset(dataclasses.replace(data, factions={**data.factions, "the_outlaws": big}))
    eight = ("gang_leader", *["outlaw"] * 7)
    seven = PosseSpec("side1", "the_outlaws", "C", tuple(UnitSpec(k) for k in eight[:7]))
    assert roomy.validate_posses([seven, outlaws(*eight)]) == [
        "15 units cannot all draw an initiative card from the deck of 14 (the suit of Spades and a red "
        "Joker): field 14 units or fewer in all"
    ]


def test_weapon_choices_are_one_of_the_options() -> None:
    """Rulebook: "Weapons Available: Revolver OR Rifle": one weapon, from the unit's list."""
    assert _problems(law(("sheriff", "rifle"))) == []
    assert any("cannot carry 'tomahawk'" in p for p in _problems(law(("sheriff", "tomahawk"))))
    two = PosseSpec("side1", "the_law", "x", (UnitSpec("sheriff", loadout=("revolver", "rifle")),))
    assert any("one weapon" in p for p in _problems(two))
    assert any("unknown posse" in p for p in _problems(PosseSpec("side1", "cowboys", "x", ())))


def test_a_posse_may_go_without_its_leader() -> None:
    """docs/RULES.md "Leaders": the rulebook never says a posse must field its leader."""
    assert _problems(law("deputy", "dog")) == []


def test_deployment_is_by_command_on_the_own_zone(tmp_path: Path) -> None:
    m = new_match(RANCH, law("sheriff", "deputy"), outlaws("gang_leader", "outlaw"))
    sheriff, leader = unit(m, "side1"), unit(m, "side2")
    zone1 = sorted(m.battlefield.deploy_zones["side1"])
    zone2 = sorted(m.battlefield.deploy_zones["side2"])
    assert m.validate(Command("deploy", actor=leader, hex=zone2[0])) == "it is side1's turn to deploy"
    assert m.validate(Command("deploy", actor=sheriff, hex=zone2[0])) is not None
    m.apply(Command("deploy", actor=sheriff, hex=zone1[0]))
    assert m.validate(Command("deploy", actor=unit(m, "side1", 1), hex=zone1[0])) == f"{zone1[0]} is taken"
    deploy(m)
    assert st.game_state(m).phase == "initiative"
    assert all(m.position(u) is not None for u in m.units())
    m.close()


def test_initiative_deck_is_14_cards() -> None:
    """Rulebook: "Initiative is decided by drawing from a deck of 14 cards, the whole suit of Spades (Ace
    through King) and a red Joker." "(Ace acts as a 1, King as 13)" """
    spec = frontier_14()
    deck = spec.cards()
    assert len(deck) == 14
    assert [spec.value_of(c.id) for c in deck if not c.is_joker] == list(range(1, 14))
    assert deck[0].name == "Ace of Spades" and deck[12].name == "King of Spades"
    assert sum(c.is_joker for c in deck) == 1


def _drawing(seed: int = 3) -> object:
    m = new_match(RANCH, law("sheriff", "deputy", "dog"), outlaws("gang_leader", "outlaw"), seed)
    deploy(m)
    return m


def test_smaller_posse_draws_first_then_players_alternate() -> None:
    """Rulebook: "The Player with the smaller Posse draws first. Players then take turns drawing for each
    Unit in their Posse, alternating with each draw." """
    m = new_match(RANCH, law("sheriff", "deputy", "dog"), outlaws("gang_leader", "outlaw"), 3)
    deploy(m)
    assert st.game_state(m).draw_order == ["side2", "side1", "side2", "side1", "side1"]
    assert {a.side for a in m.legal_actions()} == {"side2"}
    sheriff = unit(m, "side1")
    assert m.validate(Command("draw_card", actor=sheriff)) == "it is side2's turn to draw"
    m.apply(Command("draw_card", actor=unit(m, "side2")))
    assert m.validate(Command("draw_card", actor=unit(m, "side2", 1))) == "it is side1's turn to draw"
    m.close()


def _draw_all(m: object) -> list[CardDealt]:
    dealt = []
    while st.game_state(m).phase == "initiative":  # type: ignore[arg-type]
        action = m.legal_actions()[0]  # type: ignore[attr-defined]
        dealt += [e for e in m.apply(action.command()) if isinstance(e, CardDealt)]  # type: ignore[attr-defined]
    return dealt


def test_highest_card_acts_first() -> None:
    """Rulebook: "The numerical value of the card represents where that Unit takes its turn in initiative"
    and "The Unit with the highest initiative takes the first activation of the Action Phase." """
    for seed in range(12):
        m = new_match(RANCH, law("sheriff", "deputy", "dog"), outlaws("gang_leader", "outlaw"), seed)
        deploy(m)
        dealt = _draw_all(m)
        if any(d.joker for d in dealt):
            m.close()
            continue
        expected = [d.unit for d in sorted(dealt, key=lambda d: -d.value)]
        assert st.game_state(m).order == expected
        assert st.game_state(m).active == expected[0]
        m.close()


def test_joker_owner_chooses_the_place_after_all_cards_are_dealt() -> None:
    """Rulebook: "If a Player draws the Joker for a Unit, they may choose when that Unit acts initiative
    after all other Units have received their initiative cards." """
    for seed in range(200):
        m = new_match(
            RANCH, law("sheriff", "deputy", "hired_gun", "dog"), outlaws("gang_leader", "outlaw"), seed
        )
        deploy(m)
        dealt = _draw_all(m)
        joker = [d for d in dealt if d.joker]
        if not joker:
            m.close()
            continue
        game = st.game_state(m)
        assert game.phase == "joker" and len(dealt) == 6
        holder = joker[0].unit
        (choice,) = m.legal_actions()
        assert (choice.action, choice.actor, choice.choices) == ("place_joker", holder, tuple("123456"))
        other = next(u for u in m.units() if u != holder)
        assert m.validate(Command("place_joker", actor=other, option="1")) is not None
        assert m.validate(Command("place_joker", actor=holder, option="7")) is not None
        assert m.validate(Command("place_joker", actor=holder, option="first")) is not None
        events = m.apply(choice.command(option="3"))
        assert game.order[2] == holder
        others = [u for u in game.order if u != holder]
        assert others == sorted(others, key=lambda u: -(st.activation(u).card or 0))
        assert any(isinstance(e, ActivationStarted) for e in events)
        m.close()
        return
    pytest.fail("no seed dealt the Joker")


def test_deck_is_reshuffled_each_round_and_seriously_injured_units_draw_no_card() -> None:
    """docs/RULES.md "Initiative": a fresh deck each round; "A Unit that is seriously injured no longer
    takes turns in combat", so it gets no card."""
    m = new_match(RANCH, law("sheriff", "deputy"), outlaws("gang_leader", "outlaw"), 5)
    deploy(m)
    _draw_all(m)
    st.status(unit(m, "side1", 1)).seriously_injured = True  # set-up
    while st.game_state(m).round == 1:
        m.apply(Command("end_activation", actor=st.game_state(m).active))
    game = st.game_state(m)
    assert game.phase == "initiative" and len(game.deck) == 14
    assert len(game.draw_order) == 3
    m.close()
