"""Actions as data: what each ruleset registers, and the one way legal actions are offered and commands
checked against them.

A ruleset *instance* owns an :class:`ActionBook` of :class:`ActionDef`\\ s. Each definition says, for a
unit and an option (a weapon, an item), whether the action may be taken now (``problem``, a reason in a
player's words), what it may be aimed at (``picks``), any check a picked command still needs
(``check``), and what it does (``apply``). ``can_use`` and ``execute`` stay apart, so the engine can
list every action — the disabled ones with their reason — without running any effect.

The engine then does the rest the same way for every ruleset:

- :func:`offer` turns definitions into :class:`~game.engine.protocol.LegalAction`\\ s (one per option),
  disabled with a reason when nothing can be picked;
- :func:`check_command` finds the legal action a command is for and checks its picks *exactly*: a target
  among those offered, a choice exactly as offered (never parsed), a path a legal walk to an offered end
  (:func:`game.engine.movement.path_problem`), no field the action does not read. So ``validate`` accepts
  exactly what :meth:`LegalAction.expand` yields (for a path: any legal walk to one of its ends).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from game.battlefield import Battlefield
from game.commands import Command
from game.engine.movement import TILES, PathTree, Units, path_problem
from game.engine.protocol import LegalAction
from game.hexgrid import Hex

__all__ = ["EMPTY_PICKS", "ActionBook", "ActionDef", "Picks", "check_command", "offer", "offer_words"]

Ctx = TypeVar("Ctx")


@dataclass(frozen=True, slots=True)
class Picks:
    """What an action may be aimed at now."""

    targets: tuple[int, ...] = ()
    hexes: tuple[Hex, ...] = ()
    choices: tuple[str, ...] = ()
    choice_labels: tuple[str, ...] = ()
    paths: PathTree | None = None
    max_picks: int = 1
    dice: tuple[int, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.targets or self.hexes or self.choices)


EMPTY_PICKS = Picks()  # nothing to pick (frozen: one shared instance, not one made per offer)


def _no_problem(ctx: Any, unit: int, option: str) -> str | None:
    return None


def _no_picks(ctx: Any, unit: int, option: str) -> Picks:
    return EMPTY_PICKS


@dataclass(frozen=True, slots=True)
class ActionDef(Generic[Ctx]):
    """One action of a ruleset. ``Ctx`` is the ruleset's context type (queries and effects on a match).

    - ``needs``: what a command must pick ("", "target", "targets", "hex", "path", "choice", "assign");
    - ``options(ctx, unit)``: one offer per entry (a weapon id, an item name; default one plain offer);
      when it gives none, the action is not offered at all, or, with ``no_options`` set, offered once
      (option "") disabled with that reason;
    - ``label(ctx, unit, option)`` and ``cost(ctx, unit, option)``: the button's words and AP;
    - ``problem(ctx, unit, option)``: why it cannot be taken now (picks aside), or None;
    - ``picks(ctx, unit, option)``: valid targets / hexes / choices / path tree;
    - ``no_picks``: the reason when ``picks`` is empty (after the label and a colon);
    - ``check(ctx, unit, cmd)``: a last check of a command whose picks are among those offered;
    - ``apply(ctx, unit, cmd)``: the effect (events go to the context);
    - ``window_picks(ctx, step, unit)``: what a reaction may be aimed at in an open window, from the step
      that opened it (the attack about to roll, the turn starting); a reaction with ``window_picks``
      is offered in a window only when they give something;
    - ``budget(ctx, unit)``: a "path" action's movement, for a ruleset that searches each unit's walks
      once for all its path actions (:meth:`game.engine.movement.PathTree.within`);
    - ``never(ctx, unit)``: True when the unit can never take the action in this battle (Shoot without a
      ranged weapon): it is not offered on the unit's turn, so a screen shows no button that could
      never light up; a command for it still gets ``problem``'s reason (``offer(keep_never=True)``).
    """

    id: str
    needs: str = ""
    needs_for: Callable[[Ctx, int, str], str] | None = None  # when the need depends on the unit
    label: Callable[[Ctx, int, str], str] | None = None
    cost: Callable[[Ctx, int, str], int] | int = 0
    options: Callable[[Ctx, int], Sequence[str]] | None = None
    no_options: str = ""
    problem: Callable[[Ctx, int, str], str | None] = _no_problem
    picks: Callable[[Ctx, int, str], Picks] = _no_picks
    no_picks: str = "nothing to pick"
    check: Callable[[Ctx, int, Command], str | None] | None = None
    apply: Callable[[Ctx, int, Command], None] | None = None
    ends_turn: bool = False
    windows: tuple[str, ...] = ()  # off-turn windows it may be used in (reactions)
    tags: frozenset[str] = field(default_factory=frozenset)  # ruleset-specific flags ("attack", "moves")
    window_picks: Callable[[Ctx, Any, int], Picks] | None = None
    budget: Callable[[Ctx, int], int] | None = None
    never: Callable[[Ctx, int], bool] | None = None

    def cost_for(self, ctx: Ctx, unit: int, option: str) -> int:
        return self.cost if isinstance(self.cost, int) else self.cost(ctx, unit, option)

    def label_for(self, ctx: Ctx, unit: int, option: str) -> str:
        if self.label is not None:
            return self.label(ctx, unit, option)
        return self.id.replace("_", " ").capitalize()


class ActionBook(Generic[Ctx]):
    """A ruleset instance's actions by id, in registration order (the order the action bar shows)."""

    def __init__(self) -> None:
        self._defs: dict[str, ActionDef[Ctx]] = {}

    def add(self, definition: ActionDef[Ctx]) -> ActionDef[Ctx]:
        if definition.id in self._defs:
            raise ValueError(f"action '{definition.id}' is registered twice")
        self._defs[definition.id] = definition
        return definition

    def get(self, action: str) -> ActionDef[Ctx] | None:
        return self._defs.get(action)

    def __getitem__(self, action: str) -> ActionDef[Ctx]:
        return self._defs[action]

    def __contains__(self, action: object) -> bool:
        return action in self._defs

    def __iter__(self) -> Iterator[ActionDef[Ctx]]:
        return iter(self._defs.values())

    def ids(self) -> list[str]:
        return list(self._defs)


def offer(
    ctx: Ctx,
    definition: ActionDef[Ctx],
    unit: int,
    side: str,
    *,
    problem: Callable[[ActionDef[Ctx], str], str | None] | None = None,
    picks: Callable[[Ctx, int, str], Picks] | None = None,
    no_picks: str | None = None,
    only: str | None = None,
    keep_never: bool = False,
) -> list[LegalAction]:
    """The legal actions one definition gives ``unit`` now: one per option, each enabled or with the
    reason it is not. ``problem`` adds the ruleset's common checks (AP, once per turn, ...) before the
    definition's own; ``picks`` and ``no_picks`` stand in for the definition's own (a reaction in a
    window). ``only``: just the offer of that option, if it is one (checking a command). An action the
    unit can ``never`` take is not offered, unless ``only`` or ``keep_never`` (checking a command)."""
    if definition.never is not None and only is None and not keep_never and definition.never(ctx, unit):
        return []
    options = list(definition.options(ctx, unit)) if definition.options is not None else [""]
    none = not options
    if none and definition.no_options:
        options = [""]
    if only is not None and only in options:
        options = [only]
    pick = definition.picks if picks is None else picks
    nothing = definition.no_picks if no_picks is None else no_picks
    out: list[LegalAction] = []
    for option in options:
        label = definition.label_for(ctx, unit, option)
        cost = definition.cost_for(ctx, unit, option)
        reason = f"{label}: {definition.no_options}" if none else None
        if reason is None and problem is not None:
            reason = problem(definition, option)
        if reason is None:
            reason = definition.problem(ctx, unit, option)
        need = definition.needs if definition.needs_for is None else definition.needs_for(ctx, unit, option)
        chosen = EMPTY_PICKS
        if reason is None:
            chosen = pick(ctx, unit, option)
            if need and _needs_picks(need) and _missing(need, chosen):
                reason = f"{label}: {nothing}"
        out.append(
            LegalAction(  # by position: the hottest constructor in the game (field order of LegalAction)
                definition.id,
                label,
                unit,
                cost,
                reason is None,  # enabled
                reason,
                need,
                chosen.targets,
                chosen.hexes,
                chosen.choices,
                side,
                option,
                chosen.max_picks,
                chosen.dice,
                chosen.choice_labels,
                definition.ends_turn,
                False,  # public
                chosen.paths,
            )
        )
    return out


def offer_words(ctx: Ctx, definitions: Iterable[ActionDef[Ctx]], unit: int) -> list[tuple[str, int]]:
    """The label and cost of every offer ``definitions`` give ``unit`` on its turn, as :func:`offer` makes
    them (one per option; an action without options left out unless it has ``no_options``), the ones that
    end the turn and those it can ``never`` take left out, without asking whether it could be taken now:
    what a screen sizes its action bar for before the unit's turn (issue 13): options found around the
    unit (the items in its reach) are none while it is not on the map."""
    out: list[tuple[str, int]] = []
    for definition in definitions:
        if definition.ends_turn or (definition.never is not None and definition.never(ctx, unit)):
            continue
        try:
            options = list(definition.options(ctx, unit)) if definition.options is not None else [""]
        except LookupError:  # options found around the unit (items in reach) before it is on the map
            options = []
        if not options and definition.no_options:
            options = [""]
        out.extend((definition.label_for(ctx, unit, o), definition.cost_for(ctx, unit, o)) for o in options)
    return out


def _needs_picks(need: str) -> bool:
    return need in ("target", "targets", "hex", "path", "choice", "assign")


def _missing(need: str, picks: Picks) -> bool:
    if need in ("target", "targets", "assign"):
        return not picks.targets
    if need in ("hex", "path"):
        return not picks.hexes
    if need == "choice":
        return not picks.choices
    return False


def _extraneous(action: LegalAction, cmd: Command) -> str | None:
    """A field the action does not read must be left empty (so one command never means two things)."""
    need = action.needs
    uses_target = need == "target" or (need in ("path", "choice") and bool(action.targets))
    if cmd.target is not None and not uses_target:
        return "takes no single target"
    if cmd.targets and need not in ("targets", "assign"):
        return "takes no list of targets"
    if cmd.hex is not None and need != "hex":
        return "takes no tile"
    if cmd.path and need != "path":
        return "takes no path"
    if cmd.number is not None:
        return "takes no number"
    if cmd.extra:
        return "takes no extra fields"
    return None


def check_command(
    legal: Sequence[LegalAction],
    cmd: Command,
    bf: Battlefield,
    *,
    units: Units = TILES,
    occupant: Mapping[Hex, str] | None = None,
    explain: Callable[[LegalAction, Command], str | None] | None = None,
) -> tuple[LegalAction | None, str | None]:
    """The legal action ``cmd`` is for and why it is refused (None: it is legal as far as picks go).

    (None, None) means no offered action has this id and actor: the ruleset says why (not this unit's
    turn, an unknown action, ...). ``explain(action, cmd)`` words why a target the command names is not
    among those offered (out of range, not in sight), in the ruleset's terms."""
    candidates = [a for a in legal if a.action == cmd.action and a.actor == cmd.actor]
    if not candidates:
        return None, None
    chosen: LegalAction | None = None
    for a in candidates:
        if a.choices:
            if cmd.option in a.choices:
                chosen = a
                break
        elif cmd.option == a.option:
            chosen = a
            break
    if chosen is None:
        first = candidates[0]
        if first.choices:
            offered = ", ".join(first.choice_label(c) for c in first.choices)
            return first, f"{first.label}: pick one of the offered choices ({offered})"
        if all(not a.option for a in candidates):
            return first, f"{first.label} takes no option"
        options = ", ".join(repr(a.option) for a in candidates)
        return first, f"{first.label}: '{cmd.option}' is not offered (offered: {options})"
    a = chosen
    named = cmd.target is not None or bool(cmd.targets)
    if not a.enabled:
        if named and explain is not None and (why := explain(a, cmd)) is not None:
            return a, why
        return a, a.reason or f"{a.label}: not possible now"
    if cmd.side != a.side and (cmd.side or not a.actor):
        # a unit's command may leave its side out (it is the unit's); a side's choice must name it
        if not cmd.side:
            return a, f"{a.label}: name the side that makes this choice"
        if not a.actor:
            return a, f"{a.label}: this choice is {a.side}'s, not {cmd.side}'s"
        return a, f"{a.label}: this unit is not in {cmd.side}'s posse"
    reason, about_target = _pick_problem(a, cmd, bf, units, occupant)
    if reason is not None:
        if about_target and explain is not None and (why := explain(a, cmd)) is not None:
            return a, why
        return a, reason
    extra = _extraneous(a, cmd)
    if extra is not None:
        return a, f"{a.label} {extra}"
    return a, None


def _pick_problem(
    a: LegalAction, cmd: Command, bf: Battlefield, units: Units, occupant: Mapping[Hex, str] | None
) -> tuple[str | None, bool]:
    """Why the command's picks are not among those offered, and whether that is about its target(s)."""
    need = a.needs
    if need == "target":
        if cmd.target not in a.targets:
            return f"{a.label}: pick one of the valid targets", True
    elif need == "targets":
        chosen_targets = cmd.targets
        if not 1 <= len(chosen_targets) <= a.max_picks:
            return f"{a.label}: choose 1 to {a.max_picks} of the offered units", True
        if len(set(chosen_targets)) != len(chosen_targets):
            return f"{a.label}: a unit is chosen twice", True
        if any(t not in a.targets for t in chosen_targets):
            return f"{a.label}: pick among the offered units", True
    elif need == "assign":
        if len(cmd.targets) != a.max_picks:
            return f"assign each of the {a.max_picks} hit(s) to a target, in die order", True
        if any(t not in a.targets for t in cmd.targets):
            return "a hit goes to a target not offered (a hostile unit in sight and in range)", True
    elif need == "hex":
        if cmd.hex not in a.hexes:
            return f"{a.label}: pick one of the offered tiles", False
    elif need == "path":
        if a.paths is None:
            return f"{a.label}: nowhere to go", False
        reason = path_problem(bf, a.paths, cmd.path, a.label, units=units, occupant=occupant)
        if reason is not None:
            return reason, False
        end = cmd.path[-1]
        if end not in a.hexes:
            return f"{a.label}: the walk may not end at {end}", False
        if cmd.target is not None and cmd.target not in a.targets:
            return f"{a.label}: pick one of the valid targets", True
    elif need == "choice" and a.targets and cmd.target not in a.targets:
        return f"{a.label}: pick one of the valid targets", True
    return None, False
