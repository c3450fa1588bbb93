"""An encounter's objective areas on the battle map (game/ui/goal_marks.py, issue 15): the area to hold,
the way out and the loot's place drawn as tinted, hatched, outlined and labelled areas; checked on the
pixels of a headless battle screen against the same frame without them."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from game.encounter.load import load_encounter
from game.engine.scenario import GoalView
from game.hexgrid import Hex
from game.tiledmap import load_tiled_map
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.demo import deploy_all
from game.ui.goal_marks import SHARED, goal_areas
from game.ui.gui import Shell
from game.ui.prefs import Prefs
from game.ui.session import BattleSession
from tests.ui import battle_driver as bd
from tests.ui.helpers import step

ROOT = Path(__file__).resolve().parents[2]
A = frozenset({Hex(0, 0), Hex(1, 0)})
B = frozenset({Hex(5, 5)})


def _view(
    kind: str, side: str, label: str, area: frozenset[Hex], *more: frozenset[Hex], carrier: int = 0
) -> GoalView:
    spot = more[0] if more else frozenset()
    return GoalView(kind, side, label, "", area, spot, 0, carrier, "")


def test_the_areas_objectives_name_one_per_set_of_tiles() -> None:
    areas = goal_areas(
        [
            _view("hold", "side1", "Water tower", A),
            _view("hold", "side2", "Water tower", A),
            _view("eliminate", "side2", "", frozenset()),
            _view("protect", "side1", "Sheriff", frozenset()),
        ]
    )
    assert [(a.hexes, a.sides, a.text) for a in areas] == [(A, ("side1", "side2"), "Hold: Water tower")]
    loot = goal_areas([_view("loot", "side2", "Bank vault", A, B)])
    assert [(a.hexes, a.text) for a in loot] == [
        (A, "Way out for the Bank vault loot"),
        (B, "Loot: Bank vault"),
    ]
    carried = goal_areas([_view("loot", "side2", "Bank vault", A, B, carrier=7)])
    assert [a.hexes for a in carried] == [A]  # nobody needs to be shown where the carried loot lies
    assert goal_areas([_view("escape", "side1", "edge", B)])[0].text == "Way out: edge"


@pytest.fixture
def encounter_screen(make_app: Callable[[tuple[int, int]], App]) -> tuple[App, BattleScreen]:
    enc = load_encounter(ROOT / "encounters" / "frontier_ranch_house.toml")
    match = enc.match(7)
    deploy_all(match)
    app = make_app((1280, 760))
    screen = BattleScreen(
        Shell(prefs=Prefs(animation_speed=4.0)),
        BattleSession(match, None, seats=dict.fromkeys(enc.seats, "human")),  # nothing moves by itself
        load_tiled_map(enc.map_path),
        app.size,
    )
    app.push(screen)
    step(app, 2)
    bd.zoom_to_fit(app, screen)
    step(app, 2)
    return app, screen


def test_the_area_to_hold_is_drawn_hatched_outlined_and_labelled(
    encounter_screen: tuple[App, BattleScreen], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, screen = encounter_screen
    (area,) = screen.board.goals.drawn
    assert area.text == "Hold: Ranch house" and area.sides == ("side1",)
    assert area.hexes == next(o.hexes for o in screen.match.battlefield.objectives if o.name == "Ranch house")
    where = Path(os.environ.get("HEXSLINGER_SHOTS", tmp_path))
    where.mkdir(parents=True, exist_ok=True)
    screen.draw(app.screen)
    pygame.image.save(app.screen, str(where / "goal_areas.png"))
    with_marks = app.screen.copy()

    monkeypatch.setattr(screen.board.goals, "draw", lambda *args: None)
    screen.draw(app.screen)
    without = app.screen.copy()
    inside = [bd.hex_pos(screen, h) for h in sorted(area.hexes)]
    changed = sum(with_marks.get_at(p) != without.get_at(p) for p in inside)
    assert changed >= len(inside) * 0.6  # most tile centres are tinted or hatched (tokens hide some)
    far = [
        h
        for h in sorted(screen.match.battlefield.hexes)
        if min(abs(h.q - a.q) + abs(h.r - a.r) for a in area.hexes) > 6
    ]
    assert all(
        with_marks.get_at(bd.hex_pos(screen, h)) == without.get_at(bd.hex_pos(screen, h)) for h in far[::7]
    )
    # around the area (its border, the label over its top tile) the picture changed too
    box = pygame.Rect(min(p[0] for p in inside) - 40, min(p[1] for p in inside) - 40, 0, 0)
    box.size = (max(p[0] for p in inside) - box.x + 40, max(p[1] for p in inside) - box.y + 40)
    diff = sum(
        with_marks.get_at((x, y)) != without.get_at((x, y))
        for x in range(box.left, box.right, 3)
        for y in range(box.top, box.bottom, 3)
        if screen.layout.map.collidepoint((x, y))
    )
    assert diff > 200
    assert SHARED not in [with_marks.get_at(p)[:3] for p in inside]  # one side's area, not a shared one
