"""``hexslinger check-map``: every problem in a map, at once, phrased for the GM who fixes it in Tiled.

Load problems (the file, its XML, layers, tilesets, images) come first; if the map loads, the Hexslinger
conventions of docs/MAPS.md are checked too (property values, deploy zones, doors, objects off the map),
and the rulesets its ``rulesets`` property names are looked up in the ruleset registry (the core reads the
property but knows no ruleset). Never raises: anything unexpected becomes a problem too.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from game.battlefield import Battlefield, map_rulesets
from game.engine import registry
from game.mapload import build_battlefield
from game.tiledmap import MapLoadError, MapProblem, TiledMap, load_tiled_map

__all__ = ["CheckedMap", "check_map", "load_checked", "ruleset_problems"]


def ruleset_problems(tmap: TiledMap) -> list[MapProblem]:
    """A problem for each ruleset the map's ``rulesets`` property names that is not installed."""
    installed = registry.ruleset_ids()
    known = ", ".join(installed) or "none"
    return [
        MapProblem(
            str(tmap.path),
            f"'rulesets' names '{name}', which is not an installed ruleset (installed: {known})",
            f"fix the comma list, or install the package that provides '{name}' "
            "(leave 'rulesets' out and the map suits every ruleset)",
        )
        for name in map_rulesets(tmap.properties.get("rulesets"))
        if name not in installed
    ]


@dataclass(frozen=True, slots=True)
class CheckedMap:
    """A map loaded and checked in one pass: what ``check-map`` says about it, and the map itself when it
    loaded (the map view and a live reload show it; ``problems`` may still list convention problems)."""

    path: Path
    tmap: TiledMap | None
    battlefield: Battlefield | None
    problems: list[MapProblem]

    @property
    def ok(self) -> bool:
        """Loaded without a single problem: ready to play."""
        return self.tmap is not None and not self.problems


def load_checked(path: str | Path) -> CheckedMap:
    """Load the map at ``path`` and check it as ``check-map`` does; never raises."""
    try:
        tmap = load_tiled_map(path)
    except MapLoadError as error:
        return CheckedMap(Path(path), None, None, list(error.problems))
    try:
        battlefield, problems = build_battlefield(tmap)
        problems += ruleset_problems(tmap)
    except Exception as error:  # a bug in the checks must not hide the map's other problems as a traceback
        problem = MapProblem(
            str(path),
            f"the map could not be checked ({type(error).__name__}: {error})",
            "report this map to Hexslinger's developers",
        )
        return CheckedMap(Path(path), tmap, None, [problem])
    return CheckedMap(Path(path), tmap, battlefield, problems)


def check_map(path: str | Path) -> list[MapProblem]:
    """Every problem found in the map at ``path``; an empty list means the map is ready to play."""
    return load_checked(path).problems
