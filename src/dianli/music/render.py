"""One entry point for every output of the music domain: JSON, MIDI, MusicXML, WAV, FLAC."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

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
from dianli.music.pitch import Tuning, assumptions, default_tuning, pitch_findings
from dianli.music.score import score_findings

MUSIC_FORMATS: tuple[str, ...] = ("wav", "flac", "mid", "musicxml", "json")


def music_findings() -> tuple[Finding, ...]:
    """Every finding of the music domain: pitch, score and dance, fingering, cue rotations."""
    return pitch_findings() + score_findings() + fingering_findings() + cue_findings()


def timeline_json(tl: Timeline, tuning: Tuning) -> str:
    """The timeline with its assumptions, as JSON."""
    payload = {
        "movements": list(tl.movements),
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


def write(
    tl: Timeline,
    fmt: str,
    out: str | Path,
    tuning: Tuning,
    progress: Callable[[int, int], None] | None = None,
) -> str:
    """Write the timeline in ``fmt`` to ``out`` ('-' returns JSON text instead); return the path or text."""
    if fmt not in MUSIC_FORMATS:
        raise UnknownValueError("music format", fmt, MUSIC_FORMATS)
    if fmt == "json":
        text = timeline_json(tl, tuning)
        if str(out) == "-":
            return text
        Path(out).write_text(text, encoding="utf-8")
    elif fmt == "mid":
        from dianli.music.midi import write_midi

        write_midi(tl, out, tuning)
    elif fmt == "musicxml":
        from dianli.music.musicxml import write_musicxml

        write_musicxml(tl, out, tuning)
    else:
        from dianli.music.synth import render, write_audio

        write_audio(render(tl, tuning, progress=progress), out, fmt)
    return str(out)


def render_movement(
    movement_id: str, fmt: str, out: str | Path, timing: Timing | None = None, tuning: Tuning | None = None
) -> str:
    """Render one movement."""
    tuning = tuning or default_tuning()
    return write(timeline(movement_id, timing or default_timing()), fmt, out, tuning)


def render_suite(
    fmt: str,
    out: str | Path,
    timing: Timing | None = None,
    tuning: Tuning | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> str:
    """Render the whole rite's music."""
    tuning = tuning or default_tuning()
    return write(suite_timeline(timing or default_timing()), fmt, out, tuning, progress)
