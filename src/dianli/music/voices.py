"""The calls of the 大成樂 voiced: 麾生's 「樂奏咸平之曲」 and 「樂止」, 節生's 「奏寧平之舞」 and 「舞止」, spoken by
the offline Mandarin voice of espeak-ng (Debian package ``espeak-ng``) at their times in the timeline, so
the audio can serve as a rehearsal track.

**Said as written to be said.** espeak-ng's Mandarin dictionary as Debian ships it knows few traditional
characters (it reads 樂止 as the English "le-four zhi"), and where it knows a character it knows one
reading (樂 lè, where the calls say yuè). So the calls are not given to it as text: each call's reading is
data beside the call (``call_reading`` in data/cues.yaml, ``tune_reading`` in data/movements.yaml, pinyin
with tone numbers), :func:`phonemes` turns the pinyin into espeak-ng's own Mandarin phonemes, with the
third-tone sandhi of speech (舞止 wǔ zhǐ is said wú zhǐ), and espeak-ng is given those phonemes in its
``[[...]]`` phoneme input, which it speaks as written.

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
from dianli.music.schema import PINYIN_SYLLABLE

ESPEAK = "espeak-ng"
ESPEAK_VOICE = "cmn"
"""espeak-ng's Mandarin voice (its phonemes and intonation; the words come as phonemes)."""

_INITIALS: dict[str, str] = {
    "zh": "ts.", "ch": "ts.h", "sh": "s.", "r": "z.", "z": "ts", "c": "tsh", "s": "s",
    "b": "p", "p": "ph", "m": "m", "f": "f", "d": "t", "t": "th", "n": "n", "l": "l",
    "g": "k", "k": "kh", "h": "X", "j": "tS;", "q": "tS;h", "x": "S;",
}  # fmt: skip
"""Pinyin initials as espeak-ng's Mandarin phonemes (phsource/ph_cmn; its rules in cmn_rules)."""
_FINALS: dict[str, tuple[str, str]] = {
    "a": ("A", ""), "ai": ("ai", ""), "ao": ("Au", ""), "an": ("a", "n"), "ang": ("A", "N"),
    "o": ("o", ""), "ou": ("ou", ""), "ong": ("ong", ""),
    "e": ("o-", ""), "ei": ("ei", ""), "en": ("@", "n"), "eng": ("@", "N"), "er": ("@r", ""),
    "i": ("i", ""), "in": ("i", "n"), "ing": ("i", "N"),
    "ia": ("iA", ""), "iao": ("jAu", ""), "ie": ("iE", ""), "iu": ("iou", ""), "iou": ("iou", ""),
    "ian": ("iE", "n"), "iang": ("iA", "N"), "iong": ("y", "N"),
    "u": ("u", ""), "ua": ("wA", ""), "uo": ("uo", ""), "uai": ("uai", ""), "ui": ("uei", ""),
    "uei": ("uei", ""), "uan": ("ua", "n"), "un": ("u@", "n"), "uen": ("u@", "n"),
    "uang": ("wA", "N"), "ueng": ("u@", "N"),
    "ü": ("y", ""), "üe": ("yE", ""), "üan": ("y&", "n"), "ün": ("y@", "n"),
}  # fmt: skip
"""Pinyin finals as espeak-ng's Mandarin phonemes: the part the tone follows, and the coda after it."""
_ZERO_INITIAL: dict[str, tuple[str, str, str]] = {
    "yi": ("j", "i", ""), "yin": ("j", "i", "n"), "ying": ("j", "i", "N"),
    "ya": ("", "iA", ""), "ye": ("", "iE", ""), "yao": ("", "iAu", ""), "you": ("", "iou", ""),
    "yan": ("", "iE", "n"), "yang": ("", "iA", "N"), "yong": ("", "y", "N"),
    "yu": ("", "y", ""), "yue": ("", "yE", ""), "yuan": ("", "y&", "n"), "yun": ("", "y@", "n"),
    "wu": ("w", "u", ""), "wa": ("w", "A", ""), "wo": ("w", "o", ""), "wai": ("w", "ai", ""),
    "wei": ("w", "ei", ""), "wan": ("w", "A", "n"), "wen": ("w", "u@", "n"),
    "wang": ("w", "A", "N"), "weng": ("w", "u@", "N"),
}  # fmt: skip
"""Syllables spelt with y or w and no initial: (glide, the part the tone follows, coda)."""
_SPOKEN_I = {"z": "i[", "c": "i[", "s": "i[", "zh": "i.", "ch": "i.", "sh": "i.", "r": "i."}
"""The apical vowel written i after z, c, s and zh, ch, sh, r."""
_TONES = {1: "55", 2: "35", 3: "214", 4: "51", 5: "11"}
"""espeak-ng's Mandarin tone phonemes (Chao's numbers); 5 is the neutral tone."""
HALF_THIRD = "21"
"""A third tone before any tone but the third: only its low fall is said."""
WORDS_PER_MINUTE = 110
"""Slow and even (但要舂容和雅，不可急促暴戾); faster only to fit the call's time."""
MAX_WORDS_PER_MINUTE = 400
CALL_GAIN = 0.5
"""A call's peak as a share of the music's peak."""

Signal = npt.NDArray[np.float64]


def _syllable(pinyin: str, tone: str) -> str:
    """One pinyin syllable (its tone number taken off) as espeak-ng phonemes, said with ``tone``."""
    word = pinyin.replace("v", "ü")
    if word in _ZERO_INITIAL:
        glide, nucleus, coda = _ZERO_INITIAL[word]
        return f"{glide}{'' if tone == _TONES[5] else chr(39)}{nucleus}{tone}{coda}"
    initial = next((i for i in ("zh", "ch", "sh") if word.startswith(i)), word[:1])
    if initial not in _INITIALS:
        initial = ""
    final = word[len(initial) :]
    if initial in ("j", "q", "x") and final.startswith("u"):
        final = "ü" + final[1:]
    if final == "i" and initial in _SPOKEN_I:
        nucleus, coda = _SPOKEN_I[initial], ""
    elif final == "e" and initial in ("d", "t", "n", "l"):
        nucleus, coda = "@", ""
    elif final in _FINALS:
        nucleus, coda = _FINALS[final]
    else:
        raise ValueError(f"{pinyin!r} is not a pinyin syllable")
    if initial in ("g", "k", "h", "t") and final in ("uan", "un"):
        nucleus = "w" + nucleus[1:] if final == "uan" else "w" + nucleus
    glide = ""
    if nucleus[0] in "wj":  # espeak-ng stresses the vowel after the glide: Xw'A35N (huang2)
        glide, nucleus = nucleus[0], nucleus[1:]
    stress = "" if tone == _TONES[5] else "'"  # a neutral tone is unstressed
    return f"{_INITIALS.get(initial, '')}{glide}{stress}{nucleus}{tone}{coda}"


def phonemes(reading: str) -> str:
    """A reading (pinyin with tone numbers, syllables separated by spaces: ``yue4 zhi3``) as the
    espeak-ng Mandarin phonemes it is spoken with, syllables separated by spaces: ``'yE51 ts.'i.214``.

    A third tone before another third tone is said as a second (舞止 wǔ zhǐ: wú zhǐ), before any other
    tone as a half third (21); a reading's last third tone is said whole (214)."""
    syllables: list[tuple[str, int]] = []
    for word in reading.split():
        if not PINYIN_SYLLABLE.fullmatch(word):
            raise ValueError(f"{word!r} in {reading!r} is not pinyin with a tone number 1-5 (e.g. yue4)")
        syllables.append((word[:-1], int(word[-1])))
    spoken: list[str] = []
    for k, (word, tone) in enumerate(syllables):
        following = syllables[k + 1][1] if k + 1 < len(syllables) else None
        mark = _TONES[tone]
        if tone == 3 and following is not None:
            mark = _TONES[2] if following == 3 else HALF_THIRD
        spoken.append(_syllable(word, mark))
    return " ".join(spoken)


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


def espeak_input(reading: str) -> str:
    """What espeak-ng is given for a reading: its phonemes in espeak-ng's ``[[...]]`` phoneme input."""
    return f"[[{phonemes(reading)}]]"


def _speak(reading: str, words_per_minute: int) -> tuple[Signal, int]:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "call.wav"
        subprocess.run(
            [
                _require(),
                "-v",
                ESPEAK_VOICE,
                "-s",
                str(words_per_minute),
                "-w",
                str(out),
                espeak_input(reading),
            ],
            check=True,
            capture_output=True,
        )
        data, rate = sf.read(str(out), dtype="float64", always_2d=False)
    return np.asarray(data, dtype=np.float64), int(rate)


@functools.lru_cache(maxsize=64)
def spoken(reading: str, rate: int, max_seconds: float) -> Signal:
    """A reading (pinyin with tone numbers) spoken by espeak-ng at ``rate`` samples per second, no longer
    than ``max_seconds`` (spoken faster if need be); read-only."""
    wpm = WORDS_PER_MINUTE
    data, source_rate = _speak(reading, wpm)
    length = data.size / source_rate
    if length > max_seconds > 0:
        wpm = min(MAX_WORDS_PER_MINUTE, int(wpm * length / max_seconds) + 1)
        data, source_rate = _speak(reading, wpm)
    n = round(data.size * rate / source_rate)
    resampled = np.interp(np.arange(n) * source_rate / rate, np.arange(data.size), data) if n else data
    resampled.setflags(write=False)
    return resampled


def call_reading(e: Event) -> str:
    """How a call event is spoken (its ``call_reading``); an error naming the call where it has none."""
    if not e.reading:
        raise DianliError(f"the call {e.label} has no reading: give its rule a call_reading in cues.yaml")
    return e.reading


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
            voice = spoken(call_reading(e), rate, share)
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
