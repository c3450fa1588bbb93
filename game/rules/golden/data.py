"""Golden Frontiers' rule data (deck, damage table, trait dice, weapons, gear, NPC templates, factions and
Hexslinger's own encounter numbers) loaded strictly from golden.toml.

An unknown key, a missing key or a value of the wrong type or range is a :class:`GoldenDataError` naming
the table and key.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.engine import dataload
from game.engine.cards import RANKS_ACE_LOW, SUITS
from game.resources import rules_data_file

__all__ = [
    "DATA_FILE",
    "TRAITS",
    "DamageData",
    "DeckData",
    "DieBand",
    "EncounterData",
    "FactionData",
    "GearData",
    "GoldenData",
    "GoldenDataError",
    "NpcData",
    "TraitData",
    "WeaponData",
    "default_data",
    "load_data",
    "parse_data",
]

DATA_FILE = rules_data_file("golden")
# book: "Characters are made of four prime Traits: Survival, Intuition, Reflexes, and Slickness (SIRS)."
TRAITS = ("survival", "intuition", "reflexes", "slickness")
_DICE = re.compile(r"^([1-9])d(4|6|8|10|12)$")


class GoldenDataError(ValueError):
    """golden.toml (or a replacement) is not valid; the message names the table and key."""


def _num(low: int, high: int) -> Any:
    return field(default=low, metadata={"range": (low, high), "required": True})


def _text() -> Any:
    return field(default="", metadata={"required": True})


def _list() -> Any:
    return field(default=(), metadata={"required": True})


@dataclass(frozen=True, slots=True)
class DeckData:
    suit_priority: tuple[str, ...] = _list()
    ace_high: bool = field(default=True, metadata={"required": True})
    jokers: tuple[str, ...] = _list()


@dataclass(frozen=True, slots=True)
class DamageData:
    graze: tuple[str, ...] = _list()
    wound: tuple[str, ...] = _list()
    two_wounds: tuple[str, ...] = _list()
    crippling: tuple[str, ...] = _list()
    grazes_per_wound: int = _num(1, 10)

    def result(self, rank: str | None) -> str:
        """ "graze", "wound", "two_wounds" or "crippling" for a card's rank (None: a joker)."""
        key = "joker" if rank is None else rank
        for name in ("graze", "wound", "two_wounds", "crippling"):
            if key in getattr(self, name):
                return name
        raise GoldenDataError(f"[damage] gives no result for {key}")


@dataclass(frozen=True, slots=True)
class TraitData:
    dice: tuple[int, ...] = _list()
    modifiers: tuple[int, ...] = _list()
    max_wounds: tuple[int, ...] = _list()
    points: int = _num(0, 20)

    def modifier(self, die: int) -> int:
        return self.modifiers[self.dice.index(die)]

    def wounds(self, die: int) -> int:
        return self.max_wounds[self.dice.index(die)]


@dataclass(frozen=True, slots=True)
class EncounterData:
    move: int = _num(1, 30)
    move_with_action: int = _num(0, 30)
    moving_attack: int = field(default=0, metadata={"range": (-5, 5), "required": True})
    half_cover: int = _num(0, 5)
    full_cover: int = _num(0, 5)
    max_rounds: int = _num(1, 1000)
    max_units: int = _num(1, 20)
    # the share of its fielded units out of the fight (crippled or dead) at which a posse gives up
    gives_up_at: float = field(default=1.0, metadata={"range": (0.01, 1.0), "required": True})


@dataclass(frozen=True, slots=True)
class DieBand:
    """One range band of a weapon: the dice rolled at up to ``reach`` hexes."""

    reach: int
    count: int
    sides: int

    @property
    def label(self) -> str:
        return f"{self.count}d{self.sides}"


@dataclass(frozen=True, slots=True)
class WeaponData:
    id: str = field(default="", metadata={"id": True})
    name: str = _text()
    kind: str = field(default="", metadata={"required": True, "choices": ("ranged", "melee")})
    dice: tuple[str, ...] = _list()
    ranges: tuple[int, ...] = _list()
    ammo: int = _num(0, 100)
    cost: int = _num(0, 100)
    load_action: bool = field(default=False, metadata={"required": True})
    trait: str = field(default="", metadata={"choices": TRAITS})

    @property
    def bands(self) -> tuple[DieBand, ...]:
        return _bands(self.dice, self.ranges)

    @property
    def reach(self) -> int:
        return self.ranges[-1]

    def band(self, distance: int) -> DieBand | None:
        """The dice rolled at ``distance`` hexes (None: out of range)."""
        for band in self.bands:
            if distance <= band.reach:
                return band
        return None

    @property
    def is_ranged(self) -> bool:
        return self.kind == "ranged"


@dataclass(frozen=True, slots=True)
class GearData:
    id: str = field(default="", metadata={"id": True})
    name: str = _text()
    cost: int = _num(0, 100)


@dataclass(frozen=True, slots=True)
class NpcData:
    id: str = field(default="", metadata={"id": True})
    name: str = _text()
    survival: int = _num(4, 12)
    intuition: int = _num(4, 12)
    reflexes: int = _num(4, 12)
    slickness: int = _num(4, 12)
    weapons: tuple[str, ...] = _list()

    def traits(self) -> dict[str, int]:
        return {t: getattr(self, t) for t in TRAITS}


@dataclass(frozen=True, slots=True)
class FactionData:
    id: str = field(default="", metadata={"id": True})
    name: str = _text()
    npcs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ActionData:
    """An action's rulebook sentence (its tooltip); ``own`` marks Hexslinger's own words (the book is
    silent: no "end activation" in a story game)."""

    id: str = field(default="", metadata={"id": True})
    text: str = _text()
    own: bool = False


@dataclass(frozen=True, slots=True)
class GoldenData:
    deck: DeckData
    damage: DamageData
    traits: TraitData
    encounter: EncounterData
    weapons: Mapping[str, WeaponData]
    gear: Mapping[str, GearData]
    npcs: Mapping[str, NpcData]
    factions: Mapping[str, FactionData]
    actions: Mapping[str, ActionData] = field(default_factory=dict)

    def cost(self, item: str) -> int:
        entry = self.weapons.get(item) or self.gear.get(item)
        if entry is None:
            raise KeyError(item)
        return entry.cost

    def printed(self, item: str) -> str:
        entry = self.weapons.get(item) or self.gear.get(item)
        return entry.name if entry is not None else item


TABLES = ("deck", "damage", "traits", "encounter", "weapons", "gear", "npcs", "factions", "actions")


def parse_data(doc: dict[str, Any]) -> GoldenData:
    """Validate a parsed TOML document and build the typed data."""
    err = GoldenDataError
    for key in doc:
        if key not in TABLES:
            raise err(f"unknown table [{key}] (known: {', '.join(TABLES)})")
    deck = dataload.load(DeckData, "[deck]", doc.get("deck"), error=err)
    if sorted(deck.suit_priority) != sorted(SUITS):
        raise err(f"[deck]: 'suit_priority' must list the four suits {', '.join(SUITS)} once each")
    if any(j not in ("Red", "Black") for j in deck.jokers) or len(set(deck.jokers)) != len(deck.jokers):
        raise err("[deck]: 'jokers' lists Red and Black at most once each")
    damage = dataload.load(DamageData, "[damage]", doc.get("damage"), error=err)
    keys = [*(r for r in RANKS_ACE_LOW), "joker"]
    named = [*damage.graze, *damage.wound, *damage.two_wounds, *damage.crippling]
    if sorted(named) != sorted(keys):
        raise err(f"[damage]: every rank and 'joker' must have exactly one result ({', '.join(keys)})")
    traits = dataload.load(TraitData, "[traits]", doc.get("traits"), error=err)
    if not (len(traits.dice) == len(traits.modifiers) == len(traits.max_wounds) >= 2):
        raise err("[traits]: 'dice', 'modifiers' and 'max_wounds' must be lists of one length (2 or more)")
    if list(traits.dice) != sorted(set(traits.dice)) or traits.dice[0] < 2:
        raise err("[traits]: 'dice' must go up from the smallest die (at least 2 sides)")
    encounter = dataload.load(EncounterData, "[encounter]", doc.get("encounter"), error=err)
    if encounter.move_with_action > encounter.move:
        raise err("[encounter]: 'move_with_action' cannot be more than 'move'")
    weapons = dataload.load_tables(WeaponData, doc, "weapons", error=err)
    for wid, weapon in weapons.items():
        where = f"[weapons.{wid}]"
        if len(weapon.dice) != len(weapon.ranges) or not weapon.dice:
            raise err(f"{where}: 'dice' and 'ranges' must be lists of one length (one die band per range)")
        for text in weapon.dice:
            if not _DICE.match(text):
                raise err(f"{where}: '{text}' is not dice like '1d8' or '2d8' (d4, d6, d8, d10, d12)")
        if list(weapon.ranges) != sorted(set(weapon.ranges)) or weapon.ranges[0] < 1:
            raise err(f"{where}: 'ranges' must go up, from 1 hex")
        if weapon.is_ranged and weapon.ammo < 1:
            raise err(f"{where}: a gun holds at least one shot ('ammo')")
        if weapon.kind == "melee" and weapon.reach != 1:
            raise err(f"{where}: a melee weapon reaches 1 hex")
    gear = dataload.load_tables(GearData, doc, "gear", error=err)
    npcs = dataload.load_tables(NpcData, doc, "npcs", error=err)
    for nid, npc in npcs.items():
        for t in TRAITS:
            if getattr(npc, t) not in traits.dice:
                raise err(f"[npcs.{nid}]: '{t}' must be one of the trait dice {list(traits.dice)}")
        for w in npc.weapons:
            if w not in weapons:
                raise err(f"[npcs.{nid}]: 'weapons' names unknown weapon '{w}'")
    factions = dataload.load_tables(FactionData, doc, "factions", error=err)
    for fid, faction in factions.items():
        for n in faction.npcs:
            if n not in npcs:
                raise err(f"[factions.{fid}]: 'npcs' names unknown NPC '{n}'")
    actions = dataload.load_tables(ActionData, doc, "actions", error=err)
    return GoldenData(deck, damage, traits, encounter, weapons, gear, npcs, factions, actions)


def load_data(path: str | Path = DATA_FILE) -> GoldenData:
    """Load and validate a Golden Frontiers data file."""
    path = Path(path)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise GoldenDataError(f"{path.name} is not valid TOML: {error}") from None
    try:
        return parse_data(doc)
    except GoldenDataError as error:
        raise GoldenDataError(f"{path.name}: {error}") from None


@functools.cache
def default_data() -> GoldenData:
    """The shipped golden.toml, loaded once."""
    return load_data(DATA_FILE)


@functools.cache
def _bands(dice: tuple[str, ...], ranges: tuple[int, ...]) -> tuple[DieBand, ...]:
    """A weapon's range bands from its dice and ranges, read once (attack odds ask for them often)."""
    out = []
    for text, reach in zip(dice, ranges, strict=True):
        found = _DICE.match(text)
        assert found is not None  # parse_data checked it
        out.append(DieBand(reach, int(found.group(1)), int(found.group(2))))
    return tuple(out)
