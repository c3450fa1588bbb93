"""Frontier as the posse builder sees it (:class:`~game.engine.builder.PosseBuilder`): a unit is a kind of
its faction with one weapon option; the factions' limits and every refusal are ``validate_posse``'s.

Default posses ("Sheriff's Posse", "Blackwater Gang"): every unit kind of the faction once, then more of
the first that may be repeated, up to the faction's limit (first weapon option each), added as the
draft's own Add would.
"""

from __future__ import annotations

import functools
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
    check_keys,
    unique_name,
)
from game.engine.protocol import PosseSpec, UnitSpec
from game.rules.frontier.data import FrontierData
from game.rules.frontier.ruleset import FrontierRuleset, normalize_id

__all__ = ["DEFAULT_NAMES", "FrontierBuilder", "FrontierUnit", "default_posses", "frontier_builder"]

# Flavour names of the default posses, by faction id; a faction not named here gets "<faction> Posse".
DEFAULT_NAMES: Final = {"the_law": "Sheriff's Posse", "the_outlaws": "Blackwater Gang"}

WEAPON: Final = Field("weapon", "Weapon", "list")


@dataclass(frozen=True, slots=True)
class FrontierUnit(DraftUnit):
    """A Frontier unit of the draft: its kind, name and weapon option (a weapon id)."""

    weapon: str = ""


class FrontierBuilder(BaseBuilder):
    """Options from ``frontier.toml``: the factions, their unit kinds and each unit's weapon option."""

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

    def kind_label(self, kind: str) -> str:
        unit = self.data.units.get(kind)
        return unit.name if unit is not None else kind

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

    @staticmethod
    def _weapon(unit: DraftUnit) -> str:
        return unit.weapon if isinstance(unit, FrontierUnit) else ""

    def new_unit(self, kind: str, taken: Sequence[str]) -> DraftUnit:
        u = self.data.units[kind]
        return FrontierUnit(kind, unique_name(u.name, taken), weapon=u.weapons[0])

    def groups(self, unit: DraftUnit) -> tuple[FieldGroup, ...]:
        if unit.kind not in self.data.units:
            return ()
        return (FieldGroup("weapon", WEAPON.label, (WEAPON,)),)

    def options(self, unit: DraftUnit, field: str, key: str) -> list[Option]:
        if field != WEAPON.id or unit.kind not in self.data.units:
            return []
        weapon = self._weapon(unit)
        ids = [*self.weapon_ids, *([weapon] if weapon not in self.weapon_ids else [])]
        return [
            Option(
                Choice(
                    w,
                    self.data.weapons[w].name if w in self.data.weapons else w,
                    selected=w == weapon,
                    detail=self._weapon_detail(w) if w in self.data.weapons else "",
                ),
                "set",
            )
            for w in ids
            if w
        ]

    def apply(self, unit: DraftUnit, field: str, key: str, value: str) -> DraftUnit:
        if field != WEAPON.id:
            return unit
        return (
            replace(unit, weapon=value)
            if isinstance(unit, FrontierUnit)
            else FrontierUnit(unit.kind, unit.name, value)
        )

    def loadout(self, unit: DraftUnit) -> tuple[str, ...]:
        weapon = self._weapon(unit)
        return (weapon,) if weapon else ()

    def _weapon_choice(self, unit: DraftUnit) -> Choice | None:
        return next((o.choice for o in self.options(unit, WEAPON.id, "") if o.choice.selected), None)

    def summary(self, unit: DraftUnit) -> str:
        weapon = self._weapon(unit)
        if not weapon:
            return super().summary(unit)
        picked = self._weapon_choice(unit)
        return f"{unit.name} \u00b7 {picked.label if picked is not None else weapon}"

    def sheet(self, unit: DraftUnit, faction: str) -> Sheet:
        sheet = super().sheet(unit, faction)
        picked = self._weapon_choice(unit)
        if picked is None:
            return sheet
        weapon = SheetSection("Weapon", (f"{picked.label}: {picked.detail}",))
        return replace(sheet, sections=(weapon, *sheet.sections))

    def card(self, unit: DraftUnit, faction: str) -> Sheet:
        u = self.data.units.get(unit.kind)
        if u is None:
            return super().card(unit, faction)
        stats = [("Move", f'{u.move}"'), ("Ballistics", f"{u.ballistics}+" if u.ballistics else "N/A")]
        stats += [("Melee", f"{u.melee}+"), ("Toughness", str(u.toughness)), ("Wounds", str(u.wounds))]
        stats += [("Leadership", str(u.leadership) if u.leadership is not None else "N/A")]
        stats += [("Cool", f"{u.cool}+")]
        sections = [SheetSection("Profile", items=tuple(stats), table=True)]
        picked = self._weapon_choice(unit)
        if picked is not None:
            others = [self.data.weapons[w].name for w in u.weapons if w != picked.id]
            also = (f"Available instead: {' or '.join(others)}",) if others else ()
            sections.append(SheetSection("Weapon", also, items=((picked.label, picked.detail),)))
        abilities = []
        for aid in u.abilities:
            a = self.data.abilities[aid]
            when = "Passive" if a.passive else f"Recharge {a.recharge}" if a.recharge else ""
            abilities.append((f"{a.name}" + (f" ({when})" if when else ""), a.text))
        if abilities:
            sections.append(SheetSection("Abilities", items=tuple(abilities)))
        subtitle = self.sheet(unit, faction).subtitle + (" · Leader" if u.leader else "")
        return Sheet(subtitle, tuple(sections))

    def unit_spec(self, unit: DraftUnit) -> UnitSpec:
        weapon = self._weapon(unit)
        return UnitSpec(unit.kind, unit.name, (weapon,) if weapon else ())

    def unit_from_spec(self, spec: UnitSpec) -> DraftUnit:
        if len(spec.loadout) > 1:
            raise DraftError(f"{spec.name or spec.kind} carries {len(spec.loadout)} weapons; one is chosen")
        if spec.options:
            raise DraftError(f"{spec.name or spec.kind}: a Frontier unit has no options")
        kind = normalize_id(spec.kind) if normalize_id(spec.kind) in self.data.units else spec.kind
        weapon = normalize_id(spec.loadout[0]) if spec.loadout else ""
        if not weapon and kind in self.data.units:
            weapon = self.data.units[kind].weapons[0]
        return FrontierUnit(kind, spec.name, weapon)

    def unit_to_json(self, unit: DraftUnit) -> dict[str, Any]:
        return {"kind": unit.kind, "name": unit.name, "weapon": self._weapon(unit)}

    def unit_from_json(self, raw: Any, where: str) -> DraftUnit:
        t = check_keys(raw, where, {"kind"}, {"name", "weapon"})
        return self.unit_from_spec(
            UnitSpec(t["kind"], t.get("name", ""), (t["weapon"],) if t.get("weapon") else ())
        )


@functools.cache
def frontier_builder(ruleset: FrontierRuleset) -> FrontierBuilder:
    """The builder of ``ruleset``, made once."""
    return FrontierBuilder(ruleset)


def default_posses(builder: FrontierBuilder) -> list[tuple[str, PosseSpec]]:
    """One posse per faction: every unit kind of the faction once, then more of the first that may be
    repeated, up to the faction's limit; each unit with its first weapon option."""
    out = []
    for faction in builder.data.factions.values():
        kinds = faction.units
        units: list[DraftUnit] = []
        for kind in kinds:
            units = builder.try_add(faction.id, units, kind) or units
        repeat = next((k for k in kinds if builder.try_add(faction.id, units, k) is not None), None)
        while repeat is not None and (more := builder.try_add(faction.id, units, repeat)) is not None:
            units = more
        order = {k: i for i, k in enumerate(kinds)}
        units.sort(key=lambda u: order.get(u.kind, len(order)))
        name = DEFAULT_NAMES.get(faction.id, f"{faction.name} Posse")
        out.append((name, builder.posse_spec(faction.id, units, name)))
    return out
