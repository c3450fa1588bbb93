"""The `hexslinger` command: clear messages for every user mistake, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from game import cli

ROOT = Path(__file__).resolve().parent.parent


def run_cli(
    *args: str, env_update: dict[str, str] | None = None, drop: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(env_update or {})
    return subprocess.run(
        [sys.executable, "-m", "game", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


def test_help_lists_the_subcommands() -> None:
    result = run_cli("--help")
    assert result.returncode == 0
    for command in ("play", "check-map", "render-map"):
        assert command in result.stdout


def test_unknown_subcommand_is_a_usage_error() -> None:
    result = run_cli("fly")
    assert result.returncode == 2
    assert "invalid choice: 'fly'" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_window_size_says_how_to_write_it() -> None:
    result = run_cli("play", "--size", "big")
    assert result.returncode == 2
    assert "WIDTHxHEIGHT" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_frame_count_is_rejected() -> None:
    result = run_cli("play", "--frames", "0")
    assert result.returncode == 2
    assert "must be 1 or more" in result.stderr


def test_play_without_a_display_says_so_in_one_line() -> None:
    result = run_cli("play", drop=("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"))
    assert result.returncode == cli.EXIT_NO_DISPLAY
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "no display found" in lines[0]
    assert "SDL_VIDEODRIVER=dummy" in lines[0]


@pytest.mark.parametrize("text", ["1280x720", "640X480"])
def test_size_parser_accepts_sizes(text: str) -> None:
    w, h = cli._size(text)
    assert f"{w}x{h}" == text.lower()


def test_make_play_without_a_display_prints_one_line() -> None:
    """`make play` on a machine with no display: one clear line, not make's own error noise."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    venv_bin = ROOT / ".venv" / "bin" / "hexslinger"
    if not venv_bin.exists():
        pytest.skip("make play needs the project's .venv (made by make test / make play)")
    result = subprocess.run(
        ["make", "-s", "play"], cwd=ROOT, capture_output=True, text=True, timeout=600, env=env, check=False
    )
    assert result.returncode == 0, result.stderr
    output = (result.stdout + result.stderr).strip().splitlines()
    assert [line for line in output if "no display found" in line] == output[-1:]
    assert "Error" not in result.stderr


def test_maps_lists_the_shipped_maps_by_name_title_and_file() -> None:
    from game.resources import maps_dir

    result = run_cli("maps")
    assert result.returncode == 0, result.stderr
    rows = [line.split() for line in result.stdout.splitlines()]
    assert [row[0] for row in rows] == ["canyon_railyard", "frontier_town", "ranch_duel"]
    assert "Showdown at the Lazy K" in result.stdout
    assert all(row[-1] == str(maps_dir() / f"{row[0]}.tmx") for row in rows)


def test_check_map_without_a_map_checks_every_shipped_map() -> None:
    result = run_cli("check-map")
    assert result.returncode == 0, result.stdout + result.stderr
    checked = sorted(Path(line.split(": ")[0]).name for line in result.stdout.splitlines())
    assert checked == sorted(p.name for p in (ROOT / "maps").glob("*.tmx"))
    assert all(line.endswith(": OK") for line in result.stdout.splitlines())


def test_a_shipped_map_is_found_by_its_name_from_any_directory(tmp_path: Path) -> None:
    """Installed from a wheel, the maps live inside the package: `check-map ranch_duel` finds them; a
    file of that name in the working directory comes first, and an unknown name is a missing file."""
    result = subprocess.run(
        [sys.executable, "-m", "game", "check-map", "ranch_duel", "frontier_town.tmx", "no_such_map"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 1
    assert f"{ROOT / 'maps' / 'ranch_duel.tmx'}: OK" in result.stdout
    assert f"{ROOT / 'maps' / 'frontier_town.tmx'}: OK" in result.stdout
    assert "no_such_map: the map file does not exist" in result.stdout
    assert "Traceback" not in result.stderr
    (tmp_path / "ranch_duel").write_text("not a map", encoding="utf-8")
    local = subprocess.run(
        [sys.executable, "-m", "game", "check-map", "ranch_duel"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert local.returncode == 1 and local.stdout.startswith("ranch_duel: 1 problem")
