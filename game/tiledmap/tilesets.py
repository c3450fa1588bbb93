"""Reading a map's tilesets (embedded, or ``.tsx`` files beside it): every tile's picture, offset, size
as drawn, class and custom properties, by global id.
"""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

from game.safeio import MAX_PATH_CHARS, FileRefusedError
from game.tiledmap.model import GID_MASK, PropertyValue, TileInfo
from game.tiledmap.problems import MapLoadError
from game.tiledmap.reading import (
    MAX_TILE_SIZE,
    MAX_TILESET_TILES,
    MAX_TOTAL_TILES,
    LoaderBase,
    TilesetRange,
    image_size,
    int_attr,
    parse_properties,
)

__all__ = ["TilesetReader"]


class TilesetReader(LoaderBase):
    """The tileset part of the loader."""

    def _tileset(self, el: ElementTree.Element) -> None:
        p = self.problems
        firstgid = int_attr(el, "firstgid", None, p, "a tileset")
        if firstgid is None:
            return
        if firstgid < 1 or firstgid > GID_MASK:
            p.add(f"a tileset has firstgid {firstgid}", "re-save the map from Tiled")
            return
        source = el.get("source")
        file = str(self.path)
        base = self.dir
        if source:
            try:
                if len(source) > MAX_PATH_CHARS:  # Path.resolve() is quadratic in the path's length
                    raise ValueError(source)
                ts_path = (self.dir / source).resolve()
            except (OSError, ValueError):
                p.add(
                    f"the tileset source '{source}' is not a usable file name",
                    "fix it with Map > Replace Tileset",
                )
                return
            file = str(ts_path)
            if ts_path.suffix.lower() in (".tsj", ".json"):
                p.add(
                    f"tileset '{source}' is a JSON tileset; Hexslinger reads .tsx tilesets",
                    "open the tileset in Tiled, File > Export As... 'Tiled tileset files (*.tsx)', and "
                    "in the map use Map > Replace Tileset with the .tsx",
                )
                return
            if source.lower().endswith(".tx"):
                return
            try:
                data = self._read(ts_path, "tileset")
            except FileRefusedError as error:
                if error.reason == "missing":
                    p.add(
                        f"the tileset file '{source}' does not exist (looked for {ts_path})",
                        "put the .tsx next to the map as the relative path says, or in Tiled fix it with "
                        "Map > Replace Tileset",
                    )
                else:
                    p.add(f"tileset '{source}': {error.what}", error.fix, file=file)
                return
            try:
                el = self._parse_xml(data, file, "tileset")
            except MapLoadError:
                return  # problem recorded; keep looking for others
            if el.tag != "tileset":
                p.add(f"'{source}' is not a Tiled tileset (<{el.tag}>)", "point the map at a .tsx tileset")
                return
            base = ts_path.parent
        name = el.get("name", "") or (Path(source).stem if source else "tileset")
        where = f"tileset '{name}'"
        tw = int_attr(el, "tilewidth", None, p, where, file=file)
        th = int_attr(el, "tileheight", None, p, where, file=file)
        spacing = int_attr(el, "spacing", 0, p, where, file=file) or 0
        margin = int_attr(el, "margin", 0, p, where, file=file) or 0
        columns = int_attr(el, "columns", 0, p, where, file=file) or 0
        tilecount = int_attr(el, "tilecount", 0, p, where, file=file) or 0
        if tw is None or th is None or not (1 <= tw <= MAX_TILE_SIZE and 1 <= th <= MAX_TILE_SIZE):
            if tw is not None and th is not None:
                p.add(
                    f"{where} has an invalid tile size {tw}x{th}",
                    "fix it in the tileset's properties",
                    file=file,
                )
            return
        if spacing < 0 or margin < 0 or columns < 0 or tilecount < 0:
            p.add(
                f"{where} has negative spacing/margin/columns or a bad tile count",
                "re-save it from Tiled",
                file=file,
            )
            return
        if tilecount > MAX_TILESET_TILES:
            p.add(
                f"{where} declares {tilecount} tiles, more than the {MAX_TILESET_TILES} a tileset may have",
                "split the tileset, or check its tile count (Tiled writes the number of tiles in its image)",
                file=file,
            )
            return
        offset_el = el.find("tileoffset")
        offset = (0, 0)
        if offset_el is not None:
            offset = (
                int_attr(offset_el, "x", 0, p, where, file=file) or 0,
                int_attr(offset_el, "y", 0, p, where, file=file) or 0,
            )
        render_mode = el.get("tilerendersize", "tile")
        if render_mode not in ("tile", "grid"):
            p.add(
                f"{where} has tilerendersize '{render_mode}'",
                "choose Tile or Grid size in the tileset",
                file=file,
            )
            render_mode = "tile"

        def render_size(w: int, h: int) -> tuple[int, int]:
            return self.map_tile_size if render_mode == "grid" and self.map_tile_size[0] else (w, h)

        tile_els: dict[int, ElementTree.Element] = {}
        for tile_el in el.findall("tile"):
            tid = int_attr(tile_el, "id", None, p, f"a tile of {where}", file=file)
            if tid is None:
                continue
            if not 0 <= tid < MAX_TILESET_TILES:
                p.add(f"{where} has a tile with id {tid}", "re-save the tileset from Tiled", file=file)
                continue
            tile_els[tid] = tile_el

        def tile_meta(tid: int) -> tuple[dict[str, PropertyValue], str]:
            t = tile_els.get(tid)
            if t is None:
                return {}, ""
            props = parse_properties(t, p, f"tile {tid} of {where}", file=file)
            return props, t.get("class", t.get("type", "")) or ""

        image_el = el.find("image")
        count = 0
        if image_el is not None:
            image = self._image_path(image_el, base, f"the image of {where}", file)
            iw = int_attr(image_el, "width", 0, p, where, file=file) or 0
            ih = int_attr(image_el, "height", 0, p, where, file=file) or 0
            if (iw <= 0 or ih <= 0) and image is not None:
                size = image_size(image)
                if size is not None:
                    iw, ih = size
            if columns <= 0 and iw > 0:
                columns = max(0, (iw - 2 * margin + spacing) // (tw + spacing))
            if tilecount <= 0 and columns > 0 and ih > 0:
                rows = max(0, (ih - 2 * margin + spacing) // (th + spacing))
                tilecount = columns * rows
            if columns <= 0 or tilecount <= 0:
                p.add(
                    f"{where} has no tiles (cannot tell its columns/tile count)",
                    "re-save the tileset from Tiled with its image present",
                    file=file,
                )
                return
            if self.total_tiles + tilecount > MAX_TOTAL_TILES:
                p.add(
                    f"{where} has {tilecount} tiles, which makes more than {MAX_TOTAL_TILES} tiles in the "
                    "map's tilesets together",
                    "use fewer or smaller tilesets (a tileset's image holds its tiles: check its tile count)",
                    file=file,
                )
                return
            self.total_tiles += tilecount
            count = tilecount
            for tid in range(tilecount):
                col, row = tid % columns, tid // columns
                props, cls = tile_meta(tid)
                self.tiles[firstgid + tid] = TileInfo(
                    gid=firstgid + tid,
                    tileset=name,
                    local_id=tid,
                    image=image,
                    rect=(margin + col * (tw + spacing), margin + row * (th + spacing), tw, th),
                    offset=offset,
                    render_size=render_size(tw, th),
                    properties=props,
                    tile_class=cls,
                    source=file,
                )
        else:
            # Image collection: every tile has its own image (optionally a sub-rectangle, Tiled 1.9+).
            for tid, t in sorted(tile_els.items()):
                timg = t.find("image")
                if timg is None:
                    continue
                if self.total_tiles >= MAX_TOTAL_TILES:
                    p.add(
                        f"{where} makes more than {MAX_TOTAL_TILES} tiles in the map's tilesets together",
                        "use fewer or smaller tilesets",
                        file=file,
                    )
                    break
                self.total_tiles += 1
                image = self._image_path(timg, base, f"the image of tile {tid} of {where}", file)
                iw = int_attr(timg, "width", 0, p, where, file=file) or 0
                ih = int_attr(timg, "height", 0, p, where, file=file) or 0
                if (iw <= 0 or ih <= 0) and image is not None:
                    size = image_size(image)
                    if size is not None:
                        iw, ih = size
                x = int_attr(t, "x", 0, p, where, file=file) or 0
                y = int_attr(t, "y", 0, p, where, file=file) or 0
                w = int_attr(t, "width", iw, p, where, file=file) or iw
                h = int_attr(t, "height", ih, p, where, file=file) or ih
                props, cls = tile_meta(tid)
                self.tiles[firstgid + tid] = TileInfo(
                    gid=firstgid + tid,
                    tileset=name,
                    local_id=tid,
                    image=image,
                    rect=(x, y, w, h),
                    offset=offset,
                    render_size=render_size(w, h),
                    properties=props,
                    tile_class=cls,
                    source=file,
                )
                count = max(count, tid + 1)
        self.ranges.append(TilesetRange(firstgid, name, count))
