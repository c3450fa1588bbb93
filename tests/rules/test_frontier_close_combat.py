"""Close combat: engagement, opportunity attacks, Disengage and the Dog's Canine Agility."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from game.commands import Command
from game.engine.match import Match
from game.events import Moved, Note, Roll
from game.hexgrid import Hex, hex_distance
from game.rules.frontier import state as st
from tests.rules.frontier_kit import (
    at,
    give_turn,
    law,
    new_match,
    open_map,
    outlaws,
    place,
    reason_for,
    script,
    setup_field,
    unit,
)


@pytest.fixture
def brawl(tmp_path: Path) -> Iterator[Match]:
    m = new_match(
        open_map(tmp_path), law("deputy", "dog"), outlaws(("outlaw", "tomahawk"), ("outlaw", "tomahawk"))
    )
    setup_field(
        m,
        {
            unit(m, "side1"): at(10),
            unit(m, "side1", 1): at(10, 3),
            unit(m, "side2"): at(11),
            unit(m, "side2", 1): at(25, 9),
        },
    )
    yield m
    m.close()


def _opportunity(events: list[object]) -> list[Roll]:
    notes = [i for i, e in enumerate(events) if isinstance(e, Note) and e.rule == "opportunity attack"]
    return [events[i + 1] for i in notes]  # type: ignore[misc]


def test_units_within_1_are_engaged(brawl: Match) -> None:
    """Close combat: hostile units within 1" are engaged (docs/RULES.md "Close combat")."""
    m = brawl
    deputy, outlaw = unit(m, "side1"), unit(m, "side2")
    m.enter()
    assert st.engaged_with(m, deputy) == [outlaw]
    give_turn(m, deputy)
    assert reason_for(m, deputy, "disengage") is None


def test_leaving_close_combat_without_disengage_provokes_an_opportunity_attack(brawl: Match) -> None:
    """Rulebook: "Disengage - The Unit taking this action may move out of close combat with hostile Units
    without provoking an Opportunity Attack." -- so moving out without it provokes one."""
    m = brawl
    deputy, outlaw = unit(m, "side1"), unit(m, "side2")
    give_turn(m, deputy)
    script(m, 6)
    events = m.apply(Command("move", actor=deputy, path=(at(9), at(8))))
    (attack,) = _opportunity(events)
    assert (attack.unit, attack.against, attack.check, attack.success) == (outlaw, deputy, "melee", True)
    assert st.health(deputy).toughness == 0 and st.health(deputy).wounds == 2  # a Tomahawk's 3
    assert m.position(deputy) == at(8)
    moved = [e for e in events if isinstance(e, Moved)]
    assert moved[-1].path[-1] == at(8)


def test_moving_while_staying_within_1_provokes_nothing(brawl: Match) -> None:
    m = brawl
    deputy = unit(m, "side1")
    give_turn(m, deputy)
    neighbour = next(
        h for h in m.battlefield.neighbors(at(10)) if h != at(11) and hex_distance(h, at(11)) == 1
    )
    events = m.apply(Command("move", actor=deputy, path=(neighbour,)))
    assert _opportunity(events) == []


def test_disengage_then_move_provokes_nothing(brawl: Match) -> None:
    m = brawl
    deputy = unit(m, "side1")
    give_turn(m, deputy)
    m.apply(Command("disengage", actor=deputy))
    events = m.apply(Command("move", actor=deputy, path=(at(9), at(8))))
    assert _opportunity(events) == []


def test_an_opportunity_attack_that_seriously_injures_stops_the_move(brawl: Match) -> None:
    m = brawl
    deputy = unit(m, "side1")
    st.health(deputy).toughness = 0
    st.health(deputy).wounds = 1
    give_turn(m, deputy)
    script(m, 6)
    m.apply(Command("move", actor=deputy, path=(at(9), at(8))))
    assert st.seriously_injured(deputy) and m.position(deputy) == at(10)
    assert st.game_state(m).active != deputy


def test_prone_units_make_no_opportunity_attacks(brawl: Match) -> None:
    """docs/RULES.md "Prone": a prone unit cannot fight in close combat."""
    m = brawl
    deputy, outlaw = unit(m, "side1"), unit(m, "side2")
    st.status(outlaw).prone = True
    give_turn(m, deputy)
    assert _opportunity(m.apply(Command("move", actor=deputy, path=(at(9), at(8))))) == []


def test_canine_agility_free_disengage_from_a_unit_it_attacked(brawl: Match) -> None:
    """Rulebook: "Canine Agility - The Dog can disengage from Close Combat with an Enemy Unit for free if it
    has made an attack against that Unit this turn." """
    m = brawl
    deputy, dog, outlaw, other = unit(m, "side1"), unit(m, "side1", 1), unit(m, "side2"), unit(m, "side2", 1)
    place(m, deputy, at(3, 1))
    place(m, dog, at(10))
    place(m, other, at(10) + Hex(0, -1))  # next to the dog, and still next to it one step west
    give_turn(m, dog)
    script(m, 1)  # the bite misses: it still "made an attack"
    m.apply(Command("melee", actor=dog, target=outlaw))
    script(m, 1)
    events = m.apply(Command("move", actor=dog, path=(at(9), at(8))))
    attackers = [r.unit for r in _opportunity(events)]
    assert outlaw not in attackers and attackers == [other]


def test_a_unit_in_close_combat_may_still_shoot(brawl: Match) -> None:
    """docs/RULES.md "Close combat": nothing in the rulebook stops a Shoot within 1"."""
    m = brawl
    deputy, outlaw = unit(m, "side1"), unit(m, "side2")
    give_turn(m, deputy)
    assert m.validate(Command("shoot", actor=deputy, target=outlaw)) is None
