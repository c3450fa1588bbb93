"""What the screens around a battle ask of the way between them (:class:`~game.ui.flow.Flow` answers),
as protocols, so the Load, Pause and Results screens need not import the flow that opens them: the flow
imports the screens, never the other way round (no import circle through ``game.ui.flow``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from game.tiledmap import TiledMap
from game.ui.scenes import Action
from game.ui.session import BattleSession

__all__ = ["BattleRoutes", "PausedBattle", "SaveRoutes"]


class SaveRoutes(Protocol):
    """Where saves are kept and how a chosen one is opened (the Load screen)."""

    @property
    def saves_dir(self) -> Path: ...

    @property
    def autosave_dir(self) -> Path: ...

    def open_save(self, path: Path, heading: str = ...) -> Action: ...


class BattleRoutes(SaveRoutes, Protocol):
    """The ways out of a battle's menus (the pause menu and the results)."""

    def load_screen(self) -> Action: ...

    def confirm_quit_to_title(self) -> Action: ...

    def to_title(self) -> Action: ...

    def rematch(self, session: BattleSession, side_names: dict[str, str] | None = None) -> Action: ...

    def suggest_save_name(self, session: BattleSession) -> str: ...

    def save(self, session: BattleSession, name: str) -> str | None: ...

    def save_path(self, name: str) -> Path: ...

    def replace_question(self, name: str) -> str | None: ...


class PausedBattle(Protocol):
    """What the pause menu reads of the battle screen under it."""

    @property
    def session(self) -> BattleSession: ...

    @property
    def tmap(self) -> TiledMap: ...
