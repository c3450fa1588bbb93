"""The turn seen whole (split from ``ai.agent``): after a unit's options are weighed one by one, what the
rest of its turn does to them. An attack made where the unit stands with a walk's points left after it
is weighed at the safest place that walk reaches ("shoot, then step back": :func:`scooted`) or, with a
guard's points left, guarded ("shoot, then take cover": :func:`guarded`); and ranks are earned against
standing still (:func:`earned`). They score through the agent's considerations
(:meth:`ai.agent.UtilityAgent.option`) like the options they adjust."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai.decision import END
from ai.fastreplace import replace
from ai.profile import Personality
from ai.situation import Situation
from ai.utility import Option
from ai.worth import Plan, net_value
from game.engine.protocol import LegalAction
from game.hexgrid import Hex

if TYPE_CHECKING:
    from ai.agent import UtilityAgent

__all__ = ["earned", "guarded", "scooted"]


def scooted(
    agent: UtilityAgent,
    here: Hex | None,
    options: list[Option[Plan]],
    *,
    lefts: list[int],
    actions: list[LegalAction],
    person: Personality,
) -> list[Option[Plan]]:
    """The turn seen whole, again: an attack made where the unit stands with a walk's points left after
    it need not end the turn there ("shoot, then step back"): its exposure is the least of where it
    stands and the places weighed one walk away (with the attacks the walk sets off)."""
    steps = [a.cost for a in actions if a.needs == "path" and not a.targets and a.paths is not None]
    if here is None or not steps:
        return options
    away = [
        plan.exposure + plan.en_route
        for plan in (o.subject for o in options)
        if (plan.kind == "walk" or (plan.kind == "attack" and plan.follow > 0))
        and plan.end is not None
        and plan.end != here
        and plan.command.path
        and plan.command.path[-1] == plan.end
    ]
    if not away:
        return options
    safest, step = min(away), min(steps)
    out: list[Option[Plan]] = []
    for option, left in zip(options, lefts, strict=True):
        plan = option.subject
        if plan.kind == "attack" and plan.end == here and left >= step and safest < plan.exposure:
            plan = replace(plan, exposure=safest)
        out.append(agent.rescored(option, plan, person))
    return out


def guarded(
    agent: UtilityAgent,
    s: Situation,
    me: int,
    here: Hex | None,
    options: list[Option[Plan]],
    *,
    lefts: list[int],
    guards: list[tuple[int, float]],
    person: Personality,
) -> list[Option[Plan]]:
    """The turn seen whole: an action that guards the unit where it stands (taking cover, crouching:
    less exposure after it than standing) is best taken last. Its action points left over are worth
    nothing (a walk would give the guard up; Frontier's Take Cover forbids the shot), and an attack made
    from where the unit stands, with the points for the guard still left after it, ends the turn
    guarded: its exposure is the guarded one ("shoot, then take cover")."""
    if here is None or not guards:
        return options
    stand = agent.exposure_at(s, s.of(me), here)
    guards = [(cost, exposure) for cost, exposure in guards if exposure < stand]
    out: list[Option[Plan]] = []
    for option, left in zip(options, lefts, strict=True):
        plan = option.subject
        if plan.kind == "attack" and plan.end == here:
            kept = [exposure for cost, exposure in guards if cost <= left]
            if kept and min(kept) < plan.exposure:
                plan = replace(plan, exposure=min(kept))
        elif plan.kind == "other" and plan.end == here and plan.spare > 0 and plan.exposure < stand:
            plan = replace(plan, spare=0.0)
        out.append(agent.rescored(option, plan, person))
    return out


def earned(
    agent: UtilityAgent,
    s: Situation,
    me: int,
    here: Hex | None,
    options: list[Option[Plan]],
    *,
    person: Personality,
) -> list[Option[Plan]]:
    """Ranks are earned: standing where the unit is (ending its turn) is the yardstick, worth the
    damage it risks there; an option worth no more than that drops to the lowest rank, where it
    competes with standing still on worth alone. So a unit in a good place stays in it, and an attack
    that costs more than it wins is not made just because it is an attack."""
    stays = [o for o in options if o.subject.kind == "end"]
    if not stays or here is None:
        return options
    exposure = agent.exposure_at(s, s.of(me), here)
    out: list[Option[Plan]] = []
    for option in options:
        if option.subject.kind == "end":
            plan = replace(option.subject, kind="stay", end=here, exposure=exposure)
            out.append(agent.option(plan, END, person, option.weight))
    yardstick = net_value(out[0].subject, person)
    for option in options:
        if option.subject.kind == "end":
            continue
        demoted = option.rank > END and net_value(option.subject, person) <= yardstick
        out.append(agent.option(option.subject, END, person, option.weight) if demoted else option)
    return out
