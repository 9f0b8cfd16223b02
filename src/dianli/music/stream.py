"""Long audio written in blocks: the whole rite's music (over twenty minutes) without holding it in memory.

:func:`dianli.music.synth.render` mixes a timeline into one array, which for the suite is about 60 million
samples (480 MB as float64, and as much again to encode). Here the same mix is made block by block
(overlap-add: an event's samples are added where it starts, and a block is finished once no later event
can reach back into it), each finished block kept as float32 in a temporary file; then, the peak known,
the calls are voiced into it where asked, and the blocks are normalised and encoded one at a time by
libsndfile. The result equals the one-array mix up to float32 rounding; memory stays a few blocks.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import numpy as np
import numpy.typing as npt
import soundfile as sf

from dianli.errors import UnknownValueError
from dianli.music.cues import Timeline
from dianli.music.pitch import Tuning, default_tuning
from dianli.music.synth import AUDIO_FORMATS, PEAK, SAMPLE_RATE_HZ, check_rate, event_signal, rendered_seconds

BLOCK_S = 20.0
"""Seconds of audio per block (at 44.1 kHz, 3.5 MB as float32)."""
FLOAT32_BYTES = 4


def _mix_blocks(
    tl: Timeline,
    tuning: Tuning,
    rate: int,
    store: BinaryIO,
    progress: Callable[[int, int], None] | None,
) -> float:
    """Mix the timeline's events into ``store`` (float32, block by block); return the mix's peak."""
    total_samples = int(rendered_seconds(tl) * rate) + 1
    block = max(1, int(BLOCK_S * rate))
    buffer = np.zeros(2 * block)
    first = 0  # the sample buffer[0] stands for
    peak = 0.0

    def flush(count: int) -> None:
        nonlocal buffer, first, peak
        done = buffer[:count]
        if done.size:
            peak = max(peak, float(np.max(np.abs(done))))
        store.write(done.astype(np.float32).tobytes())
        buffer = np.concatenate([buffer[count:], np.zeros(count)])
        first += count

    events = sorted(tl.events, key=lambda e: e.time_s)
    for i, e in enumerate(events):
        start = round(e.time_s * rate)
        while start >= first + block and first + block <= total_samples:
            flush(block)  # no event from here on starts before first + block
        signal = event_signal(e, tuning, rate)
        if signal is not None:
            end = min(total_samples, start + signal.size)
            if end > start:
                if end - first > buffer.size:
                    buffer = np.concatenate([buffer, np.zeros(end - first - buffer.size)])
                buffer[start - first : end - first] += signal[: end - start]
        if progress is not None and (i % 200 == 0 or i == len(events) - 1):
            progress(i + 1, len(events))
    while first < total_samples:
        flush(min(block, total_samples - first))
    return peak


def _blocks(store: BinaryIO, block: int) -> list[tuple[int, int]]:
    """(first sample, count) of each block of the stored samples."""
    size = store.seek(0, 2) // FLOAT32_BYTES
    return [(at, min(block, size - at)) for at in range(0, size, block)]


def _read(store: BinaryIO, at: int, count: int) -> npt.NDArray[np.float32]:
    store.seek(at * FLOAT32_BYTES)
    return np.frombuffer(store.read(count * FLOAT32_BYTES), dtype=np.float32).copy()


def _add_calls(store: BinaryIO, tl: Timeline, rate: int, instrument_peak: float, block: int) -> float:
    """Voice the calls into the stored mix (in place); return the new peak."""
    from dianli.music.voices import call_gain, placed_calls

    gain = call_gain(instrument_peak)
    calls = placed_calls(tl, rate)
    peak = 0.0
    for at, count in _blocks(store, block):
        samples = _read(store, at, count)
        for call in calls:
            lo, hi = max(at, call.start), min(at + count, call.start + call.voice.size)
            if hi > lo:
                samples[lo - at : hi - at] += (call.voice[lo - call.start : hi - call.start] * gain).astype(
                    np.float32
                )
        peak = max(peak, float(np.max(np.abs(samples))) if samples.size else 0.0)
        store.seek(at * FLOAT32_BYTES)
        store.write(samples.tobytes())
    return peak


def write_audio_streamed(
    tl: Timeline,
    fmt: str,
    out: str | Path,
    tuning: Tuning | None = None,
    rate: int = SAMPLE_RATE_HZ,
    progress: Callable[[int, int], None] | None = None,
    voices: bool = False,
) -> None:
    """Write the timeline's audio (``wav`` or ``flac``, 16-bit mono) to ``out``, normalised to the same peak
    as :func:`dianli.music.synth.render`, holding only a few blocks in memory."""
    if fmt not in AUDIO_FORMATS:
        raise UnknownValueError("audio format", fmt, AUDIO_FORMATS)
    check_rate(rate)
    container, subtype = AUDIO_FORMATS[fmt]
    block = max(1, int(BLOCK_S * rate))
    with tempfile.TemporaryFile() as store:
        peak = _mix_blocks(tl, tuning or default_tuning(), rate, store, progress)
        if voices:
            peak = _add_calls(store, tl, rate, peak, block)
        scale = PEAK / peak if peak > 0 else 1.0
        with sf.SoundFile(str(out), "w", rate, 1, subtype=subtype, format=container) as sink:
            for at, count in _blocks(store, block):
                sink.write(_read(store, at, count) * np.float32(scale))
