"""Benchmark: ``dianli program 祀先師 --place 臺灣府 --year 1752`` as a user runs it, each run a fresh process.

Issue 14's targets on this machine: without audio < 1 s, with audio < 3 s, peak memory < 200 MB (the
rendered audio cached on disk between runs); a print edition of sensible length; the progress bar moving
from the start. Every figure is printed as an absolute value, as a ratio to its target and as a ratio to
the baseline measured in the same run: the same booklet with the cache switched off
(``DIANLI_CACHE_DIR=off``: everything read, assembled and rendered, as before the cache).

Runs, each in a new process with its own empty cache folder unless said:
- baseline: no audio, cache off (the same work as before the cache: 6–7 s here when issue 14 was filed);
- no audio, cold (empty cache) then warm (the same cache);
- no audio, "first booklet, data cached": the package's derived data cached by another booklet (another
  place and year, :data:`OTHER`) made before, this booklet never made: what a user meets asking for a new
  place or year;
- with audio, cold (every movement synthesised), then "audio warm" (the booklet's cache entry removed, as
  after a change to the rites: assembled and rendered again, the music read from the cache), then warm;
- with audio, "first booklet, data cached": as above, the other booklet made with its audio (so the music
  is cached, this booklet is not).
Warm runs are made three times, the median (by wall time) shown; a "first booklet" run five times, each
on its own copy of the prepared cache folder (a second run on the same folder would be warm). Every
repeated run's wall time is printed too: on this shared machine the same run varies by a fifth from one
minute to the next, and the spread says how far the median can be trusted.
Every process may write compiled bytecode (``PYTHONDONTWRITEBYTECODE`` is unset for them), as an installed
package has it: otherwise each run would compile the package's modules again.
Each run's wall time, CPU time (user + system: the steadier figure on a shared machine) and peak
resident memory (``ru_maxrss`` of that process) are measured. Then the printed length: each
``--appendix`` edition printed to A4 PDF by chromium, its pages counted. And the progress bar: a run
under a pseudo-terminal, the time until the bar first appears.

If the package's files change while the benchmark runs (another edit), the cached runs would miss: the
benchmark says so rather than report a false figure.
"""

from __future__ import annotations

import os
import pty
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from dianli.program.fingerprint import inputs_fingerprint

ARGS = ["program", "祀先師", "--place", "臺灣府", "--year", "1752"]
OTHER = ["program", "祀先師", "--place", "汀州府", "--year", "1760"]
"""The booklet made before a "first booklet" run: another place and year of the same rite."""
TARGET_NO_AUDIO_S = 1.0
TARGET_AUDIO_S = 3.0
TARGET_PEAK_MB = 200.0
CHROMIUM = "/usr/bin/chromium"


@dataclass(frozen=True)
class Run:
    name: str
    wall_s: float
    cpu_s: float
    peak_mb: float
    path: Path
    walls_s: tuple[float, ...] = ()
    """Every run's wall time, where this is the median of several (their spread shows the machine's)."""


def child_env(cache_dir: str, **more: str) -> dict[str, str]:
    """The environment of a run: this one's, with the cache folder given and bytecode written."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "DIANLI_CACHE_DIR": cache_dir, **more}


def median(runs: list[Run]) -> Run:
    """The run of median wall time, holding every run's wall time."""
    found = sorted(runs, key=lambda r: r.wall_s)[len(runs) // 2]
    return replace(found, walls_s=tuple(sorted(r.wall_s for r in runs)))


def run(
    name: str, extra: list[str], cache_dir: str, out: Path, repeat: int = 1, args: list[str] = ARGS
) -> Run:
    """One ``dianli program`` process: wall and CPU time and peak memory, from its own rusage; with
    ``repeat`` (a warm run, the same each time), the run of median wall time of that many."""
    if repeat > 1:
        return median([run(name, extra, cache_dir, out, args=args) for _ in range(repeat)])
    env = child_env(cache_dir)
    command = [sys.executable, "-m", "dianli", *args, "--out", str(out), *extra]
    start = time.perf_counter()
    child = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    stdout = child.stdout.read().decode() if child.stdout else ""
    stderr = child.stderr.read().decode() if child.stderr else ""
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{name}: exit {child.returncode}\n{stdout}\n{stderr}")
    return Run(name, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, Path(stdout.strip()))


def first_progress_s(cache_dir: str, out: Path) -> float | None:
    """Seconds until the progress bar first shows, with stderr a terminal (no audio, cache off)."""
    env = child_env(cache_dir, COLUMNS="100", TERM="xterm")
    master, slave = pty.openpty()
    command = [sys.executable, "-m", "dianli", *ARGS, "--out", str(out), "--no-audio"]
    start = time.perf_counter()
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    seen = b""
    found: float | None = None
    while child.poll() is None or select.select([master], [], [], 0)[0]:
        ready, _, _ = select.select([master], [], [], 0.05)
        if not ready:
            continue
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
        if found is None and b"%" in seen:
            found = time.perf_counter() - start
    child.wait()
    os.close(master)
    return found


def pdf_pages(html: Path, work: Path) -> int | None:
    """A4 pages of ``html`` printed by chromium (``--print-to-pdf``), or None without chromium."""
    if not os.path.exists(CHROMIUM):
        return None
    pdf = work / f"{html.stem}.pdf"
    subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
         f"--print-to-pdf={pdf}", html.as_uri()],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    counts = re.findall(rb"/Type\s*/Pages\b[^>]*?/Count (\d+)", pdf.read_bytes())
    return max(int(c) for c in counts) if counts else None


def first_booklet(name: str, extra: list[str], work: Path, repeat: int = 5) -> Run:
    """This booklet made for the first time, the package's data (and, with audio, the music) cached by
    another booklet (:data:`OTHER`) made before: each of ``repeat`` runs on its own copy of that cache
    folder; the run of median wall time."""
    prepared = work / f"cache-{name}"
    shutil.rmtree(prepared, ignore_errors=True)
    run(f"{name}: the other booklet", extra, str(prepared), work / "other", args=OTHER)
    made = []
    for i in range(repeat):
        copy = work / f"cache-{name}-{i}"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(prepared, copy)
        made.append(run(name, extra, str(copy), work / f"first-{i}"))
        shutil.rmtree(copy, ignore_errors=True)
    return median(made)


def unchanged(runs: Callable[[], list[Run]], attempts: int = 3) -> list[Run]:
    """The runs, made again (up to ``attempts`` times) if the package's files changed while they ran: a
    concurrent edit gives the warm run another key, and its figure would be a cold one."""
    for _ in range(attempts):
        before = inputs_fingerprint()
        made = runs()
        if inputs_fingerprint() == before:
            return made
    print(f"WARNING: the package's files kept changing during {made[0].name!r} …: figures may be cold ones")
    return made


def main() -> None:
    before = inputs_fingerprint()
    work = Path(tempfile.mkdtemp(prefix="dianli-bench-program-"))
    try:
        audio_cache = str(work / "cache-audio")
        plain_cache = str(work / "cache-plain")

        def plain() -> list[Run]:
            shutil.rmtree(plain_cache, ignore_errors=True)
            return [
                run("no audio, cold cache", ["--no-audio"], plain_cache, work / "plain"),
                run("no audio, warm cache", ["--no-audio"], plain_cache, work / "plain", repeat=3),
            ]

        def with_audio() -> list[Run]:
            shutil.rmtree(audio_cache, ignore_errors=True)
            cold = run("with audio, cold cache (synthesised)", [], audio_cache, work / "audio")
            shutil.rmtree(Path(audio_cache) / "program")  # the booklet made again, its music from the cache
            again = run("with audio, audio cached (rites changed)", [], audio_cache, work / "audio")
            return [cold, again, run("with audio, warm cache", [], audio_cache, work / "audio", repeat=3)]

        def first_plain() -> list[Run]:
            return [first_booklet("no audio, first booklet, data cached", ["--no-audio"], work)]

        def first_audio() -> list[Run]:
            return [first_booklet("with audio, first booklet, data+audio cached", [], work)]

        runs = [run("baseline: no audio, cache off", ["--no-audio"], "off", work / "base")]
        runs += unchanged(plain)
        runs += unchanged(first_plain)
        runs += unchanged(with_audio)
        runs += unchanged(first_audio)
        bar_s = first_progress_s("off", work / "bar")
        editions = {}
        for appendix in ("full", "compact", "none"):
            made = run(f"no audio, --appendix {appendix}", ["--no-audio", "--appendix", appendix], plain_cache,
                       work / appendix)  # fmt: skip
            editions[appendix] = (made.path, pdf_pages(made.path, work))
        changed = inputs_fingerprint() != before

        base = runs[0]
        print(f"dianli {' '.join(ARGS)}  (each run a new process; {os.cpu_count()} CPUs)")
        print(f"targets: no audio < {TARGET_NO_AUDIO_S:g} s, with audio < {TARGET_AUDIO_S:g} s, "
              f"peak < {TARGET_PEAK_MB:g} MB; baseline = {base.name}\n")  # fmt: skip
        print(f"a first booklet: made after {' '.join(OTHER[1:])} (its derived data, and music, cached)\n")
        header = f"{'run':46s} {'wall s':>7s} {'cpu s':>6s} {'peak MB':>8s} {'wall/target':>11s} "
        print(header + f"{'peak/target':>11s} {'wall/base':>9s} {'MB/base':>7s}")
        for r in runs:
            target = TARGET_NO_AUDIO_S if "no audio" in r.name else TARGET_AUDIO_S
            print(
                f"{r.name:46s} {r.wall_s:7.2f} {r.cpu_s:6.2f} {r.peak_mb:8.0f} {r.wall_s / target:11.2f} "
                f"{r.peak_mb / TARGET_PEAK_MB:11.2f} {r.wall_s / base.wall_s:9.2f} {r.peak_mb / base.peak_mb:7.2f}"
            )
        spread = [r for r in runs if len(r.walls_s) > 1]
        if spread:
            print("\nwall times of the repeated runs (the median above), fastest to slowest:")
            for r in spread:
                print(f"  {r.name:46s} " + "  ".join(f"{w:.2f}" for w in r.walls_s))
        sizes = {r.name: r.path.stat().st_size for r in runs}
        print(
            f"\nfile: {sizes['no audio, warm cache'] / 1e6:.1f} MB without audio, "
            f"{sizes['with audio, warm cache'] / 1e6:.1f} MB with"
        )
        if bar_s is not None:
            print(f"progress bar first shown after {bar_s:.2f} s (stderr a terminal, cache off)")
        print("\nprinted (A4, chromium):")
        for appendix, (path, pages) in editions.items():
            shown = f"{pages} pages" if pages is not None else "chromium not installed"
            print(f"  --appendix {appendix:8s} {shown:>10s}   {path.stat().st_size / 1e6:.1f} MB")
        if changed:
            print(
                "\n(the package's files changed during the benchmark; each cached sequence was timed unchanged)"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
