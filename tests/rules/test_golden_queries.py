"""Golden Frontiers' answers to the AI's questions: an attack's odds at any hexes are its what-if odds."""

from __future__ import annotations

import random

import esper

from game.engine.match import Match
from game.rules.golden.components import Arms, Health, RoundState
from tests.rules.odds_kit import same_across_corpus


def _spiced(position: Match, rng: random.Random) -> Match:
    """A copy of ``position`` with what the odds read changed at random: how far units moved, their
    action taken, guns emptied, grazes, wounds and a crippling wound."""
    m = position.clone()
    m.world.enter()
    for u in m.units():
        turn = esper.component_for_entity(u, RoundState)
        turn.moved = rng.choice((0, 0, 1, 3))
        turn.acted = rng.random() < 0.3
        turn.free_load = rng.random() < 0.3
        arms = esper.component_for_entity(u, Arms)
        arms.loaded = [0 if rng.random() < 0.3 else n for n in arms.loaded]
        health = esper.component_for_entity(u, Health)
        if rng.random() < 0.3:
            health.grazes = rng.randrange(3)
            health.wounds = rng.randrange(health.max_wounds + 1)
        health.crippled = rng.random() < 0.1
    return m


def test_an_attacks_odds_at_any_hexes_are_its_what_if_odds() -> None:
    """``Match.odds`` (the units read once for every hex the AI asks at) answers as ``what_if`` does: the
    same odds, or None, from and at hexes around the units, for every pair of units and every weapon they
    carry (illegal attacks too), in corpus positions and in copies of them with moves, loads and health
    changed at random."""
    compared, answered = same_across_corpus("golden", _spiced, _attacks, seed=11)
    assert compared > 5000 and answered > 500


def _attacks(position: Match, unit: int) -> list[tuple[str, str]]:
    """Every weapon the unit carries and one it does not, to attack with and (not an attack) to load."""
    weapons = [w.id for w in position.unit_facts(unit).weapons] + ["no_such_weapon"]
    return [(action, w) for w in weapons for action in ("attack", "load")]
