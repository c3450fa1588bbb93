"""Issue 13, "Modal hygiene: no tooltip stays after its dialog closes (New Battle "Edit...", Save, the replay
message); panels are never blank behind a dialog after a UI-scale change; the AI seat's tooltip does not
cover the Edit... button; the posse list does not show the same posse twice" — by posted events."""

from __future__ import annotations

import json
from collections.abc import Callable

import pygame
import pytest
from pygame_gui.elements import UITooltip

from game.ui.app import App
from game.ui.dialogs import MessageDialog, NameDialog
from game.ui.gui import GuiScene
from game.ui.load_screen import LoadScene
from game.ui.newbattle import NewBattleScene
from game.ui.settings_screen import SettingsScene, scale_label
from tests.ui.flow_kit import names, play_some, start_battle, title_app
from tests.ui.helpers import click, move, press, step
from tests.ui.test_newbattle import open_new_battle, pick_option
from tests.ui.test_pause import load_named, open_pause, save_as

AppMaker = Callable[[tuple[int, int]], App]


def tooltips(scene: GuiScene) -> list[UITooltip]:
    assert scene.manager is not None
    return [s for s in scene.manager.get_sprite_group().sprites() if isinstance(s, UITooltip) and s.alive()]


def hover(app: App, rect: pygame.Rect, seconds: float = 1.0) -> None:
    """Rest the pointer on ``rect`` long enough for its tooltip."""
    move(rect.center)
    step(app, round(seconds * 60), 1 / 60)


def test_the_edit_buttons_tooltip_does_not_come_back_when_the_builder_closes(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    screen = open_new_battle(app)
    edit = screen.buttons["edit_0"].rect
    hover(app, edit)
    assert tooltips(screen), "the tooltip is up before the click"
    click(app, edit.center, frames=3)
    assert type(app.top).__name__ == "PosseScreen"
    assert not tooltips(screen)  # taken down as the builder opened
    press(app, pygame.K_ESCAPE, frames=3)
    assert app.top is screen
    step(app, 90, 1 / 60)  # the pointer still where it clicked, a second and a half
    assert not tooltips(screen)
    hover(app, screen.buttons["roll"].rect)  # the pointer moves on: tooltips as usual
    assert tooltips(screen)


def test_the_save_buttons_tooltip_is_gone_while_and_after_its_dialog(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    _title, flow = title_app(app)
    battle = start_battle(app, flow)
    menu = open_pause(app, battle)
    hover(app, menu.buttons["save"].rect)
    had = bool(tooltips(menu))
    click(app, menu.buttons["save"].rect.center)
    assert isinstance(app.top, NameDialog), names(app)
    step(app, 60, 1 / 60)
    assert not tooltips(menu) and not tooltips(battle)  # nothing of the screens below over the dialog
    press(app, pygame.K_ESCAPE, frames=2)
    assert app.top is menu
    step(app, 90, 1 / 60)
    assert not tooltips(menu)
    assert had or menu.buttons["save"].tool_tip_text is None


def test_the_replay_messages_tooltip_does_not_stay(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    _title, flow = title_app(app)
    battle = start_battle(app, flow)
    play_some(battle, "rift", 10)
    menu = open_pause(app, battle)
    save_as(app, menu, "tampered")
    path = flow.saves_dir / "tampered.json"
    doc = json.loads(path.read_text())
    doc["digest"] = "0" * 64
    path.write_text(json.dumps(doc))
    click(app, menu.buttons["load"].rect.center)
    screen = app.top
    assert isinstance(screen, LoadScene)
    index = next(i for i, e in enumerate(screen.entries) if e.name == "tampered" and not e.autosave)
    assert screen.rows is not None
    click(app, screen.rows.row_rect(index).center)
    hover(app, screen.buttons["load"].rect)
    assert tooltips(screen)
    load_named(app, screen, "tampered")
    assert isinstance(app.top, MessageDialog)
    step(app, 30, 1 / 60)
    assert not tooltips(screen)
    press(app, pygame.K_ESCAPE)
    assert app.top is screen
    step(app, 90, 1 / 60)
    assert not tooltips(screen)


def _dark_pixels(surface: pygame.Surface, rect: pygame.Rect) -> int:
    count = 0
    for x in range(rect.left, rect.right, 2):
        for y in range(rect.top, rect.bottom, 2):
            r, g, b, _a = surface.get_at((x, y))
            if r + g + b < 240:
                count += 1
    return count


@pytest.mark.parametrize("scale", [1.5, 1.25])
def test_the_battles_panels_stay_filled_behind_the_menu_after_a_ui_scale_change(
    make_app: AppMaker, scale: float
) -> None:
    app = make_app((1280, 720))
    _title, flow = title_app(app)
    battle = start_battle(app, flow)
    step(app, 3)
    menu = open_pause(app, battle)
    click(app, menu.buttons["settings"].rect.center)
    settings = app.top
    assert isinstance(settings, SettingsScene)
    pick_option(app, settings.widgets["ui_scale"], scale_label(scale))
    click(app, settings.widgets["save"].rect.center, frames=2)
    click(app, app.top.widgets["back"].rect.center, frames=3)  # type: ignore[attr-defined]
    assert app.top is menu, names(app)
    step(app, 3)
    assert battle.scale != 1.0  # rebuilt at the new scale, under the menu
    assert battle.widgets.unit_html  # the unit panel has its text (drawn as a picture: RichText) ...
    assert battle.widgets.unit_image is not None and battle.widgets.unit_image.visible
    panel = battle.layout.panel
    shown = pygame.Rect(panel.x + 20, panel.y + 20, panel.width - 40, 120)
    assert _dark_pixels(app.screen, shown) > 100  # and drawn: words on the parchment, not a blank


@pytest.mark.parametrize("size", [(1280, 720), (1280, 800)])
def test_an_ai_seats_tooltip_leaves_the_edit_buttons_clear(make_app: AppMaker, size: tuple[int, int]) -> None:
    app = make_app(size)
    screen = open_new_battle(app)
    seats = [k for k in screen.buttons if k.startswith("seat_") and "_ai_" in k]
    assert seats
    for key in seats:
        hover(app, screen.buttons[key].rect)
        tips = tooltips(screen)
        assert tips, key
        edits = [b.rect for k, b in screen.buttons.items() if k.startswith("edit_")]
        for tip in tips:
            assert not any(tip.rect.colliderect(e) for e in edits), (key, tip.rect)
            assert not tip.rect.colliderect(screen.buttons[key].rect)  # nor its own button
        move((4, 4))
        step(app, 5)


def test_a_posse_back_from_the_builder_unchanged_is_listed_once(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    screen = open_new_battle(app)
    before = screen.side_options(0)
    click(app, screen.buttons["edit_0"].rect.center, frames=3)
    builder = app.top
    assert type(builder).__name__ == "PosseScreen"
    click(app, builder.widgets["done"].rect.center, frames=3)  # type: ignore[attr-defined]
    assert isinstance(app.top, NewBattleScene)
    options = screen.side_options(0)
    assert len(options) == len(set(options)) and options == before
    assert screen.dropdowns[0].selected_option[1] == before[0]
