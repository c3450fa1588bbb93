"""The Tiled extension shipped in maps/extensions/hexslinger.js (issue 15, live maps), run in node with a
stand-in for Tiled's scripting API (tests/tiled/stub_tiled.js) whose Process really runs the command: the
menu entries it adds, check-map's problems shown in Tiled's Issues panel, Play starting the game, and the
message when the command cannot be run. (It was also tried by hand in Tiled 1.8.2: docs/MAPS.md.)"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from game.mapcheck import check_map
from game.resources import maps_dir
from tests.test_livemap import copy_map

ROOT = Path(__file__).resolve().parent.parent
EXTENSION = ROOT / "maps" / "extensions" / "hexslinger.js"
STUB = ROOT / "tests" / "tiled" / "stub_tiled.js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs node to run the Tiled extension's JavaScript")


def run_extension(map_file: Path, action: str = "", *, command: str = "", modified: bool = False) -> Any:
    assert NODE is not None
    env = {**os.environ, "HEXSLINGER_COMMAND": command or f"{sys.executable} -m game"}
    args = [NODE, str(STUB), str(EXTENSION), str(map_file), action, "modified" if modified else ""]
    out = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120, check=True)
    return json.loads(out.stdout)


def test_the_extension_ships_with_the_maps() -> None:
    assert (maps_dir() / "extensions" / "hexslinger.js").is_file()
    project = json.loads((ROOT / "maps" / "hexslinger.tiled-project").read_text(encoding="utf-8"))
    assert project["extensionsPath"] == "extensions"  # opening the project loads it


def test_it_adds_check_and_play_to_the_map_menu(tmp_path: Path) -> None:
    record = run_extension(copy_map(tmp_path, "ranch_duel"))
    assert record["actions"] == {
        "HexslingerCheckMap": {"text": "Check in Hexslinger"},
        "HexslingerPlayMap": {"text": "Play in Hexslinger"},
    }
    assert record["menus"] == [
        {
            "menu": "Map",
            "items": [{"separator": True}, {"action": "HexslingerCheckMap"}, {"action": "HexslingerPlayMap"}],
        }
    ]


def test_check_on_a_good_map_says_so(tmp_path: Path) -> None:
    path = copy_map(tmp_path, "ranch_duel")
    record = run_extension(path, "HexslingerCheckMap")
    assert record["errors"] == []
    assert record["alerts"] == ["ranch_duel.tmx: no problems. Hexslinger can play it."]
    assert f"{path}: OK" in record["logs"][0]


def test_check_lists_check_maps_problems_in_the_issues_panel(tmp_path: Path) -> None:
    path = copy_map(tmp_path, "ranch_duel")
    text = path.read_text(encoding="utf-8")
    title = '<property name="title" value="Showdown at the Lazy K"/>'
    path.write_text(text.replace(title, title + '\n  <property name="weather" value="dusty"/>'), "utf-8")
    record = run_extension(path, "HexslingerCheckMap")
    expected = [f"Hexslinger: {str(p).replace(str(path), path.name)}" for p in check_map(path)]
    assert len(expected) == 1 and record["errors"] == expected
    assert "unknown map property 'weather'" in record["errors"][0]
    assert record["alerts"][0].startswith("ranch_duel.tmx: 1 problem.")


def test_an_unsaved_map_is_saved_before_it_is_checked(tmp_path: Path) -> None:
    record = run_extension(copy_map(tmp_path, "ranch_duel"), "HexslingerCheckMap", modified=True)
    assert record["triggered"] == ["Save"]


def test_play_starts_the_game_window_on_the_map(tmp_path: Path) -> None:
    path = copy_map(tmp_path, "ranch_duel")
    record = run_extension(path, "HexslingerPlayMap")
    assert record["started"] == [sys.executable, "-m", "game", "play", str(path)]
    assert record["alerts"] == []


def test_a_command_that_cannot_run_gets_a_message_saying_what_to_set(tmp_path: Path) -> None:
    record = run_extension(
        copy_map(tmp_path, "ranch_duel"), "HexslingerCheckMap", command="/no/such/hexslinger"
    )
    assert len(record["alerts"]) == 1
    assert "could not run '/no/such/hexslinger'" in record["alerts"][0]
    assert "HEXSLINGER_COMMAND" in record["alerts"][0]
