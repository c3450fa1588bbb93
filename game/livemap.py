"""Live maps (issue 15): a map open in the game follows its files on disk while the GM edits it in Tiled.

Headless (no pygame), so any screen can use it: the map view and the New Battle preview
(:mod:`game.ui.live_map`) and a battle in GM mode (:mod:`game.ui.live_battle`):

- :func:`map_files` — the files a loaded map is made of: its ``.tmx``, its ``.tsx`` tilesets and images.
- :class:`MapWatcher` — watches the folders of those files on a background thread with ``watchfiles``
  (inotify on Linux, FSEvents on macOS, ReadDirectoryChangesW on Windows; polling where none works) and
  hands the changed files to the main loop through :meth:`MapWatcher.poll`, once nothing has changed for
  :data:`QUIET_SECONDS` (an editor's save is several writes: Tiled writes a temporary file and renames it,
  and saving a map with its tilesets writes each file in turn). The thread never touches the game's
  state; an optional ``wake`` callback (called on the thread) lets the window wake from idle.
- :func:`carry_units` — after a reload, which units keep their hexes (still on the map, passable, one unit
  a hex) and which must be placed again; a battle's reload (the ``gm_map`` edit) uses the same test in
  :func:`game.engine.board.carry`, which also moves the others to the nearest free hex.

The main loop reloads with :func:`game.mapcheck.load_checked`, which gives the map and check-map's
problems in one pass.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Generic, TypeVar

import watchfiles

from game.battlefield import Battlefield
from game.engine.board import why_not
from game.hexgrid import Hex
from game.tiledmap import TiledMap

__all__ = [
    "MAP_SUFFIXES",
    "QUIET_SECONDS",
    "CarriedUnits",
    "MapWatcher",
    "carry_units",
    "map_files",
]

QUIET_SECONDS: Final = 0.15  # no change for this long after the last one: the save is complete
STEP_MS: Final = 50  # watchfiles groups the changes that come within this many ms of each other
STOP_CHECK_MS: Final = 200  # how often the thread looks whether it should stop, at the longest
# Files a Tiled map can be made of. While the map cannot be loaded, the files it names are not all known,
# so a change to any of these in the watched folders reloads it.
MAP_SUFFIXES: Final = frozenset(
    {".tmx", ".tsx", ".tx", ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".tga", ".tiled-project"}
)


def map_files(tmap: TiledMap) -> frozenset[Path]:
    """The files ``tmap`` was loaded from: the ``.tmx``, each external tileset and each image used."""
    files = {tmap.path.resolve()}
    for tile in tmap.tiles.values():
        if tile.source:
            files.add(Path(tile.source).resolve())
        if tile.image is not None:
            files.add(tile.image.resolve())
    for layer in tmap.layers:
        image = getattr(layer, "image", None)
        if isinstance(image, Path):
            files.add(image.resolve())
    return frozenset(files)


class _Shared:
    """What the watching thread and the main loop share, behind one lock (the thread holds no reference
    to the :class:`MapWatcher`, so a watcher nobody keeps is collected and its thread told to stop)."""

    def __init__(self, clock: Callable[[], float], wake: Callable[[], None] | None) -> None:
        self.lock = threading.Lock()
        self.clock = clock
        self.wake = wake
        self.files: frozenset[Path] = frozenset()
        self.folders: frozenset[Path] = frozenset()
        self.loose = False
        self.changed: set[Path] = set()
        self.last_change = 0.0
        self.changes_seen = 0
        self.error: str | None = None

    def matters(self, change: watchfiles.Change, path: str) -> bool:
        del change
        p = Path(path)
        with self.lock:
            if p in self.files:
                return True
            return self.loose and p.suffix.lower() in MAP_SUFFIXES and p.parent in self.folders


def _watch(shared: _Shared, folders: list[str], stop: threading.Event, force_polling: bool | None) -> None:
    """The watching thread: hand each group of changes to ``shared`` until ``stop`` is set."""
    try:
        for changes in watchfiles.watch(
            *folders,
            watch_filter=shared.matters,
            debounce=1_000,
            step=STEP_MS,
            stop_event=stop,
            rust_timeout=STOP_CHECK_MS,
            yield_on_timeout=False,
            recursive=False,
            raise_interrupt=False,
            force_polling=force_polling,
            poll_delay_ms=100,
            ignore_permission_denied=True,
        ):
            if stop.is_set():
                break
            with shared.lock:
                shared.changed.update(Path(path).resolve() for _change, path in changes)
                shared.last_change = shared.clock()
                shared.changes_seen += 1
            if shared.wake is not None:
                shared.wake()
    except Exception as error:  # the watch is a convenience: its failure must never end the game
        if not stop.is_set():
            with shared.lock:
                shared.error = f"live reload stopped: {type(error).__name__}: {error}"
            if shared.wake is not None:
                shared.wake()


class MapWatcher:
    """Watches a map's files; :meth:`poll` on the main loop returns the changed ones once a save is done.

    ``files`` are the files that matter (:func:`map_files`, or just the ``.tmx`` while it cannot be
    loaded); their folders and ``folders`` are watched (a file replaced by a rename is still seen).
    ``loose`` also counts any file with a :data:`MAP_SUFFIXES` ending in those folders (use it while the
    map is broken: the tileset it names may be the one being created). ``wake`` is called on the
    watching thread after each change, e.g. to post an event that wakes an idle window. ``clock`` is for
    tests.

    The thread stops on :meth:`close`, or when the watcher is garbage-collected. Problems of the watch
    itself (a folder deleted, too many watches) end the thread and are kept in :attr:`error` as a
    sentence for the screen; the map then simply no longer reloads.
    """

    def __init__(
        self,
        files: Iterable[Path],
        *,
        loose: bool = False,
        folders: Iterable[Path] = (),
        wake: Callable[[], None] | None = None,
        quiet: float = QUIET_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        force_polling: bool | None = None,
    ) -> None:
        self.quiet = quiet
        self._shared = _Shared(clock, wake)
        self._force_polling = force_polling
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.watch(files, loose=loose, folders=folders)

    # -- what is watched
    @property
    def files(self) -> frozenset[Path]:
        return self._shared.files

    @property
    def folders(self) -> frozenset[Path]:
        return self._shared.folders

    @property
    def error(self) -> str | None:
        """Why the watch stopped (None while it runs)."""
        with self._shared.lock:
            return self._shared.error

    @property
    def changes_seen(self) -> int:
        """Groups of changes the thread has handed over so far."""
        with self._shared.lock:
            return self._shared.changes_seen

    def watch(self, files: Iterable[Path], *, loose: bool = False, folders: Iterable[Path] = ()) -> None:
        """Follow these files (and, loosely, ``folders``) from now on; after a reload the map may name
        other tilesets. The thread is restarted only when the folders to watch change."""
        resolved = frozenset(Path(f).resolve() for f in files)
        wanted = frozenset(f.parent for f in resolved) | {Path(f).resolve() for f in folders}
        shared = self._shared
        with shared.lock:
            shared.files = resolved
            shared.loose = loose
            same = wanted == shared.folders
            shared.folders = wanted
        if not same or not self.running:
            self._restart(wanted)

    def _restart(self, folders: frozenset[Path]) -> None:
        self._stop_thread()
        self._stop = threading.Event()
        existing = sorted(str(f) for f in folders if f.is_dir())
        with self._shared.lock:
            self._shared.error = None
            if not existing:
                self._shared.error = "none of the map's folders exists, so it cannot be watched"
                return
        thread = threading.Thread(
            target=_watch,
            args=(self._shared, existing, self._stop, self._force_polling),
            name="hexslinger-map-watch",
            daemon=True,
        )
        weakref.finalize(self, self._stop.set)
        self._thread = thread
        thread.start()

    # -- the main loop's side
    @property
    def pending(self) -> bool:
        """Changes seen and not handed over yet."""
        with self._shared.lock:
            return bool(self._shared.changed)

    def poll(self) -> frozenset[Path] | None:
        """The files changed since the last poll, once none has changed for :attr:`quiet` seconds; None
        while nothing changed or a save is still being written."""
        shared = self._shared
        with shared.lock:
            if not shared.changed or shared.clock() - shared.last_change < self.quiet:
                return None
            changed = frozenset(shared.changed)
            shared.changed.clear()
        return changed

    def close(self) -> None:
        """Stop watching (the thread ends within :data:`STOP_CHECK_MS`)."""
        self._stop_thread()

    def _stop_thread(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2 * STOP_CHECK_MS / 1000)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def __enter__(self) -> MapWatcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class CarriedUnits(Generic[K]):
    """Where the units stand after a reload: ``kept`` on their old hexes, ``displaced`` with the reason
    their hex is no longer legal (the battle screen asks the GM to place those again)."""

    kept: dict[K, Hex]
    displaced: dict[K, str]


def carry_units(positions: Mapping[K, Hex], battlefield: Battlefield) -> CarriedUnits[K]:
    """Which units keep their hexes on the reloaded ``battlefield``: a hex must still be on the map and
    passable, and hold one unit (of two on one hex, the first in ``positions`` keeps it). The same test as
    a battle's reload (:func:`game.engine.board.carry`, which also finds the others a hex)."""
    kept: dict[K, Hex] = {}
    displaced: dict[K, str] = {}
    for unit, where in positions.items():
        reason = why_not(where, battlefield, set(kept.values()))
        if reason is None:
            kept[unit] = where
        else:
            displaced[unit] = reason
    return CarriedUnits(kept, displaced)
