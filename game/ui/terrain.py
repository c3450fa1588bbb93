"""What the status line says about a hex: the rules' own reading of the map (:mod:`game.battlefield`).

The UI decides no rule: passability, cover and sight come from the battlefield, doors included.
The battlefield is built non-strict, so a map with convention problems still shows what it can.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.battlefield import Battlefield
from game.hexgrid import Hex
from game.mapload import build_battlefield
from game.tiledmap import TiledMap


@dataclass(frozen=True, slots=True)
class HexReport:
    """The facts about one hex the UI shows; wording and colours are the UI's business."""

    col: int
    row: int
    hex: Hex
    terrain: str
    cover: str  # none | half | full
    move_cost: int | None  # None: cannot be entered
    impassable: bool
    blocks_sight: bool
    door: str | None = None  # open | closed | None
    items: tuple[str, ...] = ()


class TerrainLookup:
    """Answers "what is at this cell" for the status line (cached per cell)."""

    def __init__(self, tmap: TiledMap, battlefield: Battlefield | None = None) -> None:
        self.map = tmap
        self.battlefield = battlefield if battlefield is not None else build_battlefield(tmap)[0]
        self._cache: dict[tuple[int, int], HexReport | None] = {}

    def report(self, col: int, row: int) -> HexReport | None:
        if not (0 <= col < self.map.width and 0 <= row < self.map.height):
            return None
        key = (col, row)
        if key not in self._cache:
            self._cache[key] = self._report(col, row)
        return self._cache[key]

    def forget(self) -> None:
        """Drop cached reports (after a door opens or closes)."""
        self._cache.clear()

    def _report(self, col: int, row: int) -> HexReport:
        field = self.battlefield
        h = self.map.geometry.to_hex(col, row)
        terrain = field.terrain_at(h)
        door = field.door_at(h)
        return HexReport(
            col=col,
            row=row,
            hex=h,
            terrain=terrain.name,
            cover=terrain.cover.name.lower(),
            move_cost=field.move_cost(h),
            impassable=not field.is_passable(h),
            blocks_sight=field.blocks_sight(h),
            door=None if door is None else ("open" if door.is_open else "closed"),
            items=field.items_at(h),
        )
