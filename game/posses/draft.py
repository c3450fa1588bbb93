"""A posse as a player builds it: a draft of one ruleset, edited step by step, every option judged by the
rules.

Headless, and it knows no ruleset: what can be chosen, and the options, come from the ruleset's posse
builder (:class:`game.engine.builder.PosseBuilder`, found through the plugin registry), which reads them
from the ruleset's data. Whether an option is allowed, and why not, comes from the ruleset's own checks:
:meth:`PosseDraft.choices_for` applies each option to a scratch copy of the draft and asks
``validate_posse``; an option that brings new problems is disabled and those problems are its reason, in
the rules' own words.

Two kinds of problem are told apart, so that a choice is refused only for what it breaks:

- *to-dos*, what is simply not done yet (a Rifter's talents still to pick, skill points still to
  allocate, an empty posse). Before asking the rules, the builder fills them in on the scratch copy
  (``PosseBuilder.complete``). :meth:`PosseDraft.problems` lists them all the same, and
  :meth:`PosseDraft.todo_left` counts them.
- taking something away (a unit, a talent, a weapon, skill ranks) is always allowed: what it leaves
  missing is a to-do.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from typing import Any, Final

from game.engine import registry
from game.engine.builder import (
    Choice,
    DraftError,
    DraftUnit,
    FieldGroup,
    Option,
    PosseBuilder,
    Sheet,
    edit_problems,
)
from game.engine.protocol import PosseSpec

__all__ = [
    "FORMAT",
    "MAX_NAME",
    "POSSE_FIELDS",
    "VERSION",
    "PosseDraft",
    "buildable_rulesets",
    "builder_for",
    "default_posses",
    "name_problem",
]

FORMAT: Final = "hexslinger-posse"  # a posse file's "format" and "version" (game.posses.library)
VERSION: Final = 1
MAX_NAME: Final = 60

# What the posse-wide fields of choices_for are called on screen (a unit's fields: its builder's groups).
POSSE_FIELDS: Final = {"faction": "Posse", "add": "Add a unit"}


def name_problem(name: str, what: str = "a name") -> str | None:
    """Why ``name`` cannot be a unit's or posse's name (None: it can). Names are kept as typed."""
    if not isinstance(name, str):
        return f"{what} must be text"
    if len(name) > MAX_NAME:
        return f"{what} has at most {MAX_NAME} characters"
    if any(unicodedata.category(c)[0] == "C" or unicodedata.category(c) in ("Zl", "Zp") for c in name):
        return f"{what} cannot contain control characters or line breaks"
    return None


# == the builders, from the registry ===============================================================


@dataclass(frozen=True, slots=True)
class _Builder:
    plugin: registry.RulesetPlugin
    builder: PosseBuilder


_BUILDERS: dict[str, _Builder] = {}


def buildable_rulesets() -> list[str]:
    """The ids of the installed rulesets whose posses can be built (their plugin has a builder)."""
    return [p.id for p in registry.plugins() if p.builder is not None]


def _entry(ruleset: str) -> _Builder:
    try:
        plugin = registry.plugin(ruleset)
    except registry.UnknownRulesetError:
        known = ", ".join(buildable_rulesets())
        raise DraftError(f"unknown ruleset '{ruleset}' (rulesets: {known})") from None
    cached = _BUILDERS.get(plugin.id)
    if cached is None or cached.plugin is not plugin:  # a plugin registered again (tests) builds anew
        if plugin.builder is None:
            raise DraftError(f"the posse builder does not know the ruleset '{ruleset}'")
        cached = _Builder(plugin, plugin.builder())
        _BUILDERS[plugin.id] = cached
    return cached


def builder_for(ruleset: str) -> PosseBuilder:
    """The posse builder of ``ruleset``; DraftError if it is not installed or has none."""
    return _entry(ruleset).builder


# == the draft =====================================================================================


class PosseDraft:
    """A posse being built for one ruleset (an id of the registry) and side, edited step by step.

    Edits never raise: each returns None when done, or the reason it was refused (the draft unchanged).
    ``index`` is a unit's position in :attr:`units`; posse-wide choices ("faction", "add") take None.
    """

    def __init__(self, ruleset: str, side: str = "side1", faction: str = "", name: str = "") -> None:
        entry = _entry(ruleset)
        self._rules = entry.builder
        self.ruleset = entry.plugin.id
        self._title = entry.plugin.title
        self.side = side
        self.faction = self._rules.faction_id(faction) if faction else self._rules.factions("")[0].id
        self.name = name
        self.controller = "human"
        self._units: list[DraftUnit] = []

    # -- reading ---------------------------------------------------------------------------------------
    @property
    def title(self) -> str:
        """The ruleset's name for players."""
        return self._title

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

    def groups(self, index: int) -> tuple[FieldGroup, ...]:
        """What can be chosen for unit ``index``, in the groups its builder shows them in (tabs)."""
        unit = self._unit(index)
        return () if unit is None else self._rules.groups(unit)

    def fields(self, index: int | None) -> tuple[str, ...]:
        """What can be chosen for unit ``index`` (None: for the posse): the ids ``choices_for`` takes."""
        if index is None:
            return tuple(POSSE_FIELDS)
        return tuple(f.id for g in self.groups(index) for f in g.fields)

    def field_label(self, what: str, index: int | None = None) -> str:
        """What field ``what`` is called on screen (of unit ``index``, or any unit's)."""
        if what in POSSE_FIELDS:
            return POSSE_FIELDS[what]
        indices = [index] if index is not None else range(len(self._units))
        for i in indices:
            for group in self.groups(i):
                for field in group.fields:
                    if field.id == what:
                        return field.label
        return what

    def keys(self, index: int, field: str) -> list[tuple[str, str]]:
        """The rows of a "ranks" field of unit ``index`` as (key, label), e.g. a Rifter's skills."""
        unit = self._unit(index)
        return [] if unit is None else self._rules.keys(unit, field)

    def todo_left(self, index: int, todo: str) -> int:
        """How many of to-do ``todo`` (e.g. "talents", "skill_points") unit ``index`` still has to
        choose (negative: too many); 0 when it has no such to-do."""
        for group in self.groups(index):
            if group.todo is not None and group.todo.id == todo:
                return group.todo.left
        return 0

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
        """The weapon ids unit ``index`` carries (defaults included)."""
        unit = self._unit(index)
        return () if unit is None else self._rules.loadout(unit)

    def fielded(self, index: int) -> list[str]:
        """The names of the units unit ``index`` puts on the field: itself, and any companion it brings
        (a Rifter's dog with Animal Friend)."""
        unit = self._unit(index)
        return [] if unit is None else self._rules.fielded(unit)

    def art(self, index: int) -> tuple[str, ...]:
        """Unit ``index``'s extra token art keys (a Rifter's attitudes)."""
        unit = self._unit(index)
        return () if unit is None else self._rules.art(unit)

    def _named(self, unit: DraftUnit) -> DraftUnit:
        return unit if unit.name else replace(unit, name=self._rules.kind_label(unit.kind))

    def summary(self, index: int) -> str:
        """Unit ``index``'s line in the posse list (a unit without a name goes by its kind)."""
        unit = self._unit(index)
        return "" if unit is None else self._rules.summary(self._named(unit))

    def sheet(self, index: int) -> Sheet | None:
        """Unit ``index`` summed up (None: no such unit)."""
        unit = self._unit(index)
        return None if unit is None else self._rules.sheet(unit, self.faction)

    # -- choices ---------------------------------------------------------------------------------------
    def _options(self, index: int | None, what: str, key: str) -> list[Option]:
        if index is None:
            if what == "faction":
                return [Option(c, "set") for c in self._rules.factions(self.faction)]
            if what == "add":
                return [Option(c, "add") for c in self._rules.kinds()]
            return []
        unit = self._unit(index)
        if unit is None:
            return []
        return self._rules.options(unit, what, key)

    def choices_for(self, index: int | None, what: str, key: str = "") -> list[Choice]:
        """Every option for ``what`` (a field of :meth:`fields`; for a "ranks" field ``key`` is the row,
        e.g. the skill id), each enabled or not with the ruleset's reason. Unknown fields or indices
        give []."""
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
        new = edit_problems(self._rules, self._spec(self.faction, before), self._spec(faction, after))
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
        label = self.field_label(what, index) if isinstance(what, str) else what
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

    def act(self, index: int, action: str) -> str | None:
        """Do one of the unit's actions (an id of a group's :class:`~game.engine.builder.UnitAction`, e.g.
        "auto_skills": spend the skill points left in the skills' order, or take back the excess)."""
        unit = self._unit(index)
        if unit is None:
            return f"there is no unit {index}"
        result = self._rules.act(unit, action)
        if isinstance(result, str):
            return result
        self._units[index] = result
        return None

    # -- copies and specs ------------------------------------------------------------------------------
    def copy(self) -> PosseDraft:
        other = PosseDraft(self.ruleset, self.side, self.faction, self.name)
        other.controller = self.controller
        other._units = list(self._units)
        return other

    def unit_from_json(self, raw: Any, where: str) -> DraftUnit:
        """A unit of a posse file, as this draft's builder reads it (DraftError if it is not one)."""
        return self._rules.unit_from_json(raw, where)

    def replace_units(self, units: list[DraftUnit]) -> None:
        """Hold ``units`` (read from a file or spec by this draft's builder) in place of its own."""
        self._units = list(units)

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
    """The ruleset's ready posses (its plugin's ``default_posses``, built from its data), as drafts on
    ``side``; one the rules would not field is left out."""
    plugin = _entry(ruleset).plugin
    out = []
    for name, spec in plugin.default_posses():
        try:
            draft = PosseDraft.from_spec(plugin.id, replace(spec, side=side, name=name))
        except DraftError:
            continue
        if draft.units and not draft.problems():
            out.append(draft)
    return out
