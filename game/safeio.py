"""Bounded reading of the files a user hands the game (saves, settings, posse files, AI profiles, maps,
tilesets; encounter files when they come: :func:`load_json` / :func:`load_toml` with their own limits).

Two things make reading a user's file dangerous: what the path names, and what the bytes hold.

* **Regular files only.** A path may name a FIFO, a terminal, ``/dev/zero``, ``/dev/stdin`` or a folder,
  each of which reports a size of 0 or none, and reading it either never ends or never returns.
  :func:`read_file` stats the path, opens it with ``O_NONBLOCK`` (so opening a FIFO cannot wait for a
  writer), checks again on the open descriptor that it is a regular file (``stat.S_ISREG``), then reads
  at most ``limit + 1`` bytes: the size the file reports is never trusted.
* **Bounded parsing.** :func:`parse_json` refuses, before ``json`` sees the text, nesting deeper than
  :attr:`JsonLimits.max_depth` (found by a linear scan, so a million ``[`` never reach the recursive
  parser) and more containers than :attr:`JsonLimits.max_containers`; while parsing, numbers longer than
  :attr:`JsonLimits.max_digits` (through ``json``'s ``parse_int`` / ``parse_float`` hooks, so a
  5,000-digit number never reaches ``int()`` and Python's 4,300-digit limit never raises), ``NaN`` and
  ``Infinity``; after, text that is not valid Unicode (lone surrogates written as ``\\ud800``). The size
  cap bounds the time: the scan and the parse are linear in the bytes.

Every refusal is a :class:`FileRefusedError` naming the file, what is wrong (with the limit) and what to
do. Writing helpers for atomic writes sit here too: :func:`fsync_dir` (make a rename durable) and
:func:`remove_stale_temp_files` (what killed writes left behind). This module imports nothing of the game,
so any loader can use it.
"""

from __future__ import annotations

import json
import operator
import os
import re
import stat
import tempfile
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Any, Final

__all__ = [
    "MAX_PATH_CHARS",
    "STALE_AFTER",
    "FileRefusedError",
    "JsonLimits",
    "fsync_dir",
    "load_json",
    "load_toml",
    "nesting",
    "parse_json",
    "parse_toml",
    "read_file",
    "read_head",
    "remove_stale_temp_files",
    "size_text",
    "temp_prefix",
    "writable_folder",
    "write_atomic",
]

# Longer names than any OS accepts (Linux PATH_MAX). A longer one is refused before pathlib sees it:
# Path.resolve() (os.path.realpath) joins and looks up every prefix of a path, which is quadratic in its
# length -- a 2 MB map path in a save took minutes to resolve.
MAX_PATH_CHARS: Final = 4096

_OPEN_FLAGS: Final = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
_CHUNK: Final = 1 << 20


class FileRefusedError(Exception):
    """A file the game will not read or parse.

    ``what`` says what is wrong (naming the limit when a limit was passed), ``fix`` what to do, ``reason``
    is a short key for callers that treat some cases apart: ``missing``, ``not_regular``, ``too_large``,
    ``unreadable``, ``empty``, ``not_text``, ``not_json``, ``cut_off`` (JSON that ends too soon),
    ``too_deep``, ``too_many_values``, ``number_too_long``, ``not_finite``, ``bad_unicode``, ``not_toml``.
    """

    def __init__(self, path: Path | str, what: str, fix: str, reason: str) -> None:
        self.path = Path(path)
        self.what = what
        self.fix = fix
        self.reason = reason
        super().__init__(f"{path}: {what} -- {fix}")


def size_text(n: int) -> str:
    """``16 MB``, ``64 KB``, ``100 bytes``: a limit as the messages name it."""
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20} MB"
    if n >= 1 << 10 and n % (1 << 10) == 0:
        return f"{n >> 10} KB"
    return f"{n} bytes"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _open_regular(path: Path, what: str) -> int:
    """An open descriptor on ``path`` if it is a regular file; FileRefusedError otherwise."""
    try:
        before = path.stat()
    except FileNotFoundError:
        raise FileRefusedError(path, f"the {what} does not exist", "check the path", "missing") from None
    except (OSError, ValueError) as error:
        raise _unreadable(path, what, error) from None
    if not stat.S_ISREG(before.st_mode):
        raise _not_regular(path, what, before.st_mode)
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise FileRefusedError(path, f"the {what} does not exist", "check the path", "missing") from None
    except (OSError, ValueError) as error:
        raise _unreadable(path, what, error) from None
    try:
        mode = os.fstat(fd).st_mode
    except OSError as error:
        os.close(fd)
        raise _unreadable(path, what, error) from None
    if not stat.S_ISREG(mode):  # swapped between the two looks
        os.close(fd)
        raise _not_regular(path, what, mode)
    return fd


def _not_regular(path: Path, what: str, mode: int) -> FileRefusedError:
    return FileRefusedError(
        path,
        f"the {what} is {_kind(mode)}, not a regular file, so it is not read",
        f"give the path of the {what} itself",
        "not_regular",
    )


def _unreadable(path: Path, what: str, error: BaseException) -> FileRefusedError:
    detail = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    what_wrong = f"the {what} cannot be read ({detail})"
    return FileRefusedError(path, what_wrong, "check its permissions", "unreadable")


def _read_at_most(fd: int, limit: int) -> bytes:
    parts: list[bytes] = []
    total = 0
    while total <= limit:
        try:
            part = os.read(fd, min(_CHUNK, limit + 1 - total))
        except BlockingIOError:  # pragma: no cover - a regular file never blocks
            break
        if not part:
            break
        parts.append(part)
        total += len(part)
    return b"".join(parts)


def read_file(path: str | Path, limit: int, *, what: str = "file") -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    ``what`` names the file in messages ("save", "settings file", "map file"). Raises
    :class:`FileRefusedError` (``missing``, ``not_regular``, ``unreadable``, ``too_large``) and nothing else.
    """
    path = Path(path)
    fd = _open_regular(path, what)
    try:
        data = _read_at_most(fd, limit)
    except OSError as error:
        raise _unreadable(path, what, error) from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise FileRefusedError(
            path,
            f"the {what} is larger than {size_text(limit)}, the most a {what} may be",
            f"check that this is a {what}",
            "too_large",
        )
    return data


def read_head(path: str | Path, count: int, *, what: str = "file") -> bytes:
    """The first ``count`` bytes of the regular file at ``path`` (an image header, say)."""
    path = Path(path)
    fd = _open_regular(path, what)
    try:
        return _read_at_most(fd, count - 1)[:count]
    except OSError as error:
        raise _unreadable(path, what, error) from None
    finally:
        os.close(fd)


# -- JSON ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class JsonLimits:
    """The caps :func:`parse_json` enforces; the defaults suit every Hexslinger file."""

    max_bytes: int = 16 * 1024 * 1024
    max_depth: int = 64  # objects and arrays inside each other (a save needs 6)
    max_containers: int = 1_000_000  # objects and arrays in all (each costs memory)
    max_digits: int = 100  # characters of one number, sign and exponent included


_STRING = re.compile(rb'"[^"]*"')
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))
_STEPS = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89abcdefABCDEF]")


def nesting(data: bytes) -> tuple[int, int]:
    """(deepest nesting, number of objects and arrays) of JSON text, without parsing it.

    Linear whatever the text: escaped backslashes and escaped quotes are dropped first (each run of
    backslashes loses its pairs, left to right, as JSON reads them), so every remaining quote delimits a
    string,
    then strings, then everything but brackets; the depth is the largest running sum of +1 per opening
    and -1 per closing bracket, computed by C-level iterators. On text that is not JSON the figures are
    meaningless but still bounded; ``json`` then says what is wrong."""
    unescaped = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    bare = _STRING.sub(b"", unescaped)
    marks = bare.translate(None, _NOT_BRACKETS)
    if not marks:
        return 0, 0
    steps = marks.translate(_STEPS)  # 2 for an opening bracket, 0 for a closing one
    # after the i-th mark (from 1) the depth is sum(step - 1) = prefix sum - i
    depth = max(map(operator.sub, accumulate(steps), range(1, len(steps) + 1)))
    containers = marks.count(b"[") + marks.count(b"{")
    return max(depth, 0), containers


class _NumberRefusedError(Exception):
    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason


def _hooks(limits: JsonLimits) -> dict[str, Any]:
    cap = limits.max_digits

    def parse_int(text: str) -> int:
        if len(text) > cap:
            raise _NumberRefusedError(text, "number_too_long")
        return int(text)

    def parse_float(text: str) -> float:
        if len(text) > cap:
            raise _NumberRefusedError(text, "number_too_long")
        value = float(text)
        if value in (float("inf"), float("-inf")):
            raise _NumberRefusedError(text, "not_finite")
        return value

    def parse_constant(text: str) -> float:
        raise _NumberRefusedError(text, "not_finite")

    return {"parse_int": parse_int, "parse_float": parse_float, "parse_constant": parse_constant}


def _strings(value: Any) -> Iterator[str]:
    """Every string in a parsed JSON value, keys included (iteratively: no recursion)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())


def _bounded_text(
    data: bytes, path: Path, limits: JsonLimits, what: str, *, encoding: str, tables: str, empty: bool
) -> str:
    """The checks JSON and TOML files share, before their parser sees them: the size, UTF-8 text (with
    ``empty``: not blank) and how deep and how many lists and ``tables`` (objects, tables) they nest."""
    damaged = f"the {what} is damaged or was edited by hand; replace it"
    if len(data) > limits.max_bytes:
        raise FileRefusedError(
            path,
            f"the {what} is larger than {size_text(limits.max_bytes)}, the most a {what} may be",
            f"check that this is a {what}",
            "too_large",
        )
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        raise FileRefusedError(
            path, f"the {what} is not UTF-8 text (byte {error.start})", damaged, "not_text"
        ) from None
    if empty and not text.strip():
        raise FileRefusedError(path, f"the {what} is empty", damaged, "empty")
    depth, containers = nesting(data)
    if depth > limits.max_depth:
        raise FileRefusedError(
            path,
            f"the {what} nests lists or {tables} {depth} deep, more than the limit of {limits.max_depth}",
            damaged,
            "too_deep",
        )
    if containers > limits.max_containers:
        raise FileRefusedError(
            path,
            f"the {what} holds {containers} lists and {tables}, more than the limit of "
            f"{limits.max_containers}",
            damaged,
            "too_many_values",
        )
    return text


def parse_json(data: bytes, path: str | Path, limits: JsonLimits | None = None, *, what: str = "file") -> Any:
    """The JSON value in ``data`` (the bytes of ``path``, UTF-8) within ``limits``, else FileRefusedError."""
    limits = limits or JsonLimits()
    path = Path(path)
    damaged = f"the {what} is damaged or was edited by hand; replace it"
    text = _bounded_text(data, path, limits, what, encoding="utf-8-sig", tables="objects", empty=True)
    try:
        value = json.loads(text, **_hooks(limits))
    except _NumberRefusedError as error:
        shown = error.text if len(error.text) <= 24 else f"{error.text[:12]}...({len(error.text)} characters)"
        what_wrong = (
            f"the {what} holds a number of {len(error.text)} characters ({shown}), more than the limit "
            f"of {limits.max_digits}"
            if error.reason == "number_too_long"
            else f"the {what} holds the number {shown}, which is not a finite number"
        )
        raise FileRefusedError(path, what_wrong, damaged, error.reason) from None
    except json.JSONDecodeError as error:
        # a string left open ran into the end of the file: cut off there too
        if error.pos >= len(text.rstrip()) - 1 or error.msg.startswith("Unterminated string"):
            raise FileRefusedError(
                path, f"the {what} is cut off at line {error.lineno}", damaged, "cut_off"
            ) from None
        raise FileRefusedError(
            path,
            f"the {what} is not valid JSON ({error.msg} at line {error.lineno}, column {error.colno})",
            damaged,
            "not_json",
        ) from None
    except RecursionError:  # pragma: no cover - the depth scan refuses this first
        raise FileRefusedError(path, f"the {what} is nested too deeply", damaged, "too_deep") from None
    if _SURROGATE_ESCAPE.search(data):
        for s in _strings(value):
            try:
                s.encode("utf-8")
            except UnicodeEncodeError:
                raise FileRefusedError(
                    path,
                    f"the {what} holds text that is not valid Unicode (an unpaired surrogate escape)",
                    damaged,
                    "bad_unicode",
                ) from None
    return value


def load_json(path: str | Path, limits: JsonLimits | None = None, *, what: str = "file") -> Any:
    """:func:`read_file` then :func:`parse_json`: the JSON value of the regular file at ``path``."""
    limits = limits or JsonLimits()
    return parse_json(read_file(path, limits.max_bytes, what=what), path, limits, what=what)


# -- TOML ---------------------------------------------------------------------------------------------


def parse_toml(data: bytes, path: str | Path, limits: JsonLimits | None = None, *, what: str = "file") -> Any:
    """The TOML document in ``data`` (the bytes of ``path``, UTF-8) within ``limits``, else
    FileRefusedError. ``tomllib`` recurses into nested arrays and inline tables and turns numbers into
    ``int`` (Python's 4,300-digit limit raises ``ValueError``): the nesting is scanned first (brackets
    outside double-quoted strings: a bracket inside a literal string counts too, which only refuses
    sooner), numbers longer than ``max_digits`` are refused after, and any other parse failure is a
    refusal, never a traceback."""
    limits = limits or JsonLimits()
    path = Path(path)
    damaged = f"the {what} is damaged or was edited by hand; replace it"
    text = _bounded_text(data, path, limits, what, encoding="utf-8", tables="tables", empty=False)
    longest = max((len(m) for m in _TOML_DIGITS.findall(text)), default=0)
    if longest > limits.max_digits:
        raise FileRefusedError(
            path,
            f"the {what} holds a number of {longest} digits, more than the limit of {limits.max_digits}",
            damaged,
            "number_too_long",
        )
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise FileRefusedError(path, f"the {what} is not valid TOML ({error})", damaged, "not_toml") from None
    except (ValueError, RecursionError) as error:  # pragma: no cover - the scans above refuse these first
        raise FileRefusedError(
            path, f"the {what} cannot be read as TOML ({type(error).__name__})", damaged, "not_toml"
        ) from None


_TOML_DIGITS = re.compile(r"[0-9_]{2,}")


def load_toml(path: str | Path, limits: JsonLimits | None = None, *, what: str = "file") -> Any:
    """:func:`read_file` then :func:`parse_toml`: the TOML document of the regular file at ``path``."""
    limits = limits or JsonLimits()
    return parse_toml(read_file(path, limits.max_bytes, what=what), path, limits, what=what)


# -- writing ------------------------------------------------------------------------------------------

# tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp"): the target's name, 8 random characters
_TEMP_NAME = re.compile(r"^\..+\.[a-z0-9_]{8}\.tmp$")
STALE_AFTER: Final = 60.0  # seconds: a write in progress is never this old


def temp_prefix(path: Path) -> str:
    """The prefix of the temporary files an atomic write of ``path`` uses (``.name.json.``)."""
    return f".{path.name}."


def remove_stale_temp_files(folder: Path, *, older_than: float = STALE_AFTER) -> list[Path]:
    """Delete the temporary files that killed atomic writes left in ``folder``: only regular files named
    as :func:`tempfile.mkstemp` names ours (``.name.XXXXXXXX.tmp``), and only those not modified for
    ``older_than`` seconds (a write under way is younger). Returns what was deleted; never raises."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        if not _TEMP_NAME.match(entry.name):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime >= older_than:
                Path(entry.path).unlink()
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable where the OS allows opening a directory (not on Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes, *, tidy: bool = True) -> None:
    """Write ``data`` to ``path`` so that a reader (or a crash at any instant) sees the old file or the
    new one, never a part: a temporary file in the same folder (:func:`temp_prefix`), flushed and synced,
    renamed over ``path``, the folder synced so the rename survives a power cut. ``tidy``: make the folder
    if missing and first delete the temporary files killed writes left there
    (:func:`remove_stale_temp_files`). Raises OSError if it cannot; the temporary file never stays."""
    if tidy:
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temp_files(path.parent)
    fd, tmp_name = tempfile.mkstemp(prefix=temp_prefix(path), suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        Path(tmp_name).replace(path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def writable_folder(folder: Path) -> str | None:
    """Why the ``--out`` folder cannot take a command's results (None: it can; it is made if missing)."""
    try:
        if folder.exists() and not folder.is_dir():
            return f"--out {folder} is a file, not a folder; name a folder (it is made if missing)"
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".hexslinger-write-test"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as error:
        return f"cannot write to --out {folder} ({error.strerror or error}); name a folder you may write to"
    return None
