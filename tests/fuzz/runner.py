"""Running fuzz cases in a watched worker process, and counting what happened to them.

Case ``i`` of a run with seed ``s`` is fully determined by ``(s, target, i)``: the worker (``python -m
tests.fuzz.runner worker ...``) prepares it, prints ``START``, runs it and prints ``DONE`` with the outcome,
or ``CRASH`` with the traceback. The parent reads those lines; a case that does not finish within the hang
limit is a hang (the worker is killed and a new one goes on with the next case), a worker that dies in a
case is a crash. The worker runs under a memory limit, so a case that would exhaust memory is a crash
(``MemoryError``) rather than the machine's problem, with ``/dev/stdin`` a pipe nobody writes to, so a
loader that reads it hangs as it would in a terminal.

Failing cases are kept in the run's ``failures/`` folder (the damaged file and the traceback) and can be
replayed in-process: ``python -m tests.fuzz --seed S --replay TARGET:INDEX``.
"""

from __future__ import annotations

import json
import os
import random
import select
import shutil
import subprocess
import sys
import time
import traceback
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Failure", "Tally", "run", "run_case"]

ROOT = Path(__file__).resolve().parent.parent.parent
MEMORY_LIMIT = 3 << 30


@dataclass
class Tally:
    tried: int = 0
    accepted: int = 0
    refused: int = 0
    crashed: int = 0
    hung: int = 0
    slowest: float = 0.0  # seconds, of the cases that finished
    slowest_case: str = ""
    mutators: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Failure:
    target: str
    index: int
    kind: str  # "crashed" or "hung"
    mutation: str
    detail: str


def case_rng(seed: int, target: str, index: int) -> random.Random:
    return random.Random(f"{seed}:{target}:{index}")


def target_of(targets: list[str], index: int) -> str:
    return targets[index % len(targets)]


def _emit(*parts: object) -> None:
    sys.stdout.write(json.dumps(parts) + "\n")
    sys.stdout.flush()


def worker(seed: int, start: int, targets: list[str], work: Path) -> None:
    """Prepare and run cases ``start``, ``start + 1``, ... forever, reporting each on stdout."""
    import resource

    from tests.fuzz.corpus import build
    from tests.fuzz.targets import ALL_TARGETS

    corpus = build(work.parent / "corpus")
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    scratch = work / "cwd"
    scratch.mkdir(parents=True, exist_ok=True)
    os.chdir(scratch)  # relative paths in damaged files land here
    made = {name: ALL_TARGETS[name](corpus, work) for name in targets}
    index = start
    while True:
        name = target_of(targets, index)
        case = made[name].prepare(case_rng(seed, name, index), index)
        _emit("START", index, name, case.mutation)
        began = time.perf_counter()
        try:
            outcome = case.run()
        except BaseException as error:
            detail = "".join(traceback.format_exception(error))
            keep_failure(work, name, index, case.files, detail)
            _emit("CRASH", index, name, case.mutation, detail)
        else:
            _emit("DONE", index, name, case.mutation, outcome, time.perf_counter() - began)
        index += 1


def keep_failure(work: Path, target: str, index: int, files: Iterable[Path], detail: str) -> None:
    folder = work / "failures" / f"{target}-{index}"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "traceback.txt").write_text(detail, encoding="utf-8")
    for f in files:
        if f.is_file() and not f.is_symlink():
            shutil.copy(f, folder / f.name)
        else:
            (folder / f"{f.name}.what").write_text(
                "a link to " + str(f.readlink()) if f.is_symlink() else "not a regular file", encoding="utf-8"
            )


def _spawn(seed: int, start: int, targets: list[str], work: Path) -> subprocess.Popen[bytes]:
    with (work / "worker.log").open("a", encoding="utf-8") as log:
        return _popen(seed, start, targets, work, log)


def _popen(seed: int, start: int, targets: list[str], work: Path, log: Any) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.fuzz.runner",
            "worker",
            str(seed),
            str(start),
            ",".join(targets),
            str(work),
        ],
        cwd=ROOT,
        stdin=subprocess.PIPE,  # held open, never written: /dev/stdin blocks like a terminal's
        stdout=subprocess.PIPE,
        stderr=log,
        bufsize=0,
        start_new_session=True,
    )


class _Lines:
    """The worker's report lines, read straight from the pipe (a buffered readline could hold lines
    that select() then never reports)."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdout is not None
        self.fd = proc.stdout.fileno()
        self.buffer = b""
        self.closed = False

    def next(self, deadline: float) -> str | None:
        """The next line; "" once the worker has closed its end; None if none comes by ``deadline``."""
        while b"\n" not in self.buffer:
            if self.closed:
                return ""
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                return None
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                self.closed = True
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", "replace")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.kill()
    proc.wait()
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            stream.close()


def run(
    targets: list[str],
    seed: int,
    work: Path,
    *,
    cases: int | None = None,
    seconds: float | None = None,
    hang_limit: float = 10.0,
    start_limit: float = 120.0,
    progress: bool = False,
) -> tuple[dict[str, Tally], list[Failure]]:
    """Run cases 0.. (``cases`` of them, or for ``seconds``) and count their outcomes per target."""
    work.mkdir(parents=True, exist_ok=True)
    tallies = {t: Tally() for t in targets}
    failures: list[Failure] = []
    deadline = time.monotonic() + seconds if seconds is not None else None
    index = 0
    proc = _spawn(seed, index, targets, work)
    lines = _Lines(proc)
    started: tuple[int, str, str, float] | None = None
    waited_since = time.monotonic()
    last_report = time.monotonic()
    try:
        while True:
            if cases is not None and index >= cases and started is None:
                break
            if deadline is not None and time.monotonic() > deadline and started is None:
                break
            limit = hang_limit if started is not None else start_limit
            since = started[3] if started is not None else waited_since
            line = lines.next(since + limit)
            if line is None or line == "":
                if started is None:  # not in a case: the worker itself is broken
                    log = (work / "worker.log").read_text(encoding="utf-8", errors="replace")
                    raise RuntimeError(f"the fuzz worker failed outside any case:\n{log[-3000:]}")
                at, name, mutation = (started[0], started[1], started[2]) if started else (index, "?", "?")
                kind = "hung" if line is None else "crashed"
                detail = f"no answer within {hang_limit:g} s" if kind == "hung" else "the worker died"
                _stop(proc)
                case_dir = work / "case"  # the stopped case's files, before the next case replaces them
                kept = sorted(Path(d, f) for d, _, files in os.walk(case_dir) for f in files)
                keep_failure(work, name, at, kept, detail)
                if name in tallies:
                    tally = tallies[name]
                    tally.tried += 1
                    setattr(tally, kind, getattr(tally, kind) + 1)
                failures.append(Failure(name, at, kind, mutation, detail))
                index = at + 1
                started = None
                waited_since = time.monotonic()
                proc = _spawn(seed, index, targets, work)
                lines = _Lines(proc)
                continue
            message = json.loads(line)
            if message[0] == "START":
                started = (message[1], message[2], message[3], time.monotonic())
                continue
            _, at, name, mutation = message[:4]
            tally = tallies[name]
            tally.tried += 1
            tally.mutators[mutation] = tally.mutators.get(mutation, 0) + 1
            if message[0] == "CRASH":
                tally.crashed += 1
                failures.append(Failure(name, at, "crashed", mutation, message[4]))
            else:
                outcome, took = message[4], message[5]
                setattr(tally, outcome, getattr(tally, outcome) + 1)
                if took > tally.slowest:
                    tally.slowest, tally.slowest_case = took, f"{at} ({mutation})"
            index = at + 1
            started = None
            waited_since = time.monotonic()
            if progress and time.monotonic() - last_report > 60:
                last_report = time.monotonic()
                done = sum(t.tried for t in tallies.values())
                bad = sum(t.crashed + t.hung for t in tallies.values())
                print(f"  ... {done} cases, {bad} crashed or hung", flush=True)
    finally:
        _stop(proc)
    return tallies, failures


def run_case(seed: int, target: str, index: int, work: Path) -> str:
    """Prepare and run one case in this process (to replay a failure); returns its outcome or raises."""
    from tests.fuzz.corpus import build
    from tests.fuzz.targets import ALL_TARGETS

    corpus = build(work.parent / "corpus")
    case = ALL_TARGETS[target](corpus, work).prepare(case_rng(seed, target, index), index)
    print(f"{target} case {index}: {case.mutation}; files: {', '.join(map(str, case.files))}")
    return case.run()


if __name__ == "__main__":
    if sys.argv[1:2] == ["worker"]:
        worker(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split(","), Path(sys.argv[5]))
