"""Match.clone(): an independent copy with the same digest; the public view; the cheap state key."""

from __future__ import annotations

import gc
import random
from collections.abc import Callable

import esper
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from game.commands import Command
from game.engine.match import Match
from game.engine.world import World
from game.rules.frontier import state as fst
from tests.rules import frontier_kit as fk
from tests.rules import rift_kit as rk


def _frontier(seed: int) -> Match:
    return fk.new_match(
        fk.RANCH, fk.law("sheriff", "deputy", "dog"), fk.outlaws("gang_leader", "outlaw", "dog"), seed
    )


def _rift(seed: int) -> Match:
    return rk.new_match(
        rk.rifters("side1", rk.rifter("cunning"), rk.rifter("bold")),
        rk.outlaws("side2", "outlaw_goon", "outlaw_goon", "gang_boss"),
        seed,
    )


KINDS: dict[str, tuple[Callable[[int], Match], Callable[[Match], Command]]] = {
    "frontier": (_frontier, fk.aggressive_command),
    "rift": (_rift, rk.aggressive_command),
}


def _play(match: Match, player: Callable[[Match], Command], steps: int) -> list[Command]:
    done = []
    for _ in range(steps):
        if match.is_over:
            break
        cmd = player(match)
        match.apply(cmd)
        done.append(cmd)
    return done


@pytest.mark.parametrize("kind", sorted(KINDS))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 10_000), before=hs.integers(0, 80), after=hs.integers(1, 60))
def test_a_clone_is_equal_and_independent(kind: str, seed: int, before: int, after: int) -> None:
    make, player = KINDS[kind]
    original = make(seed)
    _play(original, player, before)
    digest = original.digest()
    copy = original.clone()
    assert copy.digest() == digest
    assert copy.key() == original.key()
    assert copy.log == original.log and copy.history == original.history
    # commands on the copy never reach the original (its components, map overlay, RNG, log)
    applied = _play(copy, player, after)
    assert original.digest() == digest
    assert len(original.log) == before or original.is_over
    # the same commands on the original reach the same state: the copy was exact, RNG included
    for cmd in applied:
        original.apply(cmd)
    assert original.digest() == copy.digest()


def test_a_door_opened_in_a_clone_stays_shut_in_the_original() -> None:
    match = _frontier(3)
    door = next(iter(match.battlefield.doors.values()))
    copy = match.clone()
    copy.battlefield.set_door(door.hex, not door.is_open)
    assert match.battlefield.door_at(door.hex) is not None
    assert match.battlefield.door_at(door.hex).is_open == door.is_open  # type: ignore[union-attr]
    assert copy.battlefield.door_at(door.hex).is_open != door.is_open  # type: ignore[union-attr]
    assert match.battlefield.is_passable(door.hex) != copy.battlefield.is_passable(door.hex) or (
        match.battlefield.blocks_sight(door.hex) != copy.battlefield.blocks_sight(door.hex)
    )
    assert copy.digest() != match.digest()


def test_two_matches_on_one_map_share_the_map_but_not_its_doors() -> None:
    a, b = _frontier(1), _frontier(2)
    assert a.battlefield is not b.battlefield
    assert a.battlefield.hexes is b.battlefield.hexes  # loaded once per process
    door = next(iter(a.battlefield.doors.values()))
    a.battlefield.set_door(door.hex, not door.is_open)
    assert (
        b.battlefield.door_at(door.hex).is_open
        == door.is_open
        is not a.battlefield.door_at(  # type: ignore[union-attr]
            door.hex
        ).is_open
    )  # type: ignore[union-attr]


def test_reseeding_shuffles_only_the_undrawn_cards_and_the_dice() -> None:
    match = _frontier(11)
    fk.deploy(match)
    match.enter()
    deck = list(fst.game_state(match).deck)
    assert len(deck) == 14
    orders = set()
    for seed in range(8):
        copy = match.clone(reseed=seed)
        copy.enter()
        shuffled = fst.game_state(copy).deck
        assert sorted(shuffled) == sorted(deck)  # the same cards: only their order was hidden
        orders.add(tuple(shuffled))
        # what every player may know is unchanged
        assert copy.view("side1").state() == match.view("side1").state()
        assert copy.key() == match.key()
        assert copy.digest() != match.digest()
    assert len(orders) > 1
    match.enter()
    assert fst.game_state(match).deck == deck  # the original is untouched


def test_the_public_view_holds_no_rng_and_no_card_order() -> None:
    match = _frontier(5)
    fk.deploy(match)
    state = match.view("side1").state()
    assert "rng" not in state
    match.enter()
    deck = fst.game_state(match).deck
    text = repr(state)
    assert repr(sorted(deck)) in text
    assert repr(list(deck)) not in text or list(deck) == sorted(deck)


def test_the_key_follows_the_state() -> None:
    match = _frontier(7)
    keys = {match.key()}
    for _ in range(12):
        match.apply(fk.aggressive_command(match))
        keys.add(match.key())
    assert len(keys) == 13  # deployment steps and card draws all change the position


def test_dropped_clones_leave_no_esper_worlds_behind() -> None:
    match = _rift(4)
    rk.deploy(match)
    gc.collect()
    before = len(esper.list_worlds())
    for _ in range(300):
        copy = match.clone()
        copy.apply(rk.aggressive_command(copy))
    del copy
    gc.collect()
    match.enter()  # deletes worlds collected while they were current
    assert len(esper.list_worlds()) <= before + 1


def test_esper_context_layout_is_what_world_clone_expects() -> None:
    """World.clone writes esper's per-world context tuple; pin its shape (esper 3.x)."""
    world = World()
    world.create_entity(object())
    world.enter()
    context = esper._context_map
    esper.switch_world("default")
    entry = context[world.name]
    assert len(entry) == 11
    assert isinstance(entry[1], dict) and isinstance(entry[2], dict) and isinstance(entry[3], set)
    world.close()
    assert world.name not in esper.list_worlds()


def test_a_clone_of_a_clone_replays_like_the_original() -> None:
    rng = random.Random(0)
    match = _rift(9)
    _play(match, rk.aggressive_command, 40)
    copies = [match.clone()]
    for _ in range(3):
        copies.append(copies[-1].clone())
    steps = rng.randint(5, 30)
    for c in copies:
        _play(c, rk.aggressive_command, steps)
    assert len({c.digest() for c in copies}) == 1


def test_the_units_listed_follow_every_unit_taken_out_and_put_back() -> None:
    """``Match.units`` is kept while no component was added or removed anywhere (esper's own list of the
    units is the same list): a unit taken out of play (``Removed``) leaves the list at once and comes
    back when put back; a caller changing the list it was given changes nothing kept."""
    import esper

    from game.components import Removed

    match = _frontier(3)
    every = match.units()
    side1 = match.units("side1")
    given = match.units()
    given.clear()
    assert match.units() == every and len(every) == 6
    out = side1[1]
    match.enter()
    esper.add_component(out, Removed("out_of_action"))
    assert out not in match.units() and out not in match.units("side1")
    assert out in match.units(in_play=False) and match.units(in_play=False) == every
    match.enter()
    esper.remove_component(out, Removed)
    assert match.units() == every and match.units("side1") == side1
