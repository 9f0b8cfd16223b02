"""The calls voiced by espeak-ng: heard where the timeline places them, within their time, off by default.

espeak-ng is a system package (apt-get install espeak-ng): without it these tests skip, and under
.ci/run (DIANLI_REQUIRE_SYSTEM_PACKAGES=1) they fail, as the browser tests do."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from dianli.music.cues import suite_timeline, timeline
from dianli.music.render import render_suite
from dianli.music.synth import render
from dianli.music.voices import add_calls, spoken

RATE = 8000


pytestmark = pytest.mark.espeak  # the system program espeak-ng (see tests/conftest.py)


def _rms(x: np.ndarray, start_s: float, end_s: float) -> float:
    part = x[int(start_s * RATE) : int(end_s * RATE)]
    return float(np.sqrt(np.mean(part**2)))


@pytest.fixture(scope="module")
def chuxian() -> tuple[np.ndarray, np.ndarray]:
    tl = timeline("chuxian")
    return render(tl, rate=RATE), render(tl, rate=RATE, voices=True)


@pytest.mark.parametrize(
    ("start_s", "end_s", "who"),
    [
        (0.0, 1.5, "麾生 樂奏寧平之曲"),
        (1.5, 3.0, "東階節生 奏寧平之舞"),
        (148.8, 150.3, "麾生 樂止"),
        (150.3, 151.8, "西階節生 舞止"),
    ],
)
def test_calls_are_heard_where_the_music_is_silent(
    chuxian: tuple[np.ndarray, np.ndarray], start_s: float, end_s: float, who: str
) -> None:
    silent, voiced = chuxian
    assert who
    assert _rms(silent, start_s, end_s) < 1e-4  # the last strokes have rung out
    assert _rms(voiced, start_s, end_s) > 0.01


def test_the_music_itself_is_unchanged_between_calls(chuxian: tuple[np.ndarray, np.ndarray]) -> None:
    silent, voiced = chuxian
    # the mix is renormalised, so compare shapes: the sung line between the calls is the same signal
    a, b = silent[int(10 * RATE) : int(100 * RATE)], voiced[int(10 * RATE) : int(100 * RATE)]
    assert float(np.corrcoef(a, b)[0, 1]) > 0.999


@pytest.mark.parametrize(
    ("reading", "limit_s"),
    [("yue4 zou4 xian2 ping2 zhi1 qu3", 1.5), ("yue4 zhi3", 1.5), ("zou4 ning2 ping2 zhi1 wu3", 3.0)],
)
def test_a_call_is_spoken_within_its_time(reading: str, limit_s: float) -> None:
    signal = spoken(reading, RATE, limit_s)
    assert 0.3 < signal.size / RATE <= limit_s + 0.05


def test_every_call_of_the_suite_is_placed() -> None:
    tl = suite_timeline()
    placed = add_calls(np.zeros(int((tl.duration_s + 5) * RATE)), tl, RATE)
    calls = [e for e in tl.events if e.kind == "call"]
    assert len(placed) == len(calls) == 7 * 2 + 3 * 2  # 麾 up and down each movement, 節 in the three 獻
    assert {words for _t, _role, words in placed} >= {"樂奏咸平之曲", "奏寧平之舞", "樂止", "舞止"}


def test_suite_with_voices_writes_a_rehearsal_track(tmp_path: Path) -> None:
    from dianli.music.cues import default_timing

    out = tmp_path / "rehearsal.flac"
    render_suite("flac", out, default_timing(tempo=20), voices=True)
    samples, rate = sf.read(str(out))
    assert rate == 44100 and samples.size > 0
