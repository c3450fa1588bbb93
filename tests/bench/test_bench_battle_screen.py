"""The battle screen's frame during a battle on the largest shipped map (issue 5: "Frame-time benchmark
of the battle screen during a battle"): tokens, a move being aimed (reachable tiles, the path under the
mouse), tracker, panels and log, at 1280x720 with SDL's dummy driver."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path

import pygame
from pytest_benchmark.fixture import BenchmarkFixture

from game.engine.match import Match
from game.rules import get_ruleset
from game.tiledmap import load_tiled_map
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.gui import Shell
from game.ui.prefs import Prefs
from game.ui.session import BattleSession
from tests.rules import rift_kit as rk
from tests.ui import battle_driver as bd


def test_bench_battle_screen_frame_while_aiming_a_move(
    benchmark: BenchmarkFixture, big_map_path: Path
) -> None:
    posses = [
        rk.rifters(
            "side1", rk.rifter("deliberate", "Del"), rk.rifter("bold", "Bo"), rk.rifter("cunning", "Cun")
        ),
        rk.outlaws(
            "side2", "outlaw_goon", "outlaw_goon", "outlaw_goon", "sharpshooter", "dynamiter", "gang_boss"
        ),
    ]
    match = Match.create(big_map_path, get_ruleset("rift"), posses, 5)
    app = App((1280, 720), "bench")
    try:
        session = BattleSession(match, None)
        screen = BattleScreen(Shell(prefs=Prefs()), session, load_tiled_map(big_map_path), app.size)
        app.push(screen)
        for cmd in match.ruleset.auto_deploy(match):  # set up by commands; the frame is what is measured
            screen.send(cmd)
        for _ in range(200):
            if any(a.action == "move" and a.enabled for a in screen.actor_actions()):
                break
            screen.send(rk.aggressive_command(match))
        screen.handover = False
        move = next(a for a in screen.actor_actions() if a.action == "move" and a.enabled)
        screen.choose(move)
        here = match.position(move.actor)
        assert here is not None
        screen.centre_on(move.actor)
        target = max(move.hexes, key=lambda h: (h.q - here.q) ** 2 + (h.r - here.r) ** 2)
        pos = bd.hex_pos(screen, target)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        app.step(1 / 60)
        assert screen.hovered.path

        def frame() -> None:
            app.step(1 / 60)

        benchmark.pedantic(frame, rounds=300, iterations=1, warmup_rounds=20)
        if benchmark.stats is not None:
            data = sorted(benchmark.stats.stats.data)
            benchmark.extra_info["p95_ms"] = round(data[int(len(data) * 0.95) - 1] * 1000, 3)
    finally:
        pygame.display.quit()
