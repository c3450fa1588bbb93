"""Posses as a player builds them and keeps them: a draft edited step by step, and a library of named files.

Headless: the posse builder screen is drawn on top of this. The model decides no rule. Every option it
offers comes from the ruleset's data (frontier.toml, rift.toml), and whether an option is allowed, and why
not, comes from the ruleset's own checks: :meth:`PosseDraft.choices_for` applies each option to a scratch
copy of the draft and asks ``validate_posse`` (for a Rifter that is ``character_problems``); an option that
brings new problems is disabled and those problems are its reason, in the rules' own words.

Two kinds of problem are told apart, so that a choice is refused only for what it breaks:

- *to-dos*, what is simply not done yet: talents still to pick, skill points still to allocate (and
  their excess after a level went down), an empty posse. Before asking the rules, the scratch copy has
  them filled in (``talent_count`` and ``skill_points`` say how many). :meth:`PosseDraft.problems` lists
  them all the same.
- taking something away (a unit, a talent, a weapon, skill ranks) is always allowed: what it leaves
  missing is a to-do. Only the last weapon of a Rifter stays: an empty weapon list means "the attitude's
  default weapons" in a character, so :meth:`PosseDraft.reset_weapons` is the way back to those.

The library keeps posses by name as JSON in ``<data dir>/posses/<ruleset>/``; the data dir is
``platformdirs.user_data_dir("hexslinger")``, or ``$HEXSLINGER_DATA_DIR``. Files are written atomically
(:func:`game.save.write_save`). Every way a file can be wrong ends in a :class:`PosseFileError` saying what
and how to fix it. Each ruleset also has default posses built from its data, so a new player can start at
once; a saved posse of the same name takes their place.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

import platformdirs

from game.rules import PosseSpec, UnitSpec, UnknownRulesetError, get_ruleset
from game.rules.frontier.data import FrontierData
from game.rules.frontier.ruleset import FrontierRuleset, normalize_id
from game.rules.rift.character import (
    MAX_LEVEL,
    MAX_RANK,
    RIFTER,
    Character,
    CharacterError,
    character_from_dict,
    character_from_spec,
    character_to_dict,
    draft_kit,
    skill_points,
    talent_count,
    unit_spec,
)
from game.rules.rift.data import RiftData
from game.rules.rift.ruleset import FACTIONS as RIFT_FACTIONS
from game.rules.rift.ruleset import RiftRuleset
from game.save import write_save

__all__ = [
    "DATA_ENV",
    "FIELD_LABELS",
    "FORMAT",
    "RULESET_NAMES",
    "VERSION",
    "Choice",
    "DraftError",
    "DraftUnit",
    "PosseDraft",
    "PosseEntry",
    "PosseFileError",
    "data_dir",
    "default_posses",
    "delete_posse",
    "file_stem",
    "list_posses",
    "load_posse",
    "name_problem",
    "posse_dir",
    "read_posse_file",
    "save_posse",
]

FORMAT: Final = "hexslinger-posse"
VERSION: Final = 1
DATA_ENV: Final = "HEXSLINGER_DATA_DIR"
RULESET_NAMES: Final = ("frontier", "rift")
MAX_NAME: Final = 60
MAX_FILE_BYTES: Final = 1024 * 1024

# What each field of choices_for is called on screen.
FIELD_LABELS: Final = {
    "faction": "Posse",
    "add": "Add a unit",
    "weapon": "Weapon",
    "attitude": "Attitude",
    "level": "Level",
    "second_attitude": "Second attitude",
    "level7": "Level 7 pick",
    "weapons": "Weapons",
    "talents": "Talents",
    "skill": "Skill rank",
}

# Flavour names of the default posses, by faction id; a faction not named here gets "<faction> Posse".
_DEFAULT_NAMES: Final = {
    "the_law": "Sheriff's Posse",
    "the_outlaws": "Blackwater Gang",
    "rifters": "Rifter Crew",
    "outlaws": "Outlaw Gang",
}


@dataclass(frozen=True, slots=True)
class Choice:
    """One option the builder can offer: ``enabled``, or not with the ``reason`` in the rules' words.

    ``selected``: the unit (or posse) has it now. For a toggle (Rift weapons and talents) choosing a
    selected option takes it away again."""

    id: str
    label: str
    enabled: bool = True
    reason: str | None = None
    selected: bool = False
    detail: str = ""


class DraftError(ValueError):
    """A posse the draft model cannot hold (e.g. a Frontier unit carrying two weapons); says what."""


@dataclass(frozen=True, slots=True)
class DraftUnit:
    """One unit of a draft: its kind, its name, a Frontier weapon option or a Rifter's whole character."""

    kind: str
    name: str = ""
    weapon: str = ""
    character: Character | None = None


def name_problem(name: str, what: str = "a name") -> str | None:
    """Why ``name`` cannot be a unit's or posse's name (None: it can). Names are kept as typed."""
    if not isinstance(name, str):
        return f"{what} must be text"
    if len(name) > MAX_NAME:
        return f"{what} has at most {MAX_NAME} characters"
    if any(unicodedata.category(c)[0] == "C" or unicodedata.category(c) in ("Zl", "Zp") for c in name):
        return f"{what} cannot contain control characters or line breaks"
    return None


def _unique(base: str, taken: Iterable[str]) -> str:
    used = {t.casefold() for t in taken}
    if base.casefold() not in used:
        return base
    n = 2
    while f"{base} {n}".casefold() in used:
        n += 1
    return f"{base} {n}"


def _new_problems(after: list[str], before: list[str]) -> list[str]:
    """The problems of ``after`` that ``before`` did not have (counted, in ``after``'s order)."""
    left = Counter(before)
    out = []
    for p in after:
        if left[p] > 0:
            left[p] -= 1
        else:
            out.append(p)
    return out


# == the two rulesets as the builder sees them =====================================================
# Each backend offers options read from the ruleset's data, applies them to a unit, fills in a unit's
# to-dos (Rift) and converts units to UnitSpecs and JSON. Whether an option is allowed is never decided
# here: PosseDraft asks the ruleset's validate_posse.

_Option = tuple[Choice, str]  # the choice, and its mode: "set", "add" or "remove"


class _Backend:
    name: str
    title: str

    def __init__(self, ruleset: FrontierRuleset | RiftRuleset) -> None:
        self.ruleset = ruleset

    def validate(self, posse: PosseSpec) -> list[str]:
        return self.ruleset.validate_posse(posse)

    def factions(self, current: str) -> list[Choice]:
        raise NotImplementedError

    def kinds(self) -> list[Choice]:
        raise NotImplementedError

    def kind_label(self, kind: str) -> str:
        return next((c.label for c in self.kinds() if c.id == kind), kind)

    def new_unit(self, kind: str, taken: list[str]) -> DraftUnit:
        raise NotImplementedError

    def fields(self, unit: DraftUnit) -> tuple[str, ...]:
        raise NotImplementedError

    def options(self, unit: DraftUnit, what: str, key: str) -> list[_Option]:
        raise NotImplementedError

    def apply(self, unit: DraftUnit, what: str, key: str, value: str) -> DraftUnit:
        raise NotImplementedError

    def complete(self, unit: DraftUnit, what: str) -> DraftUnit:
        return unit

    def rename(self, unit: DraftUnit, name: str) -> DraftUnit:
        return replace(unit, name=name)

    def unit_spec(self, unit: DraftUnit) -> UnitSpec:
        raise NotImplementedError

    def unit_from_spec(self, spec: UnitSpec) -> DraftUnit:
        raise NotImplementedError

    def unit_to_json(self, unit: DraftUnit) -> dict[str, Any]:
        raise NotImplementedError

    def unit_from_json(self, raw: Any, where: str) -> DraftUnit:
        raise NotImplementedError

    def faction_id(self, faction: str) -> str:
        return faction


def _check_keys(raw: Any, where: str, required: set[str], optional: set[str]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise DraftError(f"{where} must be an object")
    unknown = set(raw) - required - optional
    if unknown:
        known = ", ".join(sorted(required | optional))
        raise DraftError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} (known: {known})")
    for key in sorted(required):
        if key not in raw:
            raise DraftError(f"{where}: missing key '{key}'")
    for key, value in raw.items():
        if key != "character" and not isinstance(value, str):
            raise DraftError(f"{where}: '{key}' must be text, not {value!r}")
    return raw


class _Frontier(_Backend):
    name = "frontier"
    title = "Frontier"

    def __init__(self, ruleset: FrontierRuleset) -> None:
        super().__init__(ruleset)
        self.data: FrontierData = ruleset.data
        # every weapon some unit may carry, in the data's order (the Fists fallback is no option)
        carried = {w for u in self.data.units.values() for w in u.weapons}
        self.weapon_ids = [w for w in self.data.weapons if w in carried]

    def faction_id(self, faction: str) -> str:
        fid = normalize_id(faction)
        for f in self.data.factions.values():
            if fid in (f.id, normalize_id(f.name)):
                return f.id
        return faction

    def factions(self, current: str) -> list[Choice]:
        data = self.data
        out = []
        for f in data.factions.values():
            units = ", ".join(data.units[u].name for u in f.units)
            dupes = "non-leader duplicates allowed" if f.duplicates else "no duplicates"
            detail = f"Up to {f.max_units} units, {dupes}: {units}"
            out.append(Choice(f.id, f.name, selected=f.id == current, detail=detail))
        return out

    def kinds(self) -> list[Choice]:
        return [Choice(u.id, u.name, detail=self._unit_detail(u.id)) for u in self.data.units.values()]

    def _unit_detail(self, kind: str) -> str:
        u = self.data.units[kind]
        stats = [f'Move {u.move}"']
        if u.ballistics is not None:
            stats.append(f"Ballistics {u.ballistics}+")
        stats += [f"Melee {u.melee}+", f"Toughness {u.toughness}", f"Wounds {u.wounds}", f"Cool {u.cool}+"]
        if u.leadership is not None:
            stats.append(f"Leadership {u.leadership}")
        text = ", ".join(stats) + ". Weapons: " + " or ".join(self.data.weapons[w].name for w in u.weapons)
        if u.abilities:
            text += ". " + ", ".join(self.data.abilities[a].name for a in u.abilities)
        return ("Leader. " if u.leader else "") + text

    def _weapon_detail(self, wid: str) -> str:
        w = self.data.weapons[wid]
        if not w.is_ranged:
            return f"Melee, damage {w.damage}"
        reach = f'{w.short_range}"' + (f'/{w.long_range}"' if w.long_range != w.short_range else "")
        ammo = f", ammo {w.ammo}" if w.ammo is not None else ""
        return f"Range {reach}, accuracy {w.short_accuracy:+d}/{w.long_accuracy:+d}, damage {w.damage}{ammo}"

    def new_unit(self, kind: str, taken: list[str]) -> DraftUnit:
        u = self.data.units[kind]
        return DraftUnit(kind, _unique(u.name, taken), weapon=u.weapons[0])

    def fields(self, unit: DraftUnit) -> tuple[str, ...]:
        return ("weapon",) if unit.kind in self.data.units else ()

    def options(self, unit: DraftUnit, what: str, key: str) -> list[_Option]:
        if what != "weapon" or unit.kind not in self.data.units:
            return []
        ids = [*self.weapon_ids, *([unit.weapon] if unit.weapon not in self.weapon_ids else [])]
        return [
            (
                Choice(
                    w,
                    self.data.weapons[w].name if w in self.data.weapons else w,
                    selected=w == unit.weapon,
                    detail=self._weapon_detail(w) if w in self.data.weapons else "",
                ),
                "set",
            )
            for w in ids
            if w
        ]

    def apply(self, unit: DraftUnit, what: str, key: str, value: str) -> DraftUnit:
        return replace(unit, weapon=value)

    def unit_spec(self, unit: DraftUnit) -> UnitSpec:
        return UnitSpec(unit.kind, unit.name, (unit.weapon,) if unit.weapon else ())

    def unit_from_spec(self, spec: UnitSpec) -> DraftUnit:
        if len(spec.loadout) > 1:
            raise DraftError(f"{spec.name or spec.kind} carries {len(spec.loadout)} weapons; one is chosen")
        if spec.options:
            raise DraftError(f"{spec.name or spec.kind}: a Frontier unit has no options")
        kind = normalize_id(spec.kind) if normalize_id(spec.kind) in self.data.units else spec.kind
        weapon = normalize_id(spec.loadout[0]) if spec.loadout else ""
        if not weapon and kind in self.data.units:
            weapon = self.data.units[kind].weapons[0]
        return DraftUnit(kind, spec.name, weapon)

    def unit_to_json(self, unit: DraftUnit) -> dict[str, Any]:
        return {"kind": unit.kind, "name": unit.name, "weapon": unit.weapon}

    def unit_from_json(self, raw: Any, where: str) -> DraftUnit:
        t = _check_keys(raw, where, {"kind"}, {"name", "weapon"})
        return self.unit_from_spec(
            UnitSpec(t["kind"], t.get("name", ""), (t["weapon"],) if t.get("weapon") else ())
        )


_TALENTS, _SKILLS = "talents", "skill"


class _Rift(_Backend):
    name = "rift"
    title = "Through the Rift"

    def __init__(self, ruleset: RiftRuleset) -> None:
        super().__init__(ruleset)
        self.data: RiftData = ruleset.data
        self.first_attitude = next(iter(self.data.attitudes))
        # The weapons the rules let a Rifter carry at all: those a fresh Rifter may carry alone.
        probe = self._complete(Character("Rifter", 1, self.first_attitude), "exact", "exact")
        base = self._problems(probe)
        self.weapon_ids = [
            w
            for w in self.data.weapons
            if not _new_problems(self._problems(replace(probe, weapons=(w,))), base)
        ]

    def _problems(self, ch: Character) -> list[str]:
        return self.validate(PosseSpec("side1", "rifters", "", (unit_spec(ch),)))

    def factions(self, current: str) -> list[Choice]:
        return [Choice(fid, name, selected=fid == current) for fid, name in RIFT_FACTIONS.items()]

    def kinds(self) -> list[Choice]:
        data = self.data
        out = [Choice(RIFTER, RIFTER.title(), detail="A player character: attitude, level, weapons, talents")]
        for e in data.enemies.values():
            weapons = ", ".join(data.weapons[w].name for w in e.weapons)
            detail = f"{e.resolve} resolve, {e.action_points} AP. {weapons}. {e.text}"
            out.append(Choice(e.id, e.name, detail=detail))
        return out

    def new_unit(self, kind: str, taken: list[str]) -> DraftUnit:
        if kind == RIFTER:
            name = _unique(RIFTER.title(), taken)
            return DraftUnit(RIFTER, name, character=Character(name, 1, self.first_attitude))
        return DraftUnit(kind, _unique(self.data.enemies[kind].name, taken))

    def fields(self, unit: DraftUnit) -> tuple[str, ...]:
        if unit.character is None:
            return ()
        return ("attitude", "level", "second_attitude", "level7", "weapons", "talents", "skill")

    def weapons_of(self, ch: Character) -> tuple[str, ...]:
        """What the Rifter carries now: the chosen weapons, else its attitude's defaults."""
        if ch.weapons:
            return ch.weapons
        kit = draft_kit(ch, self.data)
        return kit.weapons if kit is not None else ()

    def _names(self, ids: Iterable[str]) -> str:
        """Action and trait ids as their names."""
        names = []
        for i in ids:
            entry = self.data.actions.get(i) or self.data.traits.get(i)
            names.append(entry.name if entry is not None else i)
        return ", ".join(names)

    def _attitude_detail(self, aid: str) -> str:
        a = self.data.attitudes[aid]
        parts = [f"{a.resolve} resolve"]
        if a.weapons:
            parts.append("weapon: " + ", ".join(self.data.weapons[w].name for w in a.weapons))
        parts.append("level 1: " + self._names([*a.actions[1], *a.traits[1]]))
        return "; ".join(parts)

    def _talent_detail(self, tid: str) -> str:
        t = self.data.talents[tid]
        bits = [self._names(t.actions), self._names(t.traits)]
        text = "; ".join(b for b in bits if b) or "no effect in an encounter"
        if "animal_friend" in t.traits:  # the ruleset's setup fields the dog for this trait
            dog = self.data.companions["dog"]
            text += f": brings a {dog.name} ({dog.resolve} resolve, {dog.action_points} AP)"
        return text

    def options(self, unit: DraftUnit, what: str, key: str) -> list[_Option]:
        ch = unit.character
        if ch is None:
            return []
        data = self.data
        if what == "attitude":
            return [
                (
                    Choice(
                        a, data.attitudes[a].name, selected=a == ch.attitude, detail=self._attitude_detail(a)
                    ),
                    "set",
                )
                for a in data.attitudes
            ]
        if what == "level":
            return [
                (
                    Choice(
                        str(n),
                        f"Level {n}",
                        selected=n == ch.level,
                        detail=f"{talent_count(n)} talent(s), {skill_points(n)} skill points",
                    ),
                    "set",
                )
                for n in range(1, MAX_LEVEL + 1)
            ]
        if what == "second_attitude":
            out: list[_Option] = [(Choice("", "None", selected=not ch.second_attitude), "set")]
            for a in data.attitudes:
                c = Choice(
                    a,
                    data.attitudes[a].name,
                    selected=a == ch.second_attitude,
                    detail=self._attitude_detail(a),
                )
                out.append((c, "set"))
            return out
        if what == "level7":
            own = data.attitudes.get(ch.attitude)
            own_label = "Own 7th level"
            if own is not None:
                got = self._names([*own.actions[7], *own.traits[7]])
                own_label = f"{own.name} 7th level: {got}"
            out = [(Choice("", own_label, selected=not ch.level7), "set")]
            second = data.attitudes.get(ch.second_attitude)
            picks = list(second.traits[4]) if second is not None else []
            if ch.level7 and ch.level7 not in picks:
                picks.append(ch.level7)
            for t in picks:
                trait = data.traits.get(t)
                label = trait.name if trait is not None else t
                if second is not None and t in second.traits[4]:
                    label += f" ({second.name}, 4th level)"
                out.append(
                    (Choice(t, label, selected=t == ch.level7, detail=trait.text if trait else ""), "set")
                )
            return out
        if what == "weapons":
            carried = self.weapons_of(ch)
            out = []
            for w in [*self.weapon_ids, *(x for x in carried if x not in self.weapon_ids)]:
                weapon = data.weapons.get(w)
                label = weapon.name if weapon is not None else w
                detail = weapon.block if weapon is not None else ""
                if w not in carried:
                    out.append((Choice(w, label, detail=detail), "add"))
                elif len(carried) == 1:
                    reason = (
                        f"{ch.name or 'a Rifter'} keeps at least one weapon (Reset restores the defaults)"
                    )
                    out.append((Choice(w, label, False, reason, True, detail), "remove"))
                else:
                    out.append((Choice(w, label, selected=True, detail=detail), "remove"))
            return out
        if what == _TALENTS:
            known = list(data.talents)
            return [
                (
                    Choice(
                        t,
                        data.talents[t].name if t in known else t,
                        selected=t in ch.talents,
                        detail=self._talent_detail(t) if t in known else "",
                    ),
                    "remove" if t in ch.talents else "add",
                )
                for t in [*known, *(x for x in ch.talents if x not in known)]
            ]
        if what == _SKILLS:
            if key not in data.skills:
                return []
            rank = dict(ch.skills).get(key, 0)
            return [
                (
                    Choice(str(r), str(r), selected=r == rank),
                    "remove" if r < rank else "add" if r > rank else "set",
                )
                for r in range(MAX_RANK + 1)
            ]
        return []

    def apply(self, unit: DraftUnit, what: str, key: str, value: str) -> DraftUnit:
        ch = unit.character
        assert ch is not None
        if what == "attitude":
            ch = replace(ch, attitude=value)
        elif what == "level":
            ch = replace(ch, level=int(value))
        elif what == "second_attitude":
            ch = replace(ch, second_attitude=value)
        elif what == "level7":
            ch = replace(ch, level7=value)
        elif what == "weapons":
            carried = self.weapons_of(ch)
            weapons = tuple(w for w in carried if w != value) if value in carried else (*carried, value)
            ch = replace(ch, weapons=weapons)
        elif what == _TALENTS:
            talents = (
                tuple(t for t in ch.talents if t != value) if value in ch.talents else (*ch.talents, value)
            )
            ch = replace(ch, talents=talents)
        elif what == _SKILLS:
            ch = self._with_rank(ch, key, int(value))
        return replace(unit, character=ch)

    @staticmethod
    def _with_rank(ch: Character, skill: str, rank: int) -> Character:
        skills = dict(ch.skills)
        skills[skill] = rank
        return replace(ch, skills=tuple(sorted((s, r) for s, r in skills.items() if r)))

    def _complete(self, ch: Character, talents: str, skills: str) -> Character:
        """``ch`` with its to-dos done: talents up to the level's count, skill points up to the level's
        points ("fill"), and their excess taken back too ("exact")."""
        if ch.attitude not in self.data.attitudes or not 1 <= ch.level <= MAX_LEVEL:
            return ch
        need = talent_count(ch.level)
        chosen = list(ch.talents)
        if len(chosen) < need:
            # talents without combat effects first, so the scratch copy's kit is the player's own
            spare = sorted(
                (t for t in self.data.talents if t not in chosen), key=lambda t: self.data.talents[t].combat
            )
            chosen += spare[: need - len(chosen)]
        elif len(chosen) > need and talents == "exact":
            chosen = chosen[:need]
        ranks = dict(ch.skills)
        total, points = sum(ranks.values()), skill_points(ch.level)
        if total < points:
            for s in self.data.skills:
                add = max(0, min(MAX_RANK - ranks.get(s, 0), points - total))
                if add:
                    ranks[s] = ranks.get(s, 0) + add
                    total += add
        elif total > points and skills == "exact":
            for s in sorted(ranks, reverse=True):
                take = min(max(ranks[s], 0), total - points)
                ranks[s] -= take
                total -= take
        return replace(ch, talents=tuple(chosen), skills=tuple(sorted((s, r) for s, r in ranks.items() if r)))

    def complete(self, unit: DraftUnit, what: str) -> DraftUnit:
        if unit.character is None:
            return unit
        ch = self._complete(
            unit.character, "fill" if what == _TALENTS else "exact", "fill" if what == _SKILLS else "exact"
        )
        return replace(unit, character=ch)

    def auto_skills(self, unit: DraftUnit) -> DraftUnit:
        assert unit.character is not None
        ch = self._complete(unit.character, "fill", "exact")
        return replace(unit, character=replace(unit.character, skills=ch.skills))

    def rename(self, unit: DraftUnit, name: str) -> DraftUnit:
        if unit.character is not None:
            return replace(unit, name=name, character=replace(unit.character, name=name))
        return replace(unit, name=name)

    def unit_spec(self, unit: DraftUnit) -> UnitSpec:
        if unit.character is not None:
            return unit_spec(unit.character)
        return UnitSpec(unit.kind, unit.name)

    def unit_from_spec(self, spec: UnitSpec) -> DraftUnit:
        if spec.kind == RIFTER:
            try:
                ch = character_from_spec(spec)
            except CharacterError as error:
                raise DraftError(str(error)) from None
            if spec.name and spec.name != ch.name:
                ch = replace(ch, name=spec.name)
            return DraftUnit(RIFTER, ch.name, character=ch)
        if spec.loadout or spec.options:
            raise DraftError(f"{spec.name or spec.kind}: only a Rifter chooses weapons and options")
        return DraftUnit(spec.kind, spec.name)

    def unit_to_json(self, unit: DraftUnit) -> dict[str, Any]:
        if unit.character is not None:
            return {"kind": unit.kind, "character": character_to_dict(unit.character)}
        return {"kind": unit.kind, "name": unit.name}

    def unit_from_json(self, raw: Any, where: str) -> DraftUnit:
        if isinstance(raw, dict) and raw.get("kind") == RIFTER:
            t = _check_keys(raw, where, {"kind", "character"}, set())
            try:
                ch = character_from_dict(t["character"], f"{where}, character")
            except CharacterError as error:
                raise DraftError(str(error)) from None
            return DraftUnit(RIFTER, ch.name, character=ch)
        t = _check_keys(raw, where, {"kind"}, {"name"})
        return DraftUnit(t["kind"], t.get("name", ""))


def _backend(ruleset: str) -> _Backend:
    try:
        rules = get_ruleset(ruleset)
    except UnknownRulesetError:
        raise DraftError(f"unknown ruleset '{ruleset}' (rulesets: {', '.join(RULESET_NAMES)})") from None
    if isinstance(rules, FrontierRuleset):
        return _Frontier(rules)
    if isinstance(rules, RiftRuleset):
        return _Rift(rules)
    raise DraftError(f"the posse builder does not know the ruleset '{ruleset}'")


_BACKENDS: dict[str, _Backend] = {}


def _backend_for(ruleset: str) -> _Backend:
    if ruleset not in _BACKENDS:
        _BACKENDS[ruleset] = _backend(ruleset)
    return _BACKENDS[ruleset]


# == the draft =====================================================================================


class PosseDraft:
    """A posse being built for one ruleset ("frontier" or "rift") and side, edited step by step.

    Edits never raise: each returns None when done, or the reason it was refused (the draft unchanged).
    ``index`` is a unit's position in :attr:`units`; posse-wide choices ("faction", "add") take None.
    """

    def __init__(self, ruleset: str, side: str = "side1", faction: str = "", name: str = "") -> None:
        self._rules = _backend_for(ruleset)
        self.ruleset = self._rules.name
        self.side = side
        self.faction = self._rules.faction_id(faction) if faction else self._rules.factions("")[0].id
        self.name = name
        self.controller = "human"
        self._units: list[DraftUnit] = []

    # -- reading ---------------------------------------------------------------------------------------
    @property
    def title(self) -> str:
        """The ruleset's name for players."""
        return self._rules.title

    @property
    def units(self) -> tuple[DraftUnit, ...]:
        return tuple(self._units)

    def _unit(self, index: int | None) -> DraftUnit | None:
        if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(self._units):
            return self._units[index]
        return None

    def kind_label(self, index: int) -> str:
        unit = self._unit(index)
        return "" if unit is None else self._rules.kind_label(unit.kind)

    def fields(self, index: int | None) -> tuple[str, ...]:
        """What can be chosen for unit ``index`` (None: for the posse); keys of :data:`FIELD_LABELS`."""
        if index is None:
            return ("faction", "add")
        unit = self._unit(index)
        return () if unit is None else self._rules.fields(unit)

    def spec(self, side: str | None = None, controller: str | None = None) -> PosseSpec:
        """The PosseSpec a Match takes."""
        return self._spec(self.faction, self._units, side, controller)

    def _spec(
        self, faction: str, units: list[DraftUnit], side: str | None = None, controller: str | None = None
    ) -> PosseSpec:
        return PosseSpec(
            side or self.side,
            faction,
            self.name,
            tuple(self._rules.unit_spec(u) for u in units),
            controller or self.controller,
        )

    def problems(self) -> list[str]:
        """Every reason the posse may not be fielded yet, from the ruleset (empty: it may)."""
        return self._rules.validate(self.spec())

    def unit_problems(self, index: int) -> list[str]:
        """The ruleset's problems with one unit on its own (posse limits aside)."""
        unit = self._unit(index)
        if unit is None:
            return []
        return self._rules.validate(self._spec(self.faction, [unit]))

    def weapons(self, index: int) -> tuple[str, ...]:
        """The weapon ids unit ``index`` carries (a Rifter's defaults included)."""
        unit = self._unit(index)
        if unit is None:
            return ()
        if unit.character is not None and isinstance(self._rules, _Rift):
            return self._rules.weapons_of(unit.character)
        return (unit.weapon,) if unit.weapon else ()

    def skills(self, index: int) -> list[tuple[str, str, int]]:
        """A Rifter's skills as (id, name, rank), every skill of the data; [] for other units."""
        unit = self._unit(index)
        if unit is None or unit.character is None or not isinstance(self._rules, _Rift):
            return []
        ranks = dict(unit.character.skills)
        return [(s, name, ranks.get(s, 0)) for s, name in self._rules.data.skills.items()]

    def skill_points_left(self, index: int) -> int:
        """Skill points a Rifter still has to allocate (negative: too many allocated); 0 for others."""
        unit = self._unit(index)
        if unit is None or unit.character is None:
            return 0
        ch = unit.character
        level = min(max(ch.level, 1), MAX_LEVEL)
        return skill_points(level) - sum(r for _, r in ch.skills)

    def talents_left(self, index: int) -> int:
        """Talents a Rifter still has to pick (negative: too many); 0 for others."""
        unit = self._unit(index)
        if unit is None or unit.character is None:
            return 0
        ch = unit.character
        return talent_count(min(max(ch.level, 1), MAX_LEVEL)) - len(ch.talents)

    def fielded(self, index: int) -> list[str]:
        """The names of the units unit ``index`` puts on the field: itself, and a Rifter's dog when it
        has Animal Friend (the ruleset's setup fields one for that trait)."""
        unit = self._unit(index)
        if unit is None:
            return []
        names = [unit.name or self._rules.kind_label(unit.kind)]
        if unit.character is not None and isinstance(self._rules, _Rift):
            kit = draft_kit(unit.character, self._rules.data)
            if kit is not None and "animal_friend" in kit.traits:
                names.append(f"{unit.name}'s {self._rules.data.companions['dog'].name}")
        return names

    # -- choices ---------------------------------------------------------------------------------------
    def _options(self, index: int | None, what: str, key: str) -> list[_Option]:
        if index is None:
            if what == "faction":
                return [(c, "set") for c in self._rules.factions(self.faction)]
            if what == "add":
                return [(c, "add") for c in self._rules.kinds()]
            return []
        unit = self._unit(index)
        if unit is None:
            return []
        return self._rules.options(unit, what, key)

    def choices_for(self, index: int | None, what: str, key: str = "") -> list[Choice]:
        """Every option for ``what`` (a field of :meth:`fields`; for "skill", ``key`` is the skill id), each
        enabled or not with the ruleset's reason. Unknown fields or indices give []."""
        return [self._judge(index, what, key, c, mode) for c, mode in self._options(index, what, key)]

    def _judge(self, index: int | None, what: str, key: str, choice: Choice, mode: str) -> Choice:
        if not choice.enabled or mode == "remove":
            return choice
        reason = self._verdict(index, what, key, choice.id)
        return replace(choice, enabled=reason is None, reason=reason)

    def _after(
        self, index: int | None, what: str, key: str, value: str
    ) -> tuple[str, list[DraftUnit], int | None]:
        units = list(self._units)
        if index is None:
            if what == "faction":
                return value, units, None
            units.append(self._rules.new_unit(value, [u.name for u in units]))
            return self.faction, units, len(units) - 1
        units[index] = self._rules.apply(units[index], what, key, value)
        return self.faction, units, index

    def _verdict(self, index: int | None, what: str, key: str, value: str) -> str | None:
        """None if choosing ``value`` brings the posse no new problem, else those problems."""
        faction, after, touched = self._after(index, what, key, value)
        before = list(self._units)
        if touched is not None:
            after[touched] = self._rules.complete(after[touched], what)
            if touched < len(before):
                before[touched] = self._rules.complete(before[touched], what)
        new = _new_problems(
            self._rules.validate(self._spec(faction, after)),
            self._rules.validate(self._spec(self.faction, before)),
        )
        # what the rules say of an empty posse is a to-do too ("must field at least one unit")
        empty = self._rules.validate(self._spec(faction, []))
        new = [p for p in new if p not in empty]
        return "; ".join(new) if new else None

    def choose(self, index: int | None, what: str, value: str, key: str = "") -> str | None:
        """Take option ``value`` of ``what`` (for a toggle: add or take it away). None: done; else why not."""
        options = self._options(index, what, key)
        for choice, mode in options:
            if choice.id == value:
                judged = self._judge(index, what, key, choice, mode)
                if not judged.enabled:
                    return judged.reason or "not allowed"
                faction, units, _ = self._after(index, what, key, value)
                self.faction, self._units = faction, units
                return None
        if index is not None and self._unit(index) is None:
            return f"there is no unit {index}"
        label = FIELD_LABELS.get(what, what) if isinstance(what, str) else what
        return f"'{value}' is not an option for {label}"

    # -- other edits -----------------------------------------------------------------------------------
    def add_unit(self, kind: str) -> str | None:
        """Add a unit of ``kind`` (an id from ``choices_for(None, "add")``) with a name of its own."""
        return self.choose(None, "add", kind)

    def remove_unit(self, index: int) -> str | None:
        if self._unit(index) is None:
            return f"there is no unit {index}"
        del self._units[index]
        return None

    def set_name(self, index: int, name: str) -> str | None:
        """Name unit ``index`` (kept as typed)."""
        unit = self._unit(index)
        if unit is None:
            return f"there is no unit {index}"
        problem = name_problem(name, "a unit's name")
        if problem:
            return problem
        self._units[index] = self._rules.rename(unit, name)
        return None

    def set_posse_name(self, name: str) -> str | None:
        problem = name_problem(name, "a posse's name")
        if problem:
            return problem
        self.name = name
        return None

    def auto_skills(self, index: int) -> str | None:
        """Allocate a Rifter's remaining skill points (or take back the excess) in the skills' order."""
        unit = self._unit(index)
        if unit is None or unit.character is None or not isinstance(self._rules, _Rift):
            return "only a Rifter has skills"
        self._units[index] = self._rules.auto_skills(unit)
        return None

    def reset_weapons(self, index: int) -> str | None:
        """Give a Rifter its attitude's default weapons back."""
        unit = self._unit(index)
        if unit is None or unit.character is None:
            return "only a Rifter chooses its weapons"
        self._units[index] = replace(unit, character=replace(unit.character, weapons=()))
        return None

    # -- copies and specs ------------------------------------------------------------------------------
    def copy(self) -> PosseDraft:
        other = PosseDraft(self.ruleset, self.side, self.faction, self.name)
        other.controller = self.controller
        other._units = list(self._units)
        return other

    @classmethod
    def from_spec(cls, ruleset: str, spec: PosseSpec) -> PosseDraft:
        """A draft holding ``spec`` (valid or not); DraftError if the draft cannot hold it."""
        draft = cls(ruleset, spec.side, spec.faction or "", spec.name)
        draft.faction = draft._rules.faction_id(spec.faction)
        draft.controller = spec.controller
        draft._units = [draft._rules.unit_from_spec(u) for u in spec.units]
        return draft

    def to_json(self) -> dict[str, Any]:
        """The posse file's document (without side or controller: a saved posse fights on any side)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "ruleset": self.ruleset,
            "name": self.name,
            "faction": self.faction,
            "units": [self._rules.unit_to_json(u) for u in self._units],
        }


# == default posses ================================================================================


def default_posses(ruleset: str, side: str = "side1") -> list[PosseDraft]:
    """One ready posse per faction of the ruleset, built from its data with the draft's own edits:
    Frontier: every unit kind of the faction once, then more of the first that may be repeated, up to the
    faction's limit (first weapon option each); Through the Rift: the rifters one Rifter of each attitude
    (level 1, default weapons, skills allocated), the outlaws every enemy kind once and two more of the
    first."""
    backend = _backend_for(ruleset)
    out = []
    for faction in backend.factions(""):
        draft = PosseDraft(
            backend.name, side, faction.id, _DEFAULT_NAMES.get(faction.id, f"{faction.label} Posse")
        )
        if isinstance(backend, _Frontier):
            kinds = backend.data.factions[faction.id].units
            for kind in kinds:
                draft.add_unit(kind)
            repeat = next((k for k in kinds if draft.copy().add_unit(k) is None), None)
            while repeat is not None and draft.add_unit(repeat) is None:
                pass
            order = {k: i for i, k in enumerate(kinds)}
            draft._units.sort(key=lambda u: order.get(u.kind, len(order)))
        elif isinstance(backend, _Rift) and faction.id == "rifters":
            for attitude in backend.data.attitudes.values():
                draft.add_unit(RIFTER)
                index = len(draft.units) - 1
                draft.choose(index, "attitude", attitude.id)
                draft.set_name(index, attitude.name)
                draft.auto_skills(index)
        elif isinstance(backend, _Rift):
            enemies = list(backend.data.enemies)
            for kind in [*enemies, *enemies[:1] * 2]:
                draft.add_unit(kind)
        if draft.units and not draft.problems():
            out.append(draft)
    return out


# == the library ===================================================================================


class PosseFileError(Exception):
    """A posse file that cannot be used: ``what`` is wrong and ``fix`` says what to do about it."""

    def __init__(self, path: Path, what: str, fix: str) -> None:
        self.path = path
        self.what = what
        self.fix = fix
        super().__init__(f"{path}: {what} -- {fix}")


@dataclass(frozen=True, slots=True)
class PosseEntry:
    """A posse the library offers: saved (``path``) or built in; ``error`` if its file cannot be used."""

    name: str
    ruleset: str
    builtin: bool
    path: Path | None
    units: int = 0
    error: str | None = None


def data_dir() -> Path:
    """Hexslinger's data folder: ``$HEXSLINGER_DATA_DIR``, else platformdirs' user data dir."""
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_data_dir("hexslinger", appauthor=False))


def posse_dir(ruleset: str | None = None) -> Path:
    """The folder of saved posses (of one ruleset: its subfolder)."""
    base = data_dir() / "posses"
    return base if ruleset is None else base / ruleset


_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}


def file_stem(name: str) -> str:
    """A safe file name for a posse name: letters and digits kept (any script), every other run of
    characters one '-', at most 48 characters; never empty, never a path or a reserved device name."""
    text = unicodedata.normalize("NFKC", name).casefold()
    stem = re.sub(r"[\W_]+", "-", text).strip("-")[:48].strip("-")
    if not stem:
        stem = "posse"
    if stem in _RESERVED:
        stem = f"posse-{stem}"
    return stem


def _same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def _check_ruleset(ruleset: str) -> _Backend:
    if ruleset not in RULESET_NAMES:
        raise PosseFileError(
            posse_dir(), f"unknown ruleset '{ruleset}'", f"use one of: {', '.join(RULESET_NAMES)}"
        )
    return _backend_for(ruleset)


def read_posse_file(path: str | Path, ruleset: str, side: str = "side1") -> PosseDraft:
    """Read a posse file of ``ruleset`` into a draft; every problem is a PosseFileError."""
    path = Path(path)
    backend = _check_ruleset(ruleset)
    damaged = "the file is damaged; delete it and build the posse again in the posse builder"
    try:
        if not path.is_file():
            raise PosseFileError(path, "the posse file does not exist", "pick a posse from the list")
        if path.stat().st_size > MAX_FILE_BYTES:
            raise PosseFileError(path, "the file is too large to be a posse", "delete it or move it away")
        raw = path.read_bytes()
    except OSError as error:
        raise PosseFileError(
            path, f"the file cannot be read ({error.strerror or error})", "check its permissions"
        ) from None
    if not raw.strip():
        raise PosseFileError(path, "the posse file is empty", damaged)
    try:
        doc = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise PosseFileError(path, "the posse file is not text", damaged) from None
    except json.JSONDecodeError as error:
        what = (
            "the file is cut off" if error.pos >= len(raw.rstrip()) - 1 else f"not valid JSON ({error.msg})"
        )
        raise PosseFileError(path, f"{what} at line {error.lineno}", damaged) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise PosseFileError(path, "this is not a Hexslinger posse file", "move it out of the posses folder")
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise PosseFileError(path, "the file's 'version' is missing or not a whole number", damaged)
    if version > VERSION:
        raise PosseFileError(
            path,
            f"the posse file is format version {version}, newer than this Hexslinger understands ({VERSION})",
            "update Hexslinger to use it",
        )
    if version < 1:
        raise PosseFileError(path, f"unknown posse file version {version}", damaged)
    ruleset_of_file = doc.get("ruleset")
    if ruleset_of_file != ruleset:
        if ruleset_of_file in RULESET_NAMES:
            right = posse_dir(str(ruleset_of_file))
            raise PosseFileError(
                path,
                f"this is a {_backend_for(str(ruleset_of_file)).title} posse, not a {backend.title} one",
                f"move it to {right}",
            )
        raise PosseFileError(
            path, f"the file names no ruleset Hexslinger knows ({ruleset_of_file!r})", damaged
        )
    extra = set(doc) - {"format", "version", "ruleset", "name", "faction", "units"}
    if extra:
        raise PosseFileError(
            path, f"unknown key(s) {', '.join(sorted(extra))}", "remove them (the file was edited by hand)"
        )
    name, faction, units = doc.get("name"), doc.get("faction"), doc.get("units")
    if not isinstance(name, str) or not name.strip() or name_problem(name):
        raise PosseFileError(path, "the posse's 'name' is missing or not a usable name", damaged)
    if not isinstance(faction, str):
        raise PosseFileError(path, "the posse's 'faction' is missing or not text", damaged)
    if not isinstance(units, list):
        raise PosseFileError(path, "the posse's 'units' is missing or not a list", damaged)
    draft = PosseDraft(ruleset, side, name=name)
    draft.faction = backend.faction_id(faction)
    try:
        draft._units = [backend.unit_from_json(u, f"unit {i + 1}") for i, u in enumerate(units)]
    except DraftError as error:
        raise PosseFileError(
            path, str(error), "correct the file by hand, or delete it and build the posse again"
        ) from None
    for unit in draft._units:
        if name_problem(unit.name):
            raise PosseFileError(path, f"a unit's name is not usable ({unit.name!r})", damaged)
    problems = draft.problems()
    if problems:
        raise PosseFileError(
            path,
            f"the posse does not follow the {backend.title} rules: " + "; ".join(problems),
            "correct the file by hand, or delete it and build the posse again in the posse builder",
        )
    return draft


def _files(ruleset: str) -> list[Path]:
    folder = posse_dir(ruleset)
    try:
        return sorted(p for p in folder.glob("*.json") if p.is_file())
    except OSError:
        return []


def _stored_name(path: Path) -> str | None:
    """The name a posse file says it holds, read leniently (None if it cannot tell)."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return None
        doc = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    name = doc.get("name") if isinstance(doc, dict) else None
    return name if isinstance(name, str) else None


def _find(ruleset: str, name: str) -> Path | None:
    """The saved file holding the posse called ``name``: its own file name first, else any file."""
    first = posse_dir(ruleset) / f"{file_stem(name)}.json"
    candidates = [first, *(p for p in _files(ruleset) if p != first)]
    for path in candidates:
        stored = _stored_name(path) if path.is_file() else None
        if stored is not None and _same_name(stored, name):
            return path
    return None


def list_posses(ruleset: str) -> list[PosseEntry]:
    """The saved posses of ``ruleset`` (by name; unusable files listed with their error), then the
    built-in defaults no saved posse of the same name replaces."""
    _check_ruleset(ruleset)
    saved: list[PosseEntry] = []
    for path in _files(ruleset):
        try:
            draft = read_posse_file(path, ruleset)
            saved.append(PosseEntry(draft.name, ruleset, False, path, len(draft.units)))
        except PosseFileError as error:
            name = _stored_name(path) or path.stem
            saved.append(PosseEntry(name, ruleset, False, path, 0, f"{error.what} -- {error.fix}"))
    saved.sort(key=lambda e: (e.name.casefold(), str(e.path)))
    builtin = [
        PosseEntry(d.name, ruleset, True, None, len(d.units))
        for d in default_posses(ruleset)
        if not any(_same_name(e.name, d.name) for e in saved)
    ]
    return saved + builtin


def load_posse(ruleset: str, name: str, side: str = "side1") -> PosseDraft:
    """The posse called ``name``: a saved one, else a built-in default; PosseFileError if neither."""
    _check_ruleset(ruleset)
    path = _find(ruleset, name)
    if path is not None:
        return read_posse_file(path, ruleset, side)
    for draft in default_posses(ruleset, side):
        if _same_name(draft.name, name):
            return draft
    raise PosseFileError(
        posse_dir(ruleset) / f"{file_stem(name)}.json",
        f"there is no {_backend_for(ruleset).title} posse called '{name}'",
        "pick one from the list of posses",
    )


def save_posse(draft: PosseDraft, name: str | None = None) -> Path:
    """Save ``draft`` under ``name`` (default: its own name), replacing a saved posse of that name; the
    draft takes the name. Only a posse the rules accept is saved. Returns the file written."""
    name = (draft.name if name is None else name).strip()
    folder = posse_dir(draft.ruleset)
    problem = name_problem(name, "a posse's name") or (None if name else "a posse needs a name to be saved")
    if problem:
        raise PosseFileError(folder, problem, "type another name")
    problems = draft.problems()
    if problems:
        raise PosseFileError(
            folder / f"{file_stem(name)}.json",
            "the posse cannot be saved yet: " + "; ".join(problems),
            "fix what is listed in the posse builder first",
        )
    path = _find(draft.ruleset, name)
    if path is None:
        stem = file_stem(name)
        path = folder / f"{stem}.json"
        n = 2
        while path.exists():
            path = folder / f"{stem}-{n}.json"
            n += 1
    draft.name = name
    try:
        write_save(path, draft.to_json())
    except OSError as error:
        raise PosseFileError(
            path, f"the posse cannot be written ({error.strerror or error})", "check the folder's permissions"
        ) from None
    return path


def delete_posse(ruleset: str, name: str) -> None:
    """Delete the saved posse called ``name`` (a built-in default of that name shows again)."""
    _check_ruleset(ruleset)
    path = _find(ruleset, name)
    if path is None:
        builtin = any(_same_name(d.name, name) for d in default_posses(ruleset))
        raise PosseFileError(
            posse_dir(ruleset) / f"{file_stem(name)}.json",
            f"'{name}' is built in and cannot be deleted"
            if builtin
            else f"there is no saved posse called '{name}'",
            "pick a saved posse from the list",
        )
    try:
        path.unlink()
    except OSError as error:
        raise PosseFileError(
            path, f"the posse cannot be deleted ({error.strerror or error})", "check the folder's permissions"
        ) from None
