"""Short sound effects synthesised at startup from math (no sound files in the repository).

Each effect is a few tenths of a second of 16-bit mono samples built from damped sines, filtered noise and
envelopes with the standard library only (``array``, ``math`` and a seeded ``random.Random``, so the same
samples every run). :class:`SoundBank` plays them through ``pygame.mixer`` at the player's volume. When no
mixer can be opened — no audio device, SDL's ``dummy`` or ``disk`` audio driver, pygame built without
SDL_mixer — the bank is silent and every call is a cheap no-op, so the game never fails for want of sound.
"""

from __future__ import annotations

import contextlib
import math
import os
import random
from array import array
from collections.abc import Callable
from typing import Final

import pygame

SAMPLE_RATE: Final = 22050
SOUND_NAMES: Final = ("gunshot", "hit", "card", "click", "dice")
# Audio drivers that mean "no speakers": the bank stays closed (``disk`` would even write a file).
SILENT_DRIVERS: Final = frozenset({"dummy", "disk", "diskaudio"})
_PEAK: Final = 32767


class _Synth:
    """A mono float buffer with the few operations the effects are made of."""

    def __init__(self, rate: int, seconds: float, seed: int) -> None:
        self.rate = rate
        self.samples = [0.0] * max(1, round(rate * seconds))
        self.rng = random.Random(seed)

    def __len__(self) -> int:
        return len(self.samples)

    def noise(self, start: float, seconds: float, tau: float, gain: float, smooth: float = 1.0) -> None:
        """Exponentially decaying noise; ``smooth`` < 1 low-passes it (one-pole, coefficient ``smooth``)."""
        first = round(start * self.rate)
        count = min(len(self) - first, round(seconds * self.rate))
        level = 0.0
        for i in range(max(0, count)):
            level += smooth * (self.rng.uniform(-1.0, 1.0) - level)
            self.samples[first + i] += gain * level * math.exp(-i / (tau * self.rate))

    def tone(
        self,
        start: float,
        seconds: float,
        freq_from: float,
        freq_to: float,
        *,
        tau: float,
        gain: float,
        attack: float = 0.0005,
    ) -> None:
        """A sine gliding exponentially from ``freq_from`` to ``freq_to``, with a short attack and a decay."""
        first = round(start * self.rate)
        count = min(len(self) - first, round(seconds * self.rate))
        phase = 0.0
        attack_n = max(1.0, attack * self.rate)
        for i in range(max(0, count)):
            t = i / max(1, count - 1)
            freq = freq_from * (freq_to / freq_from) ** t
            phase += 2 * math.pi * freq / self.rate
            envelope = min(1.0, i / attack_n) * math.exp(-i / (tau * self.rate))
            self.samples[first + i] += gain * math.sin(phase) * envelope

    def highpass(self, amount: float) -> None:
        """Remove the low end (subtract a one-pole low-pass with coefficient ``amount``)."""
        low = 0.0
        for i, x in enumerate(self.samples):
            low += amount * (x - low)
            self.samples[i] = x - low

    def lowpass(self, amount: float) -> None:
        y = 0.0
        for i, x in enumerate(self.samples):
            y += amount * (x - y)
            self.samples[i] = y

    def echo(self, delay: float, gain: float) -> None:
        """Add a delayed, softened copy (a canyon wall answering)."""
        offset = round(delay * self.rate)
        source = self.samples[:]
        y = 0.0
        for i in range(offset, len(self)):
            y += 0.25 * (source[i - offset] - y)
            self.samples[i] += gain * y

    def finish(self, peak: float, drive: float = 1.0) -> array[int]:
        """Soft-clip (``tanh`` with ``drive``), normalise to ``peak`` of full scale, fade the last 5 ms."""
        shaped = [math.tanh(drive * x) for x in self.samples]
        top = max((abs(x) for x in shaped), default=0.0) or 1.0
        fade = max(1, round(0.005 * self.rate))
        out = array("h", [0] * len(shaped))
        for i, x in enumerate(shaped):
            tail = min(1.0, (len(shaped) - 1 - i) / fade)
            out[i] = max(-_PEAK, min(_PEAK, round(x / top * peak * tail * _PEAK)))
        return out


def _gunshot(rate: int) -> array[int]:
    s = _Synth(rate, 0.75, seed=1873)
    s.noise(0.0, 0.05, tau=0.006, gain=1.0)  # the crack
    s.noise(0.0, 0.45, tau=0.07, gain=0.9, smooth=0.18)  # the blast
    s.tone(0.0, 0.35, 140, 45, tau=0.09, gain=0.9)  # the boom
    s.echo(0.12, 0.35)
    s.echo(0.27, 0.18)
    return s.finish(0.92, drive=2.2)


def _hit(rate: int) -> array[int]:
    s = _Synth(rate, 0.28, seed=4)
    s.tone(0.0, 0.28, 110, 42, tau=0.07, gain=1.0, attack=0.002)
    s.noise(0.0, 0.08, tau=0.018, gain=0.7, smooth=0.06)
    return s.finish(0.85, drive=1.8)


def _card(rate: int) -> array[int]:
    s = _Synth(rate, 0.14, seed=52)
    s.noise(0.0, 0.06, tau=0.012, gain=1.0, smooth=0.8)  # the flick off the deck
    s.noise(0.045, 0.04, tau=0.006, gain=0.6, smooth=0.5)  # landing on the table
    s.highpass(0.08)
    s.lowpass(0.6)
    return s.finish(0.6)


def _click(rate: int) -> array[int]:
    s = _Synth(rate, 0.06, seed=7)
    s.tone(0.0, 0.06, 1400, 1250, tau=0.006, gain=0.8, attack=0.0002)
    s.tone(0.0, 0.06, 2900, 2700, tau=0.003, gain=0.4, attack=0.0002)
    s.noise(0.0, 0.004, tau=0.001, gain=0.5)
    return s.finish(0.45)


def _dice(rate: int) -> array[int]:
    s = _Synth(rate, 0.62, seed=6)
    t = 0.0
    gain = 1.0
    for _ in range(10):
        freq = s.rng.uniform(1700, 3600)
        s.tone(t, 0.03, freq, freq * 0.97, tau=0.004, gain=0.7 * gain, attack=0.0002)
        s.noise(t, 0.015, tau=0.002, gain=0.5 * gain, smooth=0.7)
        t += s.rng.uniform(0.025, 0.06) * (1.0 + t * 1.5)  # the bounces slow down
        gain *= 0.84
        if t > 0.58:
            break
    s.noise(0.0, 0.55, tau=0.2, gain=0.12, smooth=0.1)  # rolling on the felt
    return s.finish(0.6)


_SYNTHS: Final[dict[str, Callable[[int], array[int]]]] = {
    "gunshot": _gunshot,
    "hit": _hit,
    "card": _card,
    "click": _click,
    "dice": _dice,
}


def synthesize(name: str, rate: int = SAMPLE_RATE) -> array[int]:
    """One effect as signed 16-bit mono samples at ``rate`` Hz."""
    return _SYNTHS[name](rate)


def synthesize_all(rate: int = SAMPLE_RATE) -> dict[str, array[int]]:
    return {name: synthesize(name, rate) for name in SOUND_NAMES}


def _interleave(mono: array[int], channels: int) -> bytes:
    if channels == 1:
        return mono.tobytes()
    out = array("h", [0]) * (len(mono) * channels)
    for c in range(channels):
        out[c::channels] = mono
    return out.tobytes()


class SoundBank:
    """The effects, ready to play at the player's volume; silent (never failing) without a mixer.

    ``open_mixer``: None opens the mixer unless SDL's audio driver is one of :data:`SILENT_DRIVERS`;
    True tries regardless (tests use it with the dummy driver); False never opens it.
    """

    def __init__(self, volume: float = 0.8, muted: bool = False, *, open_mixer: bool | None = None) -> None:
        self.volume = min(1.0, max(0.0, volume))
        self.muted = muted
        self.rate = SAMPLE_RATE
        self._owns_mixer = False
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self.last_channel: pygame.mixer.Channel | None = None  # where the last effect played (tests)
        # why no effect can play, in a player's words ("" while they can): the settings screen says it
        self.problem = ""
        channels = self._open(open_mixer)
        self.buffers = synthesize_all(self.rate)
        if channels:
            try:
                for name, mono in self.buffers.items():
                    self._sounds[name] = pygame.mixer.Sound(buffer=_interleave(mono, channels))
            except (pygame.error, ValueError) as error:
                self._sounds = {}
                self.problem = f"the sound device refused the effects ({error})"

    def _open(self, open_mixer: bool | None) -> int:
        """Open (or adopt) the mixer; the channel count, or 0 when there is none to play on."""
        if open_mixer is False:
            self.problem = "sound is switched off for this run"
            return 0
        driver = os.environ.get("SDL_AUDIODRIVER", "").lower()
        if open_mixer is None and driver in SILENT_DRIVERS:
            self.problem = f"sound is off (SDL_AUDIODRIVER={driver})"
            return 0
        try:
            if pygame.mixer.get_init() is None:
                pygame.mixer.init(frequency=SAMPLE_RATE, size=-16, channels=2, buffer=512, allowedchanges=0)
                self._owns_mixer = True
            init = pygame.mixer.get_init()
        except (pygame.error, NotImplementedError, AttributeError, OSError) as error:
            self.problem = f"no sound device could be opened ({error})"
            return 0
        if init is None:
            self.problem = "no sound device could be opened"
            return 0
        freq, size, channels = init
        if size != -16 or channels not in (1, 2):
            # someone else opened it in a format these buffers are not made for
            self.problem = f"the sound device is open in a format the effects do not fit ({size}, {channels})"
            return 0
        self.rate = freq
        return channels

    @property
    def available(self) -> bool:
        """True when the effects really reach a mixer."""
        return bool(self._sounds)

    @property
    def effective_volume(self) -> float:
        return 0.0 if self.muted else self.volume

    def set_volume(self, volume: float, muted: bool) -> None:
        self.volume = min(1.0, max(0.0, volume))
        self.muted = muted

    def play(self, name: str, volume: float | None = None) -> bool:
        """Play an effect at the player's volume (or at ``volume``, for a preview in the settings).

        Returns False when nothing was played: muted or volume 0, or no mixer. The volume is set on the
        channel that plays it, so a preview does not change what the next effect plays at.
        """
        if name not in _SYNTHS:
            raise KeyError(name)
        level = self.effective_volume if volume is None else min(1.0, max(0.0, volume))
        sound = self._sounds.get(name)
        self.last_channel = None
        if sound is None or level <= 0.0:
            return False
        try:
            channel = sound.play()
        except pygame.error:
            return False
        if channel is None:  # every channel busy
            return False
        channel.set_volume(level)
        self.last_channel = channel
        return True

    def close(self) -> None:
        for sound in self._sounds.values():
            sound.stop()
        if self._sounds:
            self.problem = "the sound device was closed"
        self._sounds = {}
        if self._owns_mixer:
            with contextlib.suppress(pygame.error):
                pygame.mixer.quit()
            self._owns_mixer = False
