"""The match core, on a toy ruleset: worlds, determinism, pure validation, the digest, the log."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import esper
import pytest

from game.commands import Command, CommandFormatError, command_from_json, command_to_json
from game.components import Position
from game.engine.match import IllegalCommandError, Match
from game.hexgrid import Hex
from game.rules import PosseSpec, UnitSpec, UnknownRulesetError, get_ruleset
from tests.toy_ruleset import RULESET as TOY

RANCH = Path(__file__).resolve().parent.parent / "maps" / "ranch_duel.tmx"


def posses() -> list[PosseSpec]:
    return [
        PosseSpec("side1", "hands", "Ranch Hands", (UnitSpec("hand"), UnitSpec("hand"))),
        PosseSpec("side2", "rustlers", "Rustlers", (UnitSpec("rustler"), UnitSpec("rustler"))),
    ]


def deploy_all(match: Match) -> None:
    zones = match.battlefield.deploy_zones
    for unit in match.units():
        side = match.identity(unit).side
        free = sorted(h for h in zones[side] if h not in match.occupied())
        match.apply(Command("deploy", actor=unit, hex=free[0]))


@pytest.fixture
def match() -> Iterator[Match]:
    m = Match.create(RANCH, TOY, posses(), seed=7)
    deploy_all(m)
    yield m
    m.close()


def play_shots(match: Match, shots: int) -> None:
    for _ in range(shots):
        if match.is_over:
            return
        side = match.posses[0].side if TOY._side(match) == "side1" else "side2"
        shooter = match.units(side)[0]
        target = next(u for u in match.units() if match.identity(u).side != side)
        match.apply(Command("shoot", actor=shooter, target=target))
        if not match.is_over:
            match.apply(Command("end", side=side))


def test_each_match_has_its_own_esper_world() -> None:
    with Match.create(RANCH, TOY, posses(), seed=1) as a, Match.create(RANCH, TOY, posses(), seed=1) as b:
        deploy_all(a)
        assert a.world != b.world
        assert all(a.position(u) is not None for u in a.units())
        assert all(b.position(u) is None for u in b.units())  # b's units were never deployed
        b.enter()
        assert all(pos.hex is None for _, pos in esper.get_component(Position))
    assert a.world not in esper.list_worlds()


def test_same_seed_and_commands_give_the_same_digest() -> None:
    digests = []
    for _ in range(2):
        with Match.create(RANCH, TOY, posses(), seed=42) as m:
            deploy_all(m)
            play_shots(m, 6)
            digests.append((m.digest(), [str(e) for e in m.history]))
    assert digests[0] == digests[1]


def test_a_different_seed_rolls_differently() -> None:
    rolls = []
    for seed in (1, 2, 3, 4):
        with Match.create(RANCH, TOY, posses(), seed=seed) as m:
            deploy_all(m)
            play_shots(m, 4)
            rolls.append(tuple(getattr(e, "dice", ()) for e in m.history))
    assert len(set(rolls)) > 1


def test_an_illegal_command_is_refused_with_a_reason_and_changes_nothing(match: Match) -> None:
    before = match.digest()
    log = list(match.log)
    enemy = match.units("side2")[0]
    for cmd in (
        Command("shoot", actor=enemy, target=match.units("side1")[0]),  # not side2's turn
        Command("step", actor=match.units("side1")[0], hex=Hex(99, 99)),
        Command("fly", actor=match.units("side1")[0]),
        Command("end", side="side2"),
    ):
        reason = match.validate(cmd)
        assert reason
        with pytest.raises(IllegalCommandError) as caught:
            match.apply(cmd)
        assert caught.value.reason == reason
        assert match.digest() == before
        assert match.log == log


def test_the_digest_covers_positions_doors_and_the_rng(match: Match) -> None:
    base = match.digest()
    unit = match.units("side1")[0]
    here = match.position(unit)
    assert here is not None
    step = next(n for n in match.battlefield.neighbors(here) if n not in match.occupied())
    match.apply(Command("step", actor=unit, hex=step))
    moved = match.digest()
    assert moved != base
    door = next(iter(match.battlefield.doors.values()))
    was_open = door.is_open
    match.battlefield.set_door(door.hex, not was_open)
    assert match.digest() != moved
    match.battlefield.set_door(door.hex, was_open)
    assert match.digest() == moved
    match.rng.random()
    after_roll = match.digest()
    assert after_roll != moved
    from dataclasses import replace

    here_terrain = match.battlefield.terrain_at(step)
    match.battlefield.set_terrain(step, replace(here_terrain, name="rubble", move_cost=2))
    assert match.digest() != after_roll
    assert match.battlefield.move_cost(step) == 2


def test_every_applied_command_is_logged(match: Match) -> None:
    deployed = len(match.log)
    assert deployed == 4
    play_shots(match, 1)
    assert [c.action for c in match.log[deployed:]] == ["shoot", "end"]


def test_the_match_reports_the_winner_and_refuses_further_commands() -> None:
    with Match.create(RANCH, TOY, posses(), seed=3) as m:
        deploy_all(m)
        play_shots(m, 200)
        outcome = m.outcome()
        assert outcome is not None
        assert outcome.winner in ("side1", "side2")
        assert m.validate(Command("end", side="side1")) == "the encounter is over"


def test_a_match_needs_two_distinct_sides() -> None:
    with pytest.raises(ValueError, match="at least two"):
        Match.create(RANCH, TOY, posses()[:1], seed=1)
    with pytest.raises(ValueError, match="same side"):
        Match.create(RANCH, TOY, [posses()[0], posses()[0]], seed=1)


def test_commands_round_trip_through_json() -> None:
    cmd = Command(
        "charge",
        actor=5,
        side="side1",
        target=9,
        targets=(9, 10),
        hex=Hex(1, -2),
        path=(Hex(0, 0), Hex(1, -1)),
        option="Revolver",
        number=3,
        extra=(("k", "v"),),
    )
    assert command_from_json(command_to_json(cmd)) == cmd
    assert command_to_json(Command("end", side="side2")) == {"action": "end", "side": "side2"}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "must be an object"),
        ({"actor": 1}, "no 'action'"),
        ({"action": "move", "actor": "one"}, "whole number"),
        ({"action": "move", "hex": [1]}, "pair"),
        ({"action": "move", "wings": 2}, "unknown command field"),
        ({"action": "move", "actor": True}, "whole number"),
    ],
)
def test_malformed_commands_are_refused(data: object, message: str) -> None:
    with pytest.raises(CommandFormatError, match=message):
        command_from_json(data)


def test_unknown_ruleset_names_the_known_ones() -> None:
    with pytest.raises(UnknownRulesetError, match=r"known rulesets: .*frontier"):
        get_ruleset("golden-frontiers")


def test_the_toy_ruleset_answers_the_ui_questions() -> None:
    with Match.create(RANCH, TOY, posses(), seed=3) as m:
        commands = TOY.auto_deploy(m)
        assert sorted(c.actor for c in commands) == sorted(m.units())
        for c in commands:
            assert m.validate(c) is None
            m.apply(c)
        assert TOY.auto_deploy(m) == []
        shooter, target = m.units("side1")[0], m.units("side2")[0]
        v = TOY.unit_view(m, shooter)
        assert (v.name, v.side, v.kind, v.action_points, v.health, v.out) == (
            "hand",
            "side1",
            "hand",
            (2, 2),
            (1, 1),
            "",
        )
        entries = TOY.tracker(m)
        assert [e.unit for e in entries] == m.units()
        assert [e.active for e in entries] == [m.identity(u).side == "side1" for u in m.units()]
        for _ in range(50):  # shoot (4+ on a d6) until the target is out
            m.apply(Command("shoot", actor=shooter, target=target))
            if target not in m.units():
                break
            m.apply(Command("end", side="side1"))
            m.apply(Command("end", side="side2"))
        gone = TOY.unit_view(m, target)
        assert gone.out == "out of action" and gone.health == (0, 1)
        assert target not in [e.unit for e in TOY.tracker(m)]
        assert 3 <= len(TOY.rules_summary().splitlines()) <= 25


def test_a_view_given_the_legal_actions_answers_with_them_until_a_command_is_applied(
    match: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    legal = match.legal_actions()
    view = match.view(legal[0].side, legal=legal)
    asked: list[int] = []
    listing = TOY.legal_actions
    monkeypatch.setattr(TOY, "legal_actions", lambda m: asked.append(1) or listing(m))
    given = view.legal_actions()
    assert given == legal and given is not legal  # a copy: the caller may change it
    assert asked == []  # not listed again for the same position
    play_shots(match, 1)
    assert view.legal_actions() == match.legal_actions()
    assert asked  # the position changed: listed afresh
    assert match.view(legal[0].side).legal_actions() == match.legal_actions()  # no list given: asked
