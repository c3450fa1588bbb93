"""Rifters as validated data: a character definition, its derived kit, and posse files a player keeps.

"Level 1: Select attitude, recieve traits, attitude actions, maximum resolve, starting weapons. Allocate 10
skills / Level 2: Select a feat / Level 3: Allocate 6 more skills / Level 4: Recieve your 4th level attitude
traits OR Select a second attitude and recieve that attitude's traits and actions in addition to your own.
Use the higher maximum resolve of the two / Level 5: Select a second feat / Level 6: Allocate 6 more skills /
Level 7: Recieve 7th level attitude traits or actions OR If you picked a second attitude, recieve one of the
attitude's 4th level traits". Decisions: docs/RULES.md, "Through the Rift".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.rules import PosseSpec, UnitSpec
from game.rules.rift.data import RiftData, default_data
from game.safeio import FileRefusedError, JsonLimits, load_json, load_toml, parse_json

__all__ = [
    "MAX_LEVEL",
    "PISTOL",
    "RIFTER",
    "Character",
    "CharacterError",
    "Kit",
    "character_from_dict",
    "character_from_spec",
    "character_problems",
    "character_to_dict",
    "draft_kit",
    "kit_of",
    "load_posse",
    "save_posse",
    "skill_points",
    "talent_count",
    "unit_spec",
]

PISTOL = "mdtc_model_4_pistol"  # "By default, all attitudes start with a "Standard" MDTC Model 4 Pistol"
MAX_RANK = 4  # "Rank 4 - Skill Ability"
MAX_LEVEL = 7  # the level table ends at "Level 7"
RIFTER = "rifter"  # the unit kind of a player character (enemies and companions go by their data ids)
# A character is a flat object with a skills table and a few lists (3 deep); a posse file lists them.
CHARACTER_LIMITS = JsonLimits(max_bytes=64 * 1024, max_depth=8, max_containers=1_000, max_digits=40)
POSSE_FILE_LIMITS = JsonLimits(max_bytes=1024 * 1024, max_depth=16, max_containers=10_000, max_digits=40)


class CharacterError(ValueError):
    """A character or posse file that is not valid; the message says what and where."""


@dataclass(frozen=True, slots=True)
class Character:
    name: str
    level: int
    attitude: str
    second_attitude: str = ""
    level7: str = ""  # "" = the own 7th-level traits/actions; else a 4th-level trait of the second attitude
    weapons: tuple[str, ...] = ()  # () = the defaults: the pistol and the attitude's weapons
    talents: tuple[str, ...] = ()
    skills: tuple[tuple[str, int], ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Kit:
    """What a character brings to an encounter."""

    resolve: int
    actions: tuple[str, ...]
    traits: tuple[str, ...]
    weapons: tuple[str, ...]
    weapon_slots: int


def skill_points(level: int) -> int:
    """10 at level 1, "6 more" at level 3 and again at level 6."""
    return 10 + (6 if level >= 3 else 0) + (6 if level >= 6 else 0)


def talent_count(level: int) -> int:
    """A feat at level 2 and "a second feat" at level 5."""
    return (1 if level >= 2 else 0) + (1 if level >= 5 else 0)


def _unchecked_kit(data: RiftData, ch: Character) -> Kit:
    own = data.attitudes[ch.attitude]
    actions: list[str] = list(own.actions[1])
    traits: list[str] = list(own.traits[1])
    second = data.attitudes.get(ch.second_attitude) if ch.second_attitude else None
    if ch.level >= 4:
        if second is not None:
            actions += second.actions[1]
            traits += second.traits[1]
        else:
            actions += own.actions[4]
            traits += own.traits[4]
    if ch.level >= 7:
        if ch.level7:
            traits.append(ch.level7)
        else:
            actions += own.actions[7]
            traits += own.traits[7]
    for t in ch.talents:
        talent = data.talents.get(t)
        if talent is not None:
            actions += talent.actions
            traits += talent.traits
    actions = list(dict.fromkeys(actions))
    traits = list(dict.fromkeys(traits))
    resolve = max(own.resolve, second.resolve if second is not None else 0)
    if "heightened_durability" in traits:
        resolve += 15  # "Increase your maximum Resolve by 15."
    slots = 3 if "to_the_teeth" in traits else 2
    weapons = ch.weapons or tuple(dict.fromkeys((PISTOL, *own.weapons)))[:slots]
    return Kit(resolve, tuple(actions), tuple(traits), tuple(weapons), slots)


def character_problems(ch: Character, data: RiftData | None = None) -> list[str]:
    """Every reason this character is not valid (empty: it is)."""
    data = data or default_data()
    who = ch.name or "a Rifter"
    out: list[str] = []
    if not ch.name.strip():
        out.append("a Rifter needs a name")
    if not 1 <= ch.level <= MAX_LEVEL:
        return [f"{who}: level {ch.level} is not 1 to {MAX_LEVEL}"]
    if ch.attitude not in data.attitudes:
        return [f"{who}: unknown attitude '{ch.attitude}' (attitudes: {', '.join(data.attitudes)})"]
    if ch.second_attitude:
        if ch.second_attitude not in data.attitudes:
            out.append(f"{who}: unknown second attitude '{ch.second_attitude}'")
        elif ch.level < 4:
            out.append(f"{who}: a second attitude is chosen at level 4, not at level {ch.level}")
        elif ch.second_attitude == ch.attitude:
            out.append(f"{who}: the second attitude must differ from the first")
    if ch.level7:
        second = data.attitudes.get(ch.second_attitude)
        if ch.level < 7:
            out.append(f"{who}: the 7th-level pick '{ch.level7}' needs level 7")
        elif second is None:
            out.append(f"{who}: only with a second attitude may level 7 take one of its 4th level traits")
        elif ch.level7 not in second.traits[4]:
            allowed = ", ".join(second.traits[4])
            out.append(f"{who}: '{ch.level7}' is not a 4th level trait of {second.name} ({allowed})")
    if out:
        return out
    kit = _unchecked_kit(data, ch)
    if not ch.weapons and len(kit.weapons) < 1:
        out.append(f"{who}: no weapon")
    if len(kit.weapons) > kit.weapon_slots:
        out.append(
            f"{who}: carries {len(kit.weapons)} weapons; "
            f"{kit.weapon_slots} at the ready{' (To the Teeth)' if kit.weapon_slots == 3 else ''}"
        )
    if len(set(kit.weapons)) != len(kit.weapons):
        out.append(f"{who}: a weapon is listed twice")
    for w in kit.weapons:
        weapon = data.weapons.get(w)
        if weapon is None or weapon.own or weapon.melee:
            out.append(f"{who}: '{w}' is not a weapon of the weapons chapter")
    needed = talent_count(ch.level)
    if len(ch.talents) != needed:
        out.append(f"{who}: a level {ch.level} Rifter has {needed} talent(s), not {len(ch.talents)}")
    for t in ch.talents:
        if t not in data.talents:
            out.append(f"{who}: unknown talent '{t}'")
    if len(set(ch.talents)) != len(ch.talents):
        out.append(f"{who}: a talent is chosen twice")
    total = 0
    seen: set[str] = set()
    for skill, rank in ch.skills:
        if skill not in data.skills:
            out.append(f"{who}: unknown skill '{skill}'")
        if skill in seen:
            out.append(f"{who}: skill '{skill}' is listed twice")
        seen.add(skill)
        if not 0 <= rank <= MAX_RANK:
            out.append(f"{who}: skill '{skill}' has rank {rank}; ranks are 0 to {MAX_RANK}")
        total += rank
    points = skill_points(ch.level)
    if total != points:
        out.append(f"{who}: skills use {total} points; a level {ch.level} Rifter allocates {points}")
    return out


def draft_kit(ch: Character, data: RiftData | None = None) -> Kit | None:
    """The kit of a character still being built (talents or skills not yet complete), for editors; None if
    its attitude is unknown or its level is not 1 to 7. Only :func:`kit_of` vouches for a valid character."""
    data = data or default_data()
    if ch.attitude not in data.attitudes or not 1 <= ch.level <= MAX_LEVEL:
        return None
    return _unchecked_kit(data, ch)


def kit_of(ch: Character, data: RiftData | None = None) -> Kit:
    """The derived kit of a valid character (raises CharacterError if it is not valid)."""
    data = data or default_data()
    problems = character_problems(ch, data)
    if problems:
        raise CharacterError("; ".join(problems))
    return _unchecked_kit(data, ch)


def character_to_dict(ch: Character) -> dict[str, Any]:
    out: dict[str, Any] = {"name": ch.name, "level": ch.level, "attitude": ch.attitude}
    if ch.second_attitude:
        out["second_attitude"] = ch.second_attitude
    if ch.level7:
        out["level7"] = ch.level7
    if ch.weapons:
        out["weapons"] = list(ch.weapons)
    if ch.talents:
        out["talents"] = list(ch.talents)
    out["skills"] = dict(ch.skills)
    return out


_KEYS = {"name", "level", "attitude", "second_attitude", "level7", "weapons", "talents", "skills"}


def character_from_dict(raw: Any, where: str = "character") -> Character:
    if not isinstance(raw, dict):
        raise CharacterError(f"{where} must be a table/object")
    unknown = set(raw) - _KEYS
    if unknown:
        raise CharacterError(
            f"{where}: unknown key(s) {', '.join(sorted(unknown))} (known: {', '.join(sorted(_KEYS))})"
        )
    for key in ("name", "level", "attitude"):
        if key not in raw:
            raise CharacterError(f"{where}: missing key '{key}'")

    def text(key: str) -> str:
        value = raw.get(key, "")
        if not isinstance(value, str):
            raise CharacterError(f"{where}: '{key}' must be text, not {value!r}")
        return value

    def names(key: str) -> tuple[str, ...]:
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise CharacterError(f"{where}: '{key}' must be a list of names, not {value!r}")
        return tuple(value)

    level = raw["level"]
    if isinstance(level, bool) or not isinstance(level, int):
        raise CharacterError(f"{where}: 'level' must be a whole number, not {level!r}")
    skills = raw.get("skills", {})
    if not isinstance(skills, dict):
        raise CharacterError(f"{where}: 'skills' must be a table of skill = rank")
    pairs: list[tuple[str, int]] = []
    for skill, rank in skills.items():
        if isinstance(rank, bool) or not isinstance(rank, int):
            raise CharacterError(f"{where}: skill '{skill}' rank must be a whole number, not {rank!r}")
        pairs.append((str(skill), rank))
    return Character(
        name=text("name"),
        level=level,
        attitude=text("attitude"),
        second_attitude=text("second_attitude"),
        level7=text("level7"),
        weapons=names("weapons"),
        talents=names("talents"),
        skills=tuple(sorted(pairs)),
    )


def unit_spec(ch: Character) -> UnitSpec:
    """The UnitSpec that fields this character: kind "rifter", the character as JSON in ``options``."""
    text = json.dumps(character_to_dict(ch), sort_keys=True, separators=(",", ":"))
    return UnitSpec(RIFTER, ch.name, tuple(ch.weapons), (("character", text),))


def character_from_spec(spec: UnitSpec) -> Character:
    options = dict(spec.options)
    if "character" not in options:
        raise CharacterError(f"unit '{spec.name or spec.kind}': a Rifter needs a ('character', json) option")
    text = options["character"]
    try:
        raw = parse_json(
            text.encode("utf-8", "surrogatepass"), f"unit '{spec.name}'", CHARACTER_LIMITS, what="character"
        )
    except FileRefusedError as error:
        raise CharacterError(f"unit '{spec.name}': {error.what}") from None
    return character_from_dict(raw, f"unit '{spec.name or 'rifter'}'")


# -- posse files ----------------------------------------------------------------------------------------


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(type(value).__name__)


def save_posse(path: str | Path, name: str, characters: list[Character]) -> None:
    """Write a posse of Rifters as TOML (``.toml``) or JSON (any other suffix)."""
    path = Path(path)
    for ch in characters:
        problems = character_problems(ch)
        if problems:
            raise CharacterError("; ".join(problems))
    docs = [character_to_dict(ch) for ch in characters]
    if path.suffix == ".toml":
        lines = [f"name = {_toml_value(name)}", ""]
        for doc in docs:
            lines.append("[[rifters]]")
            skills = doc.pop("skills")
            lines += [f"{k} = {_toml_value(v)}" for k, v in doc.items()]
            lines.append("[rifters.skills]")
            lines += [f"{k} = {v}" for k, v in skills.items()]
            lines.append("")
        text = "\n".join(lines)
    else:
        text = json.dumps({"name": name, "rifters": docs}, indent=2) + "\n"
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def load_posse(path: str | Path) -> tuple[str, list[Character]]:
    """Read a posse file written by :func:`save_posse` (or by hand); every problem is a CharacterError."""
    path = Path(path)
    try:
        doc = (load_toml if path.suffix == ".toml" else load_json)(path, POSSE_FILE_LIMITS, what="posse file")
    except FileRefusedError as error:
        raise CharacterError(f"{path}: {error.what}") from None
    if not isinstance(doc, dict) or set(doc) - {"name", "rifters"}:
        raise CharacterError(f"{path}: a posse file has 'name' and 'rifters' only")
    rifters = doc.get("rifters")
    if not isinstance(rifters, list) or not rifters:
        raise CharacterError(f"{path}: 'rifters' must list at least one Rifter")
    name = doc.get("name", "")
    if not isinstance(name, str):
        raise CharacterError(f"{path}: 'name' must be text")
    characters = [character_from_dict(r, f"{path}: rifter {i + 1}") for i, r in enumerate(rifters)]
    for ch in characters:
        problems = character_problems(ch)
        if problems:
            raise CharacterError(f"{path}: " + "; ".join(problems))
    return name, characters


def posse_spec(side: str, name: str, characters: list[Character], controller: str = "human") -> PosseSpec:
    return PosseSpec(side, "rifters", name, tuple(unit_spec(c) for c in characters), controller)
