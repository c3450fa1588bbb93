"""Issue 13, "No sound device: the game says so once in Settings (and greys "Try a sound") instead of
playing nothing": the mixer's opening is made to fail, and the settings screen is read and clicked."""

from __future__ import annotations

from collections.abc import Callable

import pygame
import pytest

from game.ui.app import App
from game.ui.prefs import Prefs
from game.ui.sound import SoundBank
from tests.ui.helpers import click, make_shell, step
from tests.ui.test_settings_screen import open_settings


def _no_device(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", refuse)


def test_a_mixer_that_cannot_open_says_why() -> None:
    bank = SoundBank(open_mixer=False)
    assert bank.problem  # never opened: it says so
    assert not bank.available


@pytest.mark.parametrize("size", [(1280, 720), (1280, 800)])
@pytest.mark.parametrize("ui_scale", [1.0, 1.25, 1.5])
def test_settings_say_there_is_no_sound_once_and_grey_the_tries(
    make_app: Callable[[tuple[int, int]], App],
    monkeypatch: pytest.MonkeyPatch,
    ui_scale: float,
    size: tuple[int, int],
) -> None:
    _no_device(monkeypatch)
    sounds = SoundBank(0.8, False, open_mixer=True)
    assert not sounds.available
    assert "No available audio device" in sounds.problem
    app = make_app(size)
    _title, scene = open_settings(app, make_shell(app, Prefs(ui_scale=ui_scale), sounds=sounds))
    step(app, 2)
    # said once: in the fine print under the sound rows, or where there is no room there, the note row
    where = scene.widgets.get("where")
    said = (where.html_text if where is not None else "") + scene.widgets["note"].text
    assert said.count("No sound") == 1
    assert "no sound device could be opened" in said or "Try a sound says why" in said
    if where is not None:
        assert where.scroll_bar is None  # all of it shown
        for other in ("note", "defaults", "save", "back", "try_dice"):
            assert not where.get_abs_rect().colliderect(scene.widgets[other].get_abs_rect()), other
    note = scene.widgets["note"]
    assert note.font.size(note.text)[0] <= note.rect.width  # the note row's line is whole
    for name in ("try_gunshot", "try_dice"):
        button = scene.widgets[name]
        assert not button.is_enabled
        assert "No sound" in button.tool_tip_text and "No available audio device" in button.tool_tip_text
        click(app, button.rect.center)
        assert sounds.last_channel is None
    step(app, 2)
    assert app.top is scene  # no dialog, no repeat: the one line in the settings is all


def test_with_a_sound_device_nothing_is_said(
    make_app: Callable[[tuple[int, int]], App],
) -> None:
    sounds = SoundBank(0.8, False, open_mixer=True)
    if not sounds.available:
        pytest.skip("no mixer, even with the dummy audio driver")
    try:
        app = make_app((1280, 720))
        _title, scene = open_settings(app, make_shell(app, sounds=sounds))
        assert "No sound" not in scene.widgets["where"].html_text + scene.widgets["note"].text
        assert scene.widgets["try_gunshot"].is_enabled
    finally:
        sounds.close()
