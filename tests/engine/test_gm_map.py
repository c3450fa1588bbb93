"""A map reloaded into a battle (issue 15, live maps in the sandbox): the ``gm_map`` edit carries the new
board whole (game/engine/board.py), keeps the units whose hexes still do, moves the others to the nearest
free hex, and a save or a replay rebuilds exactly that battle even after the map file changed again."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import esper
import pytest

from game.battlefield import Terrain
from game.commands import Command
from game.components import Removed
from game.engine.board import BoardError, board_from_json, board_json, board_sha, carry
from game.engine.gm import GM_MAP, GM_PLACE, GM_REMOVED
from game.engine.match import IllegalCommandError, Match
from game.events import GmEdit
from game.hexgrid import Hex, hex_distance
from game.mapload import load_battlefield
from game.resources import maps_dir
from game.save import load_match, save_match
from game.ui.demo import demo_match, deploy_all
from game.ui.session import BattleSession

BOULDER = 31  # objects_pointy.tsx tile 8 (firstgid 23): "boulder", impassable
ROOT = Path(__file__).resolve().parents[2]


def copy_ranch(tmp_path: Path) -> Path:
    """ranch_duel.tmx with its tilesets and images, where a test may change it."""
    (tmp_path / "maps").mkdir()
    shutil.copy2(maps_dir() / "ranch_duel.tmx", tmp_path / "maps")
    for tsx in maps_dir().glob("*.tsx"):
        shutil.copy2(tsx, tmp_path / "maps")
    shutil.copytree(ROOT / "assets" / "tiles", tmp_path / "assets" / "tiles")
    return tmp_path / "maps" / "ranch_duel.tmx"


def put_boulder(path: Path, cells: list[tuple[int, int]]) -> None:
    """A boulder (impassable) on the cover layer of these cells (col, row) of the map file."""
    text = path.read_text(encoding="utf-8")
    layer = re.search(
        r'(<layer id="3" name="cover"[^>]*>\s*<data encoding="csv">\n)(.*?)(</data>)', text, re.S
    )
    assert layer is not None
    rows = [row.rstrip(",").split(",") for row in layer.group(2).strip().splitlines()]
    for col, row in cells:
        rows[row][col] = str(BOULDER)
    csv = ",\n".join(",".join(r) for r in rows) + "\n"
    path.write_text(text[: layer.start(2)] + csv + text[layer.end(2) :], encoding="utf-8")


def reload_command(path: Path) -> Command:
    return Command(GM_MAP, extra=(("board", board_json(load_battlefield(path))),))


def test_a_board_written_as_json_reads_back_the_same() -> None:
    for name in ("ranch_duel", "frontier_town", "canyon_railyard"):
        bf = load_battlefield(maps_dir() / f"{name}.tmx")
        text = board_json(bf)
        back = board_from_json(text)
        assert board_json(back) == text
        assert back.hexes == bf.hexes and back.file_hash == bf.file_hash
        assert all(back.terrain_at(h) == bf.terrain_at(h) for h in bf.hexes)
        assert back.deploy_zones == bf.deploy_zones and back.doors.keys() == bf.doors.keys()


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda d: d.update(cells=d["cells"][:-1]), "cells"),
        (lambda d: d.update(format=9), "format"),
        (lambda d: d["terrain"][0].__setitem__(3, 7), "cover"),
        (lambda d: d["doors"].append([999, 999, True, 1, "x"]), "not on the board"),
        (lambda d: d.update(size="big"), "size"),
    ],
)
def test_a_damaged_board_is_refused_with_what_is_wrong(change: object, said: str) -> None:
    doc = json.loads(board_json(load_battlefield(maps_dir() / "ranch_duel.tmx")))
    change(doc)  # type: ignore[operator]
    with pytest.raises(BoardError, match=said):
        board_from_json(json.dumps(doc))


def test_carry_keeps_legal_hexes_and_moves_the_rest_to_the_nearest_free_hex() -> None:
    bf = load_battlefield(maps_dir() / "ranch_duel.tmx")
    spots = sorted(h for h in bf.hexes if bf.is_passable(h))
    a, b = spots[40], spots[41]
    wall = next(h for h in sorted(bf.hexes) if not bf.is_passable(h))
    placed = carry({"a": a, "b": a, "c": wall, "d": Hex(500, 500), "e": b}, bf)
    assert placed.kept == {"a": a, "e": b}
    moved = {unit: where for unit, (where, _why) in placed.moved.items()}
    assert set(moved) == {"b", "c", "d"} and not placed.aside
    assert "taken" in placed.moved["b"][1] and "impassable" in placed.moved["c"][1]
    assert "off the map" in placed.moved["d"][1]
    nearest = min(hex_distance(a, h) for h in spots if h not in (a, b))
    assert hex_distance(a, moved["b"]) == nearest and len(set(moved.values()) | {a, b}) == 5
    assert carry({"a": a, "b": a}, bf, stacking=True).kept == {"a": a, "b": a}


def deployed(path: Path) -> Match:
    """Frontier's default posses deployed on ``path``, the first unit then moved by the GM out of the deploy
    zones (a boulder in a zone is a map problem: the map would not reload)."""
    match = demo_match("frontier", path)
    deploy_all(match)
    bf = match.battlefield
    zones = set().union(*bf.deploy_zones.values())
    taken = match.occupied()
    spot = next(
        h
        for h in sorted(bf.hexes)
        if bf.is_passable(h)
        and h not in zones
        and h not in taken
        and bf.door_at(h) is None
        and not bf.items_at(h)
        and h.r > 4
    )
    match.apply(Command(GM_PLACE, actor=match.units()[0], hex=spot))
    return match


def test_a_reload_keeps_units_on_legal_hexes_and_moves_one_whose_hex_became_a_boulder(tmp_path: Path) -> None:
    path = copy_ranch(tmp_path)
    match = deployed(path)
    victim, *others = [u for u in match.units() if match.position(u) is not None]
    where = match.position(victim)
    assert where is not None
    before = {u: match.position(u) for u in others}
    put_boulder(path, [match.battlefield.geometry.to_cell(where)])
    events = match.apply(reload_command(path))
    assert not match.battlefield.is_passable(where)
    now = match.position(victim)
    assert now is not None and now != where and match.battlefield.is_passable(now)
    assert {u: match.position(u) for u in others} == before
    said = [e.change for e in events if isinstance(e, GmEdit)]
    assert said[0].startswith("the map reloaded from disk (Showdown at the Lazy K)")
    assert f"moved to {now.q},{now.r}: its hex is impassable now (boulder)" in said
    assert match.board_sha and match.state()["board"] == match.board_sha


def test_the_same_board_again_and_a_malformed_board_are_refused(tmp_path: Path) -> None:
    path = copy_ranch(tmp_path)
    match = deployed(path)
    digest = match.digest()
    assert match.validate(reload_command(path)) == "the battle is on this board already"
    bad = Command(GM_MAP, extra=(("board", "{"),))
    reason = match.validate(bad)
    assert reason is not None and "not JSON" in reason
    with pytest.raises(IllegalCommandError):
        match.apply(bad)
    assert match.digest() == digest and all(c.action != GM_MAP for c in match.log)


def test_a_save_after_a_reload_replays_exactly_though_the_file_changed_again(tmp_path: Path) -> None:
    path = copy_ranch(tmp_path)
    match = deployed(path)
    unit = match.units()[0]
    where = match.position(unit)
    assert where is not None
    put_boulder(path, [match.battlefield.geometry.to_cell(where)])
    match.apply(reload_command(path))
    digest = match.digest()
    save = tmp_path / "battle.json"
    save_match(match, save)
    doc = json.loads(save.read_text(encoding="utf-8"))
    assert doc["map"]["sha256"] == match.first_board.file_hash and "board" in doc["map"]
    put_boulder(path, [(0, 0), (1, 0)])  # the GM goes on editing the map after the save
    loaded, _ = load_match(save)
    assert loaded.digest() == digest and loaded.position(unit) == match.position(unit)
    assert not loaded.battlefield.is_passable(where)


def test_a_save_without_a_reload_has_no_board_and_the_same_digest_as_before(tmp_path: Path) -> None:
    path = copy_ranch(tmp_path)
    match = deployed(path)
    assert "board" not in match.state()
    save_match(match, tmp_path / "plain.json")
    assert "board" not in json.loads((tmp_path / "plain.json").read_text(encoding="utf-8"))["map"]


def test_the_session_keeps_a_reload_it_cannot_undo_and_writes_the_autosave_whole(tmp_path: Path) -> None:
    path = copy_ranch(tmp_path)
    session = BattleSession(deployed(path), tmp_path / "autosaves")
    session.autosave()
    unit = session.match.units()[0]
    where = session.match.position(unit)
    assert where is not None
    put_boulder(path, [session.match.battlefield.geometry.to_cell(where)])
    session.apply(reload_command(path))
    assert session.undo_problem() == "the map was reloaded from disk: that stands"
    autosave = session.autosave_path()
    assert autosave is not None
    loaded = BattleSession.load(autosave)
    assert loaded.match.digest() == session.match.digest()


def test_a_unit_set_aside_when_the_new_map_has_no_room(tmp_path: Path) -> None:
    match = deployed(copy_ranch(tmp_path))
    bf = match.battlefield
    doc = json.loads(board_json(match.first_board))
    wall = [Terrain("rock face", impassable=True).name, True, True, 2, 1, False]
    doc["terrain"].append(wall)
    standing = {match.position(u) for u in match.units()}
    keep = sorted(h for h in standing if h is not None)[:-1]  # room for all units but one
    cells = []
    for row in range(bf.height):
        for col in range(bf.width):
            h = bf.geometry.to_hex(col, row)
            cells.append(doc["cells"][row * bf.width + col] if h in keep else len(doc["terrain"]) - 1)
    doc["cells"] = cells
    doc["doors"], doc["zones"] = [], [z for z in doc["zones"] if all(Hex(*p) in keep for p in z[2])]
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    cmd = Command(GM_MAP, extra=(("board", text),))
    assert match.validate(cmd) is None  # nobody acts yet: Frontier deals its initiative cards first
    events = match.apply(cmd)
    aside = [u for u in match.units(in_play=False) if match.units().count(u) == 0]
    assert len(aside) == 1 and match.identity(aside[0]).name
    assert any("set aside off the map" in e.change for e in events if isinstance(e, GmEdit))
    assert board_sha(text) == match.board_sha
    assert match.position(aside[0]) is None
    match.enter()
    removed = esper.try_component(aside[0], Removed)
    assert removed is not None and removed.reason == GM_REMOVED  # the Move tool puts it back as it was


def test_the_odds_workers_rebuild_a_reloaded_battle_from_its_first_board(tmp_path: Path) -> None:
    """ "What are the odds from here?" plays from the position rebuilt in another process: from the board
    the battle started on, whatever the file says now."""
    from ai.odds import _Position

    path = copy_ranch(tmp_path)
    match = deployed(path)
    where = match.position(match.units()[0])
    assert where is not None
    put_boulder(path, [match.battlefield.geometry.to_cell(where)])
    match.apply(reload_command(path))
    put_boulder(path, [(0, 0)])  # edited again: the file is neither board now
    assert _Position.of(match).rebuild().digest() == match.digest()


def test_the_odds_workers_rebuild_an_encounter_with_its_rules() -> None:
    from ai.odds import _Position
    from game.encounter.load import load_encounter

    enc = load_encounter(ROOT / "encounters" / "rift_water_tower.toml")
    match = enc.match(4)
    for cmd in match.auto_deploy():
        match.apply(cmd)
    assert _Position.of(match).rebuild().digest() == match.digest()
