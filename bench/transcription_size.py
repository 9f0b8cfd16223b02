"""How drafting and aligning a transcription grows with its size: the figures behind the aligner's limit.

For each size, a transcription of that many bytes is generated (the text of a shipped witness repeated,
under a transcriber's header), then ``dianli ingest FOLDER --drafts OUT --workers 1`` is run in a fresh
process: its wall time and the peak memory of its largest process are printed, with the ratio to the
smallest size measured in the same run. The last size is beyond the limit
(:data:`dianli.datafile.TRANSCRIPTION_LIMIT_BYTES`): it shows how fast that is refused.

    python bench/transcription_size.py [SIZE_MB ...]   (default 0.1 0.2 0.4 0.8 20)
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dianli.corpus.witnesses import manifest

HEADER = "SOURCE: generated for bench/transcription_size.py\nWORK: 汀州府志 卷十一 (repeated)\n=====\n"
SOURCE_WITNESS_FILE = "tingzhou_fuzhi_juan11_dianli.txt"


def _body() -> str:
    for info in manifest():
        for file in info.files:
            if file.file == SOURCE_WITNESS_FILE:
                return (info.folder / file.file).read_text(encoding="utf-8")
    raise SystemExit(f"no shipped witness holds {SOURCE_WITNESS_FILE}")


def _make(folder: Path, size: int, body: str) -> Path:
    data = body.encode("utf-8")
    repeats = max(1, size // len(data))
    path = folder / "generated.txt"
    with path.open("wb") as out:
        out.write(HEADER.encode("utf-8"))
        for _ in range(repeats):
            out.write(data)
    return path


def _run(size_mb: float, body: str) -> tuple[float, float, int, str]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "in").mkdir()
        path = _make(root / "in", int(size_mb * 1e6), body)
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        started = time.perf_counter()
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "dianli",
                "ingest",
                str(root / "in"),
                "--drafts",
                str(root / "out"),
                "--workers",
                "1",
            ],
            capture_output=True,
            text=True,
            timeout=900,
            env={**os.environ, "COLUMNS": "200"},
        )
        seconds = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        message = (done.stderr.strip().splitlines() or [""])[-1][:150]
        return (
            seconds,
            max(peak, before) / 1024,
            done.returncode,
            f"{path.stat().st_size / 1e6:.2f} MB: {message}",
        )


def main() -> None:
    sizes = [float(a) for a in sys.argv[1:]] or [0.1, 0.2, 0.4, 0.8, 20.0]
    body = _body()
    first: float | None = None
    print(f"{'size MB':>8} {'seconds':>8} {'ratio':>6} {'peak MB':>8} {'exit':>4}  what")
    for size in sizes:
        seconds, peak, code, what = _run(size, body)
        first = first or seconds
        print(
            f"{size:>8.2f} {seconds:>8.1f} {seconds / first:>6.1f} {peak:>8.0f} {code:>4}  {what}", flush=True
        )
    print("peak MB: the largest process run so far (a run's peak is at least the previous runs').")


if __name__ == "__main__":
    main()
