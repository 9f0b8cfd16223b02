"""In-memory rendering: samples at any rate (length, pitch by FFT, no aliasing), the cache, encoding."""

from __future__ import annotations

import functools
import io
import math
import threading
import time
from typing import cast

import numpy as np
import numpy.typing as npt
import pytest
import soundfile as sf

from dianli.errors import OutOfRangeError, UnknownValueError
from dianli.music.cues import Event, Timeline, default_timing, timeline
from dianli.music.instruments import instrument
from dianli.music.memo import BoundedCache
from dianli.music.pitch import Tuning
from dianli.music.render import render_movement_samples, render_suite_samples
from dianli.music.synth import RING_S, SAMPLE_RATE_HZ, encode_audio, encode_samples, render

FAST = default_timing(tempo=50)
"""Fifty times the data's tempo: a movement is a few seconds of audio."""
RATES_HZ = (22_050, SAMPLE_RATE_HZ)
TUNING = Tuning("stated", 293.66)


def _peak_hz(signal: npt.NDArray[np.floating], rate: int, near_hz: float) -> float:
    """The spectral peak near ``near_hz`` (Hann window, zero-padded FFT, parabolic interpolation)."""
    n = 1 << 20
    spectrum = np.abs(np.fft.rfft(signal * np.hanning(signal.size), n))
    freqs = np.fft.rfftfreq(n, 1 / rate)
    band = (freqs > near_hz * 0.95) & (freqs < near_hz * 1.05)
    i = int(np.argmax(np.where(band, spectrum, 0)))
    a, b, c = np.log(spectrum[i - 1 : i + 2])
    return float(freqs[i] + (a - c) / (2 * (a - 2 * b + c)) * (freqs[1] - freqs[0]))


@pytest.mark.parametrize("rate", RATES_HZ)
def test_movement_length_follows_the_rate(rate: int) -> None:
    samples = render_movement_samples("chuxian", rate, FAST)
    duration_s = timeline("chuxian", FAST).duration_s + max(RING_S.values())
    assert samples.size == int(duration_s * rate) + 1
    assert samples.dtype == np.float32 and not samples.flags.writeable
    assert 0.85 < float(np.max(np.abs(samples))) <= 0.9


def test_the_same_music_at_both_rates_lasts_the_same() -> None:
    low, high = (render_movement_samples("chuxian", r, FAST) for r in RATES_HZ)
    assert abs(low.size / RATES_HZ[0] - high.size / RATES_HZ[1]) < 1 / RATES_HZ[0]


@pytest.mark.parametrize("rate", RATES_HZ)
@pytest.mark.parametrize(
    ("inst", "lu"),
    [
        ("paixiao", "taicu"),
        ("qin", "nanlu"),
        ("voice", "linzhong"),
        ("gezhong", "zhonglu"),
        ("sheng", "huangzhong"),
    ],
)
def test_rendered_pitch_within_5_cents_at_each_rate(rate: int, inst: str, lu: str) -> None:
    note = Event(0.0, 2.0, "note", inst, None, "", "test", lu=lu)
    mix = render(Timeline((note,), 2.0, ("test",)), TUNING, rate)
    expected = TUNING.freq_hz(lu, instrument(inst).midi_octave)
    measured = _peak_hz(mix[: 2 * rate], rate, expected)
    assert abs(1200 * math.log2(measured / expected)) < 5


def test_partials_above_nyquist_are_left_out_not_folded() -> None:
    rate = 8_000
    note = Event(0.0, 2.0, "note", "voice", None, "", "test", lu="huangzhong")
    mix = render(Timeline((note,), 2.0, ("test",)), Tuning("equal", 440.0), rate)[: 2 * rate]
    spectrum = np.abs(np.fft.rfft(mix * np.hanning(mix.size)))
    freqs = np.fft.rfftfreq(mix.size, 1 / rate)
    f0 = Tuning("equal", 440.0).freq_hz("huangzhong", instrument("voice").midi_octave)
    off_harmonic = np.abs(freqs / f0 - np.round(freqs / f0)) * f0 > 30
    floor_db = 20 * np.log10(spectrum[off_harmonic & (freqs > 50)].max() / spectrum.max())
    assert floor_db < -50


def test_rendering_is_cached_per_movement_rate_tuning_and_timing() -> None:
    first = render_movement_samples("chuxian", 16_000, FAST)
    assert render_movement_samples("寧平", 16_000, FAST) is first
    assert render_movement_samples("chuxian", 16_000, default_timing(tempo=50)) is first
    assert render_movement_samples("chuxian", 16_000, FAST, Tuning("equal", 293.66)) is not first


def test_the_suite_renders_in_memory() -> None:
    calls: list[int] = []
    samples = render_suite_samples(
        8_000, default_timing(tempo=100), progress=lambda done, total: calls.append(done)
    )
    assert samples.dtype == np.float32 and samples.size > 8_000
    assert calls and calls == sorted(calls)


@pytest.mark.parametrize("rate", [0, 7_999, 192_001, -44_100, True, 22_050.5])
def test_a_rate_out_of_range_names_the_value_and_the_range(rate: int) -> None:
    with pytest.raises(OutOfRangeError, match="8000 to 192000"):
        render_movement_samples("chuxian", rate, FAST)


def test_a_numpy_integer_rate_is_a_rate() -> None:
    numpy_rate = cast(int, np.int64(16_000))
    assert render_movement_samples("chuxian", numpy_rate, FAST) is render_movement_samples(
        "chuxian", 16_000, FAST
    )


def test_an_unknown_movement_lists_the_names() -> None:
    with pytest.raises(UnknownValueError, match="初獻"):
        render_movement_samples("咸平", 22_050, FAST)


@pytest.mark.parametrize(
    ("container", "subtype", "rate", "min_correlation"),
    [
        ("WAV", "PCM_16", 22_050, 0.9999),
        ("FLAC", "PCM_16", 22_050, 0.9999),
        ("OGG", "OPUS", 24_000, 0.97),
        ("OGG", "OPUS", 48_000, 0.97),
    ],
)
def test_encoded_bytes_decode_to_the_same_length(
    container: str, subtype: str, rate: int, min_correlation: float
) -> None:
    samples = render_movement_samples("chuxian", rate, FAST)
    back, back_rate = sf.read(io.BytesIO(encode_samples(samples, rate, container, subtype)), dtype="float32")
    assert back_rate == rate and back.shape == samples.shape
    assert np.corrcoef(back, samples)[0, 1] > min_correlation


@pytest.mark.parametrize(
    ("container", "subtype", "rate", "needle"),
    [("OGG", "OPUS", 22_050, "OGG/OPUS at 22050 Hz"), ("WAV", "NOPE", 22_050, "WAV/NOPE")],
)
def test_an_encoding_libsndfile_refuses_is_named(
    container: str, subtype: str, rate: int, needle: str
) -> None:
    with pytest.raises(UnknownValueError, match=needle):
        encode_samples(np.zeros(100, dtype=np.float32), rate, container, subtype)


def test_unknown_audio_format() -> None:
    with pytest.raises(UnknownValueError, match="wav"):
        encode_audio(np.zeros(10), "mp3")


def test_cache_computes_each_key_once_across_threads() -> None:
    cache: BoundedCache[bytes] = BoundedCache(100, len)
    calls: list[str] = []

    def slow() -> bytes:
        calls.append("x")
        time.sleep(0.05)
        return b"12345"

    threads = [threading.Thread(target=cache.get, args=("k", slow)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert calls == ["x"] and cache.get("k", slow) == b"12345"


@pytest.mark.parametrize(
    ("sizes", "kept"),
    [((40, 40), ["a", "b"]), ((40, 40, 40), ["b", "c"]), ((150,), []), ((60, 60), ["b"])],
)
def test_cache_drops_the_oldest_past_its_bytes(sizes: tuple[int, ...], kept: list[str]) -> None:
    cache: BoundedCache[bytes] = BoundedCache(100, len)
    for key, size in zip("abc", sizes, strict=False):
        cache.get(key, functools.partial(bytes, size))
    assert [k for k in "abc" if k in cache._values] == kept
    assert cache.total_bytes <= 100
