"""The value classes made cheap for the AI (docs/PERFORMANCE.md, perf19): the same values, equality and
hashes as the frozen dataclasses they were, so every set and dict of them iterates as before."""

from __future__ import annotations

import dataclasses

from ai.utility import Option, Part
from ai.worth import Plan
from game.commands import Command, value_class
from game.engine.facts import UnitFacts
from game.hexgrid import Hex


def _fields(value: object) -> tuple[object, ...]:
    return tuple(getattr(value, f.name) for f in dataclasses.fields(value))  # type: ignore[arg-type]


def test_a_value_class_is_compared_and_hashed_by_its_fields_as_a_frozen_dataclass() -> None:
    values: list[object] = [
        Command("shoot", actor=3, target=4),
        Command("move", actor=3, path=(Hex(0, 0), Hex(1, 0))),
        Part("exposure", 0.25, 0.5, 0.75),
        Plan(Command("end_turn", actor=1), "end the turn", exposure=0.5),
        Option("subject", "label", 2, 0.5),
    ]
    for value in values:
        assert hash(value) == hash(_fields(value))  # a frozen dataclass's hash: its fields' tuple's
        twin = dataclasses.replace(value)  # type: ignore[type-var]
        assert twin == value and twin is not value and hash(twin) == hash(value)
    assert Command("shoot", actor=3, target=4) != Command("shoot", actor=3, target=5)
    assert dataclasses.is_dataclass(UnitFacts) and "__slots__" in vars(UnitFacts)


def test_value_class_makes_a_slotted_dataclass_with_no_instance_dict() -> None:
    @value_class
    class Pair:
        a: int
        b: str = "x"

    made = Pair(1)
    assert (made.a, made.b) == (1, "x") and not hasattr(made, "__dict__")
    assert {Pair(1), Pair(1, "x"), Pair(2)} == {Pair(1), Pair(2)}


def test_a_hex_is_hashed_ordered_and_written_as_before() -> None:
    h = Hex(2, -1)
    assert hash(h) == hash((2, -1))  # the frozen dataclass's hash: sets of hexes iterate as before
    assert sorted([Hex(1, 5), Hex(0, 9), Hex(1, -2)]) == [Hex(0, 9), Hex(1, -2), Hex(1, 5)]
    assert (repr(h), str(h), h.s) == ("Hex(q=2, r=-1)", "(2,-1)", -1)
    assert h + Hex(1, 1) == Hex(3, 0) and h - Hex(1, 1) == Hex(1, -2)
