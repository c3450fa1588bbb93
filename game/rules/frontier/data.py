"""Frontier's rule data (stat blocks, weapons, abilities, items, posse limits) loaded from frontier.toml.

The loader is strict: an unknown key, a missing key or a value of the wrong type or range is a
:class:`FrontierDataError` naming the table and key, never passed through silently.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from game.engine import dataload
from game.resources import rules_data_file

__all__ = [
    "ACTION_IDS",
    "DATA_FILE",
    "PHASE_ACTION_IDS",
    "AbilityData",
    "ActionData",
    "FactionData",
    "FrontierData",
    "FrontierDataError",
    "ItemData",
    "UnitData",
    "WeaponData",
    "default_data",
    "load_data",
    "parse_data",
]

DATA_FILE = rules_data_file("frontier")
T = TypeVar("T")
# the actions the rules implement, in the order the action bar shows them (the book's list order)
ACTION_IDS = (
    *("move", "reload", "coup_de_grace", "operate_door", "take_item"),
    *("shoot", "aim", "melee", "disengage", "take_cover", "stand_up", "use_item"),
    *("leader_action", "charge", "end_activation"),
)

# the Initiative phase's decisions: optional in [actions], for their tooltips (the rulebook's sentence)
PHASE_ACTION_IDS = ("draw_card", "place_joker")


class FrontierDataError(ValueError):
    """frontier.toml (or a replacement) is not valid; the message names the table and key."""


def _id() -> Any:
    return field(metadata={"id": True})


def _num(low: int, high: int, default: int | None = None) -> Any:
    """A whole number from ``low`` to ``high``; required unless it has a ``default``."""
    if default is None:
        return field(default=low, metadata={"range": (low, high), "required": True})
    return field(default=default, metadata={"range": (low, high)})


def _text(choices: tuple[str, ...] = ()) -> Any:
    """Text a table must give (one of ``choices`` when given)."""
    meta: dict[str, Any] = {"required": True}
    if choices:
        meta["choices"] = choices
    return field(default="", metadata=meta)


def _names() -> Any:
    return field(default=(), metadata={"required": True})


@dataclass(frozen=True, slots=True)
class WeaponData:
    id: str = _id()
    name: str = _text()
    kind: str = _text(("ranged", "melee"))
    short_range: int = _num(1, 100)
    # no long range ("-"): the short range
    long_range: int = field(default=0, metadata={"range": (1, 100), "default_from": "short_range"})
    short_accuracy: int = _num(-5, 5, 0)
    long_accuracy: int = _num(-5, 5, 0)
    damage: int = _num(1, 20)
    ammo: int | None = field(default=None, metadata={"range": (1, 100)})  # None: "can be used indefinitely"
    own: bool = False  # Hexslinger's own addition, not printed in the rulebook

    @property
    def is_ranged(self) -> bool:
        return self.kind == "ranged"


@dataclass(frozen=True, slots=True)
class ActionData:
    """An action as the rulebook lists it: its name, AP cost, kind ("simple" repeatable, "basic" once per
    activation, "major", "free") and the rulebook's sentence."""

    id: str = _id()
    name: str = _text()
    cost: int = _num(0, 10)
    kind: str = _text(("simple", "basic", "major", "free"))
    text: str = _text()


@dataclass(frozen=True, slots=True)
class AbilityData:
    id: str = _id()
    name: str = _text()
    passive: bool = False
    recharge: int = _num(0, 20, 0)
    range: int = _num(0, 100, 0)
    max_targets: int = _num(0, 10, 0)
    extra_ap: int = _num(0, 5, 0)
    temporary_wounds: int = _num(0, 5, 0)
    text: str = _text()  # the rulebook's sentence (the printed unit card, hexslinger print-posse)


@dataclass(frozen=True, slots=True)
class ItemData:
    id: str = _id()
    name: str = _text()
    effect: str = _text(("revive",))
    range: int = _num(0, 100)
    restores: int = _num(1, 20)


@dataclass(frozen=True, slots=True)
class UnitData:
    id: str = _id()
    name: str = _text()
    move: int = _num(1, 30)
    ballistics: int | None = field(default=None, metadata={"range": (1, 7)})  # None: "N/A"
    melee: int = _num(1, 7)
    toughness: int = _num(0, 20)
    wounds: int = _num(1, 20)
    leadership: int | None = field(default=None, metadata={"range": (0, 6)})
    cool: int = _num(1, 7)
    weapons: tuple[str, ...] = _names()
    abilities: tuple[str, ...] = ()
    leader: bool = False


@dataclass(frozen=True, slots=True)
class FactionData:
    id: str = _id()
    name: str = _text()
    units: tuple[str, ...] = _names()
    max_units: int = _num(1, 20)
    duplicates: bool = field(default=False, metadata={"required": True})


@dataclass(frozen=True, slots=True)
class EncounterData:
    action_points: int = _num(1, 10)  # "Each Unit has a total of 2 action points (AP)"
    max_rounds: int = _num(1, 1000)  # Hexslinger's own: the sun goes down after this many rounds


@dataclass(frozen=True, slots=True)
class FrontierData:
    action_points: int
    max_rounds: int
    weapons: Mapping[str, WeaponData]
    abilities: Mapping[str, AbilityData]
    items: Mapping[str, ItemData]
    units: Mapping[str, UnitData]
    factions: Mapping[str, FactionData]
    actions: Mapping[str, ActionData]

    def item_by_name(self, name: str) -> ItemData | None:
        for item in self.items.values():
            if item.name.lower() == name.lower():
                return item
        return None


# -- validation: each table by its dataclass (game.engine.dataload), then what crosses tables ----------

TABLES = ("encounter", "actions", "weapons", "abilities", "items", "units", "factions")


def _tables(doc: dict[str, Any], name: str, cls: type[T]) -> dict[str, T]:
    return dataload.load_tables(cls, doc, name, error=FrontierDataError)


def parse_data(doc: dict[str, Any]) -> FrontierData:
    """Validate a parsed TOML document and build the typed data."""
    for key in doc:
        if key not in TABLES:
            raise FrontierDataError(f"unknown table [{key}] (known: {', '.join(TABLES)})")
    enc = dataload.load(EncounterData, "[encounter]", doc.get("encounter", {}), error=FrontierDataError)
    weapons = _tables(doc, "weapons", WeaponData)
    for wid, weapon in weapons.items():
        if weapon.long_range < weapon.short_range:
            where = f"[weapons.{wid}]"
            raise FrontierDataError(
                f"{where}: 'long_range' is {weapon.long_range}, must be from {weapon.short_range} to 100"
            )
    if "unarmed" not in weapons or weapons["unarmed"].is_ranged:
        raise FrontierDataError("[weapons.unarmed] must exist and be a melee weapon")
    abilities = _tables(doc, "abilities", AbilityData)
    items = _tables(doc, "items", ItemData)
    units = _tables(doc, "units", UnitData)
    for uid, unit in units.items():
        where = f"[units.{uid}]"
        if unit.leader != (unit.leadership is not None):
            raise FrontierDataError(f"{where}: a leader (and only a leader) has 'leadership'")
        if not unit.weapons:
            raise FrontierDataError(f"{where}: 'weapons' must name at least one weapon")
        for w in unit.weapons:
            if w not in weapons:
                raise FrontierDataError(f"{where}: 'weapons' names unknown weapon '{w}'")
        for a in unit.abilities:
            if a not in abilities:
                raise FrontierDataError(f"{where}: 'abilities' names unknown ability '{a}'")
        if any(weapons[w].is_ranged for w in unit.weapons) and unit.ballistics is None:
            raise FrontierDataError(f"{where}: a unit with a ranged weapon needs 'ballistics'")
    factions = _tables(doc, "factions", FactionData)
    for fid, faction in factions.items():
        where = f"[factions.{fid}]"
        for u in faction.units:
            if u not in units:
                raise FrontierDataError(f"{where}: 'units' names unknown unit '{u}'")
        if sum(units[u].leader for u in faction.units) > 1:
            raise FrontierDataError(f"{where}: a faction has at most one leader")
    actions = _tables(doc, "actions", ActionData)
    missing = [a for a in ACTION_IDS if a not in actions]
    if missing:
        raise FrontierDataError(f"[actions] is missing {', '.join(missing)}")
    unknown = [a for a in actions if a not in (*ACTION_IDS, *PHASE_ACTION_IDS)]
    if unknown:
        raise FrontierDataError(
            f"[actions] has no rules for {', '.join(unknown)} "
            f"(known: {', '.join((*ACTION_IDS, *PHASE_ACTION_IDS))})"
        )
    return FrontierData(
        enc.action_points, enc.max_rounds, weapons, abilities, items, units, factions, actions
    )


def load_data(path: str | Path = DATA_FILE) -> FrontierData:
    """Load and validate a Frontier data file."""
    path = Path(path)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise FrontierDataError(f"{path.name} is not valid TOML: {error}") from None
    try:
        return parse_data(doc)
    except FrontierDataError as error:
        raise FrontierDataError(f"{path.name}: {error}") from None


@functools.cache
def default_data() -> FrontierData:
    """The shipped frontier.toml, loaded once."""
    return load_data(DATA_FILE)
