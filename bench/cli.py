"""Benchmark: start-up of the command line, as whole processes, against a one-line lunar-python conversion.

- baseline: ``python -c`` converting 乾隆十七年二月初一 with lunar-python (the cheapest way to the same answer);
- ``dianli --help``, ``dianli date 乾隆十七年二月初一`` and ``dianli calendar 1752 --place 臺灣府``, each run through
  the installed console script's entry point (:func:`dianli.cli.main.main`) in a fresh interpreter.

Each is run several times, alternating, and the median wall time is taken; the ratio to the baseline is
printed with the target (3×, issue 14). The process's user+system CPU time is printed too: on a shared
machine it is the steadier figure. Run: ``python bench/cli.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import unicodedata

TARGET_RATIO = 3.0
BASELINE = "from lunar_python import Lunar; print(Lunar.fromYmd(1752, 2, 1).getSolar().toYmd())"
ENTRY = "import sys; from dianli.cli.main import main; sys.argv = ['dianli', *sys.argv[1:]]; main()"
COMMANDS: dict[str, list[str]] = {
    "dianli --help": ["--help"],
    "dianli date 乾隆十七年二月初一": ["date", "乾隆十七年二月初一"],
    "dianli calendar 1752 --place 臺灣府": ["calendar", "1752", "--place", "臺灣府"],
}


def width(text: str) -> int:
    """Terminal columns of ``text`` (wide characters take two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def run(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one process."""
    before = os.times()
    start = time.perf_counter()
    subprocess.run(
        argv,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "COLUMNS": "80"},
    )
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    cases: dict[str, list[str]] = {"baseline: lunar-python one-liner": [sys.executable, "-c", BASELINE]}
    cases |= {name: [sys.executable, "-c", ENTRY, *args] for name, args in COMMANDS.items()}
    walls: dict[str, list[float]] = {name: [] for name in cases}
    cpus: dict[str, list[float]] = {name: [] for name in cases}
    for argv in cases.values():
        run(argv)  # warm the file cache
    for _ in range(runs):
        for name, argv in cases.items():
            wall, cpu = run(argv)
            walls[name].append(wall)
            cpus[name].append(cpu)
    base_wall = statistics.median(next(iter(walls.values())))
    base_cpu = statistics.median(next(iter(cpus.values())))
    print(f"start-up, median of {runs} runs (target: within {TARGET_RATIO:.0f}× the baseline)")
    for name in cases:
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        verdict = (
            ""
            if name.startswith("baseline")
            else ("  met" if wall / base_wall <= TARGET_RATIO else "  NOT met")
        )
        print(
            f"  {name}{' ' * (40 - width(name))} wall {wall * 1000:7.0f} ms ({wall / base_wall:5.1f}×)"
            f"   cpu {cpu * 1000:7.0f} ms ({cpu / base_cpu:5.1f}×){verdict}"
        )


if __name__ == "__main__":
    main()
