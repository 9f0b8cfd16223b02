"""Offline synthesis of the timeline with numpy: bells, stone chimes, plucked strings, winds, reeds,
voice, drums and wooden clappers, each a small vectorised additive model.

One way through, as in mido: model (timeline) → samples (:func:`render`, at any rate) → file format
(:func:`encode_samples`, bytes in memory) → I/O (:func:`write_audio`). Every note is rendered as one numpy
expression over its samples (no per-sample Python loop), directly at the requested rate: each timbre is
a function of time in seconds, and partials at or above the rate's Nyquist frequency are left out
(so a low rate drops the top harmonics instead of folding them back as aliases). The mix is normalised
to a fixed peak.
"""

from __future__ import annotations

import functools
import io
import numbers
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import soundfile as sf

from dianli.errors import OutOfRangeError, UnknownValueError
from dianli.music.cues import Event, Timeline
from dianli.music.instruments import instrument
from dianli.music.opus import OPUS_RATES_HZ, encode_ogg_opus, opus_available
from dianli.music.pitch import Tuning, default_tuning

Signal = npt.NDArray[np.float64]
AnySamples = npt.NDArray[np.floating[Any]]
"""Samples to encode: float64 as rendered or float32 as cached."""
SAMPLE_RATE_HZ = 44_100
"""The reference rate of the WAV and FLAC files."""
SAMPLE_RATE_RANGE_HZ = (8_000, 192_000)
"""Rates a rendering may ask for (8 kHz telephone quality to 192 kHz studio)."""
PEAK = 0.89
"""Peak level of the normalised mix (about −1 dBFS)."""
AUDIO_FORMATS: dict[str, tuple[str, str]] = {"wav": ("WAV", "PCM_16"), "flac": ("FLAC", "PCM_16")}
"""Our file formats as libsndfile's (container, subtype): 16-bit PCM."""
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


def _audible(freq_hz: float, rate: int) -> bool:
    """Whether a partial lies below the Nyquist frequency of ``rate`` (else it would alias)."""
    return freq_hz < rate / 2


def _partials(
    t: Signal, f: float, rate: int, ratios: list[float], amps: list[float], decays_s: list[float]
) -> Signal:
    out = np.zeros_like(t)
    for ratio, amp, decay in zip(ratios, amps, decays_s, strict=True):
        if _audible(f * ratio, rate):
            out += amp * np.exp(-t / decay) * np.sin(2 * np.pi * f * ratio * t)
    return out


def bell(t: Signal, f: float, dur: float, rate: int) -> Signal:
    """A struck bronze bell: inharmonic partials (hum, prime, tierce, quint, nominal), long decay."""
    return _partials(
        t,
        f,
        rate,
        [0.5, 1.0, 1.2, 1.5, 2.0, 2.74],
        [0.35, 1.0, 0.4, 0.3, 0.35, 0.15],
        [3.5, 2.6, 1.6, 1.2, 0.9, 0.5],
    )


def stone(t: Signal, f: float, dur: float, rate: int) -> Signal:
    """A stone chime (磬): a bar's partials 1 : 2.76 : 5.40, bright attack, shorter decay."""
    return _partials(t, f, rate, [1.0, 2.76, 5.40], [1.0, 0.45, 0.2], [1.4, 0.5, 0.2])


def pluck(t: Signal, f: float, dur: float, rate: int) -> Signal:
    """A plucked silk string: harmonics that decay faster as they rise."""
    out = np.zeros_like(t)
    for h in range(1, 9):
        if _audible(f * h, rate):
            out += (1.0 / h) * np.exp(-t * (0.8 + 0.9 * h)) * np.sin(2 * np.pi * f * h * t)
    return out


def _sustain(t: Signal, dur: float, attack_s: float = 0.08, release_s: float = 0.15) -> Signal:
    env = np.clip(t / attack_s, 0.0, 1.0) * np.clip((dur - t) / release_s, 0.0, 1.0)
    return env


def _harmonics(t: Signal, f: float, rate: int, weights: dict[int, float]) -> Signal:
    """Sum of the audible harmonics ``h`` of ``f`` with their weights."""
    phase = 2 * np.pi * f * t
    out = np.zeros_like(t)
    for h, weight in weights.items():
        if _audible(f * h, rate):
            out += weight * np.sin(h * phase)
    return out


def wind(t: Signal, f: float, dur: float, rate: int) -> Signal:
    """A flute or pipe: strong fundamental, soft upper harmonics and breath noise."""
    tone = _harmonics(t, f, rate, {1: 1.0, 3: 0.2, 2: 0.08})
    noise = np.random.default_rng(int(f)).standard_normal(t.size) * 0.02
    return (tone + noise) * _sustain(t, dur)


def reed(t: Signal, f: float, dur: float, rate: int) -> Signal:
    """A free or double reed (笙, 雙管): many harmonics, nasal."""
    out = _harmonics(t, f, rate, {h: 0.9**h for h in range(1, 10)})
    return 0.5 * out * _sustain(t, dur, 0.05)


def _formant_weight(freq_hz: float, h: int) -> float:
    """A sung vowel's weight of one harmonic: two formants (about 700 and 1200 Hz) and a 1/h floor."""
    return float(
        np.exp(-(((freq_hz - 700.0) / 300.0) ** 2))
        + 0.6 * np.exp(-(((freq_hz - 1200.0) / 350.0) ** 2))
        + 0.3 / h
    )


def voice(t: Signal, f: float, dur: float, rate: int) -> Signal:
    """A sung vowel: harmonics weighted by two formants (about 700 and 1200 Hz)."""
    out = _harmonics(t, f, rate, {h: _formant_weight(f * h, h) for h in range(1, 16)})
    return 0.6 * out * _sustain(t, dur, 0.15, 0.3)


DRUM_SWEEP = 0.6
"""A struck membrane starts this much sharp and falls to its pitch..."""
DRUM_SWEEP_S = 0.03
"""...with this time constant."""


def drum(t: Signal, f: float, dur: float, rate: int) -> Signal:
    """A struck membrane: a falling-pitch sine and a short noise burst.

    The pitch f·(1 + 0.6·e^(−t/τ)) is integrated in closed form, so the sound is the same at any rate.
    """
    phase = 2 * np.pi * f * (t + DRUM_SWEEP * DRUM_SWEEP_S * (1.0 - np.exp(-t / DRUM_SWEEP_S)))
    noise = np.random.default_rng(int(f)).standard_normal(t.size) * np.exp(-t / 0.02) * 0.3
    return (np.sin(phase) * np.exp(-t / 0.35) + noise) * 1.2


def wood(t: Signal, f: float, dur: float, rate: int) -> Signal:
    """A wooden clapper or rattle (柷, 敔, 木鐸): a very short resonant knock."""
    return _partials(t, f, rate, [1.0, 2.3], [1.0, 0.5], [0.05, 0.05])


Timbre = Callable[[Signal, float, float, int], Signal]
"""A sound of time (s), frequency (Hz), duration (s) and sample rate (Hz)."""
TIMBRES: dict[str, Timbre] = {
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
    sig = MIX_GAIN.get(timbre, 0.5) * (velocity / 127.0) * TIMBRES[timbre](t, freq, duration_s, rate)
    sig.setflags(write=False)
    return sig


def check_rate(rate: int) -> int:
    """The sample rate, if it is one a rendering may use (else OutOfRangeError naming the range)."""
    low, high = SAMPLE_RATE_RANGE_HZ
    if isinstance(rate, bool) or not isinstance(rate, numbers.Integral) or not low <= rate <= high:
        raise OutOfRangeError("sample rate", rate, f"a whole number of Hz from {low} to {high}")
    return int(rate)


def rendered_seconds(tl: Timeline) -> float:
    """How long the audio of a timeline lasts: the timeline and the longest ring after it."""
    return tl.duration_s + max(RING_S.values())


def render(
    tl: Timeline,
    tuning: Tuning | None = None,
    rate: int = SAMPLE_RATE_HZ,
    progress: Callable[[int, int], None] | None = None,
    voices: bool = False,
) -> Signal:
    """The mono mix of the timeline at ``rate`` samples per second, normalised to :data:`PEAK`; with
    ``voices``, the calls spoken by espeak-ng (:mod:`dianli.music.voices`)."""
    check_rate(rate)
    tuning = tuning or default_tuning()
    mix = np.zeros(int(rendered_seconds(tl) * rate) + 1)
    total = len(tl.events)
    for i, e in enumerate(tl.events):
        sig = event_signal(e, tuning, rate)
        if sig is not None:
            start = round(e.time_s * rate)
            end = min(mix.size, start + sig.size)
            mix[start:end] += sig[: end - start]
        if progress is not None and (i % 200 == 0 or i == total - 1):
            progress(i + 1, total)
    if voices:
        from dianli.music.voices import add_calls

        add_calls(mix, tl, rate)
    peak = float(np.max(np.abs(mix))) if mix.size else 0.0
    if peak > 0:
        mix *= PEAK / peak
    return mix


def encode_samples(samples: AnySamples, rate: int, container: str = "WAV", subtype: str = "PCM_16") -> bytes:
    """Mono samples in a file format, in memory: libsndfile's ``container`` and ``subtype`` names
    (``WAV``/``PCM_16``, ``FLAC``/``PCM_16``, ``OGG``/``OPUS`` …); a pair libsndfile refuses is named.

    Ogg Opus goes through the system's libopus when it is installed (:mod:`dianli.music.opus`, four
    times faster than the libsndfile of the soundfile wheel), else through libsndfile.
    """
    if (container.upper(), subtype.upper()) == ("OGG", "OPUS") and rate in OPUS_RATES_HZ and opus_available():
        return encode_ogg_opus(samples, rate)
    buffer = io.BytesIO()
    try:
        sf.write(buffer, np.asarray(samples, dtype=np.float32), rate, format=container, subtype=subtype)
    except (ValueError, TypeError, sf.LibsndfileError) as exc:
        accepted = {f"{c}/{t}" for c in sf.available_formats() for t in sf.available_subtypes(c)}
        raise UnknownValueError(
            "audio encoding",
            f"{container}/{subtype} at {rate} Hz",
            sorted(accepted),
            hint=f"libsndfile: {exc}",
        ) from exc
    return buffer.getvalue()


def encode_audio(samples: AnySamples, fmt: str = "wav", rate: int = SAMPLE_RATE_HZ) -> bytes:
    """Mono samples as the bytes of a 16-bit WAV or FLAC file."""
    if fmt not in AUDIO_FORMATS:
        raise UnknownValueError("audio format", fmt, AUDIO_FORMATS)
    container, subtype = AUDIO_FORMATS[fmt]
    return encode_samples(samples, rate, container, subtype)


def write_audio(samples: AnySamples, path: str | Path, fmt: str = "wav", rate: int = SAMPLE_RATE_HZ) -> None:
    """Write mono samples as 16-bit WAV or FLAC."""
    Path(path).write_bytes(encode_audio(samples, fmt, rate))
