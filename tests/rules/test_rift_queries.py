"""Through the Rift's answers to the AI's questions, checked against what the rules then do."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import esper

from game.components import Position
from game.engine.match import Match
from game.rules.rift import RULESET
from game.rules.rift import queries as q
from game.rules.rift import state as st
from game.rules.rift.actions import SUPPOSED
from game.rules.rift.components import Combatant, Shield, Statuses, StatusRecord, TurnState
from tests.bench import corpus
from tests.rules.frontier_kit import at, open_map
from tests.rules.odds_kit import same_across_corpus, same_as_applied
from tests.rules.rift_kit import cmd, deploy, give_turn, new_match, outlaws, place, rifter, rifters, unit


def _match(tmp_path: Path) -> Match:
    m = new_match(
        rifters("side1", rifter("cunning")),
        outlaws("side2", "outlaw_goon", "outlaw_goon"),
        1,
        open_map(tmp_path),
    )
    deploy(m)
    return m


def test_what_if_at_the_real_tiles_is_the_preview_against_that_target() -> None:
    """Issue 12: "with the real hexes it equals the preview exactly (property test, Fractions)"."""
    checked = 0
    for position in corpus.positions("rift", games=1, every=3):
        for action in position.legal_actions():
            if action.action != "fire" or not action.enabled:
                continue
            base = action.command()
            for target in position.units():
                aimed = replace(base, target=target)
                ctx = RULESET.ctx(position)
                assert q.what_if(ctx, aimed, None, None) == position.preview(aimed)
                checked += 1
    assert checked > 20


def test_what_if_follows_range_and_sight_and_puts_units_back(tmp_path: Path) -> None:
    m = _match(tmp_path)
    me, goon = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(2))
    place(m, goon, at(12))
    give_turn(m, me)
    before = m.digest()
    fire = cmd("fire", me, option="mdtc_model_4_pistol", target=goon)
    ctx = RULESET.ctx(m)
    assert q.what_if(ctx, fire, None, None) is None  # 10 tiles: beyond the pistol's reach
    near = q.what_if(ctx, fire, at(9), None)
    assert near is not None
    place(m, me, at(9))
    assert near == m.preview(fire)  # the odds from there are the odds of standing there
    place(m, me, at(2))
    assert m.digest() == before


def test_path_reactions_are_the_hold_fire_shots_the_walk_meets(tmp_path: Path) -> None:
    """Hold Fire: "firing your firearm at the first valid target to move"."""
    m = _match(tmp_path)
    me, goon = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(5))
    place(m, goon, at(14))
    give_turn(m, me)
    m.apply(cmd("hold_fire", me, option="mdtc_model_4_pistol"))
    give_turn(m, goon)
    path = (at(14), at(13), at(12), at(11))
    reactions = q.path_reactions(RULESET.ctx(m), goon, path)
    assert [(r.reactor, r.kind, r.step) for r in reactions] == [(me, "hold fire", 2)]  # at col 11: 6 tiles
    assert reactions[0].preview is not None and reactions[0].preview.hit_chance > 0
    assert q.path_reactions(RULESET.ctx(m), goon, path[:3]) == ()  # never in reach: no shot


def test_movement_is_the_move_actions_tree() -> None:
    for position in corpus.positions("rift", games=1, every=5):
        move = next((a for a in position.legal_actions() if a.action == "move" and a.enabled), None)
        if move is None:
            continue
        tree = q.movement(RULESET.ctx(position), move.actor)
        assert tree.ends() == move.hexes


def test_unit_facts_and_no_morale_test(tmp_path: Path) -> None:
    m = _match(tmp_path)
    me = unit(m, "side1")
    facts = q.unit_facts(RULESET.ctx(m), me)
    res = st.resolve(me)
    assert facts.health == (res.current, res.maximum) and facts.fights and facts.side == "side1"
    assert {w.action for w in facts.weapons} <= {"fire", "explosive"} and facts.weapons
    assert all(w.option == w.id for w in facts.weapons)
    assert q.morale_risk(RULESET.ctx(m), "side1") == {}  # the rulebook has no morale test


TRAITS = (
    "meatshield",
    "improved_meatshield",
    "bullet_sponge",
    "thread_the_needle",
    "piercing_fire",
    "firearm_mastery",
)


def _spiced(position: Match, rng: random.Random) -> Match:
    """A copy of ``position`` with what the odds read changed at random: statuses (crouched, Suppressed,
    Run & Gun, Taunted), a turn protected by "Duck!", Down the Sights, a shield, traits (Meatshield and its
    improvement, Bullet Sponge, Thread the Needle, Piercing Fire, Firearm Mastery) and units sharing
    tiles, explosives carried."""
    m = position.clone()
    m.world.enter()
    units = m.units()
    for u in units:
        items = esper.component_for_entity(u, Statuses).items
        for kind in ("in_cover", "suppressed", "half_stress", "taunted"):
            if rng.random() < 0.2:
                items.append(StatusRecord(kind, rng.choice(units)))
        c = esper.component_for_entity(u, Combatant)
        for trait in TRAITS:
            if rng.random() < 0.15:
                c.traits.append(trait)
        if rng.random() < 0.3:
            c.weapons.append(rng.choice(("dynamite_bundle", "mdtc_antipersonnel_grenade")))
        t = esper.component_for_entity(u, TurnState)
        if rng.random() < 0.1:
            t.protected_turn = st.game_state(m).turn_number
        t.down_the_sights = rng.random() < 0.2
        if rng.random() < 0.15:
            other = rng.choice(units)
            esper.component_for_entity(u, Position).hex = esper.component_for_entity(other, Position).hex
    spots = [h for u in units if (h := esper.component_for_entity(u, Position).hex) is not None]
    if spots and rng.random() < 0.5:
        esper.create_entity(Shield(units[0], rng.choice(spots)))
    return m


def test_an_attacks_odds_at_any_tiles_are_its_what_if_odds() -> None:
    """``Match.odds`` (the units read once for every tile the AI asks at) answers as ``what_if`` does: the
    same odds, or None, from and at tiles around the units, for every pair of units and every attack
    (illegal ones too), in corpus positions and in copies of them with statuses, traits, shields and
    shared tiles and explosives changed at random."""
    compared, answered = same_across_corpus("rift", _spiced, _attacks, seed=7)
    assert compared > 5000 and answered > 500


def _attacks(position: Match, unit: int) -> list[tuple[str, str]]:
    """Every weapon the unit carries fired and thrown, a Haymaker, a Haymaker fired, a Hold Fire."""
    weapons = [w.id for w in position.unit_facts(unit).weapons]
    attacks = [(action, w) for w in weapons for action in ("fire", "explosive")]
    return [*attacks, ("haymaker", ""), ("fire", "haymaker"), ("hold_fire", weapons[0])]


def test_a_supposed_action_is_the_action_taken_and_is_put_back() -> None:
    """``Match.suppose`` (the AI weighs Crouch Down, Hold Fire and Covering Fire without a copy): while it
    is in place, every unit's facts, every what-if odds on and by the actor and the shots a hostile's step
    would set off are those of the match after the command really applied; undone, the match is as it was
    (the same key and digest). Another action, or one not the actor's to take now, is not supposed. An
    action that spends the last AP is asked with one AP more (the AI's trials keep the turn so)."""
    supposed: dict[str, int] = {}
    for plain in corpus.positions("rift", games=2, every=3):
        for action in plain.legal_actions():
            if not action.enabled:
                continue
            command = action.command(option=action.option)
            me = command.actor
            if action.action not in SUPPOSED:
                assert plain.suppose(command) is None
                continue
            position = plain
            ap = plain.unit_facts(me).action_points[0]
            if ap <= action.cost:
                position = plain.clone()
                position.apply(cmd("gm_set", me, option="ap", number=ap + 1))
            same_as_applied(position, command, _same_answers)
            key = position.key()
            supposed[action.action] = supposed.get(action.action, 0) + 1
            other = next(u for u in position.units() if u != me)
            assert position.suppose(cmd(action.action, other, option=action.option)) is None  # not its turn
            assert position.key() == key
    assert supposed.get("crouch", 0) > 5 and supposed.get("hold_fire", 0) > 5, supposed


def _same_answers(position: Match, real: Match, me: int) -> None:
    for u in position.units():
        assert position.unit_facts(u) == real.unit_facts(u)
        if u == me:
            continue
        for w in position.unit_facts(u).weapons:
            for shot in (
                cmd(w.action, u, target=me, option=w.option),
                cmd(w.action, me, target=u, option=w.option),
            ):
                assert position.what_if(shot) == real.what_if(shot)
        here = position.position(u)
        if here is not None:
            for step in position.battlefield.neighbors(here):
                assert position.path_reactions(u, (here, step)) == real.path_reactions(u, (here, step))
