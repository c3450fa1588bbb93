"""Facts about a match as numbers, for the AI (and anything else that reasons about a position).

Every ruleset answers these from its own components; they hold only what every player can see — never
an undrawn card or the RNG's state. ``UnitFacts`` is a unit's sheet as numbers; ``ThreatSource`` is a
reaction a walk would set off (an opportunity attack, a Hold Fire or Covering Fire shot) with its odds.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from game.commands import Command, value_class
from game.components import Position
from game.dice import Distribution
from game.engine.movement import PathTree
from game.engine.protocol import AttackPreview
from game.hexgrid import Hex

if TYPE_CHECKING:
    from game.engine.match import Match

__all__ = ["Odds", "PathReaction", "Reasoner", "StatusFacts", "Supposed", "UnitFacts", "WeaponFacts"]

# an attack's what-if odds at any hexes: ``ask(from_hex, at_hex)`` (None: where the units stand), as
# ``Match.what_if(cmd, from_hex, at_hex)`` answers while the match stays as it is (``Match.odds``)
Odds = Callable[[Hex | None, Hex | None], AttackPreview | None]


@value_class
class WeaponFacts:
    """A weapon as numbers: its id and name, ``kind`` ("ranged", "melee", "explosive"), the farthest it
    reaches in hexes (``reach``) and where it is at its best (``best_range``: hexes), shots left (None: no
    count) of ``max_ammo``, the dice it rolls ("1d6", "3 dice, 4+") and its blast radius (explosives).
    ``action`` and ``option`` are how the unit attacks with it (a command's action id and option), so a
    question about an attack on some unit can be asked of any unit, on its turn or not."""

    id: str
    name: str
    kind: str
    reach: int
    best_range: int
    ammo: int | None = None
    max_ammo: int | None = None
    dice: str = ""
    radius: int = 0
    action: str = ""
    option: str = ""


@value_class
class StatusFacts:
    """A status on a unit: its id, whether it helps the unit, and who inflicted it (None: itself/no one)."""

    id: str
    helps: bool
    inflictor: int | None = None


@value_class
class UnitFacts:
    """A unit as numbers. ``health`` is (now, most) of the ruleset's damage track and ``health_parts``
    its parts by name ("Toughness", "Wounds"); ``action_points`` (now, per turn); ``move`` what it can
    walk this turn in movement points (``charge``: what a charge adds to it, rolled); ``fights`` False
    once it has left the fight (down, fled); ``acted`` whether it has had its turn this round; ``value``
    how much its side stands to lose with it (a leader more), on the ruleset's own scale.
    """

    unit: int
    side: str
    kind: str
    position: Hex | None
    health: tuple[int, int]
    health_parts: tuple[tuple[str, int, int], ...]
    action_points: tuple[int, int]
    move: int
    weapons: tuple[WeaponFacts, ...]
    statuses: tuple[StatusFacts, ...]
    leader: bool = False
    acted: bool = False
    fights: bool = True
    items: tuple[str, ...] = ()
    value: float = 1.0
    # the movement a charge adds, rolled (a walk ending in a melee attack); None: the unit has no charge
    charge: Distribution | None = None


@value_class
class PathReaction:
    """An attack a walk would set off: who makes it, what kind ("opportunity attack", "hold fire",
    "covering fire"), the step of the walk during which it happens (0: the first step), its exact odds
    there and ``at``, the tile the walker stands on when it is attacked (the screens mark it there)."""

    reactor: int
    kind: str
    step: int
    preview: AttackPreview | None
    chance: Fraction = Fraction(1)  # how likely it happens at all (1: certainly)
    at: Hex | None = None


@runtime_checkable
class Reasoner(Protocol):
    """What a ruleset answers for the AI about a position (every shipped ruleset does; ``Match`` asks
    these through its own methods, ``Match.unit_facts`` and the rest). Read-only, like ``preview``."""

    def unit_facts(self, match: Match, unit: int) -> UnitFacts:
        """The unit's sheet as numbers."""
        ...

    def what_if(
        self, match: Match, cmd: Command, from_hex: Hex | None = None, at_hex: Hex | None = None
    ) -> AttackPreview | None:
        """The exact odds of the attack ``cmd`` with the attacker at ``from_hex`` and its target at
        ``at_hex`` (None: where they stand); None where the attack would be illegal there."""
        ...

    def movement(self, match: Match, unit: int) -> PathTree:
        """Where ``unit`` could walk with an ordinary move now: costs and canonical paths."""
        ...

    def path_reactions(self, match: Match, unit: int, path: tuple[Hex, ...]) -> tuple[PathReaction, ...]:
        """The attacks walking ``path`` would set off, with their odds."""
        ...

    def morale_risk(self, match: Match, side: str) -> dict[int, Fraction]:
        """How likely each unit of ``side`` breaks or flees at the next morale test as things stand
        ({} when the ruleset has none)."""
        ...


class Supposed:
    """A what-if question's two units put where it supposes them (``from_hex`` for the attacker,
    ``at_hex`` for the target; None: where they stand) and back where they stood when the ``with``
    block ends, however it ends. By hand, not through the rules' moves: asked thousands of times a
    game. Entering gives the hexes the question is asked at (either may be None: a unit off the map)."""

    __slots__ = ("here", "mine", "theirs", "there")

    def __init__(self, mine: Position, theirs: Position, from_hex: Hex | None, at_hex: Hex | None) -> None:
        self.mine, self.theirs = mine, theirs
        self.here, self.there = mine.hex, theirs.hex
        if from_hex is not None:
            mine.hex = from_hex
        if at_hex is not None:
            theirs.hex = at_hex

    def __enter__(self) -> tuple[Hex | None, Hex | None]:
        return self.mine.hex, self.theirs.hex

    def __exit__(self, *exc: object) -> None:
        self.mine.hex, self.theirs.hex = self.here, self.there
