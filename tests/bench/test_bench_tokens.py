"""Forty unit tokens with markers, drawn after warm-up (budget: well under 1 ms; nothing asserts a time)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
from pytest_benchmark.fixture import BenchmarkFixture

from game.ui.tokens import StatusBadge, TokenArt, token_layout

SIZE = (1280, 720)
KINDS = [
    "sheriff",
    "deputy",
    "outlaw",
    "gang_leader",
    "dog",
    "rifter.bold",
    "rifter.cunning",
    "outlaw_goon",
    "sharpshooter",
    "gang_boss",
]


def test_bench_forty_tokens(benchmark: BenchmarkFixture) -> None:
    """A battle's worth of tokens: both sides, one acting, one selected, health on all, a few statuses,
    some out of action, and one hex of four."""
    pygame.display.init()
    pygame.font.init()
    try:
        screen = pygame.display.set_mode(SIZE)
        art = TokenArt()
        crowd = token_layout(4, 64)
        tokens = []
        for i in range(40):
            x, y = 80 + (i % 10) * 110, 100 + (i // 10) * 140
            markers: dict[str, object] = {"wounds": (i % 3 + 1, 3)} if i < 20 else {"resolve": (i % 5) / 4}
            if i % 7 == 3:
                markers["statuses"] = (
                    [StatusBadge("P", "Prone", False), StatusBadge("St", "Stunned", False)]
                    if i < 20
                    else [StatusBadge("C", "In Cover", True)]
                )
            if i in (11, 29):
                markers["out"] = True
            if i >= 36:  # four on one hex
                dx, dy = crowd.offsets[i - 36]
                x, y = 1000 + dx, 600 + dy
                markers["diameter"] = crowd.diameter
            tokens.append(((x, y), KINDS[i % len(KINDS)], (i // 5) % 2, markers))
        state = {"t": 0.0}

        def frame() -> None:
            state["t"] += 1 / 60
            for n, (pos, kind, side, markers) in enumerate(tokens):
                art.draw_token(
                    screen, pos, kind, side, 1.0, acting=n == 5, selected=n == 12, time=state["t"], **markers
                )

        for _ in range(90):  # warm-up: every pulse step of the acting ring is cached
            frame()
        benchmark.pedantic(frame, rounds=400, iterations=1, warmup_rounds=20)
        if benchmark.stats is not None:
            data = sorted(benchmark.stats.stats.data)
            benchmark.extra_info["p95_ms"] = round(data[int(len(data) * 0.95) - 1] * 1000, 3)
    finally:
        pygame.display.quit()
