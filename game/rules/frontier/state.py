"""Read-only queries over a Frontier match (no rule here changes anything)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

import esper

from game.components import ActionPoints, Identity, Inventory, Position, Removed
from game.hexgrid import Hex, hex_distance
from game.rules.frontier.components import (
    Activation,
    FrontierGame,
    FrontierUnit,
    Health,
    LeaderAbility,
    MapItem,
    Status,
    Weapon,
)
from game.rules.frontier.data import FrontierData, UnitData, WeaponData

if TYPE_CHECKING:
    from game.engine.match import Match

C = TypeVar("C")


# an entity's component of a kind (KeyError if it has none): esper's own function, not a wrapper round it,
# as the rules ask it about a million times a game of AI play
comp = esper.component_for_entity


def game_state(match: Match) -> FrontierGame:
    found = match.first_component(FrontierGame)
    if found is not None:
        return found[1]
    raise LookupError("this match has no Frontier game state")


def is_unit(match: Match, entity: int) -> bool:
    match.enter()
    return esper.entity_exists(entity) and esper.has_component(entity, FrontierUnit)


def side_of(unit: int) -> str:
    return comp(unit, Identity).side


def name_of(unit: int) -> str:
    return comp(unit, Identity).name


def in_play(unit: int) -> bool:
    return not esper.has_component(unit, Removed)


def seriously_injured(unit: int) -> bool:
    return comp(unit, Status).seriously_injured


def able(unit: int) -> bool:
    """In play and not Seriously Injured: a unit that still fights."""
    return in_play(unit) and not seriously_injured(unit)


def down(unit: int) -> bool:
    """Out of the fight: Seriously Injured, Out of Action or fled (see docs/RULES.md "Cool checks")."""
    return not able(unit)


def empty(unit: int) -> bool:
    """Whether the unit's gun has fired its AMMO count and must be reloaded before it fires again."""
    ammo = comp(unit, Weapon).ammo
    return ammo is not None and ammo <= 0


def hex_of(unit: int) -> Hex | None:
    return comp(unit, Position).hex


def unit_data(data: FrontierData, unit: int) -> UnitData:
    return data.units[comp(unit, FrontierUnit).kind]


def weapon_data(data: FrontierData, unit: int) -> WeaponData:
    return data.weapons[comp(unit, Weapon).weapon]


def melee_weapon(data: FrontierData, unit: int) -> WeaponData:
    """The weapon a unit fights in close combat with: its melee weapon, else its fists (Hexslinger's own)."""
    carried = weapon_data(data, unit)
    return data.weapons["unarmed"] if carried.is_ranged else carried


def ap(unit: int) -> ActionPoints:
    return comp(unit, ActionPoints)


def activation(unit: int) -> Activation:
    return comp(unit, Activation)


def status(unit: int) -> Status:
    return comp(unit, Status)


def health(unit: int) -> Health:
    return comp(unit, Health)


def leader_ability(unit: int) -> LeaderAbility | None:
    return esper.try_component(unit, LeaderAbility)


def distance(a: int, b: int) -> int:
    ha, hb = hex_of(a), hex_of(b)
    if ha is None or hb is None:
        return 1 << 30
    return hex_distance(ha, hb)


def hostiles(match: Match, unit: int) -> list[int]:
    """Able, deployed units of other sides."""
    side = side_of(unit)
    return [u for u in match.units() if side_of(u) != side and able(u) and hex_of(u) is not None]


def allies(match: Match, unit: int) -> list[int]:
    side = side_of(unit)
    return [u for u in match.units(side) if u != unit]


def engaged_with(match: Match, unit: int) -> list[int]:
    """Close combat: able hostile units within 1" (docs/RULES.md "Close combat")."""
    here = hex_of(unit)
    if here is None:
        return []
    side = side_of(unit)
    return [
        u
        for u in match.units()
        if (there := hex_of(u)) is not None
        and hex_distance(here, there) <= 1
        and side_of(u) != side
        and able(u)
    ]


def leader_of(match: Match, side: str) -> int | None:
    for u in match.units(side, in_play=False):
        if comp(u, FrontierUnit).leader:
            return u
    return None


def inventory(match: Match, side: str) -> Inventory | None:
    """The side's inventory (the lowest entity's, should there be two), found without sorting them all:
    every unit's facts ask for it."""
    found = match.first_component(Inventory, lambda inv: inv.side == side)
    return None if found is None else found[1]


def items_on_map(match: Match) -> list[tuple[int, MapItem]]:
    return [(e, item) for e, item in match.iter_components(MapItem) if not item.taken_by]


def blocked_hexes(match: Match, mover: int) -> frozenset[Hex]:
    """Hexes a unit cannot enter: every other unit in play (Seriously Injured ones too)."""
    return frozenset(h for h, u in match.occupied().items() if u != mover)
