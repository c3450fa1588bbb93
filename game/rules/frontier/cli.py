"""``hexslinger odds frontier``: the exact odds of one Frontier attack, from the command line.

Registered as the plugin's ``odds`` (:class:`game.engine.registry.OddsCommand`); the CLI builds the
sub-command from it and knows nothing of Frontier.
"""

from __future__ import annotations

import argparse
import json
import sys

from game.engine.registry import EXIT_OK, EXIT_USAGE, OddsCommand

__all__ = ["ODDS", "configure", "run"]


def configure(parser: argparse.ArgumentParser) -> None:
    add = parser.add_argument
    add("--attacker", required=True, help="unit type, e.g. deputy, gang_leader, dog")
    add("--weapon", default=None, help="weapon (default: the attacker's first; fists)")
    add("--target", required=True, help="unit type of the target")
    add("--distance", type=int, required=True, help="inches (hexes) to the target")
    add("--cover", choices=("none", "half", "full"), default="none")
    add("--aim", action="store_true", help="the attacker Aimed first (+1)")
    add("--prone", action="store_true", help="the target is prone")
    add("--taking-cover", action="store_true", help="the target took the Take Cover action")
    add("--wounded", action="store_true", help="the target has lost all its Toughness")
    add("--damage", type=int, default=0, help="damage the target has already taken")
    add("--dastardly", action="store_true", help="the target has Dastardly's wound")
    add("--json", action="store_true", help="print JSON for scripts")


def run(args: argparse.Namespace) -> int:
    from game.rules.frontier.data import default_data  # noqa: PLC0415 (loaded when the command runs)
    from game.rules.frontier.odds import OddsError, attack_odds  # noqa: PLC0415

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
            "effective_number": preview.effective_number,
            "needs": preview.needs_words(),
            "modifiers": [{"name": n, "value": v} for n, v in preview.modifiers],
            "damage": [{"damage": d, "fraction": str(p)} for d, p in preview.damage],
            "expected_damage": str(preview.expected_damage),
            "notes": list(preview.notes),
        }
        print(json.dumps(document, indent=1))
        return EXIT_OK
    print(f'{args.attacker} -> {args.target} at {args.distance}"')
    print(f"  hit: {hit} = {float(hit) * 100:.1f}%  ({preview.needs_words()})")
    for name, value in preview.modifiers:
        print(f"    {value:+d}  {name}")
    if not preview.modifiers:
        print("    no modifiers")
    print("  damage:")
    for amount, p in preview.damage:
        print(f"    {amount}: {p} = {float(p) * 100:.1f}%")
    print(f"  expected damage: {preview.expected_damage} = {float(preview.expected_damage):.2f}")
    for note in preview.notes:
        print(f"  {note}")
    return EXIT_OK


ODDS = OddsCommand(help="a Frontier attack", configure=configure, run=run)
