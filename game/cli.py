"""The `hexslinger` command and its subcommands.

Every failure a user can cause (a wrong argument, a missing or broken map, no display) ends in a clear
message on stderr and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
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
        choices=("frontier", "rift"),
        default="frontier",
        help="with --screen posse: the posse builder's rules (it opens on their first built-in posse); "
        "with --screen battle: the demonstration battle's",
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
    frontier = odds_systems.add_parser("frontier", help="a Frontier attack")
    frontier.add_argument("--attacker", required=True, help="unit type, e.g. deputy, gang_leader, dog")
    frontier.add_argument("--weapon", default=None, help="weapon (default: the attacker's first; fists)")
    frontier.add_argument("--target", required=True, help="unit type of the target")
    frontier.add_argument("--distance", type=int, required=True, help="inches (hexes) to the target")
    frontier.add_argument("--cover", choices=("none", "half", "full"), default="none")
    frontier.add_argument("--aim", action="store_true", help="the attacker Aimed first (+1)")
    frontier.add_argument("--prone", action="store_true", help="the target is prone")
    frontier.add_argument("--taking-cover", action="store_true", help="the target took the Take Cover action")
    frontier.add_argument("--wounded", action="store_true", help="the target has lost all its Toughness")
    frontier.add_argument("--damage", type=int, default=0, help="damage the target has already taken")
    frontier.add_argument("--dastardly", action="store_true", help="the target has Dastardly's wound")
    frontier.add_argument("--json", action="store_true", help="print JSON for scripts")
    rift = odds_systems.add_parser("rift", help="a Through the Rift attack, or --balance")
    rift.add_argument("--weapon", help='weapon name or id, e.g. "MDTC Model 8 Submachine Gun"')
    rift.add_argument("--attitude", help="the attacker's attitude: its traits at --level apply")
    rift.add_argument("--level", type=int, default=None, help="1, 4 or 7 (with --attitude; default 1)")
    rift.add_argument(
        "--traits",
        default="",
        help="extra dice traits, comma separated: firearm-mastery, spray-and-pray, ...",
    )
    rift.add_argument("--nudge", type=int, default=0, help="Nudges on this roll (+2 per die each)")
    rift.add_argument("--cover", action="store_true", help="the target is in cover (x1/2)")
    rift.add_argument("--crouch", action="store_true", help="the target Crouched Down (with --cover: zero)")
    rift.add_argument("--suppressed", action="store_true", help="the attacker is Suppressed (x1/2)")
    rift.add_argument("--down-the-sights", action="store_true", help="Down the Sights pending (best hit x4)")
    rift.add_argument("--bullet-sponge", action="store_true", help="the target has Bullet Sponge (x1/2)")
    rift.add_argument("--piercing", action="store_true", help="Piercing Fire's target behind (x1/2)")
    rift.add_argument("--depth", type=int, default=None, help="explosion chain depth computed exactly")
    rift.add_argument("--balance", action="store_true", help="every attitude against the 7-stress claim")
    rift.add_argument("--json", action="store_true", help="print JSON for scripts")
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


def _percent(p: object) -> str:
    from fractions import Fraction

    assert isinstance(p, Fraction)
    return f"{float(p) * 100:.4g}%"


def cmd_odds_rift(args: argparse.Namespace) -> int:
    import json
    from fractions import Fraction

    from game.rules.rift.odds import OddsError, balance, rift_odds, weapon_table

    def frac(p: Fraction) -> dict[str, object]:
        return {"fraction": str(p), "percent": round(float(p) * 100, 6)}

    if args.balance:
        rows = balance()
        table = weapon_table()
        if args.json:
            summary: dict[str, object] = {
                "ruleset": "rift",
                "claim": "All of the player weapons are balanced to deal roughly 7 stress per round, with "
                "Daring and Calculated players doing 125% and Deliberate players doing 150% under ideal "
                "conditions.",
                "attitudes": [
                    {
                        "attitude": r.attitude,
                        "level": r.level,
                        "traits": list(r.traits),
                        "claim": str(r.claim),
                        "per_round": str(r.best.per_round),
                        "per_round_float": float(r.best.per_round),
                        "ratio": float(r.ratio),
                        "weapons": [
                            {
                                "weapon": w.weapon,
                                "per_round": str(w.per_round),
                                "per_round_high": str(w.per_round_high),
                                "policy": w.policy,
                                "with_piercing": None if w.piercing is None else str(w.piercing),
                            }
                            for w in (*r.weapons, r.sidearm)
                        ],
                    }
                    for r in rows
                ],
                "weapons": [
                    {
                        "weapon": arms.name,
                        "block": arms.block,
                        "hit": frac(o.hit_probability),
                        "mean": str(o.mean),
                    }
                    for arms, o in table
                ],
            }
            print(json.dumps(summary, indent=1))
            return EXIT_OK
        print('"All of the player weapons are balanced to deal roughly 7 stress per round, with Daring and')
        print(' Calculated players doing 125% and Deliberate players doing 150% under ideal conditions."')
        print(
            "Ideal conditions: target in range, no cover, one attack every turn (a turn per round) with the"
        )
        print("best use of the attitude's own damage actions, one target per explosion, no allies' help.")
        print()
        print(f"{'attitude':<11}{'lvl':>3}  {'claim':>6}  {'per round':>9}  {'ratio':>6}  weapon (policy)")
        for r in rows:
            b = r.best
            approx = "" if b.per_round == b.per_round_high else "~"
            print(
                f"{r.attitude:<11}{r.level:>3}  {float(r.claim):>6.2f}  {approx:>1}{float(b.per_round):>8.2f}"
                f"  {float(r.ratio) * 100:>5.0f}%  {b.weapon} ({b.policy})"
            )
            for w in r.weapons:
                if w is not b:
                    print(f"{'':>25}{float(w.per_round):>9.2f}          {w.weapon} ({w.policy})")
            if b.piercing is not None:
                print(f"{'':>25}{float(b.piercing):>9.2f}          + a second target in line (Piercing Fire)")
            if r.sidearm.weapon not in {w.weapon for w in r.weapons}:
                print(f"{'':>25}{float(r.sidearm.per_round):>9.2f}          {r.sidearm.weapon} (the sidearm)")
            if r.traits:
                print(f"{'':>27}traits: {', '.join(r.traits)}")
        print()
        print("Every weapon, plain (no traits, no multipliers), per attack:")
        for arms, o in table:
            print(
                f"  {arms.name:<40} {arms.block:<20} hit/die {_percent(o.hit_probability):>7}"
                f"  expected {float(o.mean):>6.3f} = {o.mean}"
            )
        return EXIT_OK
    if not args.weapon:
        print("hexslinger odds: rift needs --weapon NAME (or --balance)", file=sys.stderr)
        return EXIT_USAGE
    try:
        result = rift_odds(
            args.weapon,
            attitude=args.attitude,
            level=args.level,
            traits=[t for t in args.traits.split(",") if t.strip()],
            nudge=args.nudge,
            cover=args.cover,
            crouch=args.crouch,
            suppressed=args.suppressed,
            down_the_sights=args.down_the_sights,
            bullet_sponge=args.bullet_sponge,
            piercing=args.piercing,
            depth=args.depth,
        )
    except OddsError as error:
        print(f"hexslinger odds: {error}", file=sys.stderr)
        return EXIT_USAGE
    odds = result.odds
    if args.json:
        document: dict[str, object] = {
            "ruleset": "rift",
            "weapon": result.weapon.name,
            "block": result.weapon.block,
            "applied": list(result.applied),
            "dice_rolled": odds.dice_rolled,
            "dice_kept": result.weapon.count,
            "hit_per_die": frac(odds.hit_probability),
            "hits": [{"hits": k, **frac(p)} for k, p in odds.hits],
            "stress": [{"stress": t, **frac(p)} for t, p in odds.stress.items()],
            "stress_tail": None
            if odds.tail_from is None
            else {"at_least": odds.tail_from, **frac(odds.tail)},
            "expected_stress": str(odds.mean_low) if odds.exact else None,
            "expected_stress_bounds": [str(odds.mean_low), str(odds.mean_high)],
            "expected_stress_float": float(odds.mean_low),
            "notes": list(result.notes),
        }
        print(json.dumps(document, indent=1))
        return EXIT_OK
    print(f"{result.weapon.name}  {result.weapon.block}")
    print(f"  applied: {'; '.join(result.applied) if result.applied else 'nothing (plain dice)'}")
    print(
        f"  hit per die: {odds.hit_probability} = {_percent(odds.hit_probability)}"
        f"  ({odds.dice_rolled} dice rolled, {result.weapon.count} kept)"
    )
    print("  hits:")
    for k, p in odds.hits:
        print(f"    {k}: {p} = {_percent(p)}")
    print("  stress (all hits on this target):")
    for t, p in odds.stress.items():
        print(f"    {t}: {p} = {_percent(p)}")
    if odds.tail_from is not None:
        print(f"    >= {odds.tail_from}: {odds.tail} = {_percent(odds.tail)}")
    if odds.exact:
        print(f"  expected stress: {odds.mean} = {float(odds.mean):.4f}")
    else:
        print(
            f"  expected stress: between {float(odds.mean_low):.6f} and {float(odds.mean_high):.6f}"
            f" (exact bounds {odds.mean_low} and {odds.mean_high})"
        )
    for note in result.notes:
        print(f"  note: {note}")
    return EXIT_OK


def cmd_odds(args: argparse.Namespace) -> int:
    import json

    if args.ruleset == "rift":
        return cmd_odds_rift(args)

    from game.rules.frontier.data import default_data
    from game.rules.frontier.odds import OddsError, attack_odds

    damage = args.damage
    if args.wounded:
        target = default_data().units.get(args.target.strip().lower().replace(" ", "_"))
        damage = max(damage, target.toughness if target is not None else 0)
    try:
        preview = attack_odds(
            args.attacker,
            args.target,
            args.distance,
            weapon=args.weapon,
            cover=args.cover,
            aim=args.aim,
            prone=args.prone,
            taking_cover=args.taking_cover,
            damage_taken=damage,
            dastardly=args.dastardly,
        )
    except OddsError as error:
        print(f"hexslinger odds: {error}", file=sys.stderr)
        return EXIT_USAGE
    hit = preview.hit_chance
    if args.json:
        document = {
            "ruleset": "frontier",
            "hit": {"fraction": str(hit), "percent": round(float(hit) * 100, 2)},
            "target_number": preview.target_number,
            "modifiers": [{"name": n, "value": v} for n, v in preview.modifiers],
            "damage": [{"damage": d, "fraction": str(p)} for d, p in preview.damage],
            "expected_damage": str(preview.expected_damage),
            "notes": list(preview.notes),
        }
        print(json.dumps(document, indent=1))
        return EXIT_OK
    print(f'{args.attacker} -> {args.target} at {args.distance}"')
    print(f"  hit: {hit} = {float(hit) * 100:.1f}%  (needs {preview.target_number}+ on 1d6)")
    for name, value in preview.modifiers:
        print(f"    {value:+d}  {name}")
    if not preview.modifiers:
        print("    no modifiers")
    print("  damage:")
    for amount, p in preview.damage:
        print(f"    {amount}: {p} = {float(p) * 100:.1f}%")
    print(f"  expected damage: {preview.expected_damage} = {float(preview.expected_damage):.2f}")
    for note in preview.notes:
        if not note.startswith("needs"):
            print(f"  {note}")
    return EXIT_OK


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
