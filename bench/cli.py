"""Benchmark: start-up of the command line, as whole processes, against a one-line lunar-python conversion.

- baseline: ``python -c`` converting 乾隆十七年二月初一 with lunar-python (the cheapest way to the same answer);
- ``dianli --help``, ``dianli date 乾隆十七年二月初一`` and ``dianli calendar 1752 --place 臺灣府``, each run through
  the installed console script's entry point (:func:`dianli.cli.main.main`) in a fresh interpreter.

Two states of dianli's on-disk cache (:mod:`dianli.cache`: parsed data files, the rites validated, the era
table, a year's calendar …, each keyed by every byte it depends on) are measured:

- **warm** — the cache holds what an earlier run of the same command stored (a temporary cache folder,
  filled by one run before the timed ones): the figure the target (3×, issue 14) applies to;
- **warm, new arguments** — the same warm cache, but each run asks a day (``date``) or a year (``calendar``)
  not asked before: the start-up plus the computation of that day or year (for ``calendar``, every rite's
  day at the place: the rites, the places and the calendars loaded), which the cache cannot keep ahead;
- **cold** — every timed run starts with an empty cache folder of its own: the first run after installing,
  or after any file of the package changed.

The keys name every file of the package, so in a checkout being edited a "warm" run is warm only while no
file changes between the runs (run the benchmark on a quiet tree).

Each case is run several times, alternating, and the median is taken; the ratio to the baseline is printed
with the target. The process's user+system CPU time is printed too: on a shared machine it is the steadier
figure. Every interpreter (the baseline's too) may keep compiled bytecode (in a temporary
``PYTHONPYCACHEPREFIX``), as an installed package does, even where the environment sets
``PYTHONDONTWRITEBYTECODE``. Run: ``python bench/cli.py [--runs N] [--cold-runs N]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path

TARGET_RATIO = 3.0
BASELINE = "from lunar_python import Lunar; print(Lunar.fromYmd(1752, 2, 1).getSolar().toYmd())"
ENTRY = "import sys; from dianli.cli.main import main; sys.argv = ['dianli', *sys.argv[1:]]; main()"
COMMANDS: dict[str, list[str]] = {
    "dianli --help": ["--help"],
    "dianli date 乾隆十七年二月初一": ["date", "乾隆十七年二月初一"],
    "dianli calendar 1752 --place 臺灣府": ["calendar", "1752", "--place", "臺灣府"],
}
REIGN_YEARS = ("十八", "十九", "二十", "二十一", "二十二", "二十三", "二十四", "二十五", "二十六", "二十七")
NEW_ARGUMENTS: dict[str, Callable[[int], list[str]]] = {
    "dianli date 乾隆N年二月初一": lambda run: [
        "date",
        f"乾隆{REIGN_YEARS[run % len(REIGN_YEARS)]}年二月初一",
    ],
    "dianli calendar Y --place 臺灣府": lambda run: ["calendar", str(1753 + run), "--place", "臺灣府"],
}
"""Warm cases with arguments not asked before in each run: the start-up plus the work of a new day or year."""
CACHE_ENV = "DIANLI_CACHE_DIR"
NAME_COLUMNS = 40


def width(text: str) -> int:
    """Terminal columns of ``text`` (wide characters take two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def run(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one process."""
    before = os.times()
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu


def line(name: str, wall: float, cpu: float, base_wall: float, base_cpu: float, verdict: str) -> str:
    return (
        f"  {name}{' ' * (NAME_COLUMNS - width(name))} wall {wall * 1000:7.0f} ms ({wall / base_wall:5.1f}×)"
        f"   cpu {cpu * 1000:7.0f} ms ({cpu / base_cpu:5.1f}×){verdict}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each warm case (default 5)")
    parser.add_argument("--cold-runs", type=int, default=3, help="timed runs of each cold case (default 3)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dianli-bench-") as scratch:
        root = Path(scratch)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env |= {"COLUMNS": "80", "PYTHONPYCACHEPREFIX": str(root / "bytecode"), CACHE_ENV: str(root / "warm")}
        baseline = [sys.executable, "-c", BASELINE]
        commands = {name: [sys.executable, "-c", ENTRY, *args] for name, args in COMMANDS.items()}

        # warm: one run of each fills the bytecode and the cache, then the timed runs alternate
        for argv in [baseline, *commands.values()]:
            run(argv, env)
        cases = {"baseline: lunar-python one-liner": baseline, **commands}
        walls: dict[str, list[float]] = {name: [] for name in cases}
        cpus: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(options.runs):
            for name, argv in cases.items():
                wall, cpu = run(argv, env)
                walls[name].append(wall)
                cpus[name].append(cpu)

        # warm, new arguments: the data kept, the day or year not asked before (the first warm runs were 1752)
        new_walls: dict[str, list[float]] = {name: [] for name in NEW_ARGUMENTS}
        new_cpus: dict[str, list[float]] = {name: [] for name in NEW_ARGUMENTS}
        for index in range(options.runs):
            for name, arguments in NEW_ARGUMENTS.items():
                wall, cpu = run([sys.executable, "-c", ENTRY, *arguments(index)], env)
                new_walls[name].append(wall)
                new_cpus[name].append(cpu)

        # cold: each timed run with a cache folder of its own, empty (the bytecode stays compiled)
        cold_walls: dict[str, list[float]] = {name: [] for name in commands}
        cold_cpus: dict[str, list[float]] = {name: [] for name in commands}
        for index in range(options.cold_runs):
            for number, (name, argv) in enumerate(commands.items()):
                empty = root / f"cold-{index}-{number}"
                wall, cpu = run(argv, {**env, CACHE_ENV: str(empty)})
                cold_walls[name].append(wall)
                cold_cpus[name].append(cpu)

    base_name = next(iter(cases))
    base_wall, base_cpu = statistics.median(walls[base_name]), statistics.median(cpus[base_name])
    print(f"start-up, whole processes (target: within {TARGET_RATIO:.0f}× the baseline, cache warm)")
    print(f" warm cache, median of {options.runs} runs")
    for name in cases:
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        met = wall / base_wall <= TARGET_RATIO
        verdict = "" if name == base_name else ("  met" if met else "  NOT met")
        print(line(name, wall, cpu, base_wall, base_cpu, verdict))
    print(
        f" warm cache, another day or year each run (start-up and that day's or year's work), median of {options.runs}"
    )
    for name in NEW_ARGUMENTS:
        wall, cpu = statistics.median(new_walls[name]), statistics.median(new_cpus[name])
        print(line(name, wall, cpu, base_wall, base_cpu, ""))
    print(f" cold cache (emptied before each run), median of {options.cold_runs} runs")
    for name in commands:
        wall, cpu = statistics.median(cold_walls[name]), statistics.median(cold_cpus[name])
        print(line(name, wall, cpu, base_wall, base_cpu, ""))


if __name__ == "__main__":
    main()
