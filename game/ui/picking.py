"""Turning a chosen action into a command by pointing at the map, without pygame.

The battle screen selects a :class:`~game.rules.LegalAction` from the action bar, then hands every hovered
and clicked hex to a :class:`Picker`, which follows the LegalAction contract only (``needs``: "", target,
targets, hex, path, choice, assign) and asks the match for the rest: the path under the mouse and what it
costs (the rules' own tree of paths, ``LegalAction.path_to``), the exact odds (``match.preview``), and
which units a blast would reach (the units whose preview exists for that impact point). What it shows
is in :class:`Hover`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from game.commands import Command
from game.engine.facts import PathReaction
from game.engine.match import Match
from game.hexgrid import Hex, hex_distance
from game.rules import AttackPreview, LegalAction

__all__ = ["Hover", "Picker", "path_reactions", "units_at"]


def units_at(match: Match, h: Hex, among: tuple[int, ...] | None = None) -> list[int]:
    """Units standing in ``h`` (optionally only those in ``among``), in match order."""
    return [u for u in match.units() if match.position(u) == h and (among is None or u in among)]


@dataclass(frozen=True, slots=True)
class Hover:
    """What the screen shows for the hex under the mouse while an action is being aimed."""

    hex: Hex | None = None
    valid: bool = False
    reason: str = ""  # why a click here would do nothing ("out of reach", "not a valid target")
    path: tuple[Hex, ...] = ()
    path_cost: int = 0
    target: int | None = None
    preview: AttackPreview | None = None
    caught: tuple[int, ...] = ()  # units a blast at ``hex`` would reach
    command: Command | None = None  # what a click would send (None: nothing yet)
    reactions: tuple[PathReaction, ...] = ()  # the free attacks the path would provoke, in order


@dataclass(slots=True)
class Picker:
    """Aims one legal action. ``picked`` collects the targets of a "targets" need; ``slots`` holds the
    target of each die of an "assign" need (None: not assigned yet), which may be filled in any order
    (a die dragged onto a target) and is sent in die order."""

    match: Match
    action: LegalAction
    picked: list[int] = field(default_factory=list)
    option: str = ""
    slots: list[int | None] = field(default_factory=list)
    holding: int | None = None  # the die a click on a target assigns next (None: the first free one)
    _filled: list[int] = field(default_factory=list)  # die indexes in the order they were assigned

    def __post_init__(self) -> None:
        if self.action.needs == "assign" and not self.slots:
            self.slots = [None] * self.action.max_picks

    @property
    def has_picks(self) -> bool:
        """Something picked that a right click would take back."""
        return bool(self.picked) or any(t is not None for t in self.slots)

    @property
    def next_die(self) -> int | None:
        """The die a click on a target assigns: the one held, else the first not yet assigned."""
        if self.holding is not None and self.holding < len(self.slots):
            return self.holding
        return next((i for i, t in enumerate(self.slots) if t is None), None)

    @property
    def ready_without_map(self) -> bool:
        """True when the action needs nothing from the map (the button alone sends it)."""
        return self.action.needs == "" or (self.action.needs == "choice" and bool(self.option))

    def base(self) -> Command:
        return self.action.command(option=self.option)

    def command(self) -> Command | None:
        """The command for an action that needs no map click, or a complete multi-pick."""
        need = self.action.needs
        if need == "":
            return self.base()
        if need == "choice":
            return self.action.command(option=self.option) if self.option else None
        if need == "targets" and self.picked:
            return self.action.command(targets=tuple(self.picked), option=self.option)
        if need == "assign" and self.slots and all(t is not None for t in self.slots):
            return self.action.command(targets=tuple(t for t in self.slots if t is not None))
        return None

    def preview(self) -> AttackPreview | None:
        cmd = self.command()
        return self.match.preview(cmd) if cmd is not None else None

    def reachable_targets(self) -> tuple[int, ...]:
        """Units to highlight: the action's targets, or for an attack that names none, every unit its
        preview can reach."""
        if self.action.targets:
            return self.action.targets
        if self.action.needs in ("", "choice"):
            cmd = self.base()
            return tuple(
                u for u in self.match.units() if self.match.preview(replace(cmd, target=u)) is not None
            )
        return ()

    def hover(self, h: Hex | None, pointed: int | None = None) -> Hover:
        """What pointing at ``h`` would do; ``pointed`` is the unit whose token the pointer is on when the
        tile holds several (it is taken first)."""
        a = self.action
        cmd: Command
        if h is None:
            return Hover()
        need = a.needs
        if need in ("", "choice"):
            # an attack that names no target (its hits are assigned after the roll): point at a unit to
            # see the odds against it; the units with a preview are the ones it can reach
            if need == "choice" and not self.option:
                return Hover(h, reason="pick an option first")
            send = self.base()
            for u in _first(units_at(self.match, h), pointed):
                preview = self.match.preview(replace(send, target=u))
                if preview is not None and preview.unreachable:
                    return Hover(h, reason="unreachable: cannot hit (0%)", target=u, preview=preview)
                if preview is not None:
                    return Hover(h, True, target=u, preview=preview, command=send)
            return Hover(h, reason="no target here", command=None)
        if need in ("target", "targets", "assign"):
            units = _first(units_at(self.match, h, a.targets), pointed)
            if not units:
                return Hover(h, reason="not a valid target")
            target = units[0]
            if need == "assign":
                # what the split would deal if every die still in the tray went to this target
                split = tuple(t if t is not None else target for t in self.slots)
                preview = self.match.preview(a.command(targets=split))
                return Hover(h, True, target=target, preview=preview)
            aimed = a.command(target=target, option=self.option) if need == "target" else None
            preview = self.match.preview(replace(aimed or self.base(), target=target))
            if preview is not None and preview.unreachable:  # 0%: shown, never offered as a target
                return Hover(h, reason="unreachable: cannot hit (0%)", target=target, preview=preview)
            return Hover(h, True, target=target, preview=preview, command=aimed)
        if need == "hex":
            if h not in a.hexes:
                return Hover(h, reason="not one of the offered tiles")
            cmd = a.command(hex=h, option=self.option)
            caught = tuple(
                u for u in self.match.units() if self.match.preview(replace(cmd, target=u)) is not None
            )
            preview = self.match.preview(cmd)
            return Hover(h, True, preview=preview, caught=caught, command=cmd)
        if need == "path":
            here = self.match.position(a.actor)
            if here is None or h not in a.hexes:
                return Hover(h, reason="out of reach")
            path, cost = self._walk(a, here, h)
            if path is None:
                return Hover(h, reason="no way there")
            charged: int | None = None
            if a.targets:  # a charge: its path and its target (the LegalAction contract), the one
                # it would end within 1" of; ending near none, it names none (a charge toward anything)
                near = [
                    u
                    for u in a.targets
                    if self.match.position(u) is not None and _distance(self.match, u, h) <= 1
                ]
                if near:
                    charged = min(near, key=lambda u: (_distance(self.match, u, h), u))
            cmd = a.command(path=path, target=charged, option=self.option)
            preview = self.match.preview(cmd)
            return Hover(
                h,
                True,
                path=path,
                path_cost=cost,
                target=charged,
                preview=preview,
                command=cmd,
                reactions=path_reactions(self.match, a.actor, path),
            )
        return Hover(h, reason="this action needs no tile")

    def _walk(self, a: LegalAction, here: Hex, end: Hex) -> tuple[tuple[Hex, ...] | None, int]:
        """The path the action takes to ``end`` and what it costs: the rules' canonical path."""
        if a.paths is not None:
            path = a.path_to(end)
            return path, a.paths.cost_to(end) or 0
        # TODO(Rift on the engine): Through the Rift's path actions carry no ``paths`` until its port to
        # the shared engine; until then the battlefield's path through the offered tiles only (a unit
        # standing on a tile the rules did not offer blocks it).
        offered = set(a.hexes)
        standing = {self.match.position(u) for u in self.match.units()}
        blocked = frozenset(p for p in standing if p is not None and p not in offered and p != here)
        found = self.match.battlefield.path(here, end, blocked)
        if found is None:
            return None, 0
        return tuple(found), self.match.battlefield.path_cost(found)

    def unreachable_targets(self) -> tuple[int, ...]:
        """The action's targets it cannot hit at all (its preview says 0%): marked as unreachable."""
        need = self.action.needs
        if need in ("", "choice") and not self.action.targets:  # an attack that names no target
            candidates, base = self.reachable_targets(), self.base()
        elif need in ("target", "targets"):
            candidates, base = self.action.targets, self.action.command(option=self.option)
        else:
            return ()
        out = []
        for t in candidates:
            preview = self.match.preview(replace(base, target=t))
            if preview is not None and preview.unreachable:
                out.append(t)
        return tuple(out)

    def click(self, h: Hex | None, pointed: int | None = None) -> Command | None:
        """A click on ``h`` (on the token of ``pointed``, if given): the command to send now, or None (a
        pick was added, or nothing to do)."""
        a = self.action
        if h is None:
            return None
        if a.needs in ("targets", "assign"):
            units = _first(units_at(self.match, h, a.targets), pointed)
            if not units:
                return None
            self.pick(units[0])
            return self.command() if a.needs == "assign" else None
        return self.hover(h, pointed).command

    def pick(self, target: int) -> None:
        """Add a target to a multi-pick ("targets": distinct, toggled; "assign": the next die to it)."""
        a = self.action
        if target not in a.targets:
            return
        if a.needs == "targets":
            if target in self.picked:
                self.picked.remove(target)
            elif len(self.picked) < a.max_picks:
                self.picked.append(target)
        elif a.needs == "assign":
            die = self.next_die
            if die is not None:
                self.assign(die, target)

    def assign(self, die: int, target: int | None) -> None:
        """Put die ``die`` on ``target`` (None: take it back), whether or not it was assigned before."""
        if not 0 <= die < len(self.slots) or (target is not None and target not in self.action.targets):
            return
        self.slots[die] = target
        if die in self._filled:
            self._filled.remove(die)
        if target is not None:
            self._filled.append(die)
        self.holding = None

    def hold(self, die: int | None) -> None:
        """Take die ``die`` in hand: the next target clicked gets it (None: put it back)."""
        self.holding = die if die is not None and 0 <= die < len(self.slots) else None

    def unpick(self) -> None:
        """Take back the last pick (right click / backspace while assigning)."""
        if self.holding is not None:
            self.holding = None
        elif self._filled:
            self.slots[self._filled.pop()] = None
        elif self.picked:
            self.picked.pop()


def path_reactions(match: Match, unit: int, path: tuple[Hex, ...]) -> tuple[PathReaction, ...]:
    """The free attacks walking ``path`` would provoke (``Match.path_reactions``); none for a ruleset
    that answers no such question."""
    if len(path) < 2:
        return ()
    try:
        return match.path_reactions(unit, path)
    except NotImplementedError:
        return ()


def _first(units: list[int], pointed: int | None) -> list[int]:
    """``units`` with the one pointed at first (when it is among them)."""
    if pointed is None or pointed not in units:
        return units
    return [pointed, *(u for u in units if u != pointed)]


def _distance(match: Match, unit: int, h: Hex) -> int:
    there = match.position(unit)
    assert there is not None
    return hex_distance(there, h)
