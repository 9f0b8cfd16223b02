"""The booklet's audio on disk: a cache hit is the cold render byte for byte, and every input is in the key."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from dianli import cache
from dianli.music.cues import Timeline, Timing, default_timing, timeline
from dianli.music.pitch import Tuning, default_tuning
from dianli.music.render import render_movement_samples
from dianli.program import audio, fingerprint
from dianli.program.config import AudioRule, config

FAST = default_timing(tempo=50)


def _forget() -> None:
    """Empty the in-process caches, as a new process starts."""
    audio._by_request.clear()
    audio._by_sound.clear()


@pytest.fixture()
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path))
    _forget()
    yield tmp_path
    _forget()


def _no_synthesis(*_: object) -> bytes:
    raise AssertionError("synthesised although the audio is cached")


@pytest.mark.parametrize("movement", ["chuxian", "wangyi"])
def test_a_cache_hit_is_the_cold_render_byte_for_byte(
    movement: str, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = audio.movement_audio(movement, FAST).data
    stored = list((cache_dir / audio.CACHE_KIND).rglob("*.opus"))
    assert len(stored) == 1 and stored[0].read_bytes() == cold
    _forget()
    monkeypatch.setattr(audio, "_render_and_encode", _no_synthesis)
    warm = audio.movement_audio(movement, FAST).data
    assert warm == cold and warm[:4] == b"OggS"


def test_with_the_cache_off_nothing_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIANLI_CACHE_DIR", "off")
    _forget()
    assert audio.movement_audio("chuxian", FAST).data[:4] == b"OggS"
    assert not any(tmp_path.iterdir())
    _forget()


def test_the_streamed_mix_is_the_one_array_mix(cache_dir: Path) -> None:
    """Mixed block by block, normalised and encoded losslessly: the samples of the one-array render."""
    lossless = AudioRule(rate_hz=24_000, format="WAV", subtype="FLOAT", mime="audio/wav", assumption="test")
    data = audio._render_and_encode(timeline("chuxian", FAST), default_tuning(), lossless)
    streamed, rate = sf.read(io.BytesIO(data), dtype="float32")
    whole = render_movement_samples("chuxian", 24_000, FAST)
    assert rate == 24_000 and streamed.shape == whole.shape
    assert float(np.max(np.abs(streamed - whole))) < 1e-5


def _one_louder(tl: Timeline) -> Timeline:
    first = next(i for i, e in enumerate(tl.events) if e.kind in ("stroke", "note"))
    events = list(tl.events)
    events[first] = dataclasses.replace(events[first], velocity=events[first].velocity - 1)
    return dataclasses.replace(tl, events=tuple(events))


Change = Callable[[pytest.MonkeyPatch], tuple[Timeline, Tuning, AudioRule]]
BASE_TL = timeline("chuxian", FAST)


def _base(_: pytest.MonkeyPatch) -> tuple[Timeline, Tuning, AudioRule]:
    return BASE_TL, default_tuning(), config().audio


def _with(**change: object) -> Change:
    def make(monkeypatch: pytest.MonkeyPatch) -> tuple[Timeline, Tuning, AudioRule]:
        for target, value in change.items():
            module, name = {
                "music_code": (audio, "music_code"),
                "libopus": (audio, "libopus_version"),
                "numpy": (audio.np, "__version__"),
                "soundfile": (audio.sf, "__version__"),
                "libsndfile": (audio.sf, "__libsndfile_version__"),
                "dianli": (audio.cache, "version"),
            }[target]
            monkeypatch.setattr(module, name, value)
        return _base(monkeypatch)

    return make


CHANGES: dict[str, Change] = {
    "an event's loudness": lambda mp: (_one_louder(BASE_TL), default_tuning(), config().audio),
    "the timeline's length": lambda mp: (
        dataclasses.replace(BASE_TL, duration_s=BASE_TL.duration_s + 1),
        default_tuning(),
        config().audio,
    ),
    "the tuning": lambda mp: (BASE_TL, Tuning(huangzhong_hz=300.0), config().audio),
    "the rate": lambda mp: (BASE_TL, default_tuning(), config().audio.model_copy(update={"rate_hz": 48_000})),
    "the encoding": lambda mp: (
        BASE_TL,
        default_tuning(),
        config().audio.model_copy(update={"subtype": "VORBIS"}),
    ),
    "the music package's files": _with(music_code=lambda: b"another synthesiser"),
    "libopus": _with(libopus=lambda: "libopus 9.9"),
    "numpy": _with(numpy="0.0"),
    "soundfile": _with(soundfile="0.0"),
    "libsndfile": _with(libsndfile="0.0"),
    "dianli's version": _with(dianli=lambda dist: f"{dist} 0.0"),
}


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_changing_an_input_changes_the_key(change: str, monkeypatch: pytest.MonkeyPatch) -> None:
    before = audio.audio_key(*_base(monkeypatch))
    assert audio.audio_key(*_base(monkeypatch)) == before  # stable
    assert audio.audio_key(*CHANGES[change](monkeypatch)) != before


def test_what_does_not_sound_is_not_in_the_key() -> None:
    """A call's label (text, not sound) leaves the audio and its key as they were."""
    tl = BASE_TL
    quiet = next(i for i, e in enumerate(tl.events) if e.kind not in ("stroke", "note"))
    events = list(tl.events)
    events[quiet] = dataclasses.replace(events[quiet], label=events[quiet].label + "…")
    other = dataclasses.replace(tl, events=tuple(events))
    rule = config().audio
    assert audio.audio_key(other, default_tuning(), rule) == audio.audio_key(tl, default_tuning(), rule)


def test_lean_rendering_empties_the_sound_cache(cache_dir: Path) -> None:
    from dianli.music import synth

    found = audio.render_all(["chuxian"], workers=1, lean=True)
    assert found["chuxian"].data[:4] == b"OggS"
    assert synth._sound.cache_info().currsize == 0
    assert cache.root() == cache_dir


# --- the request: what a movement asked for led to, without its timeline ---------------------------


def _no_timeline(*_: object) -> Timeline:
    raise AssertionError("the timeline was computed although the request is cached")


def _request(
    movement: str = "chuxian", timing: Timing = FAST, tuning: Tuning | None = None, witness: str | None = None
) -> str:
    return audio.request_key(movement, timing, tuning or default_tuning(), witness, config().audio)


@pytest.mark.usefixtures("stable_package")  # the request is stored when the files did not change meanwhile
@pytest.mark.parametrize("movement", ["chuxian", "wangyi"])
def test_a_cached_request_reads_the_audio_without_a_timeline(
    movement: str, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold = audio.movement_audio(movement, FAST).data
    cache.flush()
    stored = list((cache_dir / audio.CACHE_KIND).rglob(f"*{audio.REQUEST_SUFFIX}"))
    assert len(stored) == 1 and stored[0].read_text() == audio.audio_key(
        timeline(movement, FAST), default_tuning(), config().audio
    )
    _forget()
    monkeypatch.setattr(audio, "timeline", _no_timeline)
    monkeypatch.setattr(audio, "_render_and_encode", _no_synthesis)
    assert audio.movement_audio(movement, FAST).data == cold


@pytest.mark.usefixtures("stable_package")
@pytest.mark.parametrize("damage", [b"", b"not a key", b"../" * 30, b"0" * 64])
def test_a_damaged_request_is_made_again(damage: bytes, cache_dir: Path) -> None:
    cold = audio.movement_audio("chuxian", FAST).data
    cache.flush()
    for entry in (cache_dir / audio.CACHE_KIND).rglob(f"*{audio.REQUEST_SUFFIX}"):
        entry.write_bytes(damage)
    _forget()
    assert audio.movement_audio("chuxian", FAST).data == cold


def _patched(target: str, value: object) -> Callable[[pytest.MonkeyPatch], str]:
    def make(monkeypatch: pytest.MonkeyPatch) -> str:
        module, name = {
            "package": (cache, "_package_digest"),
            "libraries": (cache, "versions"),
            "libsndfile": (audio, "libsndfile_versions"),
            "libopus": (audio, "libopus_version"),
        }[target]
        monkeypatch.setattr(module, name, value)
        return _request()

    return make


REQUESTS: dict[str, Callable[[pytest.MonkeyPatch], str]] = {
    "the movement": lambda mp: _request("yaxian"),
    "the timing": lambda mp: _request(timing=default_timing(tempo=49)),
    "the tuning": lambda mp: _request(tuning=Tuning(huangzhong_hz=300.0)),
    "the score witness": lambda mp: _request(witness="another-score"),
    "the rate": lambda mp: audio.request_key(
        "chuxian", FAST, default_tuning(), None, config().audio.model_copy(update={"rate_hz": 48_000})
    ),
    "the encoding": lambda mp: audio.request_key(
        "chuxian", FAST, default_tuning(), None, config().audio.model_copy(update={"subtype": "VORBIS"})
    ),
    "any file of the package": _patched("package", lambda: "0" * 64),
    "dianli's, numpy's or soundfile's version": _patched(
        "libraries", lambda *d: ";".join(f"{x}=0" for x in d)
    ),
    "libsndfile": _patched("libsndfile", lambda: "libsndfile-0.0"),
    "libopus": _patched("libopus", lambda: "libopus 0.0"),
}


@pytest.mark.parametrize("change", REQUESTS, ids=list(REQUESTS))
def test_the_request_key_names_what_the_audio_key_is_made_from(
    change: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _request()
    assert _request() == before  # stable
    assert REQUESTS[change](monkeypatch) != before


def test_the_libsndfile_named_is_the_one_soundfile_loads() -> None:
    assert fingerprint.libsndfile_versions().endswith(f"libsndfile-{sf.__libsndfile_version__}")
