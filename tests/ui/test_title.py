"""The title screen, driven by posted mouse and key events: buttons, tooltips, callbacks, re-layout."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pygame
import pytest

from game.ui.app import App
from game.ui.scenes import Push, Scene
from game.ui.title import NO_AUTOSAVE_TIP, NOT_YET_TIP, TitleScene
from tests.ui.helpers import click, make_shell, move, press, step, title_with_settings

MENU = ("new_battle", "continue", "load", "settings", "quit")


class Marker(Scene):
    """Stands in for a screen the title opens."""

    def __init__(self, name: str) -> None:
        self.name = name


def test_the_menu_has_the_five_buttons_in_order(make_app: Callable[[tuple[int, int]], App]) -> None:
    app = make_app((1280, 720))
    title = title_with_settings(app, make_shell(app))
    step(app)
    assert list(title.buttons) == list(MENU)
    assert [b.text for b in title.buttons.values()] == ["New Battle", "Continue", "Load", "Settings", "Quit"]
    tops = [b.rect.top for b in title.buttons.values()]
    assert tops == sorted(tops)


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_the_layout_fits_and_follows_the_window(
    make_app: Callable[[tuple[int, int]], App], size: tuple[int, int]
) -> None:
    app = make_app((1280, 720))
    title = title_with_settings(app, make_shell(app))
    step(app)
    app.set_display(size)  # what a window resize does
    step(app)
    window = pygame.Rect((0, 0), size)
    rects = [b.rect for b in title.buttons.values()]
    for rect in rects:
        assert window.contains(rect)
        assert abs(rect.centerx - size[0] // 2) <= 1  # centred
    for upper, lower in itertools.pairwise(rects):
        assert upper.bottom < lower.top
    assert app.screen.get_size() == size
    # the title art is drawn above the menu: the backdrop was redrawn for the new size
    assert title._backdrop is not None and title._backdrop.get_size() == size


def test_new_battle_runs_the_callers_callable(make_app: Callable[[tuple[int, int]], App]) -> None:
    app = make_app((1280, 720))
    opened: list[str] = []

    def new_battle() -> Push:
        opened.append("new")
        return Push(Marker("new battle"))

    title = title_with_settings(app, make_shell(app), on_new_battle=new_battle)
    step(app)
    click(app, title.buttons["new_battle"].rect.center)
    assert opened == ["new"]
    assert isinstance(app.top, Marker) and app.top.name == "new battle"


def test_continue_is_disabled_without_an_autosave_and_says_why(
    make_app: Callable[[tuple[int, int]], App],
) -> None:
    app = make_app((1280, 720))
    opened: list[str] = []
    title = title_with_settings(
        app, make_shell(app), on_continue=lambda: opened.append("continue"), has_autosave=False
    )
    step(app)
    button = title.buttons["continue"]
    assert not button.is_enabled
    click(app, button.rect.center)
    assert opened == []
    assert app.top is title
    # hovering it shows the reason
    move(button.rect.center)
    step(app, 40)
    assert button.tool_tip is not None
    assert button.tool_tip_text == NO_AUTOSAVE_TIP
    assert "after every move" in NO_AUTOSAVE_TIP  # the session saves after every command, not per turn
    assert button.tool_tip.visible


def test_continue_with_an_autosave_opens_it(make_app: Callable[[tuple[int, int]], App]) -> None:
    app = make_app((1280, 720))
    title = title_with_settings(
        app, make_shell(app), on_continue=lambda: Push(Marker("continued")), has_autosave=lambda: True
    )
    step(app)
    assert title.buttons["continue"].is_enabled
    click(app, title.buttons["continue"].rect.center)
    assert isinstance(app.top, Marker) and app.top.name == "continued"


def test_screens_not_plugged_in_yet_are_disabled_with_a_tooltip(
    make_app: Callable[[tuple[int, int]], App],
) -> None:
    app = make_app((1280, 720))
    title = title_with_settings(app, make_shell(app))
    step(app)
    assert not title.buttons["new_battle"].is_enabled
    assert not title.buttons["load"].is_enabled
    assert title.buttons["load"].tool_tip_text == NOT_YET_TIP
    assert title.buttons["settings"].is_enabled and title.buttons["quit"].is_enabled


def test_hovering_a_button_lights_it(make_app: Callable[[tuple[int, int]], App]) -> None:
    app = make_app((1280, 720))
    title = title_with_settings(app, make_shell(app))
    step(app)
    button = title.buttons["settings"]
    spot = (button.rect.x + 12, button.rect.centery)
    before = app.screen.get_at(spot)
    move(button.rect.center)
    step(app, 3)
    assert button.hovered
    after = app.screen.get_at(spot)
    assert after != before
    assert after.r > after.g + 20  # the hover colour is a redder brown than the plain wood


def test_quit_closes_the_app_with_status_0(make_app: Callable[[tuple[int, int]], App]) -> None:
    app = make_app((1280, 720))
    title = title_with_settings(app, make_shell(app))
    step(app)
    click(app, title.buttons["quit"].rect.center)
    assert not app.running
    assert app.exit_code == 0


def test_escape_on_the_title_quits(make_app: Callable[[tuple[int, int]], App]) -> None:
    app = make_app((800, 600))
    title_with_settings(app, make_shell(app))
    step(app)
    press(app, pygame.K_ESCAPE)
    assert not app.running and app.exit_code == 0


def test_a_settings_file_problem_is_shown_once(make_app: Callable[[tuple[int, int]], App]) -> None:
    app = make_app((800, 600))
    shell = make_shell(app)
    shell.notice = "The settings file could not be used as it was: it is not valid JSON."
    title = TitleScene(shell)
    app.push(title)
    step(app)
    bottom_row = [app.screen.get_at((x, 598))[:3] for x in range(0, 800, 50)]
    assert all(c[0] < 60 for c in bottom_row)  # the dark notice strip along the bottom
    assert shell.notice is None
    assert title.buttons["quit"].rect.bottom < 600 - 20
