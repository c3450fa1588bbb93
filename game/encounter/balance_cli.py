"""``hexslinger balance ENCOUNTER``: play an encounter many times AI-vs-AI and write its balance report.

Exit status 0: the report was written; 1: some games failed (each listed, the report still written);
2: bad input (a missing or broken encounter, with check-encounter's list of problems; a bad --games,
--workers or --sensitivity-games; an --out folder that cannot be written); 130: interrupted (Ctrl-C; the
games played so far are reported).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from game.cliargs import MAX_GAMES, cores, seed, whole_number
from game.problems import count, print_problems
from game.progress import ProgressBar
from game.safeio import writable_folder

__all__ = ["add_parser", "cmd_balance"]

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

# Draws the map as render-map does into a PNG and returns where map pixel (0, 0) lies in it; given by
# game.cli (pygame stays in game.ui). It may raise OSError/ImportError/MapLoadError: no map then.
Backdrop = Callable[[Path, Path], tuple[int, int]]


def _count(text: str, *, low: int, what: str) -> int:
    value = whole_number(text)
    if not low <= value <= MAX_GAMES:
        raise argparse.ArgumentTypeError(f"{value} {what} is out of range; use {low} to {MAX_GAMES}")
    return value


def _games(text: str) -> int:
    return _count(text, low=1, what="games")


def _sensitivity(text: str) -> int:
    return _count(text, low=0, what="games")


def _workers(text: str) -> int:
    value = whole_number(text)
    if not 1 <= value <= cores():
        raise argparse.ArgumentTypeError(f"{value} workers: use 1 to {cores()} (this machine's cores)")
    return value


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    balance = sub.add_parser(
        "balance",
        help="play an encounter many times AI-vs-AI and write an HTML balance report",
        description="Play ENCOUNTER (an encounter file, docs/GM.md) --games times, each side played by "
        "its encounter's AI (ai:normal where the file says human), then each sensitivity change (a side "
        "with one unit more or fewer, a cover object taken away), and write one self-contained HTML "
        "report to --out. Exit 0: written; 1: some games failed; 2: bad input; 130: interrupted.",
    )
    balance.add_argument("encounter", type=Path, metavar="ENCOUNTER", help="an encounter .toml file")
    balance.add_argument(
        "--games", type=_games, default=200, metavar="N", help="games of the encounter (default 200)"
    )
    balance.add_argument(
        "--sensitivity-games",
        type=_sensitivity,
        default=None,
        metavar="M",
        help="games of each sensitivity change (default: a quarter of --games, at least 10; 0: none)",
    )
    balance.add_argument(
        "--cover",
        action="append",
        default=[],
        metavar="NAME",
        help="a cover object to take away in the sensitivity table, as the report names it "
        "('wagon at 15,11') or a kind ('fence': all of them); repeat for more (default: the two fought "
        "around most)",
    )
    balance.add_argument("--seed", type=seed, default=1, metavar="S", help="the seed (default 1)")
    balance.add_argument(
        "--workers",
        type=_workers,
        default=1,
        metavar="K",
        help=f"games played at once in worker processes, 1 to {cores()} (default 1)",
    )
    balance.add_argument(
        "--out",
        type=Path,
        default=Path(),
        metavar="DIR",
        help="the folder the report ENCOUNTER-balance.html is written to (default: this folder)",
    )
    balance.add_argument("--json", action="store_true", help="also print the report's numbers as JSON")


def _fail(text: str) -> int:
    print(f"hexslinger balance: {text}", file=sys.stderr)
    return EXIT_USAGE


def cmd_balance(args: argparse.Namespace, backdrop: Backdrop | None = None) -> int:
    import json
    import tempfile

    from ai.charts import Backdrop as ChartBackdrop
    from ai.simulate import GameOutcome, worker_pool
    from game.encounter.balance import numbers, planned_games, run_balance
    from game.encounter.load import check_encounter, load_encounter
    from game.encounter.report import render_report
    from game.tiledmap import MapLoadError, load_tiled_map

    path: Path = args.encounter
    if not path.is_file():
        return _fail(
            f"there is no encounter file {path}; name an encounter .toml file "
            "(hexslinger check-encounter with no file lists the shipped ones)"
        )
    problems = check_encounter(path)
    if problems:
        print_problems(
            f"hexslinger balance: {path} cannot be played ({count(problems)}):", problems, err=True
        )
        print(f"  fix them (hexslinger check-encounter {path} lists them again)", file=sys.stderr)
        return EXIT_USAGE
    unwritable = writable_folder(args.out)
    if unwritable is not None:
        return _fail(unwritable)
    enc = load_encounter(path)
    sensitivity = args.sensitivity_games
    if sensitivity is None:
        sensitivity = min(args.games, max(10, args.games // 4))
    progress = ProgressBar(planned_games(enc, args.games, sensitivity, args.cover))

    def on_game(label: str, outcome: GameOutcome) -> None:
        progress.step(label)

    pool = worker_pool(args.workers) if args.workers > 1 else None
    interrupted = False
    try:
        run = run_balance(
            enc,
            games=args.games,
            seed=args.seed,
            workers=args.workers,
            sensitivity_games=sensitivity,
            cover=args.cover,
            on_game=on_game,
            pool=pool,
        )
    finally:
        progress.close()
        if pool is not None:
            pool.terminate()
            pool.join()
    interrupted = run.main.interrupted or any(r is not None and r.interrupted for _, r in run.variants)
    result = numbers(run)
    records = [g.record for g in run.main.games]
    tmap = load_tiled_map(enc.map_path, require_images=False)
    with tempfile.TemporaryDirectory(prefix="hexslinger-balance-") as folder:
        image: Path | None = Path(folder) / "map.png"
        origin = (0, 0)
        note = ""
        try:
            if backdrop is None or image is None:
                raise ImportError("no map renderer")
            origin = backdrop(enc.map_path, image)
        except (MapLoadError, OSError, ImportError) as error:
            note = f"The heatmap is drawn without the map ({error})."
            image = None
        page = render_report(
            result, records, ChartBackdrop(image, origin, tmap.geometry, (tmap.width, tmap.height)), note=note
        )
    out = args.out / f"{path.stem}-balance.html"
    try:
        out.write_text(page, encoding="utf-8")
    except OSError as error:
        return _fail(f"cannot write {out} ({error.strerror or error}); name a folder you may write to")
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print(result["verdict"])
        print(f"  {result['games']} games; {result['swap_reason']}")
        print(f"  wrote {out}")
    for failed in result["errors"]:
        print(
            f"hexslinger balance: game {failed['game']} (seed {failed['seed']}): {failed['message']}",
            file=sys.stderr,
        )
    if interrupted:
        print("hexslinger balance: interrupted; the report holds the games played so far", file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_PROBLEMS if result["errors"] else EXIT_OK
