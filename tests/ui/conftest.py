"""Headless menu screens: dummy video and audio drivers, settings in a temporary folder per test."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pytest

from game.posses import DATA_ENV
from game.ui.app import App
from game.ui.map_thumbs import CACHE_ENV
from game.ui.prefs import CONFIG_ENV


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "config"
    monkeypatch.setenv(CONFIG_ENV, str(folder))
    return folder


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Saves, autosaves and posses in a temporary folder (map pictures cached in another)."""
    folder = tmp_path / "data"
    monkeypatch.setenv(DATA_ENV, str(folder))
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    return folder


@pytest.fixture(autouse=True)
def known_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """New Battle draws a fresh seed for every battle (secrets); in the tests the seeds are known, new
    each time but the same in every run, so a battle a test plays is the same battle every time."""
    from itertools import count

    from game.ui import newbattle

    seeds = count(7001)
    monkeypatch.setattr(newbattle, "new_seed", lambda: next(seeds))


@pytest.fixture
def make_app() -> Iterator[Callable[[tuple[int, int]], App]]:
    apps: list[App] = []

    def make(size: tuple[int, int] = (1280, 720)) -> App:
        app = App(size, "test")
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.close()  # the screens' watchers of map files stop (Scene.closed)
    pygame.display.quit()
