"""check_map: load problems plus the conventions of docs/MAPS.md, all at once, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from game.hexgrid import StaggerAxis, StaggerIndex, TiledHexGeometry
from game.mapcheck import check_map
from tests import maps_factory as mf

ROOT = Path(__file__).resolve().parent.parent
GEO = TiledHexGeometry.create(64, 74, 37, StaggerAxis.Y, StaggerIndex.ODD)


def texts(path: Path) -> str:
    return "\n".join(str(p) for p in check_map(path))


def test_a_good_map_has_no_problems(tmp_path: Path) -> None:
    x, y = GEO.cell_center(3, 3)
    objects = [
        mf.Obj(1, x, y, shape="point", props={"item": "Smelling Salts"}),
        mf.Obj(2, x - 5, y - 5, 10, 10, props={"door": mf.Enum("open", "Door")}),
        mf.Obj(3, x, y, shape="point", props={"objective": "loot"}),
    ]
    props = {"title": "Dry Gulch", "description": "Dust.", "rulesets": "frontier,rift", "side1_name": "Law"}
    assert check_map(mf.standard_map(tmp_path, objects=objects, props=props, with_deploy=True)) == []


def test_load_problems_come_through(tmp_path: Path) -> None:
    problems = check_map(tmp_path / "missing.tmx")
    assert len(problems) == 1 and "does not exist" in problems[0].what


def test_mistyped_values_are_all_reported(tmp_path: Path) -> None:
    tiles = {
        0: ("grass", {"cover": "quarter", "move_cost": 0}),
        1: ("wall", {"impassable": "yes", "blocks_sight": mf.Typed("int", "1")}),
        2: ("scree", {"move_cost": "2", "terrain": 5}),
    }
    body = mf.sheet_tileset_body(tiles=tiles)
    mf.write_png(tmp_path / "terrain.png", 256, 148)
    x, y = GEO.cell_center(2, 2)
    objects = [
        mf.Obj(4, x, y, shape="point", props={"door": "ajar"}),
        mf.Obj(5, 0, 0, 100, 100, props={"deploy": "side9"}),
        mf.Obj(6, x, y, shape="point", props={"item": ""}),
    ]
    layers = [
        mf.tile_layer("ground", mf.grid(4, 4, 1, {(1, 1): 2, (2, 2): 3})),
        mf.tile_layer("roof", mf.grid(4, 4, 0), props={"decoration": "yes"}),
        mf.object_layer("objects", [o.xml() for o in objects]),
    ]
    props = {"title": 3, "rulesets": "frontier, poker", "weather": "rain"}
    path = mf.write_text(
        tmp_path / "m.tmx",
        mf.map_xml(4, 4, tilesets=[mf.embedded_tileset(1, body)], layers=layers, props=props),
    )
    out = texts(path)
    for needle in [
        "'cover' is 'quarter', not none / half / full",
        "'move_cost' is int '0'",
        "'move_cost' is string '2'",
        "'impassable' is string 'yes', not a bool",
        "'blocks_sight' is int '1'",
        "'terrain' is int '5'",
        "'door' is 'ajar'",
        "'deploy' is 'side9'",
        "'item' is ''",
        "layer 'roof': 'decoration' is not a bool",
        "map property 'title' is int",
        "'rulesets' names 'poker', which is not an installed ruleset (installed: frontier, rift, golden)",
        "unknown map property 'weather'",
        "no deploy zones",
    ]:
        assert needle in out, needle
    assert all(p.fix for p in check_map(path))


def test_deploy_zone_problems(tmp_path: Path) -> None:
    x, y = GEO.cell_center(2, 2)
    objects = [
        mf.Obj(1, x - 5, y - 5, 10, 10, props={"deploy": mf.Enum("side1", "Side")}),  # only side1, on a wall
        mf.Obj(2, 9000, 9000, 10, 10, props={"deploy": mf.Enum("side1", "Side")}),  # covers nothing
        mf.Obj(3, x, y, shape="point", props={"deploy": mf.Enum("side1", "Side")}),  # wrong shape
    ]
    problems = check_map(mf.standard_map(tmp_path, terrain={(2, 2): mf.WALL}, objects=objects))
    out = "\n".join(map(str, problems))
    assert "object 1: deploy zone 'side1' includes 1 impassable hex(es): cells 2,2" in out
    assert any(p.cell == (2, 2) for p in problems)
    assert "object 2: the deploy zone covers no hex centre" in out
    assert "must be a rectangle, ellipse or polygon, not a point" in out
    assert "only one side (side1)" in out


def test_objects_outside_the_map_and_doors_in_walls(tmp_path: Path) -> None:
    x, y = GEO.cell_center(1, 1)
    objects = [
        mf.Obj(1, -500, 40, shape="point", props={"item": "Gold"}),
        mf.Obj(2, 40, 99999, gid=mf.BARREL + 1, shape="tile"),
        mf.Obj(3, x, y, shape="point", props={"door": mf.Enum("closed", "Door")}),
    ]
    out = texts(mf.standard_map(tmp_path, terrain={(1, 1): mf.WALL}, objects=objects, with_deploy=True))
    assert "object 1 lies outside the map" in out and "object 2 lies outside the map" in out
    assert "door object 3 stands on an impassable hex" in out


def test_a_door_on_open_ground_is_fine(tmp_path: Path) -> None:
    x, y = GEO.cell_center(2, 3)
    door = mf.Obj(3, x, y, shape="point", props={"door": mf.Enum("closed", "Door")})
    assert check_map(mf.standard_map(tmp_path, objects=[door], with_deploy=True)) == []


@pytest.mark.parametrize("case", ["missing", "zstd", "bad_values"])
def test_cli_check_map_exits_1_without_a_traceback(tmp_path: Path, case: str) -> None:
    if case == "missing":
        path = tmp_path / "nowhere.tmx"
    elif case == "zstd":
        data = '<data encoding="base64" compression="zstd">KLUv/SAQgQAAAQ==</data>'
        path = mf.write_text(
            tmp_path / "z.tmx",
            mf.map_xml(2, 2, layers=[f'<layer name="g" width="2" height="2">{data}</layer>']),
        )
    else:
        path = mf.standard_map(tmp_path, objects=[mf.Obj(1, 0, 0, 50, 50, props={"deploy": "sideX"})])
    good = mf.standard_map(tmp_path / "good", with_deploy=True)
    out = subprocess.run(
        [sys.executable, "-m", "game", "check-map", str(good), str(path)],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 1
    assert "Traceback" not in out.stdout + out.stderr
    assert f"{good}: OK" in out.stdout
    assert "problem" in out.stdout and " -- " in out.stdout


def test_the_rulesets_a_map_names_are_looked_up_in_the_registry(tmp_path: Path) -> None:
    """A map may name a ruleset a plugin provides: installed, the same map checks clean (the core keeps no
    list of ruleset names)."""
    from tests.plugins import installed_plugin

    path = mf.standard_map(tmp_path, props={"rulesets": "frontier, toy"}, with_deploy=True)
    assert "'toy', which is not an installed ruleset" in texts(path)
    with installed_plugin(tmp_path / "site", "toy", "tests.toy_ruleset:PLUGIN"):
        assert check_map(path) == []


def test_the_map_picker_counts_the_installed_rulesets_a_map_names(tmp_path: Path) -> None:
    """New Battle lists a map for the installed rulesets it names (none named: every ruleset); a map made
    only for rulesets this Hexslinger lacks says so and cannot be played."""
    from game.ui.library import inspect_map

    mixed = mf.standard_map(tmp_path / "a", props={"rulesets": "rift, chess"}, with_deploy=True)
    info = inspect_map(mixed)
    assert info.rulesets == ("rift",) and info.suits("rift") and not info.suits("frontier")
    assert info.playable
    foreign = inspect_map(mf.standard_map(tmp_path / "b", props={"rulesets": "chess"}, with_deploy=True))
    assert not foreign.playable
    assert "'chess', which is not an installed ruleset" in foreign.problems[0].what
    open_to_all = inspect_map(mf.standard_map(tmp_path / "c", with_deploy=True))
    assert open_to_all.rulesets == () and open_to_all.suits("frontier") and open_to_all.suits("rift")


@pytest.mark.parametrize(
    ("value", "needle"),
    [
        ("40", "map property 'max_rounds' is string, not an int"),
        (mf.Typed("bool", "true"), "map property 'max_rounds' is bool, not an int"),
        (0, "give 'max_rounds' a whole number from 1 to 1000"),
        (1001, "map property 'max_rounds' is 1001"),
    ],
)
def test_a_bad_round_limit_is_reported_with_its_fix(tmp_path: Path, value: object, needle: str) -> None:
    """docs/MAPS.md: ``max_rounds`` is a whole number of rounds, 1 to 1000 (own)."""
    path = mf.standard_map(tmp_path, props={"title": "Long Day", "max_rounds": value}, with_deploy=True)
    assert needle in texts(path)


def test_a_good_round_limit_is_the_maps(tmp_path: Path) -> None:
    from game.mapload import load_battlefield

    path = mf.standard_map(tmp_path, props={"max_rounds": 35}, with_deploy=True)
    assert check_map(path) == []
    assert load_battlefield(path).max_rounds == 35
    assert load_battlefield(mf.standard_map(tmp_path / "plain", with_deploy=True)).max_rounds is None
