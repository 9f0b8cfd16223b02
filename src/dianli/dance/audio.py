"""The movement's music for the animation, synthesised by the music module at a rate small enough to
embed, and encoded in memory."""

from __future__ import annotations

from dataclasses import dataclass

EMBED_RATE_HZ = 22_050
"""Half the reference 44.1 kHz: the ritual music has little above 8 kHz, and the file is half the size."""


@dataclass(frozen=True)
class Audio:
    """Audio to embed: its MIME type and bytes."""

    mime: str
    data: bytes


def movement_audio(movement_id: str) -> Audio:
    """FLAC audio of one movement, synthesised directly at :data:`EMBED_RATE_HZ` (mono)."""
    from dianli.music.render import render_movement_samples
    from dianli.music.synth import encode_audio

    samples = render_movement_samples(movement_id, EMBED_RATE_HZ)
    return Audio("audio/flac", encode_audio(samples, "flac", EMBED_RATE_HZ))
