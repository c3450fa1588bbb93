"""The game window, driven headless by posted events: camera, zoom, hovered hex, status line, run_app."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.hexgrid import StaggerAxis, StaggerIndex
from game.tiledmap import load_tiled_map
from game.ui import settings
from game.ui.app import App, run_app
from game.ui.scenes import BattleScene, ErrorScene, Quit
from tests.test_render import PALETTE, MapSpec, TileSpec, pattern, write_map

REPO = Path(__file__).resolve().parent.parent
SIZE = (800, 600)


@pytest.fixture
def map_path(tmp_path: Path) -> Path:
    tiles = [TileSpec(PALETTE[i], (64, 74)) for i in range(3)]
    spec = MapSpec(64, 74, 37, StaggerAxis.Y, StaggerIndex.ODD, 24, 20, tiles, layers=[])
    spec.layers = [{"name": "ground", "raw": pattern(spec.width, spec.height, 3)}]
    return write_map(spec, tmp_path, "field")


@pytest.fixture
def app_scene(map_path: Path) -> Iterator[tuple[App, BattleScene]]:
    app = App(SIZE, "test")
    scene = BattleScene(load_tiled_map(map_path), app.size)
    app.push(scene)
    app.step(1 / 60)
    yield app, scene
    pygame.display.quit()


def post(kind: int, **attrs: object) -> None:
    pygame.event.post(pygame.event.Event(kind, **attrs))


def move_mouse(
    x: int, y: int, rel: tuple[int, int] = (0, 0), buttons: tuple[int, int, int] = (0, 0, 0)
) -> None:
    post(pygame.MOUSEMOTION, pos=(x, y), rel=rel, buttons=buttons)


def wheel(notches: int) -> None:
    post(pygame.MOUSEWHEEL, x=0, y=notches, precise_x=0.0, precise_y=float(notches), flipped=False)


def test_hovering_outlines_the_hex_under_the_mouse_and_describes_it(
    app_scene: tuple[App, BattleScene],
) -> None:
    app, scene = app_scene
    move_mouse(400, 300)
    app.step(1 / 60)
    view = scene.view
    mx, my = view.camera.screen_to_map(400, 300)
    expected = scene.map.geometry.pixel_to_cell(mx, my)
    assert view.hover == expected
    col, row = expected
    h = scene.map.geometry.to_hex(col, row)
    text = scene.status_text()
    assert f"Hex {col},{row}" in text
    assert f"q {h.q}, r {h.r}" in text
    assert "Cover:" in text
    assert "Move:" in text
    assert scene.status.current_text == text  # what was drawn is what the scene says
    # The outline is drawn: a corner of the hovered hex is the outline colour (inner or outer band).
    corner = view.hex_screen_polygon(col, row)[0]
    assert tuple(app.screen.get_at(corner))[:3] in {settings.HOVER_INNER_COLOR, settings.HOVER_OUTER_COLOR}

    move_mouse(401 + 64, 300)  # one hex to the right
    app.step(1 / 60)
    assert view.hover == (col + 1, row)
    assert f"Hex {col + 1},{row}" in scene.status_text()


def test_the_status_line_is_idle_off_the_map(app_scene: tuple[App, BattleScene]) -> None:
    app, scene = app_scene
    for _ in range(40):
        post(pygame.KEYDOWN, key=pygame.K_d, mod=0, unicode="d", scancode=0)
        post(pygame.KEYUP, key=pygame.K_d, mod=0, unicode="d", scancode=0)
    move_mouse(790, 300)  # the camera stops at the map edge, so the right of the window is off the map
    app.step(1 / 60)
    assert scene.view.hover is None
    assert "drag or WASD to pan" in scene.status_text()


def test_dragging_with_left_or_middle_button_pans(app_scene: tuple[App, BattleScene]) -> None:
    app, scene = app_scene
    camera = scene.view.camera
    for button in (1, 2):
        before = (camera.center_x, camera.center_y)
        post(pygame.MOUSEBUTTONDOWN, pos=(300, 300), button=button)
        move_mouse(350, 330, rel=(50, 30))
        post(pygame.MOUSEBUTTONUP, pos=(350, 330), button=button)
        move_mouse(400, 400, rel=(50, 70))  # after the release: no more panning
        app.step(1 / 60)
        assert (camera.center_x, camera.center_y) == pytest.approx((before[0] - 50, before[1] - 30))


def test_wheel_zooms_about_the_mouse_and_is_clamped(app_scene: tuple[App, BattleScene]) -> None:
    app, scene = app_scene
    camera = scene.view.camera
    move_mouse(200, 150)
    app.step(1 / 60)
    anchor = camera.screen_to_map(200, 150)
    wheel(1)
    app.step(1 / 60)
    assert camera.zoom > 1.0
    after = camera.screen_to_map(200, 150)
    assert after == pytest.approx(anchor, abs=1.0 / camera.zoom + 1e-6)
    for _ in range(40):
        wheel(1)
    app.step(1 / 60)
    assert camera.zoom == pytest.approx(settings.ZOOM_MAX)
    for _ in range(80):
        wheel(-1)
    app.step(1 / 60)
    assert camera.zoom == pytest.approx(settings.ZOOM_MIN)


def test_keys_pan_and_the_map_stays_reachable(app_scene: tuple[App, BattleScene]) -> None:
    app, scene = app_scene
    camera = scene.view.camera
    x0, y0 = camera.center_x, camera.center_y
    post(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0, unicode="", scancode=0)
    post(pygame.KEYUP, key=pygame.K_RIGHT, mod=0, unicode="", scancode=0)
    post(pygame.KEYDOWN, key=pygame.K_w, mod=0, unicode="w", scancode=0)
    post(pygame.KEYUP, key=pygame.K_w, mod=0, unicode="w", scancode=0)
    app.step(1 / 60)
    assert camera.center_x > x0
    assert camera.center_y < y0
    for _ in range(200):
        post(pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode="a", scancode=0)
    app.step(1 / 60)
    # clamped: the window's left edge stops at the map's left edge (no empty margin beside the map)
    assert camera.center_x == pytest.approx(camera.view_w / (2 * camera.zoom))


def test_frames_reuse_the_cached_map(app_scene: tuple[App, BattleScene]) -> None:
    app, scene = app_scene
    view = scene.view
    app.step(1 / 60)
    chunks = dict(view._base_chunks)
    for _ in range(5):
        app.step(1 / 60)
    assert dict(view._base_chunks) == chunks  # nothing re-rendered while the camera stood still


def test_escape_quits(app_scene: tuple[App, BattleScene]) -> None:
    app, scene = app_scene
    assert isinstance(scene.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE)), Quit)
    post(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0)
    assert app.step(1 / 60) is False


def test_run_app_renders_frames_and_saves_a_window_sized_screenshot(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    ranch = Path(__file__).resolve().parent.parent / "maps" / "ranch_duel.tmx"
    assert run_app(ranch, size=(640, 480), frames=3, screenshot=shot) == 0
    assert pygame.image.load(str(shot)).get_size() == (640, 480)


def test_run_app_on_a_broken_map_shows_the_problems_and_returns_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.tmx"
    broken.write_text("<map orientation='hexagonal'", encoding="utf-8")
    shot = tmp_path / "error.png"
    assert run_app(broken, size=(640, 480), frames=2, screenshot=shot) == 1
    err = capsys.readouterr().err
    assert "broken.tmx" in err
    assert "Traceback" not in err
    assert shot.exists()


def test_error_scene_lists_every_problem() -> None:
    scene = ErrorScene("Cannot open x.tmx", ["first problem", "second problem"])
    pygame.display.init()
    surface = pygame.Surface((640, 480))
    scene.draw(surface)
    assert scene.lines == ["first problem", "second problem"]


@pytest.mark.parametrize("command", ["play", "render-map"])
def test_cli_on_a_missing_map_exits_1_with_a_clear_message(command: str, tmp_path: Path) -> None:
    args = [sys.executable, "-m", "game", command, str(tmp_path / "missing.tmx")]
    if command == "render-map":
        args += ["--out", str(tmp_path / "o.png")]
    else:
        args += ["--frames", "1"]
    result = subprocess.run(
        args,
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert "missing.tmx" in result.stderr
    assert "Traceback" not in result.stderr


def test_status_line_names_cover_doors_and_items_on_the_shipped_town() -> None:
    """The status line tells a GM what the rules see: cover by name, door state, items lying there."""
    from game.hexgrid import Hex
    from game.ui.hud import status_text
    from game.ui.terrain import TerrainLookup

    tmap = load_tiled_map(Path(__file__).resolve().parent.parent / "maps" / "frontier_town.tmx")
    lookup = TerrainLookup(tmap)

    def text(h: Hex) -> str:
        report = lookup.report(*tmap.geometry.to_cell(h))
        return status_text(report, "")

    crates = text(Hex(-6, 18))
    assert "Crates" in crates
    assert "Cover: half" in crates
    assert "Door (closed)" in text(Hex(3, 2))  # the saloon's back door
    assert "Door (open)" in text(Hex(6, 9))  # the saloon's swing doors
    assert "Item: Smelling Salts" in text(Hex(4, 3))
    wall = text(Hex(2, 2))  # the saloon's wall
    assert "Timber wall" in wall
    assert "Impassable" in wall
    assert "Blocks sight" in wall
    assert "Impassable" not in text(Hex(3, 1))  # dry grass outside


def _map_with_a_mistyped_cover(tmp_path: Path) -> Path:
    """A copy of the shipped ranch map whose objects tileset says cover 'halff'."""
    import shutil

    root = Path(__file__).resolve().parent.parent
    maps = tmp_path / "maps"
    maps.mkdir()
    for f in (root / "maps").glob("*.tsx"):
        shutil.copy(f, maps)
    shutil.copy(root / "maps" / "ranch_duel.tmx", maps)
    (tmp_path / "assets").symlink_to(root / "assets")
    tsx = maps / "objects_pointy.tsx"
    tsx.write_text(tsx.read_text(encoding="utf-8").replace('value="half"', 'value="halff"'), encoding="utf-8")
    return maps / "ranch_duel.tmx"


def test_the_window_shows_the_same_problems_as_check_map(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Loading a map that breaks the conventions shows check-map's list, names the .tsx, and returns 1."""
    from game.mapcheck import check_map

    bad = _map_with_a_mistyped_cover(tmp_path)
    expected = [str(p) for p in check_map(bad)]
    assert expected
    assert all("objects_pointy.tsx" in line and "'halff'" in line for line in expected)
    assert run_app(bad, size=(640, 480), frames=2, screenshot=tmp_path / "shot.png") == 1
    err = capsys.readouterr().err.splitlines()
    assert [line.removeprefix("  - ") for line in err[1:]] == expected


def test_open_anyway_replaces_the_problem_list_with_the_map(tmp_path: Path) -> None:
    tmap = load_tiled_map(_map_with_a_mistyped_cover(tmp_path))
    app = App((640, 480), "test")
    try:
        app.push(ErrorScene("1 problem", ["cover is 'halff'"], lambda: BattleScene(tmap, app.size)))
        app.step(0.016)
        post(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r")
        app.step(0.016)
        assert isinstance(app.top, BattleScene)
        assert app.running
    finally:
        pygame.display.quit()


def test_a_long_problem_list_scrolls_and_says_how_much_is_hidden() -> None:
    pygame.display.init()
    try:
        scene = ErrorScene("Cannot open x.tmx", [f"problem number {i}" for i in range(60)])
        surface = pygame.Surface((640, 480))
        scene.draw(surface)
        assert scene.scroll == 0
        visible = scene._rows_visible
        assert visible < 60
        scene.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_PAGEDOWN, mod=0, unicode=""))
        assert scene.scroll == visible - 1
        scene.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-100, flipped=False))
        scene.draw(surface)
        assert scene.scroll == 60 - visible  # clamped at the end
        scene.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_HOME, mod=0, unicode=""))
        assert scene.scroll == 0
        # Enter without a map to open closes with status 1
        action = scene.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
        assert action == Quit(1)
    finally:
        pygame.display.quit()
