"""Golden positions of Through the Rift for the utility AI (issue 12): "Duck!" an ally about to be
overcome; do not blow up your own posse (and do use explosives where they pay); crouch behind cover when
out-shot."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ai.agent import UtilityAgent
from ai.profile import Difficulty, difficulty
from game.engine.match import Match
from game.hexgrid import hex_distance
from game.rules.rift import state as st
from tests import maps_factory as mf
from tests.rules.frontier_kit import ROW, at, open_map
from tests.rules.rift_kit import (
    cmd,
    deploy,
    find,
    give_turn,
    new_match,
    outlaws,
    place,
    rifter,
    rifters,
    script,
    unit,
)


def test_duck_saves_an_ally_about_to_be_overcome(tmp_path: Path) -> None:
    """ "Duck!": "Prevent all damage an ally within 6t would take this turn." A goon's two hits are
    assigned to the Deliberate, who has 3 Resolve left: the Cunning, offered the window off its turn
    (docs/RULES.md R12), ducks him rather than passing."""
    m = new_match(
        rifters("side1", rifter("cunning"), rifter("deliberate", "D")),
        outlaws("side2", "outlaw_goon"),
        1,
        open_map(tmp_path),
    )
    deploy(m)
    cun, dee, goon = unit(m, "side1", 0), unit(m, "side1", 1), unit(m, "side2")
    place(m, cun, at(5))
    place(m, dee, at(6))
    place(m, goon, at(9))
    give_turn(m, cun, ap=3)
    give_turn(m, goon)
    m.enter()
    st.resolve(dee).current = 3
    script(m, 4, 4)  # Goon's Revolver 2d4 / 2+: two hits
    m.apply(cmd("fire", goon, option="goon_revolver"))
    m.apply(find(m, goon, "assign").command(targets=(dee, dee)))
    assert {a.action for a in m.legal_actions()} == {"duck", "pass"}
    agent = UtilityAgent("normal", 1)
    choice = agent.decide(m.view("side1"), 0)
    assert (choice.action, choice.target) == ("duck", dee), agent.last
    m.apply(choice)
    m.apply(agent.decide(m.view("side1"), 1))  # then it passes: the hits land on no one
    m.enter()
    assert st.resolve(dee).current == 3


def _grenadier(tmp_path: Path, ally_at: tuple[int, int]) -> tuple[Match, int, int]:  # (match, me, ally)
    """A Calculated with only an Antipersonnel Grenade (2d6, r1, 6t) at column 4; goons at columns 9 and
    11, so the one hex whose blast catches both is column 10, next to ``ally_at``."""
    m = new_match(
        rifters(
            "side1", rifter("calculated", weapons=("mdtc_antipersonnel_grenade",)), rifter("deliberate", "D")
        ),
        outlaws("side2", "outlaw_goon", "outlaw_goon"),
        1,
        open_map(tmp_path),
    )
    deploy(m)
    me, ally = unit(m, "side1", 0), unit(m, "side1", 1)
    place(m, me, at(4))
    place(m, ally, at(*ally_at))
    place(m, unit(m, "side2", 0), at(9))
    place(m, unit(m, "side2", 1), at(11))
    give_turn(m, me)
    return m, me, ally


def test_explosives_are_thrown_where_they_catch_the_most_hostiles(tmp_path: Path) -> None:
    """Use Explosive: "Reduce the resolve of all targets within the radius" (docs/RULES.md R7). With its
    own posse far off, the grenade goes where its blast catches both goons."""
    m, _, _ = _grenadier(tmp_path, (2, ROW))
    choice = UtilityAgent("normal", 1).decide(m.view("side1"), 0)
    assert choice.action == "explosive" and choice.hex == at(10), choice


def test_the_ai_does_not_blow_up_its_own_posse(tmp_path: Path) -> None:
    """R7: every unit within the radius, "any side, the thrower too", takes every hit die. With its ally
    next to the hex that would catch both goons, the grenade goes where it catches a goon and not him."""
    m, _, ally = _grenadier(tmp_path, (10, ROW + 1))
    there = m.position(ally)
    assert there is not None and hex_distance(there, at(10)) == 1
    choice = UtilityAgent("normal", 1).decide(m.view("side1"), 0)
    assert choice.action == "explosive" and choice.hex is not None, choice
    assert hex_distance(choice.hex, there) > 1, choice
    assert min(hex_distance(choice.hex, at(c)) for c in (9, 11)) <= 1, choice


def _outshot(tmp_path: Path, resolve: int) -> tuple[Match, int]:
    """A Deliberate behind a line of barrels with ``resolve`` left, three goons 5 tiles off beyond it."""
    m = new_match(
        rifters("side1", rifter("deliberate")),
        outlaws("side2", "outlaw_goon", "outlaw_goon", "outlaw_goon"),
        1,
        open_map(tmp_path, terrain={(6, row): mf.BARREL for row in range(11)}),
    )
    deploy(m)
    me = unit(m, "side1")
    place(m, me, at(5))
    for i, row in enumerate((ROW, ROW - 2, ROW + 2)):
        place(m, unit(m, "side2", i), at(10, row))
    give_turn(m, me, ap=2)
    m.enter()
    st.resolve(me).current = resolve
    return m, me


def test_crouch_behind_cover_when_out_shot(tmp_path: Path) -> None:
    """Crouch Down: "Until the start of your next turn, you are treated as if you have cover in all
    directions. If a shot would have already been halved due to being behind existing cover, it is
    instead reduced to zero." Three goons could finish the Deliberate (6 Resolve left) behind the barrels:
    it crouches rather than trade one shot for its life; with its Resolve whole it shoots."""
    m, _ = _outshot(tmp_path, 6)
    assert UtilityAgent("normal", 1).decide(m.view("side1"), 0).action == "crouch"
    m, _ = _outshot(tmp_path / "whole", 30)
    assert UtilityAgent("normal", 1).decide(m.view("side1"), 0).action == "fire"


def test_even_the_easy_ai_counts_the_hold_fire_its_walk_sets_off(tmp_path: Path) -> None:
    """Hold Fire: "firing your firearm at the first valid target to move" (docs/RULES.md R10). A goon
    holds fire at column 7, two rows down; the Bold's walk to shotgun range of the other goon passes within
    its 6 tiles. Every difficulty weighs the shot that walk sets off (easy too: an easy AI that walked
    into held fire lost one game in six to the random player, docs/AI_RECORD.md), so the walk is worth
    less than it would be to an AI blind to reactions."""
    m = new_match(
        rifters("side1", rifter("bold", weapons=("sullivan_668_shotgun",))),
        outlaws("side2", "outlaw_goon", "outlaw_goon"),
        1,
        open_map(tmp_path),
    )
    deploy(m)
    me, watcher, other = unit(m, "side1"), unit(m, "side2", 0), unit(m, "side2", 1)
    place(m, me, at(3))
    place(m, other, at(11))
    place(m, watcher, at(7, ROW + 5))
    give_turn(m, watcher)
    m.apply(find(m, watcher, "hold_fire").command(option="goon_revolver"))
    give_turn(m, me)

    def worth(level: Difficulty) -> float:
        agent = UtilityAgent(replace(level, blunder=0.0, band=0.0), 1)
        assert agent.decide(m.view("side1"), 0).action == "move"
        assert agent.last is not None
        return {name: raw for name, raw, _ in agent.last.breakdown}["worth"]

    easy = difficulty("easy")
    assert worth(easy) < worth(replace(easy, reactions=False))
