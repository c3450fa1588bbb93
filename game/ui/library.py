"""What the menu screens list, without pygame: the maps to fight on, the saved battles, and where saves live.

Saves and autosaves live in Hexslinger's data folder (:func:`game.posses.data_dir`:
``platformdirs.user_data_dir("hexslinger")`` or ``$HEXSLINGER_DATA_DIR``), in ``saves/`` (named by the
player) and ``autosaves/`` (written by :class:`~game.ui.session.BattleSession` after every command).

Listing never fails: a map that does not load lists its check-map problems, a save that cannot be read
(whatever it is: damaged, hostile, a FIFO or a link to a device; :mod:`game.safeio` bounds the reading)
lists its :class:`~game.save.SaveError` text; the screens show them and the game goes on.

A map lists the rulesets it suits in its ``rulesets`` property (none: every installed ruleset); of the
ids it names only the installed ones count here (``hexslinger check-map`` reports the others), and a map
that names rulesets of which none is installed cannot be played.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from game.battlefield import map_rulesets
from game.engine import registry
from game.engine.builder import same_name
from game.hexgrid import Hex, StaggerAxis
from game.journal import journal_path
from game.mapcheck import ruleset_problems
from game.mapload import build_battlefield
from game.posses import data_dir, file_stem
from game.resources import maps_dir
from game.safeio import remove_stale_temp_files
from game.save import SaveError, read_save
from game.tiledmap import MapLoadError, MapProblem, load_tiled_map

__all__ = [
    "MAPS_DIR",
    "MapInfo",
    "SaveEntry",
    "autosave_dir",
    "autosave_name",
    "inspect_map",
    "list_maps",
    "list_saves",
    "ruleset_title",
    "save_path",
    "save_target",
    "saves_dir",
]

MAPS_DIR: Final = maps_dir()


def autosave_dir() -> Path:
    """Where battles are saved after every command ("Continue" resumes the newest)."""
    return data_dir() / "autosaves"


def saves_dir() -> Path:
    """Where the player's named saves and replays go."""
    return data_dir() / "saves"


def save_path(name: str, folder: Path | None = None) -> Path:
    """The file a save called ``name`` is written to (:func:`save_target`)."""
    return save_target(name, folder)[0]


def save_target(name: str, folder: Path | None = None) -> tuple[Path, str | None]:
    """Where a save called ``name`` goes, and the name of the save already there that it would replace
    (None: a new file).

    A name becomes a safe file name (:func:`game.posses.file_stem`: never a path, never outside the
    folder), so different names can become one: ``../../x``, ``~/x`` and ``\uff0e\uff0e\uff0fx`` are
    all ``x``, and ``..``, ``*`` and an emoji all ``posse``. A file holding a save of another name, or
    anything that is not a readable save, is never replaced: the name takes the first free ``x-2.json``,
    ``x-3.json``... Only a save of the same name (case and spacing aside) is the one to replace, and the
    screens ask before they do."""
    folder = saves_dir() if folder is None else folder
    stem = file_stem(name, "save")
    for n in itertools.count(1):
        path = folder / (f"{stem}.json" if n == 1 else f"{stem}-{n}.json")
        if not os.path.lexists(path):
            return path, None
        try:
            stored = read_save(path).name
        except SaveError:
            continue
        if same_name(stored, name):
            return path, stored
    raise AssertionError("unreachable")  # pragma: no cover - itertools.count never ends


def ruleset_title(name: str) -> str:
    """A ruleset's title ("Through the Rift"), from its plugin; its id when none is installed."""
    try:
        return registry.plugin(name).title
    except registry.UnknownRulesetError:
        return name


# == maps ==========================================================================================


@dataclass(frozen=True, slots=True)
class MapInfo:
    """A map as the New Battle screen shows it; ``problems`` non-empty: it cannot be played."""

    path: Path
    title: str
    description: str = ""
    size: tuple[int, int] = (0, 0)  # hexes: columns x rows
    orientation: str = ""  # "pointy-top" / "flat-top"
    rulesets: tuple[str, ...] = ()  # the map's 'rulesets' property (empty: any)
    sides: tuple[str, ...] = ()  # the deploy zones' side ids, in order
    side_names: dict[str, str] = field(default_factory=dict)  # from the map's side<N>_name properties
    zones: dict[str, frozenset[Hex]] = field(default_factory=dict)  # side -> deploy hexes
    file_hash: str = ""
    problems: tuple[MapProblem, ...] = ()

    @property
    def playable(self) -> bool:
        return not self.problems and len(self.sides) >= 2

    def side_name(self, side: str) -> str:
        return self.side_names.get(side, side.replace("side", "Side "))

    def suits(self, ruleset: str) -> bool:
        return not self.rulesets or ruleset in self.rulesets


def _map_text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def inspect_map(path: Path) -> MapInfo:
    """Read a map for the picker: its properties, size, deploy zones, and every check-map problem."""
    path = Path(path)
    try:
        tmap = load_tiled_map(path)
    except MapLoadError as error:
        return MapInfo(path, path.stem, problems=tuple(error.problems))
    except OSError as error:  # vanished or unreadable between listing and reading
        return MapInfo(path, path.stem, problems=(MapProblem(str(path), str(error), "check the file"),))
    props = tmap.properties
    try:
        battlefield, problems = build_battlefield(tmap)
        zones = dict(battlefield.deploy_zones)
        sides = tuple(sorted(side for side, hexes in zones.items() if hexes))
    except Exception as error:  # a bug in the checks must not close the screen (as check-map does)
        problems = [
            MapProblem(
                str(path),
                f"the map could not be checked ({type(error).__name__}: {error})",
                "report this map to Hexslinger's developers",
            )
        ]
        zones, sides = {}, ()
    if not problems and len(sides) < 2:
        problems = [
            MapProblem(
                str(path),
                f"the map has deploy zones for {len(sides)} side(s); a battle needs two",
                "add deploy_zone objects with side=side1 and side=side2 (docs/MAPS.md)",
            )
        ]
    named = map_rulesets(props.get("rulesets"))
    rulesets = tuple(r for r in named if r in registry.ruleset_ids())
    if named and not rulesets and not problems:  # made only for rulesets this Hexslinger lacks
        problems = ruleset_problems(tmap)
    side_names = {
        side: _map_text(props.get(f"{side}_name")) for side in sides if _map_text(props.get(f"{side}_name"))
    }
    return MapInfo(
        path=path,
        title=_map_text(props.get("title")) or path.stem.replace("_", " ").title(),
        description=_map_text(props.get("description")),
        size=(tmap.width, tmap.height),
        orientation="flat-top" if tmap.geometry.axis is StaggerAxis.X else "pointy-top",
        rulesets=rulesets,
        sides=sides,
        side_names=side_names,
        zones=zones,
        file_hash=tmap.file_hash,
        problems=tuple(problems),
    )


def list_maps(folder: Path = MAPS_DIR) -> list[Path]:
    """The ``.tmx`` files in ``folder``, by name."""
    try:
        return sorted(p for p in Path(folder).glob("*.tmx") if p.is_file())
    except OSError:
        return []


# == saves =========================================================================================


@dataclass(frozen=True, slots=True)
class SaveEntry:
    """A save file as the Load screen lists it; ``error``: it cannot be loaded (what -- how to fix)."""

    path: Path
    name: str
    modified: float
    autosave: bool
    ruleset: str = ""
    map_title: str = ""
    commands: int = 0
    error: str | None = None
    posses: tuple[str, ...] = ()  # the posses' names, in side order
    round: int = 0  # the round the battle had reached (0: the save does not say)
    over: bool = False

    @property
    def date(self) -> str:
        return time.strftime("%d %b %Y %H:%M", time.localtime(self.modified))

    @property
    def ruleset_title(self) -> str:
        return ruleset_title(self.ruleset) if self.ruleset else ""


@functools.lru_cache(maxsize=64)
def _map_title(path: str, _mtime: float) -> str:
    try:
        title = load_tiled_map(Path(path)).properties.get("title")
    except (MapLoadError, OSError):
        title = None
    return _shown(title, 200) if isinstance(title, str) and title.strip() else Path(path).stem


def _title_of(map_file: str, save: Path) -> str:
    candidate = Path(map_file)
    for path in (candidate, save.parent / candidate.name, MAPS_DIR / candidate.name):
        try:
            if path.is_file():
                return _map_title(str(path), path.stat().st_mtime)
        except OSError:
            continue
    return candidate.stem


def _entry(path: Path, autosave: bool) -> SaveEntry:
    try:
        modified = path.stat().st_mtime
    except OSError:
        modified = 0.0
    if autosave:  # its commands since it was written whole are in its journal (game.journal)
        with contextlib.suppress(OSError):
            modified = max(modified, journal_path(path).stat().st_mtime)
    fallback = path.stem.removeprefix("autosave-") if autosave else path.stem
    try:
        data = read_save(path)
    except SaveError as error:
        return SaveEntry(path, fallback, modified, autosave, error=f"{error.what} -- {error.fix}")
    except Exception as error:  # a bug in reading one file must not close the screen
        what = f"the save could not be read ({type(error).__name__}: {error})"
        fix = "report this save to Hexslinger's developers; load another"
        return SaveEntry(path, fallback, modified, autosave, error=f"{what[:300]} -- {fix}")
    posses = tuple(_shown(p.name, 60) or p.side.replace("side", "Side ") for p in data.posses)
    name = autosave_name(posses, data.round, data.over) if autosave else (_shown(data.name, 200) or fallback)
    return SaveEntry(
        path,
        name,
        modified,
        autosave,
        ruleset=data.ruleset,
        map_title=_title_of(data.map_file, path),
        commands=len(data.commands),
        posses=posses,
        round=data.round,
        over=data.over,
    )


def _shown(text: str, limit: int) -> str:
    """A name read from a save, as a listing shows it: at most ``limit`` characters."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def autosave_name(posses: tuple[str, ...], round_reached: int, over: bool) -> str:
    """How the Load screen names an autosave, so two battles' autosaves differ: how far the battle went,
    then who fights ("Autosave, round 3 \u2014 Sheriff's Posse vs Blackwater Gang", "Autosave, battle over
    \u2014 ..."; a save from before the round was recorded says no round)."""
    name = "Autosave"
    if over:
        name += ", battle over"
    elif round_reached > 0:
        name += f", round {round_reached}"
    return f"{name} \u2014 {' vs '.join(posses)}" if posses else name


def list_saves(saves: Path | None = None, autosaves: Path | None = None) -> list[SaveEntry]:
    """The named saves (newest first), then the autosaves (newest first). Every ``*.json`` entry of the
    folders is one row: one that cannot be read (damaged, too large, a FIFO, a link to a device, a
    folder) is listed with its error, so the player sees why it will not load. Temporary files that
    killed saves left behind are deleted on the way."""
    out: list[SaveEntry] = []
    for folder, auto in ((saves or saves_dir(), False), (autosaves or autosave_dir(), True)):
        remove_stale_temp_files(Path(folder))
        try:
            files = list(Path(folder).glob("*.json"))
        except OSError:
            files = []
        if auto:
            files = [p for p in files if p.name.startswith("autosave-")]
        entries = [_entry(p, auto) for p in files]
        entries.sort(key=lambda e: (-e.modified, e.name.casefold()))
        out.extend(entries)
    return out
