"""What a walk, a charge and an attack show before they are made (issue 13), by posted mouse events:
"Show the exact chance to reach (Move + 1d4 against the path's cost) and every free attack the path
would provoke (Frontier opportunity attacks, Rift Hold Fire / Covering Fire lanes) with their odds, on the
path itself; the same for any move that crosses a reaction lane." / "Odds show the effective number
needed ("needs 4+ after +1"), in the window and the CLI; a 0% target is shown as unreachable, not offered
as a normal target; the move path marker says hexes and cost without contradicting the log"."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import esper
import pygame
import pytest

from game.cli import main
from game.engine.match import Match
from game.rules.frontier import RULESET as FRONTIER
from game.rules.frontier import queries as fq
from game.rules.frontier.components import Status
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.battle_words import path_label
from game.ui.path_marks import WARN
from tests.engine.rulebooks import Quotes
from tests.rules import frontier_kit as fk
from tests.rules import rift_kit as rk
from tests.ui import battle_driver as bd
from tests.ui.helpers import click, move, step
from tests.ui.test_battle_decisions import _screen

Q = Quotes()
CHARGE = Q("frontier", "Charge \u2013 The Unit taking this action may move its full movement + 1d4")
CHECK = Q(
    "frontier",
    "If the number is equal to or greater than the number in the skill then the check succeeds.",
)


def test_quotes_are_the_books_words() -> None:
    Q.check()


def _warn_pixels(screen: BattleScreen) -> int:
    surface = pygame.display.get_surface()
    area = screen.layout.map
    count = 0
    for x in range(area.left, area.right, 2):
        for y in range(area.top, area.bottom, 2):
            if surface.get_at((x, y))[:3] == WARN:
                count += 1
    return count


def _frontier_charge(app: App, tmp_path: Path) -> tuple[BattleScreen, Match, int, int]:
    m = fk.new_match(
        fk.open_map(tmp_path, width=16, height=9), fk.law("sheriff"), fk.outlaws("gang_leader", "outlaw")
    )
    fk.deploy(m)
    sheriff, leader, outlaw = fk.unit(m, "side1"), fk.unit(m, "side2"), fk.unit(m, "side2", 1)
    fk.place(m, sheriff, fk.at(5))
    fk.place(m, leader, fk.at(6))
    fk.place(m, outlaw, fk.at(12))
    fk.give_turn(m, sheriff)
    return _screen(app, m, tmp_path / "test.tmx", tmp_path), m, sheriff, leader


def test_a_charge_shows_its_reach_chance_and_the_opportunity_attack_on_its_path(
    make_app: Callable[..., App], tmp_path: Path
) -> None:
    """CHARGE: Move + 1d4 against the path's cost, exactly as the rules work it out; the Gang Leader the
    Sheriff is leaving gets a free attack, drawn on the path (a red lane and pill) with its odds."""
    app = make_app((1280, 720))
    screen, m, sheriff, leader = _frontier_charge(app, tmp_path)
    charge = next(a for a in screen.actor_actions() if a.action == "charge")
    click(app, bd.button_for(screen, charge).center)
    move(bd.hex_pos(screen, fk.at(11)))
    step(app, 3)
    hov = screen.controller.hovered
    assert hov.path and hov.preview is not None
    exact = fq.charge_reach_chance(FRONTIER.ctx(m), sheriff, hov.path)
    assert hov.preview.reach_chance == exact and 0 < exact < 1
    assert [(r.reactor, r.kind) for r in hov.reactions] == [(leader, "opportunity attack")]
    reaction = hov.reactions[0]
    assert reaction.at in hov.path and reaction.preview is not None
    status = screen.controller.status_text()
    assert f"reach {round(float(exact) * 100)}%" in status
    hit = round(float(reaction.preview.hit_chance) * 100)
    assert f"provokes Gang Leader: opportunity attack, hit {hit}%" in status
    assert path_label(hov.path, hov.path_cost, exact).endswith(f"reach {round(float(exact) * 100)}%")
    assert _warn_pixels(screen) > 20  # the lane and its pill are on the map
    # right click puts the charge down; a plain move leaving the leader's reach is attacked too
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=bd.hex_pos(screen, fk.at(2)), button=3))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=bd.hex_pos(screen, fk.at(2)), button=3))
    step(app, 2)
    walk = next(a for a in screen.actor_actions() if a.action == "move")
    click(app, bd.button_for(screen, walk).center)
    move(bd.hex_pos(screen, fk.at(4)))
    step(app, 3)
    assert screen.controller.hovered.reactions != ()  # leaving the leader's reach: still an attack
    fk.place(m, leader, fk.at(14))  # set-up: nobody near
    screen.controller.after_change([])
    click(app, bd.button_for(screen, next(a for a in screen.actor_actions() if a.action == "move")).center)
    move(bd.hex_pos(screen, fk.at(3)))
    step(app, 3)
    assert screen.controller.hovered.path and screen.controller.hovered.reactions == ()
    assert _warn_pixels(screen) == 0


def test_a_move_across_a_hold_fire_lane_shows_the_shot(make_app: Callable[..., App], tmp_path: Path) -> None:
    """Through the Rift: a move into a Hold Fire watcher's sight shows where the shot comes and its odds."""
    app = make_app((1280, 720))
    m = rk.new_match(
        rk.rifters("side1", rk.rifter("cunning")),
        rk.outlaws("side2", "outlaw_goon"),
        1,
        fk.open_map(tmp_path),
    )
    rk.deploy(m)
    me, goon = rk.unit(m, "side1"), rk.unit(m, "side2")
    rk.place(m, me, fk.at(5))
    rk.place(m, goon, fk.at(13))
    rk.give_turn(m, me)
    m.apply(rk.cmd("hold_fire", me, option="mdtc_model_4_pistol"))
    rk.give_turn(m, goon)
    screen = _screen(app, m, tmp_path / "test.tmx", tmp_path)
    walk = next(a for a in screen.actor_actions() if a.action == "move")
    click(app, bd.button_for(screen, walk).center)
    # the first tile of the walk's reach whose path meets the watcher's sight
    end = next(h for h in walk.hexes if m.path_reactions(goon, walk.path_to(h) or ()))
    move(bd.hex_pos(screen, end))
    step(app, 3)
    hov = screen.controller.hovered
    assert [(r.reactor, r.kind) for r in hov.reactions] == [(me, "hold fire")]
    assert hov.reactions[0].at in hov.path
    assert "hold fire, hit" in screen.controller.status_text()
    assert _warn_pixels(screen) > 20


def test_the_odds_say_the_effective_number_in_the_window_and_the_cli(
    make_app: Callable[..., App], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CHECK: 1d6 plus the modifiers against the skill: a Deputy (Ballistics 4+) at 3" with Aim needs a
    2 on the die (+1 short range, +1 Aim) - "needs 2+ after +2", in the CLI and the status line."""
    assert (
        main(["odds", "frontier", "--attacker", "deputy", "--target", "outlaw", "--distance", "3", "--aim"])
        == 0
    )
    out = capsys.readouterr().out
    assert "(needs 2+ after +2)" in out and "Skill 4+ on 1d6" in out
    assert main(["odds", "rift", "--weapon", "Kelly SR-19 Rifle", "--nudge", "1"]) == 0
    assert "needs 10+ after +2" in capsys.readouterr().out
    app = make_app((1280, 720))
    m = fk.new_match(fk.open_map(tmp_path, width=16, height=9), fk.law("deputy"), fk.outlaws("outlaw"))
    fk.deploy(m)
    deputy, outlaw = fk.unit(m, "side1"), fk.unit(m, "side2")
    fk.place(m, deputy, fk.at(5))
    fk.place(m, outlaw, fk.at(8))
    fk.give_turn(m, deputy)
    m.apply(fk.cmd("aim", deputy))
    screen = _screen(app, m, tmp_path / "test.tmx", tmp_path)
    shoot = next(a for a in screen.actor_actions() if a.action == "shoot")
    click(app, bd.button_for(screen, shoot).center)
    move(bd.hex_pos(screen, fk.at(8)))
    step(app, 3)
    assert "needs 2+ after +2" in screen.controller.status_text()


def test_a_target_that_cannot_be_hit_is_unreachable_not_offered(
    make_app: Callable[..., App], tmp_path: Path
) -> None:
    """A 0% shot (total cover, taking cover and prone at long range) is crossed out: the pointer over
    it says "unreachable", a click fires nothing."""
    app = make_app((1280, 720))
    m = fk.new_match(fk.open_map(tmp_path, width=20, height=9), fk.law("deputy"), fk.outlaws("outlaw", "dog"))
    fk.deploy(m)
    deputy, outlaw, dog = fk.unit(m, "side1"), fk.unit(m, "side2"), fk.unit(m, "side2", 1)
    fk.place(m, deputy, fk.at(2))
    fk.place(m, outlaw, fk.at(14))  # 12": the Revolver's long range, no accuracy bonus
    fk.place(m, dog, fk.at(6))
    m.enter()
    status = esper.component_for_entity(outlaw, Status)  # set-up: prone and taking cover (-3)
    status.prone = status.taking_cover = True
    fk.give_turn(m, deputy)
    screen = _screen(app, m, tmp_path / "test.tmx", tmp_path)
    shoot = next(a for a in screen.actor_actions() if a.action == "shoot")
    previews = {t: m.preview(shoot.command(target=t)) for t in shoot.targets}
    zero = [t for t, p in previews.items() if p is not None and p.hit_chance == 0]
    assert zero == [outlaw]
    click(app, bd.button_for(screen, shoot).center)
    assert set(zero) <= set(screen.controller.unreachable(screen.picker))  # type: ignore[arg-type]
    before = len(m.log)
    where = m.position(zero[0])
    assert where is not None
    click(app, bd.hex_pos(screen, where))
    assert len(m.log) == before
    assert "unreachable" in screen.controller.status_text()


def test_the_path_marker_and_the_log_say_the_same_walk(make_app: Callable[..., App], tmp_path: Path) -> None:
    app = make_app((1280, 720))
    m = fk.new_match(fk.open_map(tmp_path, width=16, height=9), fk.law("sheriff"), fk.outlaws("outlaw"))
    fk.deploy(m)
    sheriff, outlaw = fk.unit(m, "side1"), fk.unit(m, "side2")
    fk.place(m, sheriff, fk.at(2))
    fk.place(m, outlaw, fk.at(14))
    fk.give_turn(m, sheriff)
    screen = _screen(app, m, tmp_path / "test.tmx", tmp_path)
    walk = next(a for a in screen.actor_actions() if a.action == "move")
    click(app, bd.button_for(screen, walk).center)
    move(bd.hex_pos(screen, fk.at(6)))
    step(app, 3)
    hov = screen.controller.hovered
    marker = path_label(hov.path, hov.path_cost)
    click(app, bd.hex_pos(screen, fk.at(6)))
    line = next(line.text for line in reversed(screen.log) if line.kind == "move")
    assert line == f"Sheriff moves {marker}" and marker == "4 hexes"
