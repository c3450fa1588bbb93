"""The `hexslinger` command and its subcommands.

Every failure a user can cause (a wrong argument, a missing or broken map, no display) ends in a clear
message on stderr and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from game.cliargs import MAX_GAMES, cores, seed, whole_number
from game.encounter import balance_cli
from game.encounter import cli as encounter_cli
from game.problems import count, print_problems
from game.progress import ProgressBar
from game.resources import ResourceError, shipped_map, shipped_maps
from game.safeio import writable_folder
from game.tiledmap import MapLoadError

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2
EXIT_NO_DISPLAY = 3  # `make play` treats this as handled: the message already said what to do
PAPERS = ("a4", "letter")  # hexslinger print's --paper (game.ui.print_pdf.PAPERS, checked by a test)


def _size(text: str) -> tuple[int, int]:
    try:
        w_text, h_text = text.lower().split("x")
        w, h = int(w_text), int(h_text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a size; write it as WIDTHxHEIGHT, e.g. 1280x720"
        ) from None
    if not (320 <= w <= 7680 and 240 <= h <= 4320):
        raise argparse.ArgumentTypeError(f"size {w}x{h} is out of range (320x240 to 7680x4320)")
    return w, h


def _positive(text: str) -> int:
    value = whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be 1 or more")
    return value


def _games(text: str) -> int:
    value = _positive(text)
    if value > MAX_GAMES:
        raise argparse.ArgumentTypeError(f"{value} games is too many; play at most {MAX_GAMES} in one batch")
    return value


def _workers(text: str) -> int:
    value = _positive(text)
    if value > cores():
        raise argparse.ArgumentTypeError(
            f"{value} workers is more than this machine's {cores()} cores; use 1 to {cores()}"
        )
    return value


def _map(text: str) -> Path:
    """A map argument: a .tmx file, or the name of a shipped map (``hexslinger maps`` lists them) when no
    such file exists."""
    path = Path(text)
    if path.exists():
        return path
    try:
        return shipped_map(text) or path
    except ResourceError:  # reported by the command that needs the maps
        return path


def _point(text: str) -> tuple[int, int]:
    try:
        x_text, y_text = text.split(",")
        return int(x_text), int(y_text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a position; write it as X,Y, e.g. 640,360"
        ) from None


def build_parser() -> argparse.ArgumentParser:
    """The command line; the rulesets (``--ruleset``, ``odds <ruleset>``) are the installed plugins."""
    from game.engine import registry

    plugins = registry.plugins()
    for problem in registry.problems():
        print(f"hexslinger: {problem}", file=sys.stderr)
    parser = argparse.ArgumentParser(
        prog="hexslinger",
        description="Hex-grid tactical skirmishes for tabletop western rule systems, on Tiled maps.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser(
        "play", help="open the game window: the title screen, or a map's view (the default command)"
    )
    play.add_argument(
        "map",
        nargs="?",
        type=_map,
        default=None,
        help="a .tmx map, or a shipped map's name, to open in the map view (without one: the title screen)",
    )
    play.add_argument(
        "--size",
        type=_size,
        default=None,
        help="window size WxH (default: the saved setting on the title screen, 1280x720 for a map)",
    )
    play.add_argument(
        "--screen",
        choices=("title", "settings", "posse", "newbattle", "load", "battle", "pause", "results"),
        default=None,
        help="without a map: open on this screen over the title, for screenshots (battle, pause and "
        "results: on a demonstration battle)",
    )
    play.add_argument(
        "--ruleset",
        choices=[p.id for p in plugins],
        default="",
        help="with --screen posse: the posse builder's rules (it opens on their first built-in posse); "
        "with --screen battle, pause or results: the demonstration battle's (default: the first, "
        f"{plugins[0].id if plugins else 'none installed'})",
    )
    play.add_argument(
        "--frames",
        type=_positive,
        default=None,
        help="render this many frames and quit (works headless with SDL_VIDEODRIVER=dummy)",
    )
    play.add_argument("--screenshot", type=Path, default=None, help="save the last frame to this PNG")
    play.add_argument(
        "--mouse",
        type=_point,
        default=None,
        metavar="X,Y",
        help="put the mouse pointer at this window position first (for headless screenshots)",
    )

    sub.add_parser("maps", help="list the maps that come with Hexslinger (their names and files)")
    check = sub.add_parser("check-map", help="list every problem in one or more maps (exit 1 if any)")
    check.add_argument(
        "maps",
        nargs="*",
        type=_map,
        metavar="MAP",
        help="a .tmx file or a shipped map's name (none: every shipped map)",
    )

    encounter_cli.add_parser(sub)
    balance_cli.add_parser(sub)

    render = sub.add_parser("render-map", help="write a whole map as a PNG, tile for tile as Tiled draws it")
    render.add_argument("map", type=_map, help="a .tmx file or a shipped map's name")
    render.add_argument("--out", type=Path, required=True, help="the PNG to write")
    render.add_argument("--grid", action="store_true", help="draw the hex grid")
    render.add_argument("--coords", action="store_true", help="write each hex's col,row in it")
    printing = sub.add_parser(
        "print", help="write a map as a PDF to print for the table at true scale, 1 hex = 1 inch"
    )
    printing.add_argument("map", type=_map, metavar="MAP", help="a .tmx file or a shipped map's name")
    printing.add_argument("--out", type=Path, required=True, metavar="FILE.pdf", help="the PDF to write")
    printing.add_argument("--paper", choices=PAPERS, default="a4", help="the paper size (default a4)")
    printing.add_argument("--grid", action="store_true", help="draw the hex grid")
    printing.add_argument("--coords", action="store_true", help="write each hex's col,row in it")
    posse_print = sub.add_parser("print-posse", help="write a posse's unit cards and tokens as a PDF")
    posse_print.add_argument(
        "posse", metavar="POSSE", help="a saved or built-in posse's name, or a posse file"
    )
    posse_print.add_argument(
        "--ruleset",
        choices=[p.id for p in plugins],
        default="",
        help="the posse's rules (default: the ruleset that has a posse of that name)",
    )
    posse_print.add_argument("--out", type=Path, required=True, metavar="FILE.pdf", help="the PDF to write")
    posse_print.add_argument("--paper", choices=PAPERS, default="a4", help="the paper size (default a4)")
    replay = sub.add_parser("replay", help="replay a save's command log and report its digest check")
    replay.add_argument("save", type=Path)
    replay.add_argument(
        "--verify", action="store_true", help="exit 1 unless the replay reaches the saved digest"
    )
    simulate = sub.add_parser(
        "simulate",
        help="play an encounter many times between computer players and report who wins (and charts)",
        description="Play MAP's encounter --games times, each side played by a controller: ai:PROFILE "
        "(the AI at a difficulty, e.g. ai:normal; a wrong one lists them), random or greedy. "
        "Results are counted by controller; with --swap each seed is played twice, "
        "the controllers on swapped sides.",
    )
    simulate.add_argument(
        "map", metavar="MAP", help="a .tmx file or a shipped map's name (hexslinger maps lists them)"
    )
    simulate.add_argument(
        "--ruleset",
        required=True,
        choices=[p.id for p in plugins],
        help="the rules the encounter is played by",
    )
    simulate.add_argument(
        "--posse1", required=True, metavar="POSSE", help="side 1's posse: a saved or built-in posse's name"
    )
    simulate.add_argument("--posse2", required=True, metavar="POSSE", help="side 2's posse")
    simulate.add_argument(
        "--side1", required=True, metavar="CONTROLLER", help="who plays side 1: ai:PROFILE, random or greedy"
    )
    simulate.add_argument("--side2", required=True, metavar="CONTROLLER", help="who plays side 2")
    simulate.add_argument(
        "--games",
        type=_games,
        default=100,
        metavar="N",
        help=f"how many seeds to play, 1 to {MAX_GAMES} (default 100)",
    )
    simulate.add_argument("--seed", type=seed, default=1, metavar="S", help="the batch's seed (default 1)")
    simulate.add_argument(
        "--swap", action="store_true", help="play every seed twice, the second time with the sides swapped"
    )
    simulate.add_argument(
        "--workers",
        type=_workers,
        default=1,
        metavar="K",
        help=f"games played at once in worker processes, 1 to {cores()} (this machine's cores; default 1)",
    )
    simulate.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="write games.jsonl, timings.jsonl, summary.json and PNG charts to this folder",
    )
    simulate.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    odds = sub.add_parser("odds", help="the exact odds of an attack (hit chance and damage)")
    odds_systems = odds.add_subparsers(dest="ruleset", metavar="RULESET", required=True)
    for plugin in plugins:
        if plugin.odds is not None:
            command = odds_systems.add_parser(plugin.id, help=plugin.odds.help)
            plugin.odds.configure(command)
            command.set_defaults(odds_run=plugin.odds.run)
    return parser


def _no_display_reason() -> str | None:
    """Why a window cannot open here, or None. SDL_VIDEODRIVER set by the user is trusted."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return None
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return "no display found (neither DISPLAY nor WAYLAND_DISPLAY is set)"
    return None


def cmd_play(args: argparse.Namespace) -> int:
    reason = _no_display_reason()
    if reason is not None:
        print(
            f"hexslinger: {reason}. To run headless: "
            "SDL_VIDEODRIVER=dummy hexslinger play MAP --frames 60 --screenshot shot.png",
            file=sys.stderr,
        )
        return EXIT_NO_DISPLAY
    if args.map is None:
        from game.ui.shell import run_shell  # pygame is imported only here

        return run_shell(
            args.size,
            frames=args.frames,
            screenshot=args.screenshot,
            mouse=args.mouse,
            screen=args.screen or "title",
            ruleset=args.ruleset,
        )
    if args.screen is not None:
        print("hexslinger play: --screen opens a menu screen; leave out the MAP to use it", file=sys.stderr)
        return EXIT_USAGE
    from game.ui.app import run_app  # pygame is imported only here

    return run_app(
        args.map,
        size=args.size or (1280, 720),
        frames=args.frames,
        screenshot=args.screenshot,
        mouse=args.mouse,
    )


def cmd_maps(args: argparse.Namespace) -> int:
    from game.tiledmap import load_tiled_map

    del args
    for path in shipped_maps():
        try:
            title = load_tiled_map(path).properties.get("title")
        except MapLoadError:
            title = None
        shown = title if isinstance(title, str) and title.strip() else "(no title)"
        print(f"{path.stem:<20} {shown:<32} {path}")
    return EXIT_OK


def cmd_check_map(args: argparse.Namespace) -> int:
    from game.mapcheck import check_map

    any_problem = False
    for path in args.maps or shipped_maps():
        problems = check_map(path)
        if problems:
            any_problem = True
            print_problems(f"{path}: {count(problems)}", problems)
        else:
            print(f"{path}: OK")
    return EXIT_PROBLEMS if any_problem else EXIT_OK


def cmd_render_map(args: argparse.Namespace) -> int:
    from game.ui.render import render_map_file  # pygame is imported only here

    try:
        size = render_map_file(args.map, args.out, grid=args.grid, coords=args.coords)
    except MapLoadError as error:
        print_problems(f"hexslinger: cannot render {args.map}:", error.problems, err=True)
        return EXIT_PROBLEMS
    except OSError as error:
        print(f"hexslinger: cannot write {args.out}: {error.strerror or error}", file=sys.stderr)
        return EXIT_PROBLEMS
    print(f"wrote {args.out} ({size[0]}x{size[1]} px)")
    return EXIT_OK


def cmd_print(args: argparse.Namespace) -> int:
    from game.ui.print_cmd import run_print  # pygame is imported only here

    return run_print(args)


def cmd_print_posse(args: argparse.Namespace) -> int:
    from game.ui.print_cmd import run_print_posse  # pygame is imported only here

    return run_print_posse(args)


def cmd_replay(args: argparse.Namespace) -> int:
    from game.save import SaveError, load_match

    try:
        match, data = load_match(args.save, verify=False)
    except SaveError as error:
        print(f"hexslinger: {error.path}: {error.what} -- {error.fix}", file=sys.stderr)
        return EXIT_PROBLEMS
    try:
        digest = match.digest()
        outcome = match.outcome()
    finally:
        match.close()
    count = len(data.commands)
    print(f"{args.save}: {data.ruleset} on {data.map_file}, seed {data.seed}, {count} commands replayed")
    print(f"  saved digest    {data.digest}")
    print(f"  replayed digest {digest}")
    if outcome is not None:
        print(f"  result: {outcome.winner or 'draw'} ({outcome.reason})")
    if not data.digest_comparable:
        print(
            f"  the save is format version {data.version}, made before today's state layout: its digest "
            "cannot be compared; every command replayed legally"
        )
        return EXIT_OK
    if digest != data.digest:
        print("  MISMATCH: the replay does not reach the saved state", file=sys.stderr)
        return EXIT_PROBLEMS if args.verify else EXIT_OK
    print("  OK: the replay reaches the saved state")
    return EXIT_OK


def cmd_odds(args: argparse.Namespace) -> int:
    """``hexslinger odds <ruleset> ...``: the ruleset plugin's own odds command (OddsCommand.run)."""
    run: Callable[[argparse.Namespace], int] = args.odds_run
    return run(args)


class _Tally:
    """What a simulate batch's progress bar says after the count: wins per controller, draws, errors."""

    def __init__(self, total: int, controllers: Sequence[str]) -> None:
        self.bar = ProgressBar(total)
        self.wins = dict.fromkeys(controllers, 0)
        self.draws = 0
        self.errors = 0

    def update(self, record: dict[str, Any]) -> None:
        if record["error"] is not None:
            self.errors += 1
        elif record["winner"] is None:
            self.draws += 1
        else:
            self.wins[record["winner"]] = self.wins.get(record["winner"], 0) + 1
        tally = "  ".join(f"{c} {n}" for c, n in self.wins.items())
        extra = f"  errors {self.errors}" if self.errors else ""
        self.bar.step(f"{tally}  draws {self.draws}{extra}")

    def close(self) -> None:
        self.bar.close()


def _usage(text: str) -> int:
    print(f"hexslinger simulate: {text}", file=sys.stderr)
    return EXIT_USAGE


def cmd_simulate(args: argparse.Namespace) -> int:
    """``hexslinger simulate``: the arguments checked, the batch run (:mod:`ai.simulate`), its progress
    shown, the results written (``--out``) and summed up (``--json``: one JSON object on stdout)."""
    import json
    import tempfile

    from ai.controllers import ControllerError, parse
    from ai.simulate import Batch, GameOutcome, record_line, run_batch, summarize, timing_line
    from game.engine import registry
    from game.engine.match import Match
    from game.posses import PosseFileError, list_posses, load_posse

    path = Path(args.map)
    if not path.is_file():
        found = shipped_map(args.map)
        if found is None:
            names = ", ".join(p.stem for p in shipped_maps())
            return _usage(
                f"unknown map '{args.map}': no such file and no shipped map of that name; "
                f"shipped maps: {names}"
            )
        path = found
    controllers = []
    for flag, name in (("--side1", args.side1), ("--side2", args.side2)):
        try:
            controllers.append(parse(name))
        except ControllerError as error:
            return _usage(f"{flag}: {error}")
    posses = []
    for flag, name, side in (("--posse1", args.posse1, "side1"), ("--posse2", args.posse2, "side2")):
        try:
            posses.append(load_posse(args.ruleset, name, side).spec(side))
        except PosseFileError as error:
            known = ", ".join(f"'{e.name}'" for e in list_posses(args.ruleset) if e.error is None)
            return _usage(f"{flag}: {error.what} -- {error.fix}; known posses: {known or 'none'}")
    ruleset = registry.get_ruleset(args.ruleset)
    problems = Match.posse_problems(ruleset, posses)
    if problems:
        return _usage("these posses may not meet: " + "; ".join(problems))
    if args.out is not None:
        problem = writable_folder(args.out)
        if problem is not None:
            return _usage(problem)
    try:
        Match.create(path, ruleset, list(posses), args.seed).close()  # the map loads and takes the posses
    except MapLoadError as error:
        print_problems(f"hexslinger simulate: cannot play on {path}:", error.problems, err=True)
        return EXIT_PROBLEMS
    except ValueError as error:
        return _usage(f"this encounter cannot be set up on {path.stem}: {error}")

    batch = Batch(
        path,
        args.ruleset,
        (posses[0], posses[1]),
        (controllers[0], controllers[1]),
        args.games,
        args.seed,
        args.swap,
    )
    save_dir = args.out if args.out is not None else Path(tempfile.mkdtemp(prefix="hexslinger-simulate-"))
    progress = _Tally(batch.total, controllers)
    files = []
    if args.out is not None:
        files = [
            (args.out / "games.jsonl").open("w", encoding="utf-8"),
            (args.out / "timings.jsonl").open("w", encoding="utf-8"),
        ]

    def on_game(outcome: GameOutcome) -> None:
        progress.update(outcome.record)
        if files:
            files[0].write(record_line(outcome) + "\n")
            files[1].write(timing_line(outcome) + "\n")

    try:
        result = run_batch(batch, workers=args.workers, save_dir=save_dir, on_game=on_game)
    finally:
        progress.close()
        for f in files:
            f.close()
    summary = summarize(result)
    written: list[Path] = []
    if args.out is not None:
        summary_path = args.out / "summary.json"
        summary_path.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        written = [args.out / "games.jsonl", args.out / "timings.jsonl", summary_path]
        if result.games:
            written += _charts(args.out, path, summary, [g.record for g in result.games])
    elif not summary["errors"]:
        save_dir.rmdir()  # the error saves' folder, unused
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        _print_summary(summary, written)
    for failed in summary["errors"]:
        where = f"; replay it: hexslinger replay {save_dir / failed['save']}" if failed["save"] else ""
        print(
            f"hexslinger simulate: game {failed['game']} (seed {failed['seed']}): {failed['message']}{where}",
            file=sys.stderr,
        )
    if result.interrupted:
        print(
            f"hexslinger simulate: interrupted after {len(result.games)} of {batch.total} games; "
            "the results so far are marked interrupted",
            file=sys.stderr,
        )
        return 130
    return EXIT_PROBLEMS if summary["errors"] else EXIT_OK


def _charts(out: Path, map_path: Path, summary: dict[str, Any], records: list[dict[str, Any]]) -> list[Path]:
    """The PNG charts, the heatmap over the map rendered as ``hexslinger render-map`` draws it."""
    from ai.charts import Backdrop, write_charts
    from game.tiledmap import load_tiled_map

    tmap = load_tiled_map(map_path)
    image: Path | None = out / "map.png"
    origin = (0, 0)
    try:
        from game.ui.render import render_map_backdrop  # pygame is imported only here

        assert image is not None
        origin = render_map_backdrop(map_path, image)
    except (MapLoadError, OSError, ImportError) as error:
        print(f"hexslinger simulate: the heatmap is drawn without the map ({error})", file=sys.stderr)
        image = None
    backdrop = Backdrop(image, origin, tmap.geometry, (tmap.width, tmap.height))
    charts = write_charts(out, summary, records, backdrop)
    return ([image] if image is not None else []) + charts


def _map_backdrop(map_path: Path, image: Path) -> tuple[int, int]:
    """The map drawn as render-map draws it into ``image``; where map pixel (0, 0) lies in it."""
    from game.ui.render import render_map_backdrop  # pygame is imported only here

    return render_map_backdrop(map_path, image)


def _cmd_balance(args: argparse.Namespace) -> int:
    """``hexslinger balance``: :mod:`game.encounter.balance_cli`, given the map renderer for its heatmap."""
    return balance_cli.cmd_balance(args, _map_backdrop)


def _print_summary(summary: dict[str, Any], written: list[Path]) -> None:
    swap = ", each seed twice with the sides swapped" if summary["swap"] else ""
    posses = summary["posses"]
    print(
        f"{summary['map']} ({summary['ruleset']}): {posses['side1']} (side 1) vs {posses['side2']} (side 2), "
        f"{summary['games']} games (seed {summary['seed']}{swap})"
    )
    for controller, rate in summary["win_rate"].items():
        print(
            f"  {controller:<10} won {summary['wins'][controller]:>5} of {rate['games']:<5} "
            f"{100 * rate['rate']:5.1f}%  "
            f"(95% interval {100 * rate['low']:.1f}% to {100 * rate['high']:.1f}%)"
        )
    r = summary["rounds"]
    print(
        f"  draws {summary['draw_games']} (at the round limit: {summary['round_limit']}); "
        f"rounds: mean {r['mean']:.1f}, median {r['median']}"
    )
    times = ", ".join(
        f"{c} median {t['median']:.1f} ms, p95 {t['p95']:.1f} ms" for c, t in summary["decision_ms"].items()
    )
    print(f"  decision time: {times}")
    if written:
        print(f"  wrote {len(written)} files to {written[0].parent}: {', '.join(p.name for p in written)}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["play", *(argv or [])])
    handlers = {
        "play": cmd_play,
        "maps": cmd_maps,
        "check-map": cmd_check_map,
        "check-encounter": encounter_cli.cmd_check_encounter,
        "render-map": cmd_render_map,
        "print": cmd_print,
        "print-posse": cmd_print_posse,
        "replay": cmd_replay,
        "odds": cmd_odds,
        "simulate": cmd_simulate,
        "balance": _cmd_balance,
    }
    try:
        return handlers[args.command](args)
    except ResourceError as error:
        print(f"hexslinger: {error}", file=sys.stderr)
        return EXIT_PROBLEMS
    except KeyboardInterrupt:
        return 130
