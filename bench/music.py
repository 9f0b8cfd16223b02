"""Benchmark: the whole 大成樂 suite to audio at 44.1 kHz, against a naive per-sample Python loop.

Prints the real-time factor of the vectorised synthesiser and of the naive baseline (which renders one
movement, 初獻, one sample at a time, same run), and their ratio. Then the peak memory of writing the suite
to FLAC, each in a fresh process: the one-array mix (``render`` then encode, the old path, the baseline) and
the mix in blocks (``dianli music suite``, :mod:`dianli.music.stream`), with the target (300 MB).
"""

from __future__ import annotations

import math
import subprocess
import sys
import time

from dianli.music.cues import suite_timeline, timeline
from dianli.music.pitch import default_tuning
from dianli.music.synth import SAMPLE_RATE_HZ, render

NAIVE_SECONDS = 20.0
"""The baseline renders only the first seconds of 初獻 (a per-sample loop is slow) and extrapolates."""


def naive_render(seconds: float) -> list[float]:
    """Each sample computed in Python: every sounding event's sine with an exponential decay."""
    tuning = default_tuning()
    tl = timeline("chuxian")
    events = [e for e in tl.events if e.kind in ("stroke", "note") and e.time_s < seconds]
    out = []
    for n in range(int(seconds * SAMPLE_RATE_HZ)):
        t = n / SAMPLE_RATE_HZ
        value = 0.0
        for e in events:
            dt = t - e.time_s
            if 0 <= dt < e.duration_s + 2.0:
                f = tuning.freq_hz(e.lu) if e.lu else 200.0
                value += math.exp(-dt) * math.sin(2 * math.pi * f * dt)
        out.append(value)
    return out


def main() -> None:
    tl = suite_timeline()
    start = time.perf_counter()
    render(tl)
    fast_s = time.perf_counter() - start
    start = time.perf_counter()
    naive_render(NAIVE_SECONDS)
    naive_s = time.perf_counter() - start
    fast_rtf = tl.duration_s / fast_s
    naive_rtf = NAIVE_SECONDS / naive_s
    print(f"suite: {tl.duration_s:.0f} s of music rendered in {fast_s:.1f} s — {fast_rtf:.0f}× real time")
    print(f"naive per-sample loop (初獻, first {NAIVE_SECONDS:.0f} s): {naive_rtf:.2f}× real time")
    print(f"speed-up over the naive loop: {fast_rtf / naive_rtf:.0f}×")
    old_mb = peak_mb(ONE_ARRAY)
    new_mb = peak_mb(IN_BLOCKS)
    print(f"suite to FLAC, peak memory: one array {old_mb:.0f} MB (baseline); in blocks {new_mb:.0f} MB")
    verdict = "met" if new_mb < TARGET_PEAK_MB else "NOT met"
    print(f"  ratio {new_mb / old_mb:.2f}; target < {TARGET_PEAK_MB} MB: {verdict}")


TARGET_PEAK_MB = 300
ONE_ARRAY = (
    "import tempfile, pathlib; from dianli.music.cues import suite_timeline; "
    "from dianli.music.synth import encode_audio, render; "
    "pathlib.Path(tempfile.mkdtemp(), 's.flac').write_bytes(encode_audio(render(suite_timeline()), 'flac'))"
)
IN_BLOCKS = (
    "import tempfile, pathlib; from dianli.music.render import render_suite; "
    "render_suite('flac', pathlib.Path(tempfile.mkdtemp(), 's.flac'))"
)


def peak_mb(code: str) -> float:
    """The peak resident memory of a fresh Python process running ``code``, in MB (as it reports itself)."""
    report = "; import resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    done = subprocess.run([sys.executable, "-c", code + report], check=True, capture_output=True, text=True)
    return int(done.stdout.split()[-1]) / 1024


if __name__ == "__main__":
    main()
