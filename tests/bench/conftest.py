"""Benchmarks (`make bench`). Under `make test` they run once each, untimed (--benchmark-disable)."""

from __future__ import annotations

import os
import random
from pathlib import Path
from xml.etree import ElementTree

import pytest

from game.battlefield import Battlefield
from game.hexgrid import Hex
from game.mapload import load_battlefield

ROOT = Path(__file__).resolve().parents[2]


def largest_shipped_map() -> Path:
    def hexes(path: Path) -> int:
        root = ElementTree.parse(path).getroot()
        return int(root.get("width", "0")) * int(root.get("height", "0"))

    maps = sorted((ROOT / "maps").glob("*.tmx"))
    assert maps, "no shipped maps in maps/"
    return max(maps, key=hexes)


@pytest.fixture(scope="session")
def big_map_path() -> Path:
    return largest_shipped_map()


@pytest.fixture(scope="session")
def big_battlefield(big_map_path: Path) -> Battlefield:
    return load_battlefield(big_map_path)


def passable_hexes(field: Battlefield, count: int, seed: int) -> list[Hex]:
    """``count`` distinct passable hexes picked with a fixed seed (the same every run)."""
    candidates = sorted(h for h in field.hexes if field.is_passable(h))
    return random.Random(seed).sample(candidates, count)


@pytest.fixture(autouse=True)
def _headless_sdl() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
