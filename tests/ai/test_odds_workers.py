""" "What are the odds from here?" plays its continuations on every core, in workers that step back for
the window (issue 15: 100 continuations in <= 5 s, the window responsive)."""

from __future__ import annotations

import os
from collections.abc import Iterator

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
