"""Ogg Opus through the system's libopus: Ogg's CRC, exact length after decoding, every Opus rate."""

from __future__ import annotations

import io
import os

import numpy as np
import pytest
import soundfile as sf

from dianli.music.opus import OPUS_RATES_HZ, encode_ogg_opus, ogg_crc, opus_available


@pytest.fixture
def libopus() -> None:
    """Skip without the system's libopus (libsndfile encodes instead), except under .ci/run, where
    chromium's install brings libopus0 and a skip is a failure (as for every system package)."""
    if opus_available():
        return
    message = "needs the system library libopus, which is not installed (apt-get install libopus0)"
    if os.environ.get("DIANLI_REQUIRE_SYSTEM_PACKAGES") == "1":
        pytest.fail(f"{message}; CI requires it", pytrace=False)
    pytest.skip(message)


needs_libopus = pytest.mark.usefixtures("libopus")


def _bitwise_crc(data: bytes) -> int:
    """Ogg's CRC-32 one bit at a time (RFC 3533: polynomial 0x04C11DB7, no reflection, no inversion)."""
    crc = 0
    for byte in data:
        crc ^= byte << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7) if crc & 0x80000000 else crc << 1
            crc &= 0xFFFFFFFF
    return crc


@pytest.mark.parametrize("data", [b"", b"\x00", b"\xff" * 3, b"OggS", bytes(range(256)) * 3])
def test_ogg_crc_matches_the_bitwise_definition(data: bytes) -> None:
    assert ogg_crc(data) == _bitwise_crc(data)


def _tone(rate: int, n: int) -> np.ndarray:
    return (0.5 * np.sin(2 * np.pi * 440.0 * np.arange(n) / rate)).astype(np.float32)


@needs_libopus
@pytest.mark.parametrize("rate", OPUS_RATES_HZ)
@pytest.mark.parametrize("seconds", [0.001, 0.02, 1.0, 7.3])
def test_decodes_to_exactly_the_samples_given(rate: int, seconds: float) -> None:
    tone = _tone(rate, max(1, round(rate * seconds)))
    data = encode_ogg_opus(tone, rate)
    assert data[:4] == b"OggS" and b"OpusHead" in data[:64]
    back, back_rate = sf.read(io.BytesIO(data), dtype="float32")
    assert back_rate == rate and back.size == tone.size
    if seconds >= 1:
        assert np.corrcoef(back, tone)[0, 1] > 0.99


@needs_libopus
def test_every_page_checksum_is_right() -> None:
    data = encode_ogg_opus(_tone(24_000, 24_000 * 20), 24_000)
    pages = [i for i in range(len(data)) if data.startswith(b"OggS", i)]
    assert len(pages) > 3
    for start, end in zip(pages, [*pages[1:], len(data)], strict=True):
        page = bytearray(data[start:end])
        stated = int.from_bytes(page[22:26], "little")
        page[22:26] = b"\0\0\0\0"
        assert ogg_crc(bytes(page)) == stated


@pytest.mark.parametrize("rate", [22_050, 44_100])
def test_a_rate_opus_does_not_take_is_refused(rate: int) -> None:
    with pytest.raises(ValueError, match=str(rate)):
        encode_ogg_opus(np.zeros(10, dtype=np.float32), rate)


@needs_libopus
def test_the_same_samples_through_libsndfile_decode_alike() -> None:
    """The fallback (libsndfile) and libopus agree on length and closely on content."""
    tone = _tone(24_000, 24_000 * 3)
    ours, _ = sf.read(io.BytesIO(encode_ogg_opus(tone, 24_000)), dtype="float32")
    buffer = io.BytesIO()
    sf.write(buffer, tone, 24_000, format="OGG", subtype="OPUS")
    theirs, _ = sf.read(io.BytesIO(buffer.getvalue()), dtype="float32")
    assert ours.size == theirs.size == tone.size
    assert np.corrcoef(ours, theirs)[0, 1] > 0.99
