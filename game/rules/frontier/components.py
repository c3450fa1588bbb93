"""Frontier's esper components: slotted dataclasses, data only (the rules live in the ruleset modules)."""

from __future__ import annotations

from dataclasses import dataclass, field

from game.hexgrid import Hex

__all__ = [
    "Activation",
    "FrontierGame",
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
class FrontierGame:
    """The encounter's turn state, on its own entity."""

    round: int = 0
    phase: str = "deployment"  # deployment | initiative | joker | action | over
    deploy_order: list[str] = field(default_factory=list)  # sides, in the order they deploy
    # card names left to draw, top of the deck last; their order is hidden from the players
    deck: list[str] = field(default_factory=list, metadata={"hidden": "order"})
    draw_order: list[str] = field(default_factory=list)  # the side drawing each card this round
    draws_made: int = 0
    order: list[int] = field(default_factory=list)  # activation order this round
    turn: int = 0  # index into ``order`` of the acting unit
    active: int = 0  # acting unit's entity id (0: none)
    fielded: int = 0  # units on the field at the start of the encounter
    winner: str = ""
    result: str = ""  # why the encounter ended ("" while it goes on)
