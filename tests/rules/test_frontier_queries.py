"""Frontier's answers to the AI's questions: unit facts, what-if odds, movement, reactions, charges,
Cool checks — each checked against what the rules then actually do."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from game.commands import Command
from game.engine.match import Match
from game.events import Note
from game.hexgrid import Hex
from game.rules.frontier import RULESET
from game.rules.frontier import queries as q
from game.rules.frontier import state as st
from game.rules.frontier.components import Weapon
from tests import maps_factory as mf
from tests.bench import corpus
from tests.rules.frontier_kit import (
    RANCH,
    at,
    give_turn,
    hurt,
    law,
    new_match,
    open_map,
    outlaws,
    place,
    unit,
)
from tests.rules.odds_kit import same_as_applied, same_as_what_if


def test_what_if_at_the_real_hexes_is_the_preview_exactly() -> None:
    """Issue 12: "with the real hexes it equals the preview exactly (property test, Fractions)"."""
    checked = 0
    for position in corpus.positions("frontier", games=1, every=3):
        for action in position.legal_actions():
            if action.action not in ("shoot", "melee") or not action.enabled:
                continue
            for cmd in action.expand():
                ctx = RULESET.ctx(position)
                assert q.what_if(ctx, cmd, None, None) == position.preview(cmd)
                assert q.what_if(
                    ctx, cmd, position.position(cmd.actor), position.position(cmd.target or 0)
                ) == (position.preview(cmd))
                checked += 1
    assert checked > 20


def test_what_if_from_other_hexes_follows_range_and_sight_and_puts_units_back(tmp_path) -> None:
    m = new_match(open_map(tmp_path), law("sheriff"), outlaws("gang_leader"))
    sheriff, leader = unit(m, "side1"), unit(m, "side2")
    place(m, sheriff, at(2))
    place(m, leader, at(10))
    give_turn(m, sheriff)
    before = m.digest()
    ctx = RULESET.ctx(m)
    shot = Command("shoot", actor=sheriff, target=leader)
    near = q.what_if(ctx, shot, at(8), None)
    far = q.what_if(ctx, shot, None, at(2) + Hex(17, 0))  # beyond the revolver's 16"
    assert near is not None and far is None
    place(m, sheriff, at(8))  # the same odds as if the sheriff had walked there
    assert near == m.preview(shot)
    place(m, sheriff, at(2))
    assert m.digest() == before  # nothing moved for good
    assert q.what_if(ctx, dataclasses.replace(shot, action="melee"), at(9), None) is not None
    assert q.what_if(ctx, dataclasses.replace(shot, action="melee"), at(7), None) is None  # not within 1"


def test_path_reactions_are_the_opportunity_attacks_the_walk_then_meets(tmp_path) -> None:
    """ "Disengage - The Unit taking this action may move out of close combat with hostile Units without
    provoking an Opportunity Attack." — leaving without it provokes one from each hostile left."""
    m = new_match(open_map(tmp_path), law("sheriff"), outlaws("gang_leader", "outlaw"))
    sheriff, leader, outlaw = unit(m, "side1"), unit(m, "side2"), unit(m, "side2", 1)
    place(m, sheriff, at(5))
    place(m, leader, at(6))
    place(m, outlaw, at(4))
    give_turn(m, sheriff)
    path = (at(5), at(5) + Hex(0, -1), at(5) + Hex(0, -2), at(5) + Hex(0, -3))
    reactions = q.path_reactions(RULESET.ctx(m), sheriff, path)
    assert {r.reactor for r in reactions} == {leader, outlaw}
    assert all(r.kind == "opportunity attack" and r.preview is not None for r in reactions)
    events = m.apply(Command("move", actor=sheriff, path=path))
    attackers = [e.unit for e in events if isinstance(e, Note) and e.rule == "opportunity attack"]
    assert sorted(attackers) == sorted(r.reactor for r in reactions)


def test_a_charge_reaches_as_often_as_move_plus_1d4_covers_the_path(tmp_path) -> None:
    """ "Charge - The Unit taking this action may move its full movement + 1d4"."""
    m = new_match(open_map(tmp_path), law("hired_gun"), outlaws("gang_leader"))
    gun = unit(m, "side1")  # Move 6
    place(m, gun, at(2))
    ctx = RULESET.ctx(m)
    path = tuple(at(c) for c in range(2, 11))  # 8 steps: needs 2+ on the d4
    assert q.charge_reach_chance(ctx, gun, path) == Fraction(3, 4)
    assert q.charge_reach_chance(ctx, gun, path[:7]) == 1
    assert q.charge_reach_chance(ctx, gun, tuple(at(c) for c in range(2, 14))) == 0


def test_movement_is_the_move_actions_tree() -> None:
    for position in corpus.positions("frontier", games=1, every=5):
        move = next((a for a in position.legal_actions() if a.action == "move" and a.enabled), None)
        if move is None:
            continue
        tree = q.movement(RULESET.ctx(position), move.actor)
        assert tree.ends() == move.hexes
        assert all(tree.path_to(h) == move.path_to(h) for h in move.hexes[:5])


def test_morale_risk_is_the_chance_to_fail_a_cool_check_when_one_is_due() -> None:
    """ "Cool checks are made from the point where half the Units on the field (rounded down) are
    considered Out of Action or when the Leader of their Posse is considered Out of Action." """
    m = new_match(RANCH, law("sheriff", "deputy"), outlaws("gang_leader", "outlaw"))
    ctx = RULESET.ctx(m)
    assert set(q.morale_risk(ctx, "side2").values()) == {0}
    hurt(m, unit(m, "side2"), 99)  # the gang leader is down: his posse checks
    risk = q.morale_risk(RULESET.ctx(m), "side2")
    outlaw = unit(m, "side2", 1)
    assert list(risk) == [outlaw]
    cool = RULESET.data.units["outlaw"].cool
    assert risk[outlaw] == Fraction(cool - 1, 6)  # fails on 1 .. cool-1 (no Leadership: the leader is down)


def test_unit_facts_are_the_sheet_as_numbers() -> None:
    m = new_match(RANCH, law("sheriff"), outlaws("gang_leader"))
    sheriff = unit(m, "side1")
    facts = q.unit_facts(RULESET.ctx(m), sheriff)
    data = RULESET.data.units["sheriff"]
    assert facts.leader and facts.fights and facts.side == "side1" and facts.move == data.move
    assert facts.health == (data.toughness + data.wounds, data.toughness + data.wounds)
    assert facts.weapons[0].reach == RULESET.data.weapons[facts.weapons[0].id].long_range
    assert facts.weapons[0].ammo == facts.weapons[0].max_ammo
    hurt(m, sheriff, data.toughness + 1)
    after = q.unit_facts(RULESET.ctx(m), sheriff)
    assert after.health[0] == facts.health[0] - data.toughness - 1
    assert [s.id for s in after.statuses] == ["wounded"] and not after.statuses[0].helps
    assert st.able(sheriff) == after.fights


def test_odds_kept_for_their_parts_are_the_odds_worked_out_afresh(tmp_path) -> None:
    """The what-if odds are kept for the parts of the attack's situation (``FrontierCtx.preview``): the
    same odds as ``attack_preview`` of the situation worked out afresh, and new odds once a part changes
    (the target takes cover, the attacker aims)."""
    from game.rules.frontier.combat import attack_preview

    m = new_match(open_map(tmp_path), law("sheriff"), outlaws("gang_leader"))
    sheriff, leader = unit(m, "side1"), unit(m, "side2")
    place(m, sheriff, at(2))
    place(m, leader, at(8))
    give_turn(m, sheriff)
    ctx = RULESET.ctx(m)
    gun = ctx.weapon(sheriff)
    first = ctx.preview(sheriff, leader, gun)
    assert first == attack_preview(ctx.situation(sheriff, leader, gun))
    assert ctx.preview(sheriff, leader, gun) is first
    st.status(leader).taking_cover = True
    covered = ctx.preview(sheriff, leader, gun)
    assert covered == attack_preview(ctx.situation(sheriff, leader, gun)) and covered != first
    st.activation(sheriff).aimed = True
    aimed = ctx.preview(sheriff, leader, gun)
    assert aimed == attack_preview(ctx.situation(sheriff, leader, gun))
    assert aimed.hit_chance > covered.hit_chance


def test_a_supposed_action_is_the_action_taken_and_is_put_back() -> None:
    """``Match.suppose`` (the AI weighs Aim, Reload, Take Cover and Disengage without a copy): while it is
    in place, the actor's facts and every what-if odds are those of the match after the command really
    applied; undone, the match is as it was (the same key and digest)."""
    supposed = 0
    for position in corpus.positions("frontier", games=2, every=2):
        for action in position.legal_actions():
            if not action.enabled or action.action not in q.SUPPOSED:
                continue
            cmd = action.command(option=action.option)
            me = cmd.actor
            if position.unit_facts(me).action_points[0] <= action.cost:  # the turn kept (as the AI keeps it)
                continue
            same_as_applied(position, cmd, _same_answers)
            supposed += 1
    assert supposed > 5


def _same_answers(position: Match, real: Match, me: int) -> None:
    assert position.unit_facts(me) == real.unit_facts(me)
    for other in position.units():
        if other == me:
            continue
        for shot in (
            Command("shoot", actor=other, target=me),
            Command("melee", actor=other, target=me),
            Command("shoot", actor=me, target=other),
        ):
            assert position.what_if(shot) == real.what_if(shot)


def test_only_an_action_on_the_actor_alone_that_may_be_taken_now_is_supposed(tmp_path) -> None:
    m = new_match(open_map(tmp_path), law("sheriff"), outlaws("gang_leader"))
    sheriff, leader = unit(m, "side1"), unit(m, "side2")
    place(m, sheriff, at(2))
    place(m, leader, at(10))
    give_turn(m, sheriff)
    key = m.key()
    assert m.suppose(Command("shoot", actor=sheriff, target=leader)) is None  # rolls dice: a copy's
    assert m.suppose(Command("aim", actor=leader)) is None  # not its turn
    assert m.suppose(Command("take_cover", actor=sheriff)) is None  # open ground: no cover
    assert m.key() == key
    undo = m.suppose(Command("aim", actor=sheriff))
    assert undo is not None
    assert st.activation(sheriff).aimed
    undo()
    assert not st.activation(sheriff).aimed and m.key() == key


def test_an_attacks_odds_at_any_hexes_are_its_what_if_odds() -> None:
    """``Match.odds`` (the units read once for every hex the AI asks at) answers as ``what_if`` does: the
    same odds, or None, from and at every hex within a few steps of the units, for every pair of units
    and every attack (illegal ones too: a unit at itself, a friend, a Seriously Injured target)."""
    compared = answered = 0
    for position in corpus.positions("frontier", games=1, every=6):
        units = position.units()
        for me in units:
            for them in units:
                for action in ("shoot", "melee", "charge", "aim"):
                    cmd = Command(action, actor=me, target=them)
                    done = same_as_what_if(position, cmd, ((3, 0), (0, -5)))
                    compared, answered = compared + done[0], answered + done[1]
    assert compared > 1000 and answered > 50


def test_a_target_supposed_elsewhere_is_no_longer_taking_cover(tmp_path) -> None:
    """Rulebook: "Take Cover - If the Unit is behind any kind of cover (Half or Total), they may take cover.
    They cannot shoot, however they gain the benefits of total cover and take half of any damage". How long
    it lasts is Hexslinger's own (docs/RULES.md, Frontier 5): "until the start of the unit's next
    activation, or until it moves". A what-if that puts the target on another hex supposes it walked
    there, so its Take Cover is gone: the odds are those of the same shot once the target has really moved
    there (before, the AI thought it kept total cover and half damage wherever it walked, and walked off
    after taking cover)."""
    path = open_map(tmp_path, terrain={(14, 5): mf.BARREL})
    m = new_match(path, law(("sheriff", "rifle")), outlaws(("outlaw", "revolver")))
    sheriff, outlaw = unit(m, "side1"), unit(m, "side2")
    place(m, sheriff, at(5))
    place(m, outlaw, at(15))  # behind the barrel
    give_turn(m, outlaw, ap=3)  # its activation goes on after the walk (no End phase, no Cool check)
    m.apply(Command("take_cover", actor=outlaw))
    assert st.status(outlaw).taking_cover
    shot = Command("shoot", actor=sheriff, target=outlaw)
    ctx = RULESET.ctx(m)
    covered = q.what_if(ctx, shot, None, None)
    assert covered is not None and covered == q.what_if(ctx, shot, None, at(15)) == m.odds(shot)(None, at(15))
    away = at(16)
    supposed = q.what_if(ctx, shot, None, away)
    assert supposed == m.odds(shot)(None, away) and st.status(outlaw).taking_cover  # put back
    m.apply(Command("move", actor=outlaw, path=(at(15), away)))
    assert not st.status(outlaw).taking_cover
    give_turn(m, sheriff)
    assert supposed is not None and supposed == m.preview(shot)
    assert supposed.expected_damage > covered.expected_damage  # no total cover, no halved damage


def test_an_empty_gun_has_no_odds_anywhere_until_it_is_reloaded(tmp_path) -> None:
    """Rulebook: "When a weapon has been used the number of times equal to its AMMO count, the user *must*
    take a Reload Action to replenish the weapon's AMMO." (docs/RULES.md, Frontier 33: an empty gun has no
    preview and no what-if odds; before, the AI walked to shoot with it and back, round after round.)"""
    m = new_match(open_map(tmp_path), law("sheriff"), outlaws("gang_leader"))
    sheriff, leader = unit(m, "side1"), unit(m, "side2")
    place(m, sheriff, at(2))
    place(m, leader, at(10))
    give_turn(m, sheriff)
    shot = Command("shoot", actor=sheriff, target=leader)
    loaded = m.preview(shot)
    assert loaded is not None and m.odds(shot)(at(4), None) is not None
    st.comp(sheriff, Weapon).ammo = 0  # set-up: six shots fired
    ctx = RULESET.ctx(m)
    assert m.preview(shot) is None
    assert q.what_if(ctx, shot, None, None) is None and q.what_if(ctx, shot, at(4), at(9)) is None
    assert m.odds(shot)(None, None) is None and m.odds(shot)(at(4), at(9)) is None
    melee = Command("melee", actor=sheriff, target=leader)
    assert q.what_if(ctx, melee, at(9), None) is not None  # his fists still fight
    m.apply(Command("reload", actor=sheriff))
    assert m.preview(shot) == loaded and m.odds(shot)(None, None) == loaded
