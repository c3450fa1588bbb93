"""Frontier's rule data (stat blocks, weapons, abilities, items, posse limits) loaded from frontier.toml.

The loader is strict: an unknown key, a missing key or a value of the wrong type or range is a
:class:`FrontierDataError` naming the table and key, never passed through silently.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.resources import rules_data_file
from game.rules import datacheck as dc

__all__ = [
    "ACTION_IDS",
    "DATA_FILE",
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
ACTION_KINDS = ("simple", "basic", "major", "free")
# the actions the rules implement, in the order the action bar shows them (the book's list order)
ACTION_IDS = (
    *("move", "reload", "coup_de_grace", "operate_door", "take_item"),
    *("shoot", "aim", "melee", "disengage", "take_cover", "stand_up", "use_item"),
    *("leader_action", "charge", "end_activation"),
)


class FrontierDataError(ValueError):
    """frontier.toml (or a replacement) is not valid; the message names the table and key."""


@dataclass(frozen=True, slots=True)
class WeaponData:
    id: str
    name: str
    kind: str  # "ranged" | "melee"
    short_range: int
    long_range: int  # equals short_range when the weapon has no long range ("-")
    short_accuracy: int
    long_accuracy: int
    damage: int
    ammo: int | None  # None: "can be used indefinitely without the need to take a Reload Action"
    own: bool = False  # Hexslinger's own addition, not printed in the rulebook

    @property
    def is_ranged(self) -> bool:
        return self.kind == "ranged"


@dataclass(frozen=True, slots=True)
class ActionData:
    """An action as the rulebook lists it: its name, AP cost, kind ("simple" repeatable, "basic" once per
    activation, "major", "free") and the rulebook's sentence."""

    id: str
    name: str
    cost: int
    kind: str
    text: str


@dataclass(frozen=True, slots=True)
class AbilityData:
    id: str
    name: str
    passive: bool = False
    recharge: int = 0
    range: int = 0
    max_targets: int = 0
    extra_ap: int = 0
    temporary_wounds: int = 0


@dataclass(frozen=True, slots=True)
class ItemData:
    id: str
    name: str
    effect: str  # "revive"
    range: int
    restores: int


@dataclass(frozen=True, slots=True)
class UnitData:
    id: str
    name: str
    move: int
    ballistics: int | None  # None: "N/A"
    melee: int
    toughness: int
    wounds: int
    leadership: int | None
    cool: int
    weapons: tuple[str, ...]
    abilities: tuple[str, ...] = ()
    leader: bool = False


@dataclass(frozen=True, slots=True)
class FactionData:
    id: str
    name: str
    units: tuple[str, ...]
    max_units: int
    duplicates: bool


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


# -- validation -----------------------------------------------------------------------------------

_INT, _STR, _BOOL, _STRS = dc.INT, dc.STR, dc.BOOL, dc.STRS
_check = functools.partial(dc.check_table, error=FrontierDataError)
_in_range = functools.partial(dc.in_range, error=FrontierDataError)
_tables = functools.partial(dc.tables, error=FrontierDataError)


def parse_data(doc: dict[str, Any]) -> FrontierData:
    """Validate a parsed TOML document and build the typed data."""
    for key in doc:
        if key not in ("encounter", "actions", "weapons", "abilities", "items", "units", "factions"):
            known = "encounter, actions, weapons, abilities, items, units, factions"
            raise FrontierDataError(f"unknown table [{key}] (known: {known})")
    enc = _check(
        "[encounter]",
        doc.get("encounter", {}),
        {"action_points": (_INT, True), "max_rounds": (_INT, True)},
    )
    action_points = _in_range("[encounter]", "action_points", enc["action_points"], 1, 10)
    max_rounds = _in_range("[encounter]", "max_rounds", enc["max_rounds"], 1, 1000)

    weapons: dict[str, WeaponData] = {}
    for wid, raw in _tables(doc, "weapons").items():
        where = f"[weapons.{wid}]"
        t = _check(
            where,
            raw,
            {
                "name": (_STR, True),
                "kind": (_STR, True),
                "short_range": (_INT, True),
                "long_range": (_INT, False),
                "short_accuracy": (_INT, False),
                "long_accuracy": (_INT, False),
                "damage": (_INT, True),
                "ammo": (_INT, False),
                "own": (_BOOL, False),
            },
        )
        if t["kind"] not in ("ranged", "melee"):
            raise FrontierDataError(f"{where}: 'kind' is '{t['kind']}', must be ranged or melee")
        short = _in_range(where, "short_range", t["short_range"], 1, 100)
        long = _in_range(where, "long_range", t.get("long_range", short), short, 100)
        weapons[wid] = WeaponData(
            id=wid,
            name=t["name"],
            kind=t["kind"],
            short_range=short,
            long_range=long,
            short_accuracy=_in_range(where, "short_accuracy", t.get("short_accuracy", 0), -5, 5),
            long_accuracy=_in_range(where, "long_accuracy", t.get("long_accuracy", 0), -5, 5),
            damage=_in_range(where, "damage", t["damage"], 1, 20),
            ammo=None if "ammo" not in t else _in_range(where, "ammo", t["ammo"], 1, 100),
            own=t.get("own", False),
        )
    if "unarmed" not in weapons or weapons["unarmed"].is_ranged:
        raise FrontierDataError("[weapons.unarmed] must exist and be a melee weapon")

    abilities: dict[str, AbilityData] = {}
    for aid, raw in _tables(doc, "abilities").items():
        where = f"[abilities.{aid}]"
        t = _check(
            where,
            raw,
            {
                "name": (_STR, True),
                "passive": (_BOOL, False),
                "recharge": (_INT, False),
                "range": (_INT, False),
                "max_targets": (_INT, False),
                "extra_ap": (_INT, False),
                "temporary_wounds": (_INT, False),
            },
        )
        abilities[aid] = AbilityData(
            id=aid,
            name=t["name"],
            passive=t.get("passive", False),
            recharge=_in_range(where, "recharge", t.get("recharge", 0), 0, 20),
            range=_in_range(where, "range", t.get("range", 0), 0, 100),
            max_targets=_in_range(where, "max_targets", t.get("max_targets", 0), 0, 10),
            extra_ap=_in_range(where, "extra_ap", t.get("extra_ap", 0), 0, 5),
            temporary_wounds=_in_range(where, "temporary_wounds", t.get("temporary_wounds", 0), 0, 5),
        )

    items: dict[str, ItemData] = {}
    for iid, raw in _tables(doc, "items").items():
        where = f"[items.{iid}]"
        t = _check(
            where,
            raw,
            {"name": (_STR, True), "effect": (_STR, True), "range": (_INT, True), "restores": (_INT, True)},
        )
        if t["effect"] != "revive":
            raise FrontierDataError(f"{where}: 'effect' is '{t['effect']}', the only effect is revive")
        items[iid] = ItemData(
            id=iid,
            name=t["name"],
            effect=t["effect"],
            range=_in_range(where, "range", t["range"], 0, 100),
            restores=_in_range(where, "restores", t["restores"], 1, 20),
        )

    units: dict[str, UnitData] = {}
    for uid, raw in _tables(doc, "units").items():
        where = f"[units.{uid}]"
        t = _check(
            where,
            raw,
            {
                "name": (_STR, True),
                "leader": (_BOOL, False),
                "move": (_INT, True),
                "ballistics": (_INT, False),
                "melee": (_INT, True),
                "toughness": (_INT, True),
                "wounds": (_INT, True),
                "leadership": (_INT, False),
                "cool": (_INT, True),
                "weapons": (_STRS, True),
                "abilities": (_STRS, False),
            },
        )
        leader = t.get("leader", False)
        if leader != ("leadership" in t):
            raise FrontierDataError(f"{where}: a leader (and only a leader) has 'leadership'")
        if not t["weapons"]:
            raise FrontierDataError(f"{where}: 'weapons' must name at least one weapon")
        for w in t["weapons"]:
            if w not in weapons:
                raise FrontierDataError(f"{where}: 'weapons' names unknown weapon '{w}'")
        for a in t.get("abilities", []):
            if a not in abilities:
                raise FrontierDataError(f"{where}: 'abilities' names unknown ability '{a}'")
        if any(weapons[w].is_ranged for w in t["weapons"]) and "ballistics" not in t:
            raise FrontierDataError(f"{where}: a unit with a ranged weapon needs 'ballistics'")
        units[uid] = UnitData(
            id=uid,
            name=t["name"],
            move=_in_range(where, "move", t["move"], 1, 30),
            ballistics=None
            if "ballistics" not in t
            else _in_range(where, "ballistics", t["ballistics"], 1, 7),
            melee=_in_range(where, "melee", t["melee"], 1, 7),
            toughness=_in_range(where, "toughness", t["toughness"], 0, 20),
            wounds=_in_range(where, "wounds", t["wounds"], 1, 20),
            leadership=None
            if "leadership" not in t
            else _in_range(where, "leadership", t["leadership"], 0, 6),
            cool=_in_range(where, "cool", t["cool"], 1, 7),
            weapons=tuple(t["weapons"]),
            abilities=tuple(t.get("abilities", [])),
            leader=leader,
        )

    factions: dict[str, FactionData] = {}
    for fid, raw in _tables(doc, "factions").items():
        where = f"[factions.{fid}]"
        t = _check(
            where,
            raw,
            {
                "name": (_STR, True),
                "units": (_STRS, True),
                "max_units": (_INT, True),
                "duplicates": (_BOOL, True),
            },
        )
        for u in t["units"]:
            if u not in units:
                raise FrontierDataError(f"{where}: 'units' names unknown unit '{u}'")
        if sum(units[u].leader for u in t["units"]) > 1:
            raise FrontierDataError(f"{where}: a faction has at most one leader")
        factions[fid] = FactionData(
            id=fid,
            name=t["name"],
            units=tuple(t["units"]),
            max_units=_in_range(where, "max_units", t["max_units"], 1, 20),
            duplicates=t["duplicates"],
        )
    actions: dict[str, ActionData] = {}
    for aid, raw in _tables(doc, "actions").items():
        where = f"[actions.{aid}]"
        t = _check(
            where,
            raw,
            {"name": (_STR, True), "cost": (_INT, True), "kind": (_STR, True), "text": (_STR, True)},
        )
        if t["kind"] not in ACTION_KINDS:
            raise FrontierDataError(
                f"{where}: 'kind' is '{t['kind']}', must be one of {', '.join(ACTION_KINDS)}"
            )
        actions[aid] = ActionData(
            aid, t["name"], _in_range(where, "cost", t["cost"], 0, 10), t["kind"], t["text"]
        )
    missing = [a for a in ACTION_IDS if a not in actions]
    if missing:
        raise FrontierDataError(f"[actions] is missing {', '.join(missing)}")
    unknown = [a for a in actions if a not in ACTION_IDS]
    if unknown:
        raise FrontierDataError(
            f"[actions] has no rules for {', '.join(unknown)} (known: {', '.join(ACTION_IDS)})"
        )
    return FrontierData(action_points, max_rounds, weapons, abilities, items, units, factions, actions)


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
