"""The player's preferences: window, UI scale, animation speed, sound and key bindings.

Stored as JSON in ``platformdirs.user_config_dir("hexslinger")/settings.json`` (``HEXSLINGER_CONFIG_DIR``
overrides the folder, for tests and portable installs). Loading never raises or hangs. A path that is not
a regular file (a FIFO, a link to a device, a folder) is reported and left alone. A file larger than 1 MB,
not JSON, nested or numbered past :data:`SETTINGS_LIMITS`, not an object or with values of the wrong type
is moved aside to ``settings.json.bad`` and the load returns the defaults (plus every value that was fine)
with a message saying what was wrong. Unknown keys are ignored (a newer version's settings still load) and
numbers are clamped to their range. Writes are atomic: a temporary file in the same folder, fsynced,
renamed over the old one, the folder fsynced; temporary files left by killed writes are deleted on the
next write.

Key bindings map an action name to a pygame key name (``pygame.key.name``: ``"return"``, ``"f1"``,
``"a"``, ``"="``). This module does not import pygame; the UI passes a ``valid_key`` check when it loads.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

import platformdirs

from game.safeio import (
    FileRefusedError,
    JsonLimits,
    load_json,
    write_atomic,
)

CONFIG_ENV: Final = "HEXSLINGER_CONFIG_DIR"
FILE_NAME: Final = "settings.json"
BAD_SUFFIX: Final = ".bad"
FORMAT_VERSION: Final = 1

WINDOW_MIN: Final = (800, 600)
WINDOW_MAX: Final = (7680, 4320)
UI_SCALE_RANGE: Final = (0.75, 2.0)
ANIMATION_SPEED_RANGE: Final = (0.25, 4.0)
VOLUME_RANGE: Final = (0.0, 1.0)
# what a settings file may be: it is a few hundred bytes, two levels deep, of small numbers
SETTINGS_LIMITS: Final = JsonLimits(max_bytes=1024 * 1024, max_depth=16, max_containers=10_000, max_digits=40)

# Action name -> (what the settings screen calls it, default key). Order is the settings screen's order.
ACTIONS: Final[dict[str, tuple[str, str]]] = {
    "end_turn": ("End turn", "return"),
    "undo": ("Undo last move", "u"),
    "center_unit": ("Centre on unit", "space"),
    "pause": ("Pause menu", "escape"),
    "help": ("Rules & keys help", "f1"),
    "pan_left": ("Pan left", "a"),
    "pan_right": ("Pan right", "d"),
    "pan_up": ("Pan up", "w"),
    "pan_down": ("Pan down", "s"),
    "zoom_in": ("Zoom in", "="),
    "zoom_out": ("Zoom out", "-"),
    "zoom_reset": ("Reset zoom", "0"),
}


def default_bindings() -> dict[str, str]:
    return {action: key for action, (_label, key) in ACTIONS.items()}


@dataclass(slots=True)
class Prefs:
    window_size: tuple[int, int] = (1280, 720)
    fullscreen: bool = False
    ui_scale: float = 1.0
    animation_speed: float = 1.0
    volume: float = 0.8
    muted: bool = False
    key_bindings: dict[str, str] = field(default_factory=default_bindings)

    def copy(self) -> Prefs:
        return replace(self, key_bindings=dict(self.key_bindings))

    @property
    def effective_volume(self) -> float:
        """What the sounds play at: 0 when muted."""
        return 0.0 if self.muted else self.volume

    def to_json(self) -> dict[str, Any]:
        return {
            "version": FORMAT_VERSION,
            "window_size": list(self.window_size),
            "fullscreen": self.fullscreen,
            "ui_scale": self.ui_scale,
            "animation_speed": self.animation_speed,
            "volume": self.volume,
            "muted": self.muted,
            "key_bindings": dict(self.key_bindings),
        }

    def rebind(self, action: str, key: str) -> str | None:
        """Bind ``key`` to ``action``. An action that had the key gets ``action``'s old key (a swap), so no
        key is ever bound twice; returns that other action's name, or None."""
        if action not in ACTIONS:
            raise KeyError(action)
        old = self.key_bindings.get(action, ACTIONS[action][1])
        other = (
            next((a for a, k in self.key_bindings.items() if k == key and a != action), None) if key else None
        )
        self.key_bindings[action] = key
        if other is not None:
            self.key_bindings[other] = old
        return other


@dataclass(frozen=True, slots=True)
class LoadResult:
    prefs: Prefs
    message: str | None = None  # for the player, when the file could not be used as it was


def config_dir() -> Path:
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_config_dir("hexslinger", appauthor=False))


def settings_path() -> Path:
    return config_dir() / FILE_NAME


def _clamp(value: float, bounds: tuple[float, float]) -> float:
    return min(bounds[1], max(bounds[0], value))


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def prefs_from_json(
    data: Mapping[str, Any], valid_key: Callable[[str], bool] | None = None
) -> tuple[Prefs, list[str]]:
    """Prefs from a decoded settings object, and what was wrong with it (each wrong value -> default)."""
    prefs = Prefs()
    problems: list[str] = []

    size = data.get("window_size")
    if size is not None:
        if (
            isinstance(size, list)
            and len(size) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in size)
        ):
            prefs.window_size = (
                int(_clamp(size[0], (WINDOW_MIN[0], WINDOW_MAX[0]))),
                int(_clamp(size[1], (WINDOW_MIN[1], WINDOW_MAX[1]))),
            )
        else:
            problems.append(f"window_size should be [width, height] in whole pixels, not {size!r}")

    for name in ("fullscreen", "muted"):
        value = data.get(name)
        if value is None:
            continue
        if isinstance(value, bool):
            setattr(prefs, name, value)
        else:
            problems.append(f"{name} should be true or false, not {value!r}")

    ranges = {
        "ui_scale": UI_SCALE_RANGE,
        "animation_speed": ANIMATION_SPEED_RANGE,
        "volume": VOLUME_RANGE,
    }
    for name, bounds in ranges.items():
        value = data.get(name)
        if value is None:
            continue
        if _is_number(value):
            setattr(prefs, name, _clamp(float(value), bounds))
        else:
            problems.append(f"{name} should be a number from {bounds[0]:g} to {bounds[1]:g}, not {value!r}")

    bindings = data.get("key_bindings")
    if bindings is not None:
        if isinstance(bindings, dict):
            chosen: dict[str, str] = {}  # key -> the action the file binds it to
            for action, key in bindings.items():
                if action not in ACTIONS:
                    continue  # an action this version does not have
                if key == "":
                    prefs.key_bindings[action] = ""  # deliberately unbound
                elif not isinstance(key, str) or (valid_key is not None and not valid_key(key)):
                    problems.append(f"key_bindings.{action}: {key!r} is not a key name")
                elif key in chosen:
                    problems.append(f"key_bindings.{action}: {key!r} is bound to {chosen[key]} too")
                else:
                    prefs.key_bindings[action] = key
                    chosen[key] = action
            # A default the file did not override loses its key to an action the file gave it to.
            for action, key in prefs.key_bindings.items():
                if key in chosen and chosen[key] != action:
                    prefs.key_bindings[action] = ""
        else:
            problems.append(f"key_bindings should be an object of action: key name, not {bindings!r}")
    return prefs, problems


def load_prefs(path: Path | None = None, valid_key: Callable[[str], bool] | None = None) -> LoadResult:
    """The saved preferences, or the defaults. Never raises for anything the file contains.

    The file is read only if it is a regular file of at most :data:`SETTINGS_LIMITS` ``.max_bytes`` and
    parsed within those limits (:mod:`game.safeio`): a FIFO, a link to ``/dev/zero`` or a 5,000-digit
    number is a message and the defaults, never a hang or a traceback."""
    path = settings_path() if path is None else path
    try:
        data = load_json(path, SETTINGS_LIMITS, what="settings file")
    except FileRefusedError as error:
        if error.reason == "missing":
            return LoadResult(Prefs())
        reason = error.what.replace("the settings file", "it", 1)
        if error.reason in ("unreadable", "not_regular"):  # not moved aside: it may be the user's own
            return LoadResult(
                Prefs(), f"Could not read the settings file {path}: {reason}; using the defaults."
            )
        if error.reason in ("not_json", "cut_off", "empty"):
            reason = f"{reason} (not valid JSON)" if "valid JSON" not in reason else reason
        return _bad_file(path, Prefs(), [reason])
    if not isinstance(data, dict):
        return _bad_file(path, Prefs(), [f"it holds {type(data).__name__}, not an object of settings"])
    prefs, problems = prefs_from_json(data, valid_key)
    if problems:
        return _bad_file(path, prefs, problems)
    return LoadResult(prefs)


def _bad_file(path: Path, prefs: Prefs, problems: list[str]) -> LoadResult:
    bad = path.with_name(path.name + BAD_SUFFIX)
    kept = True
    try:
        path.replace(bad)
    except OSError:
        kept = False
    else:
        with contextlib.suppress(OSError):  # what was fine in it is kept; the rest is back to the defaults
            save_prefs(prefs, path)
    where = f"the file was kept as {bad}" if kept else f"the file could not be moved to {bad}"
    message = (
        f"The settings file {path} could not be used as it was: {'; '.join(problems)}. "
        f"Those settings are back to their defaults and {where}."
    )
    return LoadResult(prefs, message)


def save_prefs(prefs: Prefs, path: Path | None = None) -> Path:
    """Write atomically (temp file in the same folder, fsync, rename). Raises OSError if it cannot."""
    path = settings_path() if path is None else path
    text = json.dumps(prefs.to_json(), indent=2, sort_keys=True) + "\n"
    write_atomic(path, text.encode("utf-8"))
    return path
