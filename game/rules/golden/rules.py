"""Golden Frontiers' rules as pure functions: trait modifiers and Max Wounds, the damage card and the
graze / wound / crippling bookkeeping, the dice of an attack and its exact odds.

Each function quotes the sentence it implements; docs/RULES.md "Golden Frontiers" lists the decisions.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from game.dice import Distribution
from game.engine.cards import Card, Deck, DeckSpec
from game.engine.dice import (
    AcingPool,
    ExplodingDie,
    Opposed,
    deck_tie_break,
    deck_tie_break_then,
    hit_split,
    opposed,
)
from game.rules.golden.components import Health
from game.rules.golden.data import DamageData, DieBand, GoldenData, WeaponData

__all__ = [
    "DAMAGE_NAMES",
    "AttackOdds",
    "apply_damage",
    "attack_dice",
    "attack_odds",
    "cripple_points",
    "damage_odds",
    "defence_die",
    "die_label",
    "graze_points",
    "tie_damage_odds",
]

DAMAGE_NAMES = {
    "graze": "Graze",
    "wound": "Wound",
    "two_wounds": "Two Wounds",
    "crippling": "Crippling Wound",
}


def die_label(data: GoldenData, die: int) -> str:
    """ "d8+1": a trait die with its modifier ("When a roll is made using one of these traits, the die is
    modified positively by the amount listed.")."""
    mod = data.traits.modifier(die)
    return f"d{die}+{mod}" if mod else f"d{die}"


# -- damage -------------------------------------------------------------------------------------------
def _wound(health: Health, events: list[str]) -> None:
    # "If a character is at his maximum amount of wounds and would receive another wound they instead
    # receive a crippling wound."
    if health.wounds >= health.max_wounds:
        _cripple(health, events)
    else:
        health.wounds += 1
        events.append("wound")


def _cripple(health: Health, events: list[str]) -> None:
    # "When a crippling wound is inflicted all other grazes or wounds are removed from the character."
    health.crippled = True
    health.grazes = 0
    health.wounds = 0
    events.append("crippled")


def apply_damage(health: Health, result: str, grazes_per_wound: int = 3) -> list[str]:
    """Apply one damage card's result ("graze", "wound", "two_wounds", "crippling") to ``health``, in the
    book's bookkeeping; returns what happened, step by step ("graze", "wound", "crippled").

    "If a character has two grazes and would receive a third they instead receive a wound. The two
    grazes the character had are removed, resetting the character to zero grazes." Two Wounds are
    applied one after the other (docs/RULES.md G9). A crippled character takes nothing more."""
    events: list[str] = []
    if health.crippled or health.dead:
        return events
    if result == "graze":
        if health.grazes + 1 >= grazes_per_wound:
            health.grazes = 0
            _wound(health, events)
        else:
            health.grazes += 1
            events.append("graze")
    elif result == "wound":
        _wound(health, events)
    elif result == "two_wounds":
        _wound(health, events)
        if not health.crippled:
            _wound(health, events)
    elif result == "crippling":
        _cripple(health, events)
    else:
        raise ValueError(f"unknown damage result {result!r}: graze, wound, two_wounds or crippling")
    return events


def graze_points(health: Health, grazes_per_wound: int = 3) -> int:
    """The health track as one number: a graze is one point, a wound ``grazes_per_wound`` points; a
    crippled character is at :func:`cripple_points` (the track's end)."""
    if health.crippled or health.dead:
        return cripple_points(health.max_wounds, grazes_per_wound)
    return health.grazes + grazes_per_wound * health.wounds


def cripple_points(max_wounds: int, grazes_per_wound: int = 3) -> int:
    """Where the graze-point track cripples: one wound beyond Max Wounds."""
    return grazes_per_wound * (max_wounds + 1)


def damage_odds(data: GoldenData, counts: Mapping[str, int]) -> dict[str, Fraction]:
    """The exact odds of each damage result of the next card, from a composition (never the order)."""
    from game.engine.cards import odds  # noqa: PLC0415 - the one helper, kept next to its use

    found = odds(counts, lambda card: data.damage.result(card.rank))
    return {key: found[key] for key in DAMAGE_NAMES if key in found}


def card_result(data: GoldenData, card_id: str) -> str:
    return data.damage.result(Card.parse(card_id).rank)


# -- attacks ------------------------------------------------------------------------------------------
def attack_dice(band: DieBand, modifier: int) -> ExplodingDie | AcingPool:
    """The attack roll: "the attacking character rolls dice associated with their weapon adding any
    modifiers" — every die aces ("These rolls may ace"); a band of two dice (the shotgun's 2d8) is two
    dice that ace each on its own, summed (docs/RULES.md G6)."""
    if band.count == 1:
        return ExplodingDie(band.sides, modifier)
    return AcingPool(band.count, band.sides, modifier)


def defence_die(data: GoldenData, reflexes: int, cover: int) -> ExplodingDie:
    """ "The defending character rolls dice based on their reflexes adding in modifiers." (+ cover, own)."""
    return ExplodingDie(reflexes, data.traits.modifier(reflexes) + cover)


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """An attack's exact odds: strictly higher, the share a tie wins by cards, the total hit chance,
    the contest itself and the tie-break; the damage card's odds given a hit (``damage``), and apart,
    given a hit by a higher number (``damage_higher``: the next card) and given a tie won by the cards
    (``damage_after_tie``: the card after the two tie cards, docs/RULES.md G24)."""

    higher: Fraction
    tie_share: Fraction
    hit: Fraction
    contest: Opposed
    cards: Opposed
    damage: dict[str, Fraction]
    damage_higher: dict[str, Fraction]
    damage_after_tie: dict[str, Fraction]


def attack_odds(  # noqa: PLR0917 - an attack's seven parts
    data: GoldenData,
    spec: DeckSpec,
    deck: Deck,
    weapon: WeaponData,
    band: DieBand,
    attack_mod: int,
    defence: ExplodingDie,
) -> AttackOdds:
    """The exact hit chance of one attack (dice in closed form; the tie by the deck's two next cards)
    and the damage card's odds from the deck's remaining composition: after a higher number the next
    card; after a tie won by the cards the card drawn after those two ("the attacker and defender each
    draw a card from the top of the deck" first), so a hit's damage odds are the mixture of the two."""
    contest = opposed(attack_dice(band, attack_mod), defence)
    cards, after_higher = _deck_odds(data, deck, spec)
    higher, share, hit = hit_split(contest, cards)
    after_tie = tie_damage_odds(data, deck, spec) if share else {}
    mixed = _mixture(((higher, after_higher), (share, after_tie))) if hit else dict(after_higher)
    return AttackOdds(higher, share, hit, contest, cards, mixed, after_higher, after_tie)


_DECK_ODDS: dict[tuple[object, ...], tuple[Opposed, dict[str, Fraction]]] = {}


def deck_key(data: GoldenData, deck: Deck, spec: DeckSpec) -> tuple[object, ...]:
    """What the odds of an attack read of the deck: its composition (pile, discards, cards in play;
    never the pile's order), the joker mark, the rules' data and the deck's spec."""
    return (
        id(data),
        spec,
        tuple(sorted(deck.pile)),
        tuple(sorted(deck.discards)),
        tuple(deck.in_play),
        deck.joker_drawn,
    )


def _deck_odds(data: GoldenData, deck: Deck, spec: DeckSpec) -> tuple[Opposed, dict[str, Fraction]]:
    """What an attack's odds read of the deck (the tie's cards; the damage card after a higher roll),
    worked out once per composition: every attack asked about before the next card is drawn reads the
    same deck (an AI asks thousands). Keyed by the deck's composition (pile, discards, cards in play;
    never the pile's order): the same exact fractions as working them out each time. (The damage card
    after a tie is memoised by :func:`_tie_damage`.)"""
    key = deck_key(data, deck, spec)
    found = _DECK_ODDS.get(key)
    if found is None:
        found = (deck_tie_break(deck, spec), damage_odds(data, deck.next_counts()))
        if len(_DECK_ODDS) >= 256:
            _DECK_ODDS.clear()
        _DECK_ODDS[key] = found
    return found[0], dict(found[1])


def tie_damage_odds(data: GoldenData, deck: Deck, spec: DeckSpec) -> dict[str, Fraction]:
    """The damage card's exact odds after a tie the attacker's card won: the two tie cards come off the
    deck first (both discarded), then the damage card is drawn (from the pile, or from the reshuffled
    discards when it runs out). Empty when the cards cannot go the attacker's way."""
    pile = tuple(sorted(Counter(deck.pile).items()))
    # the discards matter only when the pile could run out on the way (fewer than three cards)
    discards = tuple(sorted(Counter(deck.discards).items())) if len(deck.pile) < 3 else ()
    return dict(_tie_damage(pile, discards, spec, data.damage))


@functools.lru_cache(maxsize=256)
def _tie_damage(
    pile: tuple[tuple[str, int], ...],
    discards: tuple[tuple[str, int], ...],
    spec: DeckSpec,
    damage: DamageData,
) -> tuple[tuple[str, Fraction], ...]:
    """:func:`tie_damage_odds` by composition, memoised (the AI asks it for every place it weighs)."""
    deck = Deck(list(Counter(dict(pile)).elements()), list(Counter(dict(discards)).elements()))
    found = deck_tie_break_then(deck, spec, lambda card: damage.result(card.rank))
    return tuple((key, found[key]) for key in DAMAGE_NAMES if key in found)


def _mixture(parts: tuple[tuple[Fraction, dict[str, Fraction]], ...]) -> dict[str, Fraction]:
    """The parts' odds weighed by their weights (a hit's damage card: after a higher roll, after a tie
    won by the cards); one division per part, none per result (exact all the same)."""
    total = sum((w for w, _ in parts), Fraction(0))
    out: dict[str, Fraction] = {}
    for weight, odds in parts:
        if not weight:
            continue
        share = weight / total
        for key, p in odds.items():
            found = out.get(key)
            out[key] = share * p if found is None else found + share * p
    return {key: out[key] for key in DAMAGE_NAMES if out.get(key)}


def damage_distribution(odds: AttackOdds, health: Health, grazes_per_wound: int = 3) -> Distribution:
    """The graze points an attack takes off the target's track (a miss: 0), for the engine's preview."""
    before = graze_points(health, grazes_per_wound)
    out: dict[int, Fraction] = {0: 1 - odds.hit}
    for result, p in odds.damage.items():
        after = Health(health.max_wounds, health.grazes, health.wounds, health.crippled, health.dead)
        apply_damage(after, result, grazes_per_wound)
        taken = graze_points(after, grazes_per_wound) - before
        out[taken] = out.get(taken, Fraction(0)) + odds.hit * p
    return Distribution({k: v for k, v in out.items() if v})
