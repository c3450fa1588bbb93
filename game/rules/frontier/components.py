"""Frontier's esper components: slotted dataclasses, data only (the rules live in the ruleset modules)."""

from __future__ import annotations

from dataclasses import dataclass, field

from game.engine.turns import Encounter
from game.hexgrid import Hex

__all__ = [
    "Activation",
    "FrontierGame",
    "FrontierTask",
    "FrontierUnit",
    "Health",
    "LeaderAbility",
    "MapItem",
    "Status",
    "Weapon",
]


@dataclass(slots=True)
class FrontierUnit:
    """The unit's stat block id (``frontier.toml`` [units.<kind>]) and the faction it fights for."""

    kind: str
    faction: str
    leader: bool = False


@dataclass(slots=True)
class Weapon:
    """The weapon the unit carries (its "A OR B" choice) and the shots left in it (None: no ammo count)."""

    weapon: str
    ammo: int | None = None


@dataclass(slots=True)
class Health:
    """Damage track: Toughness is lost first, then Wounds; ``temporary`` is Dastardly's extra wound."""

    toughness: int
    wounds: int
    temporary: int = 0


@dataclass(slots=True)
class Status:
    prone: bool = False
    wounded: bool = False
    seriously_injured: bool = False
    taking_cover: bool = False


@dataclass(slots=True)
class Activation:
    """Initiative and this activation's bookkeeping."""

    card: int | None = None  # initiative value this round (None: no card, or discarded)
    card_name: str = ""
    joker: bool = False  # drew the Joker and waits for its owner to place it
    activated: bool = False  # took (or lost) its activation this round
    basic_used: list[str] = field(default_factory=list)  # Basic actions taken this activation
    aimed: bool = False
    disengaged: bool = False
    attacked: list[int] = field(default_factory=list)  # units it attacked this activation (Canine Agility)


@dataclass(slots=True)
class LeaderAbility:
    ability: str
    ready_round: int = 1  # the first round it may be used (again)


@dataclass(slots=True)
class MapItem:
    """An item lying on the map until a unit takes it into its posse's inventory."""

    hex: Hex
    name: str
    taken_by: str = ""  # the side whose inventory it went into


@dataclass(slots=True)
class FrontierTask:
    """A pending step of Frontier's flow (the engine's stack, game.engine.flow): a walk taken a step at a
    time (each step may set off opportunity attacks), an attack waiting its turn, a charge's attack once
    its move is done. Frontier has no reaction with a choice, so the stack always settles within the
    command that pushed it."""

    kind: str  # walk | attack | charge_attack
    unit: int  # the walker / the attacker / the charger
    steps: list[Hex] = field(default_factory=list)  # walk: the steps still to take
    walked: list[Hex] = field(default_factory=list)  # walk: this leg so far, from where it started
    cost: int = 0  # walk: what this leg cost
    attacked_by: list[int] = field(default_factory=list)  # walk: who already made an opportunity attack
    target: int = 0  # attack: the unit attacked; charge_attack: the declared target (0: none)
    weapon: str = ""  # attack: the weapon id
    note: str = ""  # attack: the rule that set it off ("opportunity attack")
    reactors: list[int] = field(default_factory=list)  # never filled: no Frontier reaction has a choice


@dataclass(slots=True)
class FrontierGame(Encounter):
    """The encounter's turn state, on its own entity: the engine's :class:`Encounter` (round, phase —
    deployment | initiative | joker | action | end | over —, the activation order and the active unit)
    and Frontier's own: the initiative deck and who draws, and the pending steps."""

    # the ids of the cards left to draw ("KS", "RJ": game.engine.cards), top of the deck last; their
    # order is hidden from the players
    deck: list[str] = field(default_factory=list, metadata={"hidden": "order"})
    draw_order: list[str] = field(default_factory=list)  # the side drawing each card this round
    draws_made: int = 0
    fielded: int = 0  # units on the field at the start of the encounter
    stack: list[FrontierTask] = field(default_factory=list)
