"""An encounter's objective areas drawn on the battle map (issue 15): the area to hold, the way out (an
exit zone) and where the loot lies, each as an area — tinted and hatched in its side's colour, outlined
along its border and labelled ("Hold: Water tower") — the way deploy zones are drawn
(:mod:`game.ui.zone_marks`), the hatching telling them apart from a deploy zone and from terrain. An area
two sides want (both hold the Water tower) is drawn once, in a neutral gold, with both sides' words.

The objectives are public (``Match.goals``), so every player sees them. The painted layer is kept while
the goals, the camera and the map area stay the same (the tracker's words change once a round at most).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import pygame

from game.engine.scenario import GoalView
from game.hexgrid import Hex
from game.ui.overlay import Overlay
from game.ui.path_marks import pill
from game.ui.zone_marks import border_edges

__all__ = ["GoalArea", "GoalMarks", "draw_area", "goal_areas"]

RGB = tuple[int, int, int]
SHARED: RGB = (236, 196, 64)  # an area more than one side wants
HATCH_GAP = 14  # pixels between the hatch lines, at any zoom


@dataclass(frozen=True, slots=True)
class GoalArea:
    """One area to draw: its tiles, the sides it matters to, and its label."""

    hexes: frozenset[Hex]
    sides: tuple[str, ...]
    text: str


def goal_areas(goals: Iterable[GoalView]) -> list[GoalArea]:
    """The areas the objectives name, one per set of tiles (the words of every objective on it joined):
    a hold's area, an escape's way out, a loot's way out and where the loot lies (while nobody carries it).
    Taking out the other posse and protecting a unit name no area."""
    found: dict[frozenset[Hex], tuple[list[str], list[str]]] = {}

    def add(hexes: frozenset[Hex], side: str, text: str) -> None:
        if not hexes:
            return
        sides, texts = found.setdefault(hexes, ([], []))
        if side not in sides:
            sides.append(side)
        if text not in texts:
            texts.append(text)

    for goal in goals:
        if goal.kind == "hold":
            add(goal.area, goal.side, f"Hold: {goal.label}")
        elif goal.kind == "escape":
            add(goal.area, goal.side, f"Way out: {goal.label}")
        elif goal.kind == "loot":
            add(goal.area, goal.side, f"Way out for the {goal.label} loot")
            if not goal.carrier:
                add(goal.spot, goal.side, f"Loot: {goal.label}")
    return [GoalArea(hexes, tuple(sides), " / ".join(texts)) for hexes, (sides, texts) in found.items()]


def draw_area(
    surface: pygame.Surface, overlay: Overlay, hexes: Iterable[Hex], colour: RGB, text: str
) -> None:
    """``hexes`` as an objective area: a faint tint and diagonal hatching inside, a line along the border
    (dark under-stroke first), and ``text`` on a label at its top tile."""
    polygons = [overlay.polygon(h) for h in hexes]
    inside = [p for p in polygons if _seen(surface, p)]
    if not inside:
        return
    xs = [x for p in inside for x, _ in p]
    ys = [y for p in inside for _, y in p]
    box = pygame.Rect(
        int(min(xs)) - 1, int(min(ys)) - 1, int(max(xs) - min(xs)) + 3, int(max(ys) - min(ys)) + 3
    )
    box = box.clip(surface.get_rect())
    if box.width <= 0 or box.height <= 0:
        return
    shape = pygame.Surface(box.size, pygame.SRCALPHA)
    for p in inside:
        pygame.draw.polygon(shape, (255, 255, 255, 255), [(x - box.x, y - box.y) for x, y in p])
    paint = pygame.Surface(box.size, pygame.SRCALPHA)
    paint.fill((*colour, 40))
    width = max(1, round(overlay.camera.zoom * 2))
    for start in range(-box.height, box.width, HATCH_GAP):  # lines rising to the right, 45 degrees
        pygame.draw.line(paint, (*colour, 150), (start, box.height), (start + box.height, 0), width)
    paint.blit(shape, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)  # only inside the area
    surface.blit(paint, box.topleft)
    line = max(2, round(overlay.camera.zoom * 3))
    for a, b in border_edges(overlay, hexes):
        pygame.draw.line(surface, (30, 18, 8), a, b, line + 2)
        pygame.draw.line(surface, colour, a, b, line)
    top = min(hexes, key=lambda h: (overlay.center(h)[1], overlay.center(h)[0]))
    pill(surface, overlay, overlay.center(top), text)


def _seen(surface: pygame.Surface, points: Sequence[tuple[float, float]]) -> bool:
    w, h = surface.get_size()
    return any(-80 <= x <= w + 80 and -80 <= y <= h + 80 for x, y in points)


class GoalMarks:
    """The objective areas of one battle screen, painted into a layer kept while nothing it shows
    changed."""

    def __init__(self) -> None:
        self._layer: tuple[object, pygame.Surface] | None = None
        self.drawn: list[GoalArea] = []  # the areas of the last paint (tests read them)

    def draw(
        self,
        canvas: pygame.Surface,
        overlay: Overlay,
        goals: list[GoalView],
        colour_of: Callable[[str], RGB],
    ) -> None:
        if not goals:
            return
        cam = overlay.camera
        key: object = (
            tuple((g.kind, g.side, g.label, g.area, g.spot, g.carrier) for g in goals),
            cam.scroll,
            cam.zoom,
            canvas.get_size(),
        )
        if self._layer is None or self._layer[0] != key:
            layer = pygame.Surface(canvas.get_size(), pygame.SRCALPHA)
            self.drawn = goal_areas(goals)
            for area in sorted(self.drawn, key=lambda a: -len(a.hexes)):  # small areas over big ones
                colour = colour_of(area.sides[0]) if len(area.sides) == 1 else SHARED
                draw_area(layer, overlay, area.hexes, colour, area.text)
            self._layer = (key, layer)
        canvas.blit(self._layer[1], (0, 0))
