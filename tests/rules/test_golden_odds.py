"""``hexslinger odds golden``: exact fractions by units and by dice, the hit chance split into "higher"
and "tie → cards", the damage card's odds, the own numbers shown, --json, and clear usage errors."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from game.cli import main
from game.engine.dice import AcingPool, ExplodingDie, opposed
from tests.engine.rulebooks import Quotes

Q = Quotes()
TIE = Q("golden", "If the attacker draws the higher card then a hit is scored")
TABLE = Q("golden", "Ace → Two Wounds")


def test_every_quote_is_word_for_word_in_its_rulebook() -> None:
    Q.check()


def odds_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["odds", "golden", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_by_dice_revolver_against_d8_plus_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert TIE
    doc = odds_json(capsys, "--weapon", "revolver", "--defence", "d8+1")
    contest = opposed(ExplodingDie(8), ExplodingDie(8, 1))
    assert Fraction(doc["higher"]["fraction"]) == contest.win  # type: ignore[index]
    assert Fraction(doc["tie_cards"]["fraction"]) == contest.tie / 2  # type: ignore[index]
    assert Fraction(doc["hit"]["fraction"]) == contest.win + contest.tie / 2  # type: ignore[index]
    assert doc["hit"] == {"fraction": "25/63", "percent": 39.68}


def test_the_shotgun_rolls_2d8_close_and_1d6_far(capsys: pytest.CaptureFixture[str]) -> None:
    close = odds_json(capsys, "--weapon", "shotgun", "--defence", "d6", "--distance", "1")
    far = odds_json(capsys, "--weapon", "shotgun", "--defence", "d6", "--distance", "8")
    assert close["attack"].startswith("2d8") and far["attack"].startswith("1d6")  # type: ignore[union-attr]
    assert Fraction(close["higher"]["fraction"]) == opposed(AcingPool(2, 8), ExplodingDie(6)).win  # type: ignore[index]


def test_by_units_with_cover_and_moving(capsys: pytest.CaptureFixture[str]) -> None:
    doc = odds_json(capsys, "--attacker", "gunhand", "--target", "marksman", "--cover", "half", "--moved")
    # the Marksman's Reflexes d8 (+1), half cover +1; the Gunhand's revolver -1 for moving
    contest = opposed(ExplodingDie(8, -1), ExplodingDie(8, 2))
    assert Fraction(doc["hit"]["fraction"]) == contest.win + contest.tie / 2  # type: ignore[index]
    assert doc["own_rules"]["cover"] == {"half": 1, "full": 2}  # type: ignore[index]


def test_the_damage_card_odds_of_a_fresh_deck(capsys: pytest.CaptureFixture[str]) -> None:
    assert TABLE
    doc = odds_json(capsys, "--attacker", "marshal_haines", "--target", "bruiser")
    damage = {d["result"]: Fraction(d["fraction"]) for d in doc["damage_card"]}  # type: ignore[union-attr, index]
    assert damage == {
        "Graze": Fraction(28, 54),
        "Wound": Fraction(20, 54),
        "Two Wounds": Fraction(4, 54),
        "Crippling Wound": Fraction(2, 54),
    }


def test_the_own_numbers_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    """The own rules (G9, G11, G12, G15, G21) are visible in the odds command, as in golden.toml."""
    from game.rules.golden.data import default_data

    enc = default_data().encounter
    doc = odds_json(capsys, "--weapon", "revolver", "--defence", "d6")
    own = doc["own_rules"]
    assert isinstance(own, dict)
    assert own["move"] == enc.move and own["move_with_action"] == enc.move_with_action
    assert own["gives_up_at"] == enc.gives_up_at and own["max_rounds"] == enc.max_rounds
    assert own["reload"] == {"revolver": "action", "rifle": "free", "shotgun": "action"}
    assert main(["odds", "golden", "--weapon", "revolver", "--defence", "d6"]) == 0
    out = capsys.readouterr().out
    assert f"run {enc.move}" in out and f"round limit is {enc.max_rounds}" in out


def test_balance_pits_the_default_posses_in_exact_odds(capsys: pytest.CaptureFixture[str]) -> None:
    """--balance: each unit's best attack at the distance on the hostile posse, averaged over its units,
    equals the attack odds asked unit by unit; a posse gives up after its weakest tracks."""
    from game.rules.golden.balance import balance, default_units
    from game.rules.golden.data import default_data

    data = default_data()
    (marshal, _), (gang, units_g) = default_units(data)
    assert (marshal, gang) == ("Marshal's Posse", "Black Hat Gang")
    ours, theirs = balance(data, distance=6)
    haines = ours.units[0]
    assert haines.name == "Marshal Haines" and haines.weapon == "Revolver" and haines.track == 12
    hits = []
    for target in units_g:
        key = "_".join(target.name.lower().replace("-", " ").split())
        found = odds_json(capsys, "--attacker", "marshal_haines", "--target", key, "--distance", "6")
        hits.append(Fraction(found["hit"]["fraction"]))  # type: ignore[index]
    assert haines.hit == sum(hits, Fraction(0)) / len(hits)
    assert ours.per_round == sum((u.points for u in ours.units), Fraction(0))
    # Marshal's Posse's weakest two: the Marksman (Survival d4: 9 points) and a 12
    assert theirs.to_break == 9 + 12 and ours.to_break == 12 + 12
    assert theirs.rounds == Fraction(21) / theirs.per_round
    street = balance(data, distance=12)[1]  # the shotgun reaches 8: the Bruiser's revolver (own, G26)
    assert next(u for u in street.units if u.name == "Bruiser").weapon == "Revolver"
    far = balance(data, distance=13)[1]  # past the revolver's 12 only the rifles reach
    assert [u.name for u in far.units if u.weapon is not None] == ["Sally Two-Guns"]
    doc = odds_json(capsys, "--balance", "--distance", "2")
    assert [p["name"] for p in doc["posses"]] == [marshal, gang]  # type: ignore[index, union-attr]
    assert main(["odds", "golden", "--balance"]) == 0
    out = capsys.readouterr().out
    assert "gives up after" in out and "Sally Two-Guns" in out and "points an attack" in out


def test_the_default_posses_are_even_at_every_distance() -> None:
    """Own content (docs/RULES.md G26): at every distance a gun reaches, neither default posse makes the
    other give up more than 5% sooner in the open-ground exchange. Before the Bruiser carried a revolver
    and Doc Ellery's fourth point went to Reflexes, the Black Hat Gang took 5.20 rounds to the Marshal's
    Posse's 4.06 from 9 to 12 hexes (the Bruiser had nothing in reach), the distance most shots on
    ``frontier_town``'s main street are taken at."""
    from game.rules.golden.balance import balance, default_units
    from game.rules.golden.data import default_data

    data = default_data()
    (_, marshal), (_, gang) = default_units(data)
    assert next(u for u in gang if u.name == "Bruiser").weapons == ("knife", "shotgun", "revolver")
    doc = next(u for u in marshal if u.name == "Doc Ellery")
    assert (doc.traits["survival"], doc.traits["reflexes"]) == (6, 6)
    assert data.traits.wounds(6) == data.traits.wounds(8) == 3  # Survival d6 or d8: the same 12-point track
    reach = max(r for w in data.weapons.values() for r in w.ranges)
    assert reach == 24
    for distance in range(1, reach + 1):
        ours, theirs = balance(data, distance=distance)
        assert ours.rounds is not None and theirs.rounds is not None
        assert Fraction(95, 100) <= ours.rounds / theirs.rounds <= Fraction(105, 100), distance
        if distance <= 12:  # the revolver's reach: every unit of both posses has a gun that reaches
            assert all(u.weapon is not None for u in (*ours.units, *theirs.units)), distance


def test_the_text_output_names_the_parts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "golden", "--weapon", "knife", "--attack-mod", "2", "--defence", "d6"]) == 0
    out = capsys.readouterr().out
    assert "higher" in out and "tie → cards" in out and "hit (total)" in out and "Two Wounds" in out
    assert "1 hex = 1 inch" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--attacker", "gunhand"], "name both --attacker and --target"),
        (["--attacker", "sheriff", "--target", "gunhand"], "unknown unit 'sheriff'"),
        (["--weapon", "cannon", "--defence", "d6"], "unknown weapon 'cannon'"),
        (["--weapon", "revolver", "--defence", "d7"], "--defence is the Reflexes die"),
        (["--weapon", "knife", "--defence", "d6", "--distance", "3"], "reaches 1 to 1 hexes"),
        ([], "name the attack by units"),
        (["--balance", "--weapon", "rifle"], "--balance takes only"),
        (["--balance", "--moved"], "leave out --moved"),
        (["--balance", "--distance", "0"], "1 hex or more"),
    ],
)
def test_bad_arguments_are_explained(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["odds", "golden", *args]) == 2
    assert message in capsys.readouterr().err
