"""The battle screen's GM mode (issue 15, "Sandbox"), without pygame: what the game master has picked and
the edits it turns into commands.

While GM mode is on the battle is paused for the players (the computer players take no step) and a click
on the map is the GM's: with the **Move** tool a click on a token picks that unit and a click on a tile
moves the picked unit there (or puts a unit that is off the map back on it); **Remove** takes the clicked
unit off the map; **Door** opens or closes the clicked door; **Cover** changes the clicked tile's cover
(none -> half -> full -> none); **Turn** makes it the clicked unit's turn. The GM panel sets the picked
unit's values (health, AP, ammo, statuses: whatever the ruleset offers, ``Match.gm_fields``). Every edit
is a command sent through the battle's session, so it is logged, autosaved, undoable and refused with the
rules' reason like any command. Leaving GM mode hands the battle back to whoever sits at each side: the
panel's seat buttons switch a side between a player and the computer (``ai:normal``).

"What are the odds from here?" starts an :class:`ai.odds.OddsRun` on the position; a new edit (any change
of the match) cancels it, and the bar shows the odds it had reached as stale.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from ai.odds import Odds, OddsRun, warm
from game.battlefield import Cover
from game.commands import Command
from game.engine.gm import GM_DOOR, GM_PLACE, GM_REMOVE, GM_SET, GM_TURN, GmField
from game.engine.match import Match
from game.hexgrid import Hex
from game.ui.seats import HUMAN
from game.ui.session import BattleSession

__all__ = ["ODDS_GAMES", "TOOLS", "Sandbox"]

TOOLS = ("move", "remove", "door", "cover", "turn")
TOOL_LABELS = {"move": "Move", "remove": "Remove", "door": "Door", "cover": "Cover", "turn": "Turn"}
TOOL_HINTS = {
    "move": "Click a token to pick it, then a tile to move it there",
    "remove": "Click a token to take it off the map",
    "door": "Click a door to open or close it",
    "cover": "Click a tile to change its cover: none, half, full",
    "turn": "Click a token: it acts now",
}
ODDS_GAMES = 100  # continuations of "What are the odds from here?"
AI_SEAT = "ai:normal"


@dataclass(frozen=True, slots=True)
class OffMap:
    """A unit that is not on the map (taken off, out of the fight, not deployed): the panel lists them."""

    unit: int
    name: str
    why: str


class Sandbox:
    """GM mode of one battle screen. ``send`` hands a command to the screen's controller (it shows the
    refusal's reason, feeds the log); ``pause`` pauses or resumes the computer players."""

    def __init__(
        self,
        session: Callable[[], BattleSession],
        send: Callable[[Command], bool],
        pause: Callable[[bool], None],
        *,
        odds_workers: int | None = None,
    ) -> None:
        self._session = session
        self._send = send
        self._pause = pause
        self.on = False
        self.tool = "move"
        self.unit: int | None = None
        self.message = ""
        self.odds_workers = odds_workers
        self.odds_games = ODDS_GAMES
        self.run: OddsRun | None = None
        self._run_for: tuple[int, int] | None = None
        self.stale: Odds | None = None  # the tally of a run cancelled by a change (shown faded)

    @property
    def session(self) -> BattleSession:
        return self._session()

    @property
    def match(self) -> Match:
        return self.session.match

    def position_key(self) -> tuple[int, int]:
        """Changes whenever the position does (a command, an undo, a load)."""
        return (id(self.match), len(self.match.log))

    # -- on and off ---------------------------------------------------------------------------------
    def toggle(self) -> None:
        if self.on:
            self.leave()
        else:
            self.enter()

    def enter(self) -> None:
        self.on = True
        self.message = "the battle waits while you edit it"
        self._pause(True)
        warm(self.odds_workers)  # the odds' workers start now, not on the first question
        if self.unit is None:
            legal = self.session.legal()
            self.unit = legal[0].actor if legal and legal[0].actor else None

    def leave(self) -> None:
        """Hand the battle back: to each side's seat as the panel set it (a run of the odds stops: its
        workers would slow the game down)."""
        self.cancel_odds()
        self.on = False
        self.message = ""
        self._pause(False)

    # -- seats ----------------------------------------------------------------------------------------
    def seat_is_ai(self, side: str) -> bool:
        return self.session.is_ai(side)

    def switch_seat(self, side: str) -> None:
        """A side goes from a player to the computer (``ai:normal``) or back."""
        session = self.session
        session.seats[side] = HUMAN if session.is_ai(side) else AI_SEAT
        session.autosave()

    # -- picking and clicking --------------------------------------------------------------------------
    def set_tool(self, tool: str) -> None:
        if tool not in TOOLS:
            raise ValueError(f"no GM tool '{tool}' (tools: {', '.join(TOOLS)})")
        self.tool = tool
        self.message = TOOL_HINTS[tool]

    def pick(self, unit: int | None) -> None:
        self.unit = unit

    def click(self, h: Hex | None, pointed: int | None) -> bool:
        """A left click on the map in GM mode (``pointed``: the token under the pointer); True when it
        made an edit."""
        if h is None:
            return False
        if self.tool == "move":
            if pointed is not None and pointed != self.unit:
                self.pick(pointed)
                return False
            if self.unit is None:
                self.message = "Pick a unit first: click its token"
                return False
            return self.edit(Command(GM_PLACE, actor=self.unit, hex=h))
        if self.tool in ("remove", "turn"):
            unit = pointed if pointed is not None else self.match.occupied().get(h)
            if unit is None:
                self.message = "Click a unit's token"
                return False
            self.pick(unit)
            action = GM_REMOVE if self.tool == "remove" else GM_TURN
            return self.edit(Command(action, actor=unit))
        if self.tool == "door":
            door = self.match.battlefield.door_at(h)
            if door is None:
                self.message = f"There is no door at {h.q},{h.r}"
                return False
            return self.edit(Command(GM_DOOR, hex=h, number=int(not door.is_open)))
        cover = int(self.match.battlefield.terrain_at(h).cover)
        return self.edit(Command("gm_cover", hex=h, number=(cover + 1) % (int(Cover.FULL) + 1)))

    def fields(self) -> list[GmField]:
        """The picked unit's values a GM may set (none when no unit is picked)."""
        return [] if self.unit is None else self.match.gm_fields(self.unit)

    def set_field(self, key: str, value: int) -> bool:
        if self.unit is None:
            return False
        return self.edit(Command(GM_SET, actor=self.unit, option=key, number=value))

    def nudge(self, key: str, step: int) -> bool:
        """The picked unit's value ``key`` one ``step`` up or down (a flag: switched)."""
        field = next((f for f in self.fields() if f.key == key), None)
        if field is None:
            return False
        value = 1 - field.value if field.flag else field.value + step
        return self.set_field(key, value)

    def off_map(self) -> list[OffMap]:
        """The units not on the map, for the panel's "Place" list."""
        match = self.match
        found = []
        for unit in match.units(in_play=False):
            if match.position(unit) is not None and unit in match.units():
                continue
            view = match.unit_view(unit)
            found.append(OffMap(unit, view.name, view.out or "not on the map"))
        return found

    def edit(self, cmd: Command) -> bool:
        """Send a GM edit; the refusal's reason is the GM's message."""
        if not self.on:
            return False
        if self._send(cmd):
            self.message = ""
            return True
        return False

    # -- the odds -------------------------------------------------------------------------------------
    def start_odds(self, games: int | None = None, seed: int | None = None) -> None:
        """Start "What are the odds from here?" on the position as it is now."""
        self.cancel_odds()
        self.stale = None
        if self.match.is_over:
            self.message = "The battle is over: there are no odds left to work out"
            return
        count = games if games is not None else self.odds_games
        self.run = OddsRun(
            self.match, count, seed if seed is not None else secrets.randbits(32), workers=self.odds_workers
        )
        self._run_for = self.position_key()

    def cancel_odds(self) -> None:
        if self.run is not None:
            self.stale = self.run.poll()
            self.run.cancel()
        self.run = None
        self._run_for = None

    def odds(self) -> Odds | None:
        """The running (or finished) run's tally; a run whose position changed is cancelled first."""
        if self.run is not None and self._run_for != self.position_key():
            self.cancel_odds()
        return self.run.poll() if self.run is not None else None

    def sides(self) -> list[str]:
        return [p.side for p in self.match.posses]
