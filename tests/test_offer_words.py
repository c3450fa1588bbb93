"""``Match.offer_words``: the label and cost of every action a unit may be offered on its turn, as the
ruleset offers them then (the battle screen fits its action bar over every unit's when the battle opens,
issue 13)."""

from __future__ import annotations

import re

import pytest

from game.ui.demo import demo_command, demo_match


@pytest.mark.parametrize("ruleset", ["frontier", "rift", "golden"])
def test_every_unit_has_words_before_the_battle_starts(ruleset: str) -> None:
    match = demo_match(ruleset, seed=11)
    for unit in match.units(in_play=False):
        words = match.offer_words(unit)
        assert words and all(label and cost >= 0 for label, cost in words), (unit, words)
        assert "End Turn" not in [label for label, _cost in words]


@pytest.mark.parametrize("ruleset", ["frontier", "rift"])
def test_a_units_turn_offers_the_words_foreseen_for_it(ruleset: str) -> None:
    match = demo_match(ruleset, seed=11)
    foreseen = {u: match.offer_words(u) for u in match.units(in_play=False)}
    turns = 0
    for _ in range(300):
        if match.outcome() is not None:
            break
        legal = match.legal_actions()
        actors = {a.actor for a in legal}
        ends = [a for a in legal if a.ends_turn]
        if len(actors) == 1 and ends and match.prompt() is None:  # an ordinary turn: it can be ended
            (unit,) = actors
            offered = [(a.label, a.cost) for a in legal if not a.ends_turn]
            turns += 1
            if ruleset == "rift":  # its labels and costs do not depend on the state (items in reach aside)
                assert offered == foreseen[unit], (unit, offered, foreseen[unit])
            # in Frontier actions whose options are found around the unit (Take Item, Charge) come and
            # go: every foreseen action is offered, in the same words but for their numbers
            assert {_shape(w) for w in foreseen[unit]} <= {_shape(w) for w in offered}, unit
        match.apply(demo_command(match))
    assert turns >= 5


def _shape(words: tuple[str, int]) -> str:
    return re.sub(r"\d+", "#", words[0])
