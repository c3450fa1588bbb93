"""game.resources: the game's data found through importlib.resources, from any working directory."""

from __future__ import annotations

import importlib
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from game import resources
from game.engine import registry
from game.resources import (
    SERIF_FILES,
    ResourceError,
    asset,
    assets_dir,
    maps_dir,
    rules_data_file,
    serif_font,
    shipped_map,
    shipped_maps,
)

ROOT = Path(__file__).resolve().parent.parent


def test_in_the_checkout_the_data_are_the_top_level_folders() -> None:
    """The editable install (make test) maps game.assets and game.maps onto assets/ and maps/, so an
    edit to a map or a picture shows at once."""
    assert assets_dir() == ROOT / "assets"
    assert maps_dir() == ROOT / "maps"
    assert asset("ui", "theme.json") == ROOT / "assets" / "ui" / "theme.json"
    assert rules_data_file("frontier") == ROOT / "game" / "rules" / "frontier" / "frontier.toml"
    assert rules_data_file("rift") == ROOT / "game" / "rules" / "rift" / "rift.toml"


def test_the_data_are_found_from_any_working_directory(tmp_path: Path) -> None:
    code = (
        "from game import resources as r\n"
        "print(r.maps_dir()); print(r.assets_dir()); print(r.rules_data_file('rift'))\n"
        "print(len(r.shipped_maps()))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=True
    )
    maps, assets, rift, count = out.stdout.split("\n")[:4]
    assert (maps, assets, rift) == (
        str(ROOT / "maps"),
        str(ROOT / "assets"),
        str(ROOT / "game" / "rules" / "rift" / "rift.toml"),
    )
    assert int(count) == len(list((ROOT / "maps").glob("*.tmx"))) >= 3


def test_shipped_maps_are_every_tmx_by_name() -> None:
    maps = shipped_maps()
    assert [p.name for p in maps] == sorted(p.name for p in (ROOT / "maps").glob("*.tmx"))
    assert shipped_map("ranch_duel") == ROOT / "maps" / "ranch_duel.tmx"
    assert shipped_map("ranch_duel.tmx") == ROOT / "maps" / "ranch_duel.tmx"
    assert shipped_map("ranch") is None
    assert shipped_map("terrain_pointy") is None  # a tileset is not a map


def test_every_tileset_picture_is_found_beside_the_maps_as_installed() -> None:
    """The tilesets name their pictures as ../assets/tiles/...: the package keeps maps and assets side by
    side (game/maps, game/assets) exactly as the checkout does."""
    for tsx in sorted(maps_dir().glob("*.tsx")):
        text = tsx.read_text(encoding="utf-8")
        source = text.split('<image source="', 1)[1].split('"', 1)[0]
        assert source.startswith("../assets/tiles/"), (tsx.name, source)
        assert (maps_dir() / source).resolve() == (assets_dir() / "tiles" / Path(source).name).resolve()
        assert (assets_dir() / "tiles" / Path(source).name).is_file()


def test_the_rules_data_are_known_by_ruleset() -> None:
    for ruleset in registry.ruleset_ids():
        assert rules_data_file(ruleset).is_file()
    with pytest.raises(ValueError, match="unknown ruleset 'poker'"):
        rules_data_file("poker")


def test_the_bundled_serif_has_four_styles_and_its_licence() -> None:
    files = {style: serif_font(bold=style[0], italic=style[1]) for style in SERIF_FILES}
    assert len(set(files.values())) == 4
    for path in files.values():
        assert path.parent == assets_dir() / "fonts"
        assert path.read_bytes()[:4] == b"\x00\x01\x00\x00"  # a TrueType font
    licence = (assets_dir() / "fonts" / "LICENSE").read_text(encoding="utf-8")
    assert "Bitstream Vera Fonts Copyright" in licence and "DejaVu changes are in public domain" in licence


def test_a_missing_data_package_is_a_clear_error() -> None:
    with pytest.raises(ResourceError, match=r"'game\.nowhere' is not installed.*reinstall"):
        resources._folder("game.nowhere")


def test_data_that_are_not_files_on_disk_are_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Imported from a zip file, a package's data have no file names pygame could open."""
    archive = tmp_path / "zipped.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("zipped_data/__init__.py", "")
        z.writestr("zipped_data/a.tmx", "<map/>")
    monkeypatch.syspath_prepend(str(archive))
    importlib.invalidate_caches()
    try:
        with pytest.raises(ResourceError, match=r"is not a folder on disk.*pip or pipx"):
            resources._folder("zipped_data")
    finally:
        sys.modules.pop("zipped_data", None)
