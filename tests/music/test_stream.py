"""music/stream: audio written in blocks is the one-array mix (render + encode), to the last bit or one."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from dianli.errors import UnknownValueError
from dianli.music import stream
from dianli.music.cues import timeline
from dianli.music.synth import encode_audio, render
from dianli.music.voices import espeak_available

RATE = 8000


@pytest.mark.parametrize(
    ("movement", "fmt", "block_s"), [("chuxian", "wav", 20.0), ("yingshen", "flac", 3.7)]
)
def test_blocks_equal_the_whole_mix(
    movement: str, fmt: str, block_s: float, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stream, "BLOCK_S", block_s)  # blocks that cut through notes and rings
    tl = timeline(movement)
    out = tmp_path / f"m.{fmt}"
    stream.write_audio_streamed(tl, fmt, out, rate=RATE)
    streamed, rate = sf.read(out, dtype="int16")
    whole, _ = sf.read(io.BytesIO(encode_audio(render(tl, rate=RATE), fmt, RATE)), dtype="int16")
    assert rate == RATE
    assert streamed.size == whole.size
    assert int(np.max(np.abs(streamed.astype(np.int32) - whole))) <= 1
    assert int(np.max(np.abs(whole))) > 20_000  # normalised to the same peak, not silence


@pytest.mark.espeak
def test_voiced_blocks_equal_the_whole_mix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert espeak_available()
    monkeypatch.setattr(stream, "BLOCK_S", 5.0)
    tl = timeline("chuxian")
    out = tmp_path / "v.wav"
    stream.write_audio_streamed(tl, "wav", out, rate=RATE, voices=True)
    streamed, _ = sf.read(out, dtype="int16")
    whole, _ = sf.read(
        io.BytesIO(encode_audio(render(tl, rate=RATE, voices=True), "wav", RATE)), dtype="int16"
    )
    assert int(np.max(np.abs(streamed.astype(np.int32) - whole))) <= 1


def test_an_unknown_format_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UnknownValueError, match="ogg"):
        stream.write_audio_streamed(timeline("chuxian"), "ogg", tmp_path / "x.ogg", rate=RATE)
