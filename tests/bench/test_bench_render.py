"""A frame of the map view at 1280x720 with SDL's dummy driver (budget: p95 <= 3 ms)."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
from pytest_benchmark.fixture import BenchmarkFixture

from game.tiledmap import load_tiled_map
from game.ui.scenes import BattleScene

SIZE = (1280, 720)


def test_bench_battle_view_frame_while_panning(benchmark: BenchmarkFixture, big_map_path: Path) -> None:
    """Each frame pans the camera and moves the hover, then draws map, outline and status line."""
    pygame.display.init()
    pygame.font.init()
    try:
        screen = pygame.display.set_mode(SIZE)
        scene = BattleScene(load_tiled_map(big_map_path), SIZE)
        scene.draw(screen)  # the first frame at a zoom level builds that level's cache
        step = {"n": 0}

        def frame() -> None:
            step["n"] += 1
            n = step["n"]
            scene.view.camera.pan_screen(3 if (n // 200) % 2 == 0 else -3, 1 if (n // 100) % 2 == 0 else -1)
            scene.view.set_hover_screen(200 + (n * 7) % 800, 150 + (n * 3) % 400)
            scene.draw(screen)

        benchmark.pedantic(frame, rounds=400, iterations=1, warmup_rounds=20)
        if benchmark.stats is not None:
            data = sorted(benchmark.stats.stats.data)
            benchmark.extra_info["p95_ms"] = round(data[int(len(data) * 0.95) - 1] * 1000, 3)
        assert scene.view.hover is not None
    finally:
        pygame.display.quit()
