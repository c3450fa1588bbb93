"""Cunning and Calculated abilities and the combat talents, one test each, by commands: the rulebook
sentence quoted in the docstring, its effect asserted on events, resolve, AP, statuses, positions and the
map. Dice are scripted; set-ups place units and hand out turns directly (``rift_kit``)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from game.battlefield import Cover
from game.engine.match import Match
from game.events import ActionTaken, ActivationStarted, Event, Note, Roll
from game.rules import PosseSpec
from game.rules.rift import RULESET, StressDealt, end_of_encounter
from game.rules.rift import state as st
from tests import maps_factory as mf
from tests.rules.frontier_kit import at, open_map
from tests.rules.rift_kit import (
    cmd,
    deploy,
    find,
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


def _match(
    tmp_path: Path, *side1: object, goons: int = 2, side2: PosseSpec | None = None, **kw: object
) -> Match:
    chars = side1 or (rifter("cunning"),)
    other = side2 or outlaws("side2", *["outlaw_goon"] * goons)
    m = new_match(rifters("side1", *chars), other, 1, open_map(tmp_path, **kw))  # type: ignore[arg-type]
    deploy(m)
    return m


def _stress(events: list[Event]) -> list[StressDealt]:
    return [e for e in events if isinstance(e, StressDealt)]


def _order(m: Match, *first: int) -> None:
    """Set-up: the turn order starts with ``first`` (the rest keep their rolled order)."""
    g = game(m)
    g.order = [*first, *(u for u in g.order if u not in first)]


def _started(events: list[Event], who: int) -> int:
    return next(e.action_points for e in events if isinstance(e, ActivationStarted) and e.unit == who)


# == Cunning ========================================================================================


def test_shout_order_grants_an_ally_within_6t_one_extra_action_point(tmp_path: Path) -> None:
    """Shout Order [2AP]: "Grant an ally within 6t 1 extra action point." On the Cunning's own turn the
    point comes at the start of the ally's next turn (R26); an ally beyond 6t is not offered."""
    m = _match(tmp_path, rifter("cunning"), rifter("deliberate", "Near"), rifter("daring", "Far"))
    cun, near, far = (unit(m, "side1", i) for i in range(3))
    place(m, cun, at(5))
    place(m, near, at(11))  # 6 tiles
    place(m, far, at(12))  # 7 tiles
    place(m, unit(m, "side2", 0), at(28))
    place(m, unit(m, "side2", 1), at(28))
    _order(m, cun, near)
    give_turn(m, cun)
    shout = find(m, cun, "shout_order")
    assert shout.enabled and shout.cost == 2 and shout.targets == (near,)
    events = m.apply(shout.command(target=near))
    assert any(isinstance(e, ActionTaken) and e.action == "shout_order" and e.target == near for e in events)
    assert st.ap(cun).current == 1
    events = m.apply(cmd("end_turn", cun))
    assert _started(events, near) == 4


def test_shout_order_at_the_start_of_an_allys_turn_gives_the_point_at_once(tmp_path: Path) -> None:
    """Battlefield Commander: "You can spend action points on cunning attitude actions at any time between
    the start of your turn and the start of your next turn." Shout Order when the ally's turn starts: the
    ally has 4 AP that turn, paid from the Cunning's AP left over (R12)."""
    m = _match(tmp_path, rifter("cunning"), rifter("deliberate", "D"))
    cun, dee = unit(m, "side1", 0), unit(m, "side1", 1)
    place(m, cun, at(5))
    place(m, dee, at(6))
    _order(m, cun, dee)
    give_turn(m, cun)
    m.apply(cmd("end_turn", cun))
    assert game(m).active == dee
    shout = find(m, cun, "shout_order")
    assert shout.enabled and shout.targets == (dee,)
    assert m.validate(cmd("end_turn", dee)) is not None  # the window is open first
    m.apply(shout.command(target=dee))
    assert st.ap(dee).current == 4 and st.ap(cun).current == 1
    assert not find(m, cun, "shout_order").enabled  # 1 AP left
    m.apply(find(m, cun, "pass").command())
    assert find(m, dee, "end_turn").enabled and st.ap(dee).current == 4


def test_nudge_treats_an_allys_firearm_roll_as_2_higher(tmp_path: Path) -> None:
    """Nudge [2AP]: "Treat the firearm roll of an ally within 6t as if it was 2 higher." (R13: declared
    before the roll, +2 on every die: 3, 3, 4 on a 5+ pistol become three hits of 5, 5, 6)"""
    m = _match(tmp_path, rifter("cunning"), rifter("cunning", "Shooter"), goons=1)
    cun, shooter, goon = unit(m, "side1", 0), unit(m, "side1", 1), unit(m, "side2")
    place(m, cun, at(3))
    place(m, shooter, at(5))
    place(m, goon, at(9))
    give_turn(m, cun)
    give_turn(m, shooter)
    script(m, 3, 3, 4)
    m.apply(cmd("fire", shooter, option="mdtc_model_4_pistol"))
    nudge = find(m, cun, "nudge")
    assert nudge.enabled and nudge.targets == (shooter,)
    m.apply(nudge.command(target=shooter))
    assert st.ap(cun).current == 1
    assert not find(m, cun, "nudge").enabled  # 1 AP left: no second Nudge
    events = m.apply(find(m, cun, "pass").command())
    (rolled,) = [e for e in events if isinstance(e, Roll)]
    assert rolled.dice == (5, 5, 6) and rolled.modifiers == (("nudge", 2),)
    assert [e.amount for e in _stress(events)] == [5, 5, 6]
    assert st.resolve(goon).current == 0 and st.resolve(goon).overcome  # 12 - 16


def test_duck_prevents_all_damage_an_ally_within_6t_would_take_this_turn(tmp_path: Path) -> None:
    """ "Duck!" [2AP]: "Prevent all damage an ally within 6t would take this turn." Used off-turn after the
    hits are assigned (R14); the ally takes no stress, the Cunning pays 2 AP."""
    m = _match(tmp_path, rifter("cunning"), rifter("deliberate", "D"), goons=1)
    cun, dee, goon = unit(m, "side1", 0), unit(m, "side1", 1), unit(m, "side2")
    place(m, cun, at(5))
    place(m, dee, at(11))
    place(m, goon, at(14))
    give_turn(m, cun)
    give_turn(m, goon)
    script(m, 4, 3)
    m.apply(cmd("fire", goon, option="goon_revolver"))  # only Deliberate is in range: the hits go to it
    duck = find(m, cun, "duck")
    assert duck.enabled and duck.targets == (dee,)
    m.apply(duck.command(target=dee))
    events = m.apply(find(m, cun, "pass").command())
    dealt = _stress(events)
    assert [(e.unit, e.value, e.amount) for e in dealt] == [(dee, 4, 0), (dee, 3, 0)]
    assert all(e.prevented for e in dealt)
    assert st.resolve(dee).current == 30 and st.ap(cun).current == 1


def test_battlefield_commander_lets_cunning_actions_be_spent_off_turn(tmp_path: Path) -> None:
    """Battlefield Commander: "You can spend action points on cunning attitude actions at any time between
    the start of your turn and the start of your next turn." Without the trait no window opens; off-turn
    outside a window a cunning action is refused; the next turn starts with a fresh 3 AP."""
    m = _match(tmp_path, rifter("cunning"), rifter("cunning", "Shooter"), goons=1)
    cun, shooter, goon = unit(m, "side1", 0), unit(m, "side1", 1), unit(m, "side2")
    place(m, cun, at(3))
    place(m, shooter, at(5))
    place(m, goon, at(9))
    _order(m, shooter, cun)
    give_turn(m, cun)
    give_turn(m, shooter)
    assert m.validate(cmd("shout_order", cun, target=shooter)) == "it is Shooter's turn, not Cunning's"
    m.enter()
    st.combatant(cun).traits.remove("battlefield_commander")
    script(m, 1, 1, 1)
    m.apply(cmd("fire", shooter, option="mdtc_model_4_pistol"))
    assert not game(m).stack  # no Nudge window without the trait
    st.combatant(cun).traits.append("battlefield_commander")
    give_turn(m, shooter)
    script(m, 1, 1, 1)
    m.apply(cmd("fire", shooter, option="mdtc_model_4_pistol"))
    m.apply(find(m, cun, "nudge").command(target=shooter))
    m.apply(find(m, cun, "pass").command())
    assert st.ap(cun).current == 1
    events = m.apply(cmd("end_turn", shooter))
    assert _started(events, cun) == 3


def test_constant_vigilance_one_extra_point_not_spendable_on_own_turn(tmp_path: Path) -> None:
    """Constant Vigilance: "You now have 1 extra action point that may not be spent on your own turn."
    On its turn the Cunning spends 3; off-turn its last point plus the extra one pay for "Duck!"."""
    m = _match(tmp_path, rifter("cunning", level=4), rifter("deliberate", "D"), goons=1)
    cun, dee, goon = unit(m, "side1", 0), unit(m, "side1", 1), unit(m, "side2")
    place(m, cun, at(5))
    place(m, dee, at(6))
    place(m, goon, at(12))
    _order(m, dee, cun, goon)
    give_turn(m, dee)
    events = m.apply(cmd("end_turn", dee))
    assert _started(events, cun) == 3
    m.apply(find(m, cun, "shout_order").command(target=dee))
    assert st.ap(cun).current == 1
    second = find(m, cun, "shout_order")
    assert not second.enabled and "needs 2 AP" in (second.reason or "")
    m.apply(cmd("end_turn", cun))
    assert game(m).active == goon
    script(m, 2, 2)
    m.apply(cmd("fire", goon, option="goon_revolver"))  # Deliberate is the only one in range
    duck = find(m, cun, "duck")
    assert duck.enabled  # 1 left + the vigilant point = 2
    m.apply(duck.command(target=dee))
    m.apply(find(m, cun, "pass").command())
    assert st.resolve(dee).current == 30 and st.ap(cun).current == 0


def test_tactical_reposition_you_and_each_ally_within_6t_may_move_1t(tmp_path: Path) -> None:
    """Tactical Reposition [2AP]: "You and each of your allies within 6t may move 1t." Each, in turn
    order, moves one tile or passes; an ally beyond 6t is not asked."""
    m = _match(tmp_path, rifter("cunning", level=7), rifter("deliberate", "Near"), rifter("daring", "Far"))
    cun, near, far = (unit(m, "side1", i) for i in range(3))
    place(m, cun, at(5))
    place(m, near, at(8))
    place(m, far, at(12))
    place(m, unit(m, "side2", 0), at(28))
    place(m, unit(m, "side2", 1), at(28))
    _order(m, cun, near, far)
    give_turn(m, cun)
    m.apply(cmd("tactical_reposition", cun))
    step = find(m, cun, "reposition")
    assert step.needs == "hex" and at(4) in step.hexes and at(3) not in step.hexes
    m.apply(step.command(hex=at(4)))
    step = find(m, near, "reposition")
    assert at(9) in step.hexes
    m.apply(step.command(hex=at(9)))
    assert not game(m).stack  # Far was never asked
    assert (st.hex_of(cun), st.hex_of(near), st.hex_of(far)) == (at(4), at(9), at(12))
    assert st.ap(cun).current == 1


def test_battlefield_commander_tactical_reposition_when_an_enemy_turn_starts(tmp_path: Path) -> None:
    """Battlefield Commander: "You can spend action points on cunning attitude actions at any time between
    the start of your turn and the start of your next turn." Tactical Reposition [2AP] off-turn: offered
    when another unit's turn starts (RC4); the Cunning and its ally step before the goon acts, paid from
    the AP the Cunning kept; the goon's turn then goes on."""
    m = _match(tmp_path, rifter("cunning", level=7), rifter("deliberate", "Near"), goons=1)
    cun, near, goon = unit(m, "side1", 0), unit(m, "side1", 1), unit(m, "side2")
    place(m, cun, at(5))
    place(m, near, at(8))
    place(m, goon, at(14))
    _order(m, cun, goon, near)
    give_turn(m, cun)
    assert find(m, cun, "tactical_reposition").enabled  # on its own turn as ever
    m.apply(cmd("end_turn", cun))  # 3 AP kept
    assert game(m).active == goon
    move = find(m, cun, "tactical_reposition")
    assert move.enabled and move.cost == 2 and at(4) in move.hexes and at(9) in move.hexes
    assert m.validate(cmd("end_turn", goon)) is not None  # the window is open first
    m.apply(move.command())
    m.apply(find(m, cun, "reposition").command(hex=at(4)))
    m.apply(find(m, near, "reposition").command(hex=at(7)))
    assert (st.hex_of(cun), st.hex_of(near)) == (at(4), at(7))
    assert st.ap(cun).current == 1
    assert not find(m, cun, "tactical_reposition").enabled  # 1 AP left
    m.apply(find(m, cun, "pass").command())
    assert game(m).active == goon and find(m, goon, "end_turn").enabled


def test_without_battlefield_commander_no_off_turn_reposition(tmp_path: Path) -> None:
    """Battlefield Commander is what lets "cunning attitude actions" be used off-turn: a unit without the
    trait is never asked when another turn starts (RC4)."""
    m = _match(tmp_path, rifter("cunning", level=7), rifter("deliberate", "Near"), goons=1)
    cun, goon = unit(m, "side1", 0), unit(m, "side2")
    place(m, cun, at(5))
    place(m, goon, at(14))
    st.combatant(cun).traits.remove("battlefield_commander")
    _order(m, cun, goon)
    give_turn(m, cun)
    m.apply(cmd("end_turn", cun))
    assert game(m).active == goon and not [a for a in m.legal_actions() if a.actor == cun]


# == Calculated =====================================================================================


def _covered(m: Match, *cols: int) -> list[bool]:
    return [m.battlefield.terrain_at(at(c)).cover != Cover.NONE for c in cols]


def test_shaped_charge_destroys_all_destructible_cover_adjacent_to_a_tile_within_6t(tmp_path: Path) -> None:
    """Shaped Charge [2AP]: "Destroy all cover adjacent to a tile within 6t." R20: the tile and its
    neighbours, only map cover marked destructible (a barrel, not a boulder); it becomes open ground."""
    terrain = {(9, 5): mf.BARREL, (10, 5): mf.BARREL, (11, 5): mf.BOULDER, (12, 5): mf.BARREL}
    m = _match(tmp_path, rifter("calculated"), terrain=terrain)
    me = unit(m, "side1")
    place(m, me, at(5))
    place(m, unit(m, "side2", 0), at(28))
    place(m, unit(m, "side2", 1), at(28))
    give_turn(m, me)
    charge = find(m, me, "shaped_charge")
    assert charge.needs == "hex" and at(11) in charge.hexes and at(12) not in charge.hexes  # 7t
    events = m.apply(charge.command(hex=at(10)))
    wrecked = [e.hex for e in events if isinstance(e, ActionTaken) and e.action == "cover_destroyed"]
    assert sorted(wrecked) == sorted([at(9), at(10)])
    assert _covered(m, 9, 10, 11, 12) == [False, False, True, True]
    assert m.battlefield.terrain_at(at(9)).name == "wrecked barrel"
    assert st.ap(me).current == 1


def test_the_sound_of_thunder_removes_one_unit_of_cover_adjacent_to_the_impact(tmp_path: Path) -> None:
    """The Sound of Thunder: "When you fire an explosive weapon, you may now remove one unit of cover
    adjacent to the impact site." One barrel of the two next to the impact: the one nearest a hostile."""
    terrain = {(9, 5): mf.BARREL, (11, 5): mf.BARREL}
    m = _match(tmp_path, rifter("calculated", level=4), goons=1, terrain=terrain)
    me, goon = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(5))
    place(m, goon, at(12))
    give_turn(m, me)
    script(m, 1, 1)  # the Impact Grenade misses: the cover goes all the same
    events = m.apply(cmd("explosive", me, option="sullivan_1402_impact_grenade", hex=at(10)))
    wrecked = [e.hex for e in events if isinstance(e, ActionTaken) and e.action == "cover_destroyed"]
    assert wrecked == [at(11)]
    assert _covered(m, 9, 11) == [True, False]


def test_pocket_mortar_destroys_cover_within_3t_of_a_point_within_6t(tmp_path: Path) -> None:
    """Pocket Mortar [3AP]: "Destroy any number of units of cover within 3t of a point you choose within
    6t." All the destructible cover within 3t goes (R20); 4t away it stays."""
    terrain = {(7, 5): mf.BARREL, (10, 5): mf.BARREL, (13, 5): mf.BARREL, (14, 5): mf.BARREL}
    m = _match(tmp_path, rifter("calculated", level=7), terrain=terrain)
    me = unit(m, "side1")
    place(m, me, at(5))
    place(m, unit(m, "side2", 0), at(28))
    place(m, unit(m, "side2", 1), at(28))
    give_turn(m, me)
    mortar = find(m, me, "pocket_mortar")
    assert mortar.cost == 3 and at(11) in mortar.hexes and at(12) not in mortar.hexes
    m.apply(mortar.command(hex=at(10)))
    assert _covered(m, 7, 10, 13, 14) == [False, False, False, True]


def test_custom_blend_enemies_hit_by_explosives_are_stunned_and_lose_an_action_point(tmp_path: Path) -> None:
    """Custom Blend: "Enemies hit by your explosive attacks are stunned and lose one action point until the
    start of your next turn." The goon starts its turn with 2 AP; an ally in the blast is hit, not
    stunned; the stun ends when the Calculated's next turn starts."""
    m = _match(tmp_path, rifter("calculated"), rifter("bold", "B"), goons=1)
    me, ally, goon = unit(m, "side1", 0), unit(m, "side1", 1), unit(m, "side2")
    place(m, me, at(3))
    place(m, ally, at(9))
    place(m, goon, at(8))
    _order(m, me, goon, ally)
    give_turn(m, me)
    script(m, 5, 1)  # Antipersonnel 2d6 / 5+ r1: one hit of 5 on both
    events = m.apply(cmd("explosive", me, option="mdtc_antipersonnel_grenade", hex=at(8)))
    assert {e.unit for e in _stress(events)} == {goon, ally}
    assert st.has_status(goon, "stunned") and not st.has_status(ally, "stunned")
    events = m.apply(cmd("end_turn", me))
    assert _started(events, goon) == 2
    m.apply(cmd("end_turn", goon))
    m.apply(cmd("end_turn", ally))
    assert game(m).active == me and not st.has_status(goon, "stunned")


def test_stunned_by_two_units_still_loses_one_action_point(tmp_path: Path) -> None:
    """Stunned: "Lose 1 Action Point". / "A character can be affected by any number of status effects, but
    the 1/4x to 4x multiplier limit always applies." Stunned is a status a unit has or has not: stunned by
    two Calculated before its turn, a goon starts it with 2 AP, not 1, and a further stun during its turn
    takes nothing more; it stays Stunned until the last stunner's turn starts (docs/RULES.md R25a)."""
    m = _match(tmp_path, rifter("calculated", "C1"), rifter("calculated", "C2"), goons=1)
    c1, c2, goon = unit(m, "side1", 0), unit(m, "side1", 1), unit(m, "side2")
    place(m, c1, at(3))
    place(m, c2, at(4))
    place(m, goon, at(8))
    _order(m, c1, c2, goon)
    give_turn(m, c1)
    for me in (c1, c2):
        script(m, 2, 2)  # Sullivan 1402 Impact Grenade 2d4 / 2+ / r0: 4 stress, the goon keeps standing
        m.apply(cmd("explosive", me, option="sullivan_1402_impact_grenade", hex=at(8)))
        events = m.apply(cmd("end_turn", me))
    assert sorted(r.inflictor for r in st.statuses(goon, "stunned")) == sorted((c1, c2))
    assert _started(events, goon) == 2
    RULESET.ctx(m).inflict(goon, "stunned", c1)  # set-up: stunned again on its own turn
    assert st.ap(goon).current == 2
    m.apply(cmd("end_turn", goon))
    assert game(m).active == c1 and st.statuses(goon, "stunned")[0].inflictor == c2


def test_bring_the_fireworks_a_maximum_adds_one_more_die(tmp_path: Path) -> None:
    """Bring the Fireworks: "When a die rolled for an explosive or firearm attack displays the maximum
    value, you may roll one additional die and add it to the result of the first die." At level 1 a 6 then
    a 6 make 12 (one extra die only); the faces are kept on the shot."""
    m = _match(tmp_path, rifter("calculated"))
    me, g1, g2 = unit(m, "side1"), unit(m, "side2", 0), unit(m, "side2", 1)
    place(m, me, at(5))
    place(m, g1, at(8))
    place(m, g2, at(9))
    give_turn(m, me)
    script(m, 6, 6, 5, 1)
    m.apply(cmd("fire", me, option="mdtc_model_4_pistol"))
    shots = game(m).stack[-1].shots
    assert [(s.value, s.hit, s.rolls) for s in shots] == [(12, True, [6, 6]), (5, True, [5]), (1, False, [1])]
    events = m.apply(find(m, me, "assign").command(targets=(g1, g2)))
    assert [(e.unit, e.amount) for e in _stress(events)] == [(g1, 12), (g2, 5)]


def test_improved_fireworks_any_maximum_explodes_and_is_added(tmp_path: Path) -> None:
    """Improved Fireworks: "Bring the Fireworks is no longer limited to one additional die. Any die
    displaying the maximum value explodes and is added." 6, 6, 2 make 14."""
    m = _match(tmp_path, rifter("calculated", level=4))
    me, g1, g2 = unit(m, "side1"), unit(m, "side2", 0), unit(m, "side2", 1)
    place(m, me, at(5))
    place(m, g1, at(8))
    place(m, g2, at(9))
    give_turn(m, me)
    script(m, 6, 6, 2, 1, 1)
    events = m.apply(cmd("fire", me, option="mdtc_model_4_pistol"))
    (rolled,) = [e for e in events if isinstance(e, Roll)]
    assert rolled.dice == (14, 1, 1)
    assert game(m).stack[-1].shots[0].rolls == [6, 6, 2]


def test_to_the_teeth_carry_and_use_one_additional_weapon(tmp_path: Path) -> None:
    """To the Teeth: "You may carry and use 1 additional weapon." The Calculated fields the pistol and both
    grenades, each offered as its own action; a Deliberate with three weapons is refused."""
    m = _match(tmp_path, rifter("calculated"))
    me = unit(m, "side1")
    place(m, me, at(5))
    place(m, unit(m, "side2", 0), at(8))
    place(m, unit(m, "side2", 1), at(28))
    give_turn(m, me)
    offered = {
        (a.action, a.option) for a in m.legal_actions() if a.action in ("fire", "explosive") and a.enabled
    }
    assert offered == {
        ("fire", "mdtc_model_4_pistol"),
        ("explosive", "sullivan_1402_impact_grenade"),
        ("explosive", "mdtc_antipersonnel_grenade"),
    }
    three = ("mdtc_model_4_pistol", "mdtc_model_13_rifle", "mdtc_antipersonnel_grenade")
    problems = RULESET.validate_posse(rifters("side1", rifter("deliberate", weapons=three)))
    assert problems and any("weapon" in p for p in problems)


# == Talents ========================================================================================


def test_animal_friend_dog_15_resolve_3_ap_move_3_crouch_distract_stuns_within_1(tmp_path: Path) -> None:
    """Animal Friend: "Dog / 15 Resolve, 3 AP / Move [1AP] - 3 tiles / Crouch [2AP] / Distract [2AP] - Stun
    one enemy within 1 tile". The dog is a unit of its Rifter's side with only those actions (R27), and the
    "running items between characters" of the talent text: Pick Up and Hand Off (R28c)."""
    m = _match(tmp_path, rifter("cunning", level=2, talents=("animal_friend",)))
    dog, g1, g2 = unit(m, "side1", 1), unit(m, "side2", 0), unit(m, "side2", 1)
    assert st.combatant(dog).companion
    assert (st.resolve(dog).maximum, st.ap(dog).per_activation) == (15, 3)
    place(m, dog, at(10))
    place(m, g1, at(11))
    place(m, g2, at(12))
    give_turn(m, dog)
    offered = {a.action: a for a in m.legal_actions() if a.actor == dog}
    assert set(offered) == {"move", "crouch", "distract", "pick_up", "hand_off", "end_turn"}
    assert (offered["move"].cost, offered["crouch"].cost, offered["distract"].cost) == (1, 2, 2)
    assert at(7) in offered["move"].hexes and at(6) not in offered["move"].hexes  # 3 tiles, not 4
    assert offered["distract"].targets == (g1,)
    m.apply(offered["distract"].command(target=g1))
    assert st.has_status(g1, "stunned") and st.ap(dog).current == 1


def test_back_alley_tourist_dirty_shot_suppresses_an_enemy_within_6t(tmp_path: Path) -> None:
    """Back Alley Tourist: "Dirty Shot [1AP] Suppress an enemy within 6t." A Suppressed unit deals ½
    stress ("Deal ½ stress")."""
    m = _match(tmp_path, rifter("cunning", level=2, talents=("back_alley_tourist",)))
    me, g1, g2 = unit(m, "side1"), unit(m, "side2", 0), unit(m, "side2", 1)
    place(m, me, at(5))
    place(m, g1, at(11))  # 6t
    place(m, g2, at(12))  # 7t
    give_turn(m, me)
    shot = find(m, me, "dirty_shot")
    assert shot.cost == 1 and shot.targets == (g1,)
    m.apply(shot.command(target=g1))
    assert st.has_status(g1, "suppressed") and st.ap(me).current == 2
    give_turn(m, g1)
    script(m, 4, 4)
    events = m.apply(cmd("fire", g1, option="goon_revolver"))
    dealt = _stress(events)
    assert [e.amount for e in dealt] == [2, 2]
    assert all(("Suppressed", Fraction(1, 2)) in e.factors for e in dealt)


def test_polyglot_insult_taunts_an_enemy_within_6t(tmp_path: Path) -> None:
    """Polyglot: "Surprisingly Biting Insult [1AP] Taunt an enemy within 6t." The Taunted goon "Can only
    attempt to attack the target that taunted you": every hit goes to the insulter, not the nearer ally."""
    m = _match(tmp_path, rifter("cunning", level=2, talents=("polyglot",)), rifter("bold", "B"), goons=1)
    me, ally, goon = unit(m, "side1", 0), unit(m, "side1", 1), unit(m, "side2")
    place(m, me, at(5))
    place(m, ally, at(10))
    place(m, goon, at(11))
    give_turn(m, me)
    insult = find(m, me, "insult")
    assert insult.cost == 1 and insult.targets == (goon,)
    m.apply(insult.command(target=goon))
    assert st.has_status(goon, "taunted")
    give_turn(m, goon)
    script(m, 3, 2)
    events = m.apply(cmd("fire", goon, option="goon_revolver"))
    assert [(e.unit, e.amount) for e in _stress(events)] == [(me, 3), (me, 2)]


def test_pugilist_grapple_overwhelms_an_enemy_within_0t(tmp_path: Path) -> None:
    """Pugilist: "Grapple [1AP] Overwhelm an enemy within 0t." (its own tile); "Overwhelmed units are
    incapable of moving"."""
    m = _match(tmp_path, rifter("cunning", level=2, talents=("pugilist",)))
    me, g1, g2 = unit(m, "side1"), unit(m, "side2", 0), unit(m, "side2", 1)
    place(m, me, at(10))
    place(m, g1, at(10))
    place(m, g2, at(11))
    give_turn(m, me)
    grapple = find(m, me, "grapple")
    assert grapple.cost == 1 and grapple.targets == (g1,)
    m.apply(grapple.command(target=g1))
    assert st.has_status(g1, "overwhelmed")
    give_turn(m, g1)
    move = find(m, g1, "move")
    assert not move.enabled and "incapable of moving" in (move.reason or "")


def test_pugilist_haymaker_is_an_attack_2d6_2_plus_0t(tmp_path: Path) -> None:
    """Pugilist: "Haymaker [2AP] (Attack) 2d6 / 2+ / 0t": every hit on the enemy in the tile; it is the
    turn's one attack ("You are only able to make one attack per turn")."""
    m = _match(tmp_path, rifter("cunning", level=2, talents=("pugilist",)))
    me, g1, g2 = unit(m, "side1"), unit(m, "side2", 0), unit(m, "side2", 1)
    place(m, me, at(10))
    place(m, g1, at(10))
    place(m, g2, at(11))
    give_turn(m, me, ap=6)
    haymaker = find(m, me, "haymaker")
    assert haymaker.cost == 2 and haymaker.targets == (g1,)
    script(m, 3, 4)
    events = m.apply(haymaker.command(target=g1))
    assert [(e.unit, e.amount) for e in _stress(events)] == [(g1, 3), (g1, 4)]
    assert st.resolve(g1).current == 5 and st.ap(me).current == 4
    assert m.validate(cmd("fire", me, option="mdtc_model_4_pistol")) == (
        'Fire Firearm ("Standard" MDTC Model 4 Pistol): you have already attacked this turn'
    )


def test_quick_draw_acts_first_and_two_quick_draws_roll_off(tmp_path: Path) -> None:
    """Quick Draw: "At the beginning of a combat encounter, you always act first. If two characters have
    this talent, they roll off for first and second - and so on." Both 5s (below the goons' 20 and 19),
    roll off 3 against 9."""
    a = rifter("cunning", "A", level=2, talents=("quick_draw",))
    b = rifter("cunning", "B", level=2, talents=("quick_draw",))
    m = new_match(
        rifters("side1", a, b), outlaws("side2", "outlaw_goon", "outlaw_goon"), 1, open_map(tmp_path)
    )
    script(m, 5, 5, 20, 19, 3, 9)
    deploy(m)
    qa, qb, g1, g2 = unit(m, "side1", 0), unit(m, "side1", 1), unit(m, "side2", 0), unit(m, "side2", 1)
    assert game(m).order == [qb, qa, g1, g2]
    offs = [(e.unit, e.dice) for e in m.history if isinstance(e, Roll) and e.check == "initiative roll-off"]
    assert offs == [(qa, (3,)), (qb, (9,))]
    assert game(m).active == qb


def test_smooth_sidearm_firing_a_pistol_takes_1_ap_and_is_still_the_one_attack(tmp_path: Path) -> None:
    """Smooth Sidearm: "Firing a pistol now only takes 1 action point. [You still can only make one attack
    per round]" (R6: per turn). The rifle still costs 2."""
    m = _match(tmp_path, rifter("deliberate", level=2, talents=("smooth_sidearm",)))
    me = unit(m, "side1")
    place(m, me, at(5))
    place(m, unit(m, "side2", 0), at(8))
    place(m, unit(m, "side2", 1), at(28))
    give_turn(m, me)
    assert find(m, me, "fire", "mdtc_model_4_pistol").cost == 1
    assert find(m, me, "fire", "mdtc_model_13_rifle").cost == 2
    script(m, 1, 1, 1, 1)
    m.apply(cmd("fire", me, option="mdtc_model_4_pistol"))
    assert st.ap(me).current == 2
    again = find(m, me, "fire", "mdtc_model_13_rifle")
    assert not again.enabled and again.reason == (
        'Fire Firearm ("Outset Special" MDTC Model 13 Rifle): you have already attacked this turn'
    )


def test_implausibly_well_groomed_returns_to_two_thirds_after_the_encounter(tmp_path: Path) -> None:
    """Implausibly Well Groomed: "When you run out of resolve and become overcome, at the end of the
    combat you shrug it off and instead return to 2/3 resolve." (30 -> 20; an ally without it: 1/3)"""
    groomed = rifter("cunning", level=2, talents=("implausibly_well_groomed",))
    m = _match(tmp_path, groomed, rifter("cunning", "Plain"), rifter("deliberate", "D"), goons=1)
    me, plain, other, goon = (*(unit(m, "side1", i) for i in range(3)), unit(m, "side2"))
    m.enter()
    for u in (me, plain):
        st.resolve(u).current = 0
        st.resolve(u).overcome = True
    st.resolve(goon).current = 1
    place(m, other, at(5))
    place(m, goon, at(8))
    give_turn(m, other)
    script(m, 10, 10, 10)
    m.apply(cmd("fire", other, option="mdtc_model_13_rifle"))
    assert sorted(end_of_encounter(m)) == sorted([(me, 20), (plain, 10)])


def test_no_truce_with_the_furies_cannot_be_stunned(tmp_path: Path) -> None:
    """No Truce with the Furies: "you cannot be Stunned." A Custom Blend grenade hits it: stress, no stun,
    and its next turn starts with all 3 AP."""
    side2 = rifters("side2", rifter("calculated", "Bomber"))
    m = _match(tmp_path, rifter("cunning", level=2, talents=("no_truce_with_the_furies",)), side2=side2)
    me, bomber = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(8))
    place(m, bomber, at(3))
    _order(m, bomber, me)
    give_turn(m, bomber)
    script(m, 5, 1)
    events = m.apply(cmd("explosive", bomber, option="mdtc_antipersonnel_grenade", hex=at(8)))
    assert [e.amount for e in _stress(events)] == [5]
    assert any(isinstance(e, Note) and e.rule == "cannot be stunned" for e in events)
    assert not st.has_status(me, "stunned")
    events = m.apply(cmd("end_turn", bomber))
    assert _started(events, me) == 3
