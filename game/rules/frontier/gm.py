"""What Frontier adds to the engine's game-master edits (game.engine.gm, docs/GM.md "Sandbox"): a unit's
Toughness, Wounds, AP, ammo and statuses, a unit brought back, whose activation it is. Hexslinger's own:
the rulebook has no game master."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.engine.gm import GmField
from game.engine.order import alternating_draws
from game.events import ActivationStarted, Event, StatusChanged
from game.rules.frontier import rounds
from game.rules.frontier import state as st
from game.rules.frontier.components import Weapon
from game.rules.frontier.context import FrontierCtx
from game.rules.frontier.data import FrontierData

if TYPE_CHECKING:
    from game.engine.match import Match

__all__ = ["FrontierGm"]

MAX_AP = 9
_FLAGS = (("prone", "Prone"), ("taking_cover", "Taking cover"), ("wounded", "Wounded"))


class FrontierGm:
    """The ``gm`` hook of :class:`~game.rules.frontier.ruleset.FrontierRuleset`."""

    stacking = False

    def __init__(self, data: FrontierData) -> None:
        self.data = data

    def _ctx(self, match: Match, events: list[Event] | None = None) -> FrontierCtx:
        return FrontierCtx(match, self.data, events)

    def busy(self, match: Match) -> str | None:
        if self._ctx(match).game.stack:
            return "a move or attack is still being resolved: wait until it is over"
        return None

    def fields(self, match: Match, unit: int) -> list[GmField]:
        ctx = self._ctx(match)
        stats = ctx.stats(unit)
        hp, status = st.health(unit), st.status(unit)
        out = [
            GmField("toughness", "Toughness", hp.toughness, 0, stats.toughness),
            GmField("wounds", "Wounds", hp.wounds, 0, stats.wounds),
            GmField("ap", "AP", st.ap(unit).current, 0, MAX_AP),
        ]
        weapon = ctx.weapon(unit)
        carried = st.comp(unit, Weapon)
        if weapon.ammo is not None and carried.ammo is not None:
            out.append(GmField("ammo", f"Ammo ({weapon.name})", carried.ammo, 0, weapon.ammo))
        out += [GmField(key, label, int(getattr(status, key)), 0, 1, flag=True) for key, label in _FLAGS]
        return out

    def set_field(self, match: Match, unit: int, key: str, value: int) -> list[Event]:
        events: list[Event] = []
        ctx = self._ctx(match, events)
        hp, status = st.health(unit), st.status(unit)
        if key == "toughness":
            hp.toughness = value
        elif key == "wounds":
            hp.wounds = value
            # "When a Unit is reduced to 0 Wounds, they are considered Seriously Injured and fall Prone."
            if value == 0 and not status.seriously_injured:
                status.seriously_injured = status.prone = True
                status.taking_cover = False
                act = st.activation(unit)
                act.card, act.card_name = None, ""
                ctx.emit(StatusChanged(ctx.round, unit, "seriously_injured", True))
            elif value > 0 and status.seriously_injured:
                status.seriously_injured = False
                ctx.emit(StatusChanged(ctx.round, unit, "seriously_injured", False))
        elif key == "ap":
            st.ap(unit).current = value
        elif key == "ammo":
            st.comp(unit, Weapon).ammo = value
        else:
            setattr(status, key, bool(value))
        return events

    def revive_problem(self, match: Match, unit: int) -> str | None:
        return None

    def revive(self, match: Match, unit: int) -> None:
        """Back with full Toughness and Wounds, no status; no initiative card until the next round."""
        stats = self._ctx(match).stats(unit)
        hp = st.health(unit)
        hp.toughness, hp.wounds, hp.temporary = stats.toughness, stats.wounds, 0
        status = st.status(unit)
        status.prone = status.wounded = status.seriously_injured = status.taking_cover = False
        act = st.activation(unit)
        act.card, act.card_name, act.activated = None, "", True

    def turn_problem(self, match: Match, unit: int) -> str | None:
        game = self._ctx(match).game
        name = st.name_of(unit)
        if game.phase != "action":
            return f"whose turn it is can change in the Action phase only (now: {game.phase})"
        if not st.able(unit):
            return f"{name} is seriously injured and takes no turns: set its Wounds above 0 first"
        if st.activation(unit).card is None or unit not in game.order:
            return f"{name} drew no initiative card this round: it can act from the next round"
        return None

    def give_turn(self, match: Match, unit: int) -> list[Event]:
        """``unit`` takes the current place in this round's order and activates now, with the AP it has;
        the unit that was acting keeps its place right after it (Hexslinger's own)."""
        events: list[Event] = []
        ctx = self._ctx(match, events)
        game = ctx.game
        here = max(game.turn, 0)
        order = [u for u in game.order if u != unit]
        here = min(here, len(order))
        order.insert(here, unit)
        game.order, game.turn, game.active = order, here, unit
        act = st.activation(unit)
        act.activated = False
        act.basic_used, act.aimed, act.disengaged, act.attacked = [], False, False, []
        ctx.emit(ActivationStarted(game.round, unit, st.ap(unit).current))
        return events

    def settle(self, match: Match) -> list[Event]:
        """The end check; and the round kept going after an edit changed who fights: the cards still to
        draw dealt again over the units that may draw (a unit taken off or put back), the Joker's place
        skipped when its holder left, the activation of a unit no longer able to act ended."""
        events: list[Event] = []
        ctx = self._ctx(match, events)
        game = ctx.game
        if game.phase in ("deployment", "over"):
            return events
        rounds.check_end(ctx)
        if game.phase == "initiative":
            left = {p.side: len(rounds.drawable(ctx, p.side)) for p in match.posses}
            game.draw_order = game.draw_order[: game.draws_made] + alternating_draws(left, game.deploy_order)
            if game.draws_made >= len(game.draw_order):
                rounds.after_draws(ctx)
        elif game.phase == "joker" and rounds.joker_holder(ctx) is None:
            rounds.after_draws(ctx)
        elif game.phase == "action" and game.active and not st.able(game.active):
            rounds.end_activation(ctx)
        if game.phase != "over":
            rounds.check_end(ctx)
        return events
