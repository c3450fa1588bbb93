"""Saves: header + command log, atomic writes, replay to the same digest, and every bad-save case."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.engine.match import Match
from game.save import SaveError, load_match, read_save, save_match, write_save
from tests.plugins import installed_plugin
from tests.test_match import RANCH, deploy_all, play_shots, posses
from tests.toy_ruleset import RULESET as TOY

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def plugin_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("toy-plugin")


@pytest.fixture(autouse=True)
def toy_registered(plugin_dir: Path) -> Iterator[None]:
    """The toy ruleset installed as a plugin (an entry point in hexslinger.rulesets)."""
    with installed_plugin(plugin_dir, "toy", "tests.toy_ruleset:PLUGIN"):
        yield


@pytest.fixture
def saved(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A match saved mid-encounter on a private copy of the ranch map; yields (save path, digest)."""
    maps = tmp_path / "maps"
    maps.mkdir()
    for f in (ROOT / "maps").glob("*.tsx"):
        shutil.copy(f, maps)
    shutil.copy(RANCH, maps)
    (tmp_path / "assets").symlink_to(ROOT / "assets")
    with Match.create(maps / "ranch_duel.tmx", TOY, posses(), seed=11) as m:
        deploy_all(m)
        play_shots(m, 1)  # one shot cannot end it: two units a side
        assert not m.is_over
        path = tmp_path / "game.json"
        save_match(m, path, name="mid-fight")
        yield path, m.digest()


def test_a_save_replays_to_the_same_digest(saved: tuple[Path, str]) -> None:
    path, digest = saved
    match, data = load_match(path)
    try:
        assert match.digest() == digest
        assert data.name == "mid-fight"
        assert data.ruleset == "toy"
        assert len(data.commands) == len(match.log)
        # the replayed match plays on exactly like the original would
        assert match.validate(match.legal_actions()[-1].command()) is None
    finally:
        match.close()


def test_the_save_is_json_with_a_versioned_header(saved: tuple[Path, str]) -> None:
    doc = json.loads(saved[0].read_text(encoding="utf-8"))
    assert doc["format"] == "hexslinger-save"
    assert doc["version"] == 3
    assert set(doc) >= {"ruleset", "map", "seed", "posses", "seats", "commands", "digest"}
    assert doc["seats"] == {"side1": "human", "side2": "human"}  # nobody said otherwise
    assert len(doc["map"]["sha256"]) == 64


def test_writing_is_atomic_and_leaves_no_temporary_files(
    saved: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crash while writing (here: the disk sync fails) leaves the previous save whole."""
    path, _ = saved
    before = path.read_bytes()

    def failing_sync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", failing_sync)
    with pytest.raises(OSError, match="No space"):
        write_save(path, {"format": "hexslinger-save", "version": 1, "junk": "x" * 1000})
    assert path.read_bytes() == before
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


def corrupt(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    ("mangle", "what"),
    [
        (lambda t: t[: len(t) // 2], "cut off"),
        (lambda t: "", "empty"),
        (lambda t: "not json at all {", "not valid JSON"),
        (lambda t: json.dumps({"format": "something-else"}), "not a Hexslinger save"),
        (lambda t: t.replace('"version": 3', '"version": 99'), "newer than this Hexslinger"),
        (lambda t: t.replace('"version": 3', '"version": "one"'), "wrong type"),
        (lambda t: t.replace('"ruleset": "toy"', '"ruleset": "chess"'), "ruleset 'chess'"),
        (lambda t: t.replace('"commands": [', '"commands": [{"action": 5}, '), "malformed"),
        (lambda t: t.replace('"action": "shoot"', '"action": "teleport"', 1), "not legal on replay"),
        (lambda t: t.replace('"seed": 11', '"seed": 12'), "digest mismatch"),
    ],
)
def test_a_bad_save_gets_a_clear_message_and_nothing_is_overwritten(
    saved: tuple[Path, str], mangle: object, what: str
) -> None:
    path, _ = saved
    assert callable(mangle)
    corrupt(path, mangle(path.read_text(encoding="utf-8")))
    before = path.read_bytes()
    with pytest.raises(SaveError) as caught:
        load_match(path)
    assert what in caught.value.what
    assert caught.value.fix
    assert path.read_bytes() == before


def test_a_changed_map_is_reported(saved: tuple[Path, str]) -> None:
    path, _ = saved
    tmx = path.parent / "maps" / "ranch_duel.tmx"
    tmx.write_text(tmx.read_text(encoding="utf-8").replace("Showdown", "Shootout"), encoding="utf-8")
    with pytest.raises(SaveError, match="has changed since the game was saved"):
        load_match(path)


def test_a_missing_map_is_reported(saved: tuple[Path, str]) -> None:
    path, _ = saved
    (path.parent / "maps" / "ranch_duel.tmx").unlink()
    with pytest.raises(SaveError, match="cannot be loaded"):
        load_match(path)


def test_a_missing_save_is_reported(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="does not exist"):
        read_save(tmp_path / "nope.json")


def run_replay(*args: str) -> subprocess.CompletedProcess[str]:
    code = "import sys; from game.cli import main; raise SystemExit(main(sys.argv[1:]))"
    plugins = [p for p in sys.path if Path(p, "hexslinger_test_plugin-1.0.dist-info").is_dir()]
    return subprocess.run(
        [sys.executable, "-c", code, "replay", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *plugins])},
        check=False,
    )


def test_replay_verify_reports_the_digest_check(saved: tuple[Path, str]) -> None:
    path, digest = saved
    ok = run_replay(str(path), "--verify")
    assert ok.returncode == 0, ok.stderr
    assert f"replayed digest {digest}" in ok.stdout
    assert "OK: the replay reaches the saved state" in ok.stdout
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["digest"] = "0" * 64
    path.write_text(json.dumps(doc), encoding="utf-8")
    bad = run_replay(str(path), "--verify")
    assert bad.returncode == 1
    assert "MISMATCH" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_replay_of_a_broken_save_says_what_is_wrong(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "hexslinger-save", "version": 1', encoding="utf-8")
    result = run_replay(str(broken), "--verify")
    assert result.returncode == 1
    assert "cut off" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_save_notes_how_far_the_battle_went_for_listings_only(saved: tuple[Path, str]) -> None:
    """The Load screen tells autosaves apart by the round reached and whether the battle is over, read
    without replaying; a save without that note (written before it) or with a wrong one still loads."""
    path, digest = saved
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["progress"]["over"] is False and doc["progress"]["round"] >= 0
    data = read_save(path)
    assert (data.round, data.over) == (doc["progress"]["round"], False)
    for progress in (None, "round 3", {"round": "3", "over": "yes"}, {"round": True}):
        if progress is None:
            del doc["progress"]
        else:
            doc["progress"] = progress
        path.write_text(json.dumps(doc), encoding="utf-8")
        data = read_save(path)
        assert (data.round, data.over) == (0, False), progress
        match, _ = load_match(path)
        assert match.digest() == digest
        match.close()


def test_a_version_1_save_loads_when_its_commands_replay_legally(saved: tuple[Path, str]) -> None:
    """Saves made before the rules engine (format version 1) laid the state out differently: their digest
    cannot be compared, so they load when every command replays legally, and `replay --verify` says so."""
    path, digest = saved
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["version"] = 1
    doc["digest"] = "0" * 64  # what an old layout's digest looks like to today's code: no match
    path.write_text(json.dumps(doc), encoding="utf-8")
    match, data = load_match(path)
    try:
        assert not data.digest_comparable
        assert match.digest() == digest  # the same game, replayed under today's rules
    finally:
        match.close()
    old = run_replay(str(path), "--verify")
    assert old.returncode == 0, old.stderr
    assert "format version 1" in old.stdout and "replayed legally" in old.stdout
    doc["commands"][-1]["action"] = "teleport"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(SaveError, match="not legal on replay"):
        load_match(path)


def test_version_3_records_who_plays_each_side(tmp_path: Path, saved: tuple[Path, str]) -> None:
    """Issue 12, solo play: "Saves record each side's controller and profile (save version +1, older
    saves still load)": the seats written are the seats read, and the digest is untouched by them."""
    path, digest = saved
    match, _ = load_match(path)
    try:
        again = tmp_path / "solo.json"
        save_match(match, again, name="solo", seats={"side2": "ai:hard"})
    finally:
        match.close()
    data = read_save(again)
    assert data.version == 3
    assert data.seats == {"side1": "human", "side2": "ai:hard"}
    replayed, _ = load_match(again)
    assert replayed.digest() == digest
    replayed.close()


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_save_loads_with_every_side_played_by_a_human(saved: tuple[Path, str], version: int) -> None:
    """A save from before the seats were recorded knows no computer players, whatever its posses' own
    controller field says."""
    path, _ = saved
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["version"] = version
    doc.pop("seats")
    doc["posses"][1]["controller"] = "ai"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert read_save(path).seats == {"side1": "human", "side2": "human"}


@pytest.mark.parametrize(
    ("seats", "what"),
    [
        ('["ai:normal"]', "'seats' in the save has the wrong type"),
        ('{"side9": "human"}', "a side no posse is on"),
        ('{"side2": 7}', "is not a name"),
    ],
)
def test_a_damaged_seats_entry_is_refused_with_its_reason(
    saved: tuple[Path, str], seats: str, what: str
) -> None:
    path, _ = saved
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["seats"] = json.loads(seats)
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(SaveError, match=what) as caught:
        read_save(path)
    assert "load an earlier save" in caught.value.fix
