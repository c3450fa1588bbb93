"""Interact with items: "Interact [1AP] Use an item, hand something off, use any of your skills, etc"
(seed 003). The rulebook lists no items; what they do is Hexslinger's own (docs/RULES.md R28-R28c, the
[items] table of rift.toml). Set-ups place units and hand out turns directly (``rift_kit``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.engine.match import Match
from game.events import ActionTaken
from game.hexgrid import Hex, hex_distance
from game.rules.rift import state as st
from game.rules.rift.components import GroundItem
from game.rules.rift.data import RiftDataError, default_data, load_data
from game.save import load_match, save_match
from tests.rules.frontier_kit import at, open_map
from tests.rules.rift_kit import (
    cmd,
    deploy,
    find,
    give_turn,
    new_match,
    outlaws,
    place,
    rifter,
    rifters,
    script,
    unit,
)


def _match(tmp_path: Path, *chars: object, items: tuple[tuple[object, str], ...] = (), **kw: object) -> Match:
    side1 = rifters("side1", *(chars or (rifter("bold"), rifter("daring"))))  # type: ignore[arg-type]
    m = new_match(
        side1, outlaws("side2", "outlaw_goon", "outlaw_goon"), 1, open_map(tmp_path, items=items, **kw)
    )  # type: ignore[arg-type]
    deploy(m)
    return m


def match_path(m: Match, start: Hex, goal: Hex) -> tuple[Hex, ...]:
    found = m.battlefield.path(start, goal)
    assert found is not None
    return tuple(found)


def _ground(m: Match) -> list[tuple[object, str]]:
    return sorted((item.hex, item.name) for _, item in m.iter_components(GroundItem))


def test_interact_pick_up_an_item_in_your_tile_or_a_neighbouring_one_for_1_ap(tmp_path: Path) -> None:
    """ "Interact [1AP] Use an item": an item lying in your tile or a neighbouring one is picked up into
    what you carry (R28a); one further away is not offered."""
    m = _match(tmp_path, items=((at(6), "Canteen"), (at(9), "Jail Keys")))
    me = unit(m, "side1")
    place(m, me, at(5))
    give_turn(m, me)
    take = find(m, me, "pick_up", "Canteen")
    assert take.enabled and take.cost == 1 and take.needs == "hex" and take.hexes == (at(6),)
    assert take.label == "Interact: Pick Up (Canteen)"
    assert not [a for a in m.legal_actions() if a.action == "pick_up" and a.option == "Jail Keys"]
    before = m.digest()
    events = m.apply(take.command(hex=at(6)))
    assert ActionTaken(events[0].round, me, "pick_up", hex=at(6), option="Canteen") in events
    assert st.inventory(me) == ["Canteen"]
    assert _ground(m) == [(at(9), "Jail Keys")]
    assert st.ap(me).current == 2
    assert m.digest() != before
    again = find(m, me, "pick_up")
    assert not again.enabled
    assert again.reason == "Interact: Pick Up: no item in your tile or a neighbouring one"


def test_pick_up_does_not_reach_through_a_closed_door(tmp_path: Path) -> None:
    """R28a: "within 1 tile" is reaching into the tile: not into a wall or through a closed door."""
    m = _match(tmp_path, items=((at(6), "Canteen"),), doors=((at(6), "closed"),))
    me = unit(m, "side1")
    place(m, me, at(5))
    give_turn(m, me)
    assert not find(m, me, "pick_up").enabled
    m.apply(cmd("interact", me, hex=at(6)))  # open the door
    assert find(m, me, "pick_up", "Canteen").hexes == (at(6),)


def test_interact_hand_something_off_to_an_ally_within_1_tile(tmp_path: Path) -> None:
    """ "Interact [1AP] ... hand something off": to an ally in your tile or a neighbouring one (R28b);
    not to an enemy, not to an ally 2 tiles away."""
    m = _match(tmp_path, items=((at(5), "Jail Keys"),))
    me, pal, goon = unit(m, "side1", 0), unit(m, "side1", 1), unit(m, "side2", 0)
    place(m, me, at(5))
    place(m, pal, at(7))
    place(m, goon, at(6))
    give_turn(m, me)
    m.apply(cmd("pick_up", me, hex=at(5), option="Jail Keys"))
    far = find(m, me, "hand_off", "Jail Keys")
    assert (
        not far.enabled and far.reason == "Interact: Hand Off (Jail Keys): no ally within 1 tile to take it"
    )
    assert m.validate(cmd("hand_off", me, target=goon, option="Jail Keys")) is not None
    place(m, pal, at(6))
    give = find(m, me, "hand_off", "Jail Keys")
    assert give.enabled and give.targets == (pal,) and give.cost == 1
    m.apply(give.command(target=pal))
    assert (st.inventory(me), st.inventory(pal)) == ([], ["Jail Keys"])
    assert m.validate(cmd("hand_off", me, target=pal, option="Jail Keys")) == (
        "Interact: Hand Off (Jail Keys): carrying nothing to hand off"
    )


def test_use_item_canteen_restores_3_resolve_up_to_the_maximum_and_is_used_up(tmp_path: Path) -> None:
    """ "Interact [1AP] Use an item": Canteen (Hexslinger's own) gives 3 resolve back, never above the
    maximum, to you or a unit within 1 tile that is not overcome; used up (R28)."""
    m = _match(tmp_path, items=((at(5), "Canteen"), (at(5), "Canteen")))
    me, pal = unit(m, "side1", 0), unit(m, "side1", 1)
    place(m, me, at(5))
    place(m, pal, at(6))
    give_turn(m, me, ap=5)
    m.apply(cmd("pick_up", me, hex=at(5), option="Canteen"))
    use = find(m, me, "use_item", "Canteen")
    assert not use.enabled and use.reason == (
        "Interact: Use Item (Canteen): no one within reach who is short of resolve"
    )
    st.resolve(pal).current -= 2
    st.resolve(me).current -= 10
    use = find(m, me, "use_item", "Canteen")
    assert use.enabled and use.targets == tuple(sorted((me, pal)))
    m.apply(use.command(target=pal))
    assert st.resolve(pal).current == st.resolve(pal).maximum  # 2 short: only 2 back
    assert st.inventory(me) == []
    m.apply(cmd("pick_up", me, hex=at(5), option="Canteen"))
    m.apply(cmd("use_item", me, target=me, option="Canteen"))
    assert st.resolve(me).current == st.resolve(me).maximum - 7
    assert st.ap(me).current == 1


def test_an_item_without_a_use_can_be_carried_but_not_used(tmp_path: Path) -> None:
    """R28: an item the data gives no use (loot, keys, or a name rift.toml does not know) is carried only."""
    m = _match(tmp_path, items=((at(5), "Mystery Box"),))
    me = unit(m, "side1")
    place(m, me, at(5))
    give_turn(m, me)
    m.apply(cmd("pick_up", me, hex=at(5), option="Mystery Box"))
    assert st.inventory(me) == ["Mystery Box"]
    use = find(m, me, "use_item")
    assert not use.enabled and use.reason == "Interact: Use Item: carrying nothing that can be used"
    assert m.validate(cmd("use_item", me, target=me, option="Mystery Box")) is not None


def test_an_overcome_unit_drops_what_it_carries_and_a_fleeing_one_takes_it_along(tmp_path: Path) -> None:
    """ "When a character's resolve is reduced to 0, they are overcome and cannot act": what it carried
    lies in its tile for anyone to pick up; "Flee [2AP] Immediately leave the combat" takes it along (R28)."""
    m = _match(tmp_path, items=((at(8), "Jail Keys"), (at(9), "Canteen")))
    me, goon, other = unit(m, "side1", 0), unit(m, "side2", 0), unit(m, "side2", 1)
    place(m, me, at(5))
    place(m, goon, at(8))
    place(m, other, at(9))
    give_turn(m, goon)
    m.apply(cmd("pick_up", goon, hex=at(8), option="Jail Keys"))
    give_turn(m, other)
    m.apply(cmd("pick_up", other, hex=at(9), option="Canteen"))
    m.apply(cmd("flee", other))
    assert _ground(m) == []  # the Canteen left with the goon who fled
    st.resolve(goon).current = 1
    give_turn(m, me)
    script(m, 6, 6, 6)
    events = m.apply(cmd("fire", me, option="mdtc_model_4_pistol"))  # one target: hits go to it
    assert st.resolve(goon).overcome
    assert ActionTaken(events[-1].round, goon, "drop_item", hex=at(8), option="Jail Keys") in events
    assert _ground(m) == [(at(8), "Jail Keys")] and st.inventory(goon) == []


def test_the_dog_runs_items_between_characters(tmp_path: Path) -> None:
    """Animal Friend: "It can do things to assist you in your encounters, such as running items between
    characters, carrying equipment" - the dog may Pick Up and Hand Off (R28c), not Use Item."""
    m = _match(tmp_path, rifter("cunning", level=2, talents=("animal_friend",)), items=((at(6), "Canteen"),))
    owner, dog = unit(m, "side1", 0), unit(m, "side1", 1)
    place(m, owner, at(3))
    place(m, dog, at(5))
    give_turn(m, dog)
    m.apply(cmd("pick_up", dog, hex=at(6), option="Canteen"))
    m.apply(cmd("move", dog, path=(at(4),)))
    m.apply(cmd("hand_off", dog, target=owner, option="Canteen"))
    assert st.inventory(owner) == ["Canteen"]
    assert "use_item" not in {a.action for a in m.legal_actions() if a.actor == dog}


def test_items_survive_a_save_and_replay_to_the_same_digest(tmp_path: Path) -> None:
    """Items picked up and handed off are match state: a save replays to the same digest (by commands
    only: the item lies where auto-deploy puts the first Rifter)."""
    probe = _match(tmp_path / "probe")
    spot = st.hex_of(unit(probe, "side1", 0))
    m = _match(tmp_path, items=((spot, "Smelling Salts"),))
    me, pal = unit(m, "side1", 0), unit(m, "side1", 1)
    while m.legal_actions()[0].actor != me:
        m.apply(find(m, m.legal_actions()[0].actor, "end_turn").command())
    m.apply(find(m, me, "pick_up", "Smelling Salts").command(hex=spot))
    if hex_distance(st.hex_of(me), st.hex_of(pal)) > 1:
        move = find(m, me, "move")
        step = next(h for h in move.hexes if hex_distance(h, st.hex_of(pal)) <= 1)
        m.apply(move.command(path=match_path(m, spot, step)))
    give = find(m, me, "hand_off", "Smelling Salts")
    assert give.enabled, give.reason
    m.apply(give.command(target=pal))
    assert st.inventory(pal) == ["Smelling Salts"]
    path = tmp_path / "save.json"
    save_match(m, path)
    again, _ = load_match(path)
    assert again.digest() == m.digest()
    again.enter()
    assert st.inventory(pal) == ["Smelling Salts"] and not list(again.iter_components(GroundItem))


def test_items_data_is_checked_strictly(tmp_path: Path) -> None:
    """rift.toml [items]: a use must be known and a restore item must say how much."""
    assert default_data().item_by_name("smelling  SALTS") is not None
    text = (Path(__file__).resolve().parents[2] / "game/rules/rift/rift.toml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(
        text.replace('use = "restore"\namount = 3', 'use = "heal"\namount = 3', 1), encoding="utf-8"
    )
    with pytest.raises(RiftDataError, match=r"\[items.canteen\]: 'use' is 'heal'"):
        load_data(bad)
    bad.write_text(text.replace('use = "restore"\namount = 3\n', 'use = "restore"\n', 1), encoding="utf-8")
    with pytest.raises(RiftDataError, match="needs 'amount'"):
        load_data(bad)
