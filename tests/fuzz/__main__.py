"""``python -m tests.fuzz``: a seeded fuzz run (``make fuzz`` runs it with FUZZ_SECONDS and FUZZ_SEED).

Prints, per target, how many cases were tried, accepted, refused, crashed and hung, and each failure with
the command that replays it; exits 1 if anything crashed or hung.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tests.fuzz.runner import run, run_case
from tests.fuzz.targets import TARGETS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    parser.add_argument("--seconds", type=float, default=None, help="run for this long (default: 60)")
    parser.add_argument("--cases", type=int, default=None, help="run this many cases instead")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--targets", default=",".join(TARGETS), help=f"comma list of {', '.join(TARGETS)}")
    parser.add_argument("--hang-limit", type=float, default=10.0, help="seconds after which a case hangs")
    parser.add_argument("--work", type=Path, default=Path(".fuzz"), help="corpus, scratch and failures")
    parser.add_argument("--replay", metavar="TARGET:INDEX", help="run one case in this process")
    args = parser.parse_args(argv)
    targets = [t for t in args.targets.split(",") if t]
    unknown = [t for t in targets if t not in TARGETS]
    if unknown:
        parser.error(f"unknown target(s) {', '.join(unknown)}; choose from {', '.join(TARGETS)}")
    work = args.work.resolve() / f"seed-{args.seed}"
    if args.replay:
        target, _, index = args.replay.partition(":")
        print(run_case(args.seed, target, int(index), work))
        return 0
    seconds = args.seconds if args.seconds is not None or args.cases is not None else 60.0
    began = time.monotonic()
    print(f"fuzzing {', '.join(targets)} with seed {args.seed}", flush=True)
    tallies, failures = run(
        targets, args.seed, work, cases=args.cases, seconds=seconds, hang_limit=args.hang_limit, progress=True
    )
    took = time.monotonic() - began
    print(f"\n{took / 60:.1f} minutes, seed {args.seed}, hang limit {args.hang_limit:g} s")
    print(f"{'target':<10}{'tried':>8}{'accepted':>10}{'refused':>9}{'crashed':>9}{'hung':>6}{'slowest':>10}")
    total = [0, 0, 0, 0, 0]
    for name, t in tallies.items():
        print(
            f"{name:<10}{t.tried:>8}{t.accepted:>10}{t.refused:>9}{t.crashed:>9}{t.hung:>6}{t.slowest:>9.2f}s"
        )
        for i, v in enumerate((t.tried, t.accepted, t.refused, t.crashed, t.hung)):
            total[i] += v
    print(f"{'all':<10}{total[0]:>8}{total[1]:>10}{total[2]:>9}{total[3]:>9}{total[4]:>6}")
    for name, t in tallies.items():
        if t.slowest_case:
            print(f"slowest {name} case: {t.slowest_case}, {t.slowest:.2f} s")
    for f in failures:
        first = f.detail.strip().splitlines()[-1] if f.detail.strip() else ""
        print(f"\n{f.kind}: {f.target} case {f.index} ({f.mutation}): {first}")
        print(f"  replay: python -m tests.fuzz --seed {args.seed} --replay {f.target}:{f.index}")
    if failures:
        print(f"\nfailing inputs kept in {work / 'failures'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
