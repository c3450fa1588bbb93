"""Through the Rift's attack preview (``match.preview``): the exact odds of ``odds.attack_odds`` with the
attacker's real dice traits and the target's real multipliers, the same ones the engine deals with
(docs/RULES.md RA1). Set-ups place units directly; everything checked goes through commands."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import esper

from game.dice import Distribution
from game.engine.match import Match
from game.rules.rift import RULESET, StressDealt
from game.rules.rift import preview as preview_module
from game.rules.rift.components import Resolve
from game.rules.rift.odds import attack_odds, rift_odds
from game.rules.rift.stress import DiceTraits
from tests import maps_factory as mf
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

PISTOL = "mdtc_model_4_pistol"


def _match(path: Path, *side1: object, goons: int = 1, seed: int = 1) -> Match:
    chars = side1 or (rifter("cunning"),)
    m = new_match(rifters("side1", *chars), outlaws("side2", *["outlaw_goon"] * goons), seed, path)  # type: ignore[arg-type]
    deploy(m)
    return m


def _duel(path: Path, attacker: object, target: object, seed: int = 1) -> Match:
    m = new_match(rifters("side1", attacker), rifters("side2", target), seed, path)  # type: ignore[arg-type]
    deploy(m)
    return m


def _dist(stress: dict[int, Fraction]) -> Distribution:
    return Distribution(stress)


def test_preview_of_a_plain_shot_is_the_exact_odds(tmp_path: Path) -> None:
    """ "Check each die separately against the threshold value. A result equal or higher is a success. (The
    stress inflicted (on a success) is equal to the rolled value)": the Model 4 Pistol (3d6 / 5+) of a
    Cunning Rifter at a goon in the open."""
    m = _match(open_map(tmp_path))
    me, goon = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(5))
    place(m, goon, at(9))
    give_turn(m, me)
    p = m.preview(cmd("fire", me, option=PISTOL))
    assert p is not None
    odds = attack_odds(RULESET.data.weapons[PISTOL].stats())
    assert p.damage == _dist(odds.stress)
    assert p.hit_chance == 1 - Fraction(4, 6) ** 3
    assert p.target_number == 5 and p.modifiers == ()
    assert any("every hit" in n for n in p.notes)
    assert any("nearest target" in n for n in p.notes)
    # naming the target gives the same odds; a unit that is not a valid target gives none
    assert p.effective_number == 5 and p.needs_words() == "needs 5+"  # no Nudge: the printed 5+
    assert m.preview(cmd("fire", me, option=PISTOL, target=goon)) == p.__class__(
        p.hit_chance,
        p.damage,
        p.modifiers,
        p.target_number,
        tuple(n for n in p.notes if "nearest" not in n),
        effective_number=5,
    )
    assert m.preview(cmd("fire", me, option=PISTOL, target=me)) is None
    assert m.preview(cmd("move", me)) is None


def test_preview_uses_the_attackers_real_dice_traits(tmp_path: Path) -> None:
    """Deliberate "Firearm Mastery": the preview of a Deliberate Rifter's shot is ``hexslinger odds rift``
    for that attitude and level (real traits, not plain dice)."""
    m = _match(open_map(tmp_path), rifter("deliberate"))
    me, goon = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(5))
    place(m, goon, at(9))
    give_turn(m, me)
    p = m.preview(cmd("fire", me, option=PISTOL, target=goon))
    assert p is not None
    expected = rift_odds(PISTOL, attitude="deliberate", level=1).odds
    assert expected.traits.extra_dice_drop_lowest == 1
    assert p.damage == _dist(expected.stress)
    assert p.damage != _dist(attack_odds(RULESET.data.weapons[PISTOL].stats()).stress)


def test_preview_with_cover_halves_each_hit(tmp_path: Path) -> None:
    """ "If this line passes through a unit of cover, the target is considered to have the effects of the
    cover": the preview halves each hit, as the engine does; crouched behind it, "it is instead reduced to
    zero"."""
    m = _match(open_map(tmp_path, terrain={(8, 5): mf.BARREL}))
    me, goon = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(5))
    place(m, goon, at(9))
    give_turn(m, me)
    p = m.preview(cmd("fire", me, option=PISTOL, target=goon))
    assert p is not None
    assert ("cover", 50) in p.modifiers
    half = attack_odds(RULESET.data.weapons[PISTOL].stats(), DiceTraits(), (Fraction(1, 2),))
    assert p.damage == _dist(half.stress)
    assert p.expected_damage < attack_odds(RULESET.data.weapons[PISTOL].stats()).mean
    give_turn(m, goon)
    m.apply(cmd("crouch", goon))
    give_turn(m, me)
    zero = m.preview(cmd("fire", me, option=PISTOL, target=goon))
    assert zero is not None
    assert zero.damage == Distribution.constant(0) and zero.hit_chance == p.hit_chance
    assert any("crouched behind cover" in n for n in zero.notes)


def test_preview_and_validate_never_change_the_match(tmp_path: Path) -> None:
    """The Ruleset contract: "``validate`` and ``preview`` never mutate" the match (digest unchanged)."""
    m = _match(open_map(tmp_path, terrain={(8, 5): mf.BARREL}))
    me, goon = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(5))
    place(m, goon, at(9))
    give_turn(m, me)
    before = m.digest()
    for c in (
        cmd("fire", me, option=PISTOL),
        cmd("fire", me, option=PISTOL, target=goon, number=2),
        cmd("fire", me, option="nope"),
        cmd("explosive", me, option=PISTOL, hex=at(9)),
    ):
        m.validate(c)
        m.preview(c)
    assert m.digest() == before


def test_preview_bullet_sponge_suppressed_down_the_sights_and_nudge(tmp_path: Path) -> None:
    """Bullet Sponge "You innately take 1/2 stress", Suppressed "Deal ½ stress", Down the Sights "The next
    shot you make that hits inflicts 4x as much stress", Nudge "as if it was 2 higher": each appears as a
    named modifier and the damage is attack_odds with exactly those."""
    m = _duel(open_map(tmp_path), rifter("deliberate", "Del"), rifter("bold", "Bo", level=7))
    me, bold = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(5))
    place(m, bold, at(9))
    give_turn(m, me, ap=3)
    m.apply(cmd("down_the_sights", me))
    m.enter()
    RULESET.ctx(m).inflict(me, "suppressed", bold)  # set-up: the Deliberate is Suppressed
    p = m.preview(cmd("fire", me, option=PISTOL, target=bold, number=1))
    assert p is not None
    names = dict(p.modifiers)
    assert names == {"Nudge": 2, "Suppressed": 50, "Bullet Sponge": 50, "Down the Sights (the best hit)": 400}
    traits = rift_odds(PISTOL, attitude="deliberate", level=1, nudge=1).odds.traits
    expected = attack_odds(
        RULESET.data.weapons[PISTOL].stats(), traits, (Fraction(1, 2), Fraction(1, 2)), down_the_sights=True
    )
    assert p.damage == _dist(expected.stress)


def test_preview_support_holds_every_stress_the_engine_dealt(tmp_path: Path) -> None:
    """No sampling: over seeded attacks, the total stress the engine dealt to the target is always a value
    the preview gives a non-zero probability (through cover, Bullet Sponge and Firearm Mastery)."""
    path = open_map(tmp_path, terrain={(8, 5): mf.BARREL})
    m = _duel(path, rifter("deliberate", "Del"), rifter("bold", level=7))
    me, bold = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(5))
    place(m, bold, at(9))
    seen = set()
    for _ in range(12):
        m.enter()
        esper.component_for_entity(bold, Resolve).current = 60  # set-up: never overcome mid-volley
        give_turn(m, me)
        p = m.preview(cmd("fire", me, option=PISTOL, target=bold))
        assert p is not None and ("cover", 50) in p.modifiers
        events = m.apply(cmd("fire", me, option=PISTOL))
        while m.legal_actions() and m.legal_actions()[0].action in ("pass", "assign"):
            a = m.legal_actions()[0]
            picks = (bold,) * a.max_picks if a.action == "assign" else ()
            events += m.apply(a.command(targets=picks))
        total = sum(e.amount for e in events if isinstance(e, StressDealt) and e.unit == bold)
        assert p.damage.probabilities.get(total, 0) > 0, (total, p.damage)
        seen.add(total)
    assert len(seen) > 2


def test_preview_of_an_explosive_is_per_unit_in_the_blast(tmp_path: Path) -> None:
    """Use Explosive: "every target within the radius takes the hits"; the preview is the stress one unit
    in the blast takes, its cover traced from the impact point."""
    m = _match(open_map(tmp_path), rifter("calculated"), goons=2)
    me, g1, g2 = unit(m, "side1"), unit(m, "side2", 0), unit(m, "side2", 1)
    place(m, me, at(3))
    place(m, g1, at(8))
    place(m, g2, at(9))
    give_turn(m, me)
    boom = find(m, me, "explosive", "mdtc_antipersonnel_grenade")  # 2d6 / 5+ / 6t / r1
    p = m.preview(boom.command(hex=at(8), target=g2))
    assert p is not None
    w = RULESET.data.weapons[boom.option]
    traits = rift_odds(boom.option, attitude="calculated", level=1).odds.traits
    odds = attack_odds(w.stats(), traits)
    expected = dict(odds.stress)
    if odds.tail_from is not None and odds.tail:
        expected[odds.tail_from] = expected.get(odds.tail_from, Fraction(0)) + odds.tail
    assert p.damage == _dist(expected)
    assert any("blast" in n for n in p.notes)
    assert m.preview(boom.command(hex=at(20), target=g2)) is None  # g2 is not in that blast


def test_preview_of_a_hit_assignment_is_the_stress_each_target_takes(tmp_path: Path) -> None:
    """ "Assign each die to a valid target. You may choose the same target more than once." The preview of
    an ``assign`` gives, for the dice already rolled, the exact stress each unit takes from that split
    (cover halves the hit on the goon behind the barrel), and applying it deals exactly that (RA2)."""
    m = _match(open_map(tmp_path, terrain={(8, 5): mf.BARREL}), goons=2)
    me, g1, g2 = unit(m, "side1"), unit(m, "side2", 0), unit(m, "side2", 1)
    place(m, me, at(5))
    place(m, g1, at(9))  # behind the barrel
    place(m, g2, at(5, 7))
    give_turn(m, me)
    script(m, 6, 5, 1)  # two hits: 6 and 5
    m.apply(cmd("fire", me, option=PISTOL))
    split = find(m, me, "assign").command(targets=(g1, g2))
    p = m.preview(split)
    assert p is not None
    assert p.per_target == ((g1, 3), (g2, 5))
    assert p.damage == Distribution.constant(8) and p.hit_chance == 1
    assert any("6 on" in n and "cover x1/2" in n for n in p.notes)
    both = m.preview(find(m, me, "assign").command(targets=(g2, g2)))
    assert both is not None and both.per_target == ((g2, 11),)
    assert m.preview(cmd("assign", me, targets=(g1, g1, g1))) is None  # three picks for two hits
    events = m.apply(split)
    dealt: dict[int, int] = {}
    for e in events:
        if isinstance(e, StressDealt):
            dealt[e.unit] = dealt.get(e.unit, 0) + e.amount
    assert tuple(dealt.items()) == p.per_target


def test_preview_of_hold_fire_is_the_odds_against_a_target_where_it_stands(tmp_path: Path) -> None:
    """Hold Fire (Attack) [3AP]: "Ready yourself, firing your firearm at the first valid target to move":
    it fires later, so the preview is the shot's odds against the named (or nearest) target as it stands
    now, said so in a note (RA2)."""
    m = _match(open_map(tmp_path))
    me, goon = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(5))
    place(m, goon, at(9))
    give_turn(m, me)
    held = m.preview(cmd("hold_fire", me, option=PISTOL))
    fired = m.preview(cmd("fire", me, option=PISTOL, target=goon))
    assert held is not None and fired is not None
    assert held.damage == fired.damage and held.hit_chance == fired.hit_chance
    assert any("first valid target to move" in n for n in held.notes)


def test_a_preview_kept_for_its_parts_is_the_one_worked_out_afresh(tmp_path: Path) -> None:
    """The same shot asked again (the AI asks the odds of one shot from many places) gives the preview
    kept for its parts, equal to one worked out afresh; a part that changes (the target out of cover)
    gives another."""
    m = _match(open_map(tmp_path, terrain={(8, 5): mf.BARREL}))
    me, goon = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(5))
    place(m, goon, at(9))
    give_turn(m, me)
    shot = cmd("fire", me, option=PISTOL, target=goon)
    first = m.preview(shot)
    assert first is not None and ("cover", 50) in first.modifiers
    assert m.preview(shot) == first
    preview_module._PREVIEWS.clear()
    assert m.preview(shot) == first
    place(m, goon, at(7))  # in front of the barrel: in the open
    moved = m.preview(shot)
    assert moved is not None and ("cover", 50) not in moved.modifiers
    assert moved.expected_damage > first.expected_damage
