"""The checks shared by the rulesets' tests of ``Match.odds`` (an attack's odds at any hexes answer as its
what-if odds do) and of ``Match.suppose`` (a command supposed in place answers as the command applied)."""

from __future__ import annotations

import random
from collections.abc import Callable

from game.commands import Command
from game.engine.match import Match
from game.hexgrid import Hex
from tests.bench import corpus


def same_as_what_if(position: Match, shot: Command, steps: tuple[tuple[int, int], ...]) -> tuple[int, int]:
    """Assert that ``position.odds(shot)`` answers as ``position.what_if(shot, ...)`` from and at every pair
    of these hexes: None (where the unit stands), where either unit stands, and those hexes moved by each
    of ``steps``. (How many answers were compared, how many of them were odds rather than None.)"""
    ask = position.odds(shot)
    here, there = position.position(shot.actor), position.position(shot.target or 0)
    spots = [None, *(h for h in (here, there) if h is not None)]
    spots += [h + Hex(dq, dr) for h in spots if h is not None for dq, dr in steps]
    compared = answered = 0
    for a in spots:
        for b in spots:
            expected = position.what_if(shot, a, b)
            assert ask(a, b) == expected, (shot, a, b)
            compared += 1
            answered += expected is not None
    return compared, answered


def same_across_corpus(
    ruleset: str,
    spiced: Callable[[Match, random.Random], Match],
    attacks: Callable[[Match, int], list[tuple[str, str]]],
    seed: int,
) -> tuple[int, int]:
    """:func:`same_as_what_if` for every attack ``attacks(position, unit)`` lists (action, option) of every
    unit on every unit, in corpus positions of ``ruleset`` and in a copy of each changed by ``spiced``
    (with its own RNG, from ``seed``), from and at hexes 2 and 5 steps away too."""
    rng = random.Random(seed)
    compared = answered = 0
    for plain in corpus.positions(ruleset, games=1, every=8):
        for position in (plain, spiced(plain, rng)):
            units = position.units()
            for me in units:
                for action, option in attacks(position, me):
                    for them in units:
                        shot = Command(action, actor=me, target=them, option=option)
                        done = same_as_what_if(position, shot, ((2, 0), (0, -5)))
                        compared, answered = compared + done[0], answered + done[1]
    return compared, answered


def same_as_applied(position: Match, command: Command, check: Callable[[Match, Match, int], None]) -> None:
    """Suppose ``command`` in place on ``position`` and run ``check(position, real, actor)``, ``real`` a copy
    with the command really applied; then assert that, put back, ``position`` is as it was (key, digest)."""
    key, digest = position.key(), position.digest()
    real = position.clone()
    real.apply(command)
    undo = position.suppose(command)
    assert undo is not None, command
    try:
        check(position, real, command.actor)
    finally:
        undo()
    assert position.key() == key and position.digest() == digest
