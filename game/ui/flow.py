"""How the screens around a battle lead to each other (the title's New Battle, Continue and Load, the pause
menu, the results), in one place.

The stack is always the title at the bottom and at most one battle (or results) above it, with menus and
dialogs over that: starting, loading or continuing a battle unwinds to the title and opens the battle
there; leaving a battle unwinds to the title. Every battle is a :class:`~game.ui.session.BattleSession`
that autosaves into ``<data dir>/autosaves`` after every command (and once at its start), so "Continue"
resumes where the game was, and closing the window mid-battle only asks before quitting.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Final

from game.engine.match import Match
from game.rules import UnknownRulesetError, get_ruleset
from game.save import SaveError
from game.tiledmap import MapLoadError, TiledMap, load_tiled_map
from game.ui import settings
from game.ui.battle import BattleScreen
from game.ui.dialogs import ConfirmDialog, MessageDialog, problems_html, save_error_html
from game.ui.gui import Shell
from game.ui.library import MAPS_DIR, autosave_dir, save_target, saves_dir
from game.ui.live_newbattle import LiveNewBattleScene
from game.ui.load_screen import LoadScene
from game.ui.newbattle import BattleSetup, new_seed
from game.ui.pause import PauseMenu
from game.ui.results import ResultsScene
from game.ui.scenes import Action, Push, Quit, Replace, Unwind
from game.ui.session import BattleSession, latest_autosave

__all__ = ["CLOSE_QUESTION", "Flow", "GuardedBattleScreen", "side_names_for"]

CLOSE_QUESTION: Final = "The battle is autosaved; quit Hexslinger? Continue on the title screen picks it up."
QUIT_TITLE_QUESTION: Final = "The battle is autosaved; quit to the title?"
DEFAULT_MAP: Final = "ranch_duel"  # the New Battle screen's first pick: small and quick


def side_names_for(match: Match, tmap: TiledMap | None = None) -> dict[str, str]:
    """What the players are called: each posse's name, with the map's side name when both are alike."""
    props = tmap.properties if tmap is not None else {}

    def map_name(side: str) -> str:
        value = props.get(f"{side}_name")
        return value if isinstance(value, str) and value else side.replace("side", "Side ")

    names = {p.side: p.name or map_name(p.side) for p in match.posses}
    if len(set(names.values())) < len(names):
        names = {side: f"{name} ({map_name(side)})" for side, name in names.items()}
    return names


class GuardedBattleScreen(BattleScreen):
    """The battle screen, asking before the window closes on it (the question answers a second close)."""

    def __init__(
        self,
        shell: Shell,
        session: BattleSession,
        tmap: TiledMap,
        size: tuple[int, int] = settings.WINDOW_SIZE,
        *,
        on_over: Callable[[BattleSession], Action] | None = None,
        on_menu: Callable[[BattleScreen], Action | None] | None = None,
        side_names: dict[str, str] | None = None,
        ask_close: Callable[[], Action] | None = None,
    ) -> None:
        super().__init__(shell, session, tmap, size, on_over=on_over, on_menu=on_menu, side_names=side_names)
        self.ask_close = ask_close

    def on_close_request(self) -> Action | None:
        if self.ask_close is None or self.session.outcome is not None:
            return None
        return self.ask_close()


class Flow:
    """The battle screens' wiring (see the module text). Folders default to the user's data folder
    (``$HEXSLINGER_DATA_DIR`` overrides it), read each time so tests can point them elsewhere."""

    def __init__(
        self,
        shell: Shell,
        *,
        maps_dir: Path = MAPS_DIR,
        autosaves: Path | None = None,
        saves: Path | None = None,
    ) -> None:
        self.shell = shell
        self.maps_dir = maps_dir
        self._autosaves = autosaves
        self._saves = saves
        self.last_setup: BattleSetup | None = None

    @property
    def autosave_dir(self) -> Path:
        return self._autosaves if self._autosaves is not None else autosave_dir()

    @property
    def saves_dir(self) -> Path:
        return self._saves if self._saves is not None else saves_dir()

    def message(self, heading: str, text_html: str) -> Action:
        return Push(MessageDialog(self.shell, heading, text_html))

    # -- the title's buttons
    def new_battle(self, ruleset: str = "") -> Action:
        last = self.last_setup
        return Push(
            LiveNewBattleScene(
                self.shell,
                on_start=self.start,
                maps_dir=self.maps_dir,
                ruleset=last.ruleset if last is not None else ruleset,
                map_name=last.map_path.stem if last is not None else DEFAULT_MAP,
            )
        )

    def has_autosave(self) -> bool:
        return latest_autosave(self.autosave_dir) is not None

    def continue_latest(self) -> Action:
        path = latest_autosave(self.autosave_dir)
        if path is None:
            return self.message("Nothing to continue", "No battle has been autosaved yet.")
        return self.open_save(path, "The battle cannot continue")

    def load_screen(self) -> Action:
        return Push(LoadScene(self.shell, self))

    # -- battles
    def start(self, setup: BattleSetup) -> Action:
        """A new battle from the New Battle screen (or a rematch), over the title."""
        try:
            match = Match.create(
                setup.map_path, get_ruleset(setup.ruleset), list(setup.posses), setup.seed, setup.scenario
            )
        except MapLoadError as error:
            return self.message("The map cannot be loaded", problems_html(error.problems))
        except (ValueError, UnknownRulesetError, OSError) as error:
            return self.message("The battle cannot start", f"{type(error).__name__}: {error}")
        self.last_setup = setup
        session = BattleSession(match, self.autosave_dir, seats=dict(setup.seats))
        session.autosave()  # "Continue" works from the first moment
        return self.open_battle(session, setup.side_names)

    def open_save(self, path: Path, heading: str = "This save cannot be loaded") -> Action:
        """A saved battle (a named save or an autosave), replayed and checked; a SaveError is shown."""
        try:
            session = BattleSession.load(path, self.autosave_dir)
        except SaveError as error:
            return self.message(heading, save_error_html(error))
        return self.open_battle(session)

    def open_battle(self, session: BattleSession, side_names: dict[str, str] | None = None) -> Action:
        """The battle screen over the title (every other screen closed)."""
        try:
            return Unwind(self.battle_screen(session, side_names))
        except MapLoadError as error:
            return self.message("The map cannot be loaded", problems_html(error.problems))

    def battle_screen(self, session: BattleSession, side_names: dict[str, str] | None = None) -> BattleScreen:
        """The screen for ``session`` (MapLoadError if its map cannot be drawn)."""
        match = session.match
        assert match.map_path is not None
        tmap = load_tiled_map(match.map_path)
        screen = GuardedBattleScreen(
            self.shell,
            session,
            tmap,
            on_over=self.results,
            on_menu=self.pause,
            side_names=side_names or side_names_for(match, tmap),
            ask_close=self.confirm_close,
        )

        screen.live.start()  # the map followed on disk: GM mode brings a change in (game.ui.live_battle)

        def autosave_failed(message: str) -> None:
            screen.message = message

        session.on_autosave_error = autosave_failed
        if session.autosave_problem:
            screen.message = session.autosave_problem
        return screen

    def confirm_close(self) -> Action:
        return Push(
            ConfirmDialog(
                self.shell,
                "Leave the battle?",
                CLOSE_QUESTION,
                yes="Quit",
                no="Keep playing",
                on_yes=lambda: Quit(0),
                on_close=Quit(0),
            )
        )

    def confirm_quit_to_title(self) -> Action:
        return Push(
            ConfirmDialog(
                self.shell,
                "Quit to the title?",
                QUIT_TITLE_QUESTION,
                yes="Quit to Title",
                no="Keep playing",
                on_yes=Unwind,
            )
        )

    def pause(self, screen: BattleScreen) -> Action:
        return Push(PauseMenu(self.shell, screen, self))

    def results(self, session: BattleSession) -> Action:
        tmap = None
        if session.match.map_path is not None:
            try:
                tmap = load_tiled_map(session.match.map_path)
            except MapLoadError:
                tmap = None
        title = tmap.properties.get("title") if tmap is not None else None
        return Replace(
            ResultsScene(
                self.shell,
                session,
                self,
                side_names=side_names_for(session.match, tmap),
                map_title=title if isinstance(title, str) else "",
            )
        )

    def rematch(self, session: BattleSession, side_names: dict[str, str] | None = None) -> Action:
        """The same posses on the same map under the same rules, with a new seed."""
        match = session.match
        assert match.map_path is not None
        setup = BattleSetup(
            ruleset=match.ruleset_name,
            map_path=match.map_path,
            posses=list(match.posses),
            seed=new_seed(),
            seats=dict(session.seats),
            side_names=dict(side_names or {}),
        )
        return self.start(setup)

    # -- saving
    def save_path(self, name: str) -> Path:
        """The file a save called ``name`` goes to (:func:`game.ui.library.save_target`)."""
        return save_target(name, self.saves_dir)[0]

    def replace_question(self, name: str) -> str | None:
        """What to ask before saving as ``name`` replaces a save of that name (None: nothing to ask;
        names that only map to the same file name get a file of their own)."""
        existing = save_target(name, self.saves_dir)[1]
        if existing is None:
            return None
        shown = existing if len(existing) <= 40 else existing[:39] + "\u2026"
        return f"\u201c{shown}\u201d is already saved: Save again to replace it"

    def suggest_save_name(self, session: BattleSession) -> str:
        """A name for the save dialog to start with: the map's title ("Showdown at the Lazy K", as the New
        Battle screen lists it; the file name in words for a map without one) and the time."""
        match = session.match
        title = match.battlefield.properties.get("title")
        if not isinstance(title, str) or not title.strip():
            title = match.map_path.stem.replace("_", " ").title() if match.map_path is not None else "Battle"
        return f"{title.strip()} {time.strftime('%d %b %H.%M')}"

    def save(self, session: BattleSession, name: str) -> str | None:
        """Save the battle as ``name`` in the saves folder; the reason if it could not be written."""
        return session.save(self.save_path(name), name)

    def to_title(self) -> Action:
        return Unwind()
