"""Benchmark: the booklet of 祀先師 at 臺灣府 in 1752 with its audio, against two baselines in the same run.

- baseline: the same booklet without audio (``dianli program … --no-audio``);
- old path: each movement synthesised at 44.1 kHz, written to a WAV file, read back, resampled to the
  booklet's rate and encoded (Ogg Opus, by the soundfile wheel's libsndfile), two movements at a time —
  the path before ``render_movement_samples``, kept here so it can be measured;
- new path: ``render_all_audio`` — each movement synthesised directly at the booklet's rate and encoded in
  memory (by the system's libopus where installed) — with every cache cleared first (as in a fresh
  process), then again warm (what the web app sees).

Wall time and process CPU time are both printed (the machine may be shared: CPU time is the steadier
figure), with per-stage times of one movement, and every figure as a ratio to the baseline.
"""

from __future__ import annotations

import io
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import soundfile as sf

from dianli.api import (
    Program,
    assemble_program,
    encode_samples,
    render_all_audio,
    render_booklet,
    timeline,
)
from dianli.music import render as music_render
from dianli.music import synth
from dianli.music.opus import opus_available
from dianli.program import audio as program_audio
from dianli.program.config import config

RITE, PLACE, YEAR = "祀先師", "臺灣府", 1752
OLD_RATE_HZ = 44_100
STAGE_MOVEMENT = "chuxian"


@dataclass(frozen=True)
class Clock:
    wall_s: float
    cpu_s: float


def clocked(fn: Callable[[], object]) -> Clock:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return Clock(time.perf_counter() - wall, time.process_time() - cpu)


def clear_caches() -> None:
    synth._sound.cache_clear()
    music_render._samples_cache.clear()
    program_audio._by_request.clear()
    program_audio._by_sound.clear()


def old_resample(samples: npt.NDArray[np.float64], rate_hz: int, target_hz: int) -> npt.NDArray[np.float32]:
    """The old path's resampler: a two-tap low-pass, then linear interpolation."""
    smoothed = np.convolve(samples, np.array([0.5, 0.5]), mode="same")
    positions = np.arange(int(len(samples) * target_hz / rate_hz)) * (rate_hz / target_hz)
    out: npt.NDArray[np.float32] = np.interp(positions, np.arange(len(samples)), smoothed).astype(np.float32)
    return out


def old_movement(movement_id: str, stages: dict[str, float] | None = None) -> bytes:
    """One movement by the old path: 44.1 kHz → WAV file → read back → resample → encode (libsndfile)."""
    rule = config().audio
    marks = [time.process_time()]
    samples = synth.render(timeline(movement_id), rate=OLD_RATE_HZ)
    marks.append(time.process_time())
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "movement.wav"
        synth.write_audio(samples, wav)
        back, rate_hz = sf.read(wav, dtype="float64")
    marks.append(time.process_time())
    reduced = old_resample(back, int(rate_hz), rule.rate_hz)
    marks.append(time.process_time())
    buffer = io.BytesIO()
    sf.write(buffer, reduced, rule.rate_hz, format=rule.format, subtype=rule.subtype)
    data = buffer.getvalue()
    marks.append(time.process_time())
    if stages is not None:
        names = ("synthesis", "WAV write + read", "resample", "encode")
        stages.update({n: b - a for n, a, b in zip(names, marks, marks[1:], strict=False)})
    return data


def new_movement_stages(movement_id: str) -> dict[str, float]:
    rule = config().audio
    marks = [time.process_time()]
    samples = music_render.render_movement_samples(movement_id, rule.rate_hz)
    marks.append(time.process_time())
    encode_samples(samples, rule.rate_hz, rule.format, rule.subtype)
    marks.append(time.process_time())
    return {"synthesis": marks[1] - marks[0], "encode": marks[2] - marks[1]}


def booklet(program: Program, audio: bool, old: bool = False) -> str:
    movements = [c.movement for c in program.music]
    if not audio:
        return render_booklet(program, audio={})
    if old:
        with ThreadPoolExecutor(max_workers=program_audio.AUDIO_WORKERS) as pool:
            encoded = dict(zip(movements, pool.map(old_movement, movements), strict=True))
        found = {m: program_audio.MovementAudio(m, config().audio.mime, data) for m, data in encoded.items()}
        return render_booklet(program, audio=found)
    return render_booklet(program, audio=render_all_audio(movements))


def main() -> None:
    program = assemble_program(RITE, PLACE, YEAR)
    movements = [c.movement for c in program.music]
    assemble = clocked(lambda: assemble_program(RITE, PLACE, YEAR))
    print(f"{RITE} at {PLACE} {YEAR}: {len(movements)} movements ({', '.join(movements)})")
    print(f"assemble (warm) {assemble.wall_s:.2f} s")

    runs: dict[str, Clock] = {}
    runs["baseline: booklet without audio"] = clocked(lambda: booklet(program, audio=False))
    clear_caches()
    runs["old path: 44.1 kHz WAV file, read, resample, encode"] = clocked(
        lambda: booklet(program, audio=True, old=True)
    )
    clear_caches()
    runs["new path: samples at the booklet's rate, encoded in memory"] = clocked(
        lambda: booklet(program, audio=True)
    )
    runs["new path, warm (in-process cache, as the web app)"] = clocked(lambda: booklet(program, audio=True))

    base = runs["baseline: booklet without audio"]
    old = runs["old path: 44.1 kHz WAV file, read, resample, encode"]
    print(f"\n{'run':60s} {'wall s':>8s} {'cpu s':>8s} {'×base':>7s} {'vs old':>7s}")
    for name, c in runs.items():
        print(
            f"{name:60s} {c.wall_s:8.2f} {c.cpu_s:8.2f} {c.wall_s / base.wall_s:7.1f} "
            f"{old.wall_s / c.wall_s:6.1f}×"
        )

    clear_caches()
    old_stages: dict[str, float] = {}
    old_movement(STAGE_MOVEMENT, old_stages)
    clear_caches()
    new_stages = new_movement_stages(STAGE_MOVEMENT)
    print(f"\nOgg Opus through the system's libopus: {'yes' if opus_available() else 'no (libsndfile)'}")
    print(f"\nCPU seconds per stage, one movement ({STAGE_MOVEMENT}, cold caches):")
    for name in ("synthesis", "WAV write + read", "resample", "encode"):
        print(f"  {name:18s} old {old_stages.get(name, 0.0):6.2f}   new {new_stages.get(name, 0.0):6.2f}")
    print(f"  {'total':18s} old {sum(old_stages.values()):6.2f}   new {sum(new_stages.values()):6.2f}")


if __name__ == "__main__":
    main()
