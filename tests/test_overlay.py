"""Overlay marks (game/ui/overlay.py) read without colour: dots per movement point, a crosshair ring,
hatching for a blast, a cross on blocked sight."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

from game.hexgrid import Hex, StaggerAxis, StaggerIndex, TiledHexGeometry
from game.ui.camera import Camera
from game.ui.overlay import Overlay, Palette


def _overlay() -> tuple[Overlay, pygame.Surface]:
    pygame.font.init()
    geo = TiledHexGeometry.create(64, 74, 36, StaggerAxis.Y, StaggerIndex.ODD)
    cam = Camera(center_x=300, center_y=200, zoom=1.0, view_w=600, view_h=400, bounds=(0, 0, 2000, 2000))
    surface = pygame.Surface((600, 400))
    surface.fill((0, 0, 0))
    return Overlay(geo, cam), surface


def _count(surface: pygame.Surface, color: tuple[int, int, int]) -> int:
    w, h = surface.get_size()
    return sum(1 for x in range(0, w, 1) for y in range(0, h, 2) if surface.get_at((x, y))[:3] == color)


def test_reachable_tiles_carry_one_dot_per_movement_point() -> None:
    ov, one = _overlay()
    _, two = _overlay()
    h = Hex(4, 3)
    ov.reachable(one, {h: 1})
    ov.reachable(two, {h: 2})
    dots_one, dots_two = _count(one, Palette.REACH_DOT), _count(two, Palette.REACH_DOT)
    assert dots_one > 0 and 1.6 < dots_two / dots_one < 2.4


def test_target_is_a_ring_with_ticks_around_the_hex_centre() -> None:
    ov, surface = _overlay()
    h = Hex(4, 3)
    ov.target(surface, h)
    cx, cy = ov.center(h)
    assert surface.get_at((cx, cy))[:3] == (0, 0, 0)  # a ring: the middle stays clear
    assert _count(surface, Palette.TARGET) > 50


def test_blocked_sight_draws_a_cross_and_clear_sight_with_cover_a_shield() -> None:
    ov, blocked = _overlay()
    _, clear = _overlay()
    a, b = Hex(1, 3), Hex(6, 3)
    ov.sight(blocked, a, b, clear=False, cover=False)
    ov.sight(clear, a, b, clear=True, cover=True)
    assert _count(blocked, Palette.LOS_BLOCKED) > 0 and _count(blocked, Palette.COVER) == 0
    assert _count(clear, Palette.COVER) > 0 and _count(clear, Palette.LOS_BLOCKED) == 0


def test_blast_tiles_are_hatched_not_only_tinted() -> None:
    ov, surface = _overlay()
    ov.blast(surface, [Hex(4, 3)])
    cx, cy = ov.center(Hex(4, 3))
    colours = {surface.get_at((x, y))[:3] for x in range(cx - 20, cx + 20) for y in range(cy - 20, cy + 20)}
    lightness = sorted(sum(c) for c in colours)
    assert len(colours) >= 3 and lightness[-1] - lightness[0] > 300  # tint and two-tone hatch strokes
