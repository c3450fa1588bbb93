"""What is wrong with a map, phrased for the GM who fixes it in Tiled: :class:`MapProblem`, the
:class:`MapLoadError` that carries every problem found, and :class:`Problems`, the list the readers add to.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MapLoadError", "MapProblem", "Problems"]


@dataclass(frozen=True, slots=True)
class MapProblem:
    """One thing wrong with a map, phrased for the GM who has to fix it in Tiled."""

    file: str
    what: str
    fix: str
    layer: str | None = None
    cell: tuple[int, int] | None = None  # Tiled (col, row) as shown in Tiled's status bar

    def __str__(self) -> str:
        where = self.file
        if self.layer is not None:
            where += f", layer '{self.layer}'"
        if self.cell is not None:
            where += f", cell {self.cell[0]},{self.cell[1]}"
        return f"{where}: {self.what} -- {self.fix}"


class MapLoadError(Exception):
    """A map could not be loaded; ``problems`` lists everything found (never empty)."""

    def __init__(self, problems: list[MapProblem]) -> None:
        if not problems:
            raise ValueError("MapLoadError needs at least one problem")
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class Problems:
    """Collects problems with a default file name."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.items: list[MapProblem] = []

    def add(
        self,
        what: str,
        fix: str,
        *,
        layer: str | None = None,
        cell: tuple[int, int] | None = None,
        file: str | None = None,
    ) -> None:
        self.items.append(MapProblem(file or self.file, what, fix, layer=layer, cell=cell))

    def __bool__(self) -> bool:
        return bool(self.items)
