"""Campaign aftermath between Golden Frontiers encounters ("Recovering From Wounds").

A :class:`Roster` is a posse's stable of characters and NPCs with the wounds each carries. After an
encounter :meth:`Roster.record` takes over the damage: "Grazes do not require medical attention and are
removed at the end of combat."; wounds and crippling wounds stay; an executed unit leaves the roster.
Then: :meth:`Roster.rest` ("Wounds may be removed at the rate of one wound per day"), :meth:`Roster.treat`
(a character's Survival check: "the base target number for healing a wound is six and an additional wound
is removed for every two numbers a skill check is above that base") and :meth:`Roster.doctor` ("If a NPC,
such as a town doctor, is giving the medical help then it should be assumed that the doctor knows how to
patch people up and all wounds are removed."). "Crippling Wounds may only be removed through medical
attention." A crippled unit cannot be fielded; a wounded one fights with its wounds (the ``wounds``
option of its :class:`UnitSpec`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import esper

from game.components import Identity
from game.rules import PosseSpec, UnitSpec
from game.rules.golden.components import Health

if TYPE_CHECKING:
    from game.engine.match import Match

__all__ = ["HEAL_TARGET", "Condition", "Roster", "RosterError", "wounds_healed"]

HEAL_TARGET = 6  # "the base target number for healing a wound is six"


class RosterError(ValueError):
    """A roster cannot do what was asked; the message says why."""


def wounds_healed(check: int) -> int:
    """Wounds a Survival check of ``check`` removes: one at six, one more for every two above it ("So if a
    character rolled an eight on their skill check, they would remove two wounds from somebody.")."""
    if check < HEAL_TARGET:
        return 0
    return 1 + (check - HEAL_TARGET) // 2


@dataclass(slots=True)
class Condition:
    """What a unit carries from one fight to the next."""

    wounds: int = 0
    crippled: bool = False


@dataclass(slots=True)
class Roster:
    faction: str
    name: str
    units: list[UnitSpec]
    condition: dict[str, Condition] = field(default_factory=dict)

    def __post_init__(self) -> None:
        names = [u.name for u in self.units]
        if any(not n for n in names) or len(set(names)) != len(names):
            raise RosterError("every unit of a roster needs its own name (e.g. 'Gunhand 2')")
        for n in names:
            self.condition.setdefault(n, Condition())

    def _unit(self, name: str) -> UnitSpec:
        for u in self.units:
            if u.name == name:
                return u
        raise RosterError(f"{name} is not on {self.name}'s roster")

    def fieldable(self) -> list[UnitSpec]:
        """The units that may fight now, each with the wounds it carries (a crippled unit may not)."""
        out = []
        for u in self.units:
            c = self.condition[u.name]
            if c.crippled:
                continue
            options = tuple((k, v) for k, v in u.options if k != "wounds")
            if c.wounds:
                options = (*options, ("wounds", str(c.wounds)))
            out.append(replace(u, options=options))
        return out

    def posse(self, side: str, controller: str = "human") -> PosseSpec:
        units = self.fieldable()
        if not units:
            raise RosterError(f"nobody on {self.name}'s roster can fight: every unit is crippled")
        return PosseSpec(side, self.faction, self.name, tuple(units), controller)

    def record(self, match: Match, side: str) -> dict[str, Condition]:
        """After an encounter: grazes go, wounds and crippling wounds stay, the executed leave the roster."""
        if match.outcome() is None:
            raise RosterError("the encounter is not over yet")
        match.enter()
        dead: list[str] = []
        for unit in match.units(side, in_play=False):
            name = esper.component_for_entity(unit, Identity).name
            health = esper.component_for_entity(unit, Health)
            if health.dead:
                dead.append(name)
            elif name in self.condition:
                self.condition[name] = Condition(health.wounds, health.crippled)
        self.units = [u for u in self.units if u.name not in dead]
        for name in dead:
            self.condition.pop(name, None)
        return dict(self.condition)

    def rest(self, days: int) -> None:
        """Days of rest: one wound a day goes; a crippling wound does not."""
        if days < 0:
            raise RosterError(f"days of rest cannot be negative ({days})")
        for c in self.condition.values():
            if not c.crippled:
                c.wounds = max(0, c.wounds - days)

    def treat(self, name: str, check: int, max_wounds: int) -> int:
        """A character's Survival check treats ``name``; returns the wounds removed. Own: a crippling wound
        is one wound beyond Max Wounds: it goes first, leaving the patient at ``max_wounds``."""
        c = self.condition[self._unit(name).name]
        healed = wounds_healed(check)
        left = healed
        if c.crippled and left:
            c.crippled = False
            c.wounds = max_wounds
            left -= 1
        c.wounds = max(0, c.wounds - left)
        return healed

    def doctor(self, name: str) -> None:
        """A town doctor: every wound goes, the crippling one too."""
        self.condition[self._unit(name).name] = Condition()

    def to_json(self) -> dict[str, Any]:
        return {
            "faction": self.faction,
            "name": self.name,
            "units": [
                {
                    "kind": u.kind,
                    "name": u.name,
                    "loadout": list(u.loadout),
                    "options": [list(o) for o in u.options],
                }
                for u in self.units
            ],
            "condition": {n: {"wounds": c.wounds, "crippled": c.crippled} for n, c in self.condition.items()},
        }

    @classmethod
    def from_json(cls, data: Any) -> Roster:
        try:
            units = [
                UnitSpec(
                    str(u["kind"]),
                    str(u["name"]),
                    tuple(str(w) for w in u.get("loadout", [])),
                    tuple((str(k), str(v)) for k, v in u.get("options", [])),
                )
                for u in data["units"]
            ]
            condition = {
                str(n): Condition(int(c["wounds"]), bool(c["crippled"])) for n, c in data["condition"].items()
            }
            return cls(str(data["faction"]), str(data["name"]), units, condition)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise RosterError(f"a roster is malformed ({error})") from None
