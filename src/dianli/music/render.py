"""One entry point for every output of the music domain: JSON, MIDI, MusicXML, WAV, FLAC, and the
samples themselves.

Audio goes one way: timeline → samples at the rate asked for (:func:`render_movement_samples`, kept in
an in-process cache per movement, rate, tuning and timing) → file bytes → file. Callers that embed or
serve audio (the program, the web app, the dance page) take the samples and encode them in memory.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from pathlib import Path

import numpy as np
import numpy.typing as npt

from dianli.errors import UnknownValueError
from dianli.music.cues import (
    Timeline,
    Timing,
    cue_findings,
    default_timing,
    rule_assumptions,
    suite_timeline,
    timeline,
    timing_assumption,
)
from dianli.music.findings import Finding
from dianli.music.instruments import fingering_findings
from dianli.music.memo import BoundedCache
from dianli.music.pitch import Tuning, assumptions, default_tuning, pitch_findings
from dianli.music.score import check_score_witness, movement_info, score_findings
from dianli.music.stream import write_audio_streamed
from dianli.music.synth import SAMPLE_RATE_HZ, check_rate, encode_audio, render, rendered_seconds

Samples = npt.NDArray[np.float32]
SAMPLES_CACHE_BYTES = 256 * 1024 * 1024
"""In-process cache of rendered movements: 256 MiB holds every movement at 24 kHz (about 120 MiB of
float32) with room to spare, or the longest ones at 44.1 kHz."""

MUSIC_FORMATS: tuple[str, ...] = ("wav", "flac", "mid", "musicxml", "mei", "svg", "columns", "json")
"""``svg`` is the engraved score (verovio), ``columns`` the 樂章 as the witness lays it out (an SVG)."""
SUITE_FORMATS: tuple[str, ...] = tuple(f for f in MUSIC_FORMATS if f != "columns")
MUSIC_FILE_EXTENSIONS: dict[str, str] = {"columns": "columns.svg"}
"""The default file name's extension where it is not the format's name."""


def music_findings() -> tuple[Finding, ...]:
    """Every finding of the music domain: pitch, score and dance, fingering, cue rotations."""
    return pitch_findings() + score_findings() + fingering_findings() + cue_findings()


def timeline_json(tl: Timeline, tuning: Tuning) -> str:
    """The timeline with its assumptions, as JSON."""
    payload: dict[str, object] = {"movements": list(tl.movements)}
    if tl.witness is not None:  # a default timeline's JSON stays as it was
        payload["score_witness"] = tl.witness
    payload |= {
        "duration_s": round(tl.duration_s, 3),
        "tuning": {"system": tuning.system, "huangzhong_hz": tuning.huangzhong_hz},
        "assumptions": {
            "timing": " ".join(timing_assumption().split()),
            **assumptions(),
            **rule_assumptions(),
        },
        "events": [
            {**e.as_dict(), "time_s": round(e.time_s, 3), "duration_s": round(e.duration_s, 3)}
            for e in tl.events
        ],
    }
    return json.dumps(payload, ensure_ascii=False, indent=1)


TEXT_FORMATS: tuple[str, ...] = ("json", "musicxml", "mei", "svg", "columns")
"""Formats written as text: '-' as the output returns the text instead of writing a file."""


def timeline_text(tl: Timeline, fmt: str, tuning: Tuning) -> str:
    """The timeline in one of the text formats (JSON, MusicXML, MEI, the engraved or columns SVG)."""
    from dianli.music.musicxml import musicxml_bytes, tempo_bpm

    if fmt == "json":
        return timeline_json(tl, tuning)
    if fmt == "musicxml":
        return musicxml_bytes(tl, tuning).decode("utf-8")
    if fmt == "mei":
        from dianli.music.mei import mei_bytes

        return mei_bytes(tl.movements, tuning, tempo_bpm(tl)).decode("utf-8")
    if fmt == "svg":
        from dianli.music.engrave import engraved_svg

        return engraved_svg(tl.movements, tl.witness, tuning, tempo_bpm(tl))
    if fmt == "columns" and len(tl.movements) == 1:
        from dianli.music.columns import witness_columns_svg

        return witness_columns_svg(tl.movements[0], tl.witness)
    accepted = (
        TEXT_FORMATS if len(tl.movements) == 1 else tuple(f for f in TEXT_FORMATS if f in SUITE_FORMATS)
    )
    raise UnknownValueError("text music format", fmt, accepted)


def write(
    tl: Timeline,
    fmt: str,
    out: str | Path,
    tuning: Tuning,
    progress: Callable[[int, int], None] | None = None,
    voices: bool = False,
) -> str:
    """Write the timeline in ``fmt`` to ``out`` ('-' returns the text of a text format instead); return the
    path or text. ``voices`` speaks the calls in the audio (wav, flac)."""
    if fmt not in MUSIC_FORMATS:
        raise UnknownValueError("music format", fmt, MUSIC_FORMATS)
    if fmt in TEXT_FORMATS:
        text = timeline_text(tl, fmt, tuning)
        if str(out) == "-":
            return text
        Path(out).write_text(text, encoding="utf-8")
    elif fmt == "mid":
        from dianli.music.midi import write_midi

        write_midi(tl, out, tuning)
    else:  # audio, in blocks: the suite is too long to hold in memory (dianli.music.stream)
        write_audio_streamed(tl, fmt, out, tuning, SAMPLE_RATE_HZ, progress, voices)
    return str(out)


def _timing_key(timing: Timing) -> Hashable:
    return (timing.character_s, timing.stroke_s, tuple(sorted(timing.named_s.items())))


def _frozen(samples: npt.NDArray[np.float64]) -> Samples:
    out = samples.astype(np.float32)
    out.setflags(write=False)
    return out


_samples_cache: BoundedCache[Samples] = BoundedCache(SAMPLES_CACHE_BYTES, lambda a: int(a.nbytes))


def render_movement_samples(
    movement_id: str,
    sample_rate_hz: int = SAMPLE_RATE_HZ,
    timing: Timing | None = None,
    tuning: Tuning | None = None,
    witness: str | None = None,
) -> Samples:
    """One movement's mono mix as float32 samples, synthesised at ``sample_rate_hz`` (read-only), with
    the notes of the score witness (None: the default).

    Rendered once per process for each movement, rate, tuning, timing and witness; later calls return the
    same array. The movement may be named by id or name (寧平, 初獻, chuxian).
    """
    mid = movement_info(movement_id).id
    sample_rate_hz = check_rate(sample_rate_hz)
    timing = timing or default_timing()
    tuning = tuning or default_tuning()
    read = check_score_witness(witness)
    key = (mid, sample_rate_hz, tuning, _timing_key(timing), read)
    return _samples_cache.get(
        key, lambda: _frozen(render(timeline(mid, timing, read), tuning, sample_rate_hz))
    )


def render_suite_samples(
    sample_rate_hz: int = SAMPLE_RATE_HZ,
    timing: Timing | None = None,
    tuning: Tuning | None = None,
    progress: Callable[[int, int], None] | None = None,
    witness: str | None = None,
) -> Samples:
    """The whole rite's music as float32 samples at ``sample_rate_hz`` (not cached: it is long)."""
    sample_rate_hz = check_rate(sample_rate_hz)
    tl = suite_timeline(timing or default_timing(), witness=witness)
    return _frozen(render(tl, tuning or default_tuning(), sample_rate_hz, progress))


def movement_audio_seconds(
    movement_id: str, timing: Timing | None = None, witness: str | None = None
) -> float:
    """How long a movement's audio lasts (its timeline, then the ring of its last strokes): the length a
    player of the movement (the dance) should run to."""
    return rendered_seconds(timeline(movement_info(movement_id).id, timing or default_timing(), witness))


def render_movement(
    movement_id: str,
    fmt: str,
    out: str | Path,
    timing: Timing | None = None,
    tuning: Tuning | None = None,
    witness: str | None = None,
    voices: bool = False,
) -> str:
    """Render one movement with the notes of the score witness (None: the default); ``voices`` speaks the
    calls (espeak-ng)."""
    tuning = tuning or default_tuning()
    if fmt in ("wav", "flac") and not voices:
        samples = render_movement_samples(movement_id, SAMPLE_RATE_HZ, timing, tuning, witness)
        Path(out).write_bytes(encode_audio(samples, fmt, SAMPLE_RATE_HZ))
        return str(out)
    return write(timeline(movement_id, timing or default_timing(), witness), fmt, out, tuning, voices=voices)


def render_suite(
    fmt: str,
    out: str | Path,
    timing: Timing | None = None,
    tuning: Tuning | None = None,
    progress: Callable[[int, int], None] | None = None,
    witness: str | None = None,
    voices: bool = False,
) -> str:
    """Render the whole rite's music with the notes of the score witness (None: the default); ``voices``
    speaks the calls of 麾生 and 節生 (espeak-ng), a rehearsal track."""
    tuning = tuning or default_tuning()
    tl = suite_timeline(timing or default_timing(), witness=witness)
    return write(tl, fmt, out, tuning, progress, voices)
