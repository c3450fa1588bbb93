"""The New Battle screen whose maps follow their files on disk (issue 15, live maps; see
:mod:`game.ui.live_map`): a changed map, tileset or image is read again and the screen rebuilt with the same
map picked; while the picked map has problems, check-map's list takes its picture's place."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pygame

from game.livemap import MAP_SUFFIXES, MapWatcher, map_files
from game.tiledmap import MapLoadError, load_tiled_map
from game.ui.library import list_maps
from game.ui.live_map import WAKE_EVENT, post_wake, problems_picture
from game.ui.map_thumbs import forget_thumbnail
from game.ui.newbattle import NewBattleScene
from game.ui.scenes import Action

__all__ = ["LiveNewBattleScene"]


class LiveNewBattleScene(NewBattleScene):
    """New Battle whose maps follow their files: a changed map (or tileset, or image) is read again and the
    screen rebuilt, the picked map kept; while the picked map has problems they replace its picture."""

    def __init__(self, *args: Any, watch: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reloads = 0
        self.watcher: MapWatcher | None = None
        if watch:
            self.watcher = MapWatcher(self._watched(), loose=True, folders=[self.maps_dir], wake=post_wake)

    def _watched(self) -> set[Path]:
        """Every listed map and the tilesets and images of the picked one."""
        files = {p.resolve() for p in self.all_maps}
        current = self.current_map
        if current is not None:
            # a broken map: its folder is watched loosely (the tileset it lacks may appear)
            with contextlib.suppress(MapLoadError):
                files |= map_files(load_tiled_map(current))
        return files

    def pick_map(self, index: int) -> None:
        super().pick_map(index)
        if self.watcher is not None:
            self.watcher.watch(self._watched(), loose=True, folders=[self.maps_dir])

    def build_sheet(self, manager: Any, panel: Any) -> None:
        super().build_sheet(manager, panel)
        info = self.info
        if info is not None and info.problems and self.thumbnail is not None:
            rect = self.thumbnail.get_relative_rect()
            size = (int(rect.width), int(rect.height))
            count = len(info.problems)
            heading = f"{count} problem{'s' if count != 1 else ''} in {info.path.name}"
            lines = [str(p).replace(str(info.path), info.path.name) for p in info.problems]
            self.thumbnail.set_image(problems_picture(heading, lines, size))

    def maps_changed(self, changed: frozenset[Path]) -> None:
        """Read the changed maps again (every map when a tileset or image changed) and rebuild."""
        tilesets = any(p.suffix.lower() != ".tmx" for p in changed)
        for path in list(self._infos):
            if tilesets or path.resolve() in changed:
                del self._infos[path]
                forget_thumbnail(path)
        keep = self.current_map.stem if self.current_map is not None else ""
        self.all_maps = list_maps(self.maps_dir)  # a map may have been added, renamed or deleted
        self._list_maps(keep)
        self.reloads += 1
        self._refresh()
        if self.watcher is not None:
            self.watcher.watch(self._watched(), loose=True, folders=[self.maps_dir])

    def update(self, dt: float) -> Action | None:
        if self.watcher is not None:
            changed = self.watcher.poll()
            if changed is not None:
                self.maps_changed(frozenset(p for p in changed if p.suffix.lower() in MAP_SUFFIXES))
        return super().update(dt)

    def handle(self, event: pygame.event.Event) -> Action | None:
        if event.type == WAKE_EVENT:
            return None
        return super().handle(event)

    def closed(self) -> None:
        if self.watcher is not None:
            self.watcher.close()
