"""``LegalAction.expand`` and ``validate`` agree: every command expand yields is legal, and a command
validate accepts is one expand yields (a path: one of the same walk's end, target and option — any
legal walk to an offered end is accepted, expand sends the canonical one)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from game.commands import Command
from game.engine.match import Match
from game.hexgrid import Hex
from tests.bench import corpus

PORTED = ("frontier", "rift", "golden")


def _key(cmd: Command) -> tuple[object, ...]:
    """A command up to its route: a path counts by where it ends."""
    end = cmd.path[-1] if cmd.path else None
    return (cmd.action, cmd.actor, cmd.side, cmd.target, cmd.targets, cmd.hex, end, cmd.option, cmd.number)


def _positions(ruleset: str) -> list[Match]:
    return list(corpus.positions(ruleset, games=1, every=4))


@pytest.mark.parametrize("ruleset", PORTED)
def test_every_expanded_command_is_legal(ruleset: str) -> None:
    checked = 0
    for position in _positions(ruleset):
        for action in position.legal_actions():
            for cmd in action.expand():
                assert position.validate(cmd) is None, (cmd, position.validate(cmd))
                checked += 1
            if not action.enabled:
                assert list(action.expand()) == []
    assert checked > 1000


@pytest.mark.parametrize("ruleset", PORTED)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=hs.data())
def test_a_command_validate_accepts_is_one_expand_yields(ruleset: str, data: hs.DataObject) -> None:
    positions = _positions(ruleset)
    position = positions[data.draw(hs.integers(0, len(positions) - 1))]
    legal = position.legal_actions()
    expanded = {_key(c) for a in legal for c in a.expand()}
    base = data.draw(hs.sampled_from([c for a in legal for c in a.expand()] or [Command("pass")]))
    units = position.units(in_play=False)
    hexes = sorted(position.battlefield.hexes, key=lambda h: (h.q, h.r))
    field = data.draw(hs.sampled_from(["target", "targets", "hex", "path", "option", "actor", "none"]))
    rng = random.Random(data.draw(hs.integers(0, 1 << 30)))
    changed = base
    if field == "target":
        changed = dataclasses.replace(base, target=rng.choice([None, *units]))
    elif field == "targets":
        changed = dataclasses.replace(
            base, targets=tuple(rng.sample(units, rng.randint(0, min(3, len(units)))))
        )
    elif field == "hex":
        changed = dataclasses.replace(base, hex=rng.choice([None, *hexes]))
    elif field == "path" and base.path:
        cut = base.path[: rng.randint(1, len(base.path))]
        changed = dataclasses.replace(base, path=cut + ((cut[-1] + Hex(1, 0),) if rng.random() < 0.5 else ()))
    elif field == "option":
        changed = dataclasses.replace(base, option=rng.choice(["", "1", "2", "Smelling Salts", "revolver"]))
    elif field == "actor":
        changed = dataclasses.replace(base, actor=rng.choice(units))
    if position.validate(changed) is None:
        assert _key(changed) in expanded, changed
