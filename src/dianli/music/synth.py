"""Offline synthesis of the timeline with numpy: bells, stone chimes, plucked strings, winds, reeds,
voice, drums and wooden clappers, each a small vectorised additive model; WAV or FLAC via soundfile.

Every note is rendered as one numpy expression over its samples (no per-sample Python loop), then
added into the mix; the mix is normalised to a fixed peak.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt
import soundfile as sf

from dianli.errors import UnknownValueError
from dianli.music.cues import Event, Timeline
from dianli.music.instruments import instrument
from dianli.music.pitch import Tuning, default_tuning

Signal = npt.NDArray[np.float64]
SAMPLE_RATE_HZ = 44_100
PEAK = 0.89
"""Peak level of the normalised mix (about −1 dBFS)."""
AUDIO_FORMATS: dict[str, str] = {"wav": "WAV", "flac": "FLAC"}
DRUM_HZ: dict[str, float] = {
    "tuogu": 70.0,
    "dagu": 55.0,
    "fengu": 60.0,
    "xuangu": 90.0,
    "yinggu": 110.0,
    "zugu": 130.0,
    "taogu": 210.0,
    "bofu": 160.0,
    "tiangu": 240.0,
    "xianggu": 300.0,
}
"""Nominal pitch of each drum's membrane (an assumption of the renderer: the witnesses give sizes only)."""
WOOD_HZ: dict[str, float] = {"zhu": 420.0, "yu": 900.0, "muduo": 1400.0}
UNPITCHED_RING_S = 1.2


def _t(n: int, rate: int) -> Signal:
    return np.arange(n, dtype=np.float64) / rate


def _partials(t: Signal, f: float, ratios: list[float], amps: list[float], decays_s: list[float]) -> Signal:
    out = np.zeros_like(t)
    for ratio, amp, decay in zip(ratios, amps, decays_s, strict=True):
        out += amp * np.exp(-t / decay) * np.sin(2 * np.pi * f * ratio * t)
    return out


def bell(t: Signal, f: float, dur: float) -> Signal:
    """A struck bronze bell: inharmonic partials (hum, prime, tierce, quint, nominal), long decay."""
    return _partials(
        t,
        f,
        [0.5, 1.0, 1.2, 1.5, 2.0, 2.74],
        [0.35, 1.0, 0.4, 0.3, 0.35, 0.15],
        [3.5, 2.6, 1.6, 1.2, 0.9, 0.5],
    )


def stone(t: Signal, f: float, dur: float) -> Signal:
    """A stone chime (磬): a bar's partials 1 : 2.76 : 5.40, bright attack, shorter decay."""
    return _partials(t, f, [1.0, 2.76, 5.40], [1.0, 0.45, 0.2], [1.4, 0.5, 0.2])


def pluck(t: Signal, f: float, dur: float) -> Signal:
    """A plucked silk string: harmonics that decay faster as they rise."""
    k = np.arange(1, 9, dtype=np.float64)
    out = np.zeros_like(t)
    for h in k:
        out += (1.0 / h) * np.exp(-t * (0.8 + 0.9 * h)) * np.sin(2 * np.pi * f * h * t)
    return out


def _sustain(t: Signal, dur: float, attack_s: float = 0.08, release_s: float = 0.15) -> Signal:
    env = np.clip(t / attack_s, 0.0, 1.0) * np.clip((dur - t) / release_s, 0.0, 1.0)
    return env


def wind(t: Signal, f: float, dur: float) -> Signal:
    """A flute or pipe: strong fundamental, soft upper harmonics and breath noise."""
    phase = 2 * np.pi * f * t
    tone = np.sin(phase) + 0.2 * np.sin(3 * phase) + 0.08 * np.sin(2 * phase)
    noise = np.random.default_rng(int(f)).standard_normal(t.size) * 0.02
    return (tone + noise) * _sustain(t, dur)


def reed(t: Signal, f: float, dur: float) -> Signal:
    """A free or double reed (笙, 雙管): many harmonics, nasal."""
    out = np.zeros_like(t)
    for h in range(1, 10):
        out += (0.9**h) * np.sin(2 * np.pi * f * h * t)
    return 0.5 * out * _sustain(t, dur, 0.05)


def voice(t: Signal, f: float, dur: float) -> Signal:
    """A sung vowel: harmonics weighted by two formants (about 700 and 1200 Hz)."""
    out = np.zeros_like(t)
    for h in range(1, 16):
        fh = f * h
        weight = (
            np.exp(-(((fh - 700.0) / 300.0) ** 2)) + 0.6 * np.exp(-(((fh - 1200.0) / 350.0) ** 2)) + 0.3 / h
        )
        out += weight * np.sin(2 * np.pi * fh * t)
    return 0.6 * out * _sustain(t, dur, 0.15, 0.3)


def drum(t: Signal, f: float, dur: float) -> Signal:
    """A struck membrane: a falling-pitch sine and a short noise burst."""
    sweep = f * (1.0 + 0.6 * np.exp(-t / 0.03))
    phase = 2 * np.pi * np.cumsum(sweep) / SAMPLE_RATE_HZ
    noise = np.random.default_rng(int(f)).standard_normal(t.size) * np.exp(-t / 0.02) * 0.3
    return (np.sin(phase) * np.exp(-t / 0.35) + noise) * 1.2


def wood(t: Signal, f: float, dur: float) -> Signal:
    """A wooden clapper or rattle (柷, 敔, 木鐸): a very short resonant knock."""
    return (np.sin(2 * np.pi * f * t) + 0.5 * np.sin(2 * np.pi * 2.3 * f * t)) * np.exp(-t / 0.05)


TIMBRES: dict[str, Callable[[Signal, float, float], Signal]] = {
    "bell": bell,
    "stone": stone,
    "pluck": pluck,
    "wind": wind,
    "reed": reed,
    "voice": voice,
    "drum": drum,
    "wood": wood,
}
RING_S: dict[str, float] = {"bell": 4.0, "stone": 2.0, "pluck": 2.5, "drum": 1.0, "wood": 0.4}
"""How long a struck sound rings past its event (sustained timbres stop at the event's end)."""
MIX_GAIN: dict[str, float] = {
    "voice": 1.0,
    "bell": 0.6,
    "stone": 0.7,
    "pluck": 0.5,
    "wind": 0.35,
    "reed": 0.25,
    "drum": 0.8,
    "wood": 0.7,
}


def event_signal(e: Event, tuning: Tuning, rate: int = SAMPLE_RATE_HZ) -> Signal | None:
    """The samples of one event (None for calls, actions and silent implements)."""
    if e.instrument is None or e.kind not in ("stroke", "note"):
        return None
    inst = instrument(e.instrument)
    if inst.timbre not in TIMBRES:
        return None
    if e.lu is not None:
        freq = tuning.freq_hz(e.lu, inst.midi_octave)
    else:
        freq = DRUM_HZ.get(inst.id, WOOD_HZ.get(inst.id, 200.0))
    return _sound(inst.timbre, round(freq, 6), round(e.duration_s, 4), e.velocity, rate)


@functools.lru_cache(maxsize=512)
def _sound(timbre: str, freq: float, duration_s: float, velocity: int, rate: int) -> Signal:
    """One sound, cached: the rite repeats the same strokes and notes many times."""
    length_s = max(duration_s, 0.05) + RING_S.get(timbre, 0.0)
    t = _t(int(length_s * rate), rate)
    sig = MIX_GAIN.get(timbre, 0.5) * (velocity / 127.0) * TIMBRES[timbre](t, freq, duration_s)
    sig.setflags(write=False)
    return sig


def render(
    tl: Timeline,
    tuning: Tuning | None = None,
    rate: int = SAMPLE_RATE_HZ,
    progress: Callable[[int, int], None] | None = None,
) -> Signal:
    """The mono mix of the timeline, normalised to :data:`PEAK`."""
    tuning = tuning or default_tuning()
    tail = max(RING_S.values())
    mix = np.zeros(int((tl.duration_s + tail) * rate) + 1)
    total = len(tl.events)
    for i, e in enumerate(tl.events):
        sig = event_signal(e, tuning, rate)
        if sig is not None:
            start = round(e.time_s * rate)
            end = min(mix.size, start + sig.size)
            mix[start:end] += sig[: end - start]
        if progress is not None and (i % 200 == 0 or i == total - 1):
            progress(i + 1, total)
    peak = float(np.max(np.abs(mix))) if mix.size else 0.0
    return mix * (PEAK / peak) if peak > 0 else mix


def write_audio(samples: Signal, path: str | Path, fmt: str = "wav", rate: int = SAMPLE_RATE_HZ) -> None:
    """Write mono samples as 16-bit WAV or FLAC."""
    if fmt not in AUDIO_FORMATS:
        raise UnknownValueError("audio format", fmt, AUDIO_FORMATS)
    sf.write(str(path), samples.astype(np.float32), rate, format=AUDIO_FORMATS[fmt], subtype="PCM_16")
