"""`hexslinger balance ENCOUNTER`: one real (tiny) run with the encounter's own AI writes the report and
prints the same numbers as JSON; bad input (a missing or broken encounter, a bad --games or --workers, an
--out that cannot be written) is a clear message and exit status 2 (docs/GM.md "Balance reports")."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from game.cli import main
from game.posses import DATA_ENV
from game.progress import ProgressBar

ROOT = Path(__file__).resolve().parents[1]
RANCH = ROOT / "encounters" / "frontier_ranch_house.toml"


@pytest.fixture(autouse=True)
def own_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "data"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exit_:  # argparse's own refusals
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_a_tiny_run_writes_the_report_and_prints_its_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "reports" / "new"  # made if missing
    argv = ["balance", str(RANCH), "--games", "2", "--sensitivity-games", "0", "--out", str(out_dir)]
    code, out, err = run([*argv, "--json"], capsys)
    assert code == 0, err
    assert err == ""  # no progress bar when stderr is not a terminal
    n = json.loads(out)
    assert n["games"] == 2 and n["controllers"] == {"side1": "ai:normal", "side2": "ai:normal"}
    assert n["players"] == ["side1"] and not n["swap"]
    page = (out_dir / "frontier_ranch_house-balance.html").read_text(encoding="utf-8")
    assert f'data-json="verdict">{n["verdict"].replace("&", "&amp;").replace(chr(39), "&#x27;")}</p>' in page
    rate = n["win_rate"]["side1"]["rate"]
    assert f'data-json="win_rate.side1.rate" data-value="{rate}">{100 * rate:.0f}%</td>' in page
    assert "Not run (--sensitivity-games 0)" in page
    assert len(re.findall(r'src="data:image/png;base64,', page)) == 6
    assert "drawn without the map" not in page  # the heatmap lies over the rendered map

    code, out, err = run(argv, capsys)  # without --json: the verdict and where the report is
    assert code == 0 and out.splitlines()[0] == n["verdict"]
    assert f"wrote {out_dir / 'frontier_ranch_house-balance.html'}" in out


def test_a_missing_encounter_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["balance", str(tmp_path / "nope.toml")], capsys)
    assert code == 2 and out == ""
    assert "there is no encounter file" in err and "Traceback" not in err


def test_a_broken_encounter_shows_check_encounters_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        RANCH.read_text(encoding="utf-8")
        .replace('map = "ranch_duel"', 'map = "nowhere"')
        .replace("rounds = 8", 'rounds = "eight"'),
        encoding="utf-8",
    )
    code, _, err = run(["balance", str(bad), "--out", str(tmp_path)], capsys)
    assert code == 2
    assert "cannot be played (2 problems)" in err
    assert "[map] there is no shipped map called 'nowhere'" in err
    assert "[rounds] 'rounds' must be a whole number" in err
    assert not list(tmp_path.glob("*.html"))


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--games", "0"], "0 games is out of range"),
        (["--games", "many"], "'many' is not a whole number"),
        (["--sensitivity-games", "-1"], "out of range"),
        (["--workers", "99"], "99 workers: use 1 to"),
        (["--workers", "0"], "0 workers: use 1 to"),
        (["--seed", "-3"], "the seed must be 0 or more"),
    ],
)
def test_bad_numbers_are_exit_2(args: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["balance", str(RANCH), *args], capsys)
    assert code == 2 and words in err


def test_an_out_that_cannot_be_written_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a_file = tmp_path / "report.html"
    a_file.write_text("", encoding="utf-8")
    code, _, err = run(["balance", str(RANCH), "--out", str(a_file)], capsys)
    assert code == 2 and "is a file, not a folder" in err
    code, _, err = run(["balance", str(RANCH), "--out", str(a_file / "inside")], capsys)
    assert code == 2 and "cannot write to --out" in err and "Traceback" not in err


def test_the_progress_bar_is_drawn_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Tty()
    monkeypatch.setattr("sys.stderr", screen)
    bar = ProgressBar(4)
    bar.step("the encounter")
    bar.step("the encounter")
    bar.close()
    assert "\r[############............] 2/4 games  the encounter" in screen.getvalue()
    assert screen.getvalue().endswith("\n")
