"""The extension points attitudes and talents plug into: action definitions and trait hooks.

Each attitude (``attitudes/<name>.py``) and ``talents.py`` registers its actions and traits here at import;
the engine (``ruleset.py``) asks the registry, never names an attitude's ability itself. Hook points:

- actions: availability (``problem``), valid picks (``picks``), extra checks (``check``), the effect
  (``apply``), and where it may be used off-turn (``windows``: "nudge", "protect", "turn_start");
- traits: dice traits (``dice`` -> :class:`~game.rules.rift.stress.DiceTraits`), stress multipliers on
  the way out (``outgoing``) and in (``incoming``), what a hit does (``on_hit``), what an explosion does
  (``after_explosion``), statuses a unit is immune to (``immune``), all-round cover (``all_round_cover``),
  extra movement (``move_bonus``), AP at the start of a turn (``turn_start``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from game.commands import Command
from game.events import Event
from game.hexgrid import Hex
from game.rules.rift.stress import DiceTraits

if TYPE_CHECKING:
    from game.engine.match import Match
    from game.rules.rift.components import Task
    from game.rules.rift.data import WeaponData
    from game.rules.rift.ruleset import RiftRuleset

__all__ = [
    "ACTIONS",
    "TRAITS",
    "ActionDef",
    "ApplyFn",
    "Factors",
    "PickFn",
    "Picks",
    "TraitDef",
    "register_action",
    "register_trait",
]


@dataclass(frozen=True, slots=True)
class Picks:
    targets: tuple[int, ...] = ()
    hexes: tuple[Hex, ...] = ()
    choices: tuple[str, ...] = ()


Problem = Callable[["RiftRuleset", "Match", int], "str | None"]
PickFn = Callable[["RiftRuleset", "Match", int, str], Picks]
CheckFn = Callable[["RiftRuleset", "Match", int, Command], "str | None"]
ApplyFn = Callable[["RiftRuleset", "Match", int, Command, list[Event]], None]
Factors = list[tuple[str, Fraction]]


def _no_problem(rs: RiftRuleset, match: Match, unit: int) -> str | None:
    return None


def _no_picks(rs: RiftRuleset, match: Match, unit: int, option: str) -> Picks:
    return Picks()


@dataclass(frozen=True, slots=True)
class ActionDef:
    """How an action (data in rift.toml [actions]) is offered, checked and carried out.

    ``weapons``: "firearm" / "explosive" offers one entry per carried weapon of that kind (its id in
    ``option``); ``options`` offers one entry per string it returns instead (an item name); ``budget``
    is the movement of a "path" action (a function of the unit: Killer Calves).
    """

    id: str
    needs: str = ""  # "", "target", "hex", "path"
    weapons: str = ""  # "", "firearm", "explosive"
    options: Callable[[RiftRuleset, Match, int], list[str]] | None = None
    no_options: str = "nothing to pick"  # the reason shown when ``options`` gives nothing
    no_picks: str = ""  # the reason shown when ``picks`` gives nothing (default: a generic one)
    windows: tuple[str, ...] = ()  # off-turn windows it may be used in
    cunning: bool = False  # a cunning attitude action (Battlefield Commander)
    anytime: bool = False  # usable off-turn by its own text (Dodge Roll)
    moves: bool = False  # moves the unit (refused while Overwhelmed)
    problem: Problem = _no_problem
    picks: PickFn = _no_picks
    check: CheckFn | None = None
    apply: ApplyFn | None = None
    budget: Callable[[RiftRuleset, int], int] | None = None
    # picks in an off-turn window (match, the window's task, the reactor); an empty Picks: not offered
    window_picks: Callable[[RiftRuleset, Match, Task, int], Picks] | None = None


@dataclass(frozen=True, slots=True)
class TraitDef:
    id: str
    dice: Callable[[WeaponData, DiceTraits], DiceTraits] | None = None
    outgoing: Callable[[RiftRuleset, Match, int, int, WeaponData], Factors] | None = None
    incoming: Callable[[RiftRuleset, Match, int, int], Factors] | None = None
    on_hit: Callable[[RiftRuleset, Match, int, int, WeaponData, str, list[Event]], None] | None = None
    after_explosion: Callable[[RiftRuleset, Match, int, Hex, list[Event]], None] | None = None
    immune: frozenset[str] = field(default_factory=frozenset)
    ignores_cover: bool = False
    all_round_cover: Callable[[RiftRuleset, Match, int], bool] | None = None
    turn_start: Callable[[RiftRuleset, Match, int], None] | None = None


ACTIONS: dict[str, ActionDef] = {}
TRAITS: dict[str, TraitDef] = {}


def register_action(action: ActionDef) -> ActionDef:
    ACTIONS[action.id] = action
    return action


def register_trait(trait: TraitDef) -> TraitDef:
    TRAITS[trait.id] = trait
    return trait
