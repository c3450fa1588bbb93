"""A battle follows its map on disk (issue 15, live maps in the sandbox).

The battle screen watches its map's files (:class:`~game.livemap.MapWatcher`, as the map view does). What a
change does depends on GM mode (docs/GM.md "Live maps"):

- **In GM mode** the map is read again within a second of the save (:func:`game.mapcheck.load_checked`).
  A map that loads without problems comes into the battle as one GM edit, ``gm_map``
  (:mod:`game.engine.gm`), which carries the new board whole: the battle's log, its saves and replays hold
  it, so they rebuild exactly this battle whatever the file says later. Units keep their hexes where they
  still can stand; the others go to the nearest free hex (or off the map when there is none), each said in
  a box over the map and in the combat log. The camera stays where it was and the window's title follows
  the map's. A change of the pictures only (the board is the same for the rules) just redraws the map.
  While the file has problems, check-map's list takes the map's place (the battle is kept, on the board it
  has), until a save fixes it.
- **Outside GM mode** nothing changes under the players' feet: a note over the map says the file changed
  (or has problems) and that GM mode (G) brings the change in. The battle goes on on its board.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Final, Protocol

import pygame

from game.commands import Command
from game.engine.board import board_json, board_sha
from game.engine.gm import GM_MAP
from game.events import GmEdit
from game.livemap import MapWatcher, map_files
from game.mapcheck import CheckedMap, load_checked
from game.tiledmap import TiledMap
from game.ui import settings
from game.ui.hud import TextCache
from game.ui.live_map import post_wake, problem_heading, problems_picture, set_window_title, window_title

if TYPE_CHECKING:
    from game.ui.battle_hud import Layout
    from game.ui.gm_panel import GmPanel
    from game.ui.session import BattleSession

__all__ = ["REPORT_SECONDS", "LiveBattle"]

REPORT_SECONDS: Final = 8.0  # how long the box saying what a reload did stays over the map
REPORT_LINES: Final = 8


class LiveHost(Protocol):
    """What the live map uses of the battle screen (``game.ui.battle.BattleScreen``)."""

    session: BattleSession
    layout: Layout
    gm: GmPanel
    tmap: TiledMap

    def swap_map(self, tmap: TiledMap) -> None: ...


class LiveBattle:
    """The live map of one battle screen: :meth:`start` watches the files, :meth:`update` (each frame)
    brings a finished save in while GM mode is on, :meth:`draw` shows the problems or the notes."""

    def __init__(self, screen: LiveHost) -> None:
        self.screen = screen
        self.watcher: MapWatcher | None = None
        self.pending = False  # the files changed since the battle's board was read
        self.broken: CheckedMap | None = None  # the last read found problems (shown in GM mode)
        self.report: list[str] = []  # what the last reload did, for the box over the map
        self.reloads = 0
        self._report_at = 0.0
        self._refused_for: object = None  # the position a reload was refused in (tried again after it moves)
        self._first_sha: str | None = None
        self._text = TextCache(settings.ERROR_FONT_SIZE - 2)

    @property
    def path(self) -> Path | None:
        return self.screen.session.match.map_path

    def start(self, *, force_polling: bool | None = None) -> None:
        """Watch the map's files (the battle screen of the game does; a test may leave it off), and note a
        map that already differs from the battle's board (a save loaded after the map was edited)."""
        path = self.path
        if path is None or self.watcher is not None:
            return
        self.watcher = MapWatcher(
            {path.resolve(), *map_files(self.screen.tmap)}, wake=post_wake, force_polling=force_polling
        )
        match = self.screen.session.match
        if match.board_sha and self.screen.tmap.file_hash != match.battlefield.file_hash:
            self.pending = True

    def close(self) -> None:
        if self.watcher is not None:
            self.watcher.close()
            self.watcher = None

    # -- each frame ---------------------------------------------------------------------------------------
    def update(self) -> None:
        if self.watcher is not None and self.watcher.poll() is not None:
            self.pending = True
            self._refused_for = None
        if self.pending and self.screen.gm.on and self._refused_for != self._position():
            self.reload()

    def _position(self) -> object:
        return self.screen.gm.sandbox.position_key()

    def _board_now(self) -> str:
        match = self.screen.session.match
        if match.board_sha:
            return match.board_sha
        if self._first_sha is None:
            self._first_sha = board_sha(board_json(match.first_board))
        return self._first_sha

    def reload(self) -> bool:
        """Read the map again and bring it into the battle (GM mode only); True when the battle's map
        changed. Problems are kept to show in the map's place; a refused edit is said and tried again
        once the position changes."""
        path = self.path
        if path is None or not self.screen.gm.on:
            return False
        self.pending = False
        checked = load_checked(path)
        if self.watcher is not None:
            files = {path.resolve()} | (map_files(checked.tmap) if checked.tmap is not None else set())
            self.watcher.watch(files | (set() if checked.ok else self.watcher.files), loose=not checked.ok)
        if not checked.ok or checked.tmap is None or checked.battlefield is None:
            self.broken = checked
            self.screen.gm.sandbox.message = f"{problem_heading(path, checked)}: fix it in Tiled and save"
            return False
        self.broken = None
        text = board_json(checked.battlefield)
        if board_sha(text) == self._board_now():  # the pictures changed, not the board: redraw only
            self._swap(checked.tmap, [f"Reloaded {path.name}: the pictures changed, the board is the same"])
            return True
        match = self.screen.session.match
        seen = len(match.history)
        if not self.screen.gm.sandbox.edit(Command(GM_MAP, extra=(("board", text),))):
            self._refused_for = self._position()
            self.pending = True
            reason = self.screen.gm.sandbox.message
            self.screen.gm.sandbox.message = f"{path.name} changed on disk but cannot come in now: {reason}"
            return False
        match = self.screen.session.match
        lines = [f"Reloaded {path.name} from disk: {checked.battlefield.title}"]
        for event in match.history[seen:]:
            if isinstance(event, GmEdit) and event.unit is not None:
                lines.append(f"{match.unit_view(event.unit).name} {event.change}")
        if len(lines) == 1:
            lines.append("Every unit kept its hex")
        self._swap(checked.tmap, lines)
        self.screen.gm.sandbox.message = lines[-1] if len(lines) == 2 else f"{len(lines) - 1} units moved"
        return True

    def _swap(self, tmap: TiledMap, lines: list[str]) -> None:
        self.screen.swap_map(tmap)
        self.reloads += 1
        self.report = lines
        self._report_at = time.monotonic()
        path = self.path
        if path is not None:
            set_window_title(window_title(tmap, path))

    # -- what the screen shows --------------------------------------------------------------------------
    def note(self) -> str:
        """The line over the map outside GM mode ("" none)."""
        path = self.path
        if path is None:
            return ""
        if self.watcher is not None and self.watcher.error is not None:
            return f"Not following {path.name} any more ({self.watcher.error})"
        if self.screen.gm.on:
            return ""
        if self.broken is not None:
            return f"{problem_heading(path, self.broken)}: the battle goes on on the map it has"
        if self.pending:
            return f"{path.name} changed on disk: GM mode (G) brings it into this battle"
        return ""

    def hides_map(self) -> bool:
        """The problems are shown in the map's place (GM mode, the file broken)."""
        return self.broken is not None and self.screen.gm.on

    def animating(self) -> bool:
        return bool(self.report) and time.monotonic() - self._report_at < REPORT_SECONDS

    def draw(self, surface: pygame.Surface) -> None:
        area = self.screen.layout.map
        if self.hides_map() and self.broken is not None and self.path is not None:
            gm = self.screen.gm
            room = pygame.Rect(area.x, area.y, gm.rect().left - area.x, area.height - gm.banner_room())
            lines = [str(p) for p in self.broken.problems]
            heading = problem_heading(self.path, self.broken)
            surface.blit(problems_picture(heading, lines, room.size), room.topleft)
            return
        if self.report and time.monotonic() - self._report_at >= REPORT_SECONDS:
            self.report = []
        lines = self.report if self.screen.gm.on else [n for n in (self.note(),) if n]
        if lines:
            self._draw_box(surface, area, lines)

    def _draw_box(self, surface: pygame.Surface, area: pygame.Rect, lines: list[str]) -> None:
        shown = lines[:REPORT_LINES]
        if len(lines) > REPORT_LINES:
            shown[-1] = f"\u2026 and {len(lines) - REPORT_LINES + 1} more (the combat log lists them)"
        images = [self._text.render(line, settings.STATUS_TEXT, bold=i == 0) for i, line in enumerate(shown)]
        width = min(max(i.get_width() for i in images) + 20, area.width - 24)
        box = pygame.Rect(area.x + 12, area.y + 44, width, sum(i.get_height() for i in images) + 12)
        pygame.draw.rect(surface, settings.STATUS_BG, box, border_radius=5)
        pygame.draw.rect(surface, settings.STATUS_BORDER, box, 2, border_radius=5)
        y = box.y + 6
        for image in images:
            surface.blit(image, (box.x + 10, y), pygame.Rect(0, 0, box.width - 20, image.get_height()))
            y += image.get_height()
