"""What an action the utility AI tries out on a copy of the match (``MatchView.sandbox``) may take from
the decision it is tried in: the copy kept at the unit's turn (:func:`keep_turn`), and whether the hostiles'
walks and threats worked out before still hold after it (:func:`same_walks`, :func:`same_threats`); and the
situation of an action the rules suppose on the match itself, with no copy (:func:`supposed`); a reaction's
worth tried on a copy (:func:`settled_outlook`)."""

from __future__ import annotations

from ai.situation import Situation
from game.commands import Command
from game.engine.facts import UnitFacts
from game.engine.match import Match, MatchView

__all__ = ["keep_turn", "same_threats", "same_walks", "settled_outlook", "side_outlook", "supposed"]

SETTLE_STEPS = 8  # reaction windows passed on a copy to see a reaction's worth


def keep_turn(trial: Match, me: int) -> None:
    """Give ``me`` one action point more on the copy ``trial``, so an action that spends its last one is
    seen as the unit's turn ends, not after the phases that follow ran on by themselves (an End phase's
    Cool checks rolled with the copy's dice could see a hostile flee, and the action look like it saved
    the unit). Only where the ruleset lets a game master set a unit's AP (``gm_set``)."""
    for f in trial.gm_fields(me):
        if f.key == "ap" and f.value < f.high:
            trial.apply(Command("gm_set", actor=me, option="ap", number=f.value + 1))
            return


def _defence(facts: UnitFacts) -> tuple[object, ...]:
    """What the hostiles' attacks on a unit read of it (not its action points, ammunition or turn)."""
    return (facts.position, facts.health, facts.health_parts, facts.statuses, facts.items, facts.fights)


def _threatening(facts: UnitFacts) -> tuple[object, ...]:
    """What a hostile's threat reads of it (not whether it has had its turn)."""
    return (*_defence(facts), facts.weapons, facts.move, facts.charge, facts.action_points)


def same_walks(before: Situation, after: Situation, me: int) -> bool:
    """Whether an action ``me`` tried out left everything the hostiles' walks and charges read as it was:
    the turn still its own (an ended turn starts another unit's, which may change what no fact shows: a
    Frontier unit's Aim is dropped), every unit where it stood and every hostile's facts."""
    if after.of(me).action_points[0] <= 0:
        return False  # with its action points spent the turn passes on: the next unit's turn may change more
    if after.view.units() != before.view.units() or after.view.occupied() != before.view.occupied():
        return False  # who stands where decides where the hostiles could walk
    foes = before.foes()
    if after.foes() != foes:
        return False
    return all(_threatening(before.of(f)) == _threatening(after.of(f)) for f in foes)


def same_threats(before: Situation, after: Situation, me: int) -> bool:
    """Of a trial that left the hostiles' walks as they were (:func:`same_walks`, asked first): whether
    it left everything the hostiles' threats on ``me`` read as it was, its own defence too (so the threats
    worked out before still hold)."""
    return _defence(before.of(me)) == _defence(after.of(me))


def supposed(before: Situation, me: int) -> Situation:
    """The situation of the position ``before``'s view shows while an action of ``me`` that changes
    only its own state is supposed in place (``MatchView.suppose``): every other unit's facts and the
    hostiles' walk and charge trees are ``before``'s (no one moved, no hostile changed, the turn is still
    its own), and so are its threats if its defence is the same (:func:`same_threats`)."""
    after = Situation(before.view, before.side)
    after.facts = {u: f for u, f in before.facts.items() if u != me}
    after.who = before.who
    if same_threats(before, after, me):
        after.share_threats(before)
    else:
        after.share_walks(before)
    return after


def settled_outlook(s: Situation, cmd: Command | None, seed: int) -> float | None:
    """The side's outlook once the reaction window has closed: ``cmd`` (None: nothing) tried on a copy
    (its hidden parts drawn from ``seed``), then every window that follows passed until the pending attack
    has dealt its damage (a reaction such as "Duck!" only shows its worth when the hits land). None if the
    copy refused ``cmd``."""
    try:
        trial = s.view.sandbox(seed)
        if cmd is not None:
            trial.apply(cmd)
        for _ in range(SETTLE_STEPS):
            if trial.is_over:
                break
            waiting = [a for a in trial.legal_actions() if a.action == "pass"]
            if not waiting:
                break
            trial.apply(waiting[0].command())
    except Exception:
        return None
    return side_outlook(trial.view(s.side), s.side)


def side_outlook(view: MatchView, side: str) -> float:
    """How well ``side`` stands: its units' health against the other sides', shares of the total."""
    mine = theirs = 0.0
    for u in view.units(in_play=False):
        facts = view.unit_facts(u)
        share = facts.health[0] / max(1, facts.health[1]) if facts.fights else 0.0
        if view.identity(u).side == side:
            mine += share
        else:
            theirs += share
    return mine - theirs
