"""Exact odds of a Through the Rift attack: hits, the stress distribution and the expected stress.

Built on :func:`~game.rules.rift.stress.die_outcomes`, the exact distribution of the same per-die
procedure :func:`~game.rules.rift.stress.roll_attack` rolls. The dice of an attack are independent until
Firearm Mastery drops the lowest, so the attack is the top ``count`` of ``count + k`` independent draws:
a dynamic programme over the die values from the highest down (how many dice show each value, a
multinomial weight) gives the exact joint law of the kept dice without enumerating ``S ** (n + k)``
rolls. All arithmetic is on integers over one common denominator, then turned into Fractions.

Improved Fireworks makes the values unbounded. Chains longer than ``depth`` extra dice are lumped into a
tail: the stress distribution is exact below ``tail_from`` and carries every total from there up as one
exact ``>= tail_from`` bucket, so the probabilities still sum to exactly 1; the expected stress is then
given as exact lower and upper bounds (the upper bound a rigorous bound on the tail's contribution).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction

from game.dice import Distribution
from game.rules.rift.data import AttitudeData, RiftData, WeaponData, default_data
from game.rules.rift.stress import (
    MAX_MULTIPLIER,
    DiceTraits,
    WeaponStats,
    apply_multipliers,
    clamp_multiplier,
    die_outcomes,
    effective_traits,
)

__all__ = [
    "DOWN_THE_SIGHTS",
    "HALF",
    "AttackOdds",
    "BalanceRow",
    "OddsError",
    "RiftOdds",
    "WeaponRound",
    "attack_odds",
    "balance",
    "effective_threshold",
    "needs_words",
    "nudge_gains",
    "rift_odds",
    "tail_depth",
    "weapon_table",
]

HALF = Fraction(1, 2)
DOWN_THE_SIGHTS = MAX_MULTIPLIER  # "The next shot you make that hits inflicts 4x as much stress."
DEFAULT_TAIL = Fraction(1, 10**6)


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """The exact odds of one attack with every hit assigned to one target.

    ``stress`` holds P(total = t) for every total below ``tail_from``; ``tail`` is P(total >= tail_from)
    (0 and ``tail_from`` None when the attack cannot explode without limit). ``mean_low`` and ``mean_high``
    bound the expected stress exactly; they are equal when there is no tail.
    """

    weapon: WeaponStats
    traits: DiceTraits  # as applied to this weapon (effective_traits)
    factors: tuple[Fraction, ...]
    down_the_sights: int  # Down the Sights on the best hit: 0 / False none, 1 / True one, 2 ... several
    zeroed: bool
    dice_rolled: int
    hit_probability: Fraction  # each die rolled, before any is dropped
    hits: Distribution  # hits among the kept dice
    stress: dict[int, Fraction]
    tail: Fraction
    tail_from: int | None
    mean_low: Fraction
    mean_high: Fraction
    depth: int  # extra dice of an explosion chain computed exactly (Improved Fireworks)
    beyond_depth: Fraction = Fraction(0)  # P(some die's chain is longer than depth), inside ``tail``

    @property
    def exact(self) -> bool:
        return self.tail == 0

    @property
    def mean(self) -> Fraction:
        """The expected stress (exact when :attr:`exact`, else the lower bound)."""
        return self.mean_low

    @property
    def multiplier(self) -> Fraction:
        """The multiplier every hit takes (the ¼-4x limit applied)."""
        return clamp_multiplier(self.factors)


def tail_depth(weapon: WeaponStats, traits: DiceTraits, tail: Fraction = DEFAULT_TAIL) -> int:
    """The smallest chain depth whose tail (probability that any die of the attack explodes deeper) is
    at most ``tail``; 0 when the attack cannot explode without limit."""
    used = effective_traits(weapon, traits)
    if used.explode >= 0 or weapon.sides < 2:
        return 0
    dice = weapon.count + used.extra_dice_drop_lowest
    per_die = die_outcomes(weapon, used, depth=0).tail
    depth = 1
    while dice * per_die / weapon.sides**depth > tail:
        depth += 1
    return depth


def _binomial_hits(dice: int, kept: int, p: Fraction) -> Distribution:
    result: dict[int, Fraction] = {}
    for hits in range(dice + 1):
        q = math.comb(dice, hits) * p**hits * (1 - p) ** (dice - hits)
        result[min(hits, kept)] = result.get(min(hits, kept), Fraction(0)) + q
    return Distribution({k: v for k, v in result.items() if v})


@functools.lru_cache(maxsize=8192)  # a pure function of frozen values: the AI asks the same odds often
def attack_odds(
    weapon: WeaponStats,
    traits: DiceTraits = DiceTraits(),  # noqa: B008 - frozen
    factors: tuple[Fraction, ...] = (),
    *,
    down_the_sights: int = False,
    zeroed: bool = False,
    depth: int | None = None,
    tail: Fraction = DEFAULT_TAIL,
) -> AttackOdds:
    """The exact odds of ``weapon`` fired (or thrown) with ``traits``, every hit at one target.

    ``factors`` are the multipliers each hit takes (cover ½, Suppressed ½, Bullet Sponge ½, Piercing
    Fire's ½ ...), limited to ¼-4x and rounded down to at least 1 per shot. ``down_the_sights``: the
    highest kept hit also takes 4x (Down the Sights "only affects individual shots"; the attacker assigns
    the dice of a volley together, so it picks the best one); a number: that many Down the Sights pending,
    each a 4x on that hit (within the limit). ``zeroed``: every hit is reduced to zero
    (Crouch Down behind existing cover). ``depth``: extra dice of an explosion chain computed exactly
    (default: deep enough that the tail is at most ``tail``).
    """
    used = effective_traits(weapon, traits)
    if depth is None:
        depth = tail_depth(weapon, used, tail)
    die = die_outcomes(weapon, used, depth=max(depth, 0))
    kept, dice = weapon.count, weapon.count + used.extra_dice_drop_lowest
    hits = _binomial_hits(dice, kept, die.hit_probability)
    if zeroed:  # Crouch Down: "If a shot would have already been halved ... it is instead reduced to zero."
        zero = Fraction(0)
        return AttackOdds(
            weapon, used, tuple(factors), down_the_sights, zeroed, dice, die.hit_probability, hits,
            {0: Fraction(1)}, zero, None, zero, zero, depth,
        )  # fmt: skip
    factor_list = list(factors)
    top_factors = [*factor_list, *[DOWN_THE_SIGHTS] * int(down_the_sights)]

    def base(value: int) -> int:
        return apply_multipliers(value, factor_list)

    def top(value: int) -> int:
        return apply_multipliers(value, top_factors)

    # integer weights over one denominator
    denominator = math.lcm(*(p.denominator for p in die.values.values()), die.tail.denominator)
    weights = {v: int(p * denominator) for v, p in die.values.items()}
    tail_weight = int(die.tail * denominator)
    hit_values = sorted((v for v in weights if v >= weapon.threshold), reverse=True)
    below: dict[int, int] = {}
    running = sum(weights.values())
    for v in hit_values:
        running -= weights[v]
        below[v] = running  # weight of every finite value under v (misses included)
    miss_weight = sum(w for v, w in weights.items() if v < weapon.threshold)

    finished: dict[int, int] = {}
    states: dict[tuple[int, int, bool], int] = {(0, 0, bool(down_the_sights)): 1}
    for v in hit_values:
        w = weights[v]
        powers = [w**t for t in range(dice + 1)]
        nxt: dict[tuple[int, int, bool], int] = {}
        for (placed, total, pending), weight in states.items():
            left = dice - placed
            for t in range(left + 1):
                ways = weight * math.comb(left, t) * powers[t]
                if not ways:
                    continue
                taken = min(t, kept - placed)
                new_total, new_pending = total, pending
                if taken > 0:
                    if pending:
                        new_total += top(v) + (taken - 1) * base(v)
                        new_pending = False
                    else:
                        new_total += taken * base(v)
                if placed + t >= kept:  # every kept slot filled: the rest only need to be lower
                    rest = ways * below[v] ** (dice - placed - t)
                    finished[new_total] = finished.get(new_total, 0) + rest
                else:
                    key = (placed + t, new_total, new_pending)
                    nxt[key] = nxt.get(key, 0) + ways
        states = nxt
    for (placed, total, _), weight in states.items():
        finished[total] = finished.get(total, 0) + weight * miss_weight ** (dice - placed)

    scale = denominator**dice
    finite = {t: Fraction(w, scale) for t, w in finished.items() if w}
    mean_finite = sum((t * p for t, p in finite.items()), Fraction(0))
    tail_p = 1 - Fraction(denominator - tail_weight, denominator) ** dice
    if tail_p == 0:
        return AttackOdds(
            weapon, used, tuple(factors), down_the_sights, zeroed, dice, die.hit_probability, hits,
            dict(sorted(finite.items())), Fraction(0), None, mean_finite, mean_finite, depth,
        )  # fmt: skip
    # Every tail outcome has a tail die on top: kept, a hit, and the Down the Sights shot if any.
    cut = top(die.tail_from) if down_the_sights else base(die.tail_from)
    stress = {t: p for t, p in sorted(finite.items()) if t < cut}
    bucket = tail_p + sum((p for t, p in finite.items() if t >= cut), Fraction(0))
    low = mean_finite + tail_p * cut
    # E[total; tail] <= kept * P(tail) + M * sum_i E[V_i; tail], each shot being at most max(1, M * v)
    most = clamp_multiplier(top_factors)
    q = die.tail
    others = 1 - (1 - q) ** (dice - 1)
    high = mean_finite + kept * tail_p + most * dice * (die.tail_mean_value + die.mean_value * others)
    return AttackOdds(
        weapon, used, tuple(factors), down_the_sights, zeroed, dice, die.hit_probability, hits,
        stress, bucket, cut, low, high, depth, tail_p,
    )  # fmt: skip


# -- names, attitudes and the balance claim (the data is the engine's rift.toml) ------------------------


class OddsError(ValueError):
    """A name or number the odds cannot be worked out for; the message says what is allowed."""


# trait id -> what it does to the dice (the rest of a trait's text is the engine's business)
DICE_TRAIT_IDS = (
    "firearm_mastery",
    "improved_firearm_mastery",
    "spray_and_pray",
    "improved_spray_and_pray",
    "bring_the_fireworks",
    "improved_fireworks",
    "thread_the_needle",
)
LEVELS = (1, 4, 7)
# "All of the player weapons are balanced to deal roughly 7 stress per round, with Daring and Calculated
# players doing 125% and Deliberate players doing 150% under ideal conditions."
BASE_CLAIM = Fraction(7)
CLAIM_SHARE = {"deliberate": Fraction(3, 2), "daring": Fraction(5, 4), "calculated": Fraction(5, 4)}
DEFAULT_SIDEARM = "mdtc_model_4_pistol"  # "By default, all attitudes start with a "Standard" MDTC Model 4"


def _key(text: str) -> str:
    """A name or id reduced for matching: lower case, '&' as 'and', quotes and punctuation dropped."""
    text = text.lower().replace("&", " and ")
    return " ".join("".join(c if c.isalnum() else " " for c in text).split())


def weapon_stats(weapon: WeaponData) -> WeaponStats:
    """The dice of a weapon of the data file (a melee attack marked as such)."""
    return WeaponStats(
        weapon.name, weapon.count, weapon.sides, weapon.threshold, weapon.range, weapon.radius, weapon.melee
    )


def find_weapon(name: str, data: RiftData) -> WeaponData:
    """A weapon by its id or its name as the book writes it (quotes and nickname optional)."""
    wanted = _key(name)
    for weapon in data.weapons.values():
        plain = weapon.name.split('"')
        forms = {_key(weapon.id), _key(weapon.name), _key(plain[0] + plain[-1]) if len(plain) == 3 else ""}
        if wanted in forms:
            return weapon
    names = "; ".join(w.name for w in data.weapons.values() if not w.own)
    raise OddsError(f"unknown weapon '{name}' (Through the Rift weapons: {names})")


def find_attitude(name: str, data: RiftData) -> AttitudeData:
    wanted = _key(name)
    for attitude in data.attitudes.values():
        if wanted in {_key(attitude.id), _key(attitude.name)}:
            return attitude
    raise OddsError(f"unknown attitude '{name}' (attitudes: {', '.join(data.attitudes)})")


def find_trait(name: str) -> str:
    wanted = _key(name)
    for trait in DICE_TRAIT_IDS:
        if wanted == _key(trait):
            return trait
    options = ", ".join(t.replace("_", "-") for t in DICE_TRAIT_IDS)
    raise OddsError(f"unknown dice trait '{name}' (traits that change an attack: {options})")


def attitude_trait_ids(attitude: AttitudeData, level: int) -> tuple[str, ...]:
    """The attitude's traits up to ``level`` ("LEVEL 1", "LEVEL 4", "LEVEL 7")."""
    if level < 1:
        raise OddsError(f"a Rifter's level is 1 or more, not {level}")
    return tuple(t for lv, ids in sorted(attitude.traits.items()) if lv <= level for t in ids)


def attitude_action_ids(attitude: AttitudeData, level: int) -> tuple[str, ...]:
    return tuple(a for lv, ids in sorted(attitude.actions.items()) if lv <= level for a in ids)


def dice_traits(trait_ids: Iterable[str], nudge: int = 0) -> DiceTraits:
    ids = set(trait_ids)
    return DiceTraits(
        extra_dice_drop_lowest=2
        if "improved_firearm_mastery" in ids
        else 1
        if "firearm_mastery" in ids
        else 0,
        reroll_low="spray_and_pray" in ids or "improved_spray_and_pray" in ids,
        reroll_miss="improved_spray_and_pray" in ids,
        explode=-1 if "improved_fireworks" in ids else 1 if "bring_the_fireworks" in ids else 0,
        nudge=nudge,
    )


@dataclass(frozen=True, slots=True)
class RiftOdds:
    """The odds asked for on the command line, with what was applied, in words."""

    odds: AttackOdds
    weapon: WeaponData
    applied: tuple[str, ...]  # traits and multipliers, e.g. "Spray & Pray", "cover x1/2"
    notes: tuple[str, ...]


def rift_odds(
    weapon: str,
    *,
    attitude: str | None = None,
    level: int | None = None,
    traits: Iterable[str] = (),
    nudge: int = 0,
    cover: bool = False,
    crouch: bool = False,
    suppressed: bool = False,
    down_the_sights: bool = False,
    bullet_sponge: bool = False,
    piercing: bool = False,
    depth: int | None = None,
    data: RiftData | None = None,
) -> RiftOdds:
    """Odds of one attack from names: the weapon, the attacker's attitude and level (its dice traits), any
    extra traits, Nudges, and the situation of the target."""
    data = data or default_data()
    arms = find_weapon(weapon, data)
    ids: list[str] = []
    if attitude is not None:
        found = find_attitude(attitude, data)
        ids.extend(t for t in attitude_trait_ids(found, level or 1) if t in DICE_TRAIT_IDS)
    elif level is not None:
        raise OddsError("--level needs --attitude (the level picks that attitude's traits)")
    ids.extend(find_trait(t) for t in traits)
    if nudge < 0:
        raise OddsError(f"--nudge counts Nudges: 0 or more, not {nudge}")
    if depth is not None and depth < 1:
        raise OddsError(f"--depth is 1 or more, not {depth}")
    stats = weapon_stats(arms)
    used = effective_traits(stats, dice_traits(ids, nudge))
    applied = [data.traits[t].name for t in dict.fromkeys(ids) if t in data.traits]
    notes: list[str] = []
    if used != dice_traits(ids, nudge) or (nudge and used.nudge == 0):
        kind = "a melee attack" if arms.melee else "an explosive"
        notes.append(f"{arms.name} is {kind}: only the traits that name it apply")
    if nudge and used.nudge:
        applied.append(f"Nudge x{nudge} (+{2 * nudge} on every die)")
    factors: list[Fraction] = []
    ignores_cover = "thread_the_needle" in ids
    zeroed = False
    if cover or crouch:
        if ignores_cover:
            notes.append("Thread the Needle: cover (and a crouched target's cover) is ignored")
        elif cover and crouch:
            zeroed = True
            applied.append("cover + Crouch Down: every hit reduced to zero")
        else:
            factors.append(HALF)
            applied.append("cover x1/2" if cover else "Crouch Down (cover in all directions) x1/2")
    if suppressed:
        factors.append(HALF)
        applied.append("attacker Suppressed x1/2")
    if bullet_sponge:
        factors.append(HALF)
        applied.append("Bullet Sponge x1/2")
    if piercing:
        if arms.explosive or arms.melee:
            raise OddsError("Piercing Fire is for firearms ('If a target of your firearm ...')")
        factors.append(HALF)
        applied.append("Piercing Fire: the target behind, x1/2")
    if down_the_sights:
        if arms.explosive or arms.melee:
            raise OddsError("Down the Sights multiplies a shot: firearms only")
        applied.append("Down the Sights: the best hit x4")
    if not arms.usable:
        notes.append(f"{arms.name} cannot be carried in Hexslinger (see docs/RULES.md)")
    odds = attack_odds(
        stats, used, tuple(factors), down_the_sights=down_the_sights, zeroed=zeroed, depth=depth
    )
    if odds.tail_from is not None:
        notes.append(
            f"Improved Fireworks has no limit: chains of more than {odds.depth} extra dice are one exact "
            f"bucket, stress >= {odds.tail_from}; the expected stress is bounded exactly"
        )
    return RiftOdds(odds, arms, tuple(applied), tuple(notes))


# -- the balance claim ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WeaponRound:
    """One weapon's expected stress per round for an attitude, under the ideal conditions."""

    weapon: str
    per_round: Fraction  # exact (lower bound with Improved Fireworks)
    per_round_high: Fraction
    policy: str
    piercing: Fraction | None = None  # Deliberate: plus a second target in line, ½ per hit


@dataclass(frozen=True, slots=True)
class BalanceRow:
    attitude: str
    level: int
    traits: tuple[str, ...]
    weapons: tuple[WeaponRound, ...]  # the attitude's own weapon(s); Cunning has none: the Model 4
    sidearm: WeaponRound  # the Model 4 Pistol every attitude starts with, with the same traits
    claim: Fraction

    @property
    def best(self) -> WeaponRound:
        return max(self.weapons, key=lambda w: w.per_round)

    @property
    def ratio(self) -> Fraction:
        return self.best.per_round / self.claim


def _weapon_round(stats: WeaponStats, traits: DiceTraits, sights: bool, with_piercing: bool) -> WeaponRound:
    plain = attack_odds(stats, traits)
    pierce_plain = attack_odds(stats, traits, (HALF,)).mean if with_piercing else Fraction(0)
    every = "throw every turn" if stats.explosive else "fire every turn"
    best = WeaponRound(stats.name, plain.mean, plain.mean_high, every, plain.mean + pierce_plain)
    if sights and not stats.explosive:
        # Turn A: Down the Sights (2 AP); turns B: fire with it pending until a shot hits ("A missed shot
        # does not remove the multiplier"). Renewal: (E[B] / h) stress over (1 + 1/h) turns.
        aimed = attack_odds(stats, traits, down_the_sights=True)
        h = 1 - aimed.hits.probability(0)
        if h:
            rate = aimed.mean / (1 + h)
            pierce = attack_odds(stats, traits, (HALF,), down_the_sights=True).mean / (1 + h)
            if rate > best.per_round:
                best = WeaponRound(
                    stats.name,
                    rate,
                    aimed.mean_high / (1 + h),
                    "Down the Sights, then fire until a shot hits",
                    rate + pierce if with_piercing else None,
                )
    if not with_piercing:
        best = WeaponRound(best.weapon, best.per_round, best.per_round_high, best.policy)
    return best


def balance(data: RiftData | None = None, levels: Iterable[int] = LEVELS) -> list[BalanceRow]:
    """Each attitude at each level with its signature weapon(s), expected stress per round under ideal
    conditions, next to the book's claim.

    Ideal conditions: the target is in range, not in cover, not crouched, and the attacker makes its one
    attack every turn (one turn per round) with its best use of its own damage actions; explosives hit one
    target; no help from allies (no Nudge, Shout Order).
    """
    data = data or default_data()
    rows: list[BalanceRow] = []
    for attitude in data.attitudes.values():
        weapons = attitude.weapons or (DEFAULT_SIDEARM,)
        for level in levels:
            ids = attitude_trait_ids(attitude, level)
            traits = dice_traits(t for t in ids if t in DICE_TRAIT_IDS)
            sights = "down_the_sights" in attitude_action_ids(attitude, level)
            piercing = "piercing_fire" in ids
            rounds = tuple(
                _weapon_round(weapon_stats(data.weapons[w]), traits, sights, piercing) for w in weapons
            )
            sidearm = _weapon_round(weapon_stats(data.weapons[DEFAULT_SIDEARM]), traits, sights, piercing)
            claim = BASE_CLAIM * CLAIM_SHARE.get(attitude.id, Fraction(1))
            names = tuple(data.traits[t].name for t in ids if t in DICE_TRAIT_IDS)
            rows.append(BalanceRow(attitude.name, level, names, rounds, sidearm, claim))
    return rows


def weapon_table(data: RiftData | None = None) -> list[tuple[WeaponData, AttackOdds]]:
    """Every player weapon's plain odds (no traits, no multipliers), per attack."""
    data = data or default_data()
    return [(w, attack_odds(weapon_stats(w))) for w in data.weapons.values() if not w.own]


def nudge_gains(data: RiftData | None = None) -> list[tuple[str, str, Fraction]]:
    """What one Nudge (Cunning, 2 AP) adds to each attitude's signature firearm at level 1."""
    data = data or default_data()
    gains: list[tuple[str, str, Fraction]] = []
    for attitude in data.attitudes.values():
        traits = dice_traits(t for t in attitude_trait_ids(attitude, 1) if t in DICE_TRAIT_IDS)
        for w in attitude.weapons or (DEFAULT_SIDEARM,):
            stats = weapon_stats(data.weapons[w])
            if stats.explosive:
                continue
            before = attack_odds(stats, traits).mean
            after = attack_odds(stats, replace(traits, nudge=1)).mean
            gains.append((attitude.name, stats.name, after - before))
    return gains


def effective_threshold(odds: AttackOdds) -> int:
    """The face each die needs with the Nudges counted ("+2 on every die"): the threshold less them."""
    return odds.weapon.threshold - 2 * odds.traits.nudge


def needs_words(odds: AttackOdds) -> str:
    """ "needs 10+ after +2" (a 12+ die with one Nudge), "needs 12+", "unreachable: cannot hit"."""
    weapon = odds.weapon
    effective = effective_threshold(odds)
    if odds.hit_probability == 0:
        return "unreachable: cannot hit"
    if effective == weapon.threshold:
        return f"needs {effective}+"
    if effective <= 1:
        return f"any roll after +{weapon.threshold - effective}"
    return f"needs {effective}+ after +{weapon.threshold - effective}"
