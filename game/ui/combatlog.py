"""The combat log: every event as a line a player reads, every roll with its target number and modifiers
(issue 5: "a combat log panel listing every roll with its target number and modifiers"). No pygame.

Lines carry a ``kind`` so the panel can mark them by shape and colour: "roll", "hit", "miss", "damage",
"status", "turn", "phase", "end", "note".
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from game.events import (
    ActionTaken,
    ActivationEnded,
    ActivationStarted,
    CardDealt,
    DamageTaken,
    Event,
    ItemTaken,
    MatchEnded,
    Moved,
    Note,
    PhaseStarted,
    Roll,
    StatusChanged,
    UnitRemoved,
)
from game.match import Match

__all__ = ["LogLine", "describe"]


@dataclass(frozen=True, slots=True)
class LogLine:
    round: int
    kind: str
    text: str


def _name(match: Match, unit: int | None) -> str:
    if unit is None or unit == 0:
        return "?"
    try:
        return match.identity(unit).name
    except KeyError:
        return f"#{unit}"


def _words(key: str) -> str:
    return key.replace("_", " ")


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else str(value)


def _roll_text(match: Match, e: Roll) -> tuple[str, str]:
    who = _name(match, e.unit)
    dice = ", ".join(str(d) for d in e.dice) or "-"
    mods = " ".join(f"{_signed(v)} {_words(n)}" for n, v in e.modifiers)
    against = f" at {_name(match, e.against)}" if e.against is not None else ""
    text = f"{who} rolls {_words(e.check)}{against}: [{dice}]"
    if mods:
        text += f" {mods}"
    if len(e.dice) != 1 or e.modifiers:
        text += f" = {e.total}"
    if e.target_number is not None:
        text += f" vs {e.target_number}+"
    if e.success is None:
        return "roll", text
    return ("hit", text + " \u2014 success") if e.success else ("miss", text + " \u2014 fails")


def describe(match: Match, e: Event) -> LogLine | None:
    """One log line for an event, or None for bookkeeping nobody needs to read."""
    rnd = e.round
    if isinstance(e, Roll):
        kind, text = _roll_text(match, e)
        return LogLine(rnd, kind, text)
    if isinstance(e, DamageTaken):
        by = f" from {_name(match, e.source)}" if e.source is not None else ""
        return LogLine(rnd, "damage", f"{_name(match, e.unit)} takes {e.amount}{by} ({e.remaining} left)")
    if isinstance(e, Moved):
        steps = max(0, len(e.path) - 1)
        if steps == 0:
            return LogLine(rnd, "move", f"{_name(match, e.unit)} takes the field")
        return LogLine(rnd, "move", f"{_name(match, e.unit)} moves {steps} hex{'es' if steps != 1 else ''}")
    if isinstance(e, ActivationStarted):
        return LogLine(rnd, "turn", f"\u25b6 {_name(match, e.unit)}'s turn ({e.action_points} AP)")
    if isinstance(e, ActivationEnded):
        return None
    if isinstance(e, PhaseStarted):
        return LogLine(rnd, "phase", f"\u2014 Round {rnd}: {_words(e.phase)} \u2014")
    if isinstance(e, CardDealt):
        card = "the Joker" if e.joker else e.card
        return LogLine(rnd, "card", f"{_name(match, e.unit)} draws {card}")
    if isinstance(e, StatusChanged):
        change = "is now" if e.active else "is no longer"
        return LogLine(rnd, "status", f"{_name(match, e.unit)} {change} {_words(e.status)}")
    if isinstance(e, UnitRemoved):
        return LogLine(rnd, "status", f"{_name(match, e.unit)} leaves the fight ({_words(e.reason)})")
    if isinstance(e, ItemTaken):
        return LogLine(rnd, "note", f"{_name(match, e.unit)} takes the {e.item}")
    if isinstance(e, ActionTaken):
        target = f" \u2192 {_name(match, e.target)}" if e.target is not None else ""
        option = f" ({_words(e.option)})" if e.option and "," not in e.option else ""
        return LogLine(rnd, "action", f"{_name(match, e.unit)}: {_words(e.action)}{option}{target}")
    if isinstance(e, Note):
        who = f"{_name(match, e.unit)}: " if e.unit is not None else ""
        return LogLine(rnd, "note", f"{who}{e.rule}")
    if isinstance(e, MatchEnded):
        winner = e.winner or "nobody"
        return LogLine(rnd, "end", f"The fight is over \u2014 {winner} wins: {e.reason}")
    extra = getattr(e, "factors", None)
    unit = getattr(e, "unit", None)
    amount = getattr(e, "amount", None)
    if extra is not None and amount is not None:  # a ruleset's own stress event (Through the Rift)
        value = getattr(e, "value", amount)
        factors = " ".join(f"\u00d7{Fraction(f)} {_words(n)}" for n, f in extra)
        prevented = getattr(e, "prevented", "")
        tail = f" \u2014 {prevented}" if prevented else ""
        return LogLine(
            rnd, "damage", f"{_name(match, unit)}: hit of {value} {factors} \u2192 {amount} stress{tail}"
        )
    return None
