"""Print the benchmark table `make bench` records: median, mean, p95 and max per benchmark, in ms.

Usage: python -m tools.bench_report .benchmarks/latest.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * fraction) - 1)]


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tools.bench_report RESULTS.json", file=sys.stderr)
        return 2
    path = Path(argv[0])
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        print(f"bench_report: cannot read {path}: {error}", file=sys.stderr)
        return 1
    machine = report.get("machine_info", {})
    cpu = machine.get("cpu", {}).get("brand_raw", machine.get("processor", "?"))
    print(f"{report.get('datetime', '?')}  {cpu}")
    print(f"{'benchmark':58} {'median':>9} {'mean':>9} {'p95':>9} {'max':>9} {'rounds':>7}")
    for bench in report.get("benchmarks", []):
        stats = bench["stats"]
        data = stats.get("data") or []
        p95 = percentile(data, 0.95) if data else float("nan")
        print(
            f"{bench['name']:58} {stats['median'] * 1000:8.3f}ms {stats['mean'] * 1000:8.3f}ms "
            f"{p95 * 1000:8.3f}ms {stats['max'] * 1000:8.3f}ms {stats['rounds']:7d}"
        )
        extra = bench.get("extra_info") or {}
        if extra:
            # per-call figures a benchmark measured inside its run (e.g. over a corpus of positions)
            print("    " + ", ".join(f"{k} {v}" for k, v in sorted(extra.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
