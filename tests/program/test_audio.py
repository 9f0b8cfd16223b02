"""The booklet's audio: synthesised at the booklet's rate, encoded once per sound, cached per request."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pytest
import soundfile as sf

from dianli.music.cues import default_timing, timeline
from dianli.music.score import movement_ids
from dianli.program import audio
from dianli.program.audio import movement_audio as program_audio
from dianli.program.audio import render_all as render_all_audio
from dianli.program.config import config

FAST = default_timing(tempo=50)


def test_movement_audio_is_ogg_at_the_configured_rate() -> None:
    found = program_audio("chuxian", FAST)
    samples, rate = sf.read(io.BytesIO(found.data))
    assert found.mime == config().audio.mime and found.data[:4] == b"OggS"
    assert rate == config().audio.rate_hz
    assert abs(samples.size / rate - timeline("chuxian", FAST).duration_s) < 5


def test_cached_per_movement_whatever_its_name() -> None:
    assert program_audio("寧平", FAST).data is program_audio("chuxian", FAST).data
    assert program_audio("寧平", FAST).movement == "chuxian"


def test_the_same_sound_is_encoded_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A timing that changes only the rite's opening drums is another request but the same sound."""
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path))  # no request read from an earlier run's cache
    audio._by_request.clear()
    audio._by_sound.clear()
    other = dataclasses.replace(FAST, named_s={**FAST.named_s, "tuogu_warning_s": 9.0})
    before = audio._by_sound.misses
    first = program_audio("yaxian", FAST)
    second = program_audio("yaxian", other)
    assert second.data is first.data
    assert audio._by_sound.misses == before + 1


def test_no_two_movements_of_the_suite_sound_the_same() -> None:
    """徹饌, 送神 and 望瘞 share the 咸平 tune but not their sound: 徹饌 has its own notes, and 望瘞 has
    送神's notes without the 大鼓 and 大鐘 that open 送神 — so each is rendered and encoded."""

    def sounding(mid: str) -> tuple[tuple[object, ...], ...]:
        return tuple(
            (round(e.time_s, 4), e.instrument, e.lu, round(e.duration_s, 4), e.velocity)
            for e in timeline(mid).events
            if e.kind in ("stroke", "note") and e.instrument
        )

    sounds = [sounding(m) for m in movement_ids()]
    assert len(set(sounds)) == len(sounds)
    notes = {m: [e.lu for e in timeline(m).events if e.instrument == "voice"] for m in movement_ids()}
    assert notes["wangyi"] == notes["songshen"] != notes["chezhuan"]
    assert timeline("songshen").count("dagu") == 360 and timeline("wangyi").count("dagu") == 0


def test_render_all_reports_progress_and_keeps_the_names_asked() -> None:
    seen: list[tuple[int, int]] = []
    found = render_all_audio(["chuxian", "chuxian"], lambda done, total: seen.append((done, total)))
    assert list(found) == ["chuxian"] and seen == [(1, 1)]


@pytest.mark.parametrize(
    ("movements", "processors", "workers"),
    [(7, 2, 2), (7, 8, audio.MAX_AUDIO_WORKERS), (1, 8, 1), (3, 1, 1), (0, 4, 1)],
)
def test_movements_are_rendered_one_per_processor(
    movements: int, processors: int, workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(audio.os, "sched_getaffinity", lambda _: set(range(processors)))
    assert audio.workers_for(movements) == workers


@pytest.mark.parametrize("bad", ["咸平", "../x"])
def test_an_unknown_movement_names_the_value(bad: str) -> None:
    with pytest.raises(ValueError, match="accepted"):
        program_audio(bad)
