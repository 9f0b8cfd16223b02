"""Ogg Opus from blocks: the same bytes as from the samples joined, however they are cut."""

from __future__ import annotations

import numpy as np
import pytest

from dianli.music.opus import encode_ogg_opus, encode_ogg_opus_blocks, opus_available

pytestmark = pytest.mark.skipif(not opus_available(), reason="needs the system libopus (libopus0)")

RATE = 24_000
SAMPLES = (0.3 * np.sin(2 * np.pi * 440 * np.arange(RATE * 2 + 123) / RATE)).astype(np.float32)


@pytest.mark.parametrize("size", [1, 479, 480, 481, 12_345, SAMPLES.size])
def test_blocks_of_any_size_give_the_same_file(size: int) -> None:
    blocks = [SAMPLES[at : at + size] for at in range(0, SAMPLES.size, size)]
    assert encode_ogg_opus_blocks(blocks, SAMPLES.size, RATE) == encode_ogg_opus(SAMPLES, RATE)


@pytest.mark.parametrize("length", [0, 1, 480, 1_000])
def test_short_and_empty_inputs(length: int) -> None:
    data = encode_ogg_opus_blocks([SAMPLES[:length]], length, RATE)
    assert data == encode_ogg_opus(SAMPLES[:length], RATE) and data[:4] == b"OggS"


def test_a_rate_opus_does_not_take_is_named() -> None:
    with pytest.raises(ValueError, match="44100"):
        encode_ogg_opus_blocks([SAMPLES], SAMPLES.size, 44_100)
