"""The computer player's decisions outside a unit's turn (split from ``ai.agent``): where to deploy, which
reaction to make in a window (each tried on a copy, Pass the yardstick) and which choice to take (a
Joker's place, which unit draws next). They score through the agent's considerations
(:meth:`ai.agent.UtilityAgent.option`) like its turn's options."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from ai import trials
from ai.decision import ATTACK, END, REPOSITION, TAKE_OUT
from ai.situation import Situation
from ai.threat import threatened
from ai.utility import Option
from ai.worth import Plan
from game.engine.protocol import LegalAction
from game.hexgrid import Hex, hex_distance

if TYPE_CHECKING:
    from ai.agent import UtilityAgent

__all__ = ["choice_options", "deploy_options", "reaction_options"]


def deploy_options(agent: UtilityAgent, s: Situation, actions: list[LegalAction]) -> list[Option[Plan]]:
    """Deployment: a hex of the zone near cover, towards the other side's zone, not crowded."""
    action = actions[0]
    bf = s.view.battlefield
    taken = set(s.view.occupied())
    foes_zone = [h for side, zone in bf.deploy_zones.items() if side != action.side for h in zone]
    centre = (
        Hex(sum(h.q for h in foes_zone) // len(foes_zone), sum(h.r for h in foes_zone) // len(foes_zone))
        if foes_zone
        else Hex(0, 0)
    )
    far = max((hex_distance(h, centre) for h in action.hexes), default=1) or 1
    person = agent.personality()
    options = []
    for h in action.hexes:
        cover = sum(1 for n in bf.neighbors(h) if bf.terrain_at(n).cover or bf.blocks_sight(n))
        crowd = sum(1 for t in taken if hex_distance(t, h) <= 1)
        plan = Plan(
            action.command(hex=h),
            f"deploy at {h.q},{h.r}",
            "deploy",
            end=h,
            gain=min(1.0, cover / 3),
            progress=1.0 - hex_distance(h, centre) / far,
            exposure=min(1.0, crowd / 3),
        )
        options.append(agent.option(plan, REPOSITION, person))
    return options


def reaction_options(agent: UtilityAgent, s: Situation, actions: list[LegalAction]) -> list[Option[Plan]]:
    """A reaction window: each reaction tried on a copy of the match, worth what it saves or gains for
    the reacting side; Pass is the yardstick."""
    person = agent.personality()
    options: list[Option[Plan]] = []
    base = trials.settled_outlook(s, None, agent.seed)
    for action in actions:
        if action.action == "pass":
            options.append(agent.option(Plan(action.command(), "pass", "end"), END, person))
            continue
        for cmd in itertools.islice(action.expand(), 8):
            outlook = trials.settled_outlook(s, cmd, agent.seed)
            if outlook is None or base is None:
                continue
            gain = outlook - base
            if gain > 0:
                plan = Plan(cmd, action.label, "react", gain=min(1.0, gain))
                options.append(agent.option(plan, TAKE_OUT if gain > 0.3 else ATTACK, person))
    return options


def choice_options(agent: UtilityAgent, s: Situation, actions: list[LegalAction]) -> list[Option[Plan]]:
    """A choice outside a turn (a Joker's place, which unit draws): an earlier place is worth more
    when the unit can already attack or be attacked, a later one otherwise."""
    person = agent.personality()
    options = []
    for action in actions:
        commands = list(action.expand())
        for i, cmd in enumerate(commands):
            me = action.actor
            mine = s.of(me)
            here = s.where(me)
            engaged = here is not None and (
                agent.best_attack_value(s.view, me, s) > 0
                or (agent.level.foresight and threatened(s, mine, here))
            )
            early = 1.0 - i / max(1, len(commands) - 1) if len(commands) > 1 else 1.0
            words = action.choice_label(cmd.option) or action.label
            plan = Plan(cmd, words, "choice", gain=early if engaged else 1 - early)
            options.append(agent.option(plan, REPOSITION, person))
    return options
