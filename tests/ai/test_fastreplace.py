"""ai.fastreplace.replace: the same copies as dataclasses.replace, faster for the AI's value classes."""

from __future__ import annotations

import dataclasses
from dataclasses import InitVar, dataclass, field

import pytest

from ai.fastreplace import replace
from ai.worth import Plan
from game.commands import Command
from game.hexgrid import Hex


def test_a_plan_copy_equals_the_standard_replace_and_leaves_the_original() -> None:
    plan = Plan(Command("move", actor=3), "walk to 1,2", end=Hex(1, 2), exposure=0.25, follow=1)
    fast = replace(plan, spare=0.5, exposure=0.75)
    assert fast == dataclasses.replace(plan, spare=0.5, exposure=0.75)
    assert (fast.spare, fast.exposure, fast.end, fast.follow) == (0.5, 0.75, Hex(1, 2), 1)
    assert (plan.spare, plan.exposure) == (0.0, 0.25)
    assert type(fast) is Plan and hash(fast) == hash(dataclasses.replace(plan, spare=0.5, exposure=0.75))


def test_a_field_the_class_lacks_is_refused_as_the_standard_replace_refuses_it() -> None:
    plan = Plan(Command("end_turn", actor=1), "end the turn")
    with pytest.raises(TypeError):
        replace(plan, no_such_field=1)


@dataclass(frozen=True)
class _Checked:
    n: int

    def __post_init__(self) -> None:
        if self.n < 0:
            raise ValueError("n must not be negative")


@dataclass
class _WithInitVar:
    n: int
    scale: InitVar[int] = 1
    scaled: int = field(init=False, default=0)

    def __post_init__(self, scale: int) -> None:
        self.scaled = self.n * scale


def test_a_class_whose_init_does_more_than_store_its_fields_goes_through_its_init() -> None:
    assert replace(_Checked(1), n=2) == _Checked(2)
    with pytest.raises(ValueError, match="negative"):
        replace(_Checked(1), n=-1)  # __post_init__ still checks the copy
    copied = replace(_WithInitVar(2, 3), n=4, scale=5)
    assert (copied.n, copied.scaled) == (4, 20)


@dataclass(frozen=True)
class _NoSlots:
    a: int
    b: str = "x"


@dataclass
class _Mutable:
    a: int
    b: list[int] = field(default_factory=list)


def test_classes_without_slots_are_copied_the_same_way() -> None:
    frozen = _NoSlots(1, "y")
    assert replace(frozen, a=2) == _NoSlots(2, "y") == dataclasses.replace(frozen, a=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        replace(frozen, a=3).a = 4  # type: ignore[misc]
    items = [1]
    mutable = _Mutable(1, items)
    copy = replace(mutable, a=5)
    assert copy == _Mutable(5, [1]) and copy.b is items and mutable.a == 1
