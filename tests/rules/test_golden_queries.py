"""Golden Frontiers' answers to the AI's questions: an attack's odds at any hexes are its what-if odds."""

from __future__ import annotations

import random

import esper

from game.commands import Command
from game.engine.match import Match
from game.hexgrid import Hex
from game.rules.golden.components import Arms, Health, RoundState
from tests.bench import corpus


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
    rng = random.Random(11)
    compared = answered = 0
    for plain in corpus.positions("golden", games=1, every=8):
        for position in (plain, _spiced(plain, rng)):
            units = position.units()
            for me in units:
                weapons = [w.id for w in position.unit_facts(me).weapons] + ["no_such_weapon"]
                for them in units:
                    for weapon in weapons:
                        for action in ("attack", "load"):
                            shot = Command(action, actor=me, target=them, option=weapon)
                            ask = position.odds(shot)
                            here, there = position.position(me), position.position(them)
                            spots = [None, *(h for h in (here, there) if h is not None)]
                            spots += [
                                h + Hex(dq, dr)
                                for h in spots
                                if h is not None
                                for dq, dr in ((2, 0), (0, -5))
                            ]
                            for a in spots:
                                for b in spots:
                                    expected = position.what_if(shot, a, b)
                                    assert ask(a, b) == expected, (shot, a, b)
                                    compared += 1
                                    answered += expected is not None
    assert compared > 5000 and answered > 500
