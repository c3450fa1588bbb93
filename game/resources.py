"""Where the game's own data files are: the shipped maps and tilesets, the art, tokens, UI theme and bundled
serif font, and each ruleset's data table.

The repository keeps ``assets/`` and ``maps/`` at its top level; ``pyproject.toml`` installs them inside
the package as ``game.assets`` and ``game.maps`` (each folder holds an ``__init__.py`` so an editable
install maps them too). Everything here is found through :mod:`importlib.resources` from those packages,
never from the current directory or the checkout, so the same code works in a checkout
(``pip install -e .``), from a wheel, and under pipx.

pygame and pytmx open files by name, so every function returns a :class:`~pathlib.Path`; pip always
unpacks a wheel, so the installed data are plain files. (An import from a zip file would have no such
paths: :class:`ResourceError` says so rather than failing later on a file that cannot be opened.)
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Final

__all__ = [
    "ASSETS_PACKAGE",
    "MAPS_PACKAGE",
    "SERIF_FILES",
    "ResourceError",
    "asset",
    "assets_dir",
    "encounters_dir",
    "maps_dir",
    "rules_data_file",
    "serif_font",
    "shipped_map",
    "shipped_maps",
]

ASSETS_PACKAGE: Final = "game.assets"
MAPS_PACKAGE: Final = "game.maps"
ENCOUNTERS_PACKAGE: Final = "game.encounters"
# The UI's serif, bundled so the game looks and measures the same on every machine (assets/fonts/LICENSE).
SERIF_FILES: Final = {
    (False, False): "DejaVuSerif.ttf",
    (True, False): "DejaVuSerif-Bold.ttf",
    (False, True): "DejaVuSerif-Italic.ttf",
    (True, True): "DejaVuSerif-BoldItalic.ttf",
}


class ResourceError(RuntimeError):
    """The game's data files are missing or are not files on disk (a broken or zipped install)."""


def _folder(package: str) -> Path:
    try:
        root = files(package)
    except ModuleNotFoundError as error:
        raise ResourceError(
            f"Hexslinger's data package '{package}' is not installed ({error}); "
            "reinstall Hexslinger (pip install --force-reinstall hexslinger; in a checkout: pip install -e .)"
        ) from None
    if not isinstance(root, Path) or not root.is_dir():
        raise ResourceError(
            f"Hexslinger's data package '{package}' is not a folder on disk ({root!r}); "
            "install Hexslinger with pip or pipx, which unpack its files"
        )
    return root


def assets_dir() -> Path:
    """The art, tokens, UI theme and fonts (the repository's ``assets/``)."""
    return _folder(ASSETS_PACKAGE)


def asset(*parts: str) -> Path:
    """A file or folder under :func:`assets_dir`, e.g. ``asset("ui", "theme.json")``."""
    return assets_dir().joinpath(*parts)


def serif_font(*, bold: bool = False, italic: bool = False) -> Path:
    """The bundled serif font file (DejaVu Serif) in this style."""
    return asset("fonts", SERIF_FILES[(bold, italic)])


def maps_dir() -> Path:
    """The shipped maps and their tilesets (the repository's ``maps/``)."""
    return _folder(MAPS_PACKAGE)


def encounters_dir() -> Path:
    """The shipped encounter files (the repository's ``encounters/``, docs/GM.md)."""
    return _folder(ENCOUNTERS_PACKAGE)


def shipped_maps() -> list[Path]:
    """Every shipped map (``.tmx``), by file name."""
    return sorted(p for p in maps_dir().glob("*.tmx") if p.is_file())


def shipped_map(name: str) -> Path | None:
    """The shipped map called ``name`` (its file name, with or without ``.tmx``), or None."""
    stem = name[:-4] if name.lower().endswith(".tmx") else name
    return next((p for p in shipped_maps() if p.stem == stem), None)


def rules_data_file(ruleset: str) -> Path:
    """The data table of a ruleset that ships inside Hexslinger (``game/rules/<ruleset>/<ruleset>.toml``).

    No list of rulesets is kept here (the plugin registry has them): an id with no package under
    ``game.rules`` is a ValueError. A ruleset shipped as a package of its own finds its data itself."""
    if not ruleset.isidentifier():
        raise ValueError(f"unknown ruleset '{ruleset}' (a ruleset id is a Python name, e.g. frontier)")
    package = f"game.rules.{ruleset}"
    try:
        folder = _folder(package)
    except ResourceError:
        raise ValueError(f"unknown ruleset '{ruleset}' (no package {package} in Hexslinger)") from None
    return folder / f"{ruleset}.toml"
