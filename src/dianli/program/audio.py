"""Each movement's music, synthesised at the booklet's rate and encoded in memory to embed or serve.

The music API renders the movement's samples directly at the rate of ``data/program.yaml`` (no file,
no resampling); this module encodes them (Ogg Opus) and keeps the bytes per movement, rate, tuning and
timing, so a server renders and encodes each movement once. Encoding is most of the cost (libopus at
its highest complexity, which libsndfile does not let us lower), so movements whose samples are the
same are encoded once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from dianli.music.cues import Timing, default_timing
from dianli.music.memo import BoundedCache
from dianli.music.pitch import Tuning, default_tuning
from dianli.music.render import render_movement_samples
from dianli.music.score import check_score_witness, movement_info
from dianli.music.synth import encode_samples
from dianli.program.config import config

Progress = Callable[[int, int], None]
AUDIO_WORKERS = 2
"""Movements rendered at once (synthesis is numpy and encoding libsndfile, which release the GIL)."""
ENCODED_CACHE_BYTES = 64 * 1024 * 1024
"""Encoded movements kept per process (the whole suite in Opus is about 6 MB)."""


@dataclass(frozen=True)
class MovementAudio:
    movement: str
    mime: str
    data: bytes


_by_request: BoundedCache[bytes] = BoundedCache(ENCODED_CACHE_BYTES, len)
_by_sound: BoundedCache[bytes] = BoundedCache(ENCODED_CACHE_BYTES, len)


def _timing_key(timing: Timing) -> Hashable:
    return (timing.character_s, timing.stroke_s, tuple(sorted(timing.named_s.items())))


def _encode(movement_id: str, timing: Timing, tuning: Tuning, witness: str | None = None) -> bytes:
    rule = config().audio
    samples = render_movement_samples(movement_id, rule.rate_hz, timing, tuning, witness)
    digest = hashlib.blake2b(samples.tobytes(), digest_size=16).digest()
    return _by_sound.get(
        (digest, rule.rate_hz, rule.format, rule.subtype),
        lambda: encode_samples(samples, rule.rate_hz, rule.format, rule.subtype),
    )


def movement_audio(
    movement_id: str, timing: Timing | None = None, tuning: Tuning | None = None, witness: str | None = None
) -> MovementAudio:
    """One movement's audio, encoded as ``data/program.yaml`` says (cached per process), with the notes
    of the score witness (None: the default)."""
    rule = config().audio
    mid = movement_info(movement_id).id
    timing = timing or default_timing()
    tuning = tuning or default_tuning()
    read = check_score_witness(witness)
    key = (mid, rule.rate_hz, tuning, _timing_key(timing), read)
    data = _by_request.get(key, lambda: _encode(mid, timing, tuning, read))
    return MovementAudio(mid, rule.mime, data)


def render_all(movement_ids: Iterable[str], progress: Progress | None = None) -> dict[str, MovementAudio]:
    """The audio of several movements, rendered in parallel; ``progress(done, total)`` after each."""
    wanted = list(dict.fromkeys(movement_ids))
    done: dict[str, MovementAudio] = {}
    with ThreadPoolExecutor(max_workers=AUDIO_WORKERS) as pool:
        for name, audio in zip(wanted, pool.map(movement_audio, wanted), strict=True):
            done[name] = audio
            if progress is not None:
                progress(len(done), len(wanted))
    return done
