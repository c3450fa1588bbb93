"""`hexslinger play` without a map: the title screen, headless screenshots, the saved preferences."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from game.ui.app import App
from game.ui.newbattle import NewBattleScene
from game.ui.shell import build_title, valid_key_name
from tests.ui.helpers import click, make_shell, press, step

ROOT = Path(__file__).resolve().parents[2]


def play(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run(
        [sys.executable, "-m", "game", "play", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


def image_size(path: Path) -> tuple[int, int]:
    return pygame.image.load(str(path)).get_size()


def test_play_without_a_map_shows_the_title_screen(tmp_path: Path) -> None:
    shot = tmp_path / "title.png"
    result = play("--frames", "3", "--screenshot", str(shot))
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert image_size(shot) == (1280, 720)  # the default saved window size
    picture = pygame.image.load(str(shot))
    top = picture.get_at((640, 5))
    assert top.b > top.r  # a night-blue sky at the top, not a debug grey
    gold = [picture.get_at((x, 130)) for x in range(200, 1080, 4)]
    assert any(c.r > 200 and c.g > 150 and c.b < 150 for c in gold)  # the brass HEXSLINGER letters


def test_the_settings_screen_can_be_opened_for_a_screenshot(tmp_path: Path) -> None:
    shot = tmp_path / "settings.png"
    result = play("--screen", "settings", "--size", "800x600", "--frames", "2", "--screenshot", str(shot))
    assert result.returncode == 0, result.stderr
    assert image_size(shot) == (800, 600)
    centre = pygame.image.load(str(shot)).get_at((400, 300))
    assert centre.r > 200 and centre.g > 180  # parchment


def test_screen_with_a_map_is_a_usage_error() -> None:
    result = play("maps/ranch_duel.tmx", "--screen", "settings")
    assert result.returncode == 2
    assert "leave out the MAP" in result.stderr


def test_the_saved_window_size_is_used(config_dir: Path, tmp_path: Path) -> None:
    config_dir.mkdir()
    (config_dir / "settings.json").write_text(json.dumps({"window_size": [1024, 768]}))
    shot = tmp_path / "shot.png"
    assert play("--frames", "2", "--screenshot", str(shot)).returncode == 0
    assert image_size(shot) == (1024, 768)
    shot2 = tmp_path / "shot2.png"
    assert play("--size", "800x600", "--frames", "2", "--screenshot", str(shot2)).returncode == 0
    assert image_size(shot2) == (800, 600)  # --size wins


def test_a_broken_settings_file_is_reported_and_the_game_opens(config_dir: Path, tmp_path: Path) -> None:
    config_dir.mkdir()
    (config_dir / "settings.json").write_text("{oops")
    shot = tmp_path / "shot.png"
    result = play("--frames", "2", "--screenshot", str(shot))
    assert result.returncode == 0
    assert "not valid JSON" in result.stderr and "settings.json.bad" in result.stderr
    assert "Traceback" not in result.stderr
    assert (config_dir / "settings.json.bad").read_text() == "{oops"
    assert shot.exists()


@pytest.mark.skipif(os.name != "posix", reason="FIFOs and /dev are POSIX")
@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda p: p.symlink_to("/dev/zero"), "not a regular file"),
        (os.mkfifo, "not a regular file"),
        (lambda p: p.write_text('{"volume": ' + "9" * 5000 + "}"), "more than the limit of 40"),
        (lambda p: p.write_text("[" * 100000), "more than the limit of 16"),
    ],
)
def test_settings_that_would_hang_or_crash_start_up_give_a_message_and_the_defaults(
    config_dir: Path, tmp_path: Path, make: Callable[[Path], object], said: str
) -> None:
    """A link to /dev/zero was a MemoryError at start-up, a FIFO hung it, a 5,000-digit number and deep
    nesting were tracebacks."""
    config_dir.mkdir()
    make(config_dir / "settings.json")
    shot = tmp_path / "shot.png"
    result = play("--frames", "2", "--screenshot", str(shot))
    assert result.returncode == 0, result.stderr
    assert said in result.stderr and "Traceback" not in result.stderr
    assert image_size(shot) == (1280, 720)  # the default window size


def test_new_battle_opens_the_new_battle_screen_and_escape_comes_back(
    make_app: Callable[[tuple[int, int]], App],
) -> None:
    app = make_app((1280, 720))
    title = build_title(app, make_shell(app))
    app.push(title)
    step(app)
    assert title.buttons["new_battle"].is_enabled
    assert title.buttons["load"].is_enabled
    assert not title.buttons["continue"].is_enabled  # no autosave in the test's data folder
    click(app, title.buttons["new_battle"].rect.center)
    assert isinstance(app.top, NewBattleScene)
    press(app, pygame.K_ESCAPE)
    assert app.top is title
    assert app.running


def test_key_names_are_checked_against_pygame(make_app: Callable[[tuple[int, int]], App]) -> None:
    make_app((320, 240))
    assert valid_key_name("return") and valid_key_name("f1") and valid_key_name("=")
    assert not valid_key_name("not a key")


@pytest.mark.parametrize("screen", ["title", "settings", "newbattle", "load", "pause", "results"])
def test_run_shell_in_process(screen: str, tmp_path: Path) -> None:
    from game.ui.shell import run_shell

    shot = tmp_path / f"{screen}.png"
    assert run_shell((800, 600), frames=2, screenshot=shot, screen=screen) == 0  # type: ignore[arg-type]
    assert image_size(shot) == (800, 600)


@pytest.mark.parametrize("ruleset", ["frontier", "rift"])
def test_the_battle_screen_opens_on_a_deployed_demonstration_battle(
    ruleset: str, make_app: Callable[[tuple[int, int]], App], tmp_path: Path
) -> None:
    """``play --screen battle --ruleset R`` (the wheel smoke test's picture of each ruleset): the default
    posses of R on Showdown at the Lazy K, every unit on the map, nothing autosaved."""
    from game.ui.battle import BattleScreen
    from game.ui.flow import Flow
    from game.ui.shell import demo_screen

    app = make_app((1280, 720))
    shell = make_shell(app)
    screen = demo_screen(shell, Flow(shell), "battle", ruleset)
    assert isinstance(screen, BattleScreen)
    match = screen.session.match
    assert match.ruleset.name == ruleset
    assert match.map_path is not None and match.map_path.name == "ranch_duel.tmx"
    assert match.units() and all(match.position(u) is not None for u in match.units())
    assert screen.session.autosave_dir is None
    shot = tmp_path / "battle.png"
    result = play("--screen", "battle", "--ruleset", ruleset, "--frames", "3", "--screenshot", str(shot))
    assert result.returncode == 0, result.stderr
    assert image_size(shot) == (1280, 720)
