"""Helpers for the screens around a battle: the app with the title wired to them, typing, finishing a
battle, and maps that are broken on purpose. Everything a player does goes through posted events."""

from __future__ import annotations

import shutil
from pathlib import Path

import pygame

from game.rules import PosseSpec
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.flow import Flow
from game.ui.gui import Shell
from game.ui.library import MAPS_DIR
from game.ui.newbattle import BattleSetup
from game.ui.scenes import Scene
from game.ui.shell import build_title
from game.ui.title import TitleScene
from tests.rules import frontier_kit, rift_kit
from tests.ui.helpers import click, make_shell, post, press, step

ROOT = Path(__file__).resolve().parents[2]
RANCH = (MAPS_DIR / "ranch_duel.tmx").resolve()


def names(app: App) -> list[str]:
    return [type(s).__name__ for s in app.scenes]


def title_app(app: App, shell: Shell | None = None, flow: Flow | None = None) -> tuple[TitleScene, Flow]:
    shell = shell or make_shell(app)
    flow = flow or Flow(shell)
    title = build_title(app, shell, flow)
    app.push(title)
    step(app)
    return title, flow


def type_text(app: App, text: str, *, replace: bool = True) -> None:
    """Type into the focused text box as a keyboard does (select all first to replace what is there)."""
    if replace:
        press(app, pygame.K_a, mod=pygame.KMOD_CTRL)
    for ch in text:
        post(pygame.TEXTINPUT, text=ch)
    step(app, 2)  # the text box tells the screen by an event, read the frame after


def click_rect(app: App, rect: pygame.Rect, frames: int = 2) -> None:
    click(app, rect.center, frames)


def window_quit(app: App) -> None:
    """The window's close button."""
    post(pygame.QUIT)
    step(app)


def default_setup(ruleset: str, seed: int = 7) -> BattleSetup:
    from game.posses import default_posses

    drafts = default_posses(ruleset)
    posses = [
        drafts[0].spec(side="side1", controller="human"),
        drafts[1].spec(side="side2", controller="human"),
    ]
    return BattleSetup(ruleset, RANCH, posses, seed, {"side1": "human", "side2": "human"})


def start_battle(app: App, flow: Flow, ruleset: str = "rift", seed: int = 7) -> BattleScreen:
    """A battle opened the way Start opens it (the New Battle screen is tested on its own)."""
    app.apply(flow.start(default_setup(ruleset, seed)))
    step(app)
    top = app.top
    assert isinstance(top, BattleScreen), names(app)
    return top


def play_some(screen: BattleScreen, ruleset: str, commands: int) -> None:
    """Advance the battle by ``commands`` of the rules tests' aggressive player (through the session,
    so it autosaves as a player's commands do)."""
    kit = rift_kit if ruleset == "rift" else frontier_kit
    for _ in range(commands):
        if screen.session.match.is_over:
            return
        screen.session.apply(kit.aggressive_command(screen.session.match))


def finish(screen: BattleScreen, ruleset: str) -> None:
    kit = rift_kit if ruleset == "rift" else frontier_kit
    count = 0
    while not screen.session.match.is_over:
        screen.session.apply(kit.aggressive_command(screen.session.match))
        count += 1
        assert count < 5000


def maps_folder(tmp_path: Path) -> Path:
    """A maps folder with Showdown at the Lazy K, a copy of it with a wrong map property (it loads, but
    check-map finds a problem) and a file that is not a map at all."""
    folder = tmp_path / "maps"
    folder.mkdir()
    for tsx in MAPS_DIR.glob("*.tsx"):
        shutil.copy(tsx, folder / tsx.name)
    (tmp_path / "assets").symlink_to(ROOT / "assets")
    shutil.copy(MAPS_DIR / "ranch_duel.tmx", folder / "ranch_duel.tmx")
    text = (MAPS_DIR / "ranch_duel.tmx").read_text(encoding="utf-8")
    bad = text.replace(
        '<property name="title" value="Showdown at the Lazy K"/>',
        '<property name="title" value="Lazy K, misspelt"/>\n  <property name="weather" value="dusty"/>',
        1,
    )
    assert bad != text
    (folder / "ranch_typo.tmx").write_text(bad, encoding="utf-8")
    (folder / "broken.tmx").write_text("<map this is not xml", encoding="utf-8")
    return folder


def posse(screen: Scene, side: str) -> PosseSpec:
    assert isinstance(screen, BattleScreen)
    return next(p for p in screen.session.match.posses if p.side == side)
