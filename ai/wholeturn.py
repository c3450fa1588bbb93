"""The turn seen whole (split from ``ai.agent``): after a unit's options are weighed one by one, what the
rest of its turn does to them. An attack made where the unit stands with a walk's points left after it
is weighed at the safest place that walk reaches ("shoot, then step back") or, with a guard's points
left, guarded ("shoot, then take cover"): :func:`ended`; and ranks are earned against standing still
(:func:`earned`). They score through the agent's considerations
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

__all__ = ["earned", "ended"]


def ended(
    agent: UtilityAgent,
    s: Situation,
    me: int,
    here: Hex | None,
    options: list[Option[Plan]],
    *,
    lefts: list[int],
    actions: list[LegalAction],
    guards: list[tuple[int, float]],
    person: Personality,
) -> list[Option[Plan]]:
    """The turn seen whole: how an option made where the unit stands ends the turn, given the action
    points ``lefts`` it leaves (per option).

    - "Shoot, then step back": an attack with a walk's points left after it need not end the turn
      there; its exposure is at most that of the safest place weighed one walk away (with the attacks
      the walk sets off).
    - "Shoot, then take cover": an action that guards the unit where it stands (``guards``: its cost and
      the exposure after it; taking cover, crouching) is best taken last. An attack with a guard's
      points still left after it ends the turn guarded, and the points a guard leaves are worth nothing
      (a walk would give the guard up; Frontier's Take Cover forbids the shot)."""
    if here is None:
        return options
    steps = [a.cost for a in actions if a.needs == "path" and not a.targets and a.paths is not None]
    away = [
        plan.exposure + plan.en_route
        for plan in (o.subject for o in options)
        if (plan.kind == "walk" or (plan.kind == "attack" and plan.follow > 0))
        and plan.end is not None
        and plan.end != here
        and plan.command.path
        and plan.command.path[-1] == plan.end
    ]
    # what can end the turn less exposed, and its cost: the cheapest walk to the safest place, the guards
    lowered = [(min(steps), min(away))] if steps and away else []
    stand = 0.0  # the exposure standing here, asked only with a guard to weigh (none is below 0)
    if guards:
        stand = agent.exposure_at(s, s.of(me), here)
        lowered += [(cost, exposure) for cost, exposure in guards if exposure < stand]
    if not lowered and not guards:
        return options
    out: list[Option[Plan]] = []
    for option, left in zip(options, lefts, strict=True):
        plan = option.subject
        if plan.kind == "attack" and plan.end == here:
            kept = [exposure for cost, exposure in lowered if cost <= left]
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
