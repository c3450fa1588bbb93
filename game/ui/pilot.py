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
decides. The waits are in seconds at animation speed 1 (the caller passes ``dt`` times the speed), times
the pilot's own pace (:attr:`AiPilot.pace`, one of ``PACES``: a spectator's slower or faster). A paused
pilot (:attr:`AiPilot.paused`, a spectator's pause) takes no step at all.

A failure is never swallowed: a player that raises, returns something that is not a command, or a
command the rules refuse, is reported (:attr:`AiPilot.failures`, the screen shows it), its side passes to
a human (``BattleSession.hand_to_human``: the autosave, which holds every command applied so far, now
also says so) and nothing of the failed decision reaches the match.

A player draws from its own RNG seeded by the match's seed, its side and the side's decision index (the
number of that side's commands in the match's log), so a battle resumed from a save decides as the one
never interrupted would, and the window plays exactly like ``ai.runner.play`` with the same players.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ai.baselines import Player
from ai.controllers import ControllerError, make_player
from ai.decision import ATTACK, END, REPOSITION, TAKE_OUT, Decision
from game.battlefield import Battlefield, Cover
from game.commands import Command
from game.engine.match import Match
from game.hexgrid import Hex, hex_distance
from game.ui.battle_feed import BattleFeed
from game.ui.session import BattleSession

__all__ = [
    "PACES",
    "QUICK_SECONDS",
    "SHOW_SECONDS",
    "THINK_SECONDS",
    "AiFailure",
    "AiMove",
    "AiPilot",
    "PilotHost",
    "PlayerFactory",
    "decision_line",
    "explain",
    "place_words",
]

THINK_SECONDS = 0.3  # the thinking mark before a decision
SHOW_SECONDS = 0.7  # a move or an attack shown before it is made
QUICK_SECONDS = 0.12  # a decision that neither moves nor aims (a deployment, a card, a pass)
PACES = (0.25, 0.5, 1.0, 2.0, 4.0)  # a spectator's choice of pace, times the animation speed

RANKS = {
    TAKE_OUT: "take a unit out (or save one)",
    ATTACK: "attack or defend",
    REPOSITION: "reposition",
    END: "nothing better",
}

PlayerFactory = Callable[[str, int], Player]


@dataclass(frozen=True, slots=True)
class AiMove:
    """A computer player's decision, shown before it is made: the side, the command, its log line (the
    unit and the AI's words for it, :func:`decision_line`), the breakdown for the line's tooltip, and the
    match state it was decided on."""

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


DEPLOY_AT = re.compile(r"^deploy at (-?\d+),(-?\d+)$")
MOVE_TO = re.compile(r"^([A-Z][a-z]+) to (-?\d+),(-?\d+)")  # "Move to 3,4", "Sprint to 3,4": a walk


def place_words(bf: Battlefield, h: Hex, foes: list[Hex]) -> str:
    """Where a unit moves to, in words: onto cover ("to the crates"), behind or next to something that
    gives cover or blocks sight (behind: between it and the nearest foe), or into the open."""
    here = bf.terrain_at(h)
    if here.cover != Cover.NONE:
        return f"to the {here.name}"
    shelter = [n for n in bf.neighbors(h) if bf.terrain_at(n).cover != Cover.NONE or bf.blocks_sight(n)]
    if not shelter:
        return "into the open"
    if foes:
        nearest = min(foes, key=lambda f: hex_distance(h, f))
        between = [n for n in shelter if hex_distance(n, nearest) < hex_distance(h, nearest)]
        if between:
            return f"behind the {bf.terrain_at(between[0]).name}"
    return f"next to the {bf.terrain_at(shelter[0]).name}"


def decision_line(match: Match, side: str, command: Command, words: str, exposure: float | None) -> str:
    """A computer player's decision as its combat-log line: the unit, the AI's own words with a walk's
    destination said as a place ("Outlaw 2 moves behind the fence (6,4), then Rifle at Deputy: 50% to
    hit"; "heads" when this walk is the first leg of one planned for the turn), and the share of its
    health it expects to lose where it ends ("exposure after: 17%")."""
    who = match.identity(command.actor).name if command.actor else ""
    found = MOVE_TO.match(words)
    if found is not None and who and command.path:
        h = Hex(int(found[2]), int(found[3]))
        foes = [
            p
            for u in match.units()
            if match.identity(u).side != side and (p := match.position(u)) is not None
        ]
        try:
            place = place_words(match.battlefield, h, foes)
        except KeyError:  # not a hex of the map: the AI's words as they are
            place = f"to {found[2]},{found[3]}"
        # a walk planned for the whole turn goes its first leg now: it heads for the place
        verb = f"{found[1].lower()}s" if command.path[-1] == h else "heads"
        if verb == "heads" and place.startswith("to "):
            place = f"for {place.removeprefix('to ')}"
        line = f"{who} {verb} {place} ({found[2]},{found[3]}){words[found.end() :]}"
    elif (placed := DEPLOY_AT.match(words)) is not None and who and command.hex is not None:
        try:
            place = place_words(match.battlefield, command.hex, [])
        except KeyError:
            place = f"at {placed[1]},{placed[2]}"
        place = f"at {place.removeprefix('to ')}" if place.startswith("to ") else place.replace("into", "in")
        line = f"{who} deploys {place} ({placed[1]},{placed[2]})"
    else:
        line = f"{who}: {words}" if who else words
    if exposure is not None:
        line += f"; exposure after: {exposure:.0%}"
    return line


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
        self.pace = 1.0  # one of PACES
        self.paused = False  # a spectator's pause: no step at all until resumed
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

    def toggle_pause(self) -> None:
        """Pause the computer players, or let them go on."""
        self.paused = not self.paused

    def faster(self, steps: int = 1) -> None:
        """The next pace of ``PACES`` (``steps`` -1: the one before), kept within them."""
        here = min(range(len(PACES)), key=lambda i: abs(PACES[i] - self.pace))
        self.pace = PACES[max(0, min(len(PACES) - 1, here + steps))]

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
        if self.paused:
            return
        dt *= self.pace
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
            words = decision_line(match, side, command, decision.words, decision.exposure)
            detail = explain(decision)
        else:
            words = decision_line(match, side, command, command.action.replace("_", " "), None)
            detail = f"{seat}: {command}"
        quick = not (command.path or command.target is not None or command.targets)
        return AiMove(side, command, words, detail, self.controller.state_key(), quick)

    def _fail(self, failure: AiFailure) -> None:
        self.reset()
        self.failures.append(failure)
        self.unseen.append(failure)
        self.controller.ai_failed(failure)
