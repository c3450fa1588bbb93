"""Hypothesis properties of Golden Frontiers: an illegal command is refused with a reason and leaves the
digest unchanged; validate, legal actions and previews are pure; every game ends; the graze-point track
equals the rulebook's graze / wound / crippling bookkeeping for any sequence of damage cards; the deck's
order is hidden from the players but its composition is not."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from game.commands import Command
from game.engine.match import IllegalCommandError, Match
from game.hexgrid import Hex
from game.rules import LegalAction, get_ruleset
from game.rules.golden.components import Health
from game.rules.golden.context import game_of
from game.rules.golden.rules import apply_damage, cripple_points, graze_points
from tests.engine.rulebooks import Quotes
from tests.rules.golden_kit import char

Q = Quotes()
GRAZES = Q(
    "golden",
    "If a character has two grazes and would receive a third they instead receive a wound. The two grazes "
    "the character had are removed, resetting the character to zero grazes.",
)
AT_MAX = Q(
    "golden",
    "If a character is at his maximum amount of wounds and would receive another wound they instead receive "
    "a crippling wound.",
)
RANCH = Path(__file__).resolve().parents[2] / "maps" / "ranch_duel.tmx"
ACTIONS = [
    "move",
    "attack",
    "load",
    "execute",
    "bide",
    "wait_round",
    "end",
    "deploy",
    "act_now",
    "keep_biding",
    "fly",
]


def test_every_quote_is_word_for_word_in_its_rulebook() -> None:
    Q.check()


def new_match(seed: int) -> Match:
    from game.rules import PosseSpec, UnitSpec

    law = PosseSpec(
        "side1",
        "lawmen",
        "Law",
        (
            char("Rusty", 8, 4, 8, 4),
            char("Doc", 6, 4, 6, 8, items=("shotgun", "revolver", "hat")),
            UnitSpec("gunhand"),
            UnitSpec("gunhand"),
        ),
    )
    gang = PosseSpec(
        "side2",
        "outlaws",
        "Gang",
        (char("Bart", 6, 4, 8, 6, items=("rifle", "hat")), UnitSpec("bruiser"), UnitSpec("gunhand")),
    )
    return Match.create(RANCH, get_ruleset("golden"), [law, gang], seed)


def legal_command(match: Match, action: LegalAction, rng: random.Random) -> Command:
    commands = list(action.expand())
    # prefer fighting: it makes the streams end sooner and reach the damage rules
    fights = [c for c in commands if c.action in ("attack", "execute")]
    return rng.choice(fights or commands)


@hs.composite
def noise(draw: hs.DrawFn, match: Match) -> Command:
    """A command that is often illegal: any action, actor, target, hex, path, option and number."""
    units = match.units(in_play=False)
    h = Hex(draw(hs.integers(-5, 30)), draw(hs.integers(-2, 20)))
    return Command(
        draw(hs.sampled_from(ACTIONS)),
        actor=draw(hs.sampled_from([*units, 0, 999])),
        side=draw(hs.sampled_from(["", "side1", "side2", "side9"])),
        target=draw(hs.sampled_from([None, *units, 12345])),
        targets=tuple(draw(hs.lists(hs.sampled_from(units), max_size=2))),
        hex=draw(hs.sampled_from([None, h])),
        path=(h, h + Hex(1, 0)) if draw(hs.booleans()) else (),
        option=draw(hs.sampled_from(["", "revolver", "rifle", "knife", "cannon", "1"])),
        number=draw(hs.sampled_from([None, 0, 3])),
    )


def invariants(match: Match) -> None:
    match.enter()
    seen: set[Hex] = set()
    for u in match.units():
        h = match.position(u)
        if h is not None:
            assert h not in seen, "two units share a hex"
            seen.add(h)
            assert match.battlefield.is_passable(h)
    _game, deck = game_of(match)
    assert len(deck.all_cards()) == 54 and len(set(deck.all_cards())) == 54  # no card lost or doubled


@pytest.mark.slow
@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(data=hs.data(), seed=hs.integers(0, 10_000), noise_every=hs.integers(2, 6))
def test_random_streams_refuse_illegal_commands_and_every_game_ends(
    data: hs.DataObject, seed: int, noise_every: int
) -> None:
    match = new_match(seed)
    rng = random.Random(seed)
    try:
        steps = 0
        while not match.is_over:
            steps += 1
            assert steps < 5000, "the game did not end"
            if steps % noise_every == 0 and steps < 300:
                cmd = data.draw(noise(match))
                before = match.digest()
                reason = match.validate(cmd)
                if reason is not None:
                    assert isinstance(reason, str) and reason
                    with pytest.raises(IllegalCommandError):
                        match.apply(cmd)
                    assert match.digest() == before
                    continue
                match.apply(cmd)
            else:
                enabled = [a for a in match.legal_actions() if a.enabled]
                assert enabled, "nothing can be done, yet the game is not over"
                cmd = legal_command(match, rng.choice(enabled), rng)
                assert match.validate(cmd) is None, (cmd, match.validate(cmd))
                match.apply(cmd)
            invariants(match)
        assert match.outcome() is not None and match.legal_actions() == []
    finally:
        match.close()


@settings(max_examples=20, deadline=None)
@given(data=hs.data(), seed=hs.integers(0, 10_000), steps=hs.integers(0, 80))
def test_validate_legal_actions_and_previews_are_pure(data: hs.DataObject, seed: int, steps: int) -> None:
    match = new_match(seed)
    rng = random.Random(seed)
    try:
        for _ in range(steps):
            if match.is_over:
                break
            enabled = [a for a in match.legal_actions() if a.enabled]
            match.apply(legal_command(match, rng.choice(enabled), rng))
        before = match.digest()
        for _ in range(6):
            cmd = data.draw(noise(match))
            match.validate(cmd)
            match.preview(cmd)
        for action in match.legal_actions():
            for cmd in list(action.expand())[:5]:
                match.preview(cmd)
        match.tracker()
        match.tracker_note()
        assert match.digest() == before
    finally:
        match.close()


RESULTS = hs.sampled_from(["graze", "wound", "two_wounds", "crippling"])


@given(hs.integers(2, 5), hs.lists(RESULTS, max_size=40))
def test_the_graze_point_track_equals_the_books_bookkeeping(max_wounds: int, cards: list[str]) -> None:
    """The book's way (grazes, wounds, a crippling wound) and the track's way (a graze 1 point, a wound 3,
    crippled at 3 * (Max Wounds + 1); a crippling card goes straight there) agree after every card."""
    assert GRAZES and AT_MAX
    health = Health(max_wounds)
    points = 0
    end = cripple_points(max_wounds)
    for card in cards:
        apply_damage(health, card)
        if points < end:
            step = {"graze": 1, "wound": 3, "two_wounds": 6, "crippling": end}[card]
            points = min(end, points + step)
        assert graze_points(health) == points
        assert health.crippled == (points >= end)
        if not health.crippled:
            assert (health.grazes, health.wounds) == (points % 3, points // 3)
            assert health.grazes <= 2 and health.wounds <= max_wounds


@settings(max_examples=10, deadline=None)
@given(seed=hs.integers(0, 10_000), steps=hs.integers(2, 40))
def test_the_deck_order_is_hidden_but_its_composition_public(seed: int, steps: int) -> None:
    match = new_match(seed)
    rng = random.Random(seed)
    try:
        for _ in range(steps):
            if match.is_over:
                break
            enabled = [a for a in match.legal_actions() if a.enabled]
            match.apply(legal_command(match, rng.choice(enabled), rng))
        _, deck = game_of(match)
        pile = list(deck.pile)
        public = json.dumps(match.view("side1").state())
        assert json.dumps(sorted(pile)) in public  # the composition is public
        if pile != sorted(pile):
            assert json.dumps(pile) not in public  # the order is not
        assert json.dumps(pile) in json.dumps(match.state())  # ... but it is the state (digest, saves)
        copy = match.clone(reseed=seed + 1)
        try:
            _, other = game_of(copy)
            assert other.remaining_counts() == deck.remaining_counts()
            assert match.view("side1").key() == copy.view("side1").key()
        finally:
            copy.close()
    finally:
        match.close()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 10_000), steps=hs.integers(0, 120))
def test_odds_kept_per_deck_composition_equal_odds_worked_out_afresh(seed: int, steps: int) -> None:
    """The odds an attack reads of the deck are kept per deck composition (an AI asks the same attack
    from many places): after any game, every attack's odds from every place are the ones worked out with
    nothing kept, and a draw from the deck (a new composition) is never answered from the old one."""
    from game.rules.golden import queries, rules

    def fresh() -> None:
        queries._ODDS.clear()
        rules._DECK_ODDS.clear()
        rules._tie_damage.cache_clear()

    match = new_match(seed)
    rng = random.Random(seed)
    try:
        for _ in range(steps):
            if match.is_over:
                break
            enabled = [a for a in match.legal_actions() if a.enabled]
            match.apply(legal_command(match, rng.choice(enabled), rng))
            attacks = [a for a in match.legal_actions() if a.enabled and a.action == "attack"]
            asked = [c for a in attacks for c in list(a.expand())[:3]]
            kept = [match.preview(c) for c in asked]  # asked twice: the second from what was kept
            again = [match.preview(c) for c in asked]
            fresh()
            assert [match.preview(c) for c in asked] == kept == again
    finally:
        match.close()
