"""The autosave's journal (game/journal.py, issue 13): each command appended as one checked line beside the
autosave, the same few bytes at any length of game; loading replays the save and its journal and checks
the digests; a kill at any instant loses at most the command being written; a torn or damaged journal
gives a clear note and keeps every line before the damage (and the damaged file itself)."""

from __future__ import annotations

import hashlib
import os
import random
import signal
import time
from pathlib import Path

import pytest

from game.engine.match import Match
from game.hexgrid import hex_distance
from game.journal import DIGEST_EVERY, journal_path
from game.rules import get_ruleset
from game.save import SaveError, load_match, read_save
from game.ui.session import BattleSession, latest_autosave
from tests.rules import rift_kit as rk
from tests.test_match import RANCH


def _posses() -> list[object]:
    return [
        rk.rifters("side1", rk.rifter("deliberate", "Del"), rk.rifter("bold", "Bo")),
        rk.outlaws("side2", "outlaw_goon", "outlaw_goon", "gang_boss"),
    ]


def _session(folder: Path, seed: int = 3) -> BattleSession:
    match = Match.create(RANCH, get_ruleset("rift"), _posses(), seed)
    session = BattleSession(match, folder, battle_id="j")
    session.autosave()  # as a new battle starts: written whole
    return session


def _play(session: BattleSession, commands: int) -> None:
    for _ in range(commands):
        if session.match.is_over:
            return
        session.apply(rk.aggressive_command(session.match))


def _step(session: BattleSession) -> bool:
    """A one-tile move of the unit deciding, if it may make one; True when made."""
    match = session.match
    for a in session.legal():
        here = match.position(a.actor)
        if a.enabled and a.action == "move" and a.needs == "path" and here is not None:
            for h in sorted(a.hexes):
                path = a.path_to(h) if hex_distance(h, here) == 1 else None
                if path is not None:
                    session.apply(a.command(path=path))
                    return True
    return False


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_each_command_is_one_appended_line_and_the_save_is_not_rewritten(tmp_path: Path) -> None:
    session = _session(tmp_path)
    save = session.autosave_path()
    assert save is not None
    base = _sha(save)
    journal = journal_path(save)
    sizes = []
    for _ in range(60):
        before = journal.stat().st_size
        session.apply(rk.aggressive_command(session.match))
        sizes.append(journal.stat().st_size - before)
        assert session._journal is not None and session._journal.written == sizes[-1]
    assert _sha(save) == base  # the save itself untouched since the battle began
    # one line per command, a few hundred bytes whatever the length of the game (not the whole game)
    assert max(sizes) < 1_000, sizes
    assert max(sizes[40:]) < 2 * max(sizes[:20]), sizes
    assert len(journal.read_text(encoding="utf-8").splitlines()) == 1 + 60
    assert sum(1 for line in journal.read_text().splitlines() if '"digest"' in line) == 60 // DIGEST_EVERY


def test_the_journal_replays_to_the_same_game_with_undo_and_seats(tmp_path: Path) -> None:
    session = _session(tmp_path)
    _play(session, 25)
    # take a command back where the rules allow it (a one-tile move that rolled nothing)
    for _ in range(60):
        if _step(session) and session.undo_problem() is None:
            break
        session.apply(rk.aggressive_command(session.match))
    assert session.undo_problem() is None, "no undoable command came up"
    session.undo()
    _play(session, 5)
    session.seats["side2"] = "ai:easy"
    session.autosave()
    path = latest_autosave(tmp_path)
    assert path == session.autosave_path()
    match, data = load_match(path)
    assert list(match.log) == list(session.match.log)
    assert match.digest() == session.match.digest()
    assert data.seats["side2"] == "ai:easy" and data.journal_note == ""
    assert data.round == session.match.history[-1].round
    # Continue: the same battle, written whole again, and its next command appended to a fresh journal
    again = BattleSession.load(path, tmp_path)
    assert again.match.digest() == session.match.digest()
    assert len(journal_path(path).read_text().splitlines()) == 1
    _play(again, 3)
    assert load_match(path)[0].digest() == again.match.digest()


def _torn(path: Path, keep: int) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:keep])


def test_a_torn_tail_loses_only_the_command_being_written(tmp_path: Path) -> None:
    session = _session(tmp_path)
    _play(session, 12)
    path = session.autosave_path()
    assert path is not None
    journal = journal_path(path)
    whole = journal.read_bytes()
    lines = whole.split(b"\n")[:-1]
    last_start = len(whole) - len(lines[-1]) - 1
    full = load_match(path)[0].log
    for keep in sorted({last_start + 1, last_start + 5, (last_start + len(whole)) // 2, len(whole) - 1}):
        journal.write_bytes(whole)
        _torn(journal, keep)
        data = read_save(path)
        assert data.commands == full[:-1], keep
        assert "cut off" in data.journal_note
        match, _ = load_match(path)
        assert match.log == full[:-1]
    journal.write_bytes(whole)


def test_a_damaged_line_keeps_what_came_before_it_and_the_damaged_journal(tmp_path: Path) -> None:
    session = _session(tmp_path)
    _play(session, 12)
    path = session.autosave_path()
    assert path is not None
    journal = journal_path(path)
    whole = journal.read_bytes()
    full = load_match(path)[0].log
    lines = whole.split(b"\n")
    lines[5] = lines[5].replace(b'"round":', b'"round": ', 1)  # one byte more: its checksum no longer fits
    journal.write_bytes(b"\n".join(lines))
    data = read_save(path)
    assert data.commands == full[:4]  # the header, then entries 1-4
    assert "damaged at entry 5" in data.journal_note and ".damaged" in data.journal_note
    session2 = BattleSession.load(path, tmp_path)
    assert session2.match.log == full[:4]
    assert any("damaged" in note for note in session2.seat_notes)  # shown to the player
    kept = journal.with_name(journal.name + ".damaged")
    assert kept.read_bytes() == b"\n".join(lines)  # nothing of it lost
    assert len(journal.read_text().splitlines()) == 1  # a new journal after the autosave written whole


def test_a_damaged_header_leaves_the_save_as_written_whole(tmp_path: Path) -> None:
    session = _session(tmp_path)
    _play(session, 5)
    path = session.autosave_path()
    assert path is not None
    journal = journal_path(path)
    journal.write_bytes(b"garbage" + journal.read_bytes())
    data = read_save(path)
    assert data.commands == [] and "damaged at its start" in data.journal_note


def test_a_journal_of_an_older_save_is_not_applied(tmp_path: Path) -> None:
    """A crash between writing the save whole and starting its journal leaves the old journal beside a
    newer save: the save holds everything, the journal is ignored."""
    session = _session(tmp_path)
    _play(session, 6)
    path = session.autosave_path()
    assert path is not None
    old = journal_path(path).read_bytes()
    session._write_whole(path)
    journal_path(path).write_bytes(old)
    data = read_save(path)
    assert data.commands == list(session.match.log) and data.journal_note == ""


def test_a_journal_that_replays_to_another_state_is_refused(tmp_path: Path) -> None:
    session = _session(tmp_path)
    _play(session, DIGEST_EVERY + 2)
    path = session.autosave_path()
    assert path is not None
    journal = journal_path(path)
    text = journal.read_text()
    line = next(line for line in text.splitlines() if '"digest"' in line)
    digest = line.split('"digest":"')[1][:64]
    # the checksums are recomputed as a careful forger would: only the digest check can catch it
    from game import journal as jmod

    forged, previous = [], ""
    for raw in text.splitlines():
        body = jmod.json.loads(raw)
        body.pop("sum")
        if body.get("digest") == digest:
            body["digest"] = "0" * 64
        line_text, previous = jmod._line(body, previous)
        forged.append(line_text)
    journal.write_text("".join(forged))
    with pytest.raises(SaveError, match="digest mismatch after command"):
        load_match(path)


# -- a kill at any instant ------------------------------------------------------------------------------


def _player(folder: Path, ready: int) -> None:  # pragma: no cover - runs in the forked child
    """Play battle after battle into the same autosave (loading it first), reporting each command's
    number once its autosave returned."""
    path = folder / "autosave-j.json"
    session = BattleSession.load(path, folder)
    rng = random.Random(len(session.match.log))
    while True:
        if session.match.is_over:
            os._exit(0)
        if rng.random() < 0.2 and _step(session):
            if session.undo_problem() is None and rng.random() < 0.5:
                session.undo()  # killed before its autosave returns: the step is still there (+1)
        else:
            session.apply(rk.aggressive_command(session.match))
        os.write(ready, len(session.match.log).to_bytes(4, "little"))


def test_a_kill_at_any_instant_loses_at_most_the_last_command(tmp_path: Path) -> None:
    """A player process SIGKILLed at random instants (a new battle once one ends): every time, Continue
    loads, and holds the commands whose autosave had returned, or one more (the one being written)."""
    rng = random.Random(13)
    found_counts = []
    seed = 1
    _session(tmp_path, seed)
    for _ in range(24):
        path = tmp_path / "autosave-j.json"
        before = load_match(path)[0]
        if before.is_over:
            seed += 1
            _session(tmp_path, seed)
            before = load_match(path)[0]
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child only plays
            os.close(r)
            try:
                _player(tmp_path, w)
            finally:
                os._exit(0)
        os.close(w)
        time.sleep(rng.uniform(0.05, 0.4))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        with os.fdopen(r, "rb") as pipe:
            data = pipe.read()
        reported = int.from_bytes(data[-4:], "little") if len(data) >= 4 else len(before.log)
        match, saved = load_match(path)  # never a SaveError
        found = len(match.log)
        assert found in (reported, reported + 1), (reported, found, saved.journal_note)
        found_counts.append(found)
    assert len(set(found_counts)) >= 6, found_counts  # the kills landed at many points
