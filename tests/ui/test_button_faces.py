"""What the first frame after a command no longer draws (issue 13): the action bar's button faces, stretched
from one pygame-gui drew (``game.ui.gui.stretch_faces``), and the tracker's cards, painted once for what
each shows (``BattleHud._paint_tracker``). Both must look as pygame-gui's and the old painting did."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame
import pytest
from pygame_gui.core import ObjectID
from pygame_gui.core.drawable_shapes import RoundedRectangleShape

from game.engine.match import Match
from game.tiledmap import load_tiled_map
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.battle_hud import TRACKER_BG, font
from game.ui.demo import demo_command, demo_match
from game.ui.gui import GuiManager, Shell, TipButton, stretch_faces, theme_data
from game.ui.prefs import Prefs
from game.ui.session import BattleSession
from game.ui.tracker_cards import TrackerPainter, side_colour_of
from tests.ui.helpers import step

STATES = ("normal", "hovered", "selected", "active", "disabled")


def _bar_button(
    manager: GuiManager, width: int, height: int, object_id: str | None = "#bar_small"
) -> TipButton:
    return TipButton(
        pygame.Rect(0, 0, width, height),
        "",
        manager=manager,
        object_id=ObjectID(object_id=object_id, class_id="@action"),
    )


def _count_drawn_faces(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The sizes of the faces pygame-gui draws itself from now on (its 4x pictures, ~1 ms a state)."""
    drawn: list[tuple[int, int]] = []
    real = RoundedRectangleShape.clear_and_create_shape_surface

    def counting(self: Any, *args: Any, **kwargs: Any) -> pygame.Surface:
        drawn.append(tuple(self.containing_rect.size))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(RoundedRectangleShape, "clear_and_create_shape_surface", counting)
    return drawn


def _pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGBA")


def _differences(a: bytes, b: bytes) -> list[int]:
    """The largest difference of a channel at each pixel where ``a`` and ``b`` differ."""
    if a == b:
        return []
    return [
        max(abs(x - y) for x, y in zip(a[i : i + 4], b[i : i + 4], strict=True))
        for i in range(0, len(a), 4)
        if a[i : i + 4] != b[i : i + 4]
    ]


@pytest.mark.parametrize("height", [23, 32, 40])
def test_a_stretched_face_is_pygame_guis_own_but_for_a_few_corner_pixels(
    make_app: Callable[..., App], monkeypatch: pytest.MonkeyPatch, height: int
) -> None:
    """Every state at the bar's widths: the face a button gets from the stretched cache against the one
    pygame-gui draws itself in a manager of its own. Wide faces (136 px and more from a wide template) are
    the same pixel for pixel; narrower ones differ in at most 16 antialiased pixels by at most 24 levels
    of 255 (pygame-gui's own drawing of those widths differs a little from the wide ones)."""
    make_app((1280, 720))
    widths = list(range(56, 305, 8))
    stretched = GuiManager((1280, 720), theme_data(1.0))
    assert stretch_faces(_bar_button(stretched, 200, height), widths) > 0
    own = GuiManager((1280, 720), theme_data(1.0))
    drawn = _count_drawn_faces(monkeypatch)
    for width in widths:
        ours, theirs = _bar_button(stretched, width, height), _bar_button(own, width, height)
        for state in STATES:
            before = len(drawn)
            ours.drawable_shape.redraw_state(state, add_text=False)
            assert len(drawn) == before, (width, state)  # from the stretched faces
            theirs.drawable_shape.redraw_state(state, add_text=False)
            differ = _differences(
                _pixels(ours.drawable_shape.states[state].surface),
                _pixels(theirs.drawable_shape.states[state].surface),
            )
            if width >= 136:
                assert not differ, (width, state)
            assert len(differ) <= 16 and max(differ, default=0) <= 24, (width, state, differ)


def test_a_button_of_a_stretched_size_draws_no_face(
    make_app: Callable[..., App], monkeypatch: pytest.MonkeyPatch
) -> None:
    """pygame-gui takes the stretched face from its cache: a new button at a width never drawn makes no
    4x picture (the drawing that cost ~1 ms a state); at a width not stretched it does."""
    make_app((1280, 720))
    manager = GuiManager((1280, 720), theme_data(1.0))
    stretch_faces(_bar_button(manager, 200, 32), [96, 152])
    drawn = _count_drawn_faces(monkeypatch)
    for width in (96, 152):
        button = _bar_button(manager, width, 32)
        button.disable()  # type: ignore[no-untyped-call]
        button.enable()  # type: ignore[no-untyped-call]
    assert not drawn
    _bar_button(manager, 104, 32)
    assert drawn and set(drawn) == {(104, 32)}  # (its frame and its inside)


def test_no_command_of_a_rift_battle_draws_a_bar_face(
    make_app: Callable[..., App], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A battle opened (its foreseen buttons made and their faces stretched), then 60 commands, a frame
    after each: pygame-gui draws no face at any action bar button's size in any of them."""
    app = make_app((1280, 720))
    match = demo_match("rift", seed=11)
    assert match.map_path is not None
    screen = BattleScreen(
        Shell(prefs=Prefs()), BattleSession(match, None), load_tiled_map(match.map_path), app.size
    )
    app.push(screen)
    screen.handover = False
    step(app)
    widgets = screen.widgets
    assert widgets.faces_stretched > 0
    drawn = _count_drawn_faces(monkeypatch)
    shown: set[tuple[int, int]] = set()
    for _ in range(60):
        if match.outcome() is not None:
            break
        screen.send(demo_command(match))
        screen.handover = False
        step(app)
        shown.update(tuple(b.relative_rect.size) for b, _slot in widgets._entries)
    assert len(shown) > 5  # bars of many sizes were shown
    assert not [size for size in drawn if size in shown], drawn
    # frames where nothing moves stretch the other states' faces too: pointing at a button draws nothing
    frames = 0
    while screen.animating() and frames < 600:
        step(app)
        frames += 1
    assert widgets.foresee(3.0) is False  # everything done ahead (a face of each height drawn for it)
    drawn.clear()
    for button, _slot in widgets._spare[:20]:
        button.drawable_shape.redraw_state("hovered")
        button.drawable_shape.redraw_state("selected")
    assert not drawn


def _cards_painted_straight(screen: BattleScreen, kept: pygame.Surface) -> pygame.Surface:
    """``kept`` (the tracker) with every card painted again straight onto it where it is, as the tracker
    was painted before its cards were kept (the ground under each card and its marks first)."""
    hud, match = screen.hud, screen.match
    picture = kept.copy()
    painter = TrackerPainter(font, hud.scale)
    places = dict(hud.cards)
    for e in match.tracker():
        card = places[e.unit]
        picture.fill(TRACKER_BG, pygame.Rect(card.x, card.y, card.width + 2, card.height + 2))
        side = match.identity(e.unit).side
        painter.card(
            picture,
            card,
            e,
            name=match.identity(e.unit).name,
            posse=screen.side_names.get(side, side),
            colour=side_colour_of(match, screen.sides, side),
        )
    return picture


@pytest.mark.parametrize("ruleset", ["frontier", "rift"])
def test_kept_tracker_cards_look_as_painted_afresh(make_app: Callable[..., App], ruleset: str) -> None:
    """The tracker after commands (cards acted, one active, red suits in Frontier) with its cards taken
    from those kept: the same pixels as every card painted straight onto it, and the same texts noted
    for the fit tests. A command repaints only the cards it changed."""
    app = make_app((1280, 720))
    match: Match = demo_match(ruleset, seed=11)
    for _ in range(30):
        match.apply(demo_command(match))
    assert match.map_path is not None
    screen = BattleScreen(
        Shell(prefs=Prefs()), BattleSession(match, None), load_tiled_map(match.map_path), app.size
    )
    app.push(screen)
    screen.handover = False
    for _ in range(8):
        screen.send(demo_command(match))
        screen.handover = False
        step(app)
    hud = screen.hud
    kept = pygame.Surface(screen.layout.tracker.size)
    hud._paint_tracker(kept, kept.get_rect())  # every card from those kept by now
    texts = [d.text for d in hud.drawn]
    assert _pixels(kept) == _pixels(_cards_painted_straight(screen, kept))
    assert texts == [d.text for d in hud.drawn] and texts
    painted = len(hud._card_pictures)
    screen.send(demo_command(match))
    screen.handover = False
    step(app)
    assert len(hud._card_pictures) - painted <= 3  # the cards the command changed, not all of them
    assert len(match.tracker()) > 3


def test_the_hand_over_cover_is_painted_as_before(make_app: Callable[..., App]) -> None:
    """The cover painted straight on the window with its texts kept: stripes every 6 px, the texts in
    their places (the old cover was a window-sized picture with lines drawn on it)."""
    app = make_app((1280, 720))
    match = demo_match("frontier", seed=11)
    assert match.map_path is not None
    screen = BattleScreen(
        Shell(prefs=Prefs()), BattleSession(match, None), load_tiled_map(match.map_path), app.size
    )
    app.push(screen)
    surface = pygame.display.get_surface()
    screen.hud.draw_handover(surface)
    first = _pixels(surface.subsurface(pygame.Rect(0, 0, 1280, 40)))
    old = pygame.Surface((1280, 40))
    old.fill((28, 20, 14))
    for y in range(0, 40, 6):
        pygame.draw.line(old, (36, 26, 18), (0, y), (1280, y))
    assert first == _pixels(old)
    again = surface.copy()
    screen.hud.draw_handover(surface)
    assert _pixels(surface) == _pixels(again)  # the kept texts as rendered the first time


def test_hiding_a_button_not_hovered_posts_nothing(make_app: Callable[..., App]) -> None:
    """A spare bar button put away sends no "unhovered" events for the next frame to carry through every
    widget; a hovered one hidden still leaves its hovered state (its events posted, its face normal)."""
    make_app((1280, 720))
    manager = GuiManager((1280, 720), theme_data(1.0))
    quiet, hovered = _bar_button(manager, 120, 32), _bar_button(manager, 120, 32)
    pygame.event.clear()
    quiet.hide()
    assert not quiet.visible and not pygame.event.get()
    hovered.hovered = True
    hovered.drawable_shape.set_active_state("hovered")
    hovered.hide()
    assert not hovered.visible and not hovered.hovered
    assert hovered.drawable_shape.active_state.state_id == "normal"
    assert len(pygame.event.get()) == 2  # pygame-gui's "unhovered", in its old and new forms
