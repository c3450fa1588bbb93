"""GM mode in a battle (issue 15, "Sandbox"), driven by posted mouse and key events only: every edit lands
in the log as a command, survives save/load and replay (digest equal), illegal edits are refused with the
rules' reason, the odds bar fills from a small number of games, the computer takes over after edits."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from game.engine.match import Match
from game.events import GmEdit
from game.hexgrid import Hex, hex_distance
from game.save import load_match
from game.tiledmap import load_tiled_map
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.demo import DEMO_MAP, demo_match, deploy_all
from game.ui.gm_panel import GM_FRAME_COLOR
from game.ui.gui import Shell
from game.ui.prefs import Prefs
from game.ui.session import BattleSession, latest_autosave
from tests.ui import battle_driver as bd
from tests.ui.helpers import click, post, press, step


def _match(ruleset: str) -> Match:
    match = demo_match(ruleset)
    deploy_all(match)
    return match


def _screen(app: App, ruleset: str, tmp_path: Path, seats: dict[str, str] | None = None) -> BattleScreen:
    match = _match(ruleset)
    session = BattleSession(match, tmp_path / "autosaves", seats=dict(seats or {}))
    screen = BattleScreen(
        Shell(prefs=Prefs(animation_speed=4.0)), session, load_tiled_map(DEMO_MAP), app.size
    )
    screen.gm.sandbox.odds_workers = 1  # one worker process: the machine running the tests is shared
    app.push(screen)
    step(app, 2)
    bd.zoom_to_fit(app, screen)
    return screen


def _near(screen: BattleScreen, unit: int, good: Callable[[Hex], bool], radius: int = 4) -> Hex:
    """The nearest tile to ``unit`` that is ``good`` and in view (not under the GM panel)."""
    here = screen.match.position(unit)
    assert here is not None
    area = screen.layout.map
    panel = screen.gm.rect()
    for h in sorted(
        screen.match.battlefield.hexes_within(here, radius), key=lambda h: (hex_distance(h, here), h)
    ):
        pos = bd.hex_pos(screen, h)
        if h != here and good(h) and area.collidepoint(pos) and not panel.collidepoint(pos):
            return h
    raise AssertionError("no such tile near the unit")


def _free_near(screen: BattleScreen, unit: int) -> Hex:
    bf, taken = screen.match.battlefield, screen.match.occupied()
    return _near(screen, unit, lambda h: bf.is_passable(h) and h not in taken and not bf.door_at(h))


def _button(screen: BattleScreen, key: str) -> pygame.Rect:
    button = screen.gm.buttons[key]
    return pygame.Rect(button.get_abs_rect())


def _shot(app: App, folder: Path, name: str) -> Path:
    """A screenshot (into $HEXSLINGER_SHOTS when set, to look at), which must not be blank."""
    where = Path(os.environ.get("HEXSLINGER_SHOTS", folder))
    where.mkdir(parents=True, exist_ok=True)
    pygame.image.save(app.screen, str(where / name))
    assert len(set(pygame.transform.average_color(app.screen))) > 1
    return where / name


@pytest.mark.parametrize("ruleset", ["frontier", "rift", "golden"])
def test_gm_edits_by_clicks_are_logged_saved_and_replayed(
    make_app: Callable[..., App], tmp_path: Path, ruleset: str
) -> None:
    app = make_app((1280, 720))
    screen = _screen(app, ruleset, tmp_path)
    start = len(screen.match.log)
    press(app, pygame.K_g, frames=2)
    assert screen.gm.on and screen.gm.panel is not None
    # a player's command is refused while GM mode is on
    before = screen.match.digest()
    press(app, pygame.K_RETURN, frames=2)
    assert screen.match.digest() == before
    # move: click a token, then a free tile
    unit = screen.match.units()[0]
    there = _free_near(screen, unit)
    click(app, bd.hex_pos(screen, screen.match.position(unit) or there))
    assert screen.gm.sandbox.unit == unit
    click(app, bd.hex_pos(screen, there))
    assert screen.match.position(unit) == there
    # a value: the first number field one down, a flag switched
    fields = screen.match.gm_fields(unit)
    number = next(f for f in fields if not f.flag and f.value > f.low)
    click(app, _button(screen, f"minus:{number.key}").center)
    assert next(f for f in screen.match.gm_fields(unit) if f.key == number.key).value == number.value - 1
    flag = next(f for f in fields if f.flag and f.key != "crippled")
    click(app, _button(screen, f"flag:{flag.key}").center)
    assert next(f for f in screen.match.gm_fields(unit) if f.key == flag.key).value == 1 - flag.value
    assert screen.gm.buttons[f"flag:{flag.key}"].is_selected == bool(1 - flag.value)
    # cover: tool 4, click an open tile
    press(app, pygame.K_4)
    open_tile = _free_near(screen, unit)
    cover = int(screen.match.battlefield.terrain_at(open_tile).cover)
    click(app, bd.hex_pos(screen, open_tile))
    assert int(screen.match.battlefield.terrain_at(open_tile).cover) == (cover + 1) % 3
    # door: tool 3, click a door
    press(app, pygame.K_3)
    door = next(d for d in screen.match.battlefield.doors.values() if d.hex not in screen.match.occupied())
    was_open = door.is_open
    screen.centre_on_hexes((door.hex,))
    step(app, 2)
    click(app, bd.hex_pos(screen, door.hex))
    assert screen.match.battlefield.door_at(door.hex).is_open != was_open  # type: ignore[union-attr]
    # remove: tool 2, click a unit that is not acting
    press(app, pygame.K_2)
    acting = screen.session.legal()[0].actor
    gone = next(u for u in screen.match.units() if u not in (acting, unit))
    screen.centre_on(gone)
    step(app, 2)
    click(app, bd.hex_pos(screen, screen.match.position(gone) or there))
    assert gone not in screen.match.units()
    # put it back: its button in the panel's "Off the map" list, then a tile
    click(app, _button(screen, f"place:{gone}").center)
    assert screen.gm.sandbox.unit == gone and screen.gm.sandbox.tool == "move"
    back = _free_near(screen, unit)
    click(app, bd.hex_pos(screen, back))
    assert screen.match.position(gone) == back and gone in screen.match.units()
    # whose turn: tool 5, click a unit (Frontier: only in the Action phase, refused while cards are drawn)
    press(app, pygame.K_5)
    other = next(u for u in screen.match.units() if u != screen.session.legal()[0].actor)
    before = screen.match.digest()
    click(app, bd.hex_pos(screen, screen.match.position(other) or there))
    if ruleset == "frontier":
        assert screen.match.digest() == before and "Action phase" in screen.gm.sandbox.message
    else:
        assert screen.session.legal()[0].actor == other
    # an illegal edit: a unit moved onto a wall is refused with the reason, nothing changes
    press(app, pygame.K_1)
    screen.gm.sandbox.pick(unit)
    wall = _near(screen, unit, lambda h: not screen.match.battlefield.is_passable(h))
    before = screen.match.digest()
    click(app, bd.hex_pos(screen, wall))
    assert screen.match.digest() == before
    assert "no unit can stand on" in screen.gm.sandbox.message
    _shot(app, tmp_path, f"sandbox-{ruleset}.png")
    edits = screen.match.log[start:]
    count = 7 if ruleset == "frontier" else 8
    assert len(edits) == count and all(c.action.startswith("gm_") for c in edits)
    assert sum(isinstance(e, GmEdit) for e in screen.match.history) == count
    assert sum(line.kind == "gm" for line in screen.log) >= count
    # the autosave and a replay of it reach the same digest
    saved = latest_autosave(tmp_path / "autosaves")
    assert saved is not None
    loaded, _ = load_match(saved)
    assert loaded.digest() == screen.match.digest() and loaded.log == screen.match.log
    # undo takes the last edit back
    press(app, pygame.K_u, frames=2)
    assert len(screen.match.log) == start + count - 1
    press(app, pygame.K_g, frames=2)
    assert not screen.gm.on


def test_the_computer_takes_over_after_edits(make_app: Callable[..., App], tmp_path: Path) -> None:
    app = make_app((1280, 720))
    screen = _screen(app, "frontier", tmp_path)
    press(app, pygame.K_g, frames=2)
    start = len(screen.match.log)
    unit = screen.match.units()[-1]
    field = next(f for f in screen.match.gm_fields(unit) if f.key == "ap")
    screen.gm.sandbox.pick(unit)
    step(app, 2)
    click(app, _button(screen, f"plus:{field.key}").center)
    assert len(screen.match.log) == start + 1
    for side in screen.gm.sandbox.sides():
        click(app, _button(screen, f"seat:{side}").center)
    assert screen.session.spectating()
    assert screen.controller.pilot.paused  # nothing moves while GM mode is on
    step(app, 30)
    assert len(screen.match.log) == start + 1
    click(app, _button(screen, "hand_back").center)
    assert not screen.gm.on and not screen.controller.pilot.paused
    for _ in range(4000):
        step(app, 1, dt=0.5)
        if screen.session.outcome is not None:
            break
    assert screen.session.outcome is not None


def test_the_odds_bar_fills_and_a_change_cancels_it(make_app: Callable[..., App], tmp_path: Path) -> None:
    app = make_app((1280, 720))
    screen = _screen(app, "frontier", tmp_path)
    press(app, pygame.K_g, frames=2)
    sandbox = screen.gm.sandbox
    sandbox.odds_games = 4
    press(app, pygame.K_o, frames=2)
    assert sandbox.run is not None
    # the window stays responsive while the games are played: a frame well under a second
    longest = 0.0
    deadline = time.monotonic() + 240
    while not (odds := sandbox.odds()) or not odds.finished:
        begun = time.perf_counter()
        step(app)
        longest = max(longest, time.perf_counter() - begun)
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert odds.played + odds.failed == 4 and odds.failed == 0
    assert sum(odds.wins.values()) + odds.draws == 4
    p, low, high = odds.share("side1")
    assert low <= p <= high
    step(app, 2)
    _shot(app, tmp_path, "sandbox-odds.png")
    print(f"longest frame while the odds were played: {longest * 1000:.1f} ms")
    assert longest < 1.0, f"a frame took {longest:.2f} s while the odds were played"
    # a new run, then an edit: the run is cancelled and its tally kept as stale
    press(app, pygame.K_o, frames=2)
    unit = screen.match.units()[0]
    assert sandbox.set_field("ap", 1 if screen.match.gm_fields(unit)[2].value == 0 else 0)
    step(app, 2)
    assert sandbox.run is None and sandbox.stale is not None


def test_a_long_gm_message_wraps_in_the_banner_and_keeps_clear_of_the_panel(
    make_app: Callable[..., App], tmp_path: Path
) -> None:
    app = make_app((1280, 720))
    screen = _screen(app, "frontier", tmp_path)
    press(app, pygame.K_g, frames=2)
    gm = screen.gm
    short_room = gm.banner_room()
    assert len(gm.banner_rows()) == 1
    gm.sandbox.message = (
        "Outlaw 2 cannot be put there: the hex at 14,7 is a wall, and a unit stands only on open ground, "
        "in a doorway or on a crate's top; pick another hex or open the door first"
    )
    step(app, 2)
    rows = gm.banner_rows()
    face = gm._banner_font()
    room = gm.rect().left - screen.layout.map.x - screen.px(28)
    assert 2 <= len(rows) <= 3
    assert all(face.size(r)[0] <= room for r in rows)
    assert " ".join(rows).startswith("GM MODE \u2014 Outlaw 2 cannot be put there")
    assert gm.banner_room() > short_room
    _shot(app, tmp_path, "sandbox-long-message.png")
    # the banner is drawn in the frame's colour at the left of every row's height, not over the panel
    area = screen.layout.map
    top = area.bottom - gm.banner_room() + screen.px(6)
    assert app.screen.get_at((area.x + screen.px(12), top))[:3] == GM_FRAME_COLOR
    gm.sandbox.message = "word " * 400  # far more than three rows: the last one ends in an ellipsis
    rows = gm.banner_rows()
    assert len(rows) == 3 and rows[-1].endswith("\u2026")


def _drag(app: App, start: tuple[int, int], by: tuple[int, int], steps: int = 10) -> None:
    """Hold the middle button at ``start`` and drag the map by ``by`` screen pixels."""
    x, y = start
    post(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=2)
    step(app)
    for _ in range(steps):
        nx, ny = x + by[0] // steps, y + by[1] // steps
        post(pygame.MOUSEMOTION, pos=(nx, ny), rel=(nx - x, ny - y), buttons=(0, 1, 0))
        step(app)
        x, y = nx, ny
    post(pygame.MOUSEBUTTONUP, pos=(x, y), button=2)
    step(app, 2)


def test_in_gm_mode_the_map_edge_comes_out_from_under_the_panel(
    make_app: Callable[..., App], tmp_path: Path
) -> None:
    """Own polish: the GM panel covers the right of the map; the camera lets the map be dragged until its
    right and bottom edges are clear of the panel and the banner (before, they stayed under them)."""
    app = make_app((1280, 720))
    screen = _screen(app, "frontier", tmp_path)
    cam = screen.view.camera
    cam.zoom = 1.0
    cam.clamp()
    area = screen.layout.map
    centre = area.center
    _drag(app, centre, (-3000, -3000))  # as far right and down as the map goes, GM mode off
    bx, by, bw, bh = cam.bounds
    right_off, bottom_off = cam.map_to_screen(bx + bw, by + bh)
    assert right_off == pytest.approx(cam.view_w, abs=1) and bottom_off == pytest.approx(cam.view_h, abs=1)
    press(app, pygame.K_g, frames=2)
    gm = screen.gm
    _drag(app, (area.x + 100, area.y + 100), (-3000, -3000))
    right_on, bottom_on = cam.map_to_screen(bx + bw, by + bh)
    # the map's right edge at the panel's left, its bottom edge at the banner's top
    assert right_on == pytest.approx(gm.rect().left - area.x, abs=1)
    assert bottom_on == pytest.approx(cam.view_h - gm.banner_room(), abs=1)
    _shot(app, tmp_path, "sandbox-map-edge.png")
    press(app, pygame.K_g, frames=2)  # GM mode off: the view is kept on the map again
    assert cam.map_to_screen(bx + bw, by + bh) == (right_off, bottom_off)
