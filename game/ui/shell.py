"""``hexslinger play`` without a map: the title screen and its menus, with the player's preferences.

Until the new-battle, continue and load screens exist, New Battle opens the default map in the map view
(Esc comes back to the title) and Continue / Load are disabled with a tooltip.
"""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path
from typing import Final, Literal

import pygame

from game.battlefield import build_battlefield
from game.posses import default_posses
from game.ui import settings
from game.ui.app import App, load_map_or_problems
from game.ui.gui import Shell
from game.ui.posse_screen import PosseScreen
from game.ui.prefs import Prefs, load_prefs
from game.ui.render import ensure_pygame
from game.ui.scenes import Action, BattleScene, Pop, Push
from game.ui.settings_screen import SettingsScene
from game.ui.sound import SoundBank
from game.ui.title import TitleScene

DEFAULT_MAP: Final = Path(__file__).resolve().parents[2] / "maps" / "frontier_town.tmx"
Screen = Literal["title", "settings", "posse"]
SCREENS: Final = ("title", "settings", "posse")


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


def open_map_view(app: App, map_path: Path = DEFAULT_MAP) -> Action | None:
    """New Battle's stand-in: the map view of ``map_path``, Esc back to the title."""
    tmap, problems = load_map_or_problems(map_path)
    if tmap is None:
        for problem in problems:
            print(f"hexslinger: {problem}", file=sys.stderr)
        return None
    battlefield, _problems = build_battlefield(tmap)
    return Push(BattleScene(tmap, app.size, battlefield, back=Pop()))


def build_title(app: App, shell: Shell) -> TitleScene:
    return TitleScene(
        shell,
        on_new_battle=lambda: open_map_view(app),
        open_settings=lambda: SettingsScene(shell),
        has_autosave=False,
        tips={"new_battle": "For now: look over Main Street, Redemption (Esc comes back here)."},
        version=version_text(),
    )


def run_shell(
    size: tuple[int, int] | None = None,
    *,
    frames: int | None = None,
    screenshot: Path | None = None,
    mouse: tuple[int, int] | None = None,
    screen: Screen = "title",
    prefs_path: Path | None = None,
    ruleset: str = "frontier",
) -> int:
    """Open the window on the title screen (or the settings screen or the posse builder over it); returns
    the exit status.

    ``size`` overrides the saved window size (and fullscreen); None uses the player's preferences.
    ``ruleset``: the posse builder's rules; it opens on the ruleset's first built-in posse.
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
        app.push(build_title(app, shell))
        if screen == "settings":
            app.push(SettingsScene(shell))
        elif screen == "posse":
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
        return code
    finally:
        sounds.close()
        pygame.display.quit()
