"""Frontier attack odds and damage, as pure functions: the match's preview, the attack itself and
`hexslinger odds frontier` all use these, so what a player is shown is what the dice do.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from game.battlefield import Cover
from game.dice import Distribution
from game.rules import AttackPreview
from game.rules.frontier.data import WeaponData

__all__ = [
    "COVER_MODIFIERS",
    "PRONE_MELEE",
    "PRONE_RANGED",
    "AttackSituation",
    "DamageResult",
    "attack_preview",
    "check_chance",
    "damage_after_cover",
    "hit_modifiers",
    "split_damage",
]

# docs/RULES.md "Cover": half cover -1, total cover -2 to ranged hit rolls.
COVER_MODIFIERS = {Cover.NONE: 0, Cover.HALF: -1, Cover.FULL: -2}
# docs/RULES.md "Prone": harder to shoot from range, easier to hit in close combat.
PRONE_RANGED = -1
PRONE_MELEE = 1
AIM_BONUS = 1  # "Aim - ... +1 to the result of any Hit rolls they make."


@dataclass(frozen=True, slots=True)
class AttackSituation:
    """Everything an attack's odds depend on."""

    weapon: WeaponData
    skill: int  # the attacker's Ballistics (ranged) or Melee (melee) target number
    distance: int
    cover: Cover = Cover.NONE  # the map's cover of the target against this attacker
    aimed: bool = False
    target_prone: bool = False
    target_taking_cover: bool = False
    target_toughness: int = 0  # what is left of the target's damage track
    target_wounds: int = 1
    target_temporary: int = 0


@dataclass(frozen=True, slots=True)
class DamageResult:
    """How damage splits over a damage track: Dastardly's wound first, then Toughness, then Wounds."""

    temporary: int
    toughness: int
    wounds: int


def check_chance(skill: int, modifier: int) -> Fraction:
    """ "roll 1d6 and add any modifiers ... If the number is equal to or greater than the number in the
    skill then the check succeeds." (no automatic hits or misses: docs/RULES.md "Checks")."""
    faces = sum(1 for face in range(1, 7) if face + modifier >= skill)
    return Fraction(faces, 6)


def hit_modifiers(s: AttackSituation) -> tuple[tuple[str, int], ...]:
    """Each named modifier to the hit roll (zero ones left out)."""
    mods: list[tuple[str, int]] = []
    w = s.weapon
    if w.is_ranged:
        if s.distance <= w.short_range:
            if w.short_accuracy:
                mods.append((f"{w.name} short range accuracy", w.short_accuracy))
        elif w.long_accuracy:
            mods.append((f"{w.name} long range accuracy", w.long_accuracy))
        if s.aimed:
            mods.append(("Aim", AIM_BONUS))
        if s.target_taking_cover:
            mods.append(("Target taking cover (total cover)", COVER_MODIFIERS[Cover.FULL]))
        elif s.cover != Cover.NONE:
            name = "Half cover" if s.cover == Cover.HALF else "Total cover"
            mods.append((name, COVER_MODIFIERS[s.cover]))
        if s.target_prone and s.distance > 1:
            mods.append(("Target prone", PRONE_RANGED))
    elif s.target_prone:
        mods.append(("Target prone", PRONE_MELEE))
    return tuple(mods)


def damage_after_cover(damage: int, taking_cover: bool) -> int:
    """Take Cover: "take half of any damage they would normally receive" -- rounded up (docs/RULES.md)."""
    return (damage + 1) // 2 if taking_cover else damage


def split_damage(amount: int, toughness: int, wounds: int, temporary: int) -> DamageResult:
    """Where ``amount`` damage goes; the result is what is *left* of each part."""
    from_temp = min(temporary, amount)
    amount -= from_temp
    from_tough = min(toughness, amount)
    amount -= from_tough
    return DamageResult(temporary - from_temp, toughness - from_tough, max(0, wounds - amount))


@lru_cache(maxsize=4096)
def attack_preview(s: AttackSituation) -> AttackPreview:
    """Exact odds: hit chance with every named modifier, and the damage dealt (misses are 0). A pure
    function of the situation (the preview is immutable), kept for the situations asked again: an AI
    weighs the same odds from many hexes."""
    mods = hit_modifiers(s)
    total = sum(v for _, v in mods)
    hit = check_chance(s.skill, total)
    damage = damage_after_cover(s.weapon.damage, s.target_taking_cover)
    dist = Distribution.from_weights({0: 1 - hit, damage: hit}) if 0 < hit < 1 else None
    if dist is None:
        dist = Distribution.constant(damage if hit == 1 else 0)
    after = split_damage(damage, s.target_toughness, s.target_wounds, s.target_temporary)
    notes = [f"Skill {s.skill}+ on 1d6"]
    if after.wounds == 0:
        notes.append(f"a hit Seriously Injures the target: {_pct(hit)}")
    elif after.wounds < s.target_wounds:
        notes.append(f"a hit Wounds the target: {_pct(hit)}")
    else:
        notes.append("a hit only wears down Toughness (or Dastardly's wound)")
    if hit == 0:
        notes.append("this attack cannot hit")
    return AttackPreview(
        hit_chance=hit,
        damage=dist,
        modifiers=mods,
        target_number=s.skill,
        notes=tuple(notes),
        effective_number=s.skill - total,
    )


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"
