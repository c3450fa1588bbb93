"""``hexslinger odds golden``: the exact odds of one Golden Frontiers attack, from the command line.

By units (``--attacker UNIT --target UNIT``: an NPC template or a default posse's character, e.g.
``gunhand``, ``marshal_haines``) or by dice (``--weapon NAME [--attack-mod N] --defence DIE[+MOD]``, e.g.
``--weapon revolver --defence d8+1``). Prints the hit chance split into "higher", "tie → cards" and the
total, the damage card's odds from a fresh deck and Hexslinger's own numbers; ``--balance`` pits the
default posses against each other at a distance (:mod:`game.rules.golden.balance`); ``--json`` for
scripts. Registered as the plugin's
``odds``; the CLI knows nothing of Golden Frontiers.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from fractions import Fraction
from typing import Any

from game.engine.registry import EXIT_OK, EXIT_USAGE, OddsCommand

__all__ = ["ODDS", "configure", "run"]


class OddsError(ValueError):
    """Arguments that do not name an attack; the message says what and how to fix it."""


def configure(parser: argparse.ArgumentParser) -> None:
    add = parser.add_argument
    add(
        "--attacker",
        help="attacking unit: an NPC template (gunhand, bruiser, marksman) or a default character",
    )
    add("--target", help="defending unit (as --attacker)")
    add("--weapon", help="weapon: knife, revolver, rifle, shotgun (by units: default the attacker's first)")
    add("--attack-mod", type=int, default=None, help="modifier added to the attack roll (by dice)")
    add("--defence", help="the defender's Reflexes die and modifier, e.g. d8+1 (by dice)")
    add("--distance", type=int, default=None, help="hexes to the target (default: 1 for a knife, else 2)")
    add("--cover", choices=("none", "half", "full"), default="none", help="the target's cover (own rule)")
    add("--moved", action="store_true", help="the attacker moved this round before the shot (own rule)")
    add(
        "--balance",
        action="store_true",
        help="the default posses face to face at --distance (default 6) behind --cover: exact odds per unit "
        "and the rounds each posse needs to make the other give up",
    )
    add("--json", action="store_true", help="print JSON for scripts")


def _key(text: str) -> str:
    return "_".join(text.strip().lower().replace("-", " ").replace("'", "").split())


def _units() -> dict[str, tuple[str, dict[str, int], tuple[str, ...]]]:
    """Every unit the command knows: NPC templates and the default posses' characters."""
    from game.rules.golden import RULESET  # noqa: PLC0415 - loaded when the command runs
    from game.rules.golden.builder import DEFAULTS  # noqa: PLC0415
    from game.rules.golden.data import TRAITS  # noqa: PLC0415

    data = RULESET.data
    units = {nid: (n.name, n.traits(), n.weapons) for nid, n in data.npcs.items()}
    for _, _, members in DEFAULTS:
        for m in members:
            if not isinstance(m, str):
                name, dice, items = m
                weapons = tuple(i for i in items if i in data.weapons)
                units[_key(name)] = (name, dict(zip(TRAITS, dice, strict=True)), weapons)
    return units


def _pct(p: Fraction) -> float:
    return round(float(p) * 100, 2)


def odds_document(args: argparse.Namespace) -> dict[str, Any]:
    from game.engine.cards import Deck, standard_54  # noqa: PLC0415
    from game.engine.dice import ExplodingDie  # noqa: PLC0415
    from game.rules.golden import RULESET  # noqa: PLC0415
    from game.rules.golden.rules import DAMAGE_NAMES, attack_odds  # noqa: PLC0415

    data = RULESET.data
    enc = data.encounter
    by_units = args.attacker is not None or args.target is not None
    if by_units and (args.attacker is None or args.target is None):
        raise OddsError(
            "by units, name both --attacker and --target (e.g. --attacker gunhand --target bruiser)"
        )
    if by_units and (args.defence is not None or args.attack_mod is not None):
        raise OddsError("--defence and --attack-mod are for odds by dice; by units they come from the sheets")
    if not by_units and (args.weapon is None or args.defence is None):
        raise OddsError(
            "name the attack by units (--attacker UNIT --target UNIT) or by dice "
            "(--weapon NAME [--attack-mod N] --defence DIE[+MOD], e.g. --weapon revolver --defence d8+1)"
        )
    units = _units()
    mods: list[tuple[str, int]] = []
    if by_units:
        found = []
        for role in ("attacker", "target"):
            key = _key(getattr(args, role))
            if key not in units:
                raise OddsError(f"unknown unit '{getattr(args, role)}' (known: {', '.join(units)})")
            found.append(units[key])
        (a_name, a_traits, a_weapons), (t_name, t_traits, _) = found
        weapon_id = _key(args.weapon) if args.weapon else a_weapons[0]
        if weapon_id not in a_weapons:
            raise OddsError(f"{a_name} carries {', '.join(a_weapons)}, not '{args.weapon}'")
    else:
        weapon_id = _key(args.weapon)
        a_name, t_name, a_traits = "attacker", "defender", {}
    if weapon_id not in data.weapons:
        raise OddsError(f"unknown weapon '{args.weapon}' (the equipment table's: {', '.join(data.weapons)})")
    weapon = data.weapons[weapon_id]
    distance = args.distance if args.distance is not None else (1 if not weapon.is_ranged else 2)
    band = weapon.band(distance)
    if distance < 1 or band is None:
        raise OddsError(f"the {weapon.name} reaches 1 to {weapon.reach} hexes, not {distance}")
    if by_units:
        if weapon.trait and data.traits.modifier(a_traits[weapon.trait]):
            mods.append((weapon.trait.capitalize(), data.traits.modifier(a_traits[weapon.trait])))
        reflexes = t_traits["reflexes"]
        defence_mod = data.traits.modifier(reflexes)
    else:
        if args.attack_mod:
            mods.append(("attack modifier", args.attack_mod))
        found_die = re.fullmatch(r"\s*d(\d+)\s*(?:([+-])\s*(\d+))?\s*", args.defence or "")
        if found_die is None or int(found_die.group(1)) not in data.traits.dice:
            dice = ", ".join(f"d{d}" for d in data.traits.dice)
            raise OddsError(
                f"--defence is the Reflexes die and modifier ({dice}), e.g. d8+1, not '{args.defence}'"
            )
        reflexes = int(found_die.group(1))
        defence_mod = int(found_die.group(3) or 0) * (-1 if found_die.group(2) == "-" else 1)
    if args.moved and weapon.is_ranged and enc.moving_attack:
        mods.append(("moved this round (own)", enc.moving_attack))
    cover = {"none": 0, "half": enc.half_cover, "full": enc.full_cover}[args.cover] if weapon.is_ranged else 0
    spec = standard_54(
        suit_priority=data.deck.suit_priority, ace_high=data.deck.ace_high, jokers=data.deck.jokers
    )
    deck = Deck(list(spec.card_ids()))
    defence = ExplodingDie(reflexes, defence_mod + cover)
    odds = attack_odds(data, spec, deck, weapon, band, sum(v for _, v in mods), defence)
    attack_mod = sum(v for _, v in mods)
    return {
        "ruleset": "golden",
        "attacker": a_name,
        "target": t_name,
        "weapon": weapon.name,
        "distance": distance,
        "attack": f"{band.label}{attack_mod:+d} (every die aces)",
        "modifiers": [{"name": n, "value": v} for n, v in mods],
        "defence": f"d{reflexes}{defence.modifier:+d} (aces)"
        + (f", {args.cover} cover (own)" if cover else ""),
        "higher": {"fraction": str(odds.higher), "percent": _pct(odds.higher)},
        "tie_cards": {
            "fraction": str(odds.tie_share),
            "percent": _pct(odds.tie_share),
            "tie": str(odds.contest.tie),
            "cards_won": str(odds.cards.win),
        },
        "hit": {"fraction": str(odds.hit), "percent": _pct(odds.hit)},
        "damage_card": [
            {"result": DAMAGE_NAMES[k], "fraction": str(p), "percent": _pct(p)}
            for k, p in odds.damage.items()
        ],
        "own_rules": {
            "hex": "1 inch",
            "ranges": {
                w.id: [{"dice": b.label, "to_hexes": b.reach} for b in w.bands] for w in data.weapons.values()
            },
            "move": enc.move,
            "move_with_action": enc.move_with_action,
            "moving_shot": enc.moving_attack,
            "cover": {"half": enc.half_cover, "full": enc.full_cover},
            "reload": {
                w.id: "action" if w.load_action else "free" for w in data.weapons.values() if w.is_ranged
            },
            "gives_up_at": enc.gives_up_at,
            "max_rounds": enc.max_rounds,
        },
    }


def balance_document(args: argparse.Namespace) -> dict[str, Any]:
    """``--balance``: the default posses' exchange at a distance (game.rules.golden.balance)."""
    from game.rules.golden import RULESET  # noqa: PLC0415
    from game.rules.golden.balance import balance  # noqa: PLC0415

    if any(getattr(args, k) is not None for k in ("attacker", "target", "weapon", "defence", "attack_mod")):
        raise OddsError("--balance takes only --distance, --cover and --json (it pits the default posses)")
    if args.moved:
        raise OddsError("--balance models standing shots: leave out --moved")
    data = RULESET.data
    enc = data.encounter
    distance = args.distance if args.distance is not None else 6
    if distance < 1:
        raise OddsError(f"--distance is 1 hex or more, not {distance}")
    cover = {"none": 0, "half": enc.half_cover, "full": enc.full_cover}[args.cover]
    posses = balance(data, distance=distance, cover=cover)
    return {
        "ruleset": "golden",
        "distance": distance,
        "cover": args.cover,
        "gives_up_at": enc.gives_up_at,
        "posses": [
            {
                "name": p.name,
                "points_per_round": {"fraction": str(p.per_round), "value": round(float(p.per_round), 3)},
                "points_to_break_the_other": p.to_break,
                "rounds": None if p.rounds is None else round(float(p.rounds), 2),
                "units": [
                    {
                        "name": u.name,
                        "track": u.track,
                        "weapon": u.weapon,
                        "hit": {"fraction": str(u.hit), "percent": _pct(u.hit)},
                        "points_per_attack": {"fraction": str(u.points), "value": round(float(u.points), 3)},
                    }
                    for u in p.units
                ],
            }
            for p in posses
        ],
    }


def _print_balance(doc: dict[str, Any]) -> None:
    cover = "" if doc["cover"] == "none" else f", the targets behind {doc['cover']} cover"
    print(
        f"The default posses at {doc['distance']} hexes{cover} (exact odds, a fresh deck; every unit in reach"
    )
    print(f"attacks once a round; a posse gives up with {doc['gives_up_at']:.0%} of its units out):")
    posses = doc["posses"]
    for index, p in enumerate(posses):
        other = posses[1 - index]["name"]
        rounds = "never" if p["rounds"] is None else f"{p['rounds']:.2f} rounds"
        print(
            f"  {p['name']}: {p['points_per_round']['value']:.2f} graze points a round; {other} gives up "
            f"after {p['points_to_break_the_other']}: {rounds}"
        )
        for u in p["units"]:
            if u["weapon"] is None:
                print(f"    {u['name']:<18} track {u['track']:>2}  nothing in reach")
                continue
            hit = u["hit"]["percent"]
            print(
                f"    {u['name']:<18} track {u['track']:>2}  {u['weapon']:<9} hit {hit:6.2f}%  "
                f"{u['points_per_attack']['value']:.2f} points an attack"
            )


def run(args: argparse.Namespace) -> int:
    try:
        doc = balance_document(args) if args.balance else odds_document(args)
    except OddsError as error:
        print(f"hexslinger odds golden: {error}", file=sys.stderr)
        return EXIT_USAGE
    if args.balance:
        if args.json:
            print(json.dumps(doc, indent=1, ensure_ascii=False))
        else:
            _print_balance(doc)
        return EXIT_OK
    if args.json:
        print(json.dumps(doc, indent=1, ensure_ascii=False))
        return EXIT_OK
    print(f"{doc['attacker']} -> {doc['target']}: {doc['weapon']} at {doc['distance']} hexes")
    print(f"  attack {doc['attack']} against defence {doc['defence']}")
    for m in doc["modifiers"]:
        print(f"    {m['value']:+d}  {m['name']}")
    for key, label in (("higher", "higher"), ("tie_cards", "tie → cards"), ("hit", "hit (total)")):
        part = doc[key]
        print(f"  {label:<12} {part['fraction']} = {part['percent']:.2f}%")
    print(f"    (a tie: {doc['tie_cards']['tie']}, won by the cards {doc['tie_cards']['cards_won']})")
    print("  damage card given a hit (a fresh deck of 54; after a tie, the card after the two tie cards):")
    for d in doc["damage_card"]:
        print(f"    {d['result']:<16} {d['fraction']} = {d['percent']:.2f}%")
    own = doc["own_rules"]
    ranges = "; ".join(
        f"{w} " + ", ".join(f"{b['dice']} to {b['to_hexes']}" for b in bands)
        for w, bands in own["ranges"].items()
    )
    cover = f"+{own['cover']['half']}/+{own['cover']['full']}"
    print(f"  own rules (1 hex = 1 inch): ranges {ranges} hexes; cover {cover}")
    reload = ", ".join(f"{w} {how}" for w, how in own["reload"].items())
    print(
        f"    move {own['move_with_action']} keeping the action, run {own['move']}; a shot after moving "
        f"{own['moving_shot']:+d}; loading: {reload}"
    )
    print(
        f"    a posse gives up with {own['gives_up_at']:.0%} of its units out; "
        f"the round limit is {own['max_rounds']}"
    )
    return EXIT_OK


ODDS = OddsCommand(help="a Golden Frontiers attack (by units or by dice)", configure=configure, run=run)
