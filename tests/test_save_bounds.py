"""Saves under hostile input and hostile timing (issue 11): reading is bounded (the save and the map it names
are regular files within a size cap, the JSON within depth and number caps), ``hexslinger replay`` never
hangs, writes fsync the folder and clean up after killed writes, and a kill at any instant leaves the
previous save or the new one, never neither. The same for settings."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from game.save import SAVE_LIMITS, SaveError, load_match, read_save, save_match, write_save
from game.ui.prefs import Prefs, load_prefs, save_prefs
from tests.fuzz.corpus import ROOT, play

pytestmark = pytest.mark.skipif(os.name != "posix", reason="FIFOs, /dev and fork are POSIX")


@pytest.fixture(scope="module")
def rift_save(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Through the Rift save part-way through a random game on a copy of the ranch map."""
    folder = tmp_path_factory.mktemp("rift-save")
    maps = folder / "maps"
    maps.mkdir()
    for f in (ROOT / "maps").iterdir():
        if f.suffix in (".tmx", ".tsx"):
            (maps / f.name).write_bytes(f.read_bytes())
    (folder / "assets").symlink_to(ROOT / "assets")
    match = play(maps / "ranch_duel.tmx", "rift", 3, 40)
    try:
        save_match(match, folder / "game.json", name="rift")
    finally:
        match.close()
    return folder / "game.json"


def damaged(
    tmp_path: Path, seed: Path, change: Callable[[dict[str, Any]], Any] | None = None, text: str | None = None
) -> Path:
    doc = json.loads(seed.read_text(encoding="utf-8"))
    if change is not None:
        change(doc)
    path = tmp_path / "damaged.json"
    path.write_text(text if text is not None else json.dumps(doc), encoding="utf-8")
    return path


def refused(path: Path) -> SaveError:
    start = time.monotonic()
    with pytest.raises(SaveError) as caught:
        load_match(path)
    assert time.monotonic() - start < 10
    return caught.value


def set_map(value: str) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        doc["map"]["file"] = value

    return change


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/urandom", "FIFO", "/proc/self/fd/0"])
def test_a_save_whose_map_is_not_a_regular_file_is_refused_unread(
    tmp_path: Path, rift_save: Path, target: str
) -> None:
    """Reading /dev/zero as the map grew to 2.4 GB in 8 s; a FIFO or stdin never answered."""
    if target == "FIFO":
        target = str(tmp_path / "map.tmx")
        os.mkfifo(target)
    error = refused(damaged(tmp_path, rift_save, set_map(target)))
    assert "cannot be loaded" in error.what and "not a regular file" in error.what


def test_a_save_whose_map_path_is_absurdly_long_is_refused_at_once(tmp_path: Path, rift_save: Path) -> None:
    """The replay hang the fuzzer found: a damaged save repeated a piece of its map path into a 2 MB path
    of 100,000 folders, and Path.resolve() (looking up every prefix) is quadratic in it: minutes."""
    long_path = "/tmp/x" + "/corpus/maps/frontiain" * 100_000 + ".tmx"
    start = time.monotonic()
    with pytest.raises(SaveError, match="map path is 2200010 characters long, more than 4096"):
        read_save(damaged(tmp_path, rift_save, set_map(long_path)))
    for name in ("x" * 300 + ".tmx", "a\x00b.tmx", "\U0001f920" * 200, ""):
        refused(damaged(tmp_path, rift_save, set_map(name)))
    assert time.monotonic() - start < 10


def test_replay_of_a_save_naming_stdin_as_its_map_ends_at_once(tmp_path: Path, rift_save: Path) -> None:
    """`hexslinger replay` with a terminal-like stdin nobody types into."""
    path = damaged(tmp_path, rift_save, set_map("/dev/stdin"))
    code = "import sys; from game.cli import main; raise SystemExit(main(sys.argv[1:]))"
    result = subprocess.run(
        [sys.executable, "-c", code, "replay", str(path)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert "not a regular file" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ('{"format": "hexslinger-save", "version": ' + "[" * 100_000, "deep, more than the limit of 32"),
        (
            '{"format": "hexslinger-save", "version": 2, "seed": ' + "7" * 5000 + "}",
            "more than the limit of 40",
        ),
        ('{"format": "hexslinger-save", "version": 2, "seed": 1e999}', "not a finite number"),
        ('{"format": "hexslinger-save", "name": "\\ud800"}', "not valid Unicode"),
    ],
)
def test_hostile_json_gets_a_reason_naming_the_limit(tmp_path: Path, text: str, what: str) -> None:
    """Deep nesting was a RecursionError and 4,301+ digits a ValueError out of every load path."""
    path = tmp_path / "s.json"
    path.write_text(text, encoding="utf-8")
    assert what in refused(path).what


def test_a_save_that_is_a_fifo_or_a_device_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.json"
    zero.symlink_to("/dev/zero")
    for path in (fifo, zero, tmp_path):
        assert "not a regular file" in refused(path).what
    big = tmp_path / "big.json"
    with big.open("wb") as f:
        f.truncate(SAVE_LIMITS.max_bytes + 1)  # sparse: no 16 MB written
    assert "larger than 16 MB" in refused(big).what


@pytest.mark.parametrize(
    ("value", "what"),
    [("[" * 100_000, "nests more than 32 deep"), ('{"name": ' + "9" * 5000 + "}", "more than 40 digits")],
)
def test_json_inside_a_unit_option_is_bounded_too(
    tmp_path: Path, rift_save: Path, value: str, what: str
) -> None:
    """A Rifter's character travels as JSON text inside its unit's options; 100,000 brackets there were a
    RecursionError when the match was set up."""

    def change(doc: dict[str, Any]) -> None:
        for posse in doc["posses"]:
            for unit in posse["units"]:
                unit["options"] = [[k, value if k == "character" else v] for k, v in unit["options"]]

    assert what in refused(damaged(tmp_path, rift_save, change)).what


def test_the_folder_is_synced_after_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """fsync of the file makes its bytes durable, the folder's fsync the rename: without it a power cut
    can lose the newest save."""
    from game import safeio

    path = tmp_path / "game.json"
    seen: list[tuple[Path, bytes]] = []
    monkeypatch.setattr(safeio, "fsync_dir", lambda folder: seen.append((folder, path.read_bytes())))
    write_save(path, {"n": 1})
    assert seen == [(tmp_path, path.read_bytes())]  # after the rename: the new file is in place


def test_temp_files_of_killed_writes_are_cleaned_on_the_next_write(tmp_path: Path) -> None:
    old = time.time() - 3600
    left = [tmp_path / ".game.json.k1ll3d_0.tmp", tmp_path / ".other.json.abcdefgh.tmp"]
    for p in left:
        p.write_bytes(b"x" * 1000)
        os.utime(p, (old, old))
    young = tmp_path / ".game.json.wr1t1ng0.tmp"
    young.write_bytes(b"being written")
    mine = tmp_path / "notes.tmp"
    mine.write_text("not ours")
    write_save(tmp_path / "game.json", {"n": 1})
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [".game.json.wr1t1ng0.tmp", "game.json", "notes.tmp"]


def test_temp_files_are_cleaned_when_the_saves_are_listed(tmp_path: Path) -> None:
    from game.ui.library import list_saves

    saves, autosaves = tmp_path / "saves", tmp_path / "autosaves"
    for folder in (saves, autosaves):
        folder.mkdir()
        stale = folder / ".x.json.0123abcd.tmp"
        stale.write_text("x")
        os.utime(stale, (0, 0))
    assert list_saves(saves, autosaves) == []
    assert list(saves.iterdir()) == [] and list(autosaves.iterdir()) == []


# -- kill during save -------------------------------------------------------------------------------


def _document(n: int, rng: random.Random) -> dict[str, Any]:
    """Save number ``n``: big enough (up to ~1.5 MB) that a kill often lands inside the write."""
    return {"format": "test", "n": n, "padding": "x" * rng.randrange(1000, 1_500_000)}


def _writer(
    path: Path, write: Callable[[Path, int], None], start: int, ready: int
) -> None:  # pragma: no cover
    n = start
    while True:
        n += 1
        write(path, n)
        os.write(ready, n.to_bytes(4, "little"))


def _kill_during_writes(
    path: Path, write: Callable[[Path, int], None], read: Callable[[Path], int], kills: int, seed: int
) -> Iterator[tuple[int, int]]:
    """Fork a writer that writes ``path`` over and over (numbering on from what the file holds), SIGKILL
    it at a random instant, and yield (the last number the file held or a write reported done, the number
    now in the file) for each kill."""
    rng = random.Random(seed)
    for _ in range(kills):
        start = read(path)
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child only writes
            os.close(r)
            try:
                _writer(path, write, start, w)
            finally:
                os._exit(0)
        os.close(w)
        time.sleep(rng.uniform(0.0, 0.25))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        with os.fdopen(r, "rb") as pipe:
            data = pipe.read()
        reported = int.from_bytes(data[-4:], "little") if len(data) >= 4 else start
        yield reported, read(path)


def test_a_kill_at_any_instant_leaves_the_previous_save_or_the_new_one(tmp_path: Path) -> None:
    path = tmp_path / "saves" / "game.json"
    write_save(path, _document(0, random.Random(0)))

    def write(p: Path, n: int) -> None:
        write_save(p, _document(n, random.Random(n)))

    def read(p: Path) -> int:
        doc = json.loads(p.read_text(encoding="utf-8"))  # must be whole: any damage fails here
        assert doc["padding"] == _document(doc["n"], random.Random(doc["n"]))["padding"]
        return int(doc["n"])

    outcomes = list(_kill_during_writes(path, write, read, kills=40, seed=11))
    for reported, found in outcomes:
        # the last write reported done, or the one after it (renamed, killed before it could report)
        assert found in (reported, reported + 1), (reported, found)
    assert len({found for _, found in outcomes}) >= 20, outcomes  # the kills landed at many points
    leftovers = [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]
    assert leftovers, "some kills landed inside a write (each leaves its temp file)"
    # killed writes may leave temp files; they are removed once stale (here: made stale by hand)
    for p in leftovers:
        os.utime(p, (0, 0))
    write_save(path, {"format": "test", "n": -1})
    assert sorted(p.name for p in path.parent.iterdir()) == ["game.json"]


def test_a_kill_at_any_instant_leaves_the_previous_settings_or_the_new_ones(tmp_path: Path) -> None:
    path = tmp_path / "config" / "settings.json"
    save_prefs(Prefs(), path)  # 1280 x 720: "0" below

    def write(p: Path, n: int) -> None:
        save_prefs(Prefs(window_size=(2000 + n % 1000, 1000)), p)

    def read(p: Path) -> int:
        result = load_prefs(p)
        assert result.message is None, result.message  # never damaged, never moved aside
        width = result.prefs.window_size[0]
        return 0 if width == 1280 else width - 2000

    outcomes = list(_kill_during_writes(path, write, read, kills=30, seed=12))
    for reported, found in outcomes:
        assert found in (reported % 1000, (reported + 1) % 1000), (reported, found)
    assert len({found for _, found in outcomes}) >= 15, outcomes


def test_a_kill_at_any_instant_leaves_the_previous_posse_or_the_new_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Posses are written by ``save_posse`` (through ``write_save``): killed at random instants, the
    posse file holds the last posse written or the next one, and always reads back as a posse."""
    from game.posses import DATA_ENV, PosseDraft, posse_dir, read_posse_file, save_posse

    monkeypatch.setenv(DATA_ENV, str(tmp_path / "data"))

    def write(_: Path, n: int) -> None:
        draft = PosseDraft("frontier", faction="the_law", name="Kill Test")
        assert draft.add_unit("sheriff") is None
        assert draft.set_name(0, f"Sheriff {n}") is None
        save_posse(draft)

    write(tmp_path, 0)
    path = posse_dir("frontier") / "kill-test.json"

    def read(p: Path) -> int:
        return int(read_posse_file(p, "frontier").units[0].name.split()[-1])  # whole, or this raises

    outcomes = list(_kill_during_writes(path, write, read, kills=25, seed=13))
    for reported, found in outcomes:
        assert found in (reported, reported + 1), (reported, found)
    assert len({found for _, found in outcomes}) >= 12, outcomes
    assert sorted(p.name for p in path.parent.glob("*.json")) == ["kill-test.json"]


def test_a_kill_at_any_instant_leaves_the_previous_autosave_or_the_new_one(tmp_path: Path) -> None:
    """The autosave journal (``BattleSession.autosave``: ``save_match`` after every command) killed at
    random instants: the autosave is the last one written or the next, and it loads to its digest."""
    maps = tmp_path / "maps"
    maps.mkdir()
    for f in (ROOT / "maps").iterdir():
        if f.suffix in (".tmx", ".tsx"):
            (maps / f.name).write_bytes(f.read_bytes())
    match = play(maps / "ranch_duel.tmx", "rift", 5, 40)
    path = tmp_path / "autosaves" / "autosave-kill.json"

    def write(p: Path, n: int) -> None:
        save_match(match, p, name=f"Autosave {n}")

    write(path, 0)

    def read(p: Path) -> int:
        return int(read_save(p).name.split()[-1])  # whole, or this raises

    outcomes = list(_kill_during_writes(path, write, read, kills=25, seed=14))
    for reported, found in outcomes:
        assert found in (reported, reported + 1), (reported, found)
    assert len({found for _, found in outcomes}) >= 12, outcomes
    loaded, _ = load_match(path)  # the last one standing replays to its digest
    assert loaded.digest() == match.digest()
    loaded.close()
    match.close()
