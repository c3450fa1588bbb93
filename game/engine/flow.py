"""The pending-step stack and reaction windows, for every ruleset.

A command often cannot be carried out in one go: a move is walked a step at a time and each step may set
off reactions (Frontier's opportunity attacks, Through the Rift's Hold Fire and Covering Fire), an attack
goes through stages with windows between them (a Nudge before the roll, "Duck!" after the hits are
assigned). The ruleset keeps a stack of steps (its own dataclass, in a component, so a game saved inside
a window replays into it) and the engine runs it:

- :meth:`Flow.run` carries the top step on (the ruleset's handler for its ``kind``) until a step waits
  for a decision or the stack is empty;
- a step with ``reactors`` is an open window: the first reactor decides (a reaction or Pass) before the
  flow goes on. A window nobody can react in is never opened — that is how a reaction without a choice
  (Frontier's opportunity attack) simply happens;
- a handler may also say its step waits for a decision that is no window's (hits to assign);
- :func:`reactors` finds, in acting order, the units with an enabled reaction in a window;
  :func:`window_actions` offers the first one its reactions and Pass; a reaction's targets come from
  the step that opened the window (``ActionDef.window_picks``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableSequence
from typing import Generic, Protocol, TypeVar

from game.engine.actions import ActionDef, Picks, offer
from game.engine.protocol import LegalAction

__all__ = ["Flow", "FlowStuckError", "Step", "reactors", "window_actions", "window_picks"]


class Step(Protocol):
    """What the engine reads of a ruleset's pending step."""

    kind: str
    unit: int
    reactors: list[int]


S = TypeVar("S", bound=Step)
Ctx = TypeVar("Ctx")

MAX_STEPS = 10_000  # a flow that has not settled after this many steps is a bug, never a hang


class FlowStuckError(RuntimeError):
    """The stack did not settle (a handler that never pops its step)."""


class Flow(Generic[Ctx, S]):
    """Runs a ruleset's step stack. ``handlers[kind](ctx, step)`` advances a step (pops it when done,
    may push others) and returns True when the step now waits for a decision that is not a window's
    (an attacker assigning its hits); ``still_reacts(ctx, step, unit)`` drops a reactor that can no
    longer react (taken out meanwhile); ``stop(ctx)`` ends the run early (the encounter is decided)."""

    def __init__(
        self,
        handlers: Mapping[str, Callable[[Ctx, S], bool | None]],
        *,
        still_reacts: Callable[[Ctx, S, int], bool],
        stop: Callable[[Ctx], bool],
    ) -> None:
        self.handlers = dict(handlers)
        self.still_reacts = still_reacts
        self.stop = stop

    def run(self, ctx: Ctx, stack: MutableSequence[S]) -> None:
        """Carry the flow on until it needs a decision (a window is open, a step waits) or the stack is
        empty."""
        for _ in range(MAX_STEPS):
            if not stack or self.stop(ctx):
                return
            step = stack[-1]
            if step.reactors:
                while step.reactors and not self.still_reacts(ctx, step, step.reactors[0]):
                    step.reactors.pop(0)
                if step.reactors:
                    return
            handler = self.handlers.get(step.kind)
            if handler is None:
                raise FlowStuckError(f"no handler for a pending '{step.kind}' step")
            if handler(ctx, step):
                return
        raise FlowStuckError("the flow does not settle")


def window_picks(ctx: Ctx, definition: ActionDef[Ctx], step: object, unit: int) -> Picks:
    """What ``definition`` may be aimed at by ``unit`` in the window ``step`` opened: its
    ``window_picks``, else its ordinary picks."""
    if definition.window_picks is not None:
        return definition.window_picks(ctx, step, unit)
    return definition.picks(ctx, unit, "")


def reactors(
    ctx: Ctx,
    order: Iterable[int],
    window: str,
    step: object,
    *,
    actions: Callable[[int], Iterable[ActionDef[Ctx]]],
    usable: Callable[[int, ActionDef[Ctx]], bool],
) -> list[int]:
    """Units of ``order`` (in that order) with at least one reaction they could take in ``window``,
    opened by ``step``: one of the unit's ``actions`` listing the window, ``usable`` by it now, with
    something to aim at (:func:`window_picks`) if it has ``window_picks`` or needs a pick."""
    out: list[int] = []
    for unit in order:
        for definition in actions(unit):
            if window not in definition.windows or not usable(unit, definition):
                continue
            if (definition.needs or definition.window_picks is not None) and window_picks(
                ctx, definition, step, unit
            ).empty:
                continue
            out.append(unit)
            break
    return out


def window_actions(
    ctx: Ctx,
    actions: Iterable[ActionDef[Ctx]],
    reactor: int,
    side: str,
    *,
    window: str,
    step: object,
    problem: Callable[[ActionDef[Ctx], str], str | None],
    no_picks: str | None = None,
    pass_label: str = "Pass",
) -> list[LegalAction]:
    """What the first reactor of an open window may do: each of its ``actions`` that lists the window
    (disabled with the reason when it cannot; ``no_picks`` the words when nothing can be aimed at),
    then Pass."""
    out: list[LegalAction] = []
    for definition in actions:
        if window not in definition.windows:
            continue

        def picks(c: Ctx, unit: int, option: str, d: ActionDef[Ctx] = definition) -> Picks:
            return window_picks(c, d, step, unit)

        out.extend(offer(ctx, definition, reactor, side, problem=problem, picks=picks, no_picks=no_picks))
    out.append(LegalAction("pass", pass_label, reactor, 0, side=side))
    return out
