"""Through the Rift as the posse builder sees it (:class:`~game.engine.builder.PosseBuilder`): a Rifter is a
whole character (attitude and level, second attitude, level-7 pick, weapons, talents, skill ranks) in four
field groups; a goon comes as the rules make it. Every refusal is the rules' (``validate_posse``, which for
a Rifter is ``character_problems``).

To-dos: talents still to pick and skill points still to spend (or their excess after a level went down).
:meth:`RiftBuilder.complete` fills them in on the draft's scratch copy, so an option is refused only for
what it breaks. Only the last weapon stays: an empty weapon list means "the attitude's default weapons",
so the weapons group's Defaults action is the way back to those.

Default posses: "Rifter Crew" (one Rifter of each attitude, level 1, default weapons, skills allocated) and
"Outlaw Gang" (every enemy kind once and two more of the first).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from game.engine.builder import (
    BaseBuilder,
    Choice,
    DraftError,
    DraftUnit,
    Field,
    FieldGroup,
    Option,
    Sheet,
    SheetSection,
    Todo,
    UnitAction,
    check_keys,
    new_problems,
    same_name,
    unique_name,
)
from game.engine.protocol import PosseSpec, UnitSpec
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
from game.rules.rift.ruleset import FACTIONS, RiftRuleset

__all__ = ["DEFAULT_NAMES", "RiftBuilder", "RiftUnit", "default_posses", "rift_builder"]

# Flavour names of the default posses, by faction id; a faction not named here gets "<faction> Posse".
DEFAULT_NAMES: Final = {"rifters": "Rifter Crew", "outlaws": "Outlaw Gang"}

ATTITUDE: Final = Field("attitude", "Attitude", "grid", min_width=150, columns=3)
LEVEL: Final = Field("level", "Level", "stepper")
SECOND: Final = Field("second_attitude", "Second attitude", "grid", min_width=120)
LEVEL7: Final = Field("level7", "Level 7 pick", "grid", min_width=9999, columns=1)
WEAPONS: Final = Field("weapons", "Weapons", "checklist")
TALENTS: Final = Field("talents", "Talents", "grid", min_width=200, columns=3)
SKILL: Final = Field("skill", "Skill rank", "ranks")
RESET_WEAPONS: Final = UnitAction(
    "reset_weapons", "Defaults", "Back to the weapons the attitude starts with."
)
AUTO_SKILLS: Final = UnitAction(
    "auto_skills", "Auto", "Spend the points left on the skills in order (or take back the excess)."
)


@dataclass(frozen=True, slots=True)
class RiftUnit(DraftUnit):
    """A Through the Rift unit of the draft: a Rifter's whole ``character``, or None for a goon."""

    character: Character | None = None


def _character(unit: DraftUnit) -> Character | None:
    return unit.character if isinstance(unit, RiftUnit) else None


class RiftBuilder(BaseBuilder):
    """Options from ``rift.toml``: the factions, the Rifter and the enemies, attitudes, levels, weapons,
    talents and skills."""

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
            if not new_problems(self._problems(replace(probe, weapons=(w,))), base)
        ]

    def _problems(self, ch: Character) -> list[str]:
        return self.validate(PosseSpec("side1", "rifters", "", (unit_spec(ch),)))

    def factions(self, current: str) -> list[Choice]:
        return [Choice(fid, name, selected=fid == current) for fid, name in FACTIONS.items()]

    def kinds(self) -> list[Choice]:
        data = self.data
        out = [Choice(RIFTER, RIFTER.title(), detail="A player character: attitude, level, weapons, talents")]
        for e in data.enemies.values():
            weapons = ", ".join(data.weapons[w].name for w in e.weapons)
            detail = f"{e.resolve} resolve, {e.action_points} AP. {weapons}. {e.text}"
            out.append(Choice(e.id, e.name, detail=detail))
        return out

    def new_unit(self, kind: str, taken: Sequence[str]) -> DraftUnit:
        if kind == RIFTER:
            name = unique_name(RIFTER.title(), taken)
            return RiftUnit(RIFTER, name, character=Character(name, 1, self.first_attitude))
        return RiftUnit(kind, unique_name(self.data.enemies[kind].name, taken))

    # -- what a Rifter has ---------------------------------------------------------------------------
    def weapons_of(self, ch: Character) -> tuple[str, ...]:
        """What the Rifter carries now: the chosen weapons, else its attitude's defaults."""
        if ch.weapons:
            return ch.weapons
        kit = draft_kit(ch, self.data)
        return kit.weapons if kit is not None else ()

    @staticmethod
    def talents_left(ch: Character) -> int:
        """Talents still to pick (negative: too many)."""
        return talent_count(min(max(ch.level, 1), MAX_LEVEL)) - len(ch.talents)

    @staticmethod
    def skill_points_left(ch: Character) -> int:
        """Skill points still to allocate (negative: too many allocated)."""
        return skill_points(min(max(ch.level, 1), MAX_LEVEL)) - sum(r for _, r in ch.skills)

    def groups(self, unit: DraftUnit) -> tuple[FieldGroup, ...]:
        ch = _character(unit)
        if ch is None:
            return ()
        talents, points = self.talents_left(ch), self.skill_points_left(ch)
        talent_state = (
            f"{talents} still to pick"
            if talents > 0
            else f"{-talents} too many: take some away"
            if talents < 0
            else "all picked"
        )
        skill_state = (
            f"{points} points left"
            if points > 0
            else f"{-points} points too many"
            if points < 0
            else "every point spent"
        )
        return (
            FieldGroup("attitude", "Attitude", (ATTITUDE, LEVEL, SECOND, LEVEL7)),
            FieldGroup(
                "weapons",
                "Weapons",
                (WEAPONS,),
                status=f"carrying {len(self.weapons_of(ch))}",
                action=RESET_WEAPONS,
            ),
            FieldGroup(
                "talents", "Talents", (TALENTS,), status=talent_state, todo=Todo("talents", talents, "talent")
            ),
            FieldGroup(
                "skills",
                "Skills",
                (SKILL,),
                status=skill_state,
                todo=Todo("skill_points", points, "skill point"),
                action=AUTO_SKILLS,
            ),
        )

    def keys(self, unit: DraftUnit, field: str) -> list[tuple[str, str]]:
        if field != SKILL.id or _character(unit) is None:
            return []
        return list(self.data.skills.items())

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
        """What a talent does: the rulebook's words, then each action it gives with its cost and words
        (never its own name again); "no effect in an encounter" when it changes nothing in a fight."""
        t = self.data.talents[tid]
        bits = [t.text] if t.text else []
        for a in t.actions:
            action = self.data.actions[a]
            bits.append(f"{action.name} ({action.cost} AP): {action.text}")
        for tr in t.traits:
            trait = self.data.traits[tr]
            if trait.name != t.name or not t.text:
                bits.append(f"{trait.name}: {trait.text}")
        if not t.combat:
            bits.append("(no effect in an encounter)")
        text = " ".join(bits)
        if "animal_friend" in t.traits:  # the ruleset's setup fields the dog for this trait
            dog = self.data.companions["dog"]
            text += f" In an encounter: a {dog.name} ({dog.resolve} resolve, {dog.action_points} AP)."
        return text

    def options(self, unit: DraftUnit, field: str, key: str) -> list[Option]:
        ch = _character(unit)
        if ch is None:
            return []
        data = self.data
        if field == ATTITUDE.id:
            return [
                Option(
                    Choice(
                        a, data.attitudes[a].name, selected=a == ch.attitude, detail=self._attitude_detail(a)
                    ),
                    "set",
                )
                for a in data.attitudes
            ]
        if field == LEVEL.id:
            return [
                Option(
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
        if field == SECOND.id:
            out = [Option(Choice("", "None", selected=not ch.second_attitude), "set")]
            for a in data.attitudes:
                c = Choice(
                    a,
                    data.attitudes[a].name,
                    selected=a == ch.second_attitude,
                    detail=self._attitude_detail(a),
                )
                out.append(Option(c, "set"))
            return out
        if field == LEVEL7.id:
            return self._level7_options(ch)
        if field == WEAPONS.id:
            return self._weapon_options(ch)
        if field == TALENTS.id:
            known = list(data.talents)
            return [
                Option(
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
        if field == SKILL.id:
            if key not in data.skills:
                return []
            rank = dict(ch.skills).get(key, 0)
            return [
                Option(
                    Choice(str(r), str(r), selected=r == rank),
                    "remove" if r < rank else "add" if r > rank else "set",
                )
                for r in range(MAX_RANK + 1)
            ]
        return []

    def _level7_options(self, ch: Character) -> list[Option]:
        data = self.data
        own = data.attitudes.get(ch.attitude)
        own_label = "Own 7th level"
        if own is not None:
            got = self._names([*own.actions[7], *own.traits[7]])
            own_label = f"{own.name} 7th level: {got}"
        out = [Option(Choice("", own_label, selected=not ch.level7), "set")]
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
                Option(Choice(t, label, selected=t == ch.level7, detail=trait.text if trait else ""), "set")
            )
        return out

    def _weapon_options(self, ch: Character) -> list[Option]:
        carried = self.weapons_of(ch)
        out = []
        for w in [*self.weapon_ids, *(x for x in carried if x not in self.weapon_ids)]:
            weapon = self.data.weapons.get(w)
            label = weapon.name if weapon is not None else w
            detail = weapon.block if weapon is not None else ""
            if w not in carried:
                out.append(Option(Choice(w, label, detail=detail), "add"))
            elif len(carried) == 1:
                reason = f"{ch.name or 'a Rifter'} keeps at least one weapon (Reset restores the defaults)"
                out.append(Option(Choice(w, label, False, reason, True, detail), "remove"))
            else:
                out.append(Option(Choice(w, label, selected=True, detail=detail), "remove"))
        return out

    def apply(self, unit: DraftUnit, field: str, key: str, value: str) -> DraftUnit:
        ch = _character(unit)
        if ch is None or not isinstance(unit, RiftUnit):
            return unit
        if field == ATTITUDE.id:
            ch = replace(ch, attitude=value)
        elif field == LEVEL.id:
            ch = replace(ch, level=int(value))
        elif field == SECOND.id:
            ch = replace(ch, second_attitude=value)
        elif field == LEVEL7.id:
            ch = replace(ch, level7=value)
        elif field == WEAPONS.id:
            carried = self.weapons_of(ch)
            weapons = tuple(w for w in carried if w != value) if value in carried else (*carried, value)
            ch = replace(ch, weapons=weapons)
        elif field == TALENTS.id:
            talents = (
                tuple(t for t in ch.talents if t != value) if value in ch.talents else (*ch.talents, value)
            )
            ch = replace(ch, talents=talents)
        elif field == SKILL.id:
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

    def complete(self, unit: DraftUnit, field: str) -> DraftUnit:
        ch = _character(unit)
        if ch is None or not isinstance(unit, RiftUnit):
            return unit
        ch = self._complete(
            ch, "fill" if field == TALENTS.id else "exact", "fill" if field == SKILL.id else "exact"
        )
        return replace(unit, character=ch)

    def act(self, unit: DraftUnit, action: str) -> DraftUnit | str:
        ch = _character(unit)
        if action == AUTO_SKILLS.id:
            if ch is None or not isinstance(unit, RiftUnit):
                return "only a Rifter has skills"
            done = self._complete(ch, "fill", "exact")
            return replace(unit, character=replace(ch, skills=done.skills))
        if action == RESET_WEAPONS.id:
            if ch is None or not isinstance(unit, RiftUnit):
                return "only a Rifter chooses its weapons"
            return replace(unit, character=replace(ch, weapons=()))
        return super().act(unit, action)

    def rename(self, unit: DraftUnit, name: str) -> DraftUnit:
        ch = _character(unit)
        if ch is not None and isinstance(unit, RiftUnit):
            return replace(unit, name=name, character=replace(ch, name=name))
        return replace(unit, name=name)

    def loadout(self, unit: DraftUnit) -> tuple[str, ...]:
        ch = _character(unit)
        return self.weapons_of(ch) if ch is not None else ()

    def fielded(self, unit: DraftUnit) -> list[str]:
        """Itself, and a Rifter's dog when it has Animal Friend (the ruleset's setup fields one for that
        trait)."""
        names = super().fielded(unit)
        ch = _character(unit)
        if ch is not None:
            kit = draft_kit(ch, self.data)
            if kit is not None and "animal_friend" in kit.traits:
                names.append(f"{unit.name}'s {self.data.companions['dog'].name}")
        return names

    def art(self, unit: DraftUnit) -> tuple[str, ...]:
        ch = _character(unit)
        if ch is None:
            return ()
        return (ch.attitude, ch.second_attitude) if ch.second_attitude else (ch.attitude,)

    def _picked(self, unit: DraftUnit, field: str) -> list[Choice]:
        return [o.choice for o in self.options(unit, field, "") if o.choice.selected]

    def summary(self, unit: DraftUnit) -> str:
        ch = _character(unit)
        if ch is None:
            return super().summary(unit)
        attitude = next((c.label for c in self._picked(unit, ATTITUDE.id)), ch.attitude)
        if same_name(unit.name, attitude):
            return f"{unit.name} \u00b7 level {ch.level}"
        return f"{unit.name} \u00b7 {attitude} {ch.level}"

    def sheet(self, unit: DraftUnit, faction: str) -> Sheet:
        ch = _character(unit)
        if ch is None:
            return super().sheet(unit, faction)
        sections = [
            SheetSection(c.label, (c.detail,))
            for c in [*self._picked(unit, ATTITUDE.id), *(c for c in self._picked(unit, SECOND.id) if c.id)]
        ]
        level7 = [c.label for c in self._picked(unit, LEVEL7.id)]
        if ch.level >= 7 and level7:
            sections.append(SheetSection("Level 7", (level7[0],)))
        weapons = tuple((c.label, c.detail) for c in self._picked(unit, WEAPONS.id))
        sections.append(SheetSection("Weapons", items=weapons))
        talents = ", ".join(c.label for c in self._picked(unit, TALENTS.id))
        sections.append(SheetSection("Talents", (talents,) if talents else (), empty="none"))
        ranks = dict(ch.skills)
        skills = ", ".join(f"{name} {ranks[s]}" for s, name in self.data.skills.items() if ranks.get(s))
        sections.append(SheetSection("Skills", (skills,) if skills else (), empty="none"))
        fielded = self.fielded(unit)
        if len(fielded) > 1:
            sections.append(SheetSection("Takes the field with", (", ".join(fielded[1:]),)))
        attitudes = [c.label for f in (ATTITUDE.id, SECOND.id) for c in self._picked(unit, f) if c.id]
        subtitle = f"{self.kind_label(unit.kind)}: {' & '.join(attitudes)}, level {ch.level}"
        return Sheet(subtitle, tuple(sections))

    def card(self, unit: DraftUnit, faction: str) -> Sheet:
        data = self.data
        ch = _character(unit)
        kit = draft_kit(ch, data) if ch is not None else None
        enemy = data.enemies.get(unit.kind)
        if ch is not None and kit is not None:
            resolve, ap, arms, actions, traits = (
                kit.resolve,
                data.action_points,
                kit.weapons,
                kit.actions,
                kit.traits,
            )
            level: tuple[tuple[str, str], ...] = (("Level", str(ch.level)),)
        elif enemy is not None:
            resolve, ap, arms = enemy.resolve, enemy.action_points, enemy.weapons
            actions, traits, level = enemy.actions, enemy.traits, ()
        else:
            return super().card(unit, faction)
        stats = (("Resolve", str(resolve)), ("Action points", str(ap)), ("Move", f"{data.move_tiles} tiles"))
        sections = [SheetSection("Profile", items=(*stats, *level), table=True)]
        weapons = []
        for wid in arms:
            w = data.weapons[wid]
            blast = f", blast radius {w.radius}t" if w.radius is not None else ""
            weapons.append((w.name, f"{w.count}d{w.sides}, hits on {w.threshold}+, range {w.range}t{blast}"))
        sections.append(SheetSection("Weapons", items=tuple(weapons), empty="none"))
        shown = [a for a in actions if a in data.actions]
        acts = tuple(
            (f"{data.actions[a].name} [{data.actions[a].cost}AP]", data.actions[a].text) for a in shown
        )
        if acts:
            sections.append(SheetSection("Actions", items=acts))
        if traits:
            sections.append(
                SheetSection(
                    "Traits", items=tuple((data.traits[t].name, data.traits[t].text) for t in traits)
                )
            )
        if ch is not None:
            talents = tuple(
                (data.talents[t].name, data.talents[t].text) for t in ch.talents if t in data.talents
            )
            if talents:
                sections.append(SheetSection("Talents", items=talents))
            ranks = dict(ch.skills)
            skills = ", ".join(f"{name} {ranks[k]}" for k, name in data.skills.items() if ranks.get(k))
            if skills:
                sections.append(SheetSection("Skills", (skills,)))
            fielded = self.fielded(unit)
            if len(fielded) > 1:
                sections.append(SheetSection("Takes the field with", (", ".join(fielded[1:]),)))
        elif enemy is not None and enemy.text:
            sections.append(SheetSection("Notes", (enemy.text,)))
        return Sheet(self.sheet(unit, faction).subtitle, tuple(sections))

    # -- specs and files ---------------------------------------------------------------------------------
    def unit_spec(self, unit: DraftUnit) -> UnitSpec:
        ch = _character(unit)
        return unit_spec(ch) if ch is not None else UnitSpec(unit.kind, unit.name)

    def unit_from_spec(self, spec: UnitSpec) -> DraftUnit:
        if spec.kind == RIFTER:
            try:
                ch = character_from_spec(spec)
            except CharacterError as error:
                raise DraftError(str(error)) from None
            if spec.name and spec.name != ch.name:
                ch = replace(ch, name=spec.name)
            return RiftUnit(RIFTER, ch.name, character=ch)
        if spec.loadout or spec.options:
            raise DraftError(f"{spec.name or spec.kind}: only a Rifter chooses weapons and options")
        return RiftUnit(spec.kind, spec.name)

    def unit_to_json(self, unit: DraftUnit) -> dict[str, Any]:
        ch = _character(unit)
        if ch is not None:
            return {"kind": unit.kind, "character": character_to_dict(ch)}
        return {"kind": unit.kind, "name": unit.name}

    def unit_from_json(self, raw: Any, where: str) -> DraftUnit:
        if isinstance(raw, dict) and raw.get("kind") == RIFTER:
            t = check_keys(raw, where, {"kind", "character"}, set(), loose={"character"})
            try:
                ch = character_from_dict(t["character"], f"{where}, character")
            except CharacterError as error:
                raise DraftError(str(error)) from None
            return RiftUnit(RIFTER, ch.name, character=ch)
        t = check_keys(raw, where, {"kind"}, {"name"})
        return RiftUnit(t["kind"], t.get("name", ""))


@functools.cache
def rift_builder(ruleset: RiftRuleset) -> RiftBuilder:
    """The builder of ``ruleset``, made once (it asks the rules which weapons a Rifter may carry)."""
    return RiftBuilder(ruleset)


def default_posses(builder: RiftBuilder) -> list[tuple[str, PosseSpec]]:
    """The rifters: one Rifter of each attitude, named after it (level 1, default weapons, skills
    allocated); the outlaws: every enemy kind once and two more of the first."""
    out = []
    for faction in builder.factions(""):
        units: list[DraftUnit] = []
        if faction.id == "rifters":
            for attitude in builder.data.attitudes.values():
                unit = builder.new_unit(RIFTER, [u.name for u in units])
                unit = builder.rename(builder.apply(unit, ATTITUDE.id, "", attitude.id), attitude.name)
                done = builder.act(unit, AUTO_SKILLS.id)
                units.append(done if isinstance(done, DraftUnit) else unit)
        else:
            enemies = list(builder.data.enemies)
            for kind in [*enemies, *enemies[:1] * 2]:
                units = builder.try_add(faction.id, units, kind) or units
        name = DEFAULT_NAMES.get(faction.id, f"{faction.label} Posse")
        out.append((name, builder.posse_spec(faction.id, units, name)))
    return out
