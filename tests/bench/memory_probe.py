"""``python -m tests.bench.memory_probe``: a battle on the largest shipped map in a fresh process, every
zoom level visited with the whole map panned over at each; prints the process's resident memory and what
the map caches hold, as JSON (the memory benchmark runs it: a process that ran other benchmarks first would
count their leftovers too)."""

from __future__ import annotations

import json
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path

import pygame

from game.engine.match import Match
from game.rules import get_ruleset
from game.tiledmap import load_tiled_map
from game.ui import settings
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.gui import Shell
from game.ui.prefs import Prefs
from game.ui.session import BattleSession
from tests.bench.conftest import largest_shipped_map
from tests.rules import rift_kit as rk


def rss_mb() -> float:
    with Path("/proc/self/status").open(encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    path = largest_shipped_map()
    posses = [
        rk.rifters(
            "side1", rk.rifter("deliberate", "Del"), rk.rifter("bold", "Bo"), rk.rifter("cunning", "Cun")
        ),
        rk.outlaws(
            "side2", "outlaw_goon", "outlaw_goon", "outlaw_goon", "sharpshooter", "dynamiter", "gang_boss"
        ),
    ]
    match = Match.create(path, get_ruleset("rift"), posses, 5)
    app = App((1280, 720), "memory")
    screen = BattleScreen(Shell(prefs=Prefs()), BattleSession(match, None), load_tiled_map(path), app.size)
    app.push(screen)
    for cmd in match.ruleset.auto_deploy(match):
        screen.send(cmd)
    screen.handover = False
    view = screen.view
    levels = [settings.ZOOM_MIN * settings.ZOOM_STEP**k for k in range(18)]
    levels = [z for z in levels if z <= settings.ZOOM_MAX] + [settings.ZOOM_MAX]
    opened = rss_mb()
    for zoom in levels:
        view.set_zoom(zoom)
        cam = view.camera
        bx, by, bw, bh = cam.bounds
        for y in range(by, by + bh + 1, max(1, round(cam.view_h / cam.zoom))):
            for x in range(bx, bx + bw + 1, max(1, round(cam.view_w / cam.zoom))):
                cam.center_x, cam.center_y = x, y
                cam.clamp()
                app.step(1 / 60)
                for _ in range(60):  # chunks are built over a few frames
                    if not getattr(view, "pending", 0):
                        break
                    app.step(1 / 60)
    cache = view.cache_bytes() / 2**20
    print(
        json.dumps({"rss_mb": round(rss_mb(), 1), "opened_mb": round(opened, 1), "cache_mb": round(cache, 1)})
    )
    pygame.display.quit()


if __name__ == "__main__":
    main()
