"""What Golden Frontiers adds to the engine's game-master edits (game.engine.gm, docs/GM.md "Sandbox"): a
unit's grazes, wounds and crippling wound, its round (moved, acted), the shots loaded in each weapon, a
unit brought back, whose activation it is. Hexslinger's own: the rulebook has no game master."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.engine.gm import GmField
from game.events import ActivationEnded, Event, StatusChanged
from game.rules.golden import rounds

if TYPE_CHECKING:
    from game.engine.match import Match
    from game.rules.golden.context import GoldenCtx

__all__ = ["GoldenGm"]

MAX_MOVED = 99


class GoldenGm:
    """The ``gm`` hook of :class:`~game.rules.golden.ruleset.GoldenRuleset`."""

    stacking = False

    def __init__(self, ruleset: Any) -> None:
        self.ruleset = ruleset  # GoldenRuleset (its ctx(): the rules' context of a match)

    def _ctx(self, match: Match, events: list[Event] | None = None) -> GoldenCtx:
        ctx: GoldenCtx = self.ruleset.ctx(match, events)
        return ctx

    def busy(self, match: Match) -> str | None:
        if self._ctx(match).game.phase == "window":
            return "a Biding Time question is open: answer it first, then edit"
        return None

    def fields(self, match: Match, unit: int) -> list[GmField]:
        ctx = self._ctx(match)
        health, turn, arms = ctx.health(unit), ctx.turn(unit), ctx.arms(unit)
        per = ctx.data.damage.grazes_per_wound
        out = [
            GmField("grazes", "Grazes", health.grazes, 0, max(0, per - 1)),
            GmField("wounds", "Wounds", health.wounds, 0, health.max_wounds),
            GmField("crippled", "Crippled", int(health.crippled), 0, 1, flag=True),
            GmField("moved", "Moved", turn.moved, 0, MAX_MOVED),
            GmField("acted", "Action used", int(turn.acted), 0, 1, flag=True),
        ]
        for index, (wid, loaded) in enumerate(zip(arms.weapons, arms.loaded, strict=True)):
            weapon = ctx.weapon(wid)
            if weapon.is_ranged:
                out.append(GmField(f"loaded{index}", f"Loaded ({weapon.name})", loaded, 0, weapon.ammo))
        return out

    def set_field(self, match: Match, unit: int, key: str, value: int) -> list[Event]:
        events: list[Event] = []
        ctx = self._ctx(match, events)
        health, turn = ctx.health(unit), ctx.turn(unit)
        if key in ("grazes", "wounds"):
            setattr(health, key, value)
        elif key == "crippled":
            health.crippled = bool(value)
            ctx.emit(StatusChanged(ctx.round, unit, "crippled", bool(value)))
        elif key == "moved":
            turn.moved = value
        elif key == "acted":
            turn.acted = bool(value)
        else:
            ctx.arms(unit).loaded[int(key.removeprefix("loaded"))] = value
        return events

    def revive_problem(self, match: Match, unit: int) -> str | None:
        return None

    def revive(self, match: Match, unit: int) -> None:
        """Back unhurt, not crippled, not dead; it acts from the next round."""
        ctx = self._ctx(match)
        health = ctx.health(unit)
        health.grazes = health.wounds = 0
        health.crippled = health.dead = False
        ctx.turn(unit).done = True

    def turn_problem(self, match: Match, unit: int) -> str | None:
        ctx = self._ctx(match)
        game, name = ctx.game, ctx.name(unit)
        if game.phase != "action":
            return f"whose turn it is can change in a round's activations only (now: {game.phase})"
        if not ctx.fights(unit):
            return f"{name} is out of the fight: clear its crippling wound first"
        if unit not in game.order:
            return f"{name} has no place in this round's order: it acts from the next round"
        return None

    def give_turn(self, match: Match, unit: int) -> list[Event]:
        """``unit`` activates now, its round as it is (edit Moved and Action used to give it a fresh one);
        the unit that was acting has not finished and acts again later this round (Hexslinger's own)."""
        events: list[Event] = []
        ctx = self._ctx(match, events)
        game = ctx.game
        if game.active:
            ctx.emit(ActivationEnded(game.round, game.active))
        turn = ctx.turn(unit)
        turn.done = turn.biding = turn.waiting = False
        rounds.activate(ctx, unit)
        return events

    def settle(self, match: Match) -> list[Event]:
        events: list[Event] = []
        rounds.check_end(self._ctx(match, events))
        return events
