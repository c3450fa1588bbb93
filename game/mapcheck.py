"""``hexslinger check-map``: every problem in a map, at once, phrased for the GM who fixes it in Tiled.

Load problems (the file, its XML, layers, tilesets, images) come first; if the map loads, the Hexslinger
conventions of docs/MAPS.md are checked too (property values, deploy zones, doors, objects off the map).
Never raises: anything unexpected becomes a problem too.
"""

from __future__ import annotations

from pathlib import Path

from game.battlefield import build_battlefield
from game.tiledmap import MapLoadError, MapProblem, load_tiled_map

__all__ = ["check_map"]


def check_map(path: str | Path) -> list[MapProblem]:
    """Every problem found in the map at ``path``; an empty list means the map is ready to play."""
    try:
        tmap = load_tiled_map(path)
    except MapLoadError as error:
        return list(error.problems)
    try:
        _, problems = build_battlefield(tmap)
    except Exception as error:  # a bug in the checks must not hide the map's other problems as a traceback
        return [
            MapProblem(
                str(path),
                f"the map could not be checked ({type(error).__name__}: {error})",
                "report this map to Hexslinger's developers",
            )
        ]
    return problems
