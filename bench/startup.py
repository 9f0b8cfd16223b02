"""Benchmark: start-up a reader does not notice (issue 27 item 10), as whole processes of the console script.

- baseline: a one-line lunar-python conversion of 乾隆十七年二月初一 run as a process (the cheapest way to
  the same answer), measured in the same run, alternating with the cases below;
- ``dianli date 乾隆十七年二月初一`` and ``dianli calendar 1752 --place 臺灣府`` with the on-disk cache warm
  (a temporary cache folder filled by one run first): target within 3× the baseline's wall time; and, for
  what a warm cache cannot keep ahead, ``dianli date`` of a day not asked before in each run;
- the first booklet after installing: ``dianli program 祀先師 --place 臺灣府 --year 1752`` (the README's
  Quickstart) with its music and an empty cache folder each run: target under 10 s. It runs under a
  pseudo-terminal, as a user's terminal, and its progress bar is read as it draws: the time each stage's
  name first shows, so the figure is given stage by stage (a stage shorter than the bar's refresh, a tenth
  of a second, may pass undrawn).

Every process may keep compiled bytecode (in a temporary ``PYTHONPYCACHEPREFIX``, compiled by an untimed
run first), as an installed package has it. Wall time is the target's measure; the process's CPU time
(user + system, from its own rusage) is printed beside it: on a shared machine it is the steadier figure.
``--imports`` adds what ``python -X importtime`` finds ``dianli date`` importing, the costliest first.
Run: ``python bench/startup.py [--runs N] [--booklets N] [--imports]``.
"""

from __future__ import annotations

import argparse
import os
import pty
import re
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

TARGET_RATIO = 3.0
TARGET_BOOKLET_S = 10.0
BASELINE = "from lunar_python import Lunar; print(Lunar.fromYmd(1752, 2, 1).getSolar().toYmd())"
COMMANDS: dict[str, list[str]] = {
    "dianli date 乾隆十七年二月初一": ["date", "乾隆十七年二月初一"],
    "dianli calendar 1752 --place 臺灣府": ["calendar", "1752", "--place", "臺灣府"],
}
BOOKLET = ["program", "祀先師", "--place", "臺灣府", "--year", "1752"]
NEW_DAY = "dianli date, a day not asked before"
REIGN_YEARS = ("十八", "十九", "二十", "二十一", "二十二", "二十三", "二十四", "二十五", "二十六", "二十七")
MONTHS = ("二", "三", "四", "五", "六", "七", "八", "九", "十", "十一")


def new_day(run: int) -> list[str]:
    """``date`` of a day no earlier run asked (another year or month each run)."""
    return ["date", f"乾隆{REIGN_YEARS[run % 10]}年{MONTHS[run // 10 % 10]}月初一"]


NAME_COLUMNS = 40
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_COUNT = re.compile(r"\s*\(\d+/\d+\)$")
"""A stage's running count (``rendering the music (3/7)``): one stage, however far it has come."""


def console_script() -> list[str]:
    """How a user runs dianli: the console script installed beside this interpreter (else ``-m dianli``)."""
    script = Path(sys.executable).parent / "dianli"
    return [str(script)] if script.exists() else [sys.executable, "-m", "dianli"]


def width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def run(argv: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system) and peak resident MB of one process."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)}: exit {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def stages(argv: list[str], env: dict[str, str]) -> tuple[float, float, float, list[tuple[str, float]]]:
    """One run under a pseudo-terminal (stderr, where the bar draws): wall, CPU, peak MB, and each stage the
    bar names with the time its name first showed."""
    master, slave = pty.openpty()
    start = time.perf_counter()
    child = subprocess.Popen(
        argv, env={**env, "COLUMNS": "100", "TERM": "xterm"}, stdout=subprocess.DEVNULL, stderr=slave
    )
    os.close(slave)
    seen: dict[str, float] = {}
    text = ""
    while True:
        ready, _, _ = select.select([master], [], [], 0.02)
        if not ready:
            if child.poll() is not None:
                break
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        now = time.perf_counter() - start
        text += chunk.decode("utf-8", "replace")
        *lines, text = re.split(r"[\r\n]", _ANSI.sub("", text))
        for line in lines:
            name = _COUNT.sub("", line.split("━")[0].split("╺")[0].strip())
            if name and "%" not in name and name not in seen and not name.startswith(("open it", "/")):
                seen[name] = now
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    os.close(master)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)}: exit {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, list(seen.items())


def line(name: str, wall: float, cpu: float, base: tuple[float, float], verdict: str = "") -> str:
    return (
        f"  {name}{' ' * (NAME_COLUMNS - width(name))} wall {wall * 1000:6.0f} ms ({wall / base[0]:4.1f}×)"
        f"   cpu {cpu * 1000:6.0f} ms ({cpu / base[1]:4.1f}×){verdict}"
    )


def imports(argv: list[str], env: dict[str, str], shown: int = 15) -> None:
    """The modules ``argv`` imports (``-X importtime``), the costliest (cumulative) first, top-level only."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *argv], env=env, capture_output=True, text=True, check=True
    )
    rows = []
    for row in done.stderr.splitlines():
        parts = row.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            name = parts[2].rstrip()
            depth = (len(name) - len(name.lstrip())) // 2
            rows.append((int(parts[1]), depth, name.strip()))
    top = sorted((r for r in rows if r[1] <= 1), reverse=True)[:shown]
    print(f" dianli date imports {len(rows)} modules; the costliest (cumulative, with what they import):")
    for cumulative, _, name in top:
        print(f"    {cumulative / 1000:6.1f} ms  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="timed runs of each start-up case (default 9)")
    parser.add_argument("--booklets", type=int, default=3, help="timed first booklets (default 3; 0: none)")
    parser.add_argument("--imports", action="store_true", help="also list what dianli date imports")
    options = parser.parse_args()
    script = console_script()
    with tempfile.TemporaryDirectory(prefix="dianli-bench-startup-") as scratch:
        root = Path(scratch)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env |= {
            "COLUMNS": "80",
            "PYTHONPYCACHEPREFIX": str(root / "bytecode"),
            "DIANLI_CACHE_DIR": str(root / "warm"),
        }
        cases = {"baseline: lunar-python one-liner": [sys.executable, "-c", BASELINE]}
        cases |= {name: [*script, *args] for name, args in COMMANDS.items()}
        for argv in cases.values():  # compiles the bytecode and fills the warm cache
            run(argv, env)
        walls: dict[str, list[float]] = {name: [] for name in [*cases, NEW_DAY]}
        cpus: dict[str, list[float]] = {name: [] for name in [*cases, NEW_DAY]}
        for index in range(options.runs):
            for name, argv in [*cases.items(), (NEW_DAY, [*script, *new_day(index)])]:
                wall, cpu, _ = run(argv, env)
                walls[name].append(wall)
                cpus[name].append(cpu)
        base_name = next(iter(cases))
        base = (statistics.median(walls[base_name]), statistics.median(cpus[base_name]))
        print(
            f"start-up, cache warm, median of {options.runs} (target: within {TARGET_RATIO:.0f}× the baseline)"
        )
        for name in [*cases, NEW_DAY]:
            wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
            met = "  met" if wall / base[0] <= TARGET_RATIO else "  NOT met"
            print(line(name, wall, cpu, base, "" if name in (base_name, NEW_DAY) else met))
        if options.imports:
            program = script[1:] if script[0] == sys.executable else script  # the script, or -m dianli
            imports([*program, *COMMANDS["dianli date 乾隆十七年二月初一"]], env)

        if options.booklets < 1:
            return
        out = root / "out"
        run(
            [*script, *BOOKLET, "--out", str(out), "--force"],
            {**env, "DIANLI_CACHE_DIR": str(root / "compile")},
        )
        made = []
        for index in range(options.booklets):
            empty = root / f"empty-{index}"
            argv = [*script, *BOOKLET, "--out", str(out), "--force"]
            made.append(stages(argv, {**env, "DIANLI_CACHE_DIR": str(empty)}))
            shutil.rmtree(empty, ignore_errors=True)
    made.sort(key=lambda m: m[0])
    wall, cpu, peak, named = made[len(made) // 2]
    verdict = "met" if wall < TARGET_BOOKLET_S else "NOT met"
    print(
        f"the first booklet after installing (empty cache, with its music), median of {options.booklets}: "
        f"wall {wall:.1f} s (target < {TARGET_BOOKLET_S:.0f} s: {verdict}), cpu {cpu:.1f} s, peak {peak:.0f} MB"
    )
    print(f"  every run's wall time: {', '.join(f'{m[0]:.1f} s' for m in made)}")
    print("  stage by stage, as its progress bar names them (from the first time each name shows):")
    for (name, at), following in zip(named, [*(t for _, t in named[1:]), wall], strict=True):
        print(f"    {at:5.1f} s  {name}{' ' * max(1, 44 - width(name))}{following - at:5.1f} s")


if __name__ == "__main__":
    main()
