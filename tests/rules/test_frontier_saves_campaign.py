"""Frontier saves (mid-encounter save -> load reaches the same digest; corrupt saves), campaign carry-over
and the `hexslinger odds frontier` command."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from game.cli import main
from game.rules import UnitSpec
from game.rules.frontier.campaign import Roster, RosterError
from game.save import SaveError, load_match, save_match
from tests.rules.frontier_kit import RANCH, ROOT, aggressive_command, law, new_match, outlaws, play_out


def _mid_encounter(tmp_path: Path, commands: int = 40) -> tuple[Path, str]:
    map_copy = tmp_path / "ranch_duel.tmx"
    for name in (
        "ranch_duel.tmx",
        "terrain_pointy.tsx",
        "objects_pointy.tsx",
        "tall_pointy.tsx",
        "signs.tsx",
    ):
        shutil.copy(ROOT / "maps" / name, tmp_path / name)
    m = new_match(map_copy, law("sheriff", "deputy", "dog"), outlaws("gang_leader", "outlaw", "dog"), 11)
    for _ in range(commands):
        m.apply(aggressive_command(m))
    assert not m.is_over
    save = tmp_path / "save.json"
    save_match(m, save)
    digest = m.digest()
    m.close()
    return save, digest


def test_a_save_written_mid_encounter_replays_to_the_same_digest(tmp_path: Path) -> None:
    save, digest = _mid_encounter(tmp_path)
    match, data = load_match(save)
    try:
        assert match.digest() == digest == data.digest
        play_out(match)  # and the game goes on from there
        assert match.outcome() is not None
    finally:
        match.close()


def _document(save: Path) -> dict[str, object]:
    return json.loads(save.read_text())  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("damage", "what"),
    [
        ("truncate", "cut off"),
        ("not_json", "not valid JSON"),
        ("tamper", "not legal on replay"),
        ("future", "newer than this Hexslinger understands"),
        ("map", "has changed since the game was saved"),
    ],
)
def test_corrupt_saves_give_a_clear_error_and_change_nothing(tmp_path: Path, damage: str, what: str) -> None:
    save, _ = _mid_encounter(tmp_path, 30)
    text = save.read_text()
    doc = _document(save)
    if damage == "truncate":
        text = text[: len(text) // 2]
    elif damage == "not_json":
        text = "this is not a save {" + text[20:]
    elif damage == "tamper":
        commands = doc["commands"]
        assert isinstance(commands, list)
        move = next(c for c in commands if c["action"] in ("move", "shoot", "aim"))
        move["actor"] = 999
        text = json.dumps(doc)
    elif damage == "future":
        doc["version"] = 99
        text = json.dumps(doc)
    else:
        map_file = tmp_path / "ranch_duel.tmx"
        map_file.write_text(map_file.read_text().replace("Showdown at the Lazy K", "Showdown at the Lazy J"))
    save.write_text(text)
    before = sorted((p.name, p.read_bytes()) for p in tmp_path.iterdir())
    with pytest.raises(SaveError) as error:
        load_match(save)
    assert what in str(error.value)
    assert error.value.fix
    assert sorted((p.name, p.read_bytes()) for p in tmp_path.iterdir()) == before  # nothing overwritten


def test_out_of_action_units_sit_out_the_next_encounter() -> None:
    """Rulebook: "Out of Action - Units that are considered Out of Action are no longer in play and cannot
    be fielded in the next Combat Encounter." """
    roster = Roster(
        "the_outlaws",
        "The Outlaws",
        [
            UnitSpec("gang_leader", "Black Bart"),
            UnitSpec("outlaw", "Slim", ("revolver",)),
            UnitSpec("dog", "Rex"),
        ],
    )
    out: list[str] = []
    for seed in range(40):  # the first encounter in which an Outlaw goes Out of Action
        m = new_match(RANCH, law("sheriff", "deputy"), roster.posse("side2"), seed)
        play_out(m)
        out = roster.record(m, "side2")
        m.close()
        if out:
            break
    assert out and set(out) <= {"Black Bart", "Slim", "Rex"}
    assert [u.name for u in roster.fieldable()] == [u.name for u in roster.units if u.name not in out]
    with pytest.raises(RosterError, match="cannot be fielded in this one"):
        roster.posse("side2", names=[out[0]])
    again = Roster.from_json(json.loads(json.dumps(roster.to_json())))
    assert again == roster
    # after sitting out one encounter, the unit may be fielded again
    fielded = roster.posse("side2")
    assert out[0] not in {u.name for u in fielded.units}
    m = new_match(RANCH, law("sheriff", "deputy"), fielded, 1)
    play_out(m)
    roster.record(m, "side2")
    m.close()
    assert out[0] not in roster.sitting_out
    assert roster.problems(roster.posse("side2", names=[out[0]])) == []


def test_a_roster_needs_unique_names() -> None:
    with pytest.raises(RosterError):
        Roster("the_outlaws", "x", [UnitSpec("outlaw", "Slim"), UnitSpec("outlaw", "Slim")])


def test_odds_cli_prints_fraction_percentage_modifiers_and_damage(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["odds", "frontier", "--attacker", "deputy", "--target", "outlaw", "--distance", "8", "--aim"]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "hit: 5/6 = 83.3%" in out  # 4+ with +1 short range and +1 aim: 2 or more
    assert "+1  Revolver short range accuracy" in out and "+1  Aim" in out
    assert "1: 5/6 = 83.3%" in out


def test_odds_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["odds", "frontier", "--attacker", "sheriff", "--weapon", "rifle", "--target", "gang_leader",
         "--distance", "20", "--cover", "full", "--wounded", "--json"]
    )  # fmt: skip
    doc = json.loads(capsys.readouterr().out)
    assert code == 0
    assert doc["hit"] == {"fraction": "1/2", "percent": 50.0}  # 3+, +1 long, -2 total cover: 4+
    assert doc["damage"] == [{"damage": 0, "fraction": "1/2"}, {"damage": 2, "fraction": "1/2"}]
    assert "a hit Seriously Injures the target: 50.0%" in doc["notes"]  # Wounds 2 left, Rifle 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--attacker", "cowboy", "--target", "outlaw", "--distance", "3"], "unknown attacker 'cowboy'"),
        (["--attacker", "deputy", "--target", "outlaw", "--distance", "17"], 'a target 17" away cannot'),
        (["--attacker", "dog", "--target", "outlaw", "--distance", "2"], 'Bite reaches 1"'),
        (
            ["--attacker", "deputy", "--weapon", "rifle", "--target", "outlaw", "--distance", "2"],
            "cannot attack",
        ),
    ],
)
def test_odds_cli_refuses_unknown_names_and_out_of_range_distances(args: list[str], message: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "game", "odds", "frontier", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr
