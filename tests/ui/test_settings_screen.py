"""The settings screen, driven by posted mouse and key events only, from the title screen and back."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest
from pygame_gui.elements import UIDropDownMenu, UIHorizontalSlider

from game.ui.app import App
from game.ui.gui import Shell
from game.ui.prefs import ACTIONS, Prefs, load_prefs
from game.ui.settings_screen import CAPTURE_TEXT, UNSAVED_NOTE, SettingsScene, key_label
from game.ui.sound import SoundBank
from game.ui.title import TitleScene
from tests.ui.helpers import click, make_shell, move, post, press, step, title_with_settings


def open_settings(app: App, shell: Shell) -> tuple[TitleScene, SettingsScene]:
    title = title_with_settings(app, shell)
    step(app)
    click(app, title.buttons["settings"].rect.center)
    scene = app.top
    assert isinstance(scene, SettingsScene)
    return title, scene


def drag_slider(app: App, slider: UIHorizontalSlider, to_x: int) -> None:
    assert slider.sliding_button is not None
    start = slider.sliding_button.rect.center
    move(start)
    post(pygame.MOUSEBUTTONDOWN, pos=start, button=1)
    step(app)
    move((to_x, start[1]))
    step(app, 2)
    post(pygame.MOUSEBUTTONUP, pos=(to_x, start[1]), button=1)
    step(app, 2)


def choose(app: App, dropdown: UIDropDownMenu, label: str) -> None:
    click(app, dropdown.rect.center)
    options = dropdown.current_state.options_selection_list  # type: ignore[union-attr]
    item = next(i for i in options.item_list if i["text"] == label)
    click(app, item["button_element"].rect.center, frames=4)
    assert dropdown.selected_option[0] == label


def test_title_settings_volume_rebind_save_back_quit(
    make_app: Callable[[tuple[int, int]], App], config_dir: Path
) -> None:
    app = make_app((1280, 720))
    sounds = SoundBank(open_mixer=False)
    shell = make_shell(app, sounds=sounds)
    title, scene = open_settings(app, shell)

    slider = scene.widgets["volume"]
    drag_slider(app, slider, slider.rect.x + slider.rect.width // 4)
    assert 0.1 < scene.draft.volume < 0.4
    assert scene.widgets["volume_value"].text == f"{round(scene.draft.volume * 100)}%"

    click(app, scene.key_buttons["end_turn"].rect.center)
    assert scene.capturing == "end_turn"
    assert scene.key_buttons["end_turn"].text == CAPTURE_TEXT
    press(app, pygame.K_e)
    assert scene.capturing is None
    assert scene.key_buttons["end_turn"].text == "E"

    click(app, scene.widgets["save"].rect.center)
    saved = json.loads((config_dir / "settings.json").read_text())
    assert saved["key_bindings"]["end_turn"] == "e"
    assert saved["volume"] == pytest.approx(scene.draft.volume)
    assert shell.prefs.volume == pytest.approx(scene.draft.volume)
    assert sounds.volume == pytest.approx(scene.draft.volume)  # applied at once
    assert "Saved to" in scene.note

    click(app, scene.widgets["back"].rect.center)
    assert app.top is title
    click(app, title.buttons["quit"].rect.center)
    assert not app.running
    assert app.exit_code == 0
    assert load_prefs().prefs.key_bindings["end_turn"] == "e"


def test_escape_cancels_a_rebind_and_then_leaves(make_app: Callable[[tuple[int, int]], App]) -> None:
    app = make_app((1280, 720))
    title, scene = open_settings(app, make_shell(app))
    click(app, scene.key_buttons["undo"].rect.center)
    assert scene.capturing == "undo"
    press(app, pygame.K_ESCAPE)
    assert scene.capturing is None
    assert scene.draft.key_bindings["undo"] == "u"
    assert scene.key_buttons["undo"].text == "U"
    assert app.top is scene  # Esc only cancelled the rebind
    press(app, pygame.K_ESCAPE)
    assert app.top is title


def test_clicking_elsewhere_gives_up_a_rebind(make_app: Callable[[tuple[int, int]], App]) -> None:
    app = make_app((1280, 720))
    _title, scene = open_settings(app, make_shell(app))
    click(app, scene.key_buttons["undo"].rect.center)
    assert scene.capturing == "undo"
    click(app, scene.key_buttons["help"].rect.center)  # another binding: that one listens now
    assert scene.capturing == "help"
    assert scene.key_buttons["undo"].text == "U"
    click(app, scene.widgets["fullscreen"].rect.center)
    assert scene.capturing is None
    assert scene.key_buttons["help"].text == "F1"


def test_ctrl_enter_saves(make_app: Callable[[tuple[int, int]], App], config_dir: Path) -> None:
    app = make_app((1280, 720))
    _title, scene = open_settings(app, make_shell(app))
    click(app, scene.widgets["muted"].rect.center)
    press(app, pygame.K_RETURN)  # plain Enter does nothing here
    assert not (config_dir / "settings.json").exists()
    press(app, pygame.K_RETURN, mod=pygame.KMOD_LCTRL)
    assert load_prefs().prefs.muted


def test_rebinding_to_a_taken_key_swaps_and_says_so(make_app: Callable[[tuple[int, int]], App]) -> None:
    app = make_app((1280, 720))
    _title, scene = open_settings(app, make_shell(app))
    click(app, scene.key_buttons["undo"].rect.center)
    press(app, pygame.K_a)
    assert scene.draft.key_bindings["undo"] == "a"
    assert scene.draft.key_bindings["pan_left"] == "u"
    assert scene.key_buttons["pan_left"].text == "U"
    assert "Pan left" in scene.note and "moved to U" in scene.note
    values = [v for v in scene.draft.key_bindings.values() if v]
    assert len(values) == len(set(values))


def test_back_with_unsaved_changes_asks_first(
    make_app: Callable[[tuple[int, int]], App], config_dir: Path
) -> None:
    app = make_app((1280, 720))
    shell = make_shell(app)
    title, scene = open_settings(app, shell)
    click(app, scene.widgets["muted"].rect.center)
    assert scene.draft.muted
    click(app, scene.widgets["back"].rect.center)
    assert app.top is scene
    assert scene.note == UNSAVED_NOTE
    click(app, scene.widgets["back"].rect.center)
    assert app.top is title
    assert not shell.prefs.muted
    assert not (config_dir / "settings.json").exists()


def test_mute_toggle_is_saved_and_applied(make_app: Callable[[tuple[int, int]], App]) -> None:
    app = make_app((1280, 720))
    sounds = SoundBank(open_mixer=False)
    shell = make_shell(app, sounds=sounds)
    _title, scene = open_settings(app, shell)
    toggle = scene.widgets["muted"]
    assert toggle.text == "On"
    click(app, toggle.rect.center)
    assert toggle.text == "Muted"
    click(app, scene.widgets["save"].rect.center)
    assert sounds.muted and sounds.effective_volume == 0.0
    assert load_prefs().prefs.muted


def test_window_size_is_applied_and_every_screen_relaid_out(
    make_app: Callable[[tuple[int, int]], App],
) -> None:
    app = make_app((1280, 720))
    title, scene = open_settings(app, make_shell(app))
    choose(app, scene.widgets["window_size"], "800 \u00d7 600")
    click(app, scene.widgets["save"].rect.center, frames=3)
    assert app.screen.get_size() == (800, 600)
    assert scene.size == title.size == (800, 600)
    window = pygame.Rect(0, 0, 800, 600)
    assert window.contains(scene.widgets["save"].rect)
    assert load_prefs().prefs.window_size == (800, 600)
    click(app, scene.widgets["back"].rect.center)
    assert app.top is title
    assert all(window.contains(b.rect) for b in title.buttons.values())


def test_fullscreen_is_applied(make_app: Callable[[tuple[int, int]], App]) -> None:
    app = make_app((1280, 720))
    _title, scene = open_settings(app, make_shell(app))
    click(app, scene.widgets["fullscreen"].rect.center)
    click(app, scene.widgets["save"].rect.center, frames=3)
    surface = pygame.display.get_surface()
    assert surface is not None and surface.get_flags() & pygame.FULLSCREEN
    assert scene.size == surface.get_size()
    click(app, scene.widgets["fullscreen"].rect.center)
    click(app, scene.widgets["save"].rect.center, frames=3)
    surface = pygame.display.get_surface()
    assert surface is not None and not surface.get_flags() & pygame.FULLSCREEN
    assert surface.get_size() == (1280, 720)


def test_ui_scale_rebuilds_the_screen_bigger(make_app: Callable[[tuple[int, int]], App]) -> None:
    app = make_app((1920, 1080))
    _title, scene = open_settings(app, make_shell(app))
    before = scene.widgets["save"].rect.size
    choose(app, scene.widgets["ui_scale"], "150%")
    click(app, scene.widgets["save"].rect.center, frames=3)
    assert scene.scale == 1.5
    after = scene.widgets["save"].rect.size
    assert after[0] > before[0] and after[1] > before[1]
    assert pygame.Rect(0, 0, 1920, 1080).contains(scene.widgets["save"].rect)
    assert "Saved to" in scene.note  # the note survives the rebuild


def test_animation_speed_choice_is_saved(make_app: Callable[[tuple[int, int]], App]) -> None:
    app = make_app((1280, 720))
    _title, scene = open_settings(app, make_shell(app))
    choose(app, scene.widgets["animation_speed"], "Fast (2\u00d7)")
    click(app, scene.widgets["save"].rect.center)
    assert load_prefs().prefs.animation_speed == 2.0


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_everything_fits_in_the_panel(
    make_app: Callable[[tuple[int, int]], App], size: tuple[int, int]
) -> None:
    app = make_app(size)
    _title, scene = open_settings(app, make_shell(app))
    assert scene.panel is not None
    panel = scene.panel.rect
    assert pygame.Rect((0, 0), size).contains(panel)
    for name, widget in scene.widgets.items():
        assert panel.contains(widget.rect), name
    controls = [w.rect for n, w in scene.widgets.items() if n not in ("note", "where", "volume_value")]
    for i, a in enumerate(controls):
        for b in controls[i + 1 :]:
            assert not a.colliderect(b)


def test_a_binding_below_the_fold_is_reached_by_scrolling(make_app: Callable[[tuple[int, int]], App]) -> None:
    app = make_app((800, 600))
    _title, scene = open_settings(app, make_shell(app))
    assert scene.key_list is not None
    visible = scene.key_list.rect
    last = scene.key_buttons["zoom_reset"]
    assert not visible.contains(last.rect)  # 12 bindings do not fit at 800x600
    move(visible.center)
    step(app)
    for _ in range(6):
        post(pygame.MOUSEWHEEL, x=0, y=-1, precise_x=0.0, precise_y=-1.0, flipped=False)
        step(app)
    assert visible.contains(last.rect)
    click(app, last.rect.center)
    assert scene.capturing == "zoom_reset"
    press(app, pygame.K_BACKSPACE)
    assert scene.draft.key_bindings["zoom_reset"] == "backspace"
    assert last.text == "Backspace"


def test_clicking_the_volume_bar_jumps_there(make_app: Callable[[tuple[int, int]], App]) -> None:
    app = make_app((1280, 720))
    _title, scene = open_settings(app, make_shell(app))
    slider = scene.widgets["volume"]
    click(app, (slider.rect.left + 4, slider.rect.centery))
    assert scene.draft.volume == 0.0
    assert scene.widgets["volume_value"].text == "0%"


def test_defaults_restores_every_setting(make_app: Callable[[tuple[int, int]], App]) -> None:
    app = make_app((1280, 720))
    shell = make_shell(
        app, prefs=Prefs(volume=0.2, muted=True, key_bindings={**Prefs().key_bindings, "undo": "z"})
    )
    _title, scene = open_settings(app, shell)
    assert scene.key_buttons["undo"].text == "Z"
    click(app, scene.widgets["defaults"].rect.center)
    assert scene.draft == Prefs()
    assert scene.key_buttons["undo"].text == "U"
    assert scene.widgets["muted"].text == "On"
    assert shell.prefs.muted  # not saved yet


def test_try_a_sound_previews_at_the_draft_volume(make_app: Callable[[tuple[int, int]], App]) -> None:
    app = make_app((1280, 720))
    sounds = SoundBank(0.8, False, open_mixer=True)
    if not sounds.available:
        pytest.skip("no mixer, even with the dummy audio driver")
    try:
        _title, scene = open_settings(app, make_shell(app, sounds=sounds))
        slider = scene.widgets["volume"]
        click(app, (slider.rect.left + slider.rect.width // 2, slider.rect.centery))
        click(app, scene.widgets["try_gunshot"].rect.center)
        assert sounds.last_channel is not None
        assert sounds.last_channel.get_volume() == pytest.approx(scene.draft.volume, abs=0.03)
        assert sounds.volume == 0.8  # the saved volume is unchanged until Save
    finally:
        sounds.close()


def test_key_labels() -> None:
    assert key_label("return") == "Return"
    assert key_label("f1") == "F1"
    assert key_label("a") == "A"
    assert key_label("=") == "="
    assert key_label("left shift") == "Left Shift"
    assert key_label("") == "\u2014"
    assert all(key_label(k) for k in Prefs().key_bindings.values())
    assert len(ACTIONS) == 12
