"""Through the Rift's flow by commands: turn order, attacks and hit assignment, explosives, cover, statuses,
reactions, overcome and stabilisation. Dice are scripted; set-ups place units directly."""

from __future__ import annotations

from pathlib import Path

from game.battlefield import Cover
from game.engine.match import Match
from game.events import Roll
from game.rules.rift import StressDealt, end_of_encounter
from game.rules.rift import state as st
from tests import maps_factory as mf
from tests.rules.frontier_kit import at, open_map
from tests.rules.rift_kit import (
    cmd,
    deploy,
    find,
    fired_at_two_goons,
    game,
    give_turn,
    new_match,
    outlaws,
    place,
    rifter,
    rifters,
    script,
    unit,
)


def _match(tmp_path: Path, *side1: object, goons: int = 2, seed: int = 1) -> Match:
    chars = side1 or (rifter("deliberate"),)
    m = new_match(
        rifters("side1", *chars), outlaws("side2", *["outlaw_goon"] * goons), seed, open_map(tmp_path)
    )  # type: ignore[arg-type]
    deploy(m)
    return m


def _stress(events: list[object]) -> list[StressDealt]:
    return [e for e in events if isinstance(e, StressDealt)]


def test_turn_order_each_participant_rolls_1d20_higher_first_and_quick_draw_first(tmp_path: Path) -> None:
    """ "each participant rolls 1d20. Higher numbers act first, with ties rolling off"; Quick Draw: "At the
    beginning of a combat encounter, you always act first." """
    m = _match(tmp_path, rifter("bold", level=2, talents=("quick_draw",)), rifter("daring", "D"))
    order = game(m).order
    assert order[0] == unit(m, "side1", 0)
    rolls = {e.unit: e.dice[0] for e in m.history if isinstance(e, Roll) and e.check == "initiative"}
    assert len(rolls) == 4
    rest = order[1:]
    assert [rolls[u] for u in rest] == sorted((rolls[u] for u in rest), reverse=True)


def test_fire_firearm_rolls_then_the_attacker_assigns_each_hit_in_die_order(tmp_path: Path) -> None:
    """ "Assign each die to a valid target. You may choose the same target more than once." """
    m = _match(tmp_path, rifter("cunning"))
    me, g1, g2 = unit(m, "side1"), unit(m, "side2", 0), unit(m, "side2", 1)
    place(m, me, at(5))
    place(m, g1, at(8))
    place(m, g2, at(9))
    give_turn(m, me)
    script(m, 6, 5, 1)  # the Model 4 Pistol: 3d6 / 5+ : two hits (6, 5), one miss
    m.apply(cmd("fire", me, option="mdtc_model_4_pistol"))
    assign = find(m, me, "assign")
    assert assign.needs == "assign" and assign.max_picks == 2 and set(assign.targets) == {g1, g2}
    events = m.apply(assign.command(targets=(g2, g2)))
    dealt = _stress(events)
    assert [(e.unit, e.amount) for e in dealt] == [(g2, 6), (g2, 5)]
    assert st.resolve(g2).current == 12 - 11


def test_only_one_attack_per_turn(tmp_path: Path) -> None:
    """ "You are only able to make one attack per turn." """
    m = _match(tmp_path, rifter("cunning"))
    me, g1 = unit(m, "side1"), unit(m, "side2", 0)
    place(m, me, at(5))
    place(m, g1, at(8))
    place(m, unit(m, "side2", 1), at(28))
    give_turn(m, me, ap=6)
    script(m, 1, 1, 1)
    m.apply(cmd("fire", me, option="mdtc_model_4_pistol"))
    assert m.validate(cmd("fire", me, option="mdtc_model_4_pistol")) == (
        'Fire Firearm ("Standard" MDTC Model 4 Pistol): you have already attacked this turn'
    )


def test_use_explosive_hits_every_unit_in_the_radius(tmp_path: Path) -> None:
    """ "Reduce the resolve of all targets within the radius by the final stress values." (r1)"""
    m = _match(tmp_path, rifter("calculated"), goons=3)
    me = unit(m, "side1")
    g = [unit(m, "side2", i) for i in range(3)]
    place(m, me, at(3))
    place(m, g[0], at(7))
    place(m, g[1], at(8))
    place(m, g[2], at(12))
    give_turn(m, me)
    script(m, 5, 1)  # Antipersonnel 2d6 / 5+: one hit of 5, no explosion (Bring the Fireworks needs a 6)
    events = m.apply(cmd("explosive", me, option="mdtc_antipersonnel_grenade", hex=at(7)))
    hit = {e.unit for e in _stress(events)}
    assert hit == {g[0], g[1]}
    # Custom Blend: "Enemies hit by your explosive attacks are stunned"
    assert st.has_status(g[0], "stunned")


def test_crouch_down_halves_and_behind_real_cover_zeroes(tmp_path: Path) -> None:
    """Crouch Down: "you are treated as if you have cover in all directions. If a shot would have already
    been halved due to being behind existing cover, it is instead reduced to zero." (a shield is real)"""
    m = _match(tmp_path, rifter("resolute"), rifter("cunning", "K"), goons=1)
    res, cun, goon = unit(m, "side1", 0), unit(m, "side1", 1), unit(m, "side2")
    place(m, res, at(5))
    place(m, cun, at(12))
    place(m, goon, at(9))
    give_turn(m, res)
    m.apply(cmd("deploy_cover", res))
    m.apply(cmd("crouch", res))
    give_turn(m, cun)
    m.apply(cmd("crouch", cun))
    give_turn(m, goon)
    script(m, 4, 4)  # Goon's Revolver 2d4 / 2+
    m.apply(cmd("fire", goon, option="goon_revolver"))
    events = m.apply(find(m, goon, "assign").command(targets=(res, cun)))
    dealt = {e.unit: e for e in _stress(events)}
    assert dealt[res].amount == 0 and dealt[res].prevented == "crouched behind cover"
    assert dealt[cun].amount == 2 and ("cover", 1 / 2) in [(n, float(f)) for n, f in dealt[cun].factors]


def test_a_unit_standing_in_a_cover_tile_has_no_cover_from_it(tmp_path: Path) -> None:
    """ "To determine if the target is under cover, trace the shortest line of tiles from the source to the
    target. If this line passes through a unit of cover, the target is considered to have the effects of
    the cover." / In Cover: "Take ½ stress from any shot that passes through adjacent cover". A line passes
    through the tiles between source and target: a goon standing on a (passable) barrel tile takes full
    stress, the goon behind the barrel half (docs/RULES.md R8a, docs/MAPS.md)."""
    m, me, on_barrel, behind = fired_at_two_goons(open_map(tmp_path, terrain={(8, 5): mf.BARREL}))
    assert m.battlefield.terrain_at(at(8)).cover != Cover.NONE and m.battlefield.is_passable(at(8))
    assert st.hex_of(on_barrel) == at(8) and st.hex_of(behind) == at(9)
    events = m.apply(find(m, me, "assign").command(targets=(on_barrel, behind)))  # the 6, then the 5
    dealt = {e.unit: e for e in _stress(events)}
    assert (dealt[on_barrel].value, dealt[on_barrel].amount, dealt[on_barrel].factors) == (6, 6, ())
    assert (dealt[behind].value, dealt[behind].amount) == (5, 2) and ("cover", 0.5) in [
        (n, float(f)) for n, f in dealt[behind].factors
    ]


def test_hold_fire_fires_at_the_first_valid_target_to_move(tmp_path: Path) -> None:
    """Hold Fire: "firing your firearm at the first valid target to move, until the start of your next
    turn": checked after each tile entered, every hit to the mover."""
    m = _match(tmp_path, rifter("cunning"), goons=1)
    me, goon = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(5))
    place(m, goon, at(14))
    give_turn(m, me)
    m.apply(cmd("hold_fire", me, option="mdtc_model_4_pistol"))
    give_turn(m, goon)
    script(m, 6, 6, 6)
    path = (at(14), at(13), at(12), at(11))
    events = m.apply(cmd("move", goon, path=path[:3]))
    assert st.hex_of(goon) == at(12)  # 7 tiles away at 12: out of the pistol's 6t
    assert not _stress(events)
    events = m.apply(cmd("move", goon, path=(at(12), at(11))))
    assert [e.amount for e in _stress(events)] == [6, 6]
    assert st.resolve(goon).overcome


def test_overcome_then_stabilised_to_a_third_after_the_encounter(tmp_path: Path) -> None:
    """ "At the end of the encounter, an ally can stabilize them, returning them to 1/3 of their maximum
    resolve." """
    m = _match(tmp_path, rifter("cunning"), rifter("deliberate", "D"), goons=1)
    me, other, goon = unit(m, "side1", 0), unit(m, "side1", 1), unit(m, "side2")
    m.enter()
    st.resolve(me).current = 0
    st.resolve(me).overcome = True
    st.resolve(goon).current = 1
    place(m, other, at(5))
    place(m, goon, at(8))
    give_turn(m, other)
    script(m, 10, 10, 10)
    m.apply(cmd("fire", other, option="mdtc_model_13_rifle"))
    assert m.outcome() is not None and m.outcome().winner == "side1"  # type: ignore[union-attr]
    assert end_of_encounter(m) == [(me, 10)]


def test_nudge_window_and_duck_window_are_offered_off_turn(tmp_path: Path) -> None:
    """Battlefield Commander: "You can spend action points on cunning attitude actions at any time
    between the start of your turn and the start of your next turn." """
    m = _match(tmp_path, rifter("cunning"), rifter("deliberate", "D"), goons=1)
    cun, dee, goon = unit(m, "side1", 0), unit(m, "side1", 1), unit(m, "side2")
    place(m, cun, at(5))
    place(m, dee, at(6))
    place(m, goon, at(9))
    give_turn(m, cun, ap=3)
    give_turn(m, goon)
    script(m, 4, 4)
    m.apply(cmd("fire", goon, option="goon_revolver"))
    m.apply(find(m, goon, "assign").command(targets=(dee, dee)))
    duck = find(m, cun, "duck")
    assert duck.enabled and duck.targets == (dee,)
    m.apply(duck.command(target=dee))
    events = m.apply(find(m, cun, "pass").command())
    assert all(e.amount == 0 for e in _stress(events))
    assert st.resolve(dee).current == 30
