"""Issue 13, "a downed unit (seriously injured / overcome) looks clearly different from one out of action at
default zoom": the rulesets say which units are down (``UnitView.downed``), the board draws them so, and
the two pictures differ in colour and in shape."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame
import pytest

from game.engine.match import Match
from game.tiledmap import load_tiled_map
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.demo import demo_command, demo_match
from game.ui.gui import Shell
from game.ui.prefs import Prefs
from game.ui.session import BattleSession
from game.ui.tokens import TokenArt, side_color
from tests.ui.helpers import step


def _until(match: Match, wanted: Callable[[Match], bool], steps: int = 600) -> bool:
    for _ in range(steps):
        if wanted(match):
            return True
        if match.outcome() is not None:
            return False
        match.apply(demo_command(match))
    return wanted(match)


def _downed(match: Match) -> list[int]:
    return [u for u in match.units(in_play=False) if match.unit_view(u).downed]


@pytest.mark.parametrize("ruleset", ["frontier", "rift", "golden"])
def test_every_ruleset_says_which_units_are_down_not_out(ruleset: str) -> None:
    match = demo_match(ruleset, seed=2)
    assert _until(match, lambda m: bool(_downed(m)))
    for u in match.units(in_play=False):
        v = match.unit_view(u)
        if v.downed:
            assert v.out, "a downed unit is out of the fight"
            assert match.position(u) is not None, "and still lies on the board"


def _chroma(surface: pygame.Surface) -> float:
    """The mean colourfulness (max - min of r, g, b) of the opaque pixels."""
    total, count = 0, 0
    w, h = surface.get_size()
    for x in range(0, w, 2):
        for y in range(0, h, 2):
            r, g, b, a = surface.get_at((x, y))
            if a > 200:
                total += max(r, g, b) - min(r, g, b)
                count += 1
    return total / max(1, count)


def test_down_and_out_tokens_differ_in_colour_and_shape() -> None:
    pygame.display.init()
    art = TokenArt.shared()
    d = art.zoom1_diameter  # the default zoom's size
    colour = side_color(1)
    normal = art.token_surface("deputy", 1, colour, d)
    down = art.token_surface("deputy", 1, colour, d, downed=True)
    out = art.token_surface("deputy", 1, colour, d, out=True)
    assert _chroma(down) > 0.6 * _chroma(normal)  # its side's colours kept
    assert _chroma(out) < 0.45 * _chroma(normal)  # greyed (but for its red X)
    assert _chroma(down) > 1.5 * _chroma(out)
    # lying on its side: the portrait turned a quarter, so the picture differs from the standing one
    same = pygame.Surface(normal.get_size(), pygame.SRCALPHA)
    same.blit(down, (0, 0))
    diff = sum(
        1
        for x in range(0, normal.get_width(), 2)
        for y in range(0, normal.get_height(), 2)
        if sum(abs(p - q) for p, q in zip(normal.get_at((x, y))[:3], same.get_at((x, y))[:3], strict=True))
        > 90
    )
    assert diff > normal.get_width() * normal.get_height() / 4 / 10


def test_the_board_draws_downed_units_down_and_out_units_out(make_app: Callable[..., App]) -> None:
    match = demo_match("frontier", seed=2)
    fled = lambda m: any(m.unit_view(u).out and not m.unit_view(u).downed for u in m.units(in_play=False))  # noqa: E731
    assert _until(match, lambda m: bool(_downed(m)) and fled(m))
    assert match.map_path is not None
    app = make_app((1280, 720))
    screen = BattleScreen(
        Shell(prefs=Prefs()), BattleSession(match, None), load_tiled_map(match.map_path), app.size
    )
    app.push(screen)
    screen.handover = False
    drawn: list[dict[str, Any]] = []
    real = screen.board.tokens.draw_token

    def spy(*args: Any, **kwargs: Any) -> pygame.Rect:
        drawn.append({"at": args[1], **kwargs})
        return real(*args, **kwargs)

    screen.board.tokens.draw_token = spy  # type: ignore[method-assign]
    cam = screen.view.camera
    cam.zoom = 1.0
    for u in match.units(in_play=False):
        v = match.unit_view(u)
        if not v.out:
            continue
        where = match.position(u)
        assert where is not None
        cam.center_x, cam.center_y = screen.tmap.geometry.hex_center(where)
        cam.clamp()
        drawn.clear()
        step(app)
        spot = screen.overlay.center(where)
        mine = [k for k in drawn if abs(k["at"][0] - spot[0]) < 60 and abs(k["at"][1] - spot[1]) < 60]
        assert mine
        if v.downed:
            assert any(k["downed"] and not k["out"] for k in mine), v.name
        else:
            assert any(k["out"] and not k["downed"] for k in mine), v.name
