"""The soak (``tests/soak.py``; ``make soak`` plays 10,000 games): a seeded 50-game subset, and the soak's
own machinery -- its random player draws only commands the legal actions allow, and a broken invariant,
an exception or a hang is reported with a repro instead of passing."""

from __future__ import annotations

import random
import time
from itertools import islice
from pathlib import Path

import esper
import pytest

from game.components import Position
from game.engine.match import Match
from tests import soak

SUBSET = 50


def test_a_seeded_subset_of_the_soak_passes(tmp_path: Path) -> None:
    summary = soak.run(seed=11, games=SUBSET, workers=2, work=tmp_path, start=50)  # game 99: an AI game
    assert summary.games == SUBSET
    assert not summary.failures, "\n".join(
        f"{r.failure}\n{g.repro()}\n{r.detail}" for g, r in summary.failures
    )
    # every installed ruleset on every shipped map that suits it, and at least one AI game
    assert set(summary.by_pair) == {f"{r} {m.stem}" for r, m in soak.pairs()}
    assert len(soak.pairs()) >= 6
    assert any("ai:" in k for k in summary.by_controllers)
    assert summary.commands > SUBSET * 50


def test_games_are_fixed_by_the_seed_and_the_number() -> None:
    assert soak.Game.of(3, 17) == soak.Game.of(3, 17)
    assert soak.Game.of(3, 17) != soak.Game.of(4, 17)
    repro = soak.Game.of(3, 17).repro()
    assert "--seed 3 --game 17" in repro and soak.Game.of(3, 17).map_path.name in repro


def _match(number: int) -> Match:
    game = soak.Game.of(5, number)
    match = game.new_match()
    rng = random.Random(number)
    player = soak.SoakPlayer()
    for _ in range(40 + number * 7):
        if match.is_over:
            break
        match.apply(player.choose(match.legal_actions(), rng))
    return match


@pytest.mark.parametrize("number", range(6))  # each (ruleset, map) pair once
def test_the_soak_player_draws_only_commands_the_legal_actions_allow(number: int) -> None:
    match = _match(number)
    rng = random.Random(number)
    try:
        for action in (a for a in match.legal_actions() if a.enabled):
            allowed = list(islice(action.expand(), 5000))
            for _ in range(20):
                cmd = soak.sample(action, rng)
                if cmd is None:
                    assert not allowed
                    break
                assert match.validate(cmd) is None, (cmd, match.validate(cmd))
                if action.needs != "path" and len(allowed) < 5000:
                    assert cmd in allowed
    finally:
        match.close()


def test_a_unit_on_an_impassable_hex_or_two_on_one_hex_breaks_the_checks() -> None:
    match = _match(2)  # Frontier: one unit per hex
    try:
        ap = soak._ap_reader("frontier")
        soak.check(match, False, ap, "here")  # the game as played is fine
        match.enter()
        placed = [(u, match.position(u)) for u in match.units() if match.position(u) is not None]
        (first, _), (_, there) = placed[0], placed[1]
        esper.component_for_entity(first, Position).hex = there
        with pytest.raises(soak.InvariantError, match="two units share the hex"):
            soak.check(match, False, ap, "here")
        soak.check(match, True, ap, "here")  # where the rules let units share a hex
        field_ = match.battlefield
        wall = next(h for h in field_.hexes_within(there, 40) if not field_.is_passable(h))
        esper.component_for_entity(first, Position).hex = wall
        with pytest.raises(soak.InvariantError, match="impassable"):
            soak.check(match, True, ap, "here")
    finally:
        match.close()


def test_a_rule_that_raises_is_a_failure_with_a_repro(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = soak.Game.of(1, 0)
    calls = [0]
    original = Match.apply

    def flaky(self: Match, cmd: object) -> object:
        calls[0] += 1
        if calls[0] == 30:
            raise KeyError("a rule broke")
        return original(self, cmd)  # type: ignore[arg-type]

    monkeypatch.setattr(Match, "apply", flaky)
    result = soak.play(game, tmp_path / "work")
    assert result.failure.startswith("failed at command 30: KeyError")
    assert "a rule broke" in result.detail
    assert result.kept and Path(result.kept).exists()


def test_a_game_that_runs_too_long_is_a_hang(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(soak, "GAME_SECONDS", 0.2)
    original = Match.apply

    def slow(self: Match, cmd: object) -> object:
        busy = time.process_time() + 0.05  # CPU time: the soak's hang limit counts CPU, not the clock
        while time.process_time() < busy:
            pass
        return original(self, cmd)  # type: ignore[arg-type]

    monkeypatch.setattr(Match, "apply", slow)
    result = soak.play(soak.Game.of(1, 0), tmp_path / "work")
    assert result.failure.startswith("hung at command"), result.failure
