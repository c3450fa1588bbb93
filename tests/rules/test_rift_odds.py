"""Through the Rift: exact attack odds (game.rules.rift.odds) against brute force and the rulebook."""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.cli import main
from game.rules.rift.odds import (
    DEFAULT_TAIL,
    HALF,
    AttackOdds,
    OddsError,
    attack_odds,
    balance,
    rift_odds,
    weapon_table,
)
from game.rules.rift.stress import (
    DiceTraits,
    WeaponStats,
    apply_multipliers,
    die_outcomes,
    effective_traits,
)
from tests.rules.test_rift_stress import enumerate_attack

MODEL_4 = WeaponStats('"Standard" MDTC Model 4 Pistol', 3, 6, 5, 6)
MODEL_13 = WeaponStats('"Outset Special" MDTC Model 13 Rifle', 2, 10, 7, 8)
WEAVER_1939 = WeaponStats("Weaver 1939 Submachine Gun", 4, 8, 7, 4)


def brute_force(
    weapon: WeaponStats, traits: DiceTraits, factors: tuple[Fraction, ...], sights: bool
) -> Counter[int]:
    """Every combination of die values, the lowest dropped, multipliers per shot, Down the Sights on the
    highest hit."""
    outcome = die_outcomes(weapon, traits)
    assert outcome.tail == 0
    used = effective_traits(weapon, traits)
    drop = used.extra_dice_drop_lowest
    result: Counter[int] = Counter()
    for dice in itertools.product(outcome.values.items(), repeat=weapon.count + drop):
        p = Fraction(1)
        for _, q in dice:
            p *= q
        kept = sorted((v for v, _ in dice), reverse=True)[: weapon.count]
        hits = [v for v in kept if v >= weapon.threshold]
        total = sum(apply_multipliers(v, factors) for v in hits)
        if sights and hits:
            total += apply_multipliers(hits[0], (*factors, Fraction(4))) - apply_multipliers(hits[0], factors)
        result[total] += p  # type: ignore[assignment]
    return result


def test_the_model_4_pistol_exactly() -> None:
    """ "3d6 / 5+ / 6t": each die hits on a 5 or 6 for that much stress."""
    odds = attack_odds(MODEL_4)
    assert odds.hit_probability == Fraction(1, 3)
    assert odds.stress[0] == Fraction(8, 27)
    assert odds.stress[18] == Fraction(1, 216)
    assert odds.hits.probability(3) == Fraction(1, 27)
    assert odds.mean == odds.mean_high == Fraction(11, 2)
    assert odds.exact and odds.tail_from is None


small_traits = st.builds(
    DiceTraits,
    extra_dice_drop_lowest=st.integers(0, 2),
    reroll_low=st.booleans(),
    reroll_miss=st.booleans(),
    explode=st.sampled_from([0, 1]),
    nudge=st.integers(0, 1),
)
small_weapons = st.builds(
    WeaponStats,
    name=st.just("small"),
    count=st.integers(1, 2),
    sides=st.integers(0, 4),
    threshold=st.integers(1, 6),
    range=st.just(4),
    radius=st.none() | st.just(1),
)
factor_lists = st.lists(st.sampled_from([HALF, Fraction(1, 4), Fraction(2), Fraction(4)]), max_size=3)


@settings(max_examples=120, deadline=None)
@given(small_weapons, small_traits, factor_lists, st.booleans())
def test_odds_equal_brute_force(
    weapon: WeaponStats, traits: DiceTraits, factors: list[Fraction], sights: bool
) -> None:
    odds = attack_odds(weapon, traits, tuple(factors), down_the_sights=sights)
    assert odds.exact
    assert Counter(odds.stress) == +brute_force(weapon, traits, tuple(factors), sights)
    assert sum(odds.stress.values()) == 1
    assert odds.mean == sum(t * p for t, p in odds.stress.items())
    assert odds.hits.probability(0) == odds.stress.get(0, 0)


SUPPORT_CASES = [
    (WeaponStats("2d4 3+", 2, 4, 3, 6), DiceTraits(extra_dice_drop_lowest=1, reroll_low=True)),
    (WeaponStats("2d3 2+", 2, 3, 2, 6, radius=1), DiceTraits(explode=1)),
    (WeaponStats("1d4 4+", 1, 4, 4, 6), DiceTraits(reroll_miss=True, nudge=1, extra_dice_drop_lowest=2)),
]


@pytest.mark.parametrize(("weapon", "traits"), SUPPORT_CASES, ids=[w.name for w, _ in SUPPORT_CASES])
def test_the_support_is_what_roll_attack_can_reach(weapon: WeaponStats, traits: DiceTraits) -> None:
    """Every total the odds give a chance is a total some roll of roll_attack reaches, and back."""
    walked, _ = enumerate_attack(weapon, traits)
    reachable = {sum(v for v in kept if v >= weapon.threshold) for kept in walked}
    assert set(attack_odds(weapon, traits).stress) == reachable


def test_improved_fireworks_carries_an_exact_tail() -> None:
    """Improved Fireworks: "Any die displaying the maximum value explodes and is added." -- unbounded, so
    the distribution is exact below a cut and the rest is one exact ">= N" bucket."""
    weapon = WeaponStats("MDTC Antipersonnel Grenade", 2, 6, 5, 6, radius=1)
    traits = DiceTraits(explode=-1)
    shallow = attack_odds(weapon, traits, depth=2)
    assert shallow.tail > 0 and shallow.tail_from is not None
    assert sum(shallow.stress.values()) + shallow.tail == 1
    assert all(t < shallow.tail_from for t in shallow.stress)
    deep = attack_odds(weapon, traits)
    assert 0 < deep.beyond_depth <= Fraction(1, 10**6)
    assert deep.beyond_depth <= deep.tail
    assert shallow.mean_low <= deep.mean_low <= deep.mean_high <= shallow.mean_high
    # one die's expected stress in closed form: E[V] minus the misses (5+: 1-4 miss, 6 explodes)
    single = WeaponStats("1d6 5+", 1, 6, 5, 6)
    exact = Fraction(5, 6) + Fraction(1, 6) * (6 + Fraction(7, 2) * 6 / 5)
    odds = attack_odds(single, traits)
    assert odds.mean_low <= exact <= odds.mean_high
    assert odds.mean_high - odds.mean_low < Fraction(1, 10**4)


def test_down_the_sights_quadruples_the_best_hit() -> None:
    """Down the Sights: "The next shot you make that hits inflicts 4x as much stress. ... It only affects
    individual shots, not the entire volley from a firearm." """
    odds = attack_odds(MODEL_13, down_the_sights=True)
    # both dice 10: one at 4x, one plain
    assert odds.stress[50] == Fraction(1, 100)
    assert max(odds.stress) == 50
    plain = attack_odds(MODEL_13)
    assert plain.mean == Fraction(2 * (7 + 8 + 9 + 10), 10)


def test_cover_halves_and_crouching_behind_it_zeroes() -> None:
    """Cover: "takes ½ damage from that source"; Crouch Down: "If a shot would have already been halved
    due to being behind existing cover, it is instead reduced to zero." """
    covered = attack_odds(MODEL_4, factors=(HALF,))
    assert set(covered.stress) == {0, 2, 3, 4, 5, 6, 7, 8, 9}
    zero = attack_odds(MODEL_4, factors=(HALF,), zeroed=True)
    assert zero.stress == {0: 1} and zero.mean == 0
    assert zero.hits == covered.hits  # the dice still hit


def test_firearm_mastery_is_consistency() -> None:
    """ "This trait results in tremendous consistency" -- fewer misses with each extra die."""
    plain = attack_odds(MODEL_13)
    mastery = attack_odds(MODEL_13, DiceTraits(extra_dice_drop_lowest=1))
    improved = attack_odds(MODEL_13, DiceTraits(extra_dice_drop_lowest=2))
    assert plain.stress[0] > mastery.stress[0] > improved.stress[0]
    assert plain.mean < mastery.mean < improved.mean
    assert mastery.dice_rolled == 3 and improved.dice_rolled == 4


def test_the_heaviest_case_stays_a_small_computation() -> None:
    """4d8 with two extra dice, every reroll, Nudge and unlimited explosions: the explosion chain is
    followed only until what is left is under one in a million (``DEFAULT_TAIL``), so the exact odds are
    a few dozen totals, not an unbounded sum (no wall-clock limit here: speed is measured by make bench)."""
    traits = DiceTraits(extra_dice_drop_lowest=2, reroll_low=True, reroll_miss=True, explode=-1, nudge=1)
    odds: AttackOdds = attack_odds(WEAVER_1939, traits, (HALF,), down_the_sights=True)
    assert sum(odds.stress.values()) + odds.tail == 1
    assert 0 < odds.tail <= 6 * DEFAULT_TAIL  # each of the six dice's chain cut under the line
    assert odds.depth <= 8 and len(odds.stress) <= 200


# -- names, attitudes, the CLI and the balance claim (weapons from the engine's rift.toml) -------------


def test_odds_by_name_with_an_attitudes_traits() -> None:
    """Daring level 4: Spray & Pray and "Improved Spray & Pray: ... reroll a miss once per die"."""
    result = rift_odds("MDTC Model 8 Submachine Gun", attitude="daring", level=4)
    assert result.weapon.block == "4d6 / 5+ / 4t"
    assert result.applied == ("Spray & Pray", "Improved Spray & Pray")
    smg = WeaponStats("MDTC Model 8 Submachine Gun", 4, 6, 5, 4)
    assert result.odds.mean == attack_odds(smg, DiceTraits(reroll_low=True, reroll_miss=True)).mean
    # the book's quotes in the names are optional
    assert rift_odds("MDTC Model 4 Pistol").weapon.name == '"Standard" MDTC Model 4 Pistol'
    assert rift_odds("Standard MDTC Model 4 Pistol").odds.mean == Fraction(11, 2)


def test_unknown_names_say_what_is_allowed() -> None:
    with pytest.raises(OddsError, match=r"unknown weapon 'Gatling'.*MDTC Model 8 Submachine Gun"):
        rift_odds("Gatling")
    with pytest.raises(OddsError, match="unknown attitude 'sneaky'"):
        rift_odds("Sullivan 668 Shotgun", attitude="sneaky")
    with pytest.raises(OddsError, match=r"unknown dice trait 'luck'.*spray-and-pray"):
        rift_odds("Sullivan 668 Shotgun", traits=["luck"])
    with pytest.raises(OddsError, match="--level needs --attitude"):
        rift_odds("Sullivan 668 Shotgun", level=4)


def test_thread_the_needle_ignores_cover_and_crouching_zeroes_it() -> None:
    """Thread the Needle: "You ignore the effects of cover when calculating stress you inflict." """
    rifle = '"Outset Special" MDTC Model 13 Rifle'
    covered = rift_odds(rifle, attitude="deliberate", level=4, cover=True)
    needle = rift_odds(rifle, attitude="deliberate", level=7, cover=True, crouch=True)
    assert needle.odds.mean == rift_odds(rifle, attitude="deliberate", level=4).odds.mean
    assert covered.odds.mean < needle.odds.mean
    assert rift_odds(rifle, cover=True, crouch=True).odds.mean == 0


def test_nudge_on_an_explosive_does_nothing() -> None:
    """Nudge: "Treat the firearm roll of an ally ..." -- firearms only."""
    result = rift_odds("MDTC Antipersonnel Grenade", nudge=1)
    assert result.odds.mean == Fraction(11, 3)
    assert any("explosive" in note for note in result.notes)


def test_the_balance_claim_per_attitude() -> None:
    """ "All of the player weapons are balanced to deal roughly 7 stress per round, with Daring and
    Calculated players doing 125% and Deliberate players doing 150% under ideal conditions." """
    rows = {(r.attitude, r.level): r for r in balance()}
    assert len(rows) == 18
    assert {r.claim for r in rows.values()} == {Fraction(7), Fraction(35, 4), Fraction(21, 2)}
    assert rows[("Deliberate", 1)].claim == Fraction(21, 2)
    assert rows[("Calculated", 7)].claim == Fraction(35, 4)
    assert rows[("Bold", 1)].best.per_round == Fraction(20, 3)  # 2d6 / 2+
    assert rows[("Resolute", 1)].best.per_round == Fraction(27, 4)  # 3d4 / 2+
    assert rows[("Cunning", 1)].best.per_round == Fraction(11, 2)  # no weapon of its own: the Model 4
    assert rows[("Daring", 1)].best.per_round == Fraction(88, 9)  # 4d6 / 5+ with Spray & Pray
    deliberate = rows[("Deliberate", 1)].best
    assert deliberate.policy.startswith("Down the Sights")
    assert deliberate.piercing is not None and deliberate.piercing > deliberate.per_round
    calculated = rows[("Calculated", 4)].best
    assert calculated.per_round <= calculated.per_round_high < calculated.per_round + Fraction(1, 1000)


def test_every_weapon_plain() -> None:
    table = {w.name: o for w, o in weapon_table()}
    assert table["Kelly SR-19 Rifle"].mean == Fraction(36, 5)
    assert table['Deft Labs "Digital Peashooters"'].mean == 0
    assert "Goon's Revolver" not in table  # the enemy roster's own weapons are not player weapons


def test_cli_rift_odds_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["odds", "rift", "--weapon", "MDTC Model 8 Submachine Gun", "--attitude", "daring", "--json"])
    assert code == 0
    document = json.loads(capsys.readouterr().out)
    assert document["block"] == "4d6 / 5+ / 4t"
    assert sum(Fraction(s["fraction"]) for s in document["stress"]) == 1
    assert Fraction(document["expected_stress"]) == Fraction(88, 9)


def test_cli_rift_odds_text_and_tail(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["odds", "rift", "--weapon", "Sullivan 1402 Impact Grenade", "--attitude", "calculated"])
    assert code == 0
    assert "expected stress: 23/4" in capsys.readouterr().out
    code = main(["odds", "rift", "--weapon", "MDTC Model 4 Pistol", "--traits", "improved-fireworks"])
    out = capsys.readouterr().out
    assert code == 0 and ">= " in out and "expected stress: between" in out


def test_cli_rift_unknown_names_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "rift", "--weapon", "Gatling"]) == 2
    assert "unknown weapon" in capsys.readouterr().err
    assert main(["odds", "rift"]) == 2
    assert "--weapon" in capsys.readouterr().err


def test_cli_rift_balance(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "rift", "--balance"]) == 0
    out = capsys.readouterr().out
    assert "roughly 7 stress per round" in out
    for attitude in ("Deliberate", "Daring", "Bold", "Resolute", "Cunning", "Calculated"):
        assert attitude in out
    assert main(["odds", "rift", "--balance", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert len(document["attitudes"]) == 18


def test_every_test_named_in_the_balance_section_exists() -> None:
    """docs/RULES.md's Through the Rift balance decisions name the tests that hold them."""
    root = Path(__file__).resolve().parent.parent.parent
    text = (root / "docs" / "RULES.md").read_text(encoding="utf-8")
    section = text.split("### Through the Rift: balance", 1)[1].split("\n## ", 1)[0]
    named, current = 0, "test_rift_stress.py"
    for row in (line for line in section.splitlines() if line.startswith("| ")):
        for file_part, test in re.findall(r"`(test_rift_\w+\.py)?(?:::(\w+))?`", row.split("|")[-2]):
            current = file_part or current
            if test:
                named += 1
                source = (root / "tests" / "rules" / current).read_text(encoding="utf-8")
                assert f"def {test}(" in source, f"{current}::{test}"
    assert named >= 12
