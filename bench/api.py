"""Benchmark: the public Python API as a notebook meets it, as whole processes, against a bare interpreter.

- baseline: ``python -c pass`` (the interpreter's own start);
- ``import dianli``: the stub read by lazy_loader, no entry point's module loaded;
- the first call of a few entry points in a fresh interpreter (what a notebook's first cell costs): a date,
  a year's calendar of one place, the ceremony of 祀先師 at 臺灣府 in 1752, and a century of one rite.

Each case is run several times, alternating, with a warm on-disk cache (a temporary one, filled by a first
run), and the median printed with its ratio to the baseline. Run: ``python bench/api.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CASES = {
    "baseline: python -c pass": "pass",
    "import dianli": "import dianli",
    "dianli.date('乾隆十七年二月初一')": "import dianli; dianli.date('乾隆十七年二月初一')",
    "dianli.calendar(1752, place='臺灣府')": "import dianli; dianli.calendar(1752, place='臺灣府')",
    "dianli.ceremony('祀先師', '臺灣府', 1752)": "import dianli; dianli.ceremony('祀先師', '臺灣府', 1752).steps",
    "calendar(range(1750, 1851), 臺灣府, 祀先師)": (
        "import dianli; dianli.calendar(range(1750, 1851), place='臺灣府', rite='祀先師').to_frame()"
    ),
}


def run(code: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each case (default 7)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dianli-bench-") as scratch:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env |= {
            "PYTHONPYCACHEPREFIX": str(Path(scratch) / "bytecode"),
            "DIANLI_CACHE_DIR": str(Path(scratch)),
        }
        for code in CASES.values():  # fills the bytecode and the on-disk cache
            run(code, env)
        times: dict[str, list[float]] = {name: [] for name in CASES}
        for _ in range(options.runs):
            for name, code in CASES.items():
                times[name].append(run(code, env))
    base = statistics.median(times["baseline: python -c pass"])
    print(f"the public API, first call in a fresh interpreter (median of {options.runs}, warm cache):")
    for name, found in times.items():
        wall = statistics.median(found)
        print(f"  {name:<46} {wall * 1000:7.0f} ms ({wall / base:5.1f}×, +{(wall - base) * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
