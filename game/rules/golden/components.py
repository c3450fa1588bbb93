"""Golden Frontiers' components: a unit's sheet, its health track, its weapons and its round; the
encounter's turn state. The deck is the engine's :class:`game.engine.cards.MatchDeck`, on the game entity
beside :class:`GoldenGame` (its undrawn order hidden, its composition public)."""

from __future__ import annotations

from dataclasses import dataclass, field

from game.engine.turns import Encounter

__all__ = ["Arms", "Character", "GoldenGame", "Health", "RoundState"]


@dataclass(slots=True)
class Character:
    """A unit's sheet: its kind ("character" or an NPC template id) and its four trait dice (sides).
    ``group`` is the Large Group it draws one initiative card with ("" draws its own card)."""

    kind: str
    survival: int
    intuition: int
    reflexes: int
    slickness: int
    npc: bool = False
    group: str = ""


@dataclass(slots=True)
class Health:
    """The book's damage bookkeeping: grazes, wounds up to ``max_wounds``, a crippling wound; ``dead``
    only by an execution."""

    max_wounds: int
    grazes: int = 0
    wounds: int = 0
    crippled: bool = False
    dead: bool = False


@dataclass(slots=True)
class Arms:
    """The weapons a unit carries (ids) with the shots loaded in each (one entry per weapon), and its
    other gear."""

    weapons: list[str] = field(default_factory=list)
    loaded: list[int] = field(default_factory=list)
    gear: list[str] = field(default_factory=list)


@dataclass(slots=True)
class RoundState:
    """A unit's round: its initiative card ("" none: it waited, or takes no card), how far it moved, its
    one action, a free load, whether its activation is over, Biding Time and waiting the whole round."""

    card: str = ""
    moved: int = 0
    acted: bool = False
    free_load: bool = False
    done: bool = False
    biding: bool = False
    waiting: bool = False


@dataclass(slots=True)
class GoldenGame(Encounter):
    """The engine's encounter state (round, phase — deployment | action | window | over —, the acting
    order, the active unit) and Golden Frontiers' own: ``top``, the units that waited the whole last
    round, in their order (first this round, with no card); ``asking``, the biders still to be asked in
    the open Biding Time window, in order; ``last``: the window is the round's last (passing then waits
    the whole round)."""

    top: list[int] = field(default_factory=list)
    asking: list[int] = field(default_factory=list)
    last: bool = False
