"""What the battle screen shows of Golden Frontiers: every status quotes the rulebook word for word, the
unit panel's numbers, the tracker's cards with their suits, the deck note and the Biding Time prompt."""

from __future__ import annotations

from pathlib import Path

from game.rules.golden.data import default_data
from game.rules.golden.views import STATUS_RULES, rules_summary
from tests.engine.rulebooks import Quotes
from tests.rules.golden_kit import at, char, cmd, deploy, end, health, new_match

Q = Quotes()
for _name, rule, _badge, _helps in STATUS_RULES.values():
    Q("golden", rule)


def test_every_status_quote_is_in_the_rulebook() -> None:
    Q.check()


def test_the_unit_panel(tmp_path: Path) -> None:
    match = new_match(tmp_path, (char("Rusty", 8, 4, 8, 4, items=("revolver", "hat")),), (char("Clem"),))
    deploy(match, {1: at(3), 2: at(6)}, cards=("KS", "10H"))
    health(match, 1).grazes = 2
    health(match, 1).wounds = 1
    view = match.unit_view(1)
    stats = dict(view.stats)
    assert stats["Survival"] == "d8+1" and stats["Intuition"] == "d4" and stats["Card"] == "K\u2660"
    assert stats["Wounds"] == "1/3" and stats["Grazes"] == "2/2"
    assert view.health == (12 - 5, 12) and view.health_name == "Graze points"
    assert view.weapons == ("Revolver: 1d8 to 12 hexes, 6/6 loaded",)
    assert view.items == ("Hat",)
    assert {s.key for s in view.statuses} == {"grazed", "wounded"}
    health(match, 2).crippled = True
    assert match.unit_view(2).out == "crippled"


def test_the_tracker_shows_cards_with_suits_and_the_deck(tmp_path: Path) -> None:
    match = new_match(tmp_path, (char("Rusty"),), (char("Clem"), char("Bart")))
    deploy(match, cards=("QD", "BJ", "2C"))
    entries = match.tracker()
    assert [(e.unit, e.label, e.card, e.active) for e in entries] == [
        (2, "Black Joker", True, True),
        (1, "Q\u2666", True, False),
        (3, "2\u2663", True, False),
    ]
    assert (
        match.tracker_note()
        == "Deck: 51 of 54 cards left \u00b7 joker drawn: reshuffle at the end of the round"
    )


def test_biding_time_is_a_prompt_with_two_clear_choices(tmp_path: Path) -> None:
    match = new_match(tmp_path, (char("Rusty"),), (char("Clem"), char("Bart")))
    deploy(match, cards=("AS", "KS", "QS"))
    match.apply(cmd("bide", 1))
    assert match.tracker()[0].label == "A\u2660 \u00b7 biding"
    end(match)
    prompt = match.prompt()
    assert prompt is not None and prompt.title == "Biding Time" and prompt.about == (1,)
    labels = [(a.action, a.label) for a in match.legal_actions()]
    assert labels == [("act_now", "Rusty acts now"), ("keep_biding", "Keep biding time")]


def test_the_rules_summary_fits_the_help_page_and_says_the_own_numbers() -> None:
    data = default_data()
    text = rules_summary(data)
    lines = text.strip().splitlines()
    assert len(lines) <= 20 and all(len(line) <= 80 for line in lines)
    enc = data.encounter
    assert f"Move {enc.move_with_action} hexes" in text and f"Run up to {enc.move}" in text
    assert f"after round {enc.max_rounds}".lower() in text.lower()
