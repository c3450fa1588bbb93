"""Live maps, headless (game/livemap.py, game/mapcheck.load_checked): the files a map is made of, the
watcher handing a finished save to the main loop, and which units keep their hexes after a reload."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

from game.battlefield import Terrain
from game.hexgrid import Hex
from game.livemap import MapWatcher, carry_units, map_files
from game.mapcheck import check_map, load_checked
from game.resources import maps_dir

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 10.0  # seconds to wait for the watching thread before failing (not a speed requirement)


def copy_map(tmp_path: Path, name: str = "canyon_railyard") -> Path:
    """A shipped map with its tilesets and images, in the same relative places (maps/, assets/tiles/)."""
    (tmp_path / "maps").mkdir()
    shutil.copy2(maps_dir() / f"{name}.tmx", tmp_path / "maps")
    for tsx in maps_dir().glob("*.tsx"):
        shutil.copy2(tsx, tmp_path / "maps")
    shutil.copytree(ROOT / "assets" / "tiles", tmp_path / "assets" / "tiles")
    return tmp_path / "maps" / f"{name}.tmx"


def save_like_tiled(path: Path, text: str) -> None:
    """Tiled saves through a temporary file renamed over the map (QSaveFile)."""
    tmp = path.with_name(f"{path.name}.tmp123")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def wait_for(predicate: Callable[[], bool]) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("the watcher did not report the change")
        time.sleep(0.01)


def test_load_checked_gives_the_map_and_check_maps_problems(tmp_path: Path) -> None:
    path = copy_map(tmp_path)
    checked = load_checked(path)
    assert checked.ok and checked.tmap is not None and checked.battlefield is not None
    path.write_text("<map", encoding="utf-8")
    broken = load_checked(path)
    assert broken.tmap is None and not broken.ok
    assert [str(p) for p in broken.problems] == [str(p) for p in check_map(path)]


def test_map_files_are_the_tmx_its_tilesets_and_their_images(tmp_path: Path) -> None:
    path = copy_map(tmp_path)
    tmap = load_checked(path).tmap
    assert tmap is not None
    files = map_files(tmap)
    maps, tiles = tmp_path / "maps", tmp_path / "assets" / "tiles"
    assert path.resolve() in files
    # canyon_railyard.tmx names these four tilesets, each with one picture sheet
    for name in ("terrain_flat", "objects_flat", "tall_flat", "signs"):
        assert (maps / f"{name}.tsx").resolve() in files
        assert (tiles / f"{name}.png").resolve() in files
    assert (maps / "terrain_pointy.tsx").resolve() not in files  # a tileset the map does not use


def test_the_watcher_hands_over_a_save_only_once_it_is_quiet(tmp_path: Path) -> None:
    path = copy_map(tmp_path)
    now = [100.0]
    woken: list[int] = []
    with MapWatcher([path], wake=lambda: woken.append(1), clock=lambda: now[0]) as watcher:
        assert watcher.running and watcher.folders == {path.parent.resolve()}
        text = path.read_text(encoding="utf-8")
        save_like_tiled(path, text.replace("Canyon", "Gorge"))
        wait_for(lambda: watcher.changes_seen > 0)
        assert woken  # the thread woke the main loop
        assert watcher.poll() is None  # the save may not be finished: nothing yet
        now[0] += watcher.quiet
        assert watcher.poll() == {path.resolve()}
        assert watcher.poll() is None  # handed over once
    assert not watcher.running


def test_only_the_watched_files_are_handed_over(tmp_path: Path) -> None:
    path = copy_map(tmp_path)
    with MapWatcher([path], quiet=0.0) as watcher:
        path.with_name("other.tmx").write_text("x", encoding="utf-8")
        (path.parent / "notes.txt").write_text("x", encoding="utf-8")
        time.sleep(0.5)  # time for the thread to see them (it must not report them)
        assert watcher.poll() is None
        save_like_tiled(path, path.read_text(encoding="utf-8"))
        wait_for(lambda: watcher.pending)
        assert watcher.poll() == {path.resolve()}


def test_a_tileset_of_the_map_counts_too(tmp_path: Path) -> None:
    path = copy_map(tmp_path)
    tmap = load_checked(path).tmap
    assert tmap is not None
    tsx = path.parent / "terrain_flat.tsx"
    with MapWatcher(map_files(tmap), quiet=0.0) as watcher:
        tsx.write_text(tsx.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        wait_for(lambda: watcher.pending)
        assert watcher.poll() == {tsx.resolve()}


def test_loose_watching_counts_any_map_file_in_the_folder(tmp_path: Path) -> None:
    """While a map is broken the tileset it names may be the file being made: any Tiled file counts."""
    path = copy_map(tmp_path)
    with MapWatcher([path], quiet=0.0, loose=True) as watcher:
        (path.parent / "notes.txt").write_text("x", encoding="utf-8")
        (path.parent / "new_tiles.tsx").write_text("<tileset/>", encoding="utf-8")
        wait_for(lambda: watcher.pending)
        time.sleep(0.2)  # both writes seen
        assert watcher.poll() == {(path.parent / "new_tiles.tsx").resolve()}


def test_a_missing_folder_is_a_sentence_not_a_crash(tmp_path: Path) -> None:
    watcher = MapWatcher([tmp_path / "gone" / "map.tmx"])
    assert not watcher.running
    assert watcher.error is not None and "cannot be watched" in watcher.error
    watcher.close()


def test_units_keep_their_hexes_where_still_legal() -> None:
    battlefield = load_checked(maps_dir() / "ranch_duel.tmx").battlefield
    assert battlefield is not None
    geometry = load_checked(maps_dir() / "ranch_duel.tmx").tmap.geometry  # type: ignore[union-attr]
    open_a, open_b, walled = (geometry.to_hex(c, r) for c, r in ((4, 8), (5, 8), (6, 8)))
    assert all(battlefield.is_passable(h) for h in (open_a, open_b, walled))
    edited = battlefield.clone()  # the GM painted a wall on (6, 8)
    edited.set_terrain(walled, Terrain("wall", impassable=True, blocks_sight=True))
    off_map = Hex(500, 500)
    carried = carry_units(
        {"kid": open_a, "sheriff": walled, "deputy": off_map, "twin": open_a, "doc": open_b}, edited
    )
    assert carried.kept == {"kid": open_a, "doc": open_b}
    assert carried.displaced == {
        "sheriff": "its hex is impassable now (wall)",
        "deputy": "its hex is off the map now",
        "twin": "its hex is taken by another unit",
    }
