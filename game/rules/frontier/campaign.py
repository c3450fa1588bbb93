"""Campaign carry-over between Combat Encounters.

"Out of Action - Units that are considered Out of Action are no longer in play and cannot be fielded in
the next Combat Encounter." A :class:`Roster` is a posse's whole stable of units; after an encounter it
records who went Out of Action (Seriously Injured ones included: "any Units that are still considered
Seriously Injured when the Combat encounter finishes are immediately classed as Out of Action"), and
those sit out the next encounter only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import esper

from game.components import Identity, Removed
from game.rules import PosseSpec, UnitSpec

if TYPE_CHECKING:
    from game.engine.match import Match

__all__ = ["Roster", "RosterError"]


class RosterError(ValueError):
    pass


@dataclass(slots=True)
class Roster:
    faction: str
    name: str
    units: list[UnitSpec]
    sitting_out: list[str] = field(default_factory=list)  # names Out of Action in the last encounter

    def __post_init__(self) -> None:
        names = [u.name for u in self.units]
        if any(not n for n in names) or len(set(names)) != len(names):
            raise RosterError("every unit of a roster needs its own name (e.g. 'Outlaw 2')")

    def fieldable(self) -> list[UnitSpec]:
        return [u for u in self.units if u.name not in self.sitting_out]

    def problems(self, posse: PosseSpec) -> list[str]:
        """Why ``posse`` may not be fielded from this roster now (empty: it may)."""
        out = []
        known = {u.name for u in self.units}
        for unit in posse.units:
            if unit.name not in known:
                out.append(f"{unit.name or unit.kind} is not on {self.name}'s roster")
            elif unit.name in self.sitting_out:
                out.append(
                    f"{unit.name} was Out of Action in the last encounter and cannot be fielded in this one"
                )
        return out

    def posse(self, side: str, names: list[str] | None = None, controller: str = "human") -> PosseSpec:
        chosen = self.fieldable() if names is None else [u for u in self.units if u.name in names]
        posse = PosseSpec(side, self.faction, self.name, tuple(chosen), controller)
        problems = self.problems(posse)
        if problems:
            raise RosterError("; ".join(problems))
        return posse

    def record(self, match: Match, side: str) -> list[str]:
        """After an encounter is over: note who of ``side`` is Out of Action; they sit out the next one."""
        if match.outcome() is None:
            raise RosterError("the encounter is not over yet")
        match.enter()
        out = sorted(
            esper.component_for_entity(u, Identity).name
            for u in match.units(side, in_play=False)
            if (removed := esper.try_component(u, Removed)) is not None and removed.reason == "out_of_action"
        )
        self.sitting_out = out
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "faction": self.faction,
            "name": self.name,
            "units": [{"kind": u.kind, "name": u.name, "loadout": list(u.loadout)} for u in self.units],
            "sitting_out": list(self.sitting_out),
        }

    @classmethod
    def from_json(cls, data: Any) -> Roster:
        try:
            units = [
                UnitSpec(str(u["kind"]), str(u["name"]), tuple(str(w) for w in u.get("loadout", [])))
                for u in data["units"]
            ]
            return cls(str(data["faction"]), str(data["name"]), units, [str(n) for n in data["sitting_out"]])
        except (KeyError, TypeError) as error:
            raise RosterError(f"a roster is malformed ({error})") from None
