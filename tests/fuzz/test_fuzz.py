"""The short seeded fuzz run of the test suite (``make fuzz`` runs a long one): every target, a fixed set of
cases, not one crash or hang; and the machinery itself (cases are reproducible, hangs and crashes are
caught and counted)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from tests.fuzz import mutators
from tests.fuzz.runner import run
from tests.fuzz.targets import TARGETS

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the fuzz worker uses FIFOs, fork and rlimits")

CASES_PER_TARGET = 250


def test_a_short_seeded_run_finds_no_crash_and_no_hang(tmp_path: Path) -> None:
    targets = list(TARGETS)
    tallies, failures = run(targets, seed=20, work=tmp_path / "fuzz", cases=CASES_PER_TARGET * len(targets))
    assert failures == [], "\n\n".join(
        f"{f.kind} {f.target}:{f.index} {f.mutation}\n{f.detail}" for f in failures
    )
    for name, tally in tallies.items():
        assert tally.tried == CASES_PER_TARGET, name
        assert tally.accepted + tally.refused == tally.tried, name
        assert tally.refused > 0, name  # the mutators do damage
    assert sum(t.accepted for t in tallies.values()) > 0  # and not only damage that is obvious


def test_cases_are_reproducible() -> None:
    seed = json.dumps({"a": [1, 2, {"b": "c"}], "d": 5}).encode()
    for kind, data in (
        ("json", seed),
        ("xml", b'<map a="1"><layer name="x"><data encoding="base64">AQAAAA==</data></layer></map>'),
    ):
        first = [mutators.mutate(data, kind, random.Random(f"7:{i}")) for i in range(200)]
        again = [mutators.mutate(data, kind, random.Random(f"7:{i}")) for i in range(200)]
        assert first == again
        assert len({m.name for m in first}) > 8  # many mutators get their turn


def test_every_mutator_runs_on_its_seed_files() -> None:
    rng = random.Random(3)
    doc = {"format": "x", "n": 12, "list": [1, "two", {"three": 3.0}], "nested": {"k": "v"}}
    for name, json_mutator in mutators.JSON_MUTATORS.items():
        out = json_mutator(json.loads(json.dumps(doc)), rng)
        assert isinstance(out, bytes), name
    tmx = (Path(__file__).resolve().parents[2] / "maps" / "ranch_duel.tmx").read_bytes()
    for name, xml_mutator in mutators.XML_MUTATORS.items():
        out = xml_mutator(tmx, rng)
        assert isinstance(out, bytes) and out != tmx, name
    for name, byte_mutator in mutators.BYTE_MUTATORS.items():
        assert isinstance(byte_mutator(tmx, rng), bytes), name


def test_the_runner_counts_a_hang_and_a_crash(tmp_path: Path) -> None:
    """A target that hangs on one case and crashes on another: both counted, the run goes on."""
    tallies, failures = run(["selftest"], seed=1, work=tmp_path / "fuzz", cases=6, hang_limit=2)
    kinds = sorted((f.index, f.kind) for f in failures)
    assert kinds == [(2, "hung"), (4, "crashed")]
    assert "ZeroDivisionError" in next(f.detail for f in failures if f.kind == "crashed")
    tally = tallies["selftest"]
    assert (tally.tried, tally.crashed, tally.hung, tally.accepted) == (6, 1, 1, 4)
    assert (tmp_path / "fuzz" / "failures" / "selftest-4" / "traceback.txt").exists()
    hung = tmp_path / "fuzz" / "failures" / "selftest-2" / "traceback.txt"  # a hang is kept too
    assert "no answer within 2 s" in hung.read_text(encoding="utf-8")
