"""The movement's music for the animation, rendered by the music module and made small enough to embed."""

from __future__ import annotations

import io
import tempfile
from dataclasses import dataclass
from pathlib import Path

EMBED_RATE_DIVISOR = 2
"""Keep every second sample (44.1 kHz → 22.05 kHz): the ritual music has little above 8 kHz."""


@dataclass(frozen=True)
class Audio:
    """Audio to embed: its MIME type and bytes."""

    mime: str
    data: bytes


def movement_audio(movement_id: str) -> Audio:
    """FLAC audio of one movement, as the music module renders it (mono, half the sample rate)."""
    import numpy as np
    import soundfile as sf

    from dianli.music.render import render_movement

    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / f"{movement_id}.wav"
        render_movement(movement_id, "wav", wav)
        samples, rate = sf.read(wav, dtype="float32")
    if samples.ndim > 1:
        samples = samples.mean(axis=1)
    usable = len(samples) - len(samples) % EMBED_RATE_DIVISOR
    reduced = samples[:usable].reshape(-1, EMBED_RATE_DIVISOR).mean(axis=1)
    buffer = io.BytesIO()
    sf.write(buffer, np.asarray(reduced), rate // EMBED_RATE_DIVISOR, format="FLAC", subtype="PCM_16")
    return Audio("audio/flac", buffer.getvalue())
