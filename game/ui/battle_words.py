"""What the battle screen says, without pygame: compact action labels, aiming hints, the odds in words, the
unit panel's and the combat log's rich text (pygame-gui's HTML subset).

Every function here is text in, text out, so the words can be checked without a window.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from game.engine.facts import PathReaction
from game.rules import AttackPreview, LegalAction, UnitView
from game.ui.combatlog import LogLine

__all__ = [
    "KIND_COLOR",
    "KIND_MARK",
    "aim_hint",
    "esc",
    "log_details",
    "log_html",
    "path_label",
    "pct",
    "preview_text",
    "reaction_label",
    "reactions_text",
    "short_label",
    "unit_html",
]

KIND_MARK = {  # glyphs the bundled serif has (dingbats such as U+2714 draw nothing in it)
    "hit": "+",
    "miss": "\u00d7",
    "damage": "\u2020",
    "turn": "\u00bb",
    "roll": "\u00b7",
    "card": "\u2660",
    "end": "\u2666",
    "ai": "\u25b8",
}
KIND_COLOR = {
    "hit": "#2E6B1F",
    "miss": "#8C1E14",
    "damage": "#8C1E14",
    "turn": "#5C3A1E",
    "phase": "#7A5C3C",
    "end": "#5C3A1E",
}
LINK_PREFIX = "line"
LOG_SHOWN = 120  # the log panel shows the newest lines only (its text box lays out every line it holds)


def esc(text: str) -> str:
    """``text`` safe inside pygame-gui's HTML."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def pct(p: Fraction) -> str:
    return f"{round(float(p) * 100)}%"


def preview_text(p: AttackPreview, name: Callable[[int], str] = str) -> str:
    """The odds of an aimed attack for the status line (``name`` turns a unit into its name)."""
    if p.unreachable:
        return "unreachable: cannot hit (0%)" + (" — " + "; ".join(p.notes) if p.notes else "")
    text = f"hit {pct(p.hit_chance)}, expected {float(p.expected_damage):.1f}"
    if p.reach_chance is not None:
        text = f"reach {pct(p.reach_chance)}, then " + text
    needs = p.needs_words()
    if needs:
        text += f" ({needs})"
    mods = ", ".join(f"{n} {v:+d}" if abs(v) < 10 else f"{n} {v}%" for n, v in p.modifiers)
    if mods:
        text += f" [{mods}]"
    if p.per_target:
        return "stress dealt: " + ", ".join(f"{name(u)} {amount}" for u, amount in p.per_target)
    if p.notes:  # the ruleset's own words on these odds (its parts, what a hit does)
        text += " — " + "; ".join(p.notes)
    return text


def path_label(path: Sequence[object], cost: int, reach: Fraction | None = None) -> str:
    """The marker at a walk's end, in the combat log's words: "4 hexes", "4 hexes, cost 6" when the
    ground costs more than a hex a step, and a charge's chance to get there ("reach 75%")."""
    steps = max(0, len(path) - 1)
    text = f"{steps} hex{'es' if steps != 1 else ''}"
    if cost != steps:
        text += f", cost {cost}"
    if reach is not None:
        text += f", reach {pct(reach)}"
    return text


def reaction_label(r: PathReaction, name: Callable[[int], str] = str) -> str:
    """A free attack a walk would provoke, for its pill on the path: who, what, and its odds there."""
    text = f"{name(r.reactor)}: {r.kind}"
    p = r.preview
    if p is not None:
        text += ", unreachable" if p.unreachable else f", hit {pct(p.hit_chance)}"
        if not p.unreachable and p.expected_damage:
            text += f" ~{float(p.expected_damage):.1f}"
    if r.chance < 1:
        text += f" ({pct(r.chance)} it comes)"
    return text


def reactions_text(reactions: Sequence[PathReaction], name: Callable[[int], str] = str) -> str:
    """Every free attack of a walk, for the status line ("" when it provokes none)."""
    if not reactions:
        return ""
    return "provokes " + "; ".join(reaction_label(r, name) for r in reactions)


def aim_hint(action: LegalAction) -> str:
    """What to do next once ``action`` is chosen (the status line while it is aimed)."""
    return {
        "path": "click a shaded tile to move there (right click cancels)",
        "hex": "click a marked tile (right click cancels)",
        "target": "click a marked target (right click cancels)",
        "targets": f"click up to {action.max_picks} targets, Enter to confirm",
        "assign": "drag each die onto a target, or click targets in die order (right click takes one back)",
        "": "click a marked target to attack, or press the button again",
        "choice": "pick an option with the number keys",
    }.get(action.needs, "")


def short_label(label: str) -> str:
    """A compact action bar label; the full label is the tooltip.

    Quoted nicknames and all-capital maker names go; "Verb Noun (Thing)" becomes "Verb: Thing" and
    "Group: Verb (Thing)" becomes "Verb: Thing" ('Fire Firearm ("Standard" MDTC Model 4 Pistol)' ->
    'Fire: Model 4 Pistol', 'Interact: Pick Up (Canteen)' -> 'Pick Up: Canteen').
    """
    out, quoted = [], False
    for ch in label:
        if ch in '"\u201c\u201d':
            quoted = not quoted
            continue
        if not quoted:
            out.append(ch)
    text = " ".join("".join(out).split())
    if not text.strip(" ():"):  # the whole label was quoted ('"Duck!"'): keep its words
        text = " ".join(label.replace('"', "").replace("\u201c", "").replace("\u201d", "").split())
    if "(" not in text or not text.endswith(")"):
        return text
    head, _, inner = text[:-1].partition("(")
    head = head.strip()
    head = head.split(":", 1)[1].strip() if ":" in head else head.split()[0]
    words = [w for w in inner.split() if not (len(w) > 1 and w.isupper() and w.isalpha())]
    return f"{head}: {' '.join(words) or inner.strip()}"


def unit_html(v: UnitView, side_name: str, *, looking_only: bool = False) -> str:
    """The unit panel: name, kind and side, action points as pips, health, stats, weapons, items, whether
    it is out of the fight; ``looking_only`` for a unit clicked to look at but not to command."""
    ap_now, ap_max = v.action_points
    pips = "\u25cf" * max(0, ap_now) + "\u25cb" * max(0, ap_max - ap_now)
    hp_now, hp_max = v.health
    lines = [
        f"<font size=5><b>{esc(v.name)}</b></font>",
        f"<i>{esc(v.kind_name)}</i> \u2014 {esc(side_name)}",
        f"<b>AP</b> {pips} ({ap_now}/{ap_max})",
        f"<b>{esc(v.health_name)}</b> {hp_now}/{hp_max}",
    ]
    if v.stats:
        lines.append(" \u00b7 ".join(f"{esc(n)} {esc(val)}" for n, val in v.stats))
    for w in v.weapons:
        lines.append(f"\u2022 {esc(w)}")
    if v.items:
        lines.append("Carries: " + ", ".join(esc(i) for i in v.items))
    if v.out:
        lines.append(f"<b>Out of the fight: {esc(v.out)}</b>")
    if looking_only:
        lines.insert(1, "<i>Looking only: click a unit of yours (or Tab) to command it.</i>")
    return "<br>".join(lines)


def log_html(log: Sequence[LogLine]) -> str:
    """The newest lines of the combat log, each with its kind's mark and colour; a line with a detail (a
    computer player's decision) is a link, named as :func:`log_details` names it, whose tooltip is the
    detail."""
    rows = []
    for i, line in enumerate(log[-LOG_SHOWN:]):
        mark = KIND_MARK.get(line.kind, "\u00b7")
        color = KIND_COLOR.get(line.kind)
        if line.detail:
            rows.append(f"{mark} <a href='{LINK_PREFIX}{i}'>{esc(line.text)}</a>")
            continue
        text = f"{mark} {esc(line.text)}"
        rows.append(f"<font color='{color}'>{text}</font>" if color else text)
    return "<br>".join(rows)


def log_details(log: Sequence[LogLine]) -> dict[str, str]:
    """The detail of each linked line :func:`log_html` shows, by its link's name, as tooltip HTML."""
    return {
        f"{LINK_PREFIX}{i}": "<br>".join(esc(row) for row in line.detail.splitlines())
        for i, line in enumerate(log[-LOG_SHOWN:])
        if line.detail
    }
