"""Issue 13, "The battle opens with the whole deployment area in view (fit-to-zone zoom); the camera centres
on the acting unit after every hand-over, load and turn start; off-screen targets get edge indicators while
aiming; key panning is fast (a screen width in under a second); the map view's minimum zoom fits the largest
map" — played by posted events, time simulated by the frames' ``dt`` (never the wall clock)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from game.resources import shipped_maps
from game.tiledmap import load_tiled_map
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.demo import demo_command, demo_match
from game.ui.gui import Shell
from game.ui.held_pan import PAN_SCREENS_PER_SECOND
from game.ui.picking import Picker
from game.ui.prefs import Prefs
from game.ui.session import BattleSession, latest_autosave
from tests.ui.helpers import click, move, post, press, step

LARGEST = max(shipped_maps(), key=lambda p: load_tiled_map(p).width * load_tiled_map(p).height)


def _open(app: App, session: BattleSession, scale: float = 1.0) -> BattleScreen:
    assert session.match.map_path is not None
    shell = Shell(prefs=Prefs(ui_scale=scale, animation_speed=4.0))
    screen = BattleScreen(shell, session, load_tiled_map(session.match.map_path), app.size)
    app.push(screen)
    step(app, 2)
    return screen


def _on_screen(screen: BattleScreen, unit: int) -> bool:
    where = screen.match.position(unit)
    assert where is not None
    x, y = screen.overlay.center(where)
    return 0 <= x < screen.layout.map.width and 0 <= y < screen.layout.map.height


def _centred(screen: BattleScreen, unit: int) -> bool:
    """The camera is on the unit: its tile in the middle of the map area, or as near as the map's edge
    lets the view go."""
    where = screen.match.position(unit)
    assert where is not None
    cam = screen.view.camera
    wanted = dataclasses.replace(cam)
    wanted.center_x, wanted.center_y = screen.tmap.geometry.hex_center(where)
    wanted.clamp()
    return abs(wanted.center_x - cam.center_x) < 1 and abs(wanted.center_y - cam.center_y) < 1


def _away(screen: BattleScreen) -> None:
    """The camera to a far corner of the map (as a player who looked around would leave it)."""
    cam = screen.view.camera
    cam.center_x, cam.center_y = 0, 0
    cam.clamp()


@pytest.mark.parametrize("size", [(1280, 720), (1280, 800)])
@pytest.mark.parametrize("scale", [1.0, 1.5])
@pytest.mark.parametrize("map_path", shipped_maps(), ids=lambda p: p.stem)
def test_the_battle_opens_with_the_whole_deploy_zone_in_view(
    make_app: Callable[..., App], size: tuple[int, int], scale: float, map_path: Path
) -> None:
    app = make_app(size)
    screen = _open(app, BattleSession(demo_match("frontier", map_path, seed=3), None), scale)
    for side in range(2):
        picker = screen.picker
        assert picker is not None and picker.action.action == "deploy"
        area = screen.layout.map
        half = screen.tmap.geometry.tile_height * screen.view.camera.zoom / 2
        for h in picker.action.hexes:
            x, y = screen.overlay.center(h)
            assert half - 1 <= y <= area.height - half + 1 and 0 <= x <= area.width, (side, h)
        screen.controller.auto_deploy()
        step(app)
        if screen.handover:
            _away(screen)
            click(app, area.center)


def _mid_battle(ruleset: str, autosaves: Path | None = None, steps: int = 40) -> BattleSession:
    match = demo_match(ruleset, LARGEST, seed=5)
    session = BattleSession(match, autosaves)
    for _ in range(steps):
        session.apply(demo_command(match))
    return session


@pytest.mark.parametrize("ruleset", ["frontier", "rift", "golden"])
def test_a_loaded_battle_opens_on_the_acting_unit(
    make_app: Callable[..., App], tmp_path: Path, ruleset: str
) -> None:
    played = _mid_battle(ruleset, tmp_path / "autosaves")
    saved = latest_autosave(tmp_path / "autosaves")
    assert saved is not None
    app = make_app((1280, 720))
    screen = _open(app, BattleSession.load(saved))
    screen.handover = False
    unit = screen.selected
    assert unit is not None and screen.match.position(unit) is not None
    assert screen.match.digest() == played.match.digest()
    assert _centred(screen, unit)


@pytest.mark.parametrize("ruleset", ["frontier", "rift"])
def test_every_hand_over_and_turn_start_centres_the_acting_unit(
    make_app: Callable[..., App], ruleset: str
) -> None:
    app = make_app((1280, 720))
    screen = _open(app, _mid_battle(ruleset))
    seats = 0
    for _ in range(400):
        if screen.session.outcome is not None or seats >= 4:
            break
        if screen.handover:
            _away(screen)
            click(app, screen.layout.map.center)  # the next player takes the seat
            seats += 1
            unit = screen.selected
            if unit is not None and screen.match.position(unit) is not None:
                assert _on_screen(screen, unit)
                assert _centred(screen, unit)
            continue
        started = screen.session.turn_started  # a turn begun without a hand-over: centred at once
        before = len(screen.match.log)
        _away(screen)
        screen.send(demo_command(screen.match))
        step(app)
        if screen.handover or screen.handover_pending:
            continue
        events = screen.match.log[before:]
        turned = started(events) if events else None
        if turned is not None and screen.match.position(turned) is not None:
            assert _on_screen(screen, turned)
    assert seats >= 2


def test_off_screen_targets_get_edge_marks_that_bring_them_into_view(make_app: Callable[..., App]) -> None:
    app = make_app((1280, 720))
    session = BattleSession(demo_match("rift", seed=11), None)
    screen = _open(app, session)
    match = session.match
    aimed = None
    for _ in range(400):
        screen.handover = False
        for a in screen.actor_actions():
            if a.enabled and a.needs in ("", "target") and a.action not in ("end_turn", "pass"):
                foes = [t for t in Picker(match, a).reachable_targets() if match.identity(t).side != a.side]
                if foes and screen.session.deciding_side() == a.side:
                    aimed = (a, foes)
                    break
        if aimed is not None:
            break
        screen.send(demo_command(match))
    assert aimed is not None
    action, foes = aimed
    screen.selected = action.actor
    screen.choose(action)
    step(app)
    # the camera far from the targets: zoomed in on the opposite side of the map
    where = match.position(foes[0])
    assert where is not None
    fx, fy = screen.tmap.geometry.hex_center(where)
    cam = screen.view.camera
    cam.zoom = 2.0
    bx, by, bw, bh = cam.bounds
    cam.center_x, cam.center_y = (bx + bw - fx, by + bh - fy)
    cam.clamp()
    step(app, 2)
    off = [t for t in foes if not _on_screen(screen, t)]
    assert off, "a target is off screen"
    # a mark for every off-screen target (those on one tile share a mark that counts them)
    by_tile = {match.position(m.unit): m for m in screen.board.edge_marks}
    marks = {t: by_tile[match.position(t)] for t in off}
    for mark in by_tile.values():
        assert mark.count == sum(1 for t in off if match.position(t) == match.position(mark.unit))
    area = screen.layout.map
    for t in off:
        mark = marks[t]
        x, y = mark.at
        assert 0 <= x < area.width and 0 <= y < area.height  # on the map area's edge, inside it
        tx, ty = screen.overlay.center(match.position(t))  # type: ignore[arg-type]
        pointing = (tx - x) * (mark.at[0] - area.width / 2) + (ty - y) * (mark.at[1] - area.height / 2)
        assert pointing > 0  # the arrow points on towards its target
    before = match.digest()
    target = off[0]
    click(app, (area.x + marks[target].at[0], area.y + marks[target].at[1]))
    assert _on_screen(screen, target)
    assert match.digest() == before and screen.picker is not None  # the click only moved the camera
    assert match.position(target) not in {match.position(m.unit) for m in screen.board.edge_marks}


@pytest.mark.parametrize("dt", [1 / 60, 1 / 144, 1 / 15])
def test_a_held_pan_key_crosses_a_screen_in_under_a_second_at_any_frame_rate(
    make_app: Callable[..., App], dt: float
) -> None:
    app = make_app((1280, 720))
    screen = _open(app, _mid_battle("frontier", steps=0))
    screen.handover = False
    cam = screen.view.camera
    cam.zoom = 2.0  # room to scroll on the largest map
    cam.center_x = cam.bounds[0] + cam.view_w / (2 * cam.zoom)
    cam.clamp()
    start = cam.center_x
    key = pygame.key.key_code(screen.shell.prefs.key_bindings["pan_right"])
    post(pygame.KEYDOWN, key=key, mod=0, unicode="d", scancode=0)
    frames = round(0.8 / dt)  # 0.8 s of simulated time
    step(app, frames, dt)
    moved = (cam.center_x - start) * cam.zoom  # screen pixels the picture slid
    expected = cam.view_w * PAN_SCREENS_PER_SECOND * (0.8 + 1 / 20)
    assert moved >= cam.view_w  # a whole view's width in 0.8 s
    assert moved == pytest.approx(expected, rel=0.03)  # the same distance whatever the frame rate
    post(pygame.KEYUP, key=key, mod=0, unicode="d", scancode=0)
    step(app)
    still = cam.center_x
    step(app, 10, dt)
    assert cam.center_x == still  # let go: it stops


def test_a_tapped_arrow_still_nudges(make_app: Callable[..., App]) -> None:
    app = make_app((1280, 720))
    screen = _open(app, _mid_battle("frontier", steps=0))
    screen.handover = False
    cam = screen.view.camera
    cam.zoom = 2.0
    cam.center_y = cam.bounds[1] + cam.bounds[3] / 2
    before = cam.center_y
    press(app, pygame.K_DOWN)  # pressed and let go within one frame
    assert cam.center_y > before


@pytest.mark.parametrize("size", [(1280, 720), (1280, 800)])
@pytest.mark.parametrize("map_path", shipped_maps(), ids=lambda p: p.stem)
def test_zooming_out_fits_every_shipped_map(
    make_app: Callable[..., App], size: tuple[int, int], map_path: Path
) -> None:
    app = make_app(size)
    screen = _open(app, BattleSession(demo_match("rift", map_path, seed=1), None), 1.5)
    screen.handover = False
    area = screen.layout.map
    move(area.center)
    for _ in range(60):
        post(pygame.MOUSEWHEEL, x=0, y=-1, precise_x=0.0, precise_y=-1.0, flipped=False)
    step(app)
    tmap = screen.tmap
    w, h = tmap.geometry.map_pixel_size(tmap.width, tmap.height)
    zoom = screen.view.camera.zoom
    assert w * zoom <= area.width and h * zoom <= area.height, (map_path.stem, zoom)
