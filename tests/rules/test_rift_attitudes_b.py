"""Cunning and Calculated abilities and the combat talents, one test each, by commands: the rulebook
sentence quoted in the docstring, its effect asserted on events, resolve, AP, statuses, positions and the
map. Dice are scripted; set-ups place units and hand out turns directly (``rift_kit``)."""

from __future__ import annotations

from pathlib import Path

from game.events import ActionTaken, ActivationStarted, Event, Roll
from game.match import Match
from game.rules import PosseSpec
from game.rules.rift import RULESET, StressDealt
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
    assert RULESET.ap(cun).current == 1
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
    assert RULESET.ap(dee).current == 4 and RULESET.ap(cun).current == 1
    assert not find(m, cun, "shout_order").enabled  # 1 AP left
    m.apply(find(m, cun, "pass").command())
    assert find(m, dee, "end_turn").enabled and RULESET.ap(dee).current == 4


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
    assert RULESET.ap(cun).current == 1
    assert not find(m, cun, "nudge").enabled  # 1 AP left: no second Nudge
    events = m.apply(find(m, cun, "pass").command())
    (rolled,) = [e for e in events if isinstance(e, Roll)]
    assert rolled.dice == (5, 5, 6) and rolled.modifiers == (("nudge", 2),)
    assert [e.amount for e in _stress(events)] == [5, 5, 6]
    assert RULESET.resolve(goon).current == 0 and RULESET.resolve(goon).overcome  # 12 - 16


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
    assert RULESET.resolve(dee).current == 30 and RULESET.ap(cun).current == 1


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
    RULESET.combatant(cun).traits.remove("battlefield_commander")
    script(m, 1, 1, 1)
    m.apply(cmd("fire", shooter, option="mdtc_model_4_pistol"))
    assert not game(m).stack  # no Nudge window without the trait
    RULESET.combatant(cun).traits.append("battlefield_commander")
    give_turn(m, shooter)
    script(m, 1, 1, 1)
    m.apply(cmd("fire", shooter, option="mdtc_model_4_pistol"))
    m.apply(find(m, cun, "nudge").command(target=shooter))
    m.apply(find(m, cun, "pass").command())
    assert RULESET.ap(cun).current == 1
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
    assert RULESET.ap(cun).current == 1
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
    assert RULESET.resolve(dee).current == 30 and RULESET.ap(cun).current == 0


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
    assert (RULESET.hex_of(cun), RULESET.hex_of(near), RULESET.hex_of(far)) == (at(4), at(9), at(12))
    assert RULESET.ap(cun).current == 1
