"""``hexslinger odds rift``: the exact odds of one Through the Rift attack, or ``--balance`` (every attitude
against the rulebook's 7-stress claim), from the command line.

Registered as the plugin's ``odds`` (:class:`game.engine.registry.OddsCommand`); the CLI builds the
sub-command from it and knows nothing of Through the Rift.
"""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction

from game.engine.registry import EXIT_OK, EXIT_USAGE, OddsCommand

__all__ = ["ODDS", "configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    add = parser.add_argument
    add("--weapon", help='weapon name or id, e.g. "MDTC Model 8 Submachine Gun"')
    add("--attitude", help="the attacker's attitude: its traits at --level apply")
    add("--level", type=int, default=None, help="1, 4 or 7 (with --attitude; default 1)")
    add(
        "--traits",
        default="",
        help="extra dice traits, comma separated: firearm-mastery, spray-and-pray, ...",
    )
    add("--nudge", type=int, default=0, help="Nudges on this roll (+2 per die each)")
    add("--cover", action="store_true", help="the target is in cover (x1/2)")
    add("--crouch", action="store_true", help="the target Crouched Down (with --cover: zero)")
    add("--suppressed", action="store_true", help="the attacker is Suppressed (x1/2)")
    add("--down-the-sights", action="store_true", help="Down the Sights pending (best hit x4)")
    add("--bullet-sponge", action="store_true", help="the target has Bullet Sponge (x1/2)")
    add("--piercing", action="store_true", help="Piercing Fire's target behind (x1/2)")
    add("--depth", type=int, default=None, help="explosion chain depth computed exactly")
    add("--balance", action="store_true", help="every attitude against the 7-stress claim")
    add("--json", action="store_true", help="print JSON for scripts")


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.4g}%"


def run(args: argparse.Namespace) -> int:
    from game.rules.rift.odds import (  # noqa: PLC0415 (loaded when the command runs)
        OddsError,
        balance,
        needs_words,
        rift_odds,
        weapon_table,
    )

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
            "needs": needs_words(odds),
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
        f"  ({odds.dice_rolled} dice rolled, {result.weapon.count} kept; {needs_words(odds)})"
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


ODDS = OddsCommand(help="a Through the Rift attack, or --balance", configure=configure, run=run)
