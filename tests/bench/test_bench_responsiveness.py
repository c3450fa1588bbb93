"""The paths a player hits during a battle on the largest shipped map, uncached (issue 13,
"Responsiveness"): the first frame after a command, panning and pointing while a move is aimed, the
autosave after a command at 1,000+ commands, opening a battle, the first frame at a zoom level never
drawn, the memory after every zoom level, and the CPU an idle window takes.

Each records the CPU time of what it measures (``cpu_median_ms`` / ``cpu_p95_ms`` in ``extra_info``: the
issue's budgets are CPU time on a shared 2-core machine) beside pytest-benchmark's wall-clock figures.
No test here asserts a time; under ``make test`` each runs once, untimed.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import json
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from game.engine.match import Match
from game.hexgrid import hex_distance
from game.rules import get_ruleset
from game.tiledmap import load_tiled_map
from game.ui import settings
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.gui import Shell
from game.ui.prefs import Prefs
from game.ui.scenes import Scene, Unwind
from game.ui.session import BattleSession
from tests.rules import rift_kit as rk
from tests.soak import Game, SoakPlayer
from tests.ui import battle_driver as bd


def _posses() -> list[object]:
    return [
        rk.rifters(
            "side1", rk.rifter("deliberate", "Del"), rk.rifter("bold", "Bo"), rk.rifter("cunning", "Cun")
        ),
        rk.outlaws(
            "side2", "outlaw_goon", "outlaw_goon", "outlaw_goon", "sharpshooter", "dynamiter", "gang_boss"
        ),
    ]


class CpuTimes:
    """Collects the CPU time of each timed call; ``record`` puts its median and p95 in extra_info."""

    def __init__(self) -> None:
        self.samples: list[float] = []

    def timed(self, work: Callable[[], object]) -> Callable[[], None]:
        def run() -> None:
            start = time.process_time()
            work()
            self.samples.append(time.process_time() - start)

        return run

    def record(self, benchmark: BenchmarkFixture) -> None:
        data = sorted(self.samples)
        if not data or benchmark.stats is None:
            return
        benchmark.extra_info["cpu_median_ms"] = round(data[len(data) // 2] * 1000, 3)
        benchmark.extra_info["cpu_p95_ms"] = round(data[max(0, int(len(data) * 0.95) - 1)] * 1000, 3)
        benchmark.extra_info["cpu_max_ms"] = round(data[-1] * 1000, 3)
        benchmark.extra_info["cpu_first_ms"] = round(self.samples[0] * 1000, 3)


@pytest.fixture
def battle(big_map_path: Path) -> Iterator[tuple[App, BattleScreen]]:
    """A Through the Rift battle on the largest map in a 1280x720 window, deployed."""
    match = Match.create(big_map_path, get_ruleset("rift"), _posses(), 5)
    app = App((1280, 720), "bench")
    try:
        screen = BattleScreen(Shell(prefs=Prefs()), BattleSession(match, None), load_tiled_map(big_map_path))
        app.push(screen)
        for cmd in match.ruleset.auto_deploy(match):
            screen.send(cmd)
        screen.handover = False
        app.step(1 / 60)
        yield app, screen
    finally:
        pygame.display.quit()


def _aim_a_move(app: App, screen: BattleScreen) -> None:
    for _ in range(200):
        if any(a.action == "move" and a.enabled for a in screen.actor_actions()):
            break
        screen.send(rk.aggressive_command(screen.match))
        screen.handover = False
    screen.handover = False
    move = next(a for a in screen.actor_actions() if a.action == "move" and a.enabled)
    screen.choose(move)
    screen.centre_on(move.actor)
    app.step(1 / 60)


def test_bench_first_frame_after_a_command(
    benchmark: BenchmarkFixture, battle: tuple[App, BattleScreen]
) -> None:
    """A command is sent (untimed), then the frame that shows it is timed: the panels, the action bar
    and the combat log take in what changed."""
    app, screen = battle
    cpu = CpuTimes()

    def command() -> None:
        screen.handover = False
        screen.send(rk.aggressive_command(screen.match))

    before = len(screen.match.log)
    benchmark.pedantic(cpu.timed(lambda: app.step(1 / 60)), setup=command, rounds=60, iterations=1)
    cpu.record(benchmark)
    assert len(screen.match.log) > before and cpu.samples


def test_bench_panning_while_aiming_a_move(
    benchmark: BenchmarkFixture, battle: tuple[App, BattleScreen]
) -> None:
    """A move aimed, the camera dragged a few pixels every frame (the pointer still over the map)."""
    app, screen = battle
    _aim_a_move(app, screen)
    cpu = CpuTimes()
    step = {"n": 0}

    def frame() -> None:
        n = step["n"] = step["n"] + 1
        screen.view.camera.pan_screen(4 if (n // 60) % 2 == 0 else -4, 2 if (n // 30) % 2 == 0 else -2)
        app.step(1 / 60)

    benchmark.pedantic(cpu.timed(frame), rounds=240, iterations=1, warmup_rounds=5)
    cpu.record(benchmark)
    assert screen.picker is not None and screen.picker.action.action == "move"


def test_bench_aiming_with_the_pointer_moving(
    benchmark: BenchmarkFixture, battle: tuple[App, BattleScreen]
) -> None:
    """A move aimed, the pointer moving over the reachable tiles every frame (the path and its odds)."""
    app, screen = battle
    _aim_a_move(app, screen)
    move = screen.picker
    assert move is not None
    here = screen.match.position(move.action.actor)
    assert here is not None
    spots = [bd.hex_pos(screen, h) for h in sorted(move.action.hexes) if hex_distance(h, here) <= 8]
    spots = [p for p in spots if screen.layout.map.collidepoint(p)]
    assert spots
    cpu = CpuTimes()
    step = {"n": 0}

    def frame() -> None:
        n = step["n"] = step["n"] + 1
        x, y = spots[(n * 7) % len(spots)]
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(3, 2), buttons=(0, 0, 0)))
        app.step(1 / 60)

    benchmark.pedantic(cpu.timed(frame), rounds=240, iterations=1, warmup_rounds=5)
    cpu.record(benchmark)
    assert screen.hovered.hex is not None


def test_bench_first_frame_at_a_new_zoom_level(
    benchmark: BenchmarkFixture, battle: tuple[App, BattleScreen]
) -> None:
    """Each round zooms to a level whose map pictures are not cached (the caches emptied first), then
    times the frame drawn there."""
    app, screen = battle
    levels = [settings.ZOOM_MIN * settings.ZOOM_STEP**k for k in range(18)]
    levels = [z for z in levels if z <= settings.ZOOM_MAX]
    cpu = CpuTimes()
    step = {"n": 0}

    def cold_zoom() -> None:
        step["n"] += 1
        screen.view.forget_pictures()
        screen.view.set_zoom(levels[step["n"] % len(levels)])

    benchmark.pedantic(cpu.timed(lambda: app.step(1 / 60)), setup=cold_zoom, rounds=36, iterations=1)
    cpu.record(benchmark)


def test_bench_memory_after_every_zoom_level(benchmark: BenchmarkFixture) -> None:
    """Every zoom level from the least to the most, the whole map panned over at each, in a fresh process
    (``tests/bench/memory_probe.py``): its resident memory after it (``rss_mb``; ``opened_mb`` with the
    battle just open) and what the map caches hold (``cache_mb``)."""
    root = Path(__file__).resolve().parents[2]

    def probe() -> dict[str, float]:
        done = subprocess.run(
            [sys.executable, "-m", "tests.bench.memory_probe"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        )
        result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
        return result

    found = benchmark.pedantic(probe, rounds=1, iterations=1)
    benchmark.extra_info.update(found)
    assert found["cache_mb"] > 0


# -- the autosave -------------------------------------------------------------------------------------


def long_game(commands: int = 1_000) -> Match:
    """A Golden Frontiers game on the largest map played by the soak's random player that walks one hex
    at a time whenever it can (1,081 commands in all): ``commands`` of them applied."""
    game = Game.of(1, 3)
    assert game.ruleset == "golden" and game.map_path.name == "canyon_railyard.tmx"
    match = game.new_match()
    rng = random.Random(3)
    player = SoakPlayer()
    while not match.is_over and len(match.log) < commands:
        match.apply(next_step(match, rng, player))
    assert len(match.log) == commands
    return match


def next_step(match: Match, rng: random.Random, player: SoakPlayer) -> object:
    legal = match.legal_actions()
    walks = [a for a in legal if a.enabled and a.needs == "path" and a.action == "move" and a.hexes]
    if walks and rng.random() < 0.99:
        here = match.position(walks[0].actor)
        near = [h for h in walks[0].hexes if here is not None and hex_distance(h, here) == 1]
        path = walks[0].path_to(rng.choice(near)) if near else None
        cmd = walks[0].command(path=path) if path is not None else None
        if cmd is not None and match.validate(cmd) is None:
            return cmd
    return player.choose(legal, rng)


def test_bench_autosave_after_a_command_at_1000_commands(benchmark: BenchmarkFixture, tmp_path: Path) -> None:
    """The autosave after each of the commands 1,001 on of a long game (the command applied untimed)."""
    match = long_game()
    session = BattleSession(match, tmp_path, battle_id="bench")
    session.autosave()  # the battle's first autosave (as a new battle or a load writes it)
    rng = random.Random(30)
    player = SoakPlayer()
    cpu = CpuTimes()

    def command() -> None:
        match.apply(next_step(match, rng, player))  # type: ignore[arg-type]

    benchmark.pedantic(cpu.timed(session.autosave), setup=command, rounds=60, iterations=1)
    cpu.record(benchmark)
    assert len(match.log) > 1_000 and cpu.samples
    assert not session.autosave_problem


# -- opening a battle, idling -------------------------------------------------------------------------


def test_bench_opening_a_battle(benchmark: BenchmarkFixture, big_map_path: Path, tmp_path: Path) -> None:
    """New battle to first frame, as the New Battle screen's Start does it: the match made, autosaved,
        the map read, the battle screen built and its first frame drawn. The first round is the process's
    first battle (``cpu_first_ms``: nothing of the map cached yet)."""
    get_ruleset("rift")  # the rulesets are found when the game starts (the New Battle screen lists them)
    app = App((1280, 720), "bench")
    app.push(Scene())  # stands in for the title screen, under every battle
    cpu = CpuTimes()

    def leave_the_last() -> None:
        """Not timed: the battle before is left as a player leaves one (back to the title, then a quiet
        frame there), so each round is a later battle of one session, not a pile of battles never left."""
        app.apply(Unwind(keep=1))
        app.step(1 / 60)

    def open_battle() -> None:
        match = Match.create(big_map_path, get_ruleset("rift"), _posses(), 5)
        session = BattleSession(match, tmp_path)
        session.autosave()
        screen = BattleScreen(Shell(prefs=Prefs()), session, load_tiled_map(big_map_path), app.size)
        app.push(screen)
        app.step(1 / 60)

    try:
        benchmark.pedantic(cpu.timed(open_battle), setup=leave_the_last, rounds=6, iterations=1)
        cpu.record(benchmark)
    finally:
        pygame.display.quit()


def _idle_share(app: App, seconds: float) -> float:
    """The share of one core the window's loop takes over ``seconds`` of wall time with no input (after
    the first seconds without input, which run at the full rate)."""
    start = time.perf_counter()
    while time.perf_counter() - start < settings.IDLE_AFTER + 0.5:
        app.step()
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        app.step()
    return (time.process_time() - cpu) / (time.perf_counter() - wall)


def test_bench_idle_on_the_title_screen(benchmark: BenchmarkFixture, tmp_path: Path) -> None:
    from game.ui.title import TitleScene

    app = App((1280, 720), "bench")
    try:
        app.push(TitleScene(Shell(prefs=Prefs(), prefs_path=tmp_path / "settings.toml")))
        app.step(1 / 60)
        share = benchmark.pedantic(lambda: _idle_share(app, 3.0), rounds=1, iterations=1)
        benchmark.extra_info["cpu_share_percent"] = round(share * 100, 1)
    finally:
        pygame.display.quit()


def test_bench_idle_in_a_quiet_battle(benchmark: BenchmarkFixture, battle: tuple[App, BattleScreen]) -> None:
    app, screen = battle
    for _ in range(120):  # the dice and floaters of the deployment played out
        app.step(1 / 60)
    share = benchmark.pedantic(lambda: _idle_share(app, 3.0), rounds=1, iterations=1)
    benchmark.extra_info["cpu_share_percent"] = round(share * 100, 1)
    assert screen.controller.feed.dice is None
    assert getattr(app, "idle", True)  # the loop slept (the window polls for input, drawing seldom)
