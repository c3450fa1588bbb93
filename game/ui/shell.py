"""``hexslinger play`` without a map: the title screen and its menus, with the player's preferences.

New Battle, Continue and Load lead to the battle screens through :class:`~game.ui.flow.Flow`. For
screenshots, ``--screen`` opens a screen over the title: ``settings``, ``newbattle``, ``load``, and
``battle`` / ``pause`` / ``results`` on a demonstration battle of the chosen ruleset (its default posses on
Showdown at the Lazy K, deployed, and for ``results`` played to the end by :mod:`game.ui.demo`; never
autosaved). Without ``--ruleset`` the first installed ruleset is taken.
"""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path
from typing import Final, Literal

import pygame

from game.posses import default_posses
from game.ui import settings
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.demo import demo_match, deploy_all, play_to_end
from game.ui.flow import Flow
from game.ui.gui import Shell
from game.ui.live_newbattle import LiveNewBattleScene
from game.ui.load_screen import LoadScene
from game.ui.newbattle import default_ruleset
from game.ui.posse_screen import PosseScreen
from game.ui.prefs import Prefs, load_prefs
from game.ui.render import ensure_pygame
from game.ui.scenes import Replace, Scene
from game.ui.session import BattleSession
from game.ui.settings_screen import SettingsScene
from game.ui.sound import SoundBank
from game.ui.title import TitleScene

Screen = Literal["title", "settings", "posse", "newbattle", "load", "battle", "pause", "results"]
SCREENS: Final = ("title", "settings", "posse", "newbattle", "load", "battle", "pause", "results")


def valid_key_name(name: str) -> bool:
    """Whether pygame knows a key by this name (what the settings file stores)."""
    try:
        pygame.key.key_code(name)
    except ValueError:
        return False
    return True


def version_text() -> str:
    try:
        return f"v{metadata.version('hexslinger')}"
    except metadata.PackageNotFoundError:
        return ""


def build_title(app: App, shell: Shell, flow: Flow | None = None) -> TitleScene:
    """The title screen wired to the battle screens (``flow``: where saves live; default: the user's
    data folder)."""
    del app  # the screens get the window size when they are opened
    flow = flow if flow is not None else Flow(shell)
    return TitleScene(
        shell,
        on_new_battle=flow.new_battle,
        on_continue=flow.continue_latest,
        on_load=flow.load_screen,
        open_settings=lambda: SettingsScene(shell),
        has_autosave=flow.has_autosave,
        tips={
            "new_battle": "Pick the rules, the map and the posses",
            "continue": "Resume the last battle where you left it (it is saved after every move)",
            "load": "Open a saved battle",
        },
        version=version_text(),
    )


def demo_screen(shell: Shell, flow: Flow, screen: Screen, ruleset: str = "") -> Scene | None:
    """A screen for ``--screen`` screenshots (see the module text); None for the title. ``ruleset``: the
    rules of the demonstration battle ("": the first installed)."""
    if screen == "settings":
        return SettingsScene(shell)
    if screen == "newbattle":
        return LiveNewBattleScene(
            shell,
            on_start=flow.start,
            maps_dir=flow.maps_dir,
            ruleset=ruleset,
            map_name="ranch_duel",
            seed=1881,
        )
    if screen == "load":
        return LoadScene(shell, flow)
    if screen in ("battle", "pause", "results"):
        match = demo_match(ruleset or default_ruleset())
        deploy_all(match)
        if screen == "results":
            play_to_end(match)
        session = BattleSession(match, None)
        if screen == "results":
            action = flow.results(session)
            assert isinstance(action, Replace)
            return action.scene
        return flow.battle_screen(session)
    return None


def run_shell(
    size: tuple[int, int] | None = None,
    *,
    frames: int | None = None,
    screenshot: Path | None = None,
    mouse: tuple[int, int] | None = None,
    screen: Screen = "title",
    prefs_path: Path | None = None,
    ruleset: str = "",
) -> int:
    """Open the window on the title screen (or the settings screen or the posse builder over it); returns
    the exit status.

    ``size`` overrides the saved window size (and fullscreen); None uses the player's preferences.
    ``ruleset``: the posse builder's rules (it opens on the ruleset's first built-in posse), or the
    demonstration battle's for ``screen="battle"``, ``"pause"`` and ``"results"`` ("": the first
    installed ruleset).
    """
    ensure_pygame()
    pygame.display.init()  # key names are checked against the display's keyboard
    loaded = load_prefs(prefs_path, valid_key=valid_key_name)
    prefs: Prefs = loaded.prefs
    if loaded.message:
        print(f"hexslinger: {loaded.message}", file=sys.stderr)
    sounds = SoundBank(prefs.volume, prefs.muted)
    try:
        app = App(size or prefs.window_size, settings.WINDOW_TITLE)
    except pygame.error as error:
        print(f"hexslinger: cannot open a window: {error}", file=sys.stderr)
        sounds.close()
        return 1
    try:
        if size is None and prefs.fullscreen:
            app.set_display(prefs.window_size, fullscreen=True)
        shell = Shell(
            prefs=prefs,
            sounds=sounds,
            prefs_path=prefs_path,
            apply_display=lambda p: app.set_display(p.window_size, p.fullscreen),
            notice=loaded.message,
        )
        flow = Flow(shell)
        app.push(build_title(app, shell, flow))
        extra = demo_screen(shell, flow, screen, ruleset)
        if extra is not None:
            app.push(extra)
            if screen == "pause" and isinstance(extra, BattleScreen):
                app.step(1 / settings.FPS_LIMIT)  # draw the battle once under the menu
                app.apply(flow.pause(extra))
        elif screen == "posse":
            ruleset = ruleset or default_ruleset()
            defaults = default_posses(ruleset)
            app.push(PosseScreen(shell, ruleset, start=defaults[0].spec() if defaults else None))
        if mouse is not None:
            pygame.event.post(
                pygame.event.Event(pygame.MOUSEMOTION, pos=mouse, rel=(0, 0), buttons=(0, 0, 0))
            )
        code = app.run(frames)
        if screenshot is not None:
            try:
                app.save_screenshot(screenshot)
            except (pygame.error, OSError) as error:
                print(f"hexslinger: cannot write {screenshot}: {error}", file=sys.stderr)
                code = 1
        app.close()
        return code
    finally:
        sounds.close()
        pygame.display.quit()
