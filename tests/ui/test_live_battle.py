"""A battle follows its map on disk (issue 15, live maps in the sandbox), headless: the map file is written
the way Tiled writes it while the battle runs, the loop pumped until the watching thread's change is
taken. Outside GM mode the battle is left alone and says the map changed; in GM mode the map comes in as a
GM edit: units on hexes that still do stay, the one whose hex became a boulder moves (said on screen),
the camera stays, the window's title follows the map's; a broken file shows its problems in the map's
place, the battle goes on, and the fixed file comes in."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from game.engine.gm import GM_MAP
from game.mapcheck import check_map
from game.tiledmap import load_tiled_map
from game.ui import settings
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.gui import Shell
from game.ui.prefs import Prefs
from game.ui.session import BattleSession
from tests.engine.test_gm_map import copy_ranch, deployed, put_boulder
from tests.test_livemap import save_like_tiled
from tests.ui.helpers import press, step
from tests.ui.test_live_map import pump

SIZE = (1100, 700)
TITLE = 'value="Showdown at the Lazy K"'


def _shot(app: App, folder: Path, name: str) -> None:
    where = Path(os.environ.get("HEXSLINGER_SHOTS", folder))
    where.mkdir(parents=True, exist_ok=True)
    pygame.image.save(app.screen, str(where / name))


@pytest.fixture
def battle(tmp_path: Path, make_app: Callable[[tuple[int, int]], App]) -> tuple[App, BattleScreen, Path]:
    path = copy_ranch(tmp_path)
    app = make_app(SIZE)
    session = BattleSession(deployed(path), tmp_path / "autosaves")
    screen = BattleScreen(Shell(prefs=Prefs(animation_speed=4.0)), session, load_tiled_map(path), app.size)
    screen.live.start()
    app.push(screen)
    step(app, 3)
    return app, screen, path


def _camera(screen: BattleScreen) -> tuple[float, float, float]:
    cam = screen.view.camera
    return cam.center_x, cam.center_y, cam.zoom


def _reloads(screen: BattleScreen) -> int:
    return sum(c.action == GM_MAP for c in screen.match.log)


def test_outside_gm_mode_the_battle_waits_and_gm_mode_brings_the_map_in(
    battle: tuple[App, BattleScreen, Path], tmp_path: Path
) -> None:
    app, screen, path = battle
    match = screen.match
    victim, *others = [u for u in match.units() if match.position(u) is not None]
    where = match.position(victim)
    assert where is not None
    kept = {u: match.position(u) for u in others}
    assert pygame.display.get_caption()[0] == f"Hexslinger{settings.TITLE_SEPARATOR}Showdown at the Lazy K"
    screen.view.zoom_by(1, (300, 200))
    screen.view.camera.pan_screen(-40, 25)
    looked = _camera(screen)
    put_boulder(path, [match.battlefield.geometry.to_cell(where)])
    text = path.read_text(encoding="utf-8").replace(TITLE, 'value="Boulder Pass"')
    save_like_tiled(path, text)

    pump(app, lambda: screen.live.pending)
    step(app, 3)
    assert _reloads(screen) == 0 and match.position(victim) == where  # the players' board stays
    assert screen.live.note() == "ranch_duel.tmx changed on disk: GM mode (G) brings it into this battle"
    _shot(app, tmp_path, "live_battle_waiting.png")

    press(app, pygame.K_g, frames=3)
    assert _reloads(screen) == 1
    match = screen.match
    now = match.position(victim)
    assert now is not None and now != where and match.battlefield.is_passable(now)
    assert not match.battlefield.is_passable(where)
    assert {u: match.position(u) for u in others} == kept
    name = match.unit_view(victim).name
    assert screen.live.report[0] == "Reloaded ranch_duel.tmx from disk: Boulder Pass"
    assert f"{name} moved to {now.q},{now.r}: its hex is impassable now (boulder)" in screen.live.report
    assert screen.tmap.properties["title"] == "Boulder Pass"  # the map drawn is the new one
    assert _camera(screen) == looked
    assert pygame.display.get_caption()[0] == f"Hexslinger{settings.TITLE_SEPARATOR}Boulder Pass"
    assert any(f"GM edit: {name} moved to" in line.text for line in screen.log)
    step(app, 2)
    _shot(app, tmp_path, "live_battle_reloaded.png")

    autosave = screen.session.autosave_path()
    assert autosave is not None
    assert BattleSession.load(autosave).match.digest() == match.digest()  # a reload is in the save


def test_in_gm_mode_a_broken_map_shows_its_problems_and_the_fixed_map_comes_in(
    battle: tuple[App, BattleScreen, Path], tmp_path: Path
) -> None:
    app, screen, path = battle
    press(app, pygame.K_g, frames=2)
    assert screen.gm.on
    good = path.read_text(encoding="utf-8")
    digest = screen.match.digest()
    save_like_tiled(path, good.replace('<tileset firstgid="1" source="terrain_pointy.tsx"/>', "<tileset", 1))
    pump(app, lambda: screen.live.broken is not None)
    step(app, 2)
    assert screen.live.hides_map() and screen.match.digest() == digest  # the battle is kept as it was
    broken = screen.live.broken
    assert broken is not None and [str(p) for p in broken.problems] == [str(p) for p in check_map(path)]
    area = screen.layout.map
    assert app.screen.get_at((area.centerx - 150, area.centery))[:3] == settings.ERROR_PANEL
    # the panel ends above GM mode's banner, so its last line ("Fix it in Tiled and save...") shows whole
    above_banner = area.bottom - screen.gm.banner_room() - 2
    assert screen.gm.banner_room() > 0
    assert app.screen.get_at((area.x + 40, above_banner))[:3] == settings.STATUS_BORDER
    _shot(app, tmp_path, "live_battle_broken.png")

    unit = screen.match.units()[0]
    where = screen.match.position(unit)
    assert where is not None
    save_like_tiled(path, good)
    put_boulder(path, [screen.match.battlefield.geometry.to_cell(where)])
    pump(app, lambda: _reloads(screen) == 1)
    step(app, 2)
    assert screen.live.broken is None and not screen.live.hides_map()
    assert screen.match.position(unit) != where
    assert app.screen.get_at((area.centerx - 150, area.centery))[:3] != settings.ERROR_PANEL

    press(app, pygame.K_g, frames=2)  # handed back: the battle goes on on the new board
    assert not screen.gm.on and screen.live.note() == ""


def test_a_change_of_the_pictures_only_redraws_without_an_edit(
    battle: tuple[App, BattleScreen, Path],
) -> None:
    app, screen, path = battle
    press(app, pygame.K_g, frames=2)
    first = screen.tmap
    tsx = path.parent / "terrain_pointy.tsx"  # a tileset saved again, its tiles' meaning unchanged
    save_like_tiled(tsx, tsx.read_text(encoding="utf-8") + "\n")
    pump(app, lambda: screen.tmap is not first)
    assert _reloads(screen) == 0 and screen.live.reloads == 1
    assert "the board is the same" in screen.live.report[0]
