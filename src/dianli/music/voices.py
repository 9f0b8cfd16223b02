"""The calls of the 大成樂 voiced: 麾生's 「樂奏咸平之曲」 and 「樂止」, 節生's 「奏寧平之舞」 and 「舞止」, spoken by
the offline Mandarin voice of espeak-ng (Debian package ``espeak-ng``) at their times in the timeline, so
the audio can serve as a rehearsal track.

A call is spoken within the time its rule gives it (``call_s``): where espeak-ng's first reading is
longer, it is spoken again faster. The synthesiser is not a 麾生: the voice is a cue to rehearse with,
not a reconstruction of how the calls were sung (「長韻漸大」, 「欲渢然而去」). Without espeak-ng on the
PATH, asking for voices is an error that says what to install.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
import soundfile as sf

from dianli.errors import DianliError
from dianli.music.cues import Event, Timeline

ESPEAK = "espeak-ng"
ESPEAK_VOICE = "cmn"
"""espeak-ng's Mandarin voice."""
WORDS_PER_MINUTE = 110
"""Slow and even (但要舂容和雅，不可急促暴戾); faster only to fit the call's time."""
MAX_WORDS_PER_MINUTE = 400
CALL_GAIN = 0.5
"""A call's peak as a share of the music's peak."""

Signal = npt.NDArray[np.float64]


def espeak_available() -> bool:
    """Whether espeak-ng is on the PATH."""
    return shutil.which(ESPEAK) is not None


def _require() -> str:
    path = shutil.which(ESPEAK)
    if path is None:
        raise DianliError(
            "voices need espeak-ng, an offline speech synthesiser: install it (Debian/Ubuntu: "
            "apt-get install espeak-ng; macOS: brew install espeak-ng) or leave out --voices"
        )
    return path


def _speak(text: str, words_per_minute: int) -> tuple[Signal, int]:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "call.wav"
        subprocess.run(
            [_require(), "-v", ESPEAK_VOICE, "-s", str(words_per_minute), "-w", str(out), text],
            check=True,
            capture_output=True,
        )
        data, rate = sf.read(str(out), dtype="float64", always_2d=False)
    return np.asarray(data, dtype=np.float64), int(rate)


@functools.lru_cache(maxsize=64)
def spoken(text: str, rate: int, max_seconds: float) -> Signal:
    """``text`` spoken by espeak-ng at ``rate`` samples per second, no longer than ``max_seconds``
    (spoken faster if need be); read-only."""
    wpm = WORDS_PER_MINUTE
    data, source_rate = _speak(text, wpm)
    length = data.size / source_rate
    if length > max_seconds > 0:
        wpm = min(MAX_WORDS_PER_MINUTE, int(wpm * length / max_seconds) + 1)
        data, source_rate = _speak(text, wpm)
    n = round(data.size * rate / source_rate)
    resampled = np.interp(np.arange(n) * source_rate / rate, np.arange(data.size), data) if n else data
    resampled.setflags(write=False)
    return resampled


class Placed(NamedTuple):
    """A call as heard: where it starts (sample and seconds), its voice scaled to a peak of 1, who and what."""

    start: int
    voice: Signal
    start_s: float
    role: str
    words: str


def placed_calls(tl: Timeline, rate: int) -> list[Placed]:
    """Every call of the timeline, voiced, in time. Calls made together (麾生 and 東階節生: 「亦揚節唱」) are
    spoken one after the other within the time of one call, so each is heard."""
    groups: dict[float, list[Event]] = {}
    for e in tl.events:
        if e.kind == "call":
            groups.setdefault(round(e.time_s, 6), []).append(e)
    placed: list[Placed] = []
    for at, calls in groups.items():
        share = min(c.duration_s for c in calls) / len(calls)
        for k, e in enumerate(calls):
            start_s = at + k * share
            voice = spoken(e.label, rate, share)
            top = float(np.max(np.abs(voice))) if voice.size else 0.0
            unit = voice / top if top > 0 else voice
            placed.append(Placed(round(start_s * rate), unit, start_s, e.role or "", e.label))
    return placed


def call_gain(instrument_peak: float) -> float:
    """How loud the calls are: a share of the instruments' peak (of 1 where they are silent)."""
    return CALL_GAIN * (instrument_peak or 1.0)


def add_calls(mix: Signal, tl: Timeline, rate: int) -> list[tuple[float, str, str]]:
    """Mix every call of the timeline into ``mix`` (in place); return (time, role, words) of each."""
    gain = call_gain(float(np.max(np.abs(mix))) if mix.size else 0.0)
    placed = placed_calls(tl, rate)
    for call in placed:
        end = min(mix.size, call.start + call.voice.size)
        if end > call.start:
            mix[call.start : end] += call.voice[: end - call.start] * gain
    return [(c.start_s, c.role, c.words) for c in placed]
