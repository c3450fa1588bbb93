"""Reading a map's layers in file order (groups flattened: offsets, opacity, visibility and tint
combined): tile layers with their data decoded and bounded (CSV, Base64, zlib, gzip) and every gid checked
against the tilesets, object layers with their shapes, and image layers.
"""

from __future__ import annotations

import base64
import binascii
import math
import zlib
from xml.etree import ElementTree

from game.tiledmap.model import GID_MASK, ImageLayer, MapObject, ObjectLayer, TileLayer
from game.tiledmap.reading import (
    MAX_GROUP_DEPTH,
    MAX_LAYERS,
    MAX_PROBLEMS_PER_LAYER,
    MAX_SHAPE_POINTS,
    MAX_TOTAL_CELLS,
    TILED_FORMAT_FIX,
    LoaderBase,
    TilesetRange,
    combine_tint,
    float_attr,
    int_attr,
    parse_properties,
    unpack_gids,
)

__all__ = ["LayerReader"]


class LayerReader(LoaderBase):
    """The layer and object part of the loader."""

    def _layers(  # noqa: PLR0917 - the inherited group state, passed down the recursion
        self,
        parent: ElementTree.Element,
        offset: tuple[float, float],
        opacity: float,
        visible: bool,
        tint: str | None,
        width: int,
        height: int,
        prefix: str,
        depth: int = 0,
    ) -> None:
        if self.layer_count > MAX_LAYERS:
            return
        if depth > MAX_GROUP_DEPTH:
            self.problems.add(
                f"group layers are nested more than {MAX_GROUP_DEPTH} deep",
                "move the layers out of the innermost groups (Tiled: Layer > Remove from group)",
                layer=prefix.rstrip("/")[-60:],
            )
            return
        for el in parent:
            if el.tag not in ("layer", "objectgroup", "imagelayer", "group"):
                continue
            self.layer_count += 1
            if self.layer_count > MAX_LAYERS:
                self.problems.add(
                    f"the map has more than {MAX_LAYERS} layers (groups included)",
                    "merge or delete layers",
                )
                return
            name = el.get("name", "")
            label = prefix + name
            off = (offset[0] + float_attr(el, "offsetx", 0.0), offset[1] + float_attr(el, "offsety", 0.0))
            op = opacity * float_attr(el, "opacity", 1.0)
            vis = visible and el.get("visible", "1") != "0"
            tn = combine_tint(tint, el.get("tintcolor"))
            props = parse_properties(el, self.problems, f"layer '{label}'", layer=label)
            if el.tag == "group":
                self._layers(el, off, op, vis, tn, width, height, label + "/", depth + 1)
            elif el.tag == "layer":
                raw = self._tile_data(el, label, width, height)
                self.layers.append(TileLayer(name, width, height, raw, vis, op, off, tn, props))
            elif el.tag == "objectgroup":
                objects = [self._object(o, label) for o in el.findall("object")]
                self.layers.append(
                    ObjectLayer(name, objects, vis, op, off, el.get("draworder", "topdown"), props)
                )
            else:
                image_el = el.find("image")
                image = None
                if image_el is not None and image_el.get("source"):
                    image = self._image_path(
                        image_el, self.dir, f"the image of image layer '{label}'", str(self.path)
                    )
                self.layers.append(ImageLayer(name, image, vis, op, off, props))

    def _tile_data(self, el: ElementTree.Element, label: str, width: int, height: int) -> list[list[int]]:
        p = self.problems
        empty = self._empty_grid(width, height)
        lw = int_attr(el, "width", width, p, f"layer '{label}'", layer=label)
        lh = int_attr(el, "height", height, p, f"layer '{label}'", layer=label)
        if (lw, lh) != (width, height):
            p.add(
                f"the layer is {lw}x{lh} but the map is {width}x{height}",
                "re-save the map from Tiled (Map > Resize Map resizes every layer)",
                layer=label,
            )
            return empty
        n = width * height
        if n == 0:
            return empty
        self.total_cells += n
        if self.total_cells > MAX_TOTAL_CELLS:
            if self.total_cells - n <= MAX_TOTAL_CELLS:  # said once, at the first layer past the limit
                p.add(
                    f"the map has too many tile layers: more than {MAX_TOTAL_CELLS} cells in all",
                    "merge or delete layers",
                    layer=label,
                )
            return empty
        data = el.find("data")
        if data is None:
            p.add("the layer has no <data>", "re-save the map from Tiled", layer=label)
            return empty
        if data.find("chunk") is not None:
            p.add(
                "the layer is stored in chunks (an infinite map)",
                "in Tiled: Map > Map Properties, untick 'Infinite', then save",
                layer=label,
            )
            return empty
        encoding = data.get("encoding")
        compression = data.get("compression")
        gids: list[int] | None = None
        if encoding is None:
            tiles = data.findall("tile")
            if len(tiles) != n:
                p.add(f"the layer has {len(tiles)} tiles, expected {n}", TILED_FORMAT_FIX, layer=label)
                return empty
            gids = []
            for t in tiles:
                try:
                    gids.append(int(t.get("gid", "0")))
                except ValueError:
                    gids.append(-1)
        elif encoding == "csv":
            text = (data.text or "").strip()
            if compression:
                p.add(f"CSV layer data with compression '{compression}'", TILED_FORMAT_FIX, layer=label)
                return empty
            if text.count(",") + 1 != n:
                p.add(
                    f"the layer's CSV data has {text.count(',') + 1 if text else 0} values, expected {n} "
                    f"({width}x{height}); the file may be truncated or hand-edited",
                    "re-save the map from Tiled; restore it from a backup if Tiled cannot open it",
                    layer=label,
                )
                return empty
            try:
                gids = list(map(int, text.split(",")))  # what pytmx's CSV reading does, at C speed
            except ValueError:
                gids = []
                for token in text.split(","):
                    try:
                        gids.append(int(token))
                    except ValueError:
                        gids.append(-1)
        elif encoding == "base64":
            gids = self._base64(data.text or "", compression, n, label)
            if gids is None:
                return empty
        else:
            p.add(f"unknown layer encoding '{encoding}'", TILED_FORMAT_FIX, layer=label)
            return empty
        raw = [gids[r * width : (r + 1) * width] for r in range(height)]
        self._check_gids(raw, label)
        return raw

    def _empty_grid(self, width: int, height: int) -> list[list[int]]:
        """The rows of a layer that could not be read (the map fails to load anyway): one grid per map
        size, shared, so ten thousand broken layers cost one."""
        grid = self._empty.get((width, height))
        if grid is None:
            grid = self._empty[(width, height)] = [[0] * width for _ in range(height)]
        return grid

    def _base64(self, text: str, compression: str | None, n: int, label: str) -> list[int] | None:
        p = self.problems
        expected = n * 4
        if compression == "zstd":
            p.add(
                "the layer is compressed with Zstandard, which Hexslinger cannot read",
                "in Tiled: Map > Map Properties > Tile Layer Format: CSV or Base64 (zlib compressed), save",
                layer=label,
            )
            return None
        if compression not in (None, "", "zlib", "gzip"):
            p.add(f"unknown layer compression '{compression}'", TILED_FORMAT_FIX, layer=label)
            return None
        try:
            packed = base64.b64decode("".join(text.split()), validate=True)
        except (binascii.Error, ValueError):
            p.add("the layer's Base64 data is corrupt", "re-save the map from Tiled", layer=label)
            return None
        if compression:
            # Inflate with a bound first: a zip bomb costs at most one layer's bytes.
            inflater = zlib.decompressobj(31 if compression == "gzip" else 15)
            try:
                out = inflater.decompress(packed, expected + 1)
            except zlib.error:
                p.add(f"the layer's {compression} data is corrupt", "re-save the map from Tiled", layer=label)
                return None
            if len(out) != expected or not inflater.eof:
                p.add(
                    f"the layer's {compression} data does not hold exactly {n} tiles",
                    "re-save the map from Tiled",
                    layer=label,
                )
                return None
        elif len(packed) != expected:
            p.add(
                f"the layer's Base64 data holds {len(packed) // 4} tiles, expected {n}",
                "re-save the map from Tiled",
                layer=label,
            )
            return None
        try:
            return list(unpack_gids(text.strip(), "base64", compression or None))
        except Exception:  # pytmx may raise anything; the data was already checked above
            p.add("the layer's data cannot be decoded", "re-save the map from Tiled", layer=label)
            return None

    def _tileset_of(self, gid: int) -> TilesetRange | None:
        found = None
        for r in self.ranges:
            if r.firstgid <= gid:
                found = r
            else:
                break
        return found

    def _check_gids(self, raw: list[list[int]], label: str) -> None:
        """Every cell's gid is 0 or a tile of a tileset: the distinct values are checked (a set built at
        C speed), and only if some is bad are the cells holding it found."""
        tiles = self.tiles
        distinct: set[int] = set().union(*raw)
        distinct.discard(0)
        bad_values = {v for v in distinct if v < 0 or v > 0xFFFFFFFF or (v & GID_MASK) not in tiles}
        if not bad_values:
            return
        bad: list[tuple[int, int, int]] = []
        count = 0
        for row_index, values in enumerate(raw):
            if bad_values.isdisjoint(values):
                continue
            count += sum(map(bad_values.__contains__, values))
            if len(bad) < MAX_PROBLEMS_PER_LAYER:
                bad.extend((col, row_index, v) for col, v in enumerate(values) if v in bad_values)
        for col, row, value in bad[:MAX_PROBLEMS_PER_LAYER]:
            gid = value & GID_MASK if 0 <= value <= 0xFFFFFFFF else value
            self.problems.add(
                self._unknown_gid_text(gid), self._unknown_gid_fix(), layer=label, cell=(col, row)
            )
        if count > MAX_PROBLEMS_PER_LAYER:
            self.problems.add(
                f"{count - MAX_PROBLEMS_PER_LAYER} more cells with unknown tiles",
                self._unknown_gid_fix(),
                layer=label,
            )

    def _unknown_gid_text(self, gid: int) -> str:
        if gid < 0:
            return "the cell holds a value that is not a tile id"
        ts = self._tileset_of(gid)
        if ts is None:
            return f"tile gid {gid} belongs to no tileset"
        return (
            f"tile gid {gid} is not in tileset '{ts.name}' (it has {ts.count} tiles from gid {ts.firstgid})"
        )

    @staticmethod
    def _unknown_gid_fix() -> str:
        return (
            "a tileset was removed or shrunk after painting: restore it, or erase the cell in Tiled "
            "(Tiled shows such cells as missing tiles)"
        )

    # -- objects
    def _object(self, el: ElementTree.Element, label: str) -> MapObject:
        p = self.problems
        oid = int_attr(el, "id", 0, p, "an object", layer=label) or 0
        where = f"object {oid}" + (f" '{el.get('name')}'" if el.get("name") else "")
        if el.get("template"):
            p.add(
                f"{where} uses the object template '{el.get('template')}', which Hexslinger does not read",
                "in Tiled select the object and use 'Detach' (right-click > Detach Template)",
                layer=label,
            )
        x = float_attr(el, "x", 0.0)
        y = float_attr(el, "y", 0.0)
        raw_gid = 0
        shape = "rectangle"
        points: list[tuple[float, float]] | None = None
        width = float_attr(el, "width", 0.0)
        height = float_attr(el, "height", 0.0)
        if el.get("gid") is not None:
            raw_gid = int_attr(el, "gid", 0, p, where, layer=label) or 0
            if not 0 <= raw_gid <= 0xFFFFFFFF or (raw_gid & GID_MASK) not in self.tiles:
                p.add(
                    f"{where} shows tile gid {raw_gid & GID_MASK}, which is in no tileset",
                    self._unknown_gid_fix(),
                    layer=label,
                )
                raw_gid = 0
            else:
                shape = "tile"
                info = self.tiles[raw_gid & GID_MASK]
                if el.get("width") is None:
                    width = float(info.rect[2])
                if el.get("height") is None:
                    height = float(info.rect[3])
        elif el.find("ellipse") is not None:
            shape = "ellipse"
        elif el.find("point") is not None:
            shape = "point"
        elif el.find("text") is not None:
            shape = "text"
        else:
            for kind in ("polygon", "polyline"):
                poly = el.find(kind)
                if poly is not None:
                    shape = kind
                    points = []
                    text = poly.get("points") or ""
                    if text.count(",") > MAX_SHAPE_POINTS:
                        p.add(
                            f"{where} is a {kind} of {text.count(',')} points, more than {MAX_SHAPE_POINTS}",
                            "redraw the shape in Tiled with fewer points",
                            layer=label,
                        )
                        break
                    try:
                        for pair in text.split():
                            px, py = pair.split(",")
                            point = (x + float(px), y + float(py))
                            if not (math.isfinite(point[0]) and math.isfinite(point[1])):
                                raise ValueError(pair)
                            points.append(point)
                    except ValueError:
                        p.add(
                            f"{where} has unreadable {kind} points", "redraw the shape in Tiled", layer=label
                        )
                        points = []
                    break
        return MapObject(
            id=oid,
            name=el.get("name", ""),
            object_class=el.get("class", el.get("type", "")) or "",
            x=x,
            y=y,
            width=width,
            height=height,
            rotation=float_attr(el, "rotation", 0.0),
            raw_gid=raw_gid,
            points=points,
            shape=shape,
            visible=el.get("visible", "1") != "0",
            properties=parse_properties(el, p, where, layer=label),
        )
