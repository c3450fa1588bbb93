"""Through the Rift's rule data (weapons, actions, traits, attitudes, talents, skills, enemies): rift.toml.

The loader is strict: an unknown key, a missing key or a value of the wrong type or range is a
:class:`RiftDataError` naming the table and key, never passed through silently.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.resources import rules_data_file
from game.rules import datacheck as dc
from game.rules.rift.stress import WeaponStats

__all__ = [
    "DATA_FILE",
    "ActionData",
    "AttitudeData",
    "CompanionData",
    "EnemyData",
    "ItemData",
    "RiftData",
    "RiftDataError",
    "TalentData",
    "TraitData",
    "WeaponData",
    "default_data",
    "load_data",
    "parse_data",
]

DATA_FILE = rules_data_file("rift")


class RiftDataError(ValueError):
    """rift.toml (or a replacement) is not valid; the message names the table and key."""


@dataclass(frozen=True, slots=True)
class WeaponData:
    id: str
    name: str
    count: int
    sides: int
    threshold: int
    range: int
    radius: int | None = None  # explosives only
    pistol: bool = False
    melee: bool = False  # Haymaker: an attack that is neither a firearm nor an explosive
    usable: bool = True  # False: printed, but cannot be carried (Digital Peashooters' 1d0)
    own: bool = False  # Hexslinger's own weapon (enemy roster)

    @property
    def explosive(self) -> bool:
        return self.radius is not None

    @property
    def firearm(self) -> bool:
        return self.radius is None and not self.melee

    @property
    def block(self) -> str:
        text = f"{self.count}d{self.sides} / {self.threshold}+ / {self.range}t"
        return text if self.radius is None else f"{text} / r{self.radius}"

    def stats(self) -> WeaponStats:
        return WeaponStats(self.name, self.count, self.sides, self.threshold, self.range, self.radius)


@dataclass(frozen=True, slots=True)
class ActionData:
    id: str
    name: str
    cost: int
    attack: bool
    text: str
    own: bool = False


@dataclass(frozen=True, slots=True)
class TraitData:
    id: str
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class AttitudeData:
    id: str
    name: str
    resolve: int
    weapons: tuple[str, ...]
    actions: Mapping[int, tuple[str, ...]]  # level 1 / 4 / 7 -> action ids
    traits: Mapping[int, tuple[str, ...]]  # level 1 / 4 / 7 -> trait ids


@dataclass(frozen=True, slots=True)
class TalentData:
    id: str
    name: str
    actions: tuple[str, ...] = ()
    traits: tuple[str, ...] = ()
    text: str = ""  # the rulebook's words for what the talent does (the posse builder shows them)

    @property
    def combat(self) -> bool:
        return bool(self.actions or self.traits)


@dataclass(frozen=True, slots=True)
class CompanionData:
    id: str
    name: str
    resolve: int
    action_points: int
    move_tiles: int
    actions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ItemData:
    """An item that can lie on the map or be carried (Hexslinger's own: the rulebook lists none).

    ``use``: "" (carried only: an objective, a key) or "restore" (``amount`` resolve back to a unit within
    ``range`` tiles that is not overcome).
    """

    id: str
    name: str
    use: str
    amount: int
    range: int
    text: str


@dataclass(frozen=True, slots=True)
class EnemyData:
    id: str
    name: str
    resolve: int
    action_points: int
    weapons: tuple[str, ...]
    actions: tuple[str, ...]
    traits: tuple[str, ...]
    text: str


@dataclass(frozen=True, slots=True)
class RiftData:
    action_points: int
    max_rounds: int
    initiative_die: int
    move_tiles: int
    ally_range: int
    weapons: Mapping[str, WeaponData]
    actions: Mapping[str, ActionData]
    traits: Mapping[str, TraitData]
    attitudes: Mapping[str, AttitudeData]
    talents: Mapping[str, TalentData]
    skills: Mapping[str, str]
    companions: Mapping[str, CompanionData]
    enemies: Mapping[str, EnemyData]
    items: Mapping[str, ItemData]

    def item_by_name(self, name: str) -> ItemData | None:
        """The item data for a map item's name ("Smelling Salts"), case and spacing aside, or None."""
        key = " ".join(name.split()).casefold()
        for item in self.items.values():
            if item.name.casefold() == key or item.id == key.replace(" ", "_"):
                return item
        return None


_INT, _STR, _BOOL, _STRS = dc.INT, dc.STR, dc.BOOL, dc.STRS
_check = functools.partial(dc.check_table, error=RiftDataError)
_in_range = functools.partial(dc.in_range, error=RiftDataError)
_tables = functools.partial(dc.tables, error=RiftDataError)


def _ids(where: str, key: str, names: list[str], known: Mapping[str, Any], what: str) -> tuple[str, ...]:
    for n in names:
        if n not in known:
            raise RiftDataError(f"{where}: '{key}' names unknown {what} '{n}'")
    if len(set(names)) != len(names):
        raise RiftDataError(f"{where}: '{key}' names a {what} twice")
    return tuple(names)


_DICE = re.compile(r"^([1-9][0-9]?)d([0-9]{1,3})$")
_TABLES = (
    "encounter",
    "weapons",
    "actions",
    "traits",
    "attitudes",
    "talents",
    "skills",
    "companions",
    "enemies",
    "items",
)
ITEM_USES = ("", "restore")


def parse_data(doc: dict[str, Any]) -> RiftData:
    """Validate a parsed TOML document and build the typed data."""
    for key in doc:
        if key not in _TABLES:
            raise RiftDataError(f"unknown table [{key}] (known: {', '.join(_TABLES)})")
    enc = _check(
        "[encounter]",
        doc.get("encounter", {}),
        {
            "action_points": (_INT, True),
            "max_rounds": (_INT, True),
            "initiative_die": (_INT, True),
            "move_tiles": (_INT, True),
            "ally_range": (_INT, True),
        },
    )
    weapons: dict[str, WeaponData] = {}
    for wid, raw in _tables(doc, "weapons").items():
        where = f"[weapons.{wid}]"
        t = _check(
            where,
            raw,
            {
                "name": (_STR, True),
                "dice": (_STR, True),
                "threshold": (_INT, True),
                "range": (_INT, True),
                "radius": (_INT, False),
                "pistol": (_BOOL, False),
                "melee": (_BOOL, False),
                "usable": (_BOOL, False),
                "own": (_BOOL, False),
            },
        )
        m = _DICE.match(t["dice"])
        if m is None:
            raise RiftDataError(f"{where}: 'dice' is '{t['dice']}', must be like 3d6")
        count, sides = int(m.group(1)), int(m.group(2))
        usable = t.get("usable", True)
        weapons[wid] = WeaponData(
            id=wid,
            name=t["name"],
            count=count,
            sides=sides,
            threshold=_in_range(where, "threshold", t["threshold"], 1, 1000),
            range=_in_range(where, "range", t["range"], 0, 100),
            radius=None if "radius" not in t else _in_range(where, "radius", t["radius"], 0, 10),
            pistol=t.get("pistol", False),
            melee=t.get("melee", False),
            usable=usable,
            own=t.get("own", False),
        )
    actions: dict[str, ActionData] = {}
    for aid, raw in _tables(doc, "actions").items():
        where = f"[actions.{aid}]"
        t = _check(
            where,
            raw,
            {
                "name": (_STR, True),
                "cost": (_INT, True),
                "attack": (_BOOL, False),
                "text": (_STR, True),
                "own": (_BOOL, False),
            },
        )
        actions[aid] = ActionData(
            aid,
            t["name"],
            _in_range(where, "cost", t["cost"], 0, 10),
            t.get("attack", False),
            t["text"],
            t.get("own", False),
        )
    traits: dict[str, TraitData] = {}
    for tid, raw in _tables(doc, "traits").items():
        where = f"[traits.{tid}]"
        t = _check(where, raw, {"name": (_STR, True), "text": (_STR, True)})
        traits[tid] = TraitData(tid, t["name"], t["text"])
    attitudes: dict[str, AttitudeData] = {}
    for atid, raw in _tables(doc, "attitudes").items():
        where = f"[attitudes.{atid}]"
        spec: dict[str, tuple[str, bool]] = {
            "name": (_STR, True),
            "resolve": (_INT, True),
            "weapons": (_STRS, True),
        }
        for lv in (1, 4, 7):
            spec[f"level{lv}_actions"] = (_STRS, False)
            spec[f"level{lv}_traits"] = (_STRS, False)
        t = _check(where, raw, spec)
        acts = {
            lv: _ids(where, f"level{lv}_actions", t.get(f"level{lv}_actions", []), actions, "action")
            for lv in (1, 4, 7)
        }
        trs = {
            lv: _ids(where, f"level{lv}_traits", t.get(f"level{lv}_traits", []), traits, "trait")
            for lv in (1, 4, 7)
        }
        for w in t["weapons"]:
            if w not in weapons or not weapons[w].usable:
                raise RiftDataError(f"{where}: 'weapons' names unknown weapon '{w}'")
        attitudes[atid] = AttitudeData(
            atid,
            t["name"],
            _in_range(where, "resolve", t["resolve"], 1, 200),
            tuple(t["weapons"]),
            acts,
            trs,
        )
    talents: dict[str, TalentData] = {}
    for tid, raw in _tables(doc, "talents").items():
        where = f"[talents.{tid}]"
        t = _check(
            where,
            raw,
            {
                "name": (_STR, True),
                "actions": (_STRS, False),
                "traits": (_STRS, False),
                "text": (_STR, False),
            },
        )
        talents[tid] = TalentData(
            tid,
            t["name"],
            _ids(where, "actions", t.get("actions", []), actions, "action"),
            _ids(where, "traits", t.get("traits", []), traits, "trait"),
            t.get("text", ""),
        )
    skills: dict[str, str] = {}
    for sid, name in _tables(doc, "skills").items():
        if not isinstance(name, str) or not name.strip():
            raise RiftDataError(f"[skills]: '{sid}' must be text, not {name!r}")
        skills[sid] = name
    companions: dict[str, CompanionData] = {}
    for cid, raw in _tables(doc, "companions").items():
        where = f"[companions.{cid}]"
        t = _check(
            where,
            raw,
            {
                "name": (_STR, True),
                "resolve": (_INT, True),
                "action_points": (_INT, True),
                "move_tiles": (_INT, True),
                "actions": (_STRS, True),
            },
        )
        companions[cid] = CompanionData(
            cid,
            t["name"],
            _in_range(where, "resolve", t["resolve"], 1, 200),
            _in_range(where, "action_points", t["action_points"], 1, 10),
            _in_range(where, "move_tiles", t["move_tiles"], 1, 10),
            _ids(where, "actions", t["actions"], actions, "action"),
        )
    if "dog" not in companions:
        raise RiftDataError("[companions.dog] must exist (Animal Friend)")
    enemies: dict[str, EnemyData] = {}
    for eid, raw in _tables(doc, "enemies").items():
        where = f"[enemies.{eid}]"
        t = _check(
            where,
            raw,
            {
                "name": (_STR, True),
                "resolve": (_INT, True),
                "action_points": (_INT, True),
                "weapons": (_STRS, True),
                "actions": (_STRS, False),
                "traits": (_STRS, False),
                "text": (_STR, True),
            },
        )
        if not t["weapons"]:
            raise RiftDataError(f"{where}: 'weapons' must name at least one weapon")
        enemies[eid] = EnemyData(
            eid,
            t["name"],
            _in_range(where, "resolve", t["resolve"], 1, 200),
            _in_range(where, "action_points", t["action_points"], 1, 10),
            _ids(where, "weapons", t["weapons"], weapons, "weapon"),
            _ids(where, "actions", t.get("actions", []), actions, "action"),
            _ids(where, "traits", t.get("traits", []), traits, "trait"),
            t["text"],
        )
    items: dict[str, ItemData] = {}
    for iid, raw in _tables(doc, "items").items():
        where = f"[items.{iid}]"
        t = _check(
            where,
            raw,
            {
                "name": (_STR, True),
                "use": (_STR, False),
                "amount": (_INT, False),
                "range": (_INT, False),
                "text": (_STR, True),
            },
        )
        use = t.get("use", "")
        if use not in ITEM_USES:
            raise RiftDataError(f"{where}: 'use' is '{use}', must be one of: none (\"\"), restore")
        if use == "restore" and "amount" not in t:
            raise RiftDataError(f"{where}: a 'restore' item needs 'amount' (resolve given back)")
        items[iid] = ItemData(
            iid,
            t["name"],
            use,
            _in_range(where, "amount", t.get("amount", 0), 0, 100),
            _in_range(where, "range", t.get("range", 1), 0, 10),
            t["text"],
        )
    if "rifter" in enemies:
        raise RiftDataError("[enemies.rifter]: 'rifter' is the kind of player characters")
    return RiftData(
        action_points=_in_range("[encounter]", "action_points", enc["action_points"], 1, 10),
        max_rounds=_in_range("[encounter]", "max_rounds", enc["max_rounds"], 1, 1000),
        initiative_die=_in_range("[encounter]", "initiative_die", enc["initiative_die"], 2, 100),
        move_tiles=_in_range("[encounter]", "move_tiles", enc["move_tiles"], 1, 10),
        ally_range=_in_range("[encounter]", "ally_range", enc["ally_range"], 0, 100),
        weapons=weapons,
        actions=actions,
        traits=traits,
        attitudes=attitudes,
        talents=talents,
        skills=skills,
        companions=companions,
        enemies=enemies,
        items=items,
    )


def load_data(path: str | Path = DATA_FILE) -> RiftData:
    """Load and validate a Through the Rift data file."""
    path = Path(path)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise RiftDataError(f"{path.name} is not valid TOML: {error}") from None
    try:
        return parse_data(doc)
    except RiftDataError as error:
        raise RiftDataError(f"{path.name}: {error}") from None


@functools.cache
def default_data() -> RiftData:
    """The shipped rift.toml, loaded once."""
    return load_data(DATA_FILE)
