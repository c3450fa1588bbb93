"""esper components shared by every ruleset: slotted dataclasses, data only.

A ruleset adds its own components (stats, weapons, statuses) in its package; these are the ones the
core, the UI and the AI can rely on whatever the rules are.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.hexgrid import Hex

__all__ = ["ActionPoints", "Identity", "Inventory", "Position", "Removed"]


@dataclass(slots=True)
class Identity:
    """Who a unit is: its side (the map's deploy side, e.g. "side1"), its type and its display name."""

    side: str
    kind: str
    name: str
    index: int  # the unit's place in its posse (0-based), stable across saves


@dataclass(slots=True)
class Position:
    """Where a unit stands; None until it is deployed."""

    hex: Hex | None = None


@dataclass(slots=True)
class ActionPoints:
    current: int
    per_activation: int
    bonus_next: int = 0  # granted AP waiting for the unit's next activation (e.g. Follow Me!)


@dataclass(slots=True)
class Removed:
    """A unit that has left play (out of action, fled); kept as an entity for the results screen."""

    reason: str


@dataclass(slots=True)
class Inventory:
    """A posse's shared inventory (Frontier: "accessible to the whole Posse"), on the side's entity."""

    side: str
    items: list[str] = field(default_factory=list)
