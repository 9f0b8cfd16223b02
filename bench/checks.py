"""Benchmark: what the load-time checks of the readings cost, and ``dianli check``.

Every quote of every witness's readings and alignment is resolved in its witness when the readings load
(:func:`dianli.rites.readings.own_readings`, :func:`~dianli.rites.readings.aligned_citations`); the result is
kept in the on-disk cache under a key naming every file of the package, so a run that finds it cached
resolves nothing. Measured, each in a fresh process with the cache switched off (everything loaded as on a
first run after a change to the data), the witnesses' texts and the rite data loaded beforehand (a command
that reads the readings loads them anyway):

- baseline: loading every witness's readings and alignment with the quote check replaced by a no-op;
- the same load with the check (what every first run after a change pays);
- ``dianli check`` over the whole corpus, as a user runs it (cache switched off), and the same warm.

Each run three times, the median shown with every run's figure and the ratio to the baseline. The warm
cost of the load check is nil by construction: a cached load reads the checked result (``bench/program.py``
measures the first booklet with the data cached, before and after such a change).
Run: ``python bench/checks.py``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

LOAD = """
import sys, time
import dianli.rites.readings as r
if sys.argv[1] == "off":
    r.quote_problems = lambda *a, **k: iter(())
    r.quote_problem = lambda *a, **k: None
from dianli.corpus.witnesses import load_witness, witness_ids
from dianli.rites.load import all_rites
for w in witness_ids():
    load_witness(w)
all_rites()
started = time.perf_counter()
r.load_all_readings()
print(time.perf_counter() - started)
"""
REPEAT = 3


def _load(mode: str) -> float:
    env = {**os.environ, "DIANLI_CACHE_DIR": "off"}
    done = subprocess.run(
        [sys.executable, "-c", LOAD, mode], capture_output=True, text=True, env=env, check=True
    )
    return float(done.stdout.strip())


def _check(cache: str) -> float:
    env = {**os.environ, "DIANLI_CACHE_DIR": cache}
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "dianli", "check"], capture_output=True, env=env, check=True)
    return time.perf_counter() - started


def _row(label: str, runs: list[float], baseline: float | None) -> None:
    median = statistics.median(runs)
    ratio = f"{median / baseline:5.2f}×" if baseline else "   1× "
    shown = ", ".join(f"{r:.2f}" for r in runs)
    print(f"{label:<50} {median:6.2f} s  {ratio}  ({shown})")


def main() -> None:
    base = [_load("off") for _ in range(REPEAT)]
    checked = [_load("on") for _ in range(REPEAT)]
    baseline = statistics.median(base)
    head = f"run (median of {REPEAT})"
    print(f"{head:<50} {'wall':>8}  {'ratio':>6}  (each run)")
    _row("readings + alignment loaded, no quote check", base, None)
    _row("readings + alignment loaded, every quote checked", checked, baseline)
    _row("dianli check, cache off (wall, whole process)", [_check("off") for _ in range(REPEAT)], baseline)
    with tempfile.TemporaryDirectory() as cache:
        _check(cache)
        _row("dianli check, warm cache (whole process)", [_check(cache) for _ in range(REPEAT)], baseline)


if __name__ == "__main__":
    main()
