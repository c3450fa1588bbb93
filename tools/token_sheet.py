"""A contact sheet of every unit token on terrain, to look at: ``python -m tools.token_sheet OUT.png``.

Both rulesets' kinds for both sides, healthy, acting, selected, out of action, with health and statuses,
and crowded hexes, at zoom 1 and 0.5, over the shipped terrain tiles. ``--grey FILE.png`` also writes a
greyscale copy (what a colour-blind player or a black-and-white print gets). ``docs/images/tokens.png``
is made with it: ``python -m tools.token_sheet docs/images/tokens.png``.
"""

from __future__ import annotations

import os
import random
import sys
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from game.hexgrid import StaggerAxis, StaggerIndex, TiledHexGeometry  # noqa: E402
from game.ui import settings  # noqa: E402
from game.ui.render import draw_hex_grid  # noqa: E402
from game.ui.tokens import StatusBadge, TokenArt, token_layout  # noqa: E402

TILE_W, TILE_H, SIDE = 64, 74, 36
TERRAIN_SHEET = ROOT / "assets" / "tiles" / "terrain_pointy.png"
TERRAIN_COLUMNS = 8
SAND, SAND_PEBBLES, SAND_SCRUB, GRASS, GRASS_THICK, ROAD, ROAD_RUTS = range(7)
BOARDWALK = 9
COLUMNS = 12
LABEL_FONT = "dejavuserif,georgia,liberationserif,serif"


@dataclass
class Spec:
    """One hex of the sheet: the tokens on it (kind, side, faction, markers)."""

    units: Sequence[tuple[str, int, str | None, dict[str, Any]]] = field(default_factory=list)


def kinds() -> tuple[list[str], list[str], list[str]]:
    """Frontier unit kinds, Rift Rifter icons (by attitude) and Rift enemies + companions, from the data."""
    frontier = tomllib.loads((ROOT / "game/rules/frontier/frontier.toml").read_text(encoding="utf-8"))
    rift = tomllib.loads((ROOT / "game/rules/rift/rift.toml").read_text(encoding="utf-8"))
    rifters = ["rifter", *(f"rifter.{a}" for a in rift["attitudes"])]
    others = [*rift["enemies"], *rift.get("companions", {})]
    return list(frontier["units"]), rifters, others


def badges(*keys: str) -> list[StatusBadge]:
    """The badges of statuses by the rulesets' ids, as their views word them (StatusView badge, helps)."""
    from game.rules.frontier.views import STATUS_RULES as FRONTIER
    from game.rules.rift.views import STATUS_RULES as RIFT

    out = []
    for key in keys:
        rule = FRONTIER.get(key) or RIFT[key]
        out.append(StatusBadge(rule.badge, rule.name, rule.helps))
    return out


def rows() -> list[tuple[str, list[Spec]]]:
    frontier, rifters, others = kinds()

    def one(kind: str, side: int, faction: str | None, **markers: Any) -> Spec:
        return Spec([(kind, side, faction, markers)])

    law = [one(k, 0, "the_law", wounds=(3, 3)) for k in frontier]
    outlaws = [one(k, 1, "the_outlaws", wounds=(2, 3)) for k in frontier]
    frontier_states = [
        one("sheriff", 0, "the_law", acting=True, wounds=(3, 3), time=0.3),
        one("deputy", 0, "the_law", selected=True, wounds=(2, 3)),
        one("outlaw", 1, "the_outlaws", wounds=(1, 3), statuses=badges("prone", "wounded")),
        one("gang_leader", 1, "the_outlaws", wounds=(2, 2), statuses=badges("taking_cover", "aimed")),
        one("hired_gun", 0, "the_law", wounds=(1, 2), statuses=badges("seriously_injured"), selected=True),
        one("outlaw", 1, "the_outlaws", out=True, wounds=(0, 3)),
        one("deputy", 0, "the_law", out=True),
        one("mystery_stranger", 0, None, wounds=(2, 2)),
        Spec([("deputy", 0, "the_law", {"wounds": (3, 3)}), ("dog", 0, "the_law", {"wounds": (2, 2)})]),
        Spec([(k, 1, "the_outlaws", {"wounds": (3, 3)}) for k in ("gang_leader", "outlaw", "outlaw")]),
    ]
    rift_side = [one(k, 0, "rifters", resolve=1.0) for k in rifters] + [one("dog", 0, "rifters", resolve=0.8)]
    enemies = [one(k, 1, "outlaws", resolve=0.75) for k in others if k != "dog"]
    rift_states = [
        one("rifter.bold", 0, "rifters", acting=True, resolve=0.55, time=0.9),
        one("rifter.cunning", 0, "rifters", selected=True, resolve=0.3, statuses=badges("in_cover")),
        one("outlaw_goon", 1, "outlaws", resolve=0.4, statuses=badges("suppressed", "stunned")),
        one("gang_boss", 1, "outlaws", resolve=0.9, statuses=badges("taunted", "overwhelmed", "half_stress")),
        one("rifter.resolute", 0, "rifters", resolve=0.7, statuses=badges("hold_fire", "covering_fire")),
        one("dynamiter", 1, "outlaws", out=True, resolve=0.0),
        one("rifter.daring", 0, "rifters", out=True, resolve=0.0),
        one("rifter.deliberate", 1, None, resolve=0.6),
    ]
    crowds = []
    for n in range(2, 9):
        pool = [*others[:4], *rifters[1:]]
        units = [(pool[(i * 3 + n) % len(pool)], i % 2, None, {"resolve": 1.0 - i * 0.1}) for i in range(n)]
        crowds.append(Spec(units))
    return [
        ("Frontier \u2014 first posse: The Law (star rim)", law),
        ("Frontier \u2014 second posse: The Outlaws (rope rim)", outlaws),
        (
            "Frontier \u2014 acting, selected, statuses, out of action, unknown kind, crowds",
            frontier_states,
        ),
        ("Through the Rift \u2014 Rifters by attitude, and a companion dog", rift_side),
        ("Through the Rift \u2014 the outlaw enemies", enemies),
        (
            "Through the Rift \u2014 acting, selected, statuses, overcome; a Rifter as second side",
            rift_states,
        ),
        ("Crowded hexes: two to eight units on one hex (Through the Rift)", crowds),
    ]


def background(geometry: TiledHexGeometry, cols: int, rows_: int) -> pygame.Surface:
    sheet = pygame.image.load(str(TERRAIN_SHEET))
    tiles = [
        sheet.subsurface(((i % TERRAIN_COLUMNS) * TILE_W, (i // TERRAIN_COLUMNS) * TILE_H, TILE_W, TILE_H))
        for i in range(sheet.get_width() // TILE_W * (sheet.get_height() // TILE_H))
    ]
    w, h = geometry.map_pixel_size(cols, rows_)
    surface = pygame.Surface((w, h))
    surface.fill(settings.VOID_COLOR)
    rng = random.Random(1873)
    for row in range(rows_):
        for col in range(cols):
            if row in (4, 5):
                tile = ROAD_RUTS if rng.random() < 0.3 else ROAD
            elif 9 <= row <= 10:
                tile = BOARDWALK
            elif (col + row // 3) % 7 in (2, 3) or row >= 15:
                tile = GRASS if rng.random() < 0.6 else GRASS_THICK
            else:
                tile = rng.choice((SAND, SAND, SAND_PEBBLES, SAND_SCRUB))
            surface.blit(tiles[tile], geometry.tile_image_position(col, row, TILE_H))
    cells = [(c, r) for r in range(rows_) for c in range(cols)]
    draw_hex_grid(surface, geometry, cells, (0, 0))
    return surface


def label_font(px: int) -> pygame.font.Font:
    return pygame.font.SysFont(LABEL_FONT, px, bold=True)


ROW_STEP = 3  # hex rows from one sheet row to the next (room for the chevron, the label and the health)


def panel(art: TokenArt, zoom: float, labels: bool) -> pygame.Surface:
    geometry = TiledHexGeometry.create(TILE_W, TILE_H, SIDE, StaggerAxis.Y, StaggerIndex.ODD)
    sheet_rows = rows()
    grid_rows = ROW_STEP * len(sheet_rows) + 1
    base = background(geometry, COLUMNS, grid_rows)
    # crop the ragged hex edges of the map
    crop = pygame.Rect(
        geometry.column_width,
        geometry.side_offset_y,
        (COLUMNS - 1) * TILE_W,
        base.get_height() - 2 * geometry.side_offset_y,
    )
    base = base.subsurface(crop).copy()
    w, h = base.get_size()
    out = pygame.transform.smoothscale(base, (round(w * zoom), round(h * zoom))) if zoom != 1 else base
    font = label_font(15)
    hex_size = min(TILE_W, TILE_H) * zoom
    title = label_font(18).render(f"zoom {zoom:g}", True, settings.STATUS_TEXT)
    _plate(out, title, (8, 6))
    for r, (caption, specs) in enumerate(sheet_rows):
        row = ROW_STEP * r + 2
        x, y = geometry.cell_center(1, row)
        if labels:
            text = font.render(caption, True, settings.STATUS_TEXT)
            _plate(out, text, (round(x - crop.x - 30), round(y - crop.y - 78)))
        for i, spec in enumerate(specs):
            cx, cy = geometry.cell_center(1 + i, row)
            cx, cy = (cx - crop.x) * zoom, (cy - crop.y) * zoom
            layout = token_layout(len(spec.units), hex_size)
            for (kind, side, faction, markers), (dx, dy) in zip(spec.units, layout.offsets, strict=True):
                diameter = layout.diameter if len(spec.units) > 1 else None
                art.draw_token(
                    out, (cx + dx, cy + dy), kind, side, zoom, faction=faction, diameter=diameter, **markers
                )
    return out


def _plate(surface: pygame.Surface, text: pygame.Surface, topleft: tuple[int, int]) -> None:
    """A caption on a parchment plate."""
    plate = pygame.Rect(topleft, (text.get_width() + 12, text.get_height() + 4))
    shade = pygame.Surface(plate.size, pygame.SRCALPHA)
    shade.fill((*settings.STATUS_BG, 225))
    surface.blit(shade, plate)
    pygame.draw.rect(surface, settings.STATUS_BORDER, plate, 1)
    surface.blit(text, (plate.x + 6, plate.y + 2))


def contact_sheet() -> pygame.Surface:
    """Zoom 1 with captions on the left; zoom 0.5 on the right, in colour and below it in greyscale."""
    pygame.font.init()
    art = TokenArt()
    big = panel(art, 1.0, True)
    small = panel(art, 0.5, False)
    grey = pygame.transform.grayscale(small)
    _plate(grey, label_font(18).render("zoom 0.5, greyscale", True, settings.STATUS_TEXT), (8, 6))
    gap = 8
    w = big.get_width() + gap + small.get_width()
    h = max(big.get_height(), small.get_height() * 2 + gap)
    out = pygame.Surface((w, h))
    out.fill(settings.VOID_COLOR)
    out.blit(big, (0, 0))
    out.blit(small, (big.get_width() + gap, 0))
    out.blit(grey, (big.get_width() + gap, small.get_height() + gap))
    return out


def main(argv: Iterable[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: python -m tools.token_sheet OUT.png [--grey GREY.png]")
        return 2
    out_path = Path(args[0])
    grey_path = Path(args[args.index("--grey") + 1]) if "--grey" in args else None
    sheet = contact_sheet()
    out_path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(sheet, str(out_path))
    print(out_path)
    if grey_path is not None:
        pygame.image.save(pygame.transform.grayscale(sheet), str(grey_path))
        print(grey_path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
