"""Synthesised sound effects: real, distinct buffers; volume and mute respected; silent without a mixer."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from game.ui.sound import SAMPLE_RATE, SOUND_NAMES, SoundBank, synthesize, synthesize_all


@pytest.fixture
def mixer_bank() -> Iterator[SoundBank]:
    """A bank on a real mixer opened with SDL's dummy audio driver (plays into nothing)."""
    bank = SoundBank(0.6, False, open_mixer=True)
    if not bank.available:
        bank.close()
        pytest.skip("pygame.mixer cannot open even with the dummy audio driver here")
    yield bank
    bank.close()


def test_every_effect_is_a_short_non_silent_buffer() -> None:
    buffers = synthesize_all()
    assert set(buffers) == set(SOUND_NAMES) == {"gunshot", "hit", "card", "click", "dice"}
    for name, samples in buffers.items():
        assert samples.typecode == "h"
        assert 0.02 * SAMPLE_RATE < len(samples) < 1.0 * SAMPLE_RATE, name
        assert max(abs(s) for s in samples) > 8000, name  # clearly audible
        assert samples[-1] == 0, name  # faded out: no click at the end


def test_the_effects_differ_from_each_other() -> None:
    buffers = synthesize_all()
    assert len({bytes(b) for b in buffers.values()}) == len(buffers)
    assert len({len(b) for b in buffers.values()}) == len(buffers)


def test_synthesis_is_deterministic() -> None:
    assert synthesize("dice") == synthesize("dice")
    assert synthesize("gunshot") == synthesize("gunshot")


def test_the_dummy_audio_driver_means_no_sound_and_no_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    bank = SoundBank()
    assert not bank.available
    for name in SOUND_NAMES:
        assert bank.play(name) is False
    bank.set_volume(1.0, False)
    assert bank.play("gunshot") is False
    bank.close()
    assert set(bank.buffers) == set(SOUND_NAMES)  # the effects are still made


def test_a_mixer_that_cannot_open_is_a_silent_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_device(*args: object, **kwargs: object) -> None:
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    bank = SoundBank(open_mixer=True)
    assert not bank.available
    assert bank.play("hit") is False
    bank.close()


def test_never_opening_the_mixer_is_honoured() -> None:
    bank = SoundBank(open_mixer=False)
    assert not bank.available
    assert bank.play("click") is False


def test_unknown_effects_are_a_programming_error() -> None:
    bank = SoundBank(open_mixer=False)
    with pytest.raises(KeyError):
        bank.play("trumpet")


def test_effects_play_at_the_players_volume(mixer_bank: SoundBank) -> None:
    assert mixer_bank.play("gunshot") is True
    assert mixer_bank.last_channel is not None
    assert mixer_bank.last_channel.get_volume() == pytest.approx(0.6, abs=1 / 64)
    mixer_bank.set_volume(0.25, False)
    assert mixer_bank.play("card") is True
    assert mixer_bank.last_channel is not None
    assert mixer_bank.last_channel.get_volume() == pytest.approx(0.25, abs=1 / 64)


def test_volume_zero_and_mute_play_nothing(mixer_bank: SoundBank) -> None:
    mixer_bank.set_volume(0.0, False)
    assert mixer_bank.play("gunshot") is False
    assert mixer_bank.last_channel is None
    mixer_bank.set_volume(0.9, True)
    assert mixer_bank.effective_volume == 0.0
    for name in SOUND_NAMES:
        assert mixer_bank.play(name) is False
    mixer_bank.set_volume(0.9, False)
    assert mixer_bank.play("dice") is True


def test_a_preview_volume_overrides_once(mixer_bank: SoundBank) -> None:
    mixer_bank.set_volume(0.8, True)
    assert mixer_bank.play("gunshot", volume=0.5) is True  # the settings screen's "try a sound"
    assert mixer_bank.last_channel is not None
    assert mixer_bank.last_channel.get_volume() == pytest.approx(0.5, abs=1 / 64)
    assert mixer_bank.play("gunshot") is False  # still muted
    assert mixer_bank.play("gunshot", volume=0.0) is False
