"""What every ruleset answers and everything the UI, the CLI and the AI read: the engine's contract.

The core (the match) knows no rule: it asks the ruleset what is legal, what it costs, why not and what
the odds are, and hands it the commands to apply. A UI or AI uses only these answers.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

from game.commands import Command, value_class
from game.dice import Distribution
from game.engine.movement import PathTree
from game.events import Event
from game.hexgrid import Hex

if TYPE_CHECKING:
    from game.engine.match import Match

__all__ = [
    "DEPLOY",
    "AttackPreview",
    "LegalAction",
    "Outcome",
    "PosseSpec",
    "Prompt",
    "Ruleset",
    "StatusView",
    "TrackerEntry",
    "UnitSpec",
    "UnitView",
]


# The action that puts a unit on the map before the fight (game.engine.turns offers it, needs "hex"): the
# one action id the screens know, for the deploy-zone shading and the "Auto-deploy" button.
DEPLOY = "deploy"


@dataclass(frozen=True, slots=True)
class UnitSpec:
    """One unit of a posse as the player chose it; ``kind`` is the ruleset's unit type id."""

    kind: str
    name: str = ""
    loadout: tuple[str, ...] = ()  # chosen weapons / equipment option ids
    options: tuple[tuple[str, str], ...] = ()  # ruleset-specific choices (level, attitudes, talents, ...)


@dataclass(frozen=True, slots=True)
class PosseSpec:
    """A posse: the map side it deploys on, its faction within the ruleset, its name and its units."""

    side: str
    faction: str
    name: str
    units: tuple[UnitSpec, ...]
    controller: str = "human"  # "human" | "ai"


@value_class
class LegalAction:
    """One thing the acting unit (or side) could do now, with its cost and, if not allowed, why not.

    ``needs`` says what the command still has to name, and which :class:`Command` field carries it:

    - ``""``: nothing more;
    - ``"target"``: one of ``targets`` -> ``target``;
    - ``"targets"``: 1 to ``max_picks`` distinct entries of ``targets`` -> ``targets``;
    - ``"hex"``: one of ``hexes`` -> ``hex``;
    - ``"path"``: a path from the actor's hex whose last hex is one of ``hexes`` -> ``path``;
    - ``"choice"``: one of ``choices`` -> ``option``;
    - ``"assign"``: one entry of ``targets`` for each of ``max_picks`` successful dice, in die order ->
      ``targets`` (an entry may repeat: "You may choose the same target more than once"); ``dice`` holds
      those dice's values, in the same order, for the screen to show as chips.

    ``ends_turn`` marks the action that ends the acting unit's turn or activation (whatever the ruleset
    calls it): the screen puts it on its End Turn button and asks first while AP are left.

    ``public`` marks a decision with nothing hidden and no plan to see (a card drawn face up for a unit,
    the Joker's place): the screens raise no hand-over cover before it, show every such action of the
    deciding side at once and let a click on a unit's token make it.

    ``choice_labels``, when given, are the ``choices`` in a player's words, one for one ("Act 1st, before
    Sheriff (K\u2660)" for the choice "1"); a UI shows them on the choice buttons.

    Whatever the need, a non-empty ``choices`` is always picked into ``option``, and non-empty ``targets``
    beside a "path" or "choice" need are picked into ``target`` (a charge: its path and its target).
    A UI or AI that follows this needs no knowledge of the rules.

    A "path" action carries ``paths``, the rules' tree of cheapest paths from the actor (one search per
    unit): :meth:`path_to` is the canonical path to an end hex. :meth:`expand` yields every concrete
    command the action allows, paths canonical; ``Match.validate`` accepts exactly those (and, for a
    path, any other legal walk to one of its ends).
    """

    action: str
    label: str
    actor: int
    cost: int
    enabled: bool = True
    reason: str | None = None
    needs: str = ""
    targets: tuple[int, ...] = ()
    hexes: tuple[Hex, ...] = ()
    choices: tuple[str, ...] = ()
    side: str = ""
    option: str = ""
    max_picks: int = 1
    dice: tuple[int, ...] = ()
    choice_labels: tuple[str, ...] = ()
    ends_turn: bool = False  # the action that ends the unit's turn / activation (Enter, "End Turn")
    public: bool = False  # nothing hidden, no plan to see: no hand-over cover before it
    paths: PathTree | None = field(default=None, compare=False, hash=False, repr=False)

    def path_to(self, end: Hex) -> tuple[Hex, ...] | None:
        """The rules' canonical path from the actor to ``end`` (a "path" action), or None."""
        if self.paths is None or end not in self.hexes:
            return None
        return self.paths.path_to(end)

    def expand(self) -> Iterator[Command]:
        """Every concrete command this action allows (none if it is disabled), in a fixed order.

        "targets" yields every set of 1 to ``max_picks`` distinct targets; "assign" every way to give
        each die a target (``len(targets) ** max_picks`` commands); "path" the canonical path to each
        end hex (with each of ``targets`` when the action names a target too)."""
        if not self.enabled:
            return
        options = self.choices or (self.option,)
        need = self.needs
        for option in options:
            if need in ("", "choice"):
                if self.targets and need == "choice":
                    for t in self.targets:
                        yield self.command(target=t, option=option)
                else:
                    yield self.command(option=option)
            elif need == "target":
                for t in self.targets:
                    yield self.command(target=t, option=option)
            elif need == "targets":
                for k in range(1, min(self.max_picks, len(self.targets)) + 1):
                    for combo in itertools.combinations(self.targets, k):
                        yield self.command(targets=combo, option=option)
            elif need == "assign":
                for combo in itertools.product(self.targets, repeat=self.max_picks):
                    yield self.command(targets=combo, option=option)
            elif need == "hex":
                for h in self.hexes:
                    yield self.command(hex=h, option=option)
            elif need == "path":
                for h in self.hexes:
                    path = self.path_to(h)
                    if path is None:
                        continue
                    yield self.command(path=path, option=option)  # a target is optional beside a path
                    for t in self.targets:
                        yield self.command(path=path, target=t, option=option)

    def choice_label(self, choice: str) -> str:
        """The words for one of ``choices`` (the choice itself when the ruleset gave none)."""
        if choice in self.choices and len(self.choice_labels) == len(self.choices):
            return self.choice_labels[self.choices.index(choice)]
        return choice

    def command(
        self,
        *,
        target: int | None = None,
        hex: Hex | None = None,
        path: tuple[Hex, ...] = (),
        option: str = "",
        targets: tuple[int, ...] = (),
        number: int | None = None,
    ) -> Command:
        return Command(
            action=self.action,
            actor=self.actor,
            side=self.side,
            target=target,
            targets=targets,
            hex=hex,
            path=path,
            option=option or self.option,
            number=number,
        )


@value_class
class AttackPreview:
    """The exact odds of an attack before it is made (fractions, not samples)."""

    hit_chance: Fraction
    damage: Distribution  # damage dealt to the target, misses included as 0
    modifiers: tuple[tuple[str, int], ...]
    target_number: int | None
    notes: tuple[str, ...] = ()
    # an attack already rolled whose hits are being assigned: the stress each unit would take, in order
    per_target: tuple[tuple[int, int], ...] = ()
    # the chance the attack is made at all (a charge that must reach its end first), None: it is made;
    # ``hit_chance`` and ``damage`` are the odds once it is made
    reach_chance: Fraction | None = None
    # the attack is made later, if something sets it off (Hold Fire: the first valid target to move)
    later: bool = False
    # the face a die must show with every modifier counted, when one number decides (``target_number``
    # less the modifiers to the roll: "needs 4+ after +1"); None when the ruleset has no such number
    effective_number: int | None = None

    @property
    def expected_damage(self) -> Fraction:
        return self.damage.mean

    @property
    def unreachable(self) -> bool:
        """The attack cannot succeed (0%): shown as unreachable, never offered as a normal target."""
        return self.hit_chance == 0 and not self.per_target

    def needs_words(self) -> str:
        """The number the die needs, in a player's words: "needs 4+ after +1" (the printed 5+ less the
        modifiers), "needs 3+", "any roll after +2", "unreachable: cannot hit"; "" when no single number
        decides."""
        if self.unreachable:
            return "unreachable: cannot hit"
        target, effective = self.target_number, self.effective_number
        if effective is None or target is None:
            return f"needs {target}+" if target is not None else ""
        if effective == target:
            return f"needs {effective}+"
        if effective <= 1:
            return f"any roll after {target - effective:+d}"
        return f"needs {effective}+ after {target - effective:+d}"


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: str | None  # side id, None for a draw
    reason: str


@dataclass(frozen=True, slots=True)
class StatusView:
    """A status as a player sees it: its name and the rule text it comes from (the tooltip).

    ``rule`` is the rulebook's own words, quoted exactly; ``key`` is the ruleset's id of the status
    ("prone", "in_cover"); ``detail`` says what applies now, in a player's words ("by Gang Boss, until
    the start of Gang Boss's next turn"), "" if nothing more. ``badge`` is the letter or two the token's
    badge shows ("P", "HF"; "" for the name's first letter) and ``helps`` whether the status helps the
    unit (a round badge) or hinders it (a diamond): the screens decide neither.
    """

    name: str
    rule: str
    key: str = ""
    detail: str = ""
    badge: str = ""
    helps: bool = True


@value_class
class UnitView:
    """What the unit panel shows of a unit, in a player's words (the UI reads no component).

    ``health`` is (current, maximum) of the ruleset's damage track, named by ``health_name``
    ("Wounds", "Resolve"); ``stats`` are the stat line as (name, value) pairs; ``weapons`` one line per
    weapon (name and its numbers, ammo); ``out`` says how a unit left the fight ("" if it is in it);
    ``downed`` that it lies on the board out of the fight for now but not out of the battle (it may be
    revived, or finished off), which the board draws apart from a unit out of action.
    """

    unit: int
    name: str
    side: str
    kind: str  # the unit kind id (token art)
    kind_name: str  # the kind as printed ("Deputy", "Rifter (Deliberate 4 / Bold)")
    action_points: tuple[int, int]
    health: tuple[int, int]
    health_name: str
    stats: tuple[tuple[str, str], ...] = ()
    weapons: tuple[str, ...] = ()
    statuses: tuple[StatusView, ...] = ()
    items: tuple[str, ...] = ()
    out: str = ""
    art: tuple[str, ...] = ()  # extra art keys (a Rifter's attitudes)
    downed: bool = False


@dataclass(frozen=True, slots=True)
class TrackerEntry:
    """One slot of the initiative tracker: a unit, what decides its place (a card, a roll), whether it
    has acted this round and whether it acts now."""

    unit: int
    label: str  # "K\u2660", "Joker", "d20: 17"
    acted: bool = False
    active: bool = False
    card: bool = False  # a playing card (drawn as a card), else a roll


@dataclass(frozen=True, slots=True)
class Prompt:
    """A decision that breaks into the ordinary flow of turns, in a player's words: the banner the battle
    screen shows over the map so the player knows what set it off.

    ``title`` is short ("Hold Fire! React before the roll", "Place the Joker", "Assign the hits");
    ``text`` says what happened and what can be done now ("Gang Boss's Hold Fire fires at Kid as Kid
    moves. Doc may Nudge the roll, or pass."); ``cause`` is the unit whose action set it off and
    ``about`` the units it concerns (the ones in danger, the targets), for the screen to mark.
    """

    title: str
    text: str
    decider: int | None = None
    cause: int | None = None
    about: tuple[int, ...] = ()


class Ruleset(Protocol):
    """A rule system. Every method is given the match; ``validate`` and ``preview`` never mutate it."""

    name: str
    title: str

    def validate_posse(self, posse: PosseSpec) -> list[str]:
        """Every reason this posse may not be fielded (empty: it may)."""
        ...

    def validate_posses(self, posses: Sequence[PosseSpec]) -> list[str]:
        """Every reason these posses may not meet in one encounter: each posse's own problems (named by
        the posse) and those of the set (how many posses, units for the initiative); empty: they may.
        ``setup`` refuses the same with a ValueError, so a screen can ask before it starts a match."""
        ...

    def setup(self, match: Match) -> list[Event]:
        """Create the posses' entities and start the encounter (deployment comes as commands)."""
        ...

    def legal_actions(self, match: Match) -> list[LegalAction]:
        """Everything the unit or side whose decision it is could do now, disabled ones with a reason."""
        ...

    def validate(self, match: Match, cmd: Command) -> str | None:
        """None if ``cmd`` is legal now, else a reason a player can read."""
        ...

    def apply(self, match: Match, cmd: Command) -> list[Event]:
        """Carry out a command already validated; may draw from ``match.rng``."""
        ...

    def preview(self, match: Match, cmd: Command) -> AttackPreview | None:
        """The odds of an attack command, or None if ``cmd`` is not an attack."""
        ...

    def outcome(self, match: Match) -> Outcome | None:
        """The result once the encounter is over, else None."""
        ...

    def unit_view(self, match: Match, unit: int) -> UnitView:
        """The unit panel's facts about ``unit`` (stats, AP, health, weapons, statuses with rule text)."""
        ...

    def tracker(self, match: Match) -> list[TrackerEntry]:
        """The initiative order as it stands (this round's cards, or the rolled order). A ruleset may also
        define ``tracker_note(match) -> str``, the words shown beside the order (a deck's cards left and
        a reshuffle due); ``Match.tracker_note`` asks it and gives "" when it is not defined.
        A ruleset may also define ``offer_words(match, unit) -> list[tuple[str, int]]``: the label and cost
        of every action the unit may be offered on its turn (``Match.offer_words``; the battle screen fits
        its action bar over every unit's when the battle opens)."""
        ...

    def auto_deploy(self, match: Match) -> list[Command]:
        """Commands that deploy every unit not yet on the map (the "auto-deploy" button)."""
        ...

    def rules_summary(self) -> str:
        """A short summary of how a turn works, for the in-game help (F1)."""
        ...

    def printed_name(self, key: str) -> str | None:
        """The printed name of a weapon or item id of this ruleset (the combat log's words), else None."""
        ...

    def describe(self, match: Match, event: Event, name: Callable[[int], str]) -> str | None:
        """The combat log's line for ``event`` when the ruleset words it itself: an event of its own (Rift's
        stress), or a generic one whose plain wording would not do (the Joker's place, the hits assigned);
        None leaves the event to the log's generic wording. ``name`` is how the log names a unit."""
        ...

    def prompt(self, match: Match) -> Prompt | None:
        """The decision waiting now if it is not an ordinary turn (a reaction window, a hit assignment,
        the Joker's placement), else None."""
        ...

    def conceal(self, match: Match, rng: random.Random) -> None:
        """Re-shuffle, with ``rng``, whatever no player could know in ``match`` (a copy made by
        ``Match.clone(reseed=...)``): the order of undrawn cards. Nothing else may change."""
        ...
