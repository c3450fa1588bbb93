"""Loading a ``.tmx``: the file checked and parsed, the map header turned into the hex geometry, then the
tilesets and layers read (:mod:`~game.tiledmap.tilesets`, :mod:`~game.tiledmap.layers`);
:func:`load_tiled_map` raises nothing but :class:`~game.tiledmap.problems.MapLoadError`.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from xml.etree import ElementTree

from game.hexgrid import StaggerAxis, StaggerIndex, TiledHexGeometry
from game.safeio import FileRefusedError
from game.tiledmap.layers import LayerReader
from game.tiledmap.model import TiledMap
from game.tiledmap.problems import MapLoadError, MapProblem
from game.tiledmap.reading import (
    MAX_LAYER_CELLS,
    MAX_MAP_SIDE,
    MAX_TILE_SIZE,
    MAX_TILESETS,
    int_attr,
    is_folder,
    parse_properties,
)
from game.tiledmap.tilesets import TilesetReader

__all__ = ["load_tiled_map"]


class _Loader(TilesetReader, LayerReader):
    """One map being loaded (see the module text)."""

    # -- whole map
    def load(self) -> TiledMap:
        p = self.problems
        path = self.path
        suffix = path.suffix.lower()
        if suffix in (".tmj", ".json"):
            p.add(
                "this is a JSON map; Hexslinger reads only .tmx maps",
                "in Tiled: File > Save As..., choose 'Tiled map files (*.tmx)', and set "
                "Map > Map Properties > Tile Layer Format to CSV or Base64 (zlib compressed)",
            )
            raise MapLoadError(p.items)
        try:
            data = self._read(path, "map")
        except FileRefusedError as error:
            if error.reason == "missing":
                p.add("the map file does not exist", "check the path and the file name (maps end in .tmx)")
            elif error.reason == "not_regular" and is_folder(path):
                p.add("this is a folder, not a map file", "give the path of a .tmx file")
            else:
                p.add(error.what, error.fix)
            raise MapLoadError(p.items) from None
        file_hash = hashlib.sha256(data).hexdigest()
        root = self._parse_xml(data, str(path), "map")
        if root.tag != "map":
            fix = (
                "open the map (.tmx), not a tileset"
                if root.tag == "tileset"
                else "give the path of a .tmx map"
            )
            p.add(f"this is not a Tiled map (the document is <{root.tag}>, not <map>)", fix)
            raise MapLoadError(p.items)
        geometry, width, height = self._map_header(root)
        properties = parse_properties(root, p, "map")
        tilesets = root.findall("tileset")
        if len(tilesets) > MAX_TILESETS:  # 100,000 references to one .tsx took minutes to read
            p.add(
                f"the map has {len(tilesets)} tilesets, more than the limit of {MAX_TILESETS}",
                "remove the tilesets the map does not use (in Tiled's Tilesets panel)",
            )
            raise MapLoadError(p.items)
        for ts in tilesets:
            self._tileset(ts)
        self.ranges.sort(key=lambda r: r.firstgid)
        self._layers(root, (0.0, 0.0), 1.0, True, None, width, height, "")
        if p or geometry is None:
            raise MapLoadError(p.items)
        background = root.get("backgroundcolor")
        return TiledMap(
            path=path,
            width=width,
            height=height,
            geometry=geometry,
            layers=self.layers,
            tiles=self.tiles,
            properties=properties,
            background=background,
            file_hash=file_hash,
        )

    def _map_header(self, root: ElementTree.Element) -> tuple[TiledHexGeometry | None, int, int]:
        p = self.problems
        orientation = root.get("orientation", "orthogonal")
        if orientation != "hexagonal":
            p.add(
                f"the map orientation is '{orientation}', not hexagonal",
                "make a new map in Tiled with Orientation: Hexagonal and copy the layers over "
                "(Tiled cannot convert an existing map's orientation in place)",
            )
        if root.get("infinite", "0") == "1":
            p.add(
                "the map is infinite; Hexslinger needs a fixed-size map",
                "in Tiled: Map > Map Properties, untick 'Infinite', then Map > Resize Map as needed",
            )
        w = int_attr(root, "width", None, p, "the map")
        h = int_attr(root, "height", None, p, "the map")
        tw = int_attr(root, "tilewidth", None, p, "the map")
        th = int_attr(root, "tileheight", None, p, "the map")
        side = int_attr(root, "hexsidelength", 0, p, "the map") or 0
        size_ok = (
            w is not None
            and h is not None
            and 1 <= w <= MAX_MAP_SIDE
            and 1 <= h <= MAX_MAP_SIDE
            and w * h <= MAX_LAYER_CELLS
        )
        if w is not None and h is not None and not size_ok:
            p.add(
                f"the map size {w}x{h} is invalid",
                f"resize the map (Map > Resize Map) to between 1x1 and {MAX_MAP_SIDE}x{MAX_MAP_SIDE}, "
                f"at most {MAX_LAYER_CELLS} cells",
            )
        # a size that is missing or unreadable on one side is no size: never 0 x 10**19 cells to allocate
        width, height = (w, h) if size_ok and w is not None and h is not None else (0, 0)
        tile_ok = tw is not None and th is not None and 1 <= tw <= MAX_TILE_SIZE and 1 <= th <= MAX_TILE_SIZE
        if tw is not None and th is not None and not tile_ok:
            p.add(
                f"the tile size {tw}x{th} is invalid",
                "set Tile Width/Height in Map > Map Properties (Hexslinger's tilesets: 64x74 pointy-top or "
                "74x64 flat-top, Hex Side Length 37)",
            )
        axis_text = root.get("staggeraxis", "y")
        index_text = root.get("staggerindex", "odd")
        if axis_text not in ("x", "y"):
            p.add(f"staggeraxis '{axis_text}' is not x or y", "set Stagger Axis in Map > Map Properties")
        if index_text not in ("odd", "even"):
            p.add(
                f"staggerindex '{index_text}' is not odd or even", "set Stagger Index in Map > Map Properties"
            )
        if (
            orientation != "hexagonal"
            or not tile_ok
            or axis_text not in ("x", "y")
            or index_text
            not in (
                "odd",
                "even",
            )
        ):
            return None, width, height
        assert tw is not None and th is not None
        self.map_tile_size = (tw, th)
        along = th if axis_text == "y" else tw
        if not 0 <= side <= along:
            p.add(
                f"the hex layout is invalid: hexsidelength {side} does not fit tiles of {tw}x{th}",
                "in Map > Map Properties use a Hex Side Length between 0 and the tile "
                f"{'height' if axis_text == 'y' else 'width'} (Hexslinger: 37 with 64x74 or 74x64 tiles)",
            )
            return None, width, height
        try:
            geometry = TiledHexGeometry.create(tw, th, side, StaggerAxis(axis_text), StaggerIndex(index_text))
        except ValueError as error:
            p.add(
                f"the hex layout is invalid: {error}",
                "in Map > Map Properties use Hex Side Length smaller than the tile size along the stagger "
                "axis (Hexslinger: 37 with 64x74 or 74x64 tiles)",
            )
            return None, width, height
        return geometry, width, height


def load_tiled_map(path: str | Path, *, require_images: bool = True) -> TiledMap:
    """Load a hexagonal ``.tmx``; raises :class:`MapLoadError` listing every problem found.

    ``require_images=False`` accepts missing image files (``TileInfo.image`` is then None): enough for
    the rules, which never look at pictures.
    """
    file = Path(path)
    try:
        return _Loader(file, require_images).load()
    except MapLoadError:
        raise
    except (RecursionError, MemoryError) as error:  # pragma: no cover - defensive
        raise MapLoadError(
            [
                MapProblem(
                    str(file),
                    f"the map is too large or too deeply nested ({type(error).__name__})",
                    "simplify it",
                )
            ]
        ) from None
    except Exception as error:  # pragma: no cover - a bug here must still not become a traceback for a GM
        raise MapLoadError(
            [
                MapProblem(
                    str(file),
                    f"the map could not be read ({type(error).__name__}: {error})",
                    "re-save it from Tiled; if that does not help, report the map to Hexslinger's developers",
                )
            ]
        ) from error
