"""The combat log: every event as a line a player reads, every roll with its target number and modifiers
(issue 5: "a combat log panel listing every roll with its target number and modifiers"). No pygame.

Lines carry a ``kind`` so the panel can mark them by shape and colour: "roll", "hit", "miss", "damage",
"status", "turn", "phase", "end", "note".

The log knows no ruleset: the engine's events (:mod:`game.events`) have generic lines, and the ruleset
words its own events and whatever its plain line would not say well (``Match.describe``: Rift's stress
with its multipliers, the hits assigned, the Joker's place).

A line never shows an id: units by name (with their posse's name when a unit of another side has the same
name: "Cunning (Ranch Hands)"), sides by posse name, weapons and items by the name the ruleset prints
(``Match.printed_name``), else the id in words ("sullivan_870_hmg" -> "Sullivan 870 HMG" from the data,
"fence" -> "Fence").
One happening gives one line: a status that only restates the action just taken ("Hold Fire", "Down the
Sights") or the removal that follows it ("fled", "out of action"), and an action whose only effect is the
actor leaving the fight (Flee), are left to the neighbouring line. Every line has text: a ``LogLine`` is
never blank.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

from game.engine.match import Match
from game.events import (
    FLED,
    ActionTaken,
    ActivationEnded,
    ActivationStarted,
    CardDealt,
    DamageTaken,
    Event,
    GmEdit,
    ItemTaken,
    MatchEnded,
    Moved,
    Note,
    PhaseStarted,
    Roll,
    StatusChanged,
    UnitRemoved,
    chain_words,
)

__all__ = ["LogLine", "describe", "side_name", "unit_name", "walk_words"]


@dataclass(frozen=True, slots=True)
class LogLine:
    """A line of the log; ``detail`` is more about it shown on demand (the tooltip of a computer player's
    line: its score breakdown)."""

    round: int
    kind: str
    text: str
    detail: str = ""


@dataclass(slots=True)
class _Context:
    """What the log reads of a match besides the event: each unit's name as written and where each event
    of the history stands (its neighbours say whether a line would repeat another). Rebuilt when the
    history changes."""

    size: int
    last: Event | None
    names: dict[int, str] = field(default_factory=dict)
    sides: dict[str, str] = field(default_factory=dict)
    at: dict[int, int] = field(default_factory=dict)  # id(event) -> its index in the history


_CONTEXTS: weakref.WeakKeyDictionary[Match, _Context] = weakref.WeakKeyDictionary()


def _context(match: Match) -> _Context:
    history = match.history
    last = history[-1] if history else None
    ctx = _CONTEXTS.get(match)
    if ctx is not None and ctx.size == len(history) and ctx.last is last:
        return ctx
    ctx = _Context(len(history), last)
    ctx.at = {id(e): i for i, e in enumerate(history)}
    bf = match.battlefield
    posse_names = [p.name for p in match.posses]
    unique = all(posse_names) and len(set(posse_names)) == len(posse_names)
    ctx.sides = {p.side: p.name or bf.side_name(p.side) for p in match.posses}
    if len(set(ctx.sides.values())) < len(ctx.sides):
        ctx.sides = {side: f"{name} ({bf.side_name(side)})" for side, name in ctx.sides.items()}
    sides_of: dict[str, set[str]] = {}
    idents = {u: match.identity(u) for u in match.units(in_play=False)}
    for ident in idents.values():
        sides_of.setdefault(ident.name.casefold(), set()).add(ident.side)
    for u, ident in idents.items():
        if len(sides_of[ident.name.casefold()]) < 2:
            ctx.names[u] = ident.name
            continue
        posse = next((p.name for p in match.posses if p.side == ident.side), "")
        ctx.names[u] = f"{ident.name} ({posse if unique and posse else bf.side_name(ident.side)})"
    _CONTEXTS[match] = ctx
    return ctx


def unit_name(match: Match, unit: int | None) -> str:
    """A unit's name as the log writes it: qualified by its posse's name when a unit of another side has
    the same name ("Cunning (Ranch Hands)"), else plain ("Cunning")."""
    if unit is None or unit == 0:
        return "?"
    name = _context(match).names.get(unit)
    if name is not None:
        return name
    try:
        return match.identity(unit).name
    except KeyError:
        return f"#{unit}"


def side_name(match: Match, side: str) -> str:
    """A side as players call it: its posse's name (with the map's side name when both posses share one)."""
    return _context(match).sides.get(side) or match.battlefield.side_name(side)


_name = unit_name


def _words(key: str) -> str:
    return key.replace("_", " ")


def _printed(match: Match, key: str) -> str:
    """A weapon or item as printed: its name in the ruleset's data when the key is an id there, else the
    key itself if it already reads as a name ("Smelling Salts"), else the id in capitalised words."""
    name = match.printed_name(key)
    if name is not None:
        return name
    if "_" not in key and key != key.lower():
        return key
    return " ".join(w[:1].upper() + w[1:] for w in key.split("_") if w)


def _letters(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else str(value)


def _roll_text(match: Match, e: Roll) -> tuple[str, str]:
    who = _name(match, e.unit)
    shown = e.shown()
    dice = ", ".join(chain_words(faces) for faces, _ in shown) or "-"
    mods = " ".join(f"{_signed(v)} {_words(n)}" for n, v in e.modifiers)
    against = f" at {_name(match, e.against)}" if e.against is not None else ""
    text = f"{who} rolls {_words(e.check)}{against}: [{dice}]"
    if mods:
        text += f" {mods}"
    if e.each and e.target_number is not None:  # each die against the number: what the hits add up to
        text += f" vs {e.target_number}+ a die: "
        text += f"{e.total} from the dice that hit" if e.success else "none hit"
    else:
        if len(shown) != 1 or len(shown[0][0]) != 1 or e.modifiers:
            text += f" = {e.total}"
        if e.target_number is not None:
            text += f" vs {e.target_number}+"
    if e.success is None:
        return "roll", text
    return ("hit", text + " \u2014 success") if e.success else ("miss", text + " \u2014 fails")


def _neighbours(match: Match, e: Event) -> tuple[Event | None, Event | None]:
    """The events just before and just after ``e`` in the match's history (None at an end, or both None
    when ``e`` is not in the history)."""
    history = match.history
    i = _context(match).at.get(id(e))
    if i is None or history[i] is not e:
        return None, None
    before = history[i - 1] if i > 0 else None
    after = history[i + 1] if i + 1 < len(history) else None
    return before, after


def _leaves_at_once(match: Match, e: Event, unit: int) -> bool:
    """Whether ``unit`` is removed from the fight by the events right after ``e`` (its own status changes
    aside): its removal line then tells what happened."""
    history = match.history
    i = _context(match).at.get(id(e))
    if i is None or history[i] is not e:
        return False
    for nxt in history[i + 1 :]:
        if isinstance(nxt, StatusChanged) and nxt.unit == unit:
            continue
        return isinstance(nxt, UnitRemoved) and nxt.unit == unit
    return False


def _restated(match: Match, e: StatusChanged) -> bool:
    """A status that only repeats the line next to it: the action that gave it ("Hold Fire" after the
    Hold Fire action) or the unit's removal for that very reason ("fled" before it flees)."""
    if not e.active:
        return False
    before, after = _neighbours(match, e)
    if isinstance(after, UnitRemoved) and after.unit == e.unit and after.reason == e.status:
        return True
    return isinstance(before, ActionTaken) and before.unit == e.unit and before.action == e.status


def _action_text(match: Match, e: ActionTaken) -> str | None:
    who = _name(match, e.unit)
    if not (e.option or e.target is not None or e.hex is not None) and _leaves_at_once(match, e, e.unit):
        return None  # Flee: "X flees the fight" follows
    option = ""
    if e.option and "," not in e.option:
        printed = _printed(match, e.option)
        if _letters(printed) != _letters(e.action):  # "follow me (Follow Me!)" says it twice
            option = f" ({printed})"
    target = f" \u2192 {_name(match, e.target)}" if e.target is not None else ""
    return f"{who}: {_words(e.action)}{option}{target}"


def _removed_text(match: Match, e: UnitRemoved) -> str:
    who = _name(match, e.unit)
    if e.reason == FLED:
        return f"{who} flees the fight"
    return f"{who} is {_words(e.reason)} and leaves the fight"


def describe(match: Match, e: Event) -> LogLine | None:
    """One log line for an event, or None for bookkeeping nobody needs to read and for an event whose
    line would only repeat its neighbour's."""
    line = _describe(match, e)
    if line is None or not line.text.strip():
        return None
    return line


# The kind of line each of the engine's events gives (a roll's is "roll", "hit" or "miss"); an event of a
# ruleset's own is a "note".
_KINDS: dict[type[Event], str] = {
    DamageTaken: "damage",
    Moved: "move",
    ActivationStarted: "turn",
    PhaseStarted: "phase",
    CardDealt: "card",
    StatusChanged: "status",
    UnitRemoved: "status",
    ItemTaken: "note",
    ActionTaken: "action",
    Note: "note",
    MatchEnded: "end",
    GmEdit: "gm",
}


def _describe(match: Match, e: Event) -> LogLine | None:
    rnd = e.round
    said = match.describe(e, lambda unit: _name(match, unit))
    if said is not None:  # the ruleset's own words for it
        kind = _roll_text(match, e)[0] if isinstance(e, Roll) else _KINDS.get(type(e), "note")
        return LogLine(rnd, kind, said)
    if isinstance(e, Roll):
        kind, text = _roll_text(match, e)
        return LogLine(rnd, kind, text)
    if isinstance(e, DamageTaken):
        by = f" from {_name(match, e.source)}" if e.source is not None else ""
        return LogLine(rnd, "damage", f"{_name(match, e.unit)} takes {e.amount}{by}, {e.remaining} left")
    if isinstance(e, Moved):
        steps = max(0, len(e.path) - 1)
        if steps == 0:
            return LogLine(rnd, "move", f"{_name(match, e.unit)} takes the field")
        return LogLine(rnd, "move", f"{_name(match, e.unit)} {walk_words(steps, e.cost)}")
    if isinstance(e, ActivationStarted):
        who = _name(match, e.unit)
        if who.endswith(")"):  # "Dog (Rustlers)'s turn" would not read
            return LogLine(rnd, "turn", f"\u25b6 Turn: {who}, {e.action_points} AP")
        return LogLine(rnd, "turn", f"\u25b6 {who}'s turn ({e.action_points} AP)")
    if isinstance(e, ActivationEnded):
        return None
    if isinstance(e, PhaseStarted):
        phase = _words(e.phase).strip()
        if not phase or phase.casefold() == "round":
            return LogLine(rnd, "phase", f"\u2014 Round {rnd} \u2014")
        return LogLine(rnd, "phase", f"\u2014 Round {rnd}: {phase} \u2014")
    if isinstance(e, CardDealt):
        card = "the Joker" if e.joker else e.card
        return LogLine(rnd, "card", f"{_name(match, e.unit)} draws {card}")
    if isinstance(e, StatusChanged):
        if _restated(match, e):
            return None
        change = "is now" if e.active else "is no longer"
        return LogLine(rnd, "status", f"{_name(match, e.unit)} {change} {_words(e.status)}")
    if isinstance(e, UnitRemoved):
        return LogLine(rnd, "status", _removed_text(match, e))
    if isinstance(e, ItemTaken):
        return LogLine(rnd, "note", f"{_name(match, e.unit)} takes the {_printed(match, e.item)}")
    if isinstance(e, ActionTaken):
        said = _action_text(match, e)
        return None if said is None else LogLine(rnd, "action", said)
    if isinstance(e, Note):
        who = f"{_name(match, e.unit)}: " if e.unit is not None else ""
        return LogLine(rnd, "note", f"{who}{e.rule}")
    if isinstance(e, GmEdit):  # marked: the game master changed the battle here (game.engine.gm)
        who = f"{_name(match, e.unit)} " if e.unit is not None else ""
        return LogLine(rnd, "gm", f"GM edit: {who}{e.change}")
    if isinstance(e, MatchEnded):
        winner = side_name(match, e.winner) if e.winner else "nobody"
        return LogLine(rnd, "end", f"The fight is over \u2014 {winner} wins: {e.reason}")
    return None  # an event of the ruleset's own that it does not word: bookkeeping


def walk_words(steps: int, cost: int) -> str:
    """A walk in the log, as its marker on the map said it ("moves 4 hexes", "moves 4 hexes, cost 6")."""
    text = f"moves {steps} hex{'es' if steps != 1 else ''}"
    return text + (f", cost {cost}" if cost != steps else "")
