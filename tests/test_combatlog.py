"""The combat log lines (game/ui/combatlog.py): "a combat log panel listing every roll with its target
number and modifiers" (issue 5)."""

from __future__ import annotations

from pathlib import Path

from game.events import Roll
from game.ui.combatlog import describe
from tests.rules import frontier_kit as fk
from tests.rules import rift_kit as rk
from tests.rules.frontier_kit import at, open_map


def test_a_frontier_shot_names_the_die_modifiers_total_and_target_number(tmp_path: Path) -> None:
    m = fk.new_match(open_map(tmp_path), fk.law("sheriff", "deputy"), fk.outlaws("gang_leader", "outlaw"))
    deputy, outlaw = fk.unit(m, "side1", 1), fk.unit(m, "side2", 1)
    fk.setup_field(m, {deputy: at(5), outlaw: at(10)})
    fk.give_turn(m, deputy)
    fk.script(m, 4)
    events = m.apply(fk.cmd("shoot", deputy, target=outlaw))
    roll = next(e for e in events if isinstance(e, Roll))
    line = describe(m, roll)
    assert line is not None and line.kind in ("hit", "miss")
    name = m.identity(deputy).name
    assert line.text.startswith(f"{name} rolls ballistics at {m.identity(outlaw).name}: [4]")
    assert f"vs {roll.target_number}+" in line.text
    for mod_name, value in roll.modifiers:
        assert f"{value:+d} {mod_name.replace('_', ' ')}" in line.text
    every = [describe(m, e) for e in m.history]
    assert all(x is None or x.text for x in every)


def test_a_rift_volley_lists_every_die_and_the_stress_with_its_multipliers(tmp_path: Path) -> None:
    m = rk.new_match(
        rk.rifters("side1", rk.rifter("cunning")), rk.outlaws("side2", "outlaw_goon"), 1, open_map(tmp_path)
    )
    rk.deploy(m)
    me, goon = rk.unit(m, "side1"), rk.unit(m, "side2")
    rk.place(m, me, at(5))
    rk.place(m, goon, at(8))
    rk.give_turn(m, me)
    rk.script(m, 6, 5, 1)
    events = m.apply(rk.cmd("fire", me, option="mdtc_model_4_pistol"))
    lines = [line for e in events if (line := describe(m, e)) is not None]
    roll = next(x for x in lines if "rolls fire" in x.text)
    assert "[6, 5, 1]" in roll.text and "vs 5+" in roll.text and roll.kind == "hit"
    stress = [x for x in lines if "stress" in x.text]
    assert [x.text.split(": hit of ")[1].split(" ")[0] for x in stress] == ["6", "5"]
