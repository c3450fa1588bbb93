"""The even-fight check of ``hexslinger odds golden --balance``: the two default posses face to face at one
distance, in exact odds from a fresh deck.

For each unit: its graze-point track (where it is crippled), and its best attack at the distance on the
hostile posse's units (the weapon that takes the most graze points per attack on average, every die
acing, a tie broken by two cards, the damage card's odds): the hit chance and the expected graze points per
attack. For each posse: the graze points it deals in a round if every unit attacks once, the graze points
it must deal to make the other posse give up (the smallest tracks of the share ``gives_up_at`` of its
units, own, docs/RULES.md G21), and so the rounds that takes. It is a model of an open-ground exchange
(no cover unless asked, no moving, every unit in reach), not a game: ``hexslinger simulate`` plays them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from game.engine.cards import Deck, standard_54
from game.engine.dice import ExplodingDie
from game.rules.golden.components import Health
from game.rules.golden.data import TRAITS, GoldenData
from game.rules.golden.rules import attack_odds, cripple_points, damage_distribution

__all__ = ["BalanceUnit", "PosseBalance", "Unit", "balance", "default_units"]


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit as the check needs it: its name, trait dice and weapons."""

    name: str
    traits: dict[str, int]
    weapons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BalanceUnit:
    """One unit's line: its track, its best weapon at the distance, the mean hit chance and expected graze
    points per attack of that weapon on the hostile units (None: nothing in reach)."""

    name: str
    track: int
    weapon: str | None
    hit: Fraction
    points: Fraction


@dataclass(frozen=True, slots=True)
class PosseBalance:
    """One posse's side of the exchange: its units, the graze points it deals a round, the graze points
    that make the other posse give up, and the rounds that takes (None: it deals nothing)."""

    name: str
    units: tuple[BalanceUnit, ...]
    per_round: Fraction
    to_break: int
    rounds: Fraction | None


def default_units(data: GoldenData) -> list[tuple[str, list[Unit]]]:
    """The default posses (own content, ``builder.DEFAULTS``) as units: characters by their sheets, NPCs
    by their templates."""
    from game.rules.golden.builder import DEFAULTS  # noqa: PLC0415 - the builder imports the ruleset

    out: list[tuple[str, list[Unit]]] = []
    for name, _faction, members in DEFAULTS:
        units: list[Unit] = []
        for m in members:
            if isinstance(m, str):
                npc = data.npcs[m]
                units.append(Unit(npc.name, npc.traits(), npc.weapons))
            else:
                who, dice, items = m
                weapons = tuple(i for i in items if i in data.weapons)
                units.append(Unit(who, dict(zip(TRAITS, dice, strict=True)), weapons))
        out.append((name, units))
    return out


def _track(data: GoldenData, unit: Unit) -> int:
    return cripple_points(data.traits.wounds(unit.traits["survival"]), data.damage.grazes_per_wound)


def _attack(
    data: GoldenData, attacker: Unit, weapon_id: str, target: Unit, *, distance: int, cover: int
) -> tuple[Fraction, Fraction] | None:
    """(hit chance, expected graze points) of one attack on a fresh target; None out of reach."""
    weapon = data.weapons[weapon_id]
    band = weapon.band(distance)
    if band is None:
        return None
    mod = data.traits.modifier(attacker.traits[weapon.trait]) if weapon.trait else 0
    reflexes = target.traits["reflexes"]
    defence = ExplodingDie(reflexes, data.traits.modifier(reflexes) + (cover if weapon.is_ranged else 0))
    spec = standard_54(
        suit_priority=data.deck.suit_priority, ace_high=data.deck.ace_high, jokers=data.deck.jokers
    )
    odds = attack_odds(data, spec, Deck(list(spec.card_ids())), weapon, band, mod, defence)
    fresh = Health(data.traits.wounds(target.traits["survival"]))
    taken = damage_distribution(odds, fresh, data.damage.grazes_per_wound)
    return odds.hit, taken.mean


def _line(data: GoldenData, unit: Unit, hostiles: Sequence[Unit], distance: int, cover: int) -> BalanceUnit:
    best: tuple[Fraction, Fraction, str] | None = None
    for weapon_id in unit.weapons:
        found = [_attack(data, unit, weapon_id, t, distance=distance, cover=cover) for t in hostiles]
        if any(f is None for f in found) or not found:
            continue
        hit = sum((f[0] for f in found if f is not None), Fraction(0)) / len(found)
        points = sum((f[1] for f in found if f is not None), Fraction(0)) / len(found)
        if best is None or points > best[1]:
            best = (hit, points, data.weapons[weapon_id].name)
    track = _track(data, unit)
    if best is None:
        return BalanceUnit(unit.name, track, None, Fraction(0), Fraction(0))
    return BalanceUnit(unit.name, track, best[2], best[0], best[1])


def balance(
    data: GoldenData,
    posses: Sequence[tuple[str, Sequence[Unit]]] | None = None,
    distance: int = 6,
    cover: int = 0,
) -> tuple[PosseBalance, PosseBalance]:
    """The exchange between two posses (default: the default posses) at ``distance`` hexes, the targets
    behind ``cover`` (its defence bonus against shots)."""
    if posses is None:
        posses = default_units(data)
    if len(posses) != 2:
        raise ValueError(f"the balance check needs two posses, not {len(posses)}")
    out: list[PosseBalance] = []
    for index, (name, units) in enumerate(posses):
        hostiles = posses[1 - index][1]
        lines = tuple(_line(data, u, hostiles, distance, cover) for u in units)
        per_round = sum((line.points for line in lines), Fraction(0))
        tracks = sorted(_track(data, u) for u in hostiles)
        need = max(1, math.ceil(data.encounter.gives_up_at * len(tracks) - 1e-9))
        to_break = sum(tracks[:need])
        rounds = Fraction(to_break) / per_round if per_round else None
        out.append(PosseBalance(name, lines, per_round, to_break, rounds))
    return out[0], out[1]
