"""Encounter files (docs/GM.md "Encounter files"): every shipped one loads, a broken one lists every
problem at once (file, key, what, how to fix), ``hexslinger check-encounter`` exits 1 with them, and an
encounter written from a setup reads back the same."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from game.encounter.load import EncounterError, check_encounter, load_encounter
from game.encounter.write import encounter_toml, save_encounter, shipped_encounters
from game.mapload import load_battlefield
from game.posses import DATA_ENV
from game.resources import shipped_map

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _own_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No player's saved posse may stand in for a default posse the files name."""
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "data"))


def write(tmp_path: Path, text: str, name: str = "enc.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


GOOD = """
title = "Test"
ruleset = "frontier"
map = "frontier_town"

[side1]
posse = "Sheriff's Posse"

[side2]
controller = "ai:easy"
posse = "Blackwater Gang"
"""


def test_every_shipped_encounter_loads_and_each_ruleset_has_a_few() -> None:
    files = shipped_encounters()
    rulesets = Counter(load_encounter(f).ruleset for f in files)
    assert rulesets == Counter({"frontier": 2, "rift": 2, "golden": 2})
    for path in files:
        assert check_encounter(path) == [], path


def test_minimal_file(tmp_path: Path) -> None:
    enc = load_encounter(write(tmp_path, GOOD))
    assert enc.ruleset == "frontier"
    assert [p.side for p in enc.posses] == ["side1", "side2"]
    assert enc.seats == {"side1": "human", "side2": "ai:easy"}
    assert enc.scenario.goals == ()  # no objective: the rulesets' own "take out the other posse"
    assert enc.posses[0].name == "Sheriff's Posse"


def test_a_broken_file_lists_every_problem_at_once(tmp_path: Path) -> None:
    bf = load_battlefield(shipped_map("frontier_town"))  # type: ignore[arg-type]
    wall = next(h for h in sorted(bf.hexes) if not bf.is_passable(h))
    col, row = bf.geometry.to_cell(wall)
    text = f"""
title = "Broken"
ruleset = "frontier"
map = "frontier_town"
rounds = "ten"
colour = "red"

[side1]
posse = "Rifter Crew"
controller = "robot"

[side2]
posse = "Blackwater Gang"
[side2.starts]
"Gang Leader" = [37, 10]
Outlaw = [37, 10]
"Outlaw 2" = [{col}, {row}]

[[objectives]]
kind = "hold"
side = "side1"
area = "Saloon"
rounds = 2
"""
    path = write(tmp_path, text)
    problems = check_encounter(path)
    by_key = {p.key: p for p in problems}
    assert all(p.file == str(path) for p in problems)
    assert "unknown key 'colour'" in by_key["colour"].what
    assert "must be a whole number" in by_key["rounds"].what
    assert "unknown controller 'robot'" in by_key["side1.controller"].what
    assert "no Frontier posse called 'Rifter Crew'" in by_key["side1.posse"].what
    assert "occupied" in by_key["side2.starts.Outlaw"].what
    assert "impassable" in by_key["side2.starts.Outlaw 2"].what
    assert "no objective object called 'Saloon'" in by_key["objectives[1].area"].what
    assert "'Bank vault'" in by_key["objectives[1].area"].fix
    assert all(p.fix for p in problems)
    with pytest.raises(EncounterError) as caught:
        load_encounter(path)
    assert len(caught.value.problems) == len(problems) == 7


def test_a_posse_the_ruleset_refuses_is_named_with_the_rules_words(tmp_path: Path) -> None:
    text = GOOD.replace(
        'posse = "Blackwater Gang"',
        '[side2.posse]\nname = "Too Many Bosses"\nfaction = "the_outlaws"\nunits = [\n'
        '  { kind = "gang_leader", name = "A", weapon = "revolver" },\n'
        '  { kind = "gang_leader", name = "B", weapon = "revolver" },\n]',
    )
    problems = check_encounter(write(tmp_path, text))
    assert problems
    assert {p.key for p in problems} == {"side2.posse"}
    assert all("the Frontier rules refuse this posse" in p.what for p in problems)
    assert any("Gang Leader" in p.what or "leader" in p.what.lower() for p in problems), problems


@pytest.mark.parametrize(
    ("text", "key", "words"),
    [
        (
            "[[objectives]]\nkind = 'hold'\nside = 'side1'\narea = 'Bank vault'\n",
            "objectives[1].rounds",
            "needs",
        ),
        (
            "[[objectives]]\nkind = 'hold'\nside = 'side1'\narea = 'Bank vault'\nrounds = 'x'\n",
            "objectives[1].rounds",
            "whole number",
        ),
        (
            "[[objectives]]\nkind = 'protect'\nside = 'side1'\nunit = 'Nobody'\n",
            "objectives[1].unit",
            "no unit",
        ),
        (
            "[[objectives]]\nkind = 'loot'\nside = 'side2'\nitem = 'Vault'\nexit = 'edge'\n",
            "objectives[1].item",
            "no objective object",
        ),
        (
            "[[objectives]]\nkind = 'escape'\nside = 'side3'\nexit = 'edge'\n",
            "objectives[1].side",
            "not a side",
        ),
        (
            "[[reinforcements]]\nside = 'side1'\nunit = 'Dog'\nround = 1\nat = 'side1'\n",
            "reinforcements[1].round",
            "outside 2",
        ),
        (
            "[[reinforcements]]\nside = 'side1'\nunit = 'Dog'\nround = 3\nat = [99, 99]\n",
            "reinforcements[1].at",
            "off the map",
        ),
        (
            "[[objectives]]\nkind = 'escape'\nside = 'side1'\nexit = 'edge'\nwhen = 3\n",
            "objectives[1].when",
            "unknown key",
        ),
    ],
)
def test_each_mistake_names_its_key(tmp_path: Path, text: str, key: str, words: str) -> None:
    problems = check_encounter(write(tmp_path, GOOD + "\n" + text))
    assert [p.key for p in problems] == [key], problems
    assert words in problems[0].what


@pytest.mark.parametrize(
    ("top", "key", "words", "fix"),
    [
        ("objectives = 3", "objectives", "'objectives' must be a list of tables", "an [[objectives]] table"),
        ("reinforcements = 'x'", "reinforcements", "must be a list of tables", "a [[reinforcements]] table"),
        ("objectives = [1]", "objectives[1]", "an objective must be a table, not", "an [[objectives]] table"),
        ("reinforcements = [[1, 2]]", "reinforcements[1]", "a reinforcement must be a table", "as a [[reinf"),
    ],
)
def test_a_top_level_list_that_is_not_a_list_of_tables_is_named(
    tmp_path: Path, top: str, key: str, words: str, fix: str
) -> None:
    problems = check_encounter(write(tmp_path, top + "\n" + GOOD))
    assert [p.key for p in problems] == [key], problems
    assert words in problems[0].what and fix in problems[0].fix


def test_a_file_that_is_not_toml_is_one_clear_problem(tmp_path: Path) -> None:
    problems = check_encounter(write(tmp_path, "title = [unclosed\n"))
    assert len(problems) == 1
    assert "not valid TOML" in problems[0].what
    assert check_encounter(tmp_path / "missing.toml")[0].what


def test_written_encounter_reads_back_the_same(tmp_path: Path) -> None:
    source = ROOT / "encounters" / "frontier_bank_job.toml"
    enc = load_encounter(source)
    import tomllib

    extra = tomllib.loads(source.read_text(encoding="utf-8"))
    out = tmp_path / "copy.toml"
    text = encounter_toml(
        title=enc.title,
        ruleset=enc.ruleset,
        map_path=enc.map_path,
        posses=enc.posses,
        seats=enc.seats,
        out=out,
        extra=extra,
    )
    save_encounter(out, text)
    again = load_encounter(out)
    assert again.posses == enc.posses
    assert again.seats == enc.seats
    assert again.scenario == enc.scenario
    assert again.map_path == enc.map_path


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "game", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env=os.environ.copy(),
        check=False,
    )


def test_check_encounter_exits_0_on_the_shipped_files_and_1_with_every_problem(tmp_path: Path) -> None:
    ok = run_cli("check-encounter")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.count(": OK") == len(shipped_encounters())
    bad = write(tmp_path, "extra = 1\n" + GOOD.replace('posse = "Sheriff\'s Posse"', "posse = 3"))
    result = run_cli("check-encounter", str(ROOT / "encounters" / "rift_breakout.toml"), str(bad))
    assert result.returncode == 1
    assert "rift_breakout.toml: OK" in result.stdout
    assert f"{bad}: 2 problems" in result.stdout
    assert "[side1.posse] 'posse' must be a posse's name or a table, not the number 3" in result.stdout
    assert "[extra] unknown key 'extra'" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_the_example_in_the_gm_guide_is_a_playable_encounter(tmp_path: Path) -> None:
    import re

    text = (ROOT / "docs" / "GM.md").read_text(encoding="utf-8")
    block = re.findall(r"```toml\n(.*?)```", text, re.S)[0]
    enc = load_encounter(write(tmp_path, block))
    assert enc.title == "The Bank Job"
    assert [g.kind for g in enc.scenario.goals] == ["loot"]
    assert enc.scenario.starts and enc.scenario.arrivals and enc.scenario.zones
