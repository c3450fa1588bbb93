"""What the battle's events leave on screen for a while, without pygame: the combat log's lines, the dice of
the last roll, the damage floating up from a token, and the sound each event makes.

The battle controller hands every event it gets from the session to :class:`BattleFeed`; the screen draws
what is here and ages it each frame (:meth:`BattleFeed.advance`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from game.events import CardDealt, DamageTaken, Event, Moved, Roll
from game.hexgrid import Hex
from game.ui.combatlog import LogLine, describe, walk_words
from game.ui.session import BattleSession

__all__ = ["DICE_SECONDS", "FLOAT_SECONDS", "LOG_KEEP", "BattleFeed", "DiceShow", "Floater"]

DICE_SECONDS = 1.1  # a roll stays on screen this long at animation speed 1
FLOAT_SECONDS = 1.4
LOG_KEEP = 300


@dataclass(slots=True)
class Floater:
    """A number floating up from a tile (damage taken), ``age`` seconds old."""

    hex: Hex
    text: str
    age: float = 0.0


@dataclass(slots=True)
class DiceShow:
    """The dice of a roll shown over the map, ``age`` seconds old."""

    roll: Roll
    name: str
    age: float = 0.0


class BattleFeed:
    """The log, the dice shown and the floaters of one battle (see the module text). ``play`` plays a
    sound effect by name."""

    def __init__(self, session: BattleSession, play: Callable[[str], None] | None = None) -> None:
        self.session = session
        self.play = play or (lambda _name: None)
        self.log: list[LogLine] = []
        self.floaters: list[Floater] = []
        self.dice: DiceShow | None = None
        self._last_move: tuple[int, int, int, LogLine] | None = None

    @property
    def busy(self) -> bool:
        """A roll or a floating number is still being shown."""
        return self.dice is not None or bool(self.floaters)

    def note(self, text: str) -> None:
        """A line of the screen's own in the log ("X can only pass", "Undone: move")."""
        self.log.append(LogLine(0, "note", text))

    def decision(self, text: str, detail: str) -> None:
        """A computer player's decision in its own words, with why (its score breakdown) as the detail."""
        rnd = self.session.match.history[-1].round if self.session.match.history else 0
        self.log.append(LogLine(rnd, "ai", text, detail))
        del self.log[:-LOG_KEEP]

    def take(self, events: list[Event]) -> None:
        """The events of a command just applied: logged, shown and heard."""
        for e in events:
            self.log_event(e)
            self.animate(e)

    def log_event(self, e: Event) -> None:
        match = self.session.match
        line = describe(match, e)
        if line is None:
            return
        if isinstance(e, Moved):
            # a walk arrives step by step: one line per walk ("moves 2 hexes"), not per step
            steps, cost = max(0, len(e.path) - 1), e.cost
            last = self._last_move
            if (
                steps
                and last is not None
                and last[1]
                and last[0] == e.unit
                and self.log
                and self.log[-1] is last[3]
            ):
                steps += last[1]
                cost += last[2]
                name = match.identity(e.unit).name
                line = LogLine(e.round, "move", f"{name} {walk_words(steps, cost)}")
                self.log[-1] = line
                self._last_move = (e.unit, steps, cost, line)
                return
            self._last_move = (e.unit, steps, cost, line)
        self.log.append(line)
        del self.log[:-LOG_KEEP]

    def animate(self, e: Event) -> None:
        match = self.session.match
        if isinstance(e, Roll) and e.is_attack:  # an attack's dice are shown over the map
            self.dice = DiceShow(e, match.identity(e.unit).name)
            self.play("hit" if e.purpose == "melee" else "gunshot")
        elif isinstance(e, Roll):
            self.play("dice")
        elif isinstance(e, DamageTaken):
            where = match.position(e.unit)
            if where is not None:
                self.floaters.append(Floater(where, f"-{e.amount}"))
            if e.amount:
                self.play("hit")
        elif isinstance(e, CardDealt):
            self.play("card")

    def advance(self, dt: float) -> None:
        """Age what is shown by ``dt`` seconds (already times the animation speed); drop what is done."""
        if self.dice is not None:
            self.dice.age += dt
            if self.dice.age > DICE_SECONDS:
                self.dice = None
        for f in self.floaters:
            f.age += dt
        self.floaters = [f for f in self.floaters if f.age < FLOAT_SECONDS]

    def skip(self) -> None:
        """Stop showing the roll and the floaters (a click or key while they play)."""
        self.dice = None
        self.floaters.clear()
