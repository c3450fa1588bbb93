"""What the battle screen's action bar offers, without pygame: a button per action of the selected unit (or
per option of a choice being made), with its number key, cost, tooltip and whether it may be pressed, and
the fixed buttons at the bar's right end. :mod:`game.ui.battle_widgets` lays these out as widgets.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine.protocol import DEPLOY, LegalAction
from game.ui.battle_words import esc, short_label
from game.ui.controller import BattleController

__all__ = [
    "BarButton",
    "FixedButton",
    "action_tip",
    "bar_actions",
    "bar_buttons",
    "bar_text",
    "fixed_buttons",
    "foreseen_bars",
]


ASSIGN_FORESEEN = 6  # the hits left to assign whose button foreseen_bars includes (more are rare)


@dataclass(frozen=True, slots=True)
class BarButton:
    """A button of the action bar: an action to choose, or an option of the choice being made.

    ``text`` is the whole label with its number key and cost ("1 Fire: Model 4 Pistol · 1AP"); the screen
    cuts it to the button's width."""

    text: str
    tooltip: str
    enabled: bool = True
    selected: bool = False
    action: LegalAction | None = None
    choice: str = ""


@dataclass(frozen=True, slots=True)
class FixedButton:
    """A button at the bar's right end: ``key`` is end_turn, auto_deploy, back, undo or menu."""

    key: str
    text: str
    enabled: bool
    tooltip: str


def bar_actions(c: BattleController) -> list[LegalAction]:
    """The selected unit's actions on the bar (none while the board is covered or the battle over)."""
    if c.covered or c.session.outcome is not None:
        return []
    return [a for a in c.actor_actions() if not a.ends_turn]


def bar_buttons(c: BattleController) -> list[BarButton]:
    """The action bar: the options of a choice being made, else the selected unit's actions (an
    assignment of hits shows how many are left, then fires them)."""
    choosing = c.choosing()
    if choosing is not None:
        a = choosing.action
        options = []
        for i, choice in enumerate(a.choices):
            key = str(i + 1) if i < 9 else ""
            words = a.choice_label(choice)
            tip = f"{a.label}: {words}" + (f" (key {key})" if key else "")
            options.append(BarButton(f"{key} {words}".strip(), tip, choice=choice))
        return options
    buttons = []
    picker = c.picker
    for i, a in enumerate(bar_actions(c)):
        key = str(i + 1) if i < 9 else ""
        cost = f" \u00b7 {a.cost}AP" if a.cost else ""
        tip = action_tip(a, c.match.action_rule(a.action), key)
        label = short_label(a.label)
        enabled = a.enabled
        if picker is not None and picker.action == a and a.needs == "assign":
            ready = picker.command() is not None
            left = sum(1 for t in picker.slots if t is None)
            label = "Fire the hits (Enter)" if ready else f"Assign hits: {left} left"
            tip = (
                "Deal the hits as assigned"
                if ready
                else "Drag each die from the tray onto a target, or click targets in die order"
            )
            enabled = ready
        selected = picker is not None and picker.action == a
        buttons.append(BarButton(f"{key} {label}{cost}".strip(), tip, enabled, selected, action=a))
    return buttons


def bar_text(i: int, label: str, cost: int) -> str:
    """The ``i``-th bar button's words for an action labelled ``label`` that costs ``cost`` AP: its number
    key (the first nine), its short label and its cost ("1 Fire: Model 4 Pistol \u00b7 2AP")."""
    key = str(i + 1) if i < 9 else ""
    price = f" \u00b7 {cost}AP" if cost else ""
    return f"{key} {short_label(label)}{price}".strip()


def foreseen_bars(c: BattleController) -> list[list[str]]:
    """The action bar of every unit of every posse on its turn, as far as the ruleset can say before it
    (:meth:`~game.engine.match.Match.offer_words`: every action it may be offered, with its cost; none
    for a ruleset that cannot say): the battle screen fits its bar over them all when the battle opens,
    so no command changes its type or rows (issue 13)."""
    bars = []
    for unit in c.match.units(in_play=False):
        words = c.match.offer_words(unit)
        if words:
            bars.append([bar_text(i, label, cost) for i, (label, cost) in enumerate(words)])
    if bars:  # an assignment of hits (see bar_buttons): its one button as the hits are dealt
        bars += [[f"1 Assign hits: {n} left"] for n in range(1, ASSIGN_FORESEEN + 1)]
        bars.append(["1 Fire the hits (Enter)"])
    return bars


def action_tip(a: LegalAction, rule: str, key: str = "") -> str:
    """An action's tooltip: what it is and costs, the rulebook's sentence (the ruleset's data), and why
    it cannot be taken now when it cannot (pygame-gui's HTML)."""
    lines = [f"<b>{esc(a.label)}</b> \u2014 {a.cost} AP" + (f" (key {key})" if key else "")]
    if rule:
        lines.append(f"<i>{esc(rule)}</i>")
    if not a.enabled and a.reason:
        lines.append(f"Not now: {esc(a.reason)}")
    return "<br>".join(lines)


def fixed_buttons(c: BattleController) -> list[FixedButton]:
    """The buttons at the bar's right end: end the turn (or auto-deploy, or back out of a choice), undo
    (its tooltip says why not when it cannot), the pause menu."""
    end = c.end_action()
    undo_reason = c.session.undo_problem()
    first = FixedButton(
        "end_turn",
        short_label(end.label) if end is not None else "End Turn",
        end is not None,
        f"{end.label if end is not None else 'End the turn'} (Enter)",
    )
    if any(a.action == DEPLOY for a in bar_actions(c)):
        first = FixedButton("auto_deploy", "Auto-deploy", True, "Place the rest of this posse")
    elif c.choosing() is not None and c.forced_choice(c.session.legal()) is None:
        first = FixedButton("back", "Back", True, "Choose another action (Esc)")
    return [
        first,
        FixedButton("undo", "Undo", undo_reason is None, undo_reason or "Take back the last move (U)"),
        FixedButton("menu", "Menu", True, "Pause menu: save, load, settings (Esc)"),
    ]
