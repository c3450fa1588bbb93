"""`hexslinger simulate`: its arguments, its JSON summary, the files and charts of --out, exit statuses
(1 after an error game, 130 after Ctrl-C, 2 for a wrong argument, with the known ones listed)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ai.baselines import GreedyPlayer
from game.cli import main
from game.commands import Command
from game.engine.match import MatchView
from game.posses import DATA_ENV

FRONTIER = ["--ruleset", "frontier", "--posse1", "Sheriff's Posse", "--posse2", "Blackwater Gang"]
QUICK = ["ranch_duel", *FRONTIER, "--side1", "greedy", "--side2", "random", "--games", "2", "--seed", "5"]


@pytest.fixture(autouse=True)
def own_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No saved posse of the user's: only the built-in ones."""
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "data"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    yield


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exit_:  # argparse's own refusals
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_json_prints_one_summary_object(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["simulate", *QUICK, "--swap", "--json"], capsys)
    assert code == 0, err
    summary = json.loads(out)  # the whole of stdout is one object
    assert summary["games"] == 4
    assert set(summary["wins"]) == {"greedy", "random"} and set(summary["draws"]) == {"greedy", "random"}
    assert sum(summary["wins"].values()) + summary["draw_games"] == 4
    assert {"mean", "median"} <= set(summary["rounds"])
    assert {"median", "p95"} <= set(summary["decision_ms"]["greedy"])
    assert summary["posses"] == {"side1": "Sheriff's Posse", "side2": "Blackwater Gang"}
    assert "Traceback" not in err


def test_out_writes_games_summary_and_charts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "results" / "new"  # made if missing
    code, out, err = run(["simulate", *QUICK, "--out", str(out_dir)], capsys)
    assert code == 0, err
    lines = (out_dir / "games.jsonl").read_text().splitlines()
    assert [json.loads(line)["game"] for line in lines] == [0, 1]
    assert len((out_dir / "timings.jsonl").read_text().splitlines()) == 2
    summary = json.loads((out_dir / "summary.json").read_text())
    assert summary["games"] == 2 and summary["interrupted"] is False
    for name in ("map.png", "win_rates.png", "rounds.png", "survivors.png", "damage.png", "heatmap.png"):
        data = (out_dir / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000, name
    assert "won" in out and str(out_dir) in out  # the words on stdout say what was written


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"ranch_duel": "no_such_map"}, ["unknown map 'no_such_map'", "ranch_duel", "frontier_town"]),
        ({"Blackwater Gang": "Nobody"}, ["--posse2", "Nobody", "'Sheriff's Posse'", "'Blackwater Gang'"]),
        ({"random": "ai:godlike"}, ["--side2", "ai:godlike", "ai:normal", "greedy", "random"]),
        ({"greedy": "human"}, ["--side1", "human", "ai:easy"]),
    ],
)
def test_unknown_names_exit_2_listing_the_known_ones(
    change: dict[str, str], words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["simulate", *(change.get(a, a) for a in QUICK)]
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    for word in words:
        assert word in err
    assert "Traceback" not in err


def test_unknown_ruleset_exits_2_listing_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", *("chess" if a == "frontier" else a for a in QUICK)]
    code, _, err = run(argv, capsys)
    assert code == 2 and "chess" in err and "frontier" in err and "rift" in err


@pytest.mark.parametrize(
    ("flag", "value", "words"),
    [
        ("--games", "0", "must be 1 or more"),
        ("--games", "100001", "at most 100000"),
        ("--games", "many", "not a whole number"),
        ("--workers", "0", "must be 1 or more"),
        ("--workers", "999", "cores"),
        ("--seed", "-1", "0 or more"),
    ],
)
def test_numbers_out_of_range_are_refused(
    flag: str, value: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["simulate", *QUICK, flag, value], capsys)
    assert code == 2 and words in err and "Traceback" not in err


def test_an_out_folder_that_cannot_be_written_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    for out_dir in (blocker, blocker / "below"):
        code, out, err = run(["simulate", *QUICK, "--out", str(out_dir)], capsys)
        assert code == 2 and out == "" and "Traceback" not in err
        assert str(out_dir) in err and "folder" in err


class IllegalLater(GreedyPlayer):
    def decide(self, view: MatchView, index: int) -> Command:
        if index == 4:
            return Command("end_turn", actor=9999, side=view.side)
        return super().decide(view, index)


def test_an_error_game_exits_1_with_a_save_that_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("ai.controllers.GreedyPlayer", IllegalLater)
    out_dir = tmp_path / "out"
    code, out, err = run(["simulate", *QUICK, "--out", str(out_dir), "--json"], capsys)
    assert code == 1
    summary = json.loads(out)
    assert summary["games"] == 2 and len(summary["errors"]) == 2
    first = summary["errors"][0]
    assert first["message"].startswith("illegal command") and "seed" in first
    save = out_dir / first["save"]
    assert f"game 0 (seed {first['seed']})" in err and str(save) in err
    code, replay_out, _ = run(["replay", str(save), "--verify"], capsys)
    assert code == 0 and "OK: the replay reaches the saved state" in replay_out


def test_ctrl_c_in_process_exits_130_with_results_marked_interrupted(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = {"n": 0}
    decide = GreedyPlayer.decide

    def impatient(self: GreedyPlayer, view: MatchView, index: int) -> Command:
        calls["n"] += 1
        if calls["n"] == 80:  # some way into the second game or later
            raise KeyboardInterrupt
        return decide(self, view, index)

    monkeypatch.setattr(GreedyPlayer, "decide", impatient)
    code, out, err = run(["simulate", *QUICK, "--games", "20", "--json"], capsys)
    assert code == 130 and "interrupted after" in err
    summary = json.loads(out)
    assert summary["interrupted"] is True and 0 < summary["games"] < 20 and summary["planned"] == 20


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="needs process groups")
def test_ctrl_c_on_a_terminal_stops_the_workers_and_exits_130(tmp_path: Path) -> None:
    out_dir = tmp_path / "out"
    argv = [sys.executable, "-m", "game", "simulate", *QUICK, "--games", "500", "--workers", "2"]
    argv += ["--out", str(out_dir)]
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", DATA_ENV: str(tmp_path / "data")}
    proc = subprocess.Popen(
        argv, env=env, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    games = out_dir / "games.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (games.exists() and games.read_text().count("\n") >= 3):
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C does: the signal to the whole foreground group
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert b"Traceback" not in err
    summary = json.loads((out_dir / "summary.json").read_text())
    lines = games.read_text().splitlines()
    assert summary["interrupted"] is True and 3 <= summary["games"] == len(lines) < 500


def test_a_progress_bar_is_drawn_on_a_terminal_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run(["simulate", *QUICK, "--json"], capsys)
    assert code == 0 and "\r[" not in err  # stderr is no terminal here
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, out, err = run(["simulate", *QUICK, "--json"], capsys)
    assert code == 0 and json.loads(out)["games"] == 2
    assert "\r[" in err and "1/2 games" in err and "2/2 games" in err and err.endswith("\n")
