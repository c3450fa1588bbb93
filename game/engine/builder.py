"""What a ruleset tells the posse builder: the :class:`PosseBuilder` protocol and the data it speaks.

The posse builder (the draft model :mod:`game.posses` and the screen drawn on it) knows no ruleset. A
ruleset's plugin (:class:`game.engine.registry.RulesetPlugin`) gives a ``builder`` that answers these
questions from the ruleset's data, and its ``default_posses``. Nothing here decides a rule either: whether
an option is allowed, and why not, is always the ruleset's ``validate_posse`` (the draft applies an option
to a scratch copy and asks; see :func:`edit_problems`).

What a builder declares, for each unit:

- its **field groups** (:class:`FieldGroup`): what can be chosen for it, grouped the way the screen shows
  them (as tabs when there is more than one). A group has a title, its :class:`Field`\\ s (each with a
  layout the screen knows how to draw), a status line, a :class:`Todo` (talents still to pick, skill
  points still to spend: counted on its tab) and at most one :class:`UnitAction` (an auto-fill, a reset);
- the options of a field (:class:`Option`: a :class:`Choice` and whether taking it sets, adds or removes);
- how the unit is summed up (:meth:`PosseBuilder.summary` for the posse list, :meth:`PosseBuilder.sheet`
  for its sheet, :meth:`PosseBuilder.art` for its token) and what it puts on the field.

A ruleset keeps its own record of a unit's choices by subclassing :class:`DraftUnit` (frozen). The
:class:`BaseBuilder` answers for a unit with nothing to choose; a ruleset overrides what it has.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, NamedTuple, Protocol

from game.engine.protocol import PosseSpec, Ruleset, UnitSpec

__all__ = [
    "BaseBuilder",
    "Choice",
    "DraftError",
    "DraftUnit",
    "Field",
    "FieldGroup",
    "Layout",
    "Mode",
    "Option",
    "PosseBuilder",
    "Sheet",
    "SheetSection",
    "Todo",
    "UnitAction",
    "check_keys",
    "edit_problems",
    "new_problems",
    "same_name",
    "unique_name",
]

Mode = Literal["set", "add", "remove"]
# How the screen lays a field's options out:
# "list": one option a row with its detail beside it (a Frontier unit's weapon);
# "grid": buttons in rows (Field.min_width, Field.columns);
# "stepper": "-" / the current option / "+" (a level);
# "checklist": toggles in one or two columns with the detail beside each (a Rifter's weapons);
# "ranks": one row per key (PosseBuilder.keys), the options in a line (a Rifter's skill ranks).
Layout = Literal["list", "grid", "stepper", "checklist", "ranks"]


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


class Option(NamedTuple):
    """An option as a builder offers it: the choice, and whether taking it sets, adds or removes
    (removing is always allowed: what it leaves missing is a to-do)."""

    choice: Choice
    mode: Mode


class DraftError(ValueError):
    """A posse the draft model cannot hold (e.g. a Frontier unit carrying two weapons); says what."""


@dataclass(frozen=True, slots=True)
class DraftUnit:
    """One unit of a draft: its kind and name. A ruleset's builder subclasses it to keep what was chosen
    (a Frontier unit's weapon, a Rifter's whole character)."""

    kind: str
    name: str = ""


@dataclass(frozen=True, slots=True)
class Field:
    """Something to choose for a unit: ``id`` (what ``choices_for`` takes), its ``label`` on screen and
    how the screen lays it out (``min_width`` and ``columns``: a grid's narrowest button, at UI scale 1,
    and most buttons a row)."""

    id: str
    label: str
    layout: Layout = "grid"
    min_width: int = 150
    columns: int = 4


@dataclass(frozen=True, slots=True)
class Todo:
    """What a unit still has to have chosen: ``left`` more ``noun``\\ s (negative: that many too many)."""

    id: str
    left: int
    noun: str  # one of them: "talent", "skill point"

    def count(self) -> str:
        """``left`` as words, without its sign: "1 talent", "6 skill points"."""
        n = abs(self.left)
        return f"{n} {self.noun}{'s' if n != 1 else ''}"


@dataclass(frozen=True, slots=True)
class UnitAction:
    """A one-click edit of a unit (``PosseBuilder.act``): spend the skill points left, restore defaults."""

    id: str
    label: str
    tip: str = ""


@dataclass(frozen=True, slots=True)
class FieldGroup:
    """Fields shown together (a tab when a unit has more than one group). ``status``: what the group's
    heading says after its title ("carrying 2"); a group without one shows each field's label instead."""

    id: str
    title: str
    fields: tuple[Field, ...]
    status: str = ""
    todo: Todo | None = None
    action: UnitAction | None = None


@dataclass(frozen=True, slots=True)
class SheetSection:
    """A part of a unit's sheet: a bold ``title``, then its ``lines``, then ``items`` as bullets (label and
    detail); ``empty`` (in italics) when it has neither. ``table``: the items are a row of short values
    under their names (a stat line; the printed card draws it as a table)."""

    title: str
    lines: tuple[str, ...] = ()
    items: tuple[tuple[str, str], ...] = ()
    empty: str = ""
    table: bool = False


@dataclass(frozen=True, slots=True)
class Sheet:
    """A unit summed up: the line under its name (``subtitle``) and its sections."""

    subtitle: str
    sections: tuple[SheetSection, ...] = ()


class PosseBuilder(Protocol):
    """A ruleset's answers to the posse builder. Every option comes from the ruleset's data; whether it is
    allowed is ``validate`` (the ruleset's ``validate_posse``), asked by the draft."""

    def validate(self, posse: PosseSpec) -> list[str]:
        """The ruleset's problems with ``posse`` (empty: it may be fielded)."""
        ...

    def factions(self, current: str) -> list[Choice]:
        """The posses the ruleset fields, ``current`` selected."""
        ...

    def faction_id(self, faction: str) -> str:
        """A faction as it may be written (an id or a name) as its id."""
        ...

    def kinds(self) -> list[Choice]:
        """Every kind of unit that may be recruited (detail: its profile)."""
        ...

    def kind_label(self, kind: str) -> str: ...

    def new_unit(self, kind: str, taken: Sequence[str]) -> DraftUnit:
        """A fresh unit of ``kind`` named apart from the ``taken`` names."""
        ...

    def groups(self, unit: DraftUnit) -> tuple[FieldGroup, ...]:
        """What can be chosen for ``unit``, grouped, with each group's to-do and status now."""
        ...

    def keys(self, unit: DraftUnit, field: str) -> list[tuple[str, str]]:
        """A "ranks" field's rows as (key, label) (a Rifter's skills); [] for other fields."""
        ...

    def options(self, unit: DraftUnit, field: str, key: str) -> list[Option]:
        """The options of ``field`` (for ``key``), unjudged; [] for a field the unit does not have."""
        ...

    def apply(self, unit: DraftUnit, field: str, key: str, value: str) -> DraftUnit:
        """``unit`` with option ``value`` of ``field`` taken (one of its options)."""
        ...

    def complete(self, unit: DraftUnit, field: str) -> DraftUnit:
        """``unit`` with its to-dos done as the rules could accept, for judging an option of ``field``
        (an option is refused only for what it breaks, never for a to-do)."""
        ...

    def act(self, unit: DraftUnit, action: str) -> DraftUnit | str:
        """``unit`` after one of its groups' actions; the reason if it has no such action."""
        ...

    def rename(self, unit: DraftUnit, name: str) -> DraftUnit: ...

    def loadout(self, unit: DraftUnit) -> tuple[str, ...]:
        """The weapon ids ``unit`` carries now (defaults included)."""
        ...

    def fielded(self, unit: DraftUnit) -> list[str]:
        """The names of the units ``unit`` puts on the field: itself, and any companion it brings."""
        ...

    def art(self, unit: DraftUnit) -> tuple[str, ...]:
        """Extra art keys of its token (as ``UnitView.art``: a Rifter's attitudes)."""
        ...

    def summary(self, unit: DraftUnit) -> str:
        """``unit``'s line in the posse list ("Calamity · Bold 4", "Sheriff · Rifle")."""
        ...

    def sheet(self, unit: DraftUnit, faction: str) -> Sheet:
        """``unit`` summed up, in the posse of ``faction``."""
        ...

    def card(self, unit: DraftUnit, faction: str) -> Sheet:
        """``unit``'s printed card (``hexslinger print-posse``): its sheet, its weapons with their ranges,
        and the rulebook's words for each of its abilities (items of (name, text))."""
        ...

    def unit_spec(self, unit: DraftUnit) -> UnitSpec: ...

    def unit_from_spec(self, spec: UnitSpec) -> DraftUnit:
        """The unit fielded by ``spec``; DraftError if the builder cannot hold it."""
        ...

    def unit_to_json(self, unit: DraftUnit) -> dict[str, Any]:
        """``unit`` as it is kept in a posse file."""
        ...

    def unit_from_json(self, raw: Any, where: str) -> DraftUnit:
        """A unit of a posse file; DraftError (saying ``where``) if it is not one."""
        ...


# == helpers every builder and the draft use =======================================================


def same_name(a: str, b: str) -> bool:
    """Two names are the same whatever their case and spacing."""
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def unique_name(base: str, taken: Iterable[str]) -> str:
    """``base``, or ``base 2``, ``base 3``... whichever no ``taken`` name is (whatever the case)."""
    used = {t.casefold() for t in taken}
    if base.casefold() not in used:
        return base
    n = 2
    while f"{base} {n}".casefold() in used:
        n += 1
    return f"{base} {n}"


def new_problems(after: list[str], before: list[str]) -> list[str]:
    """The problems of ``after`` that ``before`` did not have (counted, in ``after``'s order)."""
    left = Counter(before)
    out = []
    for p in after:
        if left[p] > 0:
            left[p] -= 1
        else:
            out.append(p)
    return out


def edit_problems(builder: PosseBuilder, before: PosseSpec, after: PosseSpec) -> list[str]:
    """What the rules find wrong with ``after`` and not with ``before``; what they say of an empty posse
    ("must field at least one unit") is a to-do, never a reason to refuse an edit."""
    new = new_problems(builder.validate(after), builder.validate(before))
    empty = builder.validate(replace(after, units=()))
    return [p for p in new if p not in empty]


def check_keys(
    raw: Any, where: str, required: set[str], optional: set[str], loose: Iterable[str] = ()
) -> dict[str, Any]:
    """``raw`` if it is an object with the ``required`` keys and no others than ``optional``, every value
    text but those of the ``loose`` keys; DraftError saying ``where`` and what is wrong otherwise."""
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
        if key not in loose and not isinstance(value, str):
            raise DraftError(f"{where}: '{key}' must be text, not {value!r}")
    return raw


class BaseBuilder:
    """A builder for units with nothing to choose: kind and name only. A ruleset's builder subclasses it
    and overrides what its units have (``groups``, ``options``, ``apply``, ...)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    def validate(self, posse: PosseSpec) -> list[str]:
        return self.ruleset.validate_posse(posse)

    def factions(self, current: str) -> list[Choice]:
        raise NotImplementedError

    def faction_id(self, faction: str) -> str:
        return faction

    def kinds(self) -> list[Choice]:
        raise NotImplementedError

    def kind_label(self, kind: str) -> str:
        return next((c.label for c in self.kinds() if c.id == kind), kind)

    def new_unit(self, kind: str, taken: Sequence[str]) -> DraftUnit:
        return DraftUnit(kind, unique_name(self.kind_label(kind), taken))

    def groups(self, unit: DraftUnit) -> tuple[FieldGroup, ...]:
        return ()

    def keys(self, unit: DraftUnit, field: str) -> list[tuple[str, str]]:
        return []

    def options(self, unit: DraftUnit, field: str, key: str) -> list[Option]:
        return []

    def apply(self, unit: DraftUnit, field: str, key: str, value: str) -> DraftUnit:
        return unit

    def complete(self, unit: DraftUnit, field: str) -> DraftUnit:
        return unit

    def act(self, unit: DraftUnit, action: str) -> DraftUnit | str:
        return f"{unit.name or self.kind_label(unit.kind)} has nothing to do called '{action}'"

    def rename(self, unit: DraftUnit, name: str) -> DraftUnit:
        return replace(unit, name=name)

    def loadout(self, unit: DraftUnit) -> tuple[str, ...]:
        return ()

    def fielded(self, unit: DraftUnit) -> list[str]:
        return [unit.name or self.kind_label(unit.kind)]

    def art(self, unit: DraftUnit) -> tuple[str, ...]:
        return ()

    def summary(self, unit: DraftUnit) -> str:
        kind = self.kind_label(unit.kind)
        return unit.name if same_name(unit.name, kind) else f"{unit.name} \u00b7 {kind}"

    def faction_label(self, faction: str) -> str:
        return next((c.label for c in self.factions(faction) if c.id == faction), faction)

    def sheet(self, unit: DraftUnit, faction: str) -> Sheet:
        kind = next((c for c in self.kinds() if c.id == unit.kind), None)
        label = self.kind_label(unit.kind)
        name = self.faction_label(faction)
        profile = (SheetSection("Profile", (kind.detail,)),) if kind is not None and kind.detail else ()
        return Sheet(f"{label} \u2014 {name}" if name else label, profile)

    def card(self, unit: DraftUnit, faction: str) -> Sheet:
        return self.sheet(unit, faction)

    def unit_spec(self, unit: DraftUnit) -> UnitSpec:
        return UnitSpec(unit.kind, unit.name)

    def unit_from_spec(self, spec: UnitSpec) -> DraftUnit:
        if spec.loadout or spec.options:
            raise DraftError(f"{spec.name or spec.kind}: this unit chooses no weapons or options")
        return DraftUnit(spec.kind, spec.name)

    def unit_to_json(self, unit: DraftUnit) -> dict[str, Any]:
        return {"kind": unit.kind, "name": unit.name}

    def unit_from_json(self, raw: Any, where: str) -> DraftUnit:
        t = check_keys(raw, where, {"kind"}, {"name"})
        return DraftUnit(t["kind"], t.get("name", ""))

    # -- for default posses ----------------------------------------------------------------------------
    def posse_spec(self, faction: str, units: Sequence[DraftUnit], name: str = "") -> PosseSpec:
        """The posse of ``units`` on side 1 (a default posse; the draft gives it its side)."""
        return PosseSpec("side1", faction, name, tuple(self.unit_spec(u) for u in units))

    def try_add(self, faction: str, units: Sequence[DraftUnit], kind: str) -> list[DraftUnit] | None:
        """``units`` and a new unit of ``kind``, if the rules find nothing new wrong with that (as the
        draft's own Add would); None if they do."""
        unit = self.new_unit(kind, [u.name for u in units])
        after = [*units, self.complete(unit, "add")]
        if edit_problems(self, self.posse_spec(faction, units), self.posse_spec(faction, after)):
            return None
        return [*units, unit]
