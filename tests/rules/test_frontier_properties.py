"""Hypothesis properties over random command streams, legal and illegal.

An illegal command is rejected with a reason and leaves ``digest()`` unchanged; AP never negative; no two
units share a hex; no unit stands on an impassable hex; every game ends.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from game.commands import Command
from game.engine.match import IllegalCommandError, Match
from game.hexgrid import Hex, hex_distance
from game.rules import LegalAction
from game.rules.frontier import ACTIONS
from game.rules.frontier import state as st
from tests.rules.frontier_kit import RANCH, law, new_match, outlaws

ALL_ACTIONS = [*ACTIONS, "deploy", "draw_card", "place_joker", "fly"]


def _legal_command(match: Match, action: LegalAction, rng: random.Random) -> Command:
    """A command for an enabled legal action, picks chosen with a test-owned ``random.Random``."""
    target = rng.choice(action.targets) if action.targets else None
    option = rng.choice(action.choices) if action.choices else ""
    if action.needs == "targets":
        picks = rng.randint(1, min(action.max_picks, len(action.targets)))
        return action.command(targets=tuple(rng.sample(action.targets, picks)))
    if action.needs == "hex":
        return action.command(hex=rng.choice(action.hexes))
    if action.needs == "path":
        here = match.position(action.actor)
        assert here is not None
        end = rng.choice(action.hexes)
        path = match.battlefield.path(here, end, st.blocked_hexes(match, action.actor))
        assert path is not None
        if action.action == "charge":  # the LegalAction contract: a charge's target is one of its targets
            target = (
                min(action.targets, key=lambda t: (hex_distance(match.position(t) or end, end), t))
                if action.targets
                else None
            )
        return action.command(path=tuple(path), target=target)
    return action.command(target=target, option=option)


@hs.composite
def _noise(draw: hs.DrawFn, match: Match) -> Command:
    """A command that is often illegal: any action, any actor, odd targets, hexes and paths."""
    units = match.units(in_play=False)
    actor = draw(hs.sampled_from([*units, 0, 999]))
    h = Hex(draw(hs.integers(-12, 30)), draw(hs.integers(-2, 18)))
    return Command(
        draw(hs.sampled_from(ALL_ACTIONS)),
        actor=actor,
        target=draw(hs.sampled_from([None, *units, 12345])),
        targets=tuple(draw(hs.lists(hs.sampled_from(units), max_size=3))),
        hex=draw(hs.sampled_from([None, h])),
        path=(h, h + Hex(1, 0)) if draw(hs.booleans()) else (),
        option=draw(hs.sampled_from(["", "Smelling Salts", "revolver"])),
        number=draw(hs.sampled_from([None, 0, 1, 3, 99])),
    )


def _invariants(match: Match) -> None:
    match.enter()
    seen: set[Hex] = set()
    for u in match.units():
        assert st.ap(u).current >= 0
        h = match.position(u)
        if h is None:
            continue
        assert h not in seen, "two units share a hex"
        seen.add(h)
        assert match.battlefield.is_passable(h), "a unit stands on an impassable hex"


@pytest.mark.slow
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large],
)
@given(data=hs.data(), seed=hs.integers(0, 10_000), noise_every=hs.integers(2, 8))
def test_random_command_streams_keep_the_invariants_and_the_game_ends(
    data: hs.DataObject, seed: int, noise_every: int
) -> None:
    match = new_match(RANCH, law("sheriff", "deputy", "dog"), outlaws("gang_leader", "outlaw", "dog"), seed)
    rng = random.Random(seed)
    try:
        steps = 0
        while not match.is_over:
            steps += 1
            assert steps < 3000, "the game did not end"
            if steps % noise_every == 0 and steps < 400:
                noise = data.draw(_noise(match))
                before = match.digest()
                reason = match.validate(noise)
                if reason is not None:
                    assert isinstance(reason, str) and reason
                    with pytest.raises(IllegalCommandError):
                        match.apply(noise)
                    assert match.digest() == before
                    continue
                match.apply(noise)
            else:
                enabled = [a for a in match.legal_actions() if a.enabled]
                assert enabled, "nothing can be done, yet the game is not over"
                action = rng.choice(enabled)
                cmd = _legal_command(match, action, rng)
                assert match.validate(cmd) is None, (action.action, match.validate(cmd))
                match.apply(cmd)
            _invariants(match)
        assert match.outcome() is not None
        assert match.legal_actions() == []
    finally:
        match.close()


@settings(max_examples=25, deadline=None)
@given(data=hs.data(), seed=hs.integers(0, 10_000), steps=hs.integers(0, 60))
def test_validate_and_legal_actions_and_preview_are_pure(data: hs.DataObject, seed: int, steps: int) -> None:
    match = new_match(RANCH, law("sheriff", "deputy"), outlaws("gang_leader", "outlaw"), seed)
    rng = random.Random(seed)
    try:
        for _ in range(steps):
            if match.is_over:
                break
            enabled = [a for a in match.legal_actions() if a.enabled]
            action = rng.choice(enabled)
            cmd = _legal_command(match, action, rng)
            if match.validate(cmd) is None:
                match.apply(cmd)
        before = match.digest()
        for _ in range(5):
            noise = data.draw(_noise(match))
            match.validate(noise)
            match.preview(noise)
        match.legal_actions()
        assert match.digest() == before
    finally:
        match.close()


def test_a_command_checked_against_the_actions_just_listed_gets_the_same_answer() -> None:
    """``Match.apply(cmd, legal=...)`` (the game loop hands over the list it just made): every answer of
    ``validate`` with the listed actions is its answer without them, for offered commands and for refused
    ones (another option, a hex off the path tree, a unit out of sight, a unit not on its turn)."""
    from tests.bench import corpus

    checked = refused = 0
    for position in corpus.positions("frontier", games=1, every=2):
        legal = position.legal_actions()
        commands: list[Command] = []
        for action in legal:
            commands.extend(itertools.islice(action.expand(), 6))
            commands.append(action.command(option="nonsense"))
            commands.append(Command(action.action, actor=action.actor, target=action.actor, hex=Hex(99, 99)))
        commands += [Command("shoot", actor=u, target=v) for u in position.units() for v in position.units()]
        for cmd in commands:
            expected = position.validate(cmd)
            assert position.validate(cmd, legal=legal) == expected, cmd
            checked += 1
            refused += expected is not None
    assert checked > 500 and refused > 100
