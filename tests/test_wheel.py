"""The wheel holds every file the game reads: each tracked file of game/, ai/, assets/, maps/ and
encounters/, the data folders installed as game/assets, game/maps and game/encounters (see
game/resources.py), and nothing else.

Found when the game was first installed from a wheel: the rules' .toml files and the top-level assets/
and maps/ were left out, and every battle died with FileNotFoundError. The editable install the tests
use cannot show that; this test builds the real wheel (``python -m build``: the sdist, then the wheel
from it, as tools/wheel_smoke.sh does before running the installed game).
"""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGED = ("game", "ai", "assets", "maps", "encounters")
INSTALLED_AS = {"assets": "game/assets", "maps": "game/maps", "encounters": "game/encounters"}


def _source_files() -> list[str]:
    """The checkout's files of the packaged folders: tracked, or new and not ignored."""
    return _tracked(*PACKAGED)


def _tracked(*paths: str) -> list[str]:
    try:
        out = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", *paths],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError) as error:
        pytest.skip(f"needs a git checkout to list the source files ({error})")
    return [line for line in out.stdout.splitlines() if line and (ROOT / line).is_file()]


def _installed_name(path: str) -> str:
    top, _, rest = path.partition("/")
    return f"{INSTALLED_AS[top]}/{rest}" if top in INSTALLED_AS else path


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    """Built from a clean copy of the sources: in the checkout, the SOURCES.txt of an earlier build (in
    hexslinger.egg-info) would slip files into the wheel that a fresh clone's wheel leaves out."""
    src = tmp_path_factory.mktemp("src")
    for name in [*_source_files(), *_tracked("pyproject.toml", "README.md")]:
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, src / name)
    out = tmp_path_factory.mktemp("dist")
    result = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(src)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    (found,) = out.glob("*.whl")
    return zipfile.ZipFile(found)


@pytest.mark.slow
def test_the_wheel_holds_every_source_and_data_file_and_nothing_else(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    sources = _source_files()
    expected = {_installed_name(p) for p in sources}
    # the data the game reads at run time are among them (the files a wheel once left out)
    for data in (
        "game/rules/frontier/frontier.toml",
        "game/rules/rift/rift.toml",
        "game/assets/ui/theme.json",
        "game/assets/tokens/tokens.json",
        "game/assets/fonts/DejaVuSerif.ttf",
        "game/assets/fonts/LICENSE",
        "game/maps/ranch_duel.tmx",
        "game/maps/terrain_pointy.tsx",
        "game/maps/extensions/hexslinger.js",  # the Tiled extension (issue 15, live maps)
        "game/assets/tiles/terrain_pointy.png",
        "game/encounters/frontier_bank_job.toml",
    ):
        assert data in expected
    missing = sorted(expected - names)
    assert not missing, f"left out of the wheel: {missing}"
    extra = sorted(n for n in names - expected if not n.split("/", 1)[0].endswith(".dist-info"))
    assert not extra, f"in the wheel but not in the checkout: {extra}"


@pytest.mark.slow
def test_the_wheel_installs_the_hexslinger_command_and_records_every_file(wheel: zipfile.ZipFile) -> None:
    (entry_points,) = [n for n in wheel.namelist() if n.endswith(".dist-info/entry_points.txt")]
    assert "hexslinger = game.cli:main" in wheel.read(entry_points).decode("utf-8")
    (record,) = [n for n in wheel.namelist() if n.endswith(".dist-info/RECORD")]
    rows = list(csv.reader(io.StringIO(wheel.read(record).decode("utf-8"))))
    assert {row[0] for row in rows} == set(wheel.namelist())
