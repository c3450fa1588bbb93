"""A battle being played in the window, without pygame: the match, whose decision it is, undo, autosave and
hand-over between hotseat players (the results screen's numbers are :mod:`game.stats`).

The UI knows no rule: it reads ``legal_actions`` (what is allowed, its cost, why not), ``preview`` (the
odds) and the events. This module is that reading in one place, so the screens stay drawing code and the
whole flow is testable headless.

Undo (issue 5: "Undo of the last move that rolled no dice and revealed nothing"): a command may be taken
back when it revealed nothing — the engine's one rule for every ruleset, ``Match.undo_refusal`` ("can't
undo: a card was drawn") — it was the current player's own command, and the match is not over. Before
each command the session keeps a copy of the match (``Match.clone``, well under a millisecond); taking
back drops back to that copy, which is exactly the match that never had the command. Copies are kept
only as far back as an undo could reach: a command that rolled or settled something drops the older ones.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from game.commands import Command
from game.engine.gm import GM_MAP, is_gm
from game.engine.match import IllegalCommandError, Match
from game.engine.protocol import LegalAction, Outcome
from game.events import ActivationEnded, ActivationStarted, DamageTaken, Event, UnitRemoved
from game.journal import Journal, journal_path
from game.save import load_match, save_match
from game.ui.seats import HUMAN, SeatError, is_ai, normalize, seat_label

__all__ = ["AUTOSAVE_KEEP", "BattleSession", "latest_autosave"]

AUTOSAVE_KEEP = 5  # autosave files kept (one per battle, newest first)
AUTOSAVE_GLOB = "autosave-*.json"
GM_SIDE = "GM"  # who made a game master's edit (game.engine.gm): no side, no hand-over


def autosave_time(path: Path) -> float:
    """When an autosave was last written: its own time or its journal's, the later (0 if it is gone)."""
    times = []
    for file in (path, journal_path(path)):
        try:
            times.append(file.stat().st_mtime)
        except OSError:
            continue
    return max(times, default=0.0)


def latest_autosave(directory: Path) -> Path | None:
    """The newest autosave in ``directory`` ("Continue" on the title screen), or None."""
    if not directory.is_dir():
        return None
    found = sorted(directory.glob(AUTOSAVE_GLOB), key=lambda p: (autosave_time(p), p.name), reverse=True)
    return found[0] if found else None


@dataclass(slots=True)
class _Done:
    command: Command
    side: str
    rolled: str  # what it revealed, in the engine's words ("can't undo: a die was rolled"), "" nothing
    settled: str = ""  # why the command stands whatever the dice did ("" = nothing settled)
    before: Match | None = None  # the match as it was before the command (kept while it may be undone)


@dataclass(slots=True)
class BattleSession:
    """One battle in the window. ``seats`` maps a side to who plays it: "human", or a computer player by
    its controller name ("ai:normal"; "ai" alone is the normal AI) — see :mod:`game.ui.seats`."""

    match: Match
    autosave_dir: Path | None = None
    battle_id: str = ""
    seats: dict[str, str] = field(default_factory=dict)
    on_autosave_error: Callable[[str], None] | None = None
    _done: list[_Done] = field(default_factory=list)
    _legal: list[LegalAction] | None = None
    last_side: str = ""  # the side that made the last decision (hand-over detection)
    autosave_problem: str = ""
    seat_notes: list[str] = field(default_factory=list)  # seats that could not be kept, and why
    # the autosave: its journal (None until the save is first written whole), the commands it holds and
    # the seats it last recorded (game.journal)
    _journal: Journal | None = None
    _journaled: list[Command] = field(default_factory=list)
    _journal_seats: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.battle_id:
            self.battle_id = time.strftime("%Y%m%d-%H%M%S") + f"-{self.match.seed}"
        for posse in self.match.posses:
            self.seats.setdefault(posse.side, posse.controller)
        for side, seat in list(self.seats.items()):
            try:
                self.seats[side] = normalize(seat)
            except SeatError as error:
                # a profile this version lacks (a save from another install): a human plays the side
                self.seats[side] = HUMAN
                self.seat_notes.append(f"{self.side_name(side)} is played by a human here: {error}")

    def side_name(self, side: str) -> str:
        posse = next((p for p in self.match.posses if p.side == side), None)
        return posse.name if posse is not None and posse.name else side

    # -- seats ----------------------------------------------------------------------------------------
    def is_ai(self, side: str | None) -> bool:
        """Whether the computer plays ``side``."""
        return side is not None and is_ai(self.seats.get(side, HUMAN))

    def ai_deciding(self) -> bool:
        """Whether the decision waiting now is a computer player's."""
        return self.outcome is None and self.is_ai(self.deciding_side())

    def spectating(self) -> bool:
        """Every side is played by the computer: the battle plays itself and the window watches."""
        return bool(self.seats) and all(is_ai(seat) for seat in self.seats.values())

    def seat_label(self, side: str) -> str:
        return seat_label(self.seats.get(side, HUMAN))

    def hand_to_human(self, side: str) -> None:
        """A human takes over ``side`` (its computer player failed, or a spectator takes the seat); the
        autosave records the seat. What the computer player did stands (no undo of it)."""
        self.seats[side] = HUMAN
        for done in self._done:
            done.before = None
        if self._done and not self._done[-1].settled:
            self._done[-1].settled = "the computer player's moves stand"
        self.autosave()

    # -- reading ------------------------------------------------------------------------------------
    def legal(self) -> list[LegalAction]:
        """The legal actions now (computed once per state)."""
        if self._legal is None:
            self._legal = self.match.legal_actions()
        return self._legal

    def deciding_side(self) -> str | None:
        """The side whose decision it is (a reaction window may belong to the side not on turn)."""
        legal = self.legal()
        return legal[0].side if legal else None

    def actors(self) -> list[int]:
        """Units with something to decide now, in the order the ruleset listed them."""
        return list(dict.fromkeys(a.actor for a in self.legal()))

    def actions_for(self, unit: int) -> list[LegalAction]:
        return [a for a in self.legal() if a.actor == unit]

    def public_decision(self) -> bool:
        """The decision waiting now has nothing hidden and no plan to see (``LegalAction.public``: a card
        drawn face up for a unit): whoever is at the screen may make it, no cover before it."""
        enabled = [a for a in self.legal() if a.enabled]
        return bool(enabled) and all(a.public for a in enabled)

    def needs_handover(self) -> bool:
        """True when the next decision is another human player's than the last one that could show a
        plan (hotseat: hide the board until they take the seat); never before a public decision (a card
        drawn face up), and public decisions do not count as the last one."""
        side = self.deciding_side()
        if side is None or not self.last_side or side == self.last_side or self.public_decision():
            return False
        return self.seats.get(side, "human") == "human" and self.seats.get(self.last_side) == "human"

    @property
    def outcome(self) -> Outcome | None:
        return self.match.outcome()

    # -- acting -------------------------------------------------------------------------------------
    def apply(self, command: Command) -> list[Event]:
        """Apply a command (IllegalCommandError if it is not allowed: nothing changes), then autosave."""
        gm_edit = is_gm(command)
        side = GM_SIDE if gm_edit else (self.deciding_side() or command.side)
        public = gm_edit or self.public_decision()
        snapshot = self.match.clone()
        events = self.match.apply(command)
        self._legal = None
        rolled = self.match.undo_refusal() or ""
        settled = "" if gm_edit else self._settled(side, events)
        if command.action == GM_MAP:
            # the map on disk has changed: the battle cannot go back to a board no file holds any more, and
            # the autosave is written whole, with the board the battle started on (game.save)
            settled = "the map was reloaded from disk: that stands"
            self._journal = None
        done = _Done(command, side, rolled, settled, snapshot)
        if done.rolled or done.settled:
            for older in self._done:  # nothing before a command that stands can be taken back
                older.before = None
            done.before = None
        self._done.append(done)
        if not public:  # a public draw shows no plan: the cover is for the last side that could
            self.last_side = side
        self.autosave()
        return events

    def _settled(self, side: str, events: list[Event]) -> str:
        """What makes a command stand even though it rolled nothing: it dealt damage or took a unit out,
        it ended the turn (another unit's turn began), or it handed the decision to the other player."""
        if any(isinstance(e, DamageTaken) and e.amount for e in events) or any(
            isinstance(e, UnitRemoved) for e in events
        ):
            return "the last action dealt damage: it stands"
        if any(isinstance(e, ActivationStarted | ActivationEnded) for e in events):
            return "the turn has moved on: it stands"
        now = self.deciding_side()
        if now is not None and now != side:
            return "the other player has been asked: it stands"
        return ""

    def try_apply(self, command: Command) -> tuple[list[Event], str | None]:
        """Apply, or give the reason it is not allowed (the UI shows it; nothing changes)."""
        try:
            return self.apply(command), None
        except IllegalCommandError as error:
            return [], error.reason

    def undo_problem(self) -> str | None:
        """Why the last command cannot be taken back now, or None."""
        if not self._done or not self.match.log:
            return "nothing to undo"
        last = self._done[-1]
        if self.match.is_over:
            return "the battle is over"
        if last.side == GM_SIDE:  # a game master's edit: taken back whoever decides now
            return (
                last.rolled or last.settled or (None if last.before is not None else "the last action stands")
            )
        if self.is_ai(last.side) or self.ai_deciding():
            return "the computer player's moves stand"
        if last.rolled:
            return last.rolled
        if last.settled:
            return last.settled
        if last.side != self.deciding_side():
            return "the last action was the other player's"
        if last.before is None:
            return "the last action stands"
        return None

    def undo(self) -> Command:
        """Take the last command back (see the module text); returns it. ValueError if not allowed."""
        problem = self.undo_problem()
        if problem is not None:
            raise ValueError(problem)
        undone = self._done.pop()
        assert undone.before is not None
        self.match = undone.before
        self._legal = None
        # the player who took the move back decides again: no hand-over for them
        if undone.side != GM_SIDE:
            self.last_side = undone.side
        undone_command = undone.command
        self.autosave()
        return undone_command

    # -- saving -------------------------------------------------------------------------------------
    def autosave_path(self) -> Path | None:
        if self.autosave_dir is None:
            return None
        return self.autosave_dir / f"autosave-{self.battle_id}.json"

    def autosave(self) -> None:
        """Save after every command (so "continue" after a crash resumes where the game was); keep the
        newest AUTOSAVE_KEEP battles. A failure is reported once through ``on_autosave_error``, never
        raised: the game goes on."""
        path = self.autosave_path()
        if path is None or self.match.map_path is None:
            return
        try:
            if self._journal is None or not self._append_to_journal(self._journal):
                self._write_whole(path)
            self.autosave_problem = ""
        except OSError as error:
            message = f"autosave failed ({error.strerror or error}): save by hand with a name"
            if message != self.autosave_problem and self.on_autosave_error is not None:
                self.on_autosave_error(message)
            self.autosave_problem = message

    def _write_whole(self, path: Path) -> None:
        """The autosave written whole (atomically, with its digest) and a new journal begun beside it; the
        oldest battles' autosaves beyond AUTOSAVE_KEEP deleted with their journals."""
        self._journal = None
        sha = save_match(self.match, path, name=f"Autosave {self.battle_id}", seats=self.seats)
        self._journal = Journal(path, sha, len(self.match.log))
        self._journaled = list(self.match.log)
        self._journal_seats = dict(self.seats)
        assert self.autosave_dir is not None
        old = sorted(self.autosave_dir.glob(AUTOSAVE_GLOB), key=autosave_time, reverse=True)
        for stale in old[AUTOSAVE_KEEP:]:
            stale.unlink(missing_ok=True)
            journal_path(stale).unlink(missing_ok=True)
            journal_path(stale).with_suffix(".journal.damaged").unlink(missing_ok=True)

    def _append_to_journal(self, journal: Journal) -> bool:
        """What changed since the last autosave as journal lines, in one append: the log cut back to
        where it still agrees (an undo), the commands after that, the seats if they changed. The same
        cost at any length of game (issue 13). False when the journal lost track (write it whole)."""
        log, done = self.match.log, self._journaled
        if journal.count != len(done):
            return False
        keep = min(len(log), len(done))
        while keep and log[keep - 1] is not done[keep - 1]:
            keep -= 1
        lines = []
        if keep < len(done):
            lines.append(journal.cut(keep))
            del done[keep:]
        reached = self.match.history[-1].round if self.match.history else 0
        for cmd in log[keep:]:
            digest = self.match.digest() if cmd is log[-1] and journal.wants_digest() else None
            lines.append(journal.command(cmd, reached, self.match.is_over, digest))
            done.append(cmd)
        if self.seats != self._journal_seats:
            lines.append(journal.seats(self.seats))
            self._journal_seats = dict(self.seats)
        if lines:
            journal.append(lines)
        return True

    def save(self, path: Path, name: str = "") -> str | None:
        """Save under a name; the reason if it could not be written (nothing lost either way)."""
        try:
            save_match(self.match, path, name=name, seats=self.seats)
        except OSError as error:
            return f"could not write {path}: {error.strerror or error}"
        return None

    @classmethod
    def load(cls, path: Path, autosave_dir: Path | None = None) -> BattleSession:
        """A saved battle, replayed and checked against its digest (SaveError says what is wrong), with the
        seats it was saved with (an older save's: every side a human's)."""
        match, data = load_match(path)
        session = cls(match, autosave_dir, seats=dict(data.seats))
        stem = path.stem
        if stem.startswith("autosave-"):
            session.battle_id = stem.removeprefix("autosave-")  # continue the same autosave file
        if data.journal_note:
            session.seat_notes.append(data.journal_note[:1].upper() + data.journal_note[1:])
            damaged = journal_path(path)
            with contextlib.suppress(OSError):  # kept: the autosave written whole below starts a new journal
                damaged.replace(damaged.with_name(damaged.name + ".damaged"))
        if session.autosave_path() == path:
            session.autosave()  # written whole now: its next commands are appended to a new journal
        return session

    def turn_started(self, events: list[Event]) -> int | None:
        """The unit whose turn an ``apply`` started, if any (the UI centres the camera on it)."""
        for e in reversed(events):
            if isinstance(e, ActivationStarted):
                return e.unit
        return None
