"""A movement's length as the booklet labels it is the length of its audio (the last strokes ring on
after the timeline ends): 2:35 for the 155.8 s of 初獻, not the timeline's 2:31."""

from __future__ import annotations

import io

import pytest
import soundfile as sf

from dianli.music.cues import timeline
from dianli.program import assemble
from dianli.program.audio import movement_audio as program_audio
from dianli.program.html import environment


@pytest.mark.parametrize(("movement_id", "label"), [("chuxian", "2:35"), ("yingshen", "4:05")])
def test_the_label_is_the_length_of_the_audio(movement_id: str, label: str) -> None:
    cue = assemble.movement_cue(movement_id)
    samples, rate = sf.read(io.BytesIO(program_audio(movement_id).data))
    heard = samples.shape[0] / rate
    assert cue["audio_s"] == pytest.approx(heard, abs=0.05)
    assert cue["audio_s"] > timeline(movement_id).duration_s + 3
    assert environment().filters["seconds"](cue["audio_s"]) == label
