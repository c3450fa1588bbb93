"""The battle's end on the board before the results screen (issue 13): "The battle's end is shown on the
board (the last check, who fled, who won) before the results screen". By posted events."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from game.engine.match import Match
from game.events import FLED, Roll, UnitRemoved
from game.rules import get_ruleset
from game.tiledmap import load_tiled_map
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.battle_end import CONTINUE_HINT
from game.ui.gui import Shell
from game.ui.prefs import Prefs
from game.ui.scenes import Action, Scene
from game.ui.session import BattleSession
from tests.rules import frontier_kit as fk
from tests.ui.helpers import click, press, step

RANCH = Path(__file__).resolve().parents[2] / "maps" / "ranch_duel.tmx"


class Results(Scene):
    """Stands in for the results screen: what the battle hands over to."""


def _to_the_end(app: App, tmp_path: Path) -> tuple[BattleScreen, list[Scene]]:
    """Frontier, seed 1: the Outlaws win when the last Law unit flees its Cool check."""
    match = Match.create(
        RANCH, get_ruleset("frontier"), [fk.law("sheriff", "deputy"), fk.outlaws("gang_leader", "outlaw")], 1
    )
    shown: list[Scene] = []

    def on_over(_session: BattleSession) -> Action | None:
        scene = Results()
        shown.append(scene)
        return None

    screen = BattleScreen(
        Shell(prefs=Prefs(animation_speed=4.0)),
        BattleSession(match, tmp_path / "autosaves"),
        load_tiled_map(RANCH),
        app.size,
        on_over=on_over,
    )
    app.push(screen)
    step(app, 2)
    while not match.is_over:
        assert screen.controller.send(fk.aggressive_command(match))
    step(app, 120)  # the last roll has been shown
    return screen, shown


def test_the_end_stays_on_the_board_with_the_last_check_who_fled_and_who_won(
    make_app: Callable[..., App], tmp_path: Path
) -> None:
    app = make_app((1280, 720))
    screen, shown = _to_the_end(app, tmp_path)
    match = screen.match
    outcome = match.outcome()
    assert outcome is not None and outcome.winner == "side2"
    end = screen.controller.ending
    assert end is not None and shown == []  # no results yet: the board shows the end
    assert end.title == f"Victory for {screen.controller.side_names['side2']}"
    assert end.reason == outcome.reason
    last = [e for e in match.history if isinstance(e, Roll)][-1]
    fled = [e for e in match.history[-10:] if isinstance(e, UnitRemoved) and e.reason == FLED]
    assert fled and last.purpose == "morale"
    assert any("cool" in line.lower() for line in end.lines), end.lines  # the last check
    assert any(how == "fled" for _, how in end.marks)  # where the unit that fled stood
    name = match.identity(fled[-1].unit).name
    assert any(name in line for line in end.lines)
    pygame.image.save(app.screen, str(tmp_path / "end.png"))
    # the panel is drawn over the map: its words' colours are there (the title's dark red)
    area = screen.layout.map
    reds = sum(
        1
        for x in range(area.left, area.right, 3)
        for y in range(area.top, area.bottom, 3)
        if app.screen.get_at((x, y))[:3] == (140, 40, 20)
    )
    assert reds > 50
    step(app, 60)
    assert shown == []  # it waits for the player
    press(app, pygame.K_RETURN, frames=2)
    assert len(shown) == 1


def test_a_click_on_the_map_moves_on_to_the_results(make_app: Callable[..., App], tmp_path: Path) -> None:
    app = make_app((1280, 720))
    screen, shown = _to_the_end(app, tmp_path)
    assert screen.controller.ending is not None and CONTINUE_HINT
    click(app, (5, 5))  # outside the map: nothing
    assert shown == []
    click(app, screen.layout.map.center)
    step(app, 2)
    assert len(shown) == 1
