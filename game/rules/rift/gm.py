"""What Through the Rift adds to the engine's game-master edits (game.engine.gm, docs/GM.md "Sandbox"): a
unit's resolve, AP and statuses, a unit brought back, whose turn it is. Hexslinger's own: the rulebook
has no game master. A status the GM sets is the unit's own (it ends at the start of the unit's next
turn, as one it gave itself would)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import esper

from game.engine.gm import GmField
from game.events import ActivationEnded, Event, StatusChanged
from game.rules.rift import rounds
from game.rules.rift import state as st
from game.rules.rift.components import Resolve, Statuses, StatusRecord

if TYPE_CHECKING:
    from game.engine.match import Match
    from game.rules.rift.context import RiftCtx

__all__ = ["RiftGm"]

MAX_AP = 9
# statuses a GM may set: the ones that need no other unit (taunted, hold fire and covering fire do)
_FLAGS = (
    ("in_cover", "In cover"),
    ("suppressed", "Suppressed"),
    ("stunned", "Stunned"),
    ("overwhelmed", "Overwhelmed"),
    ("half_stress", "Half stress"),
)


class RiftGm:
    """The ``gm`` hook of :class:`~game.rules.rift.ruleset.RiftRuleset`."""

    stacking = True

    def __init__(self, ruleset: Any) -> None:
        self.ruleset = ruleset  # RiftRuleset (its ctx(): the rules' context of a match)

    def _ctx(self, match: Match, events: list[Event] | None = None) -> RiftCtx:
        ctx: RiftCtx = self.ruleset.ctx(match, events)
        return ctx

    def busy(self, match: Match) -> str | None:
        if self._ctx(match).game.stack:
            prompt = match.ruleset.prompt(match)
            what = f" ({prompt.title})" if prompt is not None else ""
            return f"a decision is waiting{what}: make it first, then edit"
        return None

    def fields(self, match: Match, unit: int) -> list[GmField]:
        self._ctx(match)
        res = esper.component_for_entity(unit, Resolve)
        kinds = {s.kind for s in esper.component_for_entity(unit, Statuses).items}
        out = [
            GmField("resolve", "Resolve", res.current, 0, res.maximum),
            GmField("ap", "AP", st.ap(unit).current, 0, MAX_AP),
        ]
        out += [GmField(key, label, int(key in kinds), 0, 1, flag=True) for key, label in _FLAGS]
        return out

    def set_field(self, match: Match, unit: int, key: str, value: int) -> list[Event]:
        events: list[Event] = []
        ctx = self._ctx(match, events)
        if key == "resolve":
            res = esper.component_for_entity(unit, Resolve)
            res.current = value
            # "When a character's resolve is reduced to 0, they are overcome"
            if value == 0 and not res.overcome:
                res.overcome = True
                ctx.emit(StatusChanged(ctx.round, unit, "overcome", True))
                ctx.drop_items(unit)
            elif value > 0 and res.overcome:
                res.overcome = False
                ctx.emit(StatusChanged(ctx.round, unit, "overcome", False))
        elif key == "ap":
            st.ap(unit).current = value
        else:
            items = esper.component_for_entity(unit, Statuses).items
            if value:
                items.append(StatusRecord(key, unit))
            else:
                items[:] = [s for s in items if s.kind != key]
            ctx.emit(StatusChanged(ctx.round, unit, key, bool(value)))
        return events

    def revive_problem(self, match: Match, unit: int) -> str | None:
        return None

    def revive(self, match: Match, unit: int) -> None:
        """Back with full resolve, not overcome."""
        res = esper.component_for_entity(unit, Resolve)
        res.current, res.overcome = res.maximum, False

    def turn_problem(self, match: Match, unit: int) -> str | None:
        game = self._ctx(match).game
        name = st.name(unit)
        if game.phase != "battle":
            return f"whose turn it is can change once the battle has begun (now: {game.phase})"
        if not st.alive(unit):
            return f"{name} is overcome: set its resolve above 0 first"
        if unit not in game.order:
            return f"{name} has no place in the turn order"
        return None

    def give_turn(self, match: Match, unit: int) -> list[Event]:
        """The turn order goes on from ``unit``: its turn begins now (AP refreshed, the statuses it gave
        end), the units between lose their turn this round (Hexslinger's own)."""
        events: list[Event] = []
        ctx = self._ctx(match, events)
        game = ctx.game
        if game.active:
            ctx.emit(ActivationEnded(game.round, game.active))
        game.turn = game.order.index(unit)
        ctx.expire(unit)
        rounds.start_turn(ctx, unit)
        rounds.run(ctx)
        return events

    def settle(self, match: Match) -> list[Event]:
        events: list[Event] = []
        rounds.check_end(self._ctx(match, events))
        return events
