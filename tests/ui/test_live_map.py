"""Live maps in the window (issue 15, part 4), headless: a copy of a shipped map is written the way Tiled
writes it while the window runs; the loop is pumped until the watching thread's change is taken; the map
is reloaded with the same camera, its problems replace it while the file is broken, and it comes back
when the file is fixed. The same for the New Battle screen's preview."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from game.mapcheck import check_map
from game.ui import settings
from game.ui.app import App, run_app
from game.ui.hud import TextCache
from game.ui.live_map import WAKE_EVENT, LiveMapScene, LiveProblems, _wrap_anywhere
from game.ui.live_newbattle import LiveNewBattleScene
from game.ui.scenes import BattleScene, Pop
from tests.test_livemap import copy_map, save_like_tiled
from tests.ui.helpers import make_shell, post, press, step

SIZE = (960, 640)
TIMEOUT = 10.0  # seconds before a test gives up waiting for the watching thread (not a speed requirement)
TITLE = '<property name="title" value="Dead Man\'s Canyon Railyard"/>'


def pump(app: App, done: Callable[[], bool]) -> int:
    """Run frames (as the window does) until ``done``; how many it took."""
    deadline = time.monotonic() + TIMEOUT
    frames = 0
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError("the window did not take the change")
        app.step(1 / 60)
        frames += 1
        time.sleep(0.01)
    return frames


def pump_for(app: App, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.step(1 / 60)
        time.sleep(0.01)


def camera(scene: LiveMapScene) -> tuple[float, float, float]:
    assert scene.view_scene is not None
    cam = scene.view_scene.view.camera
    return cam.center_x, cam.center_y, cam.zoom


@pytest.fixture
def live(tmp_path: Path, make_app: Callable[[tuple[int, int]], App]) -> tuple[App, LiveMapScene, Path]:
    path = copy_map(tmp_path)
    app = make_app(SIZE)
    scene = LiveMapScene(path, app.size)
    app.push(scene)
    step(app)
    # the GM has looked around: zoomed in on a spot and panned
    post(pygame.MOUSEMOTION, pos=(300, 200), rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEWHEEL, x=0, y=2, precise_x=0.0, precise_y=2.0, flipped=False)
    press(app, pygame.K_d, frames=2)
    return app, scene, path


def test_the_map_view_reloads_a_saved_map_and_keeps_the_camera(
    live: tuple[App, LiveMapScene, Path], tmp_path: Path
) -> None:
    app, scene, path = live
    first = scene.view_scene
    assert first is not None and isinstance(scene.inner, BattleScene)
    looked = camera(scene)
    assert looked[2] > 1.0  # zoomed in: the camera is not where a fresh view puts it
    text = path.read_text(encoding="utf-8")
    assert TITLE in text
    save_like_tiled(path, text.replace(TITLE, '<property name="title" value="Dead Man\'s Gorge"/>'))
    pump(app, lambda: scene.reloads == 1)
    assert scene.view_scene is not first and scene.inner is scene.view_scene
    assert scene.view_scene.map.properties["title"] == "Dead Man's Gorge"
    assert camera(scene) == looked
    assert scene.view_scene.view.camera.zoom == first.view.camera.zoom
    step(app)
    app.save_screenshot(tmp_path / "reloaded.png")


def test_a_broken_save_shows_check_maps_problems_then_the_fixed_map(
    live: tuple[App, LiveMapScene, Path], tmp_path: Path
) -> None:
    app, scene, path = live
    looked = camera(scene)
    good = path.read_text(encoding="utf-8")
    # a half-finished hand edit: an unclosed tag
    save_like_tiled(path, good.replace(TITLE, '<property name="title" value="oops"', 1))
    pump(app, lambda: scene.broken)
    assert isinstance(scene.inner, LiveProblems)
    assert scene.inner.heading == "Cannot open canyon_railyard.tmx"
    assert scene.inner.lines == [str(p) for p in check_map(path)]
    assert scene.inner.lines and "canyon_railyard.tmx" in scene.inner.lines[0]
    step(app)
    app.save_screenshot(tmp_path / "broken.png")
    assert app.screen.get_at((45, 45))[:3] == settings.ERROR_PANEL  # the problem panel, not the map
    assert app.running  # a broken file is no reason to close the window

    save_like_tiled(path, good)
    pump(app, lambda: not scene.broken)
    assert scene.reloads == 2 and isinstance(scene.inner, BattleScene)
    assert camera(scene) == looked  # back where the GM was before the file broke
    step(app)
    app.save_screenshot(tmp_path / "fixed.png")
    assert app.screen.get_at((45, 45))[:3] != settings.ERROR_PANEL


def test_a_tileset_change_reloads_the_map(live: tuple[App, LiveMapScene, Path]) -> None:
    app, scene, path = live
    assert scene.view_scene is not None
    assert scene.view_scene.map.tiles[1].properties["terrain"] == "sand"  # gid 1: terrain_flat's tile 0
    tsx = path.parent / "terrain_flat.tsx"
    text = tsx.read_text(encoding="utf-8")
    save_like_tiled(tsx, text.replace('value="sand"/>', 'value="dry grass"/>', 1))
    pump(app, lambda: scene.reloads == 1)
    assert not scene.broken
    assert scene.view_scene.map.tiles[1].properties["terrain"] == "dry grass"


def test_a_save_written_in_pieces_reloads_once(live: tuple[App, LiveMapScene, Path]) -> None:
    """An editor that writes a file in several goes: the half-written file is never loaded."""
    app, scene, path = live
    text = path.read_text(encoding="utf-8")
    third = len(text) // 3
    with path.open("w", encoding="utf-8") as out:
        for piece in (text[:third], text[third : 2 * third], text[2 * third :]):
            out.write(piece)
            out.flush()
            pump_for(app, 0.04)
    pump(app, lambda: scene.reloads == 1)
    pump_for(app, 0.5)
    assert scene.reloads == 1 and not scene.broken


def test_a_convention_problem_can_be_looked_past_and_the_fix_clears_it(
    live: tuple[App, LiveMapScene, Path],
) -> None:
    app, scene, path = live
    good = path.read_text(encoding="utf-8")
    save_like_tiled(path, good.replace(TITLE, TITLE + '\n  <property name="weather" value="dusty"/>'))
    pump(app, lambda: scene.broken)
    assert isinstance(scene.inner, LiveProblems) and scene.inner.heading == "1 problem in canyon_railyard.tmx"
    assert "unknown map property 'weather'" in scene.inner.lines[0]
    assert "Enter: show it anyway" in scene.inner.hint
    press(app, pygame.K_RETURN)
    assert isinstance(scene.inner, BattleScene)  # the map, although it breaks a convention
    save_like_tiled(path, good)
    pump(app, lambda: scene.reloads == 2)
    assert isinstance(scene.inner, BattleScene) and not scene.problems


def test_a_deleted_map_shows_why_and_comes_back_when_written_again(
    live: tuple[App, LiveMapScene, Path],
) -> None:
    app, scene, path = live
    looked = camera(scene)
    good = path.read_text(encoding="utf-8")
    path.unlink()  # e.g. renamed in a file manager
    pump(app, lambda: scene.broken)
    assert isinstance(scene.inner, LiveProblems) and "does not exist" in " ".join(scene.inner.lines)
    path.write_text(good, encoding="utf-8")
    pump(app, lambda: not scene.broken)
    assert camera(scene) == looked


def test_a_watch_that_stops_is_said_in_the_window(live: tuple[App, LiveMapScene, Path]) -> None:
    app, scene, path = live
    assert scene.watcher is not None and scene.notice is None
    scene.watcher.watch([path.parent / "gone" / "map.tmx"])  # a folder that does not exist
    assert scene.notice is not None and scene.notice.startswith("Not following canyon_railyard.tmx")
    step(app)
    assert app.running


def test_the_watching_thread_wakes_an_idle_window(live: tuple[App, LiveMapScene, Path]) -> None:
    app, _scene, path = live
    pygame.event.clear()
    save_like_tiled(path, path.read_text(encoding="utf-8"))
    deadline = time.monotonic() + TIMEOUT
    while not pygame.event.peek(WAKE_EVENT):  # no frame is run meanwhile: the thread posts it
        assert time.monotonic() < deadline, "no wake event was posted"
        time.sleep(0.01)
    assert app.running


def test_closing_the_view_stops_its_watcher(live: tuple[App, LiveMapScene, Path]) -> None:
    app, scene, _path = live
    assert scene.watcher is not None and scene.watcher.running
    app.push(LiveMapScene(_path, app.size, watch=False))  # something on top, then both closed
    app.apply(Pop())
    assert scene.watcher.running
    app.close()
    assert not scene.watcher.running and not app.scenes


def test_run_app_on_a_map_broken_from_the_start_returns_1(tmp_path: Path) -> None:
    path = copy_map(tmp_path)
    path.write_text("<map", encoding="utf-8")
    assert run_app(path, size=(640, 480), frames=2, watch=False) == 1


@pytest.fixture
def new_battle(
    tmp_path: Path, make_app: Callable[[tuple[int, int]], App]
) -> tuple[App, LiveNewBattleScene, Path]:
    """New Battle open on a copy of ranch_duel, the map it previews."""
    path = copy_map(tmp_path, "ranch_duel")
    app = make_app((1280, 720))
    scene = LiveNewBattleScene(
        make_shell(app), on_start=lambda _setup: None, maps_dir=path.parent, size=app.size
    )
    app.push(scene)
    step(app, 2)
    return app, scene, path


def test_new_battle_preview_shows_the_problems_while_broken_and_the_map_again_when_fixed(
    new_battle: tuple[App, LiveNewBattleScene, Path], tmp_path: Path
) -> None:
    app, scene, path = new_battle
    assert scene.current_map == path and scene.info is not None and not scene.info.problems
    assert scene.thumbnail is not None
    corner = (6, 6)  # inside the problem panel's parchment, were it shown
    assert scene.thumbnail.image.get_at(corner)[:3] != settings.ERROR_PANEL
    good = path.read_text(encoding="utf-8")
    save_like_tiled(path, good.replace("<map ", "<map nonsense ", 1).replace('width="20"', 'width="x"', 1))
    pump(app, lambda: scene.reloads == 1)
    info = scene.info
    assert info is not None and info.problems and scene.current_map == path
    assert scene.thumbnail.image.get_at(corner)[:3] == settings.ERROR_PANEL
    assert scene.start_problem() is not None  # a broken map cannot be started
    step(app)
    app.save_screenshot(tmp_path / "newbattle_broken.png")

    save_like_tiled(path, good)
    pump(app, lambda: scene.reloads == 2)
    assert scene.info is not None and not scene.info.problems
    assert scene.thumbnail.image.get_at(corner)[:3] != settings.ERROR_PANEL
    step(app)
    app.save_screenshot(tmp_path / "newbattle_fixed.png")


def test_new_battle_redraws_the_picture_when_a_tileset_image_changes(
    new_battle: tuple[App, LiveNewBattleScene, Path], tmp_path: Path
) -> None:
    """The pictures are cached per version of the .tmx; a repainted tileset image must not show the old."""
    app, scene, _path = new_battle
    assert scene.thumbnail is not None

    def red_share() -> float:
        assert scene.thumbnail is not None
        image = scene.thumbnail.image
        w, h = image.get_size()
        samples = [image.get_at((x, y)) for x in range(0, w, 9) for y in range(0, h, 9)]
        return sum(1 for c in samples if c.r > 200 and c.g < 40 and c.b < 40) / len(samples)

    assert red_share() < 0.01
    sheet = tmp_path / "assets" / "tiles" / "terrain_pointy.png"
    painted = pygame.Surface(pygame.image.load(str(sheet)).get_size(), pygame.SRCALPHA)
    painted.fill((255, 0, 0, 255))  # the GM repaints every ground tile red
    tmp = sheet.with_name("painted.tmp.png")
    pygame.image.save(painted, str(tmp))
    tmp.replace(sheet)
    pump(app, lambda: scene.reloads == 1)
    assert red_share() > 0.3


def test_a_problem_with_a_long_path_starts_on_its_bullets_row_and_breaks_inside_the_path() -> None:
    """A file's path longer than a row is not pushed under a bullet left alone: it starts on the
    bullet's row and is broken inside, and no row is wider than the panel."""
    pygame.font.init()
    text = TextCache(settings.ERROR_FONT_SIZE - 2)
    line = "\u2022 /tmp/" + "a" * 120 + "/maps/ranch_duel.tmx: the map file is not valid XML"
    rows = _wrap_anywhere(text, line, 300)
    assert rows[0].startswith("\u2022 /tmp/aaa")  # not "\u2022" alone
    assert all(text.render(r, settings.ERROR_TEXT).get_width() <= 300 for r in rows)
    assert "".join(r.strip() for r in rows).replace(" ", "") == line.replace(" ", "")
    assert _wrap_anywhere(text, "\u2022 short words only here", 300) == ["\u2022 short words only here"]
