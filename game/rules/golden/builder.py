"""Golden Frontiers as the posse builder sees it (:class:`~game.engine.builder.PosseBuilder`).

A character is built as the book says: "Each character starts with a 1d4 ... in each trait. Players have
four points to place into their Traits." (a "ranks" field, one row per trait, d4 to d12) and buys its
equipment with "money equivalent to the maximum number on their slickness die + any modifiers" (a
checklist of the Equipment table with the costs). NPC templates (own content) come as they are. Whether an
option is allowed is always ``validate_posse``'s answer.

Default posses (own): "Marshal's Posse" (Lawmen) and "Black Hat Gang" (Outlaws), two characters and two
NPCs each, built with the builder's own edits.
"""

from __future__ import annotations

from collections.abc import Sequence
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
    check_keys,
    unique_name,
)
from game.rules import PosseSpec, UnitSpec
from game.rules.golden.data import TRAITS, GoldenData
from game.rules.golden.rules import die_label
from game.rules.golden.ruleset import CHARACTER, GoldenRuleset, money, trait_points

__all__ = ["GoldenBuilder", "GoldenUnit", "default_posses", "golden_builder"]

TRAIT_FIELD: Final = Field("traits", "Traits", "ranks")
EQUIPMENT: Final = Field("equipment", "Equipment", "checklist")
DEFAULT_TRAITS: Final = (("survival", 6), ("intuition", 4), ("reflexes", 8), ("slickness", 6))
DEFAULT_ITEMS: Final = ("revolver", "knife", "hat")


@dataclass(frozen=True, slots=True)
class GoldenUnit(DraftUnit):
    """A character of the draft: its four trait dice (trait -> sides) and the items it bought."""

    traits: tuple[tuple[str, int], ...] = DEFAULT_TRAITS
    items: tuple[str, ...] = DEFAULT_ITEMS

    def trait(self, name: str) -> int:
        return dict(self.traits).get(name, 4)


class GoldenBuilder(BaseBuilder):
    """Golden Frontiers' posse builder (see the module docstring)."""

    def __init__(self, ruleset: GoldenRuleset) -> None:
        super().__init__(ruleset)
        self.rules = ruleset
        self.data: GoldenData = ruleset.data

    def factions(self, current: str) -> list[Choice]:
        out = []
        for fid, f in self.data.factions.items():
            npcs = ", ".join(self.data.npcs[n].name for n in f.npcs)
            detail = f"Characters and NPCs ({npcs}); up to {self.data.encounter.max_units} units"
            out.append(Choice(fid, f.name, selected=fid == current, detail=detail))
        return out

    def faction_id(self, faction: str) -> str:
        return self.rules.faction_id(faction) or faction

    def kinds(self) -> list[Choice]:
        points = self.data.traits.points
        out = [
            Choice(CHARACTER, "Character", detail=f"four trait dice from {points} points; equipment by money")
        ]
        for nid, npc in self.data.npcs.items():
            traits = ", ".join(f"{t.capitalize()} {die_label(self.data, getattr(npc, t))}" for t in TRAITS)
            arms = ", ".join(self.data.weapons[w].name for w in npc.weapons)
            out.append(Choice(nid, npc.name, detail=f"NPC: {traits}; {arms}"))
        return out

    def new_unit(self, kind: str, taken: Sequence[str]) -> DraftUnit:
        if kind == CHARACTER:
            return GoldenUnit(kind, unique_name("Character", taken))
        return DraftUnit(kind, unique_name(self.kind_label(kind), taken))

    # -- a character's fields --------------------------------------------------------------------------
    def points_left(self, unit: GoldenUnit) -> int:
        return self.data.traits.points - trait_points(self.data, dict(unit.traits))

    def money_of(self, unit: GoldenUnit) -> tuple[int, int]:
        """(money, spent)."""
        purse = money(self.data, unit.trait("slickness"))
        spent = sum(self.data.cost(i) for i in unit.items if i in self.data.weapons or i in self.data.gear)
        return purse, spent

    def groups(self, unit: DraftUnit) -> tuple[FieldGroup, ...]:
        if not isinstance(unit, GoldenUnit):
            return ()
        left = self.points_left(unit)
        state = (
            f"{left} points left" if left > 0 else f"{-left} points too many" if left < 0 else "all placed"
        )
        purse, spent = self.money_of(unit)
        return (
            FieldGroup(
                "traits",
                "Traits",
                (TRAIT_FIELD,),
                status=state,
                todo=Todo("trait_points", left, "trait point"),
            ),
            FieldGroup("equipment", "Equipment", (EQUIPMENT,), status=f"money {purse}, {purse - spent} left"),
        )

    def keys(self, unit: DraftUnit, field: str) -> list[tuple[str, str]]:
        if field != TRAIT_FIELD.id or not isinstance(unit, GoldenUnit):
            return []
        return [(t, f"{t.capitalize()} die (d)") for t in TRAITS]

    def options(self, unit: DraftUnit, field: str, key: str) -> list[Option]:
        if not isinstance(unit, GoldenUnit):
            return []
        data = self.data
        if field == TRAIT_FIELD.id:
            if key not in TRAITS:
                return []
            now = unit.trait(key)
            return [
                Option(
                    Choice(
                        str(die),
                        str(die),  # the die's sides (the row says "die"): "d10" would not fit the ranks
                        selected=die == now,
                        detail=f"modifier +{data.traits.modifier(die)}, Max Wounds {data.traits.wounds(die)}",
                    ),
                    "remove" if die < now else "add" if die > now else "set",
                )
                for die in data.traits.dice
            ]
        if field == EQUIPMENT.id:
            out = []
            for iid, w in data.weapons.items():
                bands = " / ".join(f"{b.label} to {b.reach}" for b in w.bands)
                ammo = (
                    f", {w.ammo} shots" if w.is_ranged else f", + {w.trait.capitalize()}" if w.trait else ""
                )
                detail = f"cost {w.cost}: {bands} hexes{ammo}"
                out.append(
                    Option(
                        Choice(iid, w.name, selected=iid in unit.items, detail=detail),
                        "remove" if iid in unit.items else "add",
                    )
                )
            for iid, g in data.gear.items():
                out.append(
                    Option(
                        Choice(iid, g.name, selected=iid in unit.items, detail=f"cost {g.cost}"),
                        "remove" if iid in unit.items else "add",
                    )
                )
            return out
        return []

    def apply(self, unit: DraftUnit, field: str, key: str, value: str) -> DraftUnit:
        if not isinstance(unit, GoldenUnit):
            return unit
        if field == TRAIT_FIELD.id and key in TRAITS and value.isdigit():
            traits = dict(unit.traits)
            traits[key] = int(value)
            return replace(unit, traits=tuple((t, traits.get(t, 4)) for t in TRAITS))
        if field == EQUIPMENT.id:
            if value in unit.items:
                return replace(unit, items=tuple(i for i in unit.items if i != value))
            return replace(unit, items=(*unit.items, value))
        return unit

    def complete(self, unit: DraftUnit, field: str) -> DraftUnit:
        """Trait points still to place are placed (Survival first, Slickness last) for judging an option."""
        if not isinstance(unit, GoldenUnit):
            return unit
        left = self.points_left(unit)
        dice = self.data.traits.dice
        traits = dict(unit.traits)
        for t in TRAITS:
            while left > 0 and traits[t] != dice[-1]:
                traits[t] = dice[dice.index(traits[t]) + 1]
                left -= 1
        return replace(unit, traits=tuple((t, traits[t]) for t in TRAITS))

    def loadout(self, unit: DraftUnit) -> tuple[str, ...]:
        if isinstance(unit, GoldenUnit):
            return tuple(i for i in unit.items if i in self.data.weapons)
        npc = self.data.npcs.get(unit.kind)
        return npc.weapons if npc is not None else ()

    def summary(self, unit: DraftUnit) -> str:
        if not isinstance(unit, GoldenUnit):
            return super().summary(unit)
        dice = " ".join(f"{t[0].upper()}{unit.trait(t)}" for t in TRAITS)
        arms = ", ".join(self.data.weapons[i].name for i in unit.items if i in self.data.weapons)
        return f"{unit.name} \u00b7 {dice} \u00b7 {arms or 'unarmed'}"

    def sheet(self, unit: DraftUnit, faction: str) -> Sheet:
        sheet = super().sheet(unit, faction)
        data = self.data
        if not isinstance(unit, GoldenUnit):
            return sheet
        purse, spent = self.money_of(unit)
        traits = tuple(f"{t.capitalize()} {die_label(data, unit.trait(t))}" for t in TRAITS)
        lines = (f"Max Wounds {data.traits.wounds(unit.trait('survival'))}", f"Money {purse}, spent {spent}")
        items = tuple(
            (data.printed(i), f"cost {data.cost(i)}")
            for i in unit.items
            if i in data.weapons or i in data.gear
        )
        return replace(
            sheet,
            sections=(
                SheetSection("Traits", traits),
                SheetSection("Health and money", lines),
                SheetSection("Equipment", items=items, empty="nothing bought"),
            ),
        )

    def card(self, unit: DraftUnit, faction: str) -> Sheet:
        data = self.data
        npc = data.npcs.get(unit.kind)
        if isinstance(unit, GoldenUnit):
            dice = {t: unit.trait(t) for t in TRAITS}
            arms: Sequence[str] = [i for i in unit.items if i in data.weapons]
            gear = [data.gear[i].name for i in unit.items if i in data.gear]
        elif npc is not None:
            dice, arms, gear = npc.traits(), npc.weapons, []
        else:
            return super().card(unit, faction)
        traits = tuple((t.capitalize(), die_label(data, d)) for t, d in dice.items())
        wounds = ("Max Wounds", str(data.traits.wounds(dice["survival"])))
        sections = [SheetSection("Traits", items=(*traits, wounds), table=True)]
        weapons = []
        for wid in arms:
            w = data.weapons[wid]
            bands = ", ".join(f'{die} to {reach}"' for die, reach in zip(w.dice, w.ranges, strict=True))
            ammo = f", ammo {w.ammo}" if w.ammo else ""
            load = " (loading takes the action)" if w.load_action and w.ammo else ""
            weapons.append((w.name, f"{w.kind.capitalize()}: {bands}{ammo}{load}"))
        sections.append(SheetSection("Weapons", items=tuple(weapons), empty="unarmed"))
        if gear:
            sections.append(SheetSection("Gear", (", ".join(gear),)))
        return Sheet(self.sheet(unit, faction).subtitle, tuple(sections))

    # -- specs and files -------------------------------------------------------------------------------
    def unit_spec(self, unit: DraftUnit) -> UnitSpec:
        if isinstance(unit, GoldenUnit):
            return UnitSpec(CHARACTER, unit.name, unit.items, tuple((t, str(unit.trait(t))) for t in TRAITS))
        return UnitSpec(unit.kind, unit.name)

    def unit_from_spec(self, spec: UnitSpec) -> DraftUnit:
        if spec.kind != CHARACTER:
            return super().unit_from_spec(spec)
        options = dict(spec.options)
        if set(options) != set(TRAITS) or not all(v.isdigit() for v in options.values()):
            raise DraftError(
                f"{spec.name or 'a character'}: a character has its four trait dice ({', '.join(TRAITS)})"
            )
        return GoldenUnit(
            CHARACTER, spec.name, tuple((t, int(options[t])) for t in TRAITS), tuple(spec.loadout)
        )

    def unit_to_json(self, unit: DraftUnit) -> dict[str, Any]:
        if not isinstance(unit, GoldenUnit):
            return super().unit_to_json(unit)
        out: dict[str, Any] = {"kind": unit.kind, "name": unit.name}
        out.update({t: f"d{unit.trait(t)}" for t in TRAITS})
        out["items"] = list(unit.items)
        return out

    def unit_from_json(self, raw: Any, where: str) -> DraftUnit:
        if not isinstance(raw, dict) or raw.get("kind") != CHARACTER:
            return super().unit_from_json(raw, where)
        t = check_keys(raw, where, {"kind", *TRAITS, "items"}, {"name"}, loose=("items",))
        traits = []
        for trait in TRAITS:
            text = t[trait]
            if not (text.startswith("d") and text[1:].isdigit()):
                raise DraftError(f"{where}: '{trait}' must be a die like 'd8', not {text!r}")
            traits.append((trait, int(text[1:])))
        items = t["items"]
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            raise DraftError(f"{where}: 'items' must be a list of item ids")
        return GoldenUnit(CHARACTER, t.get("name", ""), tuple(traits), tuple(items))


def golden_builder(ruleset: GoldenRuleset) -> GoldenBuilder:
    return GoldenBuilder(ruleset)


def _character(name: str, traits: tuple[int, int, int, int], items: tuple[str, ...]) -> GoldenUnit:
    return GoldenUnit(CHARACTER, name, tuple(zip(TRAITS, traits, strict=True)), items)


# own content: (posse name, faction, units) — characters as (name, S, I, R, Sl, items), NPCs by template.
# Doc Ellery's fourth point is in Reflexes (d6), not Survival (d8: the same Max Wounds 3): docs/RULES.md G26
DEFAULTS: Final = (
    (
        "Marshal's Posse",
        "lawmen",
        (
            ("Marshal Haines", (6, 4, 8, 6), ("revolver", "knife", "hat")),
            ("Doc Ellery", (6, 4, 6, 8), ("shotgun", "revolver", "canteen")),
            "gunhand",
            "marksman",
        ),
    ),
    (
        "Black Hat Gang",
        "outlaws",
        (
            ("Black Jack Riley", (6, 4, 8, 6), ("revolver", "knife", "boots")),
            ("Sally Two-Guns", (6, 4, 6, 8), ("revolver", "rifle", "hat")),
            "gunhand",
            "bruiser",
        ),
    ),
)


def default_posses(builder: GoldenBuilder) -> list[tuple[str, PosseSpec]]:
    """The two default posses, each unit added as the builder's own Add does (a unit the rules refuse is
    left out)."""
    out = []
    for name, faction, members in DEFAULTS:
        units: list[DraftUnit] = []
        for m in members:
            if isinstance(m, str):
                units = builder.try_add(faction, units, m) or units
            else:
                unit = _character(*m)
                after = [*units, unit]
                if not builder.validate(builder.posse_spec(faction, after)):
                    units = after
        out.append((name, builder.posse_spec(faction, units, name)))
    return out
