"""Each movement's music, rendered once by the music API and made small enough to embed or serve.

The music API renders a movement to a WAV file at its own rate (44.1 kHz); this module reads it back,
resamples it to the rate in ``data/program.yaml`` and encodes it (Ogg Opus), keeping the result in
memory so a server renders each movement only once.
"""

from __future__ import annotations

import functools
import io
import tempfile
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import soundfile as sf

from dianli.api import render_movement
from dianli.program.config import config

Progress = Callable[[int, int], None]
AUDIO_WORKERS = 2
"""Movements rendered at once (each render is mostly numpy and libsndfile, which release the GIL)."""


@dataclass(frozen=True)
class MovementAudio:
    movement: str
    mime: str
    data: bytes


def resample(samples: npt.NDArray[np.float64], rate_hz: int, target_hz: int) -> npt.NDArray[np.float32]:
    """Linear resampling after a two-tap low-pass (enough for a preview; the WAV is the reference)."""
    if rate_hz == target_hz:
        return samples.astype(np.float32)
    smoothed = np.convolve(samples, np.array([0.5, 0.5]), mode="same")
    n_out = int(len(samples) * target_hz / rate_hz)
    positions = np.arange(n_out) * (rate_hz / target_hz)
    out: npt.NDArray[np.float32] = np.interp(positions, np.arange(len(samples)), smoothed).astype(np.float32)
    return out


@functools.lru_cache(maxsize=16)
def movement_audio(movement_id: str) -> MovementAudio:
    """One movement's audio, encoded as ``data/program.yaml`` says (cached per process)."""
    rule = config().audio
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "movement.wav"
        render_movement(movement_id, "wav", wav)
        samples, rate_hz = sf.read(wav, dtype="float64")
    if samples.ndim > 1:
        samples = samples.mean(axis=1)
    buffer = io.BytesIO()
    sf.write(
        buffer,
        resample(samples, int(rate_hz), rule.rate_hz),
        rule.rate_hz,
        format=rule.format,
        subtype=rule.subtype,
    )
    return MovementAudio(movement_id, rule.mime, buffer.getvalue())


def render_all(movement_ids: Iterable[str], progress: Progress | None = None) -> dict[str, MovementAudio]:
    """The audio of several movements, rendered in parallel; ``progress(done, total)`` after each."""
    wanted = list(dict.fromkeys(movement_ids))
    done: dict[str, MovementAudio] = {}
    with ThreadPoolExecutor(max_workers=AUDIO_WORKERS) as pool:
        for audio in pool.map(movement_audio, wanted):
            done[audio.movement] = audio
            if progress is not None:
                progress(len(done), len(wanted))
    return done
