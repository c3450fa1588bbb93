"""The computer players of a battle in the window, without pygame: the AI seats decide on the main loop,
between frames, at a pace a person can follow.

Each frame the battle controller calls :meth:`AiPilot.tick`. While the decision waiting is a computer
player's (its turn, or a reaction window of its own on the human's turn), the pilot goes through three
steps, one a frame at most, so no frame does more than one decision's work:

1. *thinking*: the acting unit is selected and marked, the status line says the AI is thinking
   (``THINK_SECONDS``);
2. *deciding*: the player (:func:`ai.controllers.make_player`) decides on a copy of the match
   (``Match.clone``) through that side's public view; the command is checked with ``Match.validate``,
   and what it will do is shown — its words on the status line, its path or target on the map —
   (``SHOW_SECONDS``; ``QUICK_SECONDS`` for a decision that neither moves nor aims: a deployment, a card,
   a pass);
3. *acting*: its line goes into the combat log (the AI's own words, ``Decision.words``, with the score
   breakdown as the line's detail) and the command to the session like a player's (the dice and the
   damage are shown as for a player; the pilot waits for them).

A click or a key (:meth:`AiPilot.skip`) skips the waits and the dice until a new turn begins or a human
decides. The waits are in seconds at animation speed 1 (the caller passes ``dt`` times the speed).

A failure is never swallowed: a player that raises, returns something that is not a command, or a
command the rules refuse, is reported (:attr:`AiPilot.failures`, the screen shows it), its side passes to
a human (``BattleSession.hand_to_human``: the autosave, which holds every command applied so far, now
also says so) and nothing of the failed decision reaches the match.

A player draws from its own RNG seeded by the match's seed, its side and the side's decision index (the
number of that side's commands in the match's log), so a battle resumed from a save decides as the one
never interrupted would, and the window plays exactly like ``ai.runner.play`` with the same players.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ai.agent import ATTACK, END, REPOSITION, TAKE_OUT, Decision
from ai.baselines import Player
from ai.controllers import ControllerError, make_player
from game.commands import Command
from game.ui.battle_feed import BattleFeed
from game.ui.session import BattleSession

__all__ = [
    "QUICK_SECONDS",
    "SHOW_SECONDS",
    "THINK_SECONDS",
    "AiFailure",
    "AiMove",
    "AiPilot",
    "PilotHost",
    "PlayerFactory",
    "explain",
]

THINK_SECONDS = 0.3  # the thinking mark before a decision
SHOW_SECONDS = 0.7  # a move or an attack shown before it is made
QUICK_SECONDS = 0.12  # a decision that neither moves nor aims (a deployment, a card, a pass)

RANKS = {
    TAKE_OUT: "take a unit out (or save one)",
    ATTACK: "attack or defend",
    REPOSITION: "reposition",
    END: "nothing better",
}

PlayerFactory = Callable[[str, int], Player]


@dataclass(frozen=True, slots=True)
class AiMove:
    """A computer player's decision, shown before it is made: the side, the command, the AI's words for
    it, the breakdown for the log line's tooltip, and the match state it was decided on."""

    side: str
    command: Command
    words: str
    detail: str
    key: object
    quick: bool = False


@dataclass(frozen=True, slots=True)
class AiFailure:
    """A computer player that failed: its side, the seat it had, and why (in words a player reads)."""

    side: str
    seat: str
    reason: str


class PilotHost(Protocol):
    """What the pilot asks of the battle controller (game.ui.controller.BattleController)."""

    session: BattleSession
    feed: BattleFeed

    @property
    def covered(self) -> bool: ...

    def state_key(self) -> tuple[int, int]: ...

    def watch_ai(self, move: AiMove | None) -> None:
        """A computer player starts thinking (None) or shows ``move`` before making it."""

    def send_ai(self, move: AiMove) -> str | None:
        """Log ``move`` and hand its command to the session; the reason if it was refused."""

    def ai_failed(self, failure: AiFailure) -> None:
        """A computer player failed (its side is a human's now)."""


def explain(decision: Decision) -> str:
    """The score breakdown of ``decision`` in words (a log line's tooltip): each consideration with what
    it read and what it gave, the score and rank, and the runners-up."""
    lines = [f"Score {decision.score:.3f} ({RANKS.get(decision.rank, f'rank {decision.rank}')})"]
    for name, raw, score in decision.breakdown:
        lines.append(f"\u2022 {name}: {raw:.2f} \u2192 {score:.2f}")
    if decision.others:
        lines.append("Runners-up:")
        lines.extend(f"\u2022 {words} ({score:.3f})" for words, score in decision.others[:3])
    return "\n".join(lines)


class AiPilot:
    """The computer players of one battle (see the module text). ``make`` builds a player from a seat's
    controller name and a seed (tests put a broken one here)."""

    def __init__(self, controller: PilotHost, make: PlayerFactory = make_player) -> None:
        self.controller = controller
        self.make = make
        self.players: dict[tuple[str, str], Player] = {}
        self.thinking: str | None = None  # the side whose computer player is thinking now
        self.plan: AiMove | None = None  # a decision being shown before it is made
        self.last: AiMove | None = None  # the last decision made (the status line says it meanwhile)
        self.wait = 0.0
        self.hurry = False
        self.failures: list[AiFailure] = []  # every failure, in order
        self.unseen: list[AiFailure] = []  # those the screen has not shown yet
        self.decisions = 0

    @property
    def session(self) -> BattleSession:
        return self.controller.session

    @property
    def active(self) -> bool:
        """A computer player has the decision now."""
        return self.session.ai_deciding()

    def player(self, side: str) -> Player:
        """The player for ``side``'s seat (one per seat, kept: it remembers its last decision)."""
        seat = self.session.seats[side]
        found = self.players.get((side, seat))
        if found is None:
            found = self.players[(side, seat)] = self.make(seat, self.session.match.seed)
        return found

    def index(self, side: str) -> int:
        """The side's decision index: how many of the match's commands are that side's."""
        return sum(1 for c in self.session.match.log if c.side == side)

    # -- each frame ----------------------------------------------------------------------------------
    def skip(self) -> None:
        """A click or key while the computer plays: no more waiting, no more dice, until a new turn."""
        if self.active:
            self.hurry = True
            self.controller.feed.skip()

    def new_turn(self) -> None:
        """A unit's turn began: the pace is back to normal (a skip lasts one turn)."""
        self.hurry = False

    def reset(self) -> None:
        self.thinking = None
        self.plan = None
        self.wait = 0.0
        self.hurry = False

    def tick(self, dt: float) -> None:
        """One frame, ``dt`` seconds at animation speed 1: at most one step of a decision."""
        c = self.controller
        if not self.active or c.covered:
            self.reset()
            return
        if self.hurry:
            c.feed.skip()
        if c.feed.busy:  # the last roll and its damage are still being shown
            return
        if self.wait > 0 and not self.hurry:
            self.wait -= dt
            return
        self.wait = 0.0
        side = self.session.deciding_side()
        assert side is not None
        if self.plan is None and self.thinking is None:
            self.thinking = side
            self.wait = THINK_SECONDS
            c.watch_ai(None)
            return
        if self.plan is None:
            found = self._decide(side)
            if isinstance(found, AiFailure):
                self._fail(found)
                return
            self.plan = found
            self.wait = QUICK_SECONDS if found.quick else SHOW_SECONDS
            c.watch_ai(found)
            return
        plan, self.plan, self.thinking = self.plan, None, None
        if plan.key != c.state_key() or plan.side != side:
            return  # the match changed meanwhile: decide again
        self.last = plan
        refused = c.send_ai(plan)
        if refused is not None:
            self._fail(AiFailure(side, self.session.seats[side], f"the rules refused its command: {refused}"))

    # -- deciding --------------------------------------------------------------------------------------
    def _decide(self, side: str) -> AiMove | AiFailure:
        session = self.session
        seat = session.seats[side]
        match = session.match
        try:
            player = self.player(side)
        except ControllerError as error:
            return AiFailure(side, seat, str(error))
        copy = match.clone()  # the player's reading cannot reach the match being played
        try:
            command = player.decide(copy.view(side), self.index(side))
        except Exception as error:  # any failure of a computer player is shown, never swallowed
            return AiFailure(side, seat, f"its decision raised {type(error).__name__}: {error}")
        finally:
            copy.close()
        self.decisions += 1
        if not isinstance(command, Command):
            return AiFailure(side, seat, f"it decided {command!r}, which is not a command")
        reason = match.validate(command)
        if reason is not None:
            return AiFailure(side, seat, f"it chose a command the rules do not allow ({command}): {reason}")
        decision = getattr(player, "last", None)
        if isinstance(decision, Decision) and decision.command == command:
            words, detail = decision.words, explain(decision)
        else:
            words, detail = command.action.replace("_", " "), f"{seat}: {command}"
        quick = not (command.path or command.target is not None or command.targets)
        return AiMove(side, command, words, detail, self.controller.state_key(), quick)

    def _fail(self, failure: AiFailure) -> None:
        self.reset()
        self.failures.append(failure)
        self.unseen.append(failure)
        self.controller.ai_failed(failure)
