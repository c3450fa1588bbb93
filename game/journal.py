"""The autosave's journal: the commands played since the autosave was last written whole, one line each,
appended beside it (``autosave-ID.journal`` next to ``autosave-ID.json``).

Writing the whole save after every command costs time in proportion to the game's length (27 ms at 1,114
commands, issue 13); appending one line costs the same at any length. The save (the *base*) is written
whole, atomically and with its digest, when a battle starts or is loaded; after that each command is one
appended line. A line says where in the command log it goes (``at``), so taking a command back is a line
too (the log cut back to ``at``), as is a change of who plays a side (``seats``).

What keeps it safe:

* **Bound to its base.** The first line (the header) holds the sha256 of the base's bytes: a journal left
  beside a newer base (a crash between writing the base and starting its journal) is not applied to it;
  the base already holds everything it said.
* **Every line checked.** Each line ends with a checksum chained from the line before (sha256 of the
  previous checksum and the line), so a line changed, lost or moved is found; a line cut off by a kill (no
  newline, or a checksum that does not fit) is the *torn tail*.
* **Digest-checked.** Every :data:`DIGEST_EVERY`-th command line also carries the match's digest after it
  (about 1.4 ms on the largest map, so one autosave in 25 pays it); loading replays the commands and
  compares at each of them, as it does the base's digest.
* **Crash-safe.** A line is one ``write`` to a file opened for appending: a killed process leaves the line
  whole or a torn tail, never a changed earlier line. Reading keeps every line before the first bad one:
  a torn tail loses only the command that was being written. A damaged line with good lines after it
  stops the reading there too and is reported; the journal file itself is kept for the player (the
  session copies it aside before it starts a new one).

No pickle, no eval: lines are JSON read within :data:`game.save.SAVE_LIMITS`, the file within
:data:`game.save.MAX_SAVE_BYTES`.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from game.commands import Command, CommandFormatError, command_from_json, command_to_json
from game.safeio import FileRefusedError, JsonLimits, parse_json, read_file, write_atomic

__all__ = [
    "DIGEST_EVERY",
    "JOURNAL_FORMAT",
    "Journal",
    "JournalRead",
    "journal_path",
    "read_journal",
]

JOURNAL_FORMAT: Final = "hexslinger-journal"
JOURNAL_SUFFIX: Final = ".journal"
DIGEST_EVERY: Final = 25  # a command line in this many carries the match's digest
_SUM_CHARS: Final = 16
_SUM_TAIL: Final = re.compile(rb',"sum":"([0-9a-f]{16})"\}$')


def journal_path(save: Path) -> Path:
    """The journal beside a save (``autosave-ID.json`` -> ``autosave-ID.journal``)."""
    return save.with_suffix(JOURNAL_SUFFIX)


def _sum(previous: str, body: str) -> str:
    return hashlib.sha256(f"{previous}\n{body}".encode()).hexdigest()[:_SUM_CHARS]


def _line(body: dict[str, Any], previous: str) -> tuple[str, str]:
    """The line for ``body`` chained after ``previous`` (its checksum last), and that checksum."""
    text = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    checksum = _sum(previous, text)
    return f'{text[:-1]},"sum":"{checksum}"}}\n', checksum


class Journal:
    """The journal of one base save, being appended to (see the module text)."""

    def __init__(self, save: Path, base_sha256: str, count: int) -> None:
        """Start the journal of the base at ``save`` (whose bytes have ``base_sha256`` and which holds
        ``count`` commands): its header written atomically over any older journal there."""
        self.path = journal_path(save)
        self.count = count  # commands in the log as the journal has it (the base's, then each line's)
        self.written = 0  # bytes appended by the last append (the tests' O(1) check)
        header, self._last = _line({"format": JOURNAL_FORMAT, "base": base_sha256, "count": count}, "")
        write_atomic(self.path, header.encode("utf-8"), tidy=False)

    def cut(self, count: int) -> str:
        """The line that cuts the log back to ``count`` commands (an undo)."""
        self.count = count
        return self._chain({"at": count})

    def command(self, command: Command, round_reached: int, over: bool, digest: str | None) -> str:
        """The line that appends ``command``; ``digest``: the match's after it (one line in DIGEST_EVERY)."""
        body: dict[str, Any] = {"at": self.count, "cmd": command_to_json(command), "round": round_reached}
        if over:
            body["over"] = True
        if digest is not None:
            body["digest"] = digest
        self.count += 1
        return self._chain(body)

    def seats(self, seats: dict[str, str]) -> str:
        """The line that records who plays each side now."""
        return self._chain({"seats": dict(seats)})

    def wants_digest(self) -> bool:
        """Whether the next command line carries the digest."""
        return (self.count + 1) % DIGEST_EVERY == 0

    def _chain(self, body: dict[str, Any]) -> str:
        line, self._last = _line(body, self._last)
        return line

    def append(self, lines: list[str]) -> None:
        """Append ``lines`` in one write, synced (OSError if it cannot be written)."""
        data = "".join(lines).encode("utf-8")
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        try:
            os.write(fd, data)
            _sync(fd)
        finally:
            os.close(fd)
        self.written = len(data)


def _sync(fd: int) -> None:
    """The appended bytes to the disk (the data only where the OS allows: no file times)."""
    if hasattr(os, "fdatasync"):
        os.fdatasync(fd)
    else:  # pragma: no cover - Windows, macOS
        os.fsync(fd)


@dataclass(slots=True)
class JournalRead:
    """What a journal adds to its base: the commands as the log stands after it, the seats if it changed
    them, the digests to compare on replay (command count -> digest), how far the battle went, and what
    could not be read (``note``: "" when every line was whole)."""

    commands: list[Command]
    seats: dict[str, str] | None = None
    digests: dict[int, str] = field(default_factory=dict)
    round: int | None = None
    over: bool | None = None
    note: str = ""
    lines: int = 0  # command, cut and seats lines applied


def read_journal(
    save: Path, base_raw: bytes, base_commands: list[Command], limits: JsonLimits
) -> JournalRead:
    """The journal beside ``save`` applied to its base's commands (see the module text). Never raises: a
    journal that cannot be read at all leaves the base as it is, with a ``note`` saying why."""
    out = JournalRead(list(base_commands))
    path = journal_path(save)
    try:
        raw = read_file(path, limits.max_bytes, what="autosave journal")
    except FileRefusedError as error:
        if error.reason in ("missing", "empty"):
            return out
        out.note = f"the autosave's journal was not read ({error.what}); the battle is as last saved whole"
        return out
    pieces = raw.split(b"\n")
    torn = pieces.pop() != b""  # the text after the last newline: a line cut off by a kill
    base_sha = hashlib.sha256(base_raw).hexdigest()
    previous = ""
    for number, piece in enumerate(pieces):
        body = _checked(piece, previous, path, limits)
        if body is None or (number == 0 and body.get("format") != JOURNAL_FORMAT):
            out.note = _damaged(number, len(pieces), path)
            return out
        previous = body.pop("sum")
        if number == 0:
            if body.get("base") != base_sha or body.get("count") != len(base_commands):
                return out  # the journal of an older base: the base holds all it said
            continue
        problem = _apply(out, body)
        if problem:
            out.note = f"the autosave's journal has a line it cannot use ({problem}); {_kept(number, path)}"
            return out
        out.lines += 1
    if torn:
        out.note = (
            "the autosave's last entry was cut off (the game stopped while writing it): the battle "
            "continues from the command before it"
        )
    return out


def _checked(piece: bytes, previous: str, path: Path, limits: JsonLimits) -> dict[str, Any] | None:
    """A line's fields if its bytes are as written after the line before (its checksum, over the line as
    written, fits) and it is JSON, else None."""
    found = _SUM_TAIL.search(piece)
    if found is None:
        return None
    text = piece[: found.start()] + b"}"
    try:
        if _sum(previous, text.decode("utf-8")) != found.group(1).decode("ascii"):
            return None
        body = parse_json(piece, path, limits, what="autosave journal line")
    except (FileRefusedError, UnicodeDecodeError):
        return None
    return body if isinstance(body, dict) and body.get("sum") == found.group(1).decode("ascii") else None


def _apply(out: JournalRead, body: dict[str, Any]) -> str:
    """One checked line applied to ``out``; what is wrong with it ("" when nothing)."""
    if "seats" in body:
        seats = body["seats"]
        if not isinstance(seats, dict) or not all(isinstance(v, str) for v in seats.values()):
            return "seats that are not names"
        out.seats = {str(k): v for k, v in seats.items()}
        return ""
    at = body.get("at")
    if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at <= len(out.commands):
        return f"a command number {at!r} outside the log of {len(out.commands)}"
    if at < len(out.commands):  # taken back
        del out.commands[at:]
        out.digests = {n: d for n, d in out.digests.items() if n <= at}
    if "cmd" not in body:
        return ""
    try:
        out.commands.append(command_from_json(body["cmd"]))
    except CommandFormatError as error:
        return f"a malformed command: {str(error)[:120]}"
    reached = body.get("round")
    if isinstance(reached, int) and not isinstance(reached, bool) and reached >= 0:
        out.round = reached
    out.over = body.get("over") is True
    digest = body.get("digest")
    if isinstance(digest, str):
        out.digests[len(out.commands)] = digest
    return ""


def _kept(number: int, path: Path) -> str:
    return (
        f"the battle continues from the entry before it, and the journal is kept as "
        f"{path.name}.damaged beside the autosave"
    )


def _damaged(number: int, count: int, path: Path) -> str:
    if number == 0:
        return (
            f"the autosave's journal is damaged at its start: the battle is as last saved whole, and the "
            f"journal is kept as {path.name}.damaged beside the autosave"
        )
    return f"the autosave's journal is damaged at entry {number} of {count - 1}; {_kept(number, path)}"
