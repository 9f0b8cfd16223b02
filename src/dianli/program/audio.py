"""Each movement's music, synthesised at the booklet's rate and encoded in memory to embed or serve.

Each movement is mixed directly at the rate of ``data/program.yaml`` (no file, no resampling) block by
block, as :mod:`dianli.music.stream` mixes the suite, then normalised and encoded (Ogg Opus) a block at a
time, so a movement never sits in memory whole; the bytes are kept per movement, rate, tuning and
timing, so a server renders and encodes each movement once. Encoding is most of the cost (libopus at
its highest complexity, which libsndfile does not let us lower), so movements whose sound is the same
are encoded once.

The encoded bytes are also kept on disk (:mod:`dianli.cache`, kind ``audio``) between runs, under a key
of everything they are made from (:func:`audio_key`): what the synthesiser reads of the movement's
computed timeline, the tuning, the rate and encoding, the code and data of the music package, and the
versions of dianli, numpy, soundfile, libsndfile and libopus. A second run of ``dianli program`` reads
the audio instead of synthesising it; a changed input is another key, so an entry is never stale.

Computing that key means computing the movement's timeline (and loading numpy to name its version), a
good part of a booklet whose music is cached. So each request (movement, timing, tuning, score witness,
rule) also keeps on disk the key its audio was stored under, itself under a key naming everything that
key is made from (:func:`request_key`: every file of the package, the libraries' and encoders' versions,
the request): a booklet for a new place or year reads its music without a timeline or numpy.
"""

from __future__ import annotations

import ctypes
import functools
import os
import re
import sys
import tempfile
from collections.abc import Callable, Hashable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dianli import cache
from dianli.music import cues as _music_module
from dianli.music.cues import Timeline, Timing, default_timing, timeline
from dianli.music.memo import BoundedCache
from dianli.music.pitch import Tuning, default_tuning
from dianli.music.score import check_score_witness, movement_info
from dianli.program.config import AudioRule, config
from dianli.program.fingerprint import libopus_version, libsndfile_versions, tree_digest

Progress = Callable[[int, int], None]
AUDIO_WORKERS = 2
"""Movements rendered at once by default (synthesis is mostly numpy and encoding libopus, which release
the GIL)."""
MAX_AUDIO_WORKERS = 4
"""At most this many at once however many processors there are: each holds one movement's sounds and
blocks (some 13 MB)."""
ENCODED_CACHE_BYTES = 64 * 1024 * 1024
"""Encoded movements kept per process (the whole suite in Opus is about 6 MB)."""
CACHE_KIND = "audio"
"""The folder of the on-disk cache holding encoded movements."""
KEY_VERSION = "program-audio/1"
"""Changed when the key's layout changes."""
REQUEST_SUFFIX = ".request"
"""The on-disk entry of a request: the key its encoded audio is stored under (:func:`request_key`)."""
_AUDIO_KEY = re.compile("[0-9a-f]{64}")


def __getattr__(name: str) -> Any:
    """numpy (``np``) and soundfile (``sf``), imported when first asked for: a booklet whose music is
    cached loads neither (PEP 562)."""
    if name == "np":
        import numpy

        return numpy
    if name == "sf":
        import soundfile

        return soundfile
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class MovementAudio:
    movement: str
    mime: str
    data: bytes


_by_request: BoundedCache[bytes] = BoundedCache(ENCODED_CACHE_BYTES, len)
_by_sound: BoundedCache[bytes] = BoundedCache(ENCODED_CACHE_BYTES, len)


def _timing_key(timing: Timing) -> Hashable:
    return (timing.character_s, timing.stroke_s, tuple(sorted(timing.named_s.items())))


def sound_of(tl: Timeline) -> str:
    """What the synthesiser reads of a timeline (:func:`dianli.music.synth.render`): its length and, for
    each event, when, how long, what kind, which instrument, which pitch and how loud."""
    return repr(
        (
            tl.duration_s,
            tuple((e.time_s, e.duration_s, e.kind, e.instrument, e.lu, e.velocity) for e in tl.events),
        )
    )


@functools.cache
def music_code() -> bytes:
    """A digest of every file of the music package: the synthesiser, the encoder, instruments, pitch."""
    return tree_digest([Path(_music_module.__file__).parent])  # the folder of dianli.music


def audio_key(tl: Timeline, tuning: Tuning, rule: AudioRule) -> str:
    """The on-disk cache key of a timeline's encoded audio: everything the bytes depend on."""
    import numpy as np
    import soundfile as sf

    return cache.key(
        KEY_VERSION,
        sound_of(tl),
        repr(tuning),
        repr((rule.rate_hz, rule.format, rule.subtype)),
        music_code(),
        cache.version("dianli"),
        f"numpy {np.__version__}",
        f"soundfile {sf.__version__} libsndfile {sf.__libsndfile_version__}",
        libopus_version(),
    )


def _render_and_encode(tl: Timeline, tuning: Tuning, rule: AudioRule) -> bytes:
    """Synthesise and encode in blocks (:mod:`dianli.music.stream`'s mix, normalised as
    :func:`dianli.music.synth.render` normalises): a few seconds of samples in memory, not the movement."""
    import numpy as np

    from dianli.music import synth
    from dianli.music.opus import OPUS_RATES_HZ, encode_ogg_opus_blocks, opus_available
    from dianli.music.stream import BLOCK_S, _blocks, _mix_blocks, _read
    from dianli.music.synth import encode_samples

    rate = rule.rate_hz
    block = max(1, int(BLOCK_S * rate))
    with tempfile.TemporaryFile() as store:
        peak = _mix_blocks(tl, tuning, rate, store, None)
        scale = np.float32(synth.PEAK / peak if peak > 0 else 1.0)
        spans = _blocks(store, block)
        total = sum(count for _, count in spans)
        blocks = (_read(store, at, count) * scale for at, count in spans)
        if (rule.format.upper(), rule.subtype.upper()) == ("OGG", "OPUS") and rate in OPUS_RATES_HZ:
            if opus_available():
                return encode_ogg_opus_blocks(blocks, total, rate)
        joined = np.concatenate(list(blocks)) if spans else np.zeros(0, dtype=np.float32)
        return encode_samples(joined, rate, rule.format, rule.subtype)


def _encoded(tl: Timeline, tuning: Tuning, rule: AudioRule) -> bytes:
    """The encoded audio from the on-disk cache, or made and stored there."""
    key = audio_key(tl, tuning, rule)
    found = cache.read(CACHE_KIND, key, ".opus")
    if found is not None:
        return found
    data = _render_and_encode(tl, tuning, rule)
    cache.write(CACHE_KIND, key, data, ".opus")
    return data


def request_key(
    movement_id: str, timing: Timing, tuning: Tuning, witness: str | None, rule: AudioRule
) -> str:
    """The on-disk key of what a request for a movement's audio led to: a name of everything its
    :func:`audio_key` is made from, computed without the timeline — the request (movement, timing,
    tuning, score witness, rate and encoding), every file of the package (the music's data and code:
    :func:`dianli.cache.installed_key`), the versions of dianli, numpy and soundfile, and of the
    libsndfile and libopus that encode."""
    return cache.installed_key(
        KEY_VERSION,
        "request",
        movement_id,
        repr(_timing_key(timing)),
        repr(tuning),
        witness or "",
        repr((rule.rate_hz, rule.format, rule.subtype)),
        cache.versions("dianli", "numpy", "soundfile"),
        libsndfile_versions(),
        libopus_version(),
    )


def _requested(request: str) -> bytes | None:
    """The encoded audio an earlier run stored for ``request`` (:func:`request_key`), or None."""
    known = cache.read(CACHE_KIND, request, REQUEST_SUFFIX)
    if known is None or not _AUDIO_KEY.fullmatch(known.decode("ascii", "replace")):
        return None
    return cache.read(CACHE_KIND, known.decode("ascii"), ".opus")


def _encode(movement_id: str, timing: Timing, tuning: Tuning, witness: str | None = None) -> bytes:
    rule = config().audio
    request = request_key(movement_id, timing, tuning, witness, rule)
    found = _requested(request)
    if found is not None:
        return found
    tl = timeline(movement_id, timing, witness)
    data = _by_sound.get(
        (sound_of(tl), tuning, rule.rate_hz, rule.format, rule.subtype),
        lambda: _encoded(tl, tuning, rule),
    )
    cache.write_checked(CACHE_KIND, request, audio_key(tl, tuning, rule).encode("ascii"), REQUEST_SUFFIX)
    return data


def movement_audio(
    movement_id: str, timing: Timing | None = None, tuning: Tuning | None = None, witness: str | None = None
) -> MovementAudio:
    """One movement's audio, encoded as ``data/program.yaml`` says (cached per process and on disk), with
    the notes of the score witness (None: the default)."""
    rule = config().audio
    mid = movement_info(movement_id).id
    timing = timing or default_timing()
    tuning = tuning or default_tuning()
    read = check_score_witness(witness)
    key = (mid, rule.rate_hz, tuning, _timing_key(timing), read)
    data = _by_request.get(key, lambda: _encode(mid, timing, tuning, read))
    return MovementAudio(mid, rule.mime, data)


def release_memory() -> None:
    """Give the memory freed so far back to the system (glibc's ``malloc_trim``; elsewhere nothing): the
    synthesiser's many mid-sized arrays otherwise stay in the process's heap after they are freed."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return
    trim(0)


def workers_for(movements: int) -> int:
    """How many movements to render at once: one per processor this process may run on, no more than
    there are movements nor :data:`MAX_AUDIO_WORKERS`."""
    try:
        processors = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        processors = os.cpu_count() or 1
    return max(1, min(movements, processors, MAX_AUDIO_WORKERS))


def render_all(
    movement_ids: Iterable[str],
    progress: Progress | None = None,
    workers: int = AUDIO_WORKERS,
    lean: bool = False,
) -> dict[str, MovementAudio]:
    """The audio of several movements, ``workers`` at a time; ``progress(done, total)`` after each.
    ``lean`` (a one-shot run): the synthesiser's cache of sounds is emptied after each movement, so
    memory holds one movement's sounds at most."""
    wanted = list(dict.fromkeys(movement_ids))
    done: dict[str, MovementAudio] = {}

    def one(name: str) -> MovementAudio:
        found = movement_audio(name)
        if lean:
            synth = sys.modules.get("dianli.music.synth")  # not loaded: it holds no sounds
            if synth is not None:
                synth._sound.cache_clear()
            release_memory()
        return found

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        for name, audio in zip(wanted, pool.map(one, wanted), strict=True):
            done[name] = audio
            if progress is not None:
                progress(len(done), len(wanted))
    return done
