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

from game.resources import ResourceError, shipped_map, shipped_maps
from game.tiledmap import MapLoadError

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2
EXIT_NO_DISPLAY = 3  # `make play` treats this as handled: the message already said what to do


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
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be 1 or more")
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

    render = sub.add_parser("render-map", help="write a whole map as a PNG, tile for tile as Tiled draws it")
    render.add_argument("map", type=_map, help="a .tmx file or a shipped map's name")
    render.add_argument("--out", type=Path, required=True, help="the PNG to write")
    render.add_argument("--grid", action="store_true", help="draw the hex grid")
    render.add_argument("--coords", action="store_true", help="write each hex's col,row in it")
    replay = sub.add_parser("replay", help="replay a save's command log and report its digest check")
    replay.add_argument("save", type=Path)
    replay.add_argument(
        "--verify", action="store_true", help="exit 1 unless the replay reaches the saved digest"
    )
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
            print(f"{path}: {len(problems)} problem{'s' if len(problems) != 1 else ''}")
            for problem in problems:
                print(f"  - {problem}")
        else:
            print(f"{path}: OK")
    return EXIT_PROBLEMS if any_problem else EXIT_OK


def cmd_render_map(args: argparse.Namespace) -> int:
    from game.ui.render import render_map_file  # pygame is imported only here

    try:
        size = render_map_file(args.map, args.out, grid=args.grid, coords=args.coords)
    except MapLoadError as error:
        print(f"hexslinger: cannot render {args.map}:", file=sys.stderr)
        for problem in error.problems:
            print(f"  - {problem}", file=sys.stderr)
        return EXIT_PROBLEMS
    except OSError as error:
        print(f"hexslinger: cannot write {args.out}: {error.strerror or error}", file=sys.stderr)
        return EXIT_PROBLEMS
    print(f"wrote {args.out} ({size[0]}x{size[1]} px)")
    return EXIT_OK


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


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["play", *(argv or [])])
    handlers = {
        "play": cmd_play,
        "maps": cmd_maps,
        "check-map": cmd_check_map,
        "render-map": cmd_render_map,
        "replay": cmd_replay,
        "odds": cmd_odds,
    }
    try:
        return handlers[args.command](args)
    except ResourceError as error:
        print(f"hexslinger: {error}", file=sys.stderr)
        return EXIT_PROBLEMS
    except KeyboardInterrupt:
        return 130
