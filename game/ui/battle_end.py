"""The battle's end on the board, before the results screen (issue 13: "The battle's end is shown on the
board (the last check, who fled, who won) before the results screen").

When a command ends the battle, the board stays up with a panel over the map: who won (or that it is a
draw) and why in the ruleset's words (``Outcome.reason``), the last checks made and each unit that fled or
went out with it (the combat log's own lines for those events), and a mark on the board where each of
those units stood. The player looks (the camera still pans and zooms) and moves on to the results with a
click on the map, Enter or Space. :func:`end_show` is the words, without pygame;
:func:`game.ui.end_board.draw_end` draws them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from game.engine.match import Match
from game.events import FLED, Event, Note, Roll, StatusChanged, UnitRemoved
from game.hexgrid import Hex
from game.ui.combatlog import describe

__all__ = ["CONTINUE_HINT", "EndShow", "end_show"]

CONTINUE_HINT = "Click the map, Enter or Space for the results"
LINES_SHOWN = 8


@dataclass(frozen=True, slots=True)
class EndShow:
    """What the board shows at the end: the headline, the reason, the last happenings and the marks."""

    title: str
    reason: str
    lines: tuple[str, ...]
    marks: tuple[tuple[Hex, str], ...]  # where a unit that left at the end stood, and how it left


def _ending_events(match: Match, events: Sequence[Event]) -> list[Event]:
    """The events of the command that ended the battle; for a battle loaded already over, the history's
    last ones."""
    return list(events) if events else list(match.history[-3 * LINES_SHOWN :])


def end_show(
    match: Match,
    events: Sequence[Event],
    side_names: Mapping[str, str],
    stood: Mapping[int, Hex | None],
) -> EndShow:
    """The end as the board shows it (``stood``: where each unit was before the last command)."""
    outcome = match.outcome()
    winner = outcome.winner if outcome is not None else None
    title = f"Victory for {side_names.get(winner, winner)}" if winner is not None else "A draw"
    reason = outcome.reason if outcome is not None else ""
    lines: list[str] = []
    marks: list[tuple[Hex, str]] = []
    for e in _ending_events(match, events):
        if isinstance(e, Roll | UnitRemoved | StatusChanged | Note):
            line = describe(match, e)
            if line is not None and line.text not in lines:
                lines.append(line.text)
        if isinstance(e, UnitRemoved):
            where = stood.get(e.unit) or match.position(e.unit)
            if where is not None:
                marks.append((where, FLED if e.reason == FLED else "out"))
    return EndShow(title, reason, tuple(lines[-LINES_SHOWN:]), tuple(marks))
