"""Through the Rift's esper components: slotted dataclasses, data only (the rules live in the rules modules
and the ability modules)."""

from __future__ import annotations

from dataclasses import dataclass, field

from game.engine.turns import Encounter
from game.hexgrid import Hex

__all__ = [
    "Combatant",
    "GroundItem",
    "Inventory",
    "Resolve",
    "RiftGame",
    "Shield",
    "ShotRecord",
    "StatusRecord",
    "Statuses",
    "Task",
    "TurnState",
]


@dataclass(slots=True)
class Combatant:
    """What a unit is: "rifter", an enemy id or a companion id, and everything it can do."""

    kind: str
    level: int
    attitudes: list[str]
    actions: list[str]  # attitude / talent / enemy actions (basic actions are everyone's)
    traits: list[str]
    talents: list[str]
    weapons: list[str]
    owner: int = 0  # a companion's Rifter
    companion: bool = False
    move_tiles: int = 2


@dataclass(slots=True)
class Resolve:
    current: int
    maximum: int
    overcome: bool = False


@dataclass(slots=True)
class StatusRecord:
    """One status effect; it ends at the start of ``inflictor``'s next turn."""

    kind: str  # in_cover (crouched) | suppressed | stunned | taunted | overwhelmed | half_stress |
    # hold_fire | covering_fire
    inflictor: int
    weapon: str = ""  # hold_fire: the firearm held ready
    shot_at: list[int] = field(default_factory=list)  # covering_fire: units already shot


@dataclass(slots=True)
class Statuses:
    items: list[StatusRecord] = field(default_factory=list)


@dataclass(slots=True)
class TurnState:
    """Per-turn bookkeeping (reset at the start of the unit's turn) and what carries over."""

    initiative: int = 0
    attacked: bool = False
    sprinted: bool = False
    vigilance: int = 0  # Constant Vigilance's point, not spendable on the own turn
    protected_turn: int = -1  # "Duck!" / Dodge Roll: no stress during this turn number
    # Down the Sights taken and not yet spent on a hit: False (none), True (one), 2, 3 ... (docs/RULES.md
    # R29); one is kept as True rather than 1 so that saves made before a second could be taken replay to
    # the same digest
    down_the_sights: int = False
    started: bool = False  # had a turn this encounter
    stun_paid: bool = False  # the current stun already took its point


@dataclass(slots=True)
class Shield:
    """Deploy Cover's omnidirectional shield lying in a tile."""

    owner: int
    hex: Hex


@dataclass(slots=True)
class Inventory:
    """What a unit carries (item names, as on the map)."""

    items: list[str] = field(default_factory=list)


@dataclass(slots=True)
class GroundItem:
    """An item lying in a tile until a unit picks it up (map items; what an overcome unit dropped)."""

    hex: Hex
    name: str


@dataclass(slots=True)
class ShotRecord:
    value: int
    hit: bool
    rolls: list[int]


@dataclass(slots=True)
class Task:
    """One step of the flow waiting on the stack: a walk, an attack in one of its stages, a reposition."""

    kind: str  # walk | attack | reposition | turn_start
    unit: int  # the walker / attacker / the unit whose turn starts
    steps: list[Hex] = field(default_factory=list)
    mode: str = ""  # attack: fire | explosive | hold_fire | covering_fire | scary_yelling | run_and_gun |
    # haymaker
    weapon: str = ""
    stage: str = ""  # attack: nudge | roll | assign | protect | apply
    impact: Hex | None = None
    forced: int = 0  # the only target (Hold Fire, Covering Fire: the mover)
    nudges: int = 0
    shots: list[ShotRecord] = field(default_factory=list)
    assigned: list[int] = field(default_factory=list)
    reactors: list[int] = field(default_factory=list)  # window: who is still to decide, first first


@dataclass(slots=True)
class RiftGame(Encounter):
    """The encounter's turn state (the engine's :class:`~game.engine.turns.Encounter`: phase
    "deployment" | "battle" | "over", the order rolled once, ``turn`` its index) and Through the Rift's
    own: the number of turns begun, the pending steps, who was stabilised after the encounter."""

    turn_number: int = 0
    stack: list[Task] = field(default_factory=list)
    stabilised: list[list[int]] = field(default_factory=list)  # [unit, resolve] after the encounter
