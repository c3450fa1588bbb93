"""Preferences: defaults, JSON round trip, atomic writes, and files that are broken in every way."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.ui import prefs as prefs_module
from game.ui.prefs import (
    ACTIONS,
    ANIMATION_SPEED_RANGE,
    UI_SCALE_RANGE,
    WINDOW_MAX,
    WINDOW_MIN,
    Prefs,
    default_bindings,
    load_prefs,
    save_prefs,
    settings_path,
)


def test_the_settings_file_lives_in_the_overridden_config_dir(config_dir: Path) -> None:
    assert settings_path() == config_dir / "settings.json"


def test_without_the_override_it_is_the_platform_config_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    import platformdirs

    monkeypatch.delenv(prefs_module.CONFIG_ENV)
    assert (
        settings_path() == Path(platformdirs.user_config_dir("hexslinger", appauthor=False)) / "settings.json"
    )


def test_no_file_gives_the_defaults_without_a_message() -> None:
    result = load_prefs()
    assert result.prefs == Prefs()
    assert result.message is None


def test_defaults_bind_every_action_to_a_different_key() -> None:
    bindings = default_bindings()
    assert set(bindings) == set(ACTIONS)
    assert len(set(bindings.values())) == len(bindings)
    assert bindings["help"] == "f1"
    assert {"end_turn", "undo", "center_unit", "pause", "pan_left", "zoom_in"} <= set(bindings)


def test_save_then_load_round_trips(config_dir: Path) -> None:
    prefs = Prefs(
        window_size=(1600, 900),
        fullscreen=True,
        ui_scale=1.25,
        animation_speed=2.0,
        volume=0.3,
        muted=True,
    )
    prefs.rebind("end_turn", "e")
    path = save_prefs(prefs)
    assert path == config_dir / "settings.json"
    assert json.loads(path.read_text())["key_bindings"]["end_turn"] == "e"
    result = load_prefs()
    assert result.message is None
    assert result.prefs == prefs


def test_writes_are_atomic_and_leave_no_temporary_files(
    config_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_prefs(Prefs(volume=0.5))
    original = (config_dir / "settings.json").read_text()
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(prefs_module.os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])

    def broken_sync(fd: int) -> None:  # the disk refuses the new file half way
        raise OSError("disk full")

    monkeypatch.setattr(prefs_module.os, "fsync", broken_sync)
    with pytest.raises(OSError, match="disk full"):
        save_prefs(Prefs(volume=0.9))
    assert (config_dir / "settings.json").read_text() == original  # the old file is untouched
    assert sorted(p.name for p in config_dir.iterdir()) == ["settings.json"]
    monkeypatch.undo()
    monkeypatch.setenv(prefs_module.CONFIG_ENV, str(config_dir))
    monkeypatch.setattr(prefs_module.os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    save_prefs(Prefs(volume=0.9))
    assert synced, "the new file is fsynced before it replaces the old one"
    assert load_prefs().prefs.volume == 0.9
    assert sorted(p.name for p in config_dir.iterdir()) == ["settings.json"]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("{not json", "not valid JSON"),
        ("", "not valid JSON"),
        ("[1, 2, 3]", "list, not an object"),
        ('"volume"', "str, not an object"),
        ("null", "NoneType, not an object"),
    ],
)
def test_a_corrupt_file_gives_defaults_and_is_kept_as_bad(config_dir: Path, text: str, why: str) -> None:
    config_dir.mkdir()
    path = config_dir / "settings.json"
    path.write_text(text)
    result = load_prefs()
    assert result.prefs == Prefs()
    assert result.message is not None
    assert why in result.message
    assert "settings.json.bad" in result.message
    assert (config_dir / "settings.json.bad").read_text() == text
    # The repaired file loads quietly next time.
    again = load_prefs()
    assert again.message is None
    assert again.prefs == Prefs()


def test_binary_garbage_is_a_bad_file_too(config_dir: Path) -> None:
    config_dir.mkdir()
    (config_dir / "settings.json").write_bytes(b"\xff\xfe\x00garbage")
    result = load_prefs()
    assert result.prefs == Prefs()
    assert result.message is not None and "UTF-8" in result.message
    assert (config_dir / "settings.json.bad").exists()


def test_wrong_types_fall_back_one_by_one_and_the_rest_is_kept(config_dir: Path) -> None:
    config_dir.mkdir()
    data = {
        "window_size": "big",
        "fullscreen": "yes",
        "ui_scale": 1.5,
        "animation_speed": [2],
        "volume": True,
        "muted": 1,
        "key_bindings": {"end_turn": 13, "undo": "z", "help": ""},
    }
    (config_dir / "settings.json").write_text(json.dumps(data))
    result = load_prefs()
    p = result.prefs
    assert p.window_size == Prefs().window_size
    assert p.fullscreen is False
    assert p.ui_scale == 1.5  # fine, kept
    assert p.animation_speed == 1.0
    assert p.volume == Prefs().volume
    assert p.muted is False
    assert p.key_bindings["undo"] == "z"  # fine, kept
    assert p.key_bindings["help"] == ""  # deliberately unbound is allowed
    assert p.key_bindings["end_turn"] == "return"
    message = result.message or ""
    for name in ("window_size", "fullscreen", "animation_speed", "volume", "muted", "key_bindings.end_turn"):
        assert name in message
    assert "ui_scale" not in message
    assert "settings.json.bad" in message
    assert json.loads((config_dir / "settings.json.bad").read_text()) == data
    assert load_prefs().prefs == p  # what was fine was written back


def test_unknown_keys_are_ignored_quietly(config_dir: Path) -> None:
    config_dir.mkdir()
    (config_dir / "settings.json").write_text(
        json.dumps({"volume": 0.4, "colour_scheme": "sepia", "key_bindings": {"fly": "f", "undo": "z"}})
    )
    result = load_prefs()
    assert result.message is None
    assert result.prefs.volume == 0.4
    assert result.prefs.key_bindings["undo"] == "z"
    assert "fly" not in result.prefs.key_bindings
    assert not (config_dir / "settings.json.bad").exists()


def test_values_are_clamped_to_their_range(config_dir: Path) -> None:
    config_dir.mkdir()
    (config_dir / "settings.json").write_text(
        json.dumps({"window_size": [10, 99999], "ui_scale": 9, "animation_speed": 0, "volume": -3})
    )
    result = load_prefs()
    assert result.message is None
    assert result.prefs.window_size == (WINDOW_MIN[0], WINDOW_MAX[1])
    assert result.prefs.ui_scale == UI_SCALE_RANGE[1]
    assert result.prefs.animation_speed == ANIMATION_SPEED_RANGE[0]
    assert result.prefs.volume == 0.0


def test_key_names_are_checked_when_a_checker_is_given(config_dir: Path) -> None:
    config_dir.mkdir()
    (config_dir / "settings.json").write_text(json.dumps({"key_bindings": {"undo": "nonsense-key"}}))
    result = load_prefs(valid_key=lambda name: name != "nonsense-key")
    assert result.prefs.key_bindings["undo"] == "u"
    assert "nonsense-key" in (result.message or "")


def test_a_key_bound_twice_in_the_file_keeps_the_first(config_dir: Path) -> None:
    config_dir.mkdir()
    (config_dir / "settings.json").write_text(json.dumps({"key_bindings": {"undo": "x", "end_turn": "x"}}))
    result = load_prefs()
    assert result.prefs.key_bindings["undo"] == "x"
    assert result.prefs.key_bindings["end_turn"] == "return"
    assert "bound to undo too" in (result.message or "")


def test_a_file_binding_takes_a_default_key_away_from_its_action(config_dir: Path) -> None:
    config_dir.mkdir()
    (config_dir / "settings.json").write_text(json.dumps({"key_bindings": {"zoom_reset": "a"}}))
    result = load_prefs()
    assert result.message is None
    assert result.prefs.key_bindings["zoom_reset"] == "a"
    assert result.prefs.key_bindings["pan_left"] == ""  # no key is bound twice


def test_rebind_swaps_with_the_action_that_had_the_key() -> None:
    prefs = Prefs()
    assert prefs.rebind("undo", "a") == "pan_left"
    assert prefs.key_bindings["undo"] == "a"
    assert prefs.key_bindings["pan_left"] == "u"
    assert prefs.rebind("undo", "z") is None
    with pytest.raises(KeyError):
        prefs.rebind("fly", "f")


def test_an_unreadable_file_is_reported_not_raised(config_dir: Path) -> None:
    config_dir.mkdir()
    (config_dir / "settings.json").mkdir()  # a folder where the file should be
    result = load_prefs()
    assert result.prefs == Prefs()
    assert result.message is not None and "Could not read" in result.message


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=12,
)
settings_like = st.dictionaries(
    st.sampled_from(
        ["window_size", "fullscreen", "ui_scale", "animation_speed", "volume", "muted", "key_bindings", "x"]
    ),
    json_values
    | st.dictionaries(st.sampled_from([*ACTIONS, "nope"]), json_values, max_size=4)
    | st.lists(st.integers(), min_size=2, max_size=2),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(json_values, settings_like))
def test_any_json_loads_without_raising_and_gives_valid_prefs(config_dir: Path, data: object) -> None:
    config_dir.mkdir(exist_ok=True)
    for leftover in config_dir.iterdir():
        leftover.unlink()
    (config_dir / "settings.json").write_text(json.dumps(data))
    p = load_prefs().prefs
    assert WINDOW_MIN[0] <= p.window_size[0] <= WINDOW_MAX[0]
    assert WINDOW_MIN[1] <= p.window_size[1] <= WINDOW_MAX[1]
    assert UI_SCALE_RANGE[0] <= p.ui_scale <= UI_SCALE_RANGE[1]
    assert ANIMATION_SPEED_RANGE[0] <= p.animation_speed <= ANIMATION_SPEED_RANGE[1]
    assert 0.0 <= p.volume <= 1.0
    assert isinstance(p.fullscreen, bool) and isinstance(p.muted, bool)
    assert set(p.key_bindings) == set(ACTIONS)
    bound = [k for k in p.key_bindings.values() if k]
    assert len(bound) == len(set(bound))
    assert load_prefs().message is None  # whatever was there, the file is usable now
