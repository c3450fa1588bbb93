"""Headless menu screens: dummy video and audio drivers, settings in a temporary folder per test."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pytest

from game.ui.app import App
from game.ui.prefs import CONFIG_ENV


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "config"
    monkeypatch.setenv(CONFIG_ENV, str(folder))
    return folder


@pytest.fixture
def make_app() -> Iterator[Callable[[tuple[int, int]], App]]:
    apps: list[App] = []

    def make(size: tuple[int, int] = (1280, 720)) -> App:
        app = App(size, "test")
        apps.append(app)
        return app

    yield make
    pygame.display.quit()
