"""Bounded reading (game/safeio.py): regular files only, capped reads, JSON within depth, size and number
caps; every refusal names the file and the limit, and nothing hangs or raises anything else."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import safeio
from game.safeio import (
    FileRefusedError,
    JsonLimits,
    load_json,
    nesting,
    parse_json,
    read_file,
    read_head,
    remove_stale_temp_files,
    write_atomic,
)

pytestmark = pytest.mark.skipif(os.name != "posix", reason="FIFOs and /dev are POSIX")


def refused(call: Any, *args: Any, **kwargs: Any) -> FileRefusedError:
    start = time.monotonic()
    with pytest.raises(FileRefusedError) as caught:
        call(*args, **kwargs)
    assert time.monotonic() - start < 5, "a refusal must be immediate"
    return caught.value


@pytest.mark.parametrize(
    ("make", "kind"),
    [
        (os.mkfifo, "pipe (FIFO)"),
        (lambda p: p.symlink_to("/dev/zero"), "device"),
        (lambda p: p.symlink_to("/dev/urandom"), "device"),
        (lambda p: p.mkdir(), "folder"),
    ],
)
def test_only_regular_files_are_read(tmp_path: Path, make: Any, kind: str) -> None:
    """A FIFO nobody writes to would hang an ordinary open or read; /dev/zero reports size 0 and never
    ends. Both are refused before a byte is read."""
    path = tmp_path / "save.json"
    make(path)
    error = refused(read_file, path, 1000, what="save")
    assert error.reason == "not_regular"
    assert kind in error.what and "not a regular file" in error.what
    assert str(path) in str(error)


def test_dev_stdin_is_refused_without_reading_it(tmp_path: Path) -> None:
    link = tmp_path / "stdin.json"
    link.symlink_to("/dev/stdin")
    r, w = os.pipe()  # a terminal-like stdin nobody types into
    saved = os.dup(0)
    os.dup2(r, 0)
    try:
        error = refused(read_file, link, 1000)
    finally:
        os.dup2(saved, 0)
        for fd in (r, w, saved):
            os.close(fd)
    assert error.reason == "not_regular"


def test_a_missing_file_and_an_unreadable_name(tmp_path: Path) -> None:
    assert refused(read_file, tmp_path / "nope.json", 10).reason == "missing"
    assert refused(read_file, tmp_path / ("x" * 400), 10).reason == "unreadable"  # name too long
    assert refused(read_file, str(tmp_path / "a\x00b"), 10).reason == "unreadable"


def test_reads_stop_at_the_limit_whatever_the_size_says(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b"x" * 5000)
    assert read_file(path, 5000) == b"x" * 5000
    error = refused(read_file, path, 4999, what="settings file")
    assert error.reason == "too_large" and "4999 bytes" in error.what
    assert read_head(path, 16) == b"x" * 16


def test_deep_nesting_is_refused_before_the_parser_recurses() -> None:
    for opener in (b"[", b'{"a":'):
        error = refused(parse_json, opener * 1_000_000, "deep.json", what="save")
        assert error.reason == "too_deep"
        assert "1000000 deep" in error.what and "limit of 64" in error.what
    assert parse_json(b"[" * 64 + b"]" * 64, "ok.json") is not None


@pytest.mark.parametrize("digits", [4301, 5000, 10000])
def test_huge_numbers_never_reach_int(digits: int) -> None:
    """Python refuses to turn more than 4,300 digits into an int with a ValueError; the parse_int hook
    refuses them first, with the limit named."""
    for text in (b"9" * digits, b'{"seed": -' + b"1" * digits + b"}", b"[1." + b"5" * digits + b"]"):
        error = refused(parse_json, text, "n.json", JsonLimits(max_digits=40), what="save")
        assert error.reason == "number_too_long"
        assert "characters" in error.what and "limit of 40" in error.what


@pytest.mark.parametrize("text", [b"NaN", b"[Infinity]", b'{"x": -Infinity}', b"1e999", b"[-1e400]"])
def test_numbers_that_are_not_finite_are_refused(text: bytes) -> None:
    assert refused(parse_json, text, "x.json").reason == "not_finite"


def test_other_damage_gets_its_own_reason() -> None:
    assert refused(parse_json, b"", "x").reason == "empty"
    assert refused(parse_json, b"  \n", "x").reason == "empty"
    assert refused(parse_json, b'{"a": [1, 2', "x").reason == "cut_off"
    assert refused(parse_json, b'{"a": "unfinished', "x").reason == "cut_off"
    assert refused(parse_json, b'{"a" 1}', "x").reason == "not_json"
    assert refused(parse_json, b"\xff\xfe{}", "x").reason == "not_text"
    assert refused(parse_json, b'["\\ud800"]', "x").reason == "bad_unicode"
    assert refused(parse_json, b"[" + b"[]," * 20 + b"[]]", "x", JsonLimits(max_containers=10)).reason == (
        "too_many_values"
    )
    assert parse_json(b'["\\ud83e\\udd20"]', "x") == ["\U0001f920"]  # a proper pair is fine
    assert parse_json(b'\xef\xbb\xbf{"a": 1}', "x") == {"a": 1}  # a byte-order mark is fine


def test_unicode_digits_are_text_not_numbers() -> None:
    """JSON numbers are ASCII: '\u2460' or '\u0661' can only be strings, which the engine checks exactly."""
    assert parse_json('{"option": "\u0661", "n": "\u2460"}'.encode(), "x") == {
        "option": "\u0661",
        "n": "\u2460",
    }
    assert refused(parse_json, '{"n": \u0661}'.encode(), "x").reason == "not_json"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='ab[]{}"\\,: \u00e9', max_size=6),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(alphabet='k[]{}"\\', max_size=4), children, max_size=4)
    ),
    max_leaves=30,
)


def _depth(value: Any) -> tuple[int, int]:
    if isinstance(value, list):
        inner = [_depth(v) for v in value]
        return 1 + max((d for d, _ in inner), default=0), 1 + sum(c for _, c in inner)
    if isinstance(value, dict):
        inner = [_depth(v) for v in value.values()]
        return 1 + max((d for d, _ in inner), default=0), 1 + sum(c for _, c in inner)
    return 0, 0


@settings(max_examples=300, deadline=None)
@given(value=json_values, indent=st.sampled_from([None, 1]), ascii_only=st.booleans())
def test_the_nesting_scan_agrees_with_the_parsed_value(
    value: Any, indent: int | None, ascii_only: bool
) -> None:
    """Brackets and quotes inside strings (escaped or not) never fool the scan."""
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only).encode()
    assert nesting(text) == _depth(value)


def test_the_scan_is_linear_on_escape_runs() -> None:
    """A regex for strings with escapes backtracks on an unterminated run of escaped quotes; the scan
    drops escape pairs with bytes.replace first."""
    text = b'"' + b'\\"' * 5_000_000
    start = time.perf_counter()
    assert nesting(text) == (0, 0)
    assert time.perf_counter() - start < 2.0
    assert refused(parse_json, text, "x", JsonLimits(max_bytes=1 << 25)).reason == "cut_off"


def test_load_json_reads_and_parses(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text('{"volume": 0.5}', encoding="utf-8")
    assert load_json(path, what="settings file") == {"volume": 0.5}
    path.write_text("[" * 100, encoding="utf-8")
    error = refused(load_json, path, what="settings file")
    assert str(path) in str(error) and "settings file" in error.what


def test_stale_temp_files_are_removed_and_nothing_else(tmp_path: Path) -> None:
    """Only our own temporary names (tempfile.mkstemp's '.name.XXXXXXXX.tmp'), only regular files, only
    when a minute old: a write under way is never touched."""
    old = time.time() - 120
    stale = tmp_path / ".game.json.ab12cd_9.tmp"
    fresh = tmp_path / ".game.json.zz99yy88.tmp"
    unrelated = [
        tmp_path / "game.json",
        tmp_path / "notes.tmp",
        tmp_path / ".game.json.tmp",
        tmp_path / ".x.toolong123.tmp",
    ]
    for p in [stale, fresh, *unrelated]:
        p.write_text("x")
        if p is not fresh:
            os.utime(p, (old, old))
    folder = tmp_path / ".dir.json.abcdefgh.tmp"
    folder.mkdir()
    os.utime(folder, (old, old))
    assert remove_stale_temp_files(tmp_path) == [stale]
    assert not stale.exists() and fresh.exists() and folder.exists()
    assert all(p.exists() for p in unrelated)
    assert remove_stale_temp_files(tmp_path / "missing") == []


def test_write_atomic_replaces_the_file_whole_or_leaves_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An atomic write replaces the file with the new bytes; one that fails half way (the disk refusing
    the sync) leaves the old file as it was and no temporary file behind."""
    target = tmp_path / "deep" / "save.json"
    write_atomic(target, b"old")  # the folder is made
    assert target.read_bytes() == b"old"
    write_atomic(target, b"new")
    assert target.read_bytes() == b"new"

    def refuse(fd: int) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(safeio.os, "fsync", refuse)
    with pytest.raises(OSError, match="disk full"):
        write_atomic(target, b"half")
    assert target.read_bytes() == b"new"
    assert sorted(p.name for p in target.parent.iterdir()) == ["save.json"]
