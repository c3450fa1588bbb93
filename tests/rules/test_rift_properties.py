"""Hypothesis properties over random command streams: an illegal command is rejected with a reason and
leaves the digest unchanged; AP never negative; at most one attack per turn; every multiplier within
1/4 to 4x; resolve never below 0; no unit on an impassable hex; every game ends; saves replay."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as hs

from game.commands import Command
from game.engine.match import IllegalCommandError, Match
from game.hexgrid import Hex
from game.rules.rift import StressDealt
from game.rules.rift import state as st
from game.save import load_match, save_match
from tests.rules.rift_kit import (
    RANCH,
    TOWN,
    aggressive_command,
    command_for,
    new_match,
    outlaws,
    rifter,
    rifters,
)

ACTIONS = [
    "fire",
    "explosive",
    "move",
    "crouch",
    "flee",
    "hold_fire",
    "interact",
    "pick_up",
    "hand_off",
    "use_item",
    "end_turn",
    "assign",
    "pass",
    "nudge",
    "duck",
    "dodge_roll",
    "sprint",
    "deploy",
    "shout_order",
    "fly",
]


def _posses() -> tuple:  # type: ignore[type-arg]
    return (
        rifters(
            "side1",
            rifter("deliberate", level=7),
            rifter("bold", "B", 7, second="resolute", level7="walking_fortress"),
            rifter("calculated", "C", 7),
            rifter("cunning", "K", 7, talents=("animal_friend", "quick_draw")),
            rifter("daring", "D", 7, second="cunning"),
        ),
        outlaws("side2", "outlaw_goon", "outlaw_goon", "sharpshooter", "dynamiter", "gang_boss"),
    )


@hs.composite
def _noise(draw: hs.DrawFn, match: Match) -> Command:
    units = match.units(in_play=False)
    h = Hex(draw(hs.integers(-12, 30)), draw(hs.integers(-2, 18)))
    return Command(
        draw(hs.sampled_from(ACTIONS)),
        actor=draw(hs.sampled_from([*units, 0, 999])),
        target=draw(hs.sampled_from([None, *units, 12345])),
        targets=tuple(draw(hs.lists(hs.sampled_from(units), max_size=3))),
        hex=draw(hs.sampled_from([None, h])),
        path=(h, h + Hex(1, 0)) if draw(hs.booleans()) else (),
        option=draw(hs.sampled_from(["", "mdtc_model_4_pistol", "haymaker", "nope"])),
    )


def _check_events(match: Match, events: list) -> None:  # type: ignore[type-arg]
    for e in events:
        if isinstance(e, StressDealt) and not e.prevented:
            product = Fraction(1)
            for _, f in e.factors:
                product *= f
            clamped = min(Fraction(4), max(Fraction(1, 4), product))
            assert e.amount == max(1, int(e.value * clamped)) or e.value == 0
            assert e.value // 4 <= e.amount <= e.value * 4 or e.value == 0


@pytest.mark.slow
@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
)
@given(data=hs.data(), seed=hs.integers(0, 10_000), noise_every=hs.integers(2, 8))
def test_random_command_streams_keep_the_invariants_and_the_game_ends(
    data: hs.DataObject, seed: int, noise_every: int
) -> None:
    side1, side2 = _posses()
    match = new_match(side1, side2, seed, TOWN if seed % 2 else RANCH)
    rng = random.Random(seed)
    try:
        steps = 0
        attacks: dict[int, int] = {}
        while not match.is_over:
            steps += 1
            assert steps < 4000, "the game did not end"
            if steps % noise_every == 0 and steps < 300:
                noise = data.draw(_noise(match))
                before = match.digest()
                reason = match.validate(noise)
                if reason is not None:
                    assert isinstance(reason, str) and reason
                    with pytest.raises(IllegalCommandError):
                        match.apply(noise)
                    assert match.digest() == before
                    continue
                events = match.apply(noise)
            else:
                enabled = [a for a in match.legal_actions() if a.enabled]
                assert enabled, "nothing can be done, yet the game is not over"
                cmd = command_for(match, rng.choice(enabled), rng)
                assert match.validate(cmd) is None, (cmd, match.validate(cmd))
                turn = st.game_state(match).turn_number
                events = match.apply(cmd)
                if cmd.action in (
                    "fire",
                    "explosive",
                    "hold_fire",
                    "run_and_gun",
                    "scary_yelling",
                    "covering_fire",
                    "haymaker",
                ):
                    attacks[turn] = attacks.get(turn, 0) + 1
                    assert attacks[turn] == 1, "two attacks in one turn"
            _check_events(match, events)
            match.enter()
            for u in match.units():
                assert st.ap(u).current >= 0
                assert st.resolve(u).current >= 0
                h = match.position(u)
                if h is not None:
                    assert match.battlefield.is_passable(h)
        assert match.legal_actions() == []
    finally:
        match.close()


def test_a_mid_encounter_save_replays_to_the_same_digest(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    side1, side2 = _posses()
    match = new_match(side1, side2, 7, RANCH)
    rng = random.Random(7)
    for _ in range(80):
        if match.is_over:
            break
        enabled = [a for a in match.legal_actions() if a.enabled]
        match.apply(command_for(match, rng.choice(enabled), rng))
    path = tmp_path / "rift.json"
    save_match(match, path)
    loaded, _ = load_match(path)
    assert loaded.digest() == match.digest()
    loaded.close()
    match.close()


def test_validate_accepts_every_command_an_offered_action_expands_to() -> None:
    """The LegalAction contract, exactly: each command ``expand()`` yields for an enabled action (a path
    action: the rules' canonical path to each end) validates, and one field more than the action reads
    is refused. Over random play with every attitude at level 7, reactions and hit assignments included."""
    side1, side2 = _posses()
    match = new_match(side1, side2, 11, TOWN)
    rng = random.Random(11)
    checked = set()
    try:
        for _ in range(500):
            if match.is_over:
                break
            enabled = [a for a in match.legal_actions() if a.enabled]
            for action in enabled:
                commands = list(action.expand())
                assert commands, action
                for cmd in rng.sample(commands, min(6, len(commands))):
                    assert match.validate(cmd) is None, (cmd, match.validate(cmd))
                    checked.add(action.action)
                    if action.needs in ("", "hex", "assign"):
                        assert match.validate(replace(cmd, target=cmd.actor)) is not None
                if action.needs == "path":
                    end = action.hexes[-1]
                    path = action.path_to(end)
                    assert path is not None and path[0] == match.position(action.actor) and path[-1] == end
            play = [a for a in enabled if a.action != "flee"] or enabled
            cmd = (
                aggressive_command(match) if rng.random() < 0.5 else command_for(match, rng.choice(play), rng)
            )
            match.apply(cmd)
    finally:
        match.close()
    expected = {"deploy", "move", "fire", "assign", "pass", "end_turn", "sprint", "run_and_gun", "explosive"}
    assert expected | {"nudge", "dodge_roll", "reposition", "tactical_reposition"} <= checked, checked
