""" "What are the odds from here?" plays its continuations on every core, in workers that step back for
the window (issue 15: 100 continuations in <= 5 s, the window responsive)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ai import odds


@pytest.fixture
def fresh_pool() -> Iterator[None]:
    odds.shutdown()
    yield None
    odds.shutdown()


def test_one_worker_per_core() -> None:
    assert odds.default_workers() == (os.cpu_count() or 1)


@pytest.mark.skipif(not hasattr(os, "nice"), reason="process priorities are a POSIX thing")
def test_the_workers_run_at_a_lower_priority_than_the_window(fresh_pool: None) -> None:
    odds.warm(2)
    pool = odds._pool(2)
    window = os.nice(0)
    niceness = {pool.submit(os.nice, 0).result(timeout=60) for _ in range(4)}
    assert niceness == {min(19, window + odds.NICE)}


def test_warm_starts_every_worker_before_the_first_question(fresh_pool: None) -> None:
    odds.warm(2)
    pool = odds._POOL
    assert pool is not None and odds._POOL_SIZE == 2
    assert len(pool._processes) == 2  # both spawning before anything was asked
    pids = {pool.submit(odds._ready).result(timeout=60) for _ in range(6)}
    assert pids <= set(pool._processes) and os.getpid() not in pids
    assert odds._pool(2) is pool  # the first question uses the warm pool


WINDOW = """
import sys, time
from ai import odds
odds.warm(2)
pool = odds._POOL
pids = {pool.submit(odds._ready).result(timeout=60) for _ in range(6)}
print(" ".join(str(p) for p in sorted(set(pool._processes))), flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (ended, not yet reaped by its new parent) is gone for our purpose
        return Path(f"/proc/{pid}/stat").read_text(encoding="ascii").split(") ")[1][0] != "Z"
    except OSError:
        return True


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc to see the workers")
def test_the_workers_end_when_the_window_is_killed() -> None:
    """A window killed (or crashed) while the odds run must not leave its workers behind."""
    root = Path(__file__).resolve().parents[2]
    window = subprocess.Popen(
        [sys.executable, "-c", WINDOW], cwd=root, stdout=subprocess.PIPE, text=True, env={**os.environ}
    )
    try:
        assert window.stdout is not None
        pids = [int(p) for p in window.stdout.readline().split()]
        assert len(pids) == 2 and all(_alive(p) for p in pids)
    finally:
        window.kill()
        window.wait()
    deadline = time.monotonic() + 30
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(p) for p in pids), "a worker outlived its window"
