"""Benchmark: the full ritual calendar of every rite at every place for 1644–1911, warm.

Printed against two baselines measured in the same run:

* a per-day loop asking lunar-python for the Chinese date, 干支 and solar term of each day;
* the same per-day loop with sxtwl (Chinese date and 干支 only: asking sxtwl whether a day holds a solar
  term costs about 135 µs a day, 40 times the rest, so the loop leaves it out and is the faster baseline).

The baselines are timed on a sample of years (every SAMPLE_STEP-th year) and scaled to the whole
range; the output says so. Run: ``python bench/ritual_calendar.py``.
"""

from __future__ import annotations

import os
import sys

# This file is named like the standard library's ``calendar``; run as a script, its folder comes first on
# sys.path and would shadow that module for every library that imports it. Drop the folder.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]

import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from datetime import date, timedelta  # noqa: E402

import sxtwl  # noqa: E402
from dianli.calendar.observances import clear_memo  # noqa: E402
from lunar_python import Solar  # noqa: E402

from dianli.api import all_places, observances_for  # noqa: E402

FIRST, LAST = 1644, 1911
SAMPLE_STEP = 10
TARGET_S = 5.0


def full_calendar() -> int:
    """Every observance (with 齋戒, 省牲 … days) at every place, every year it existed; returns the entry count."""
    count = 0
    for place in all_places():
        first = max(FIRST, place.established.year if place.established else FIRST)
        for year in range(first, LAST + 1):
            count += len(observances_for(place, year))
    return count


def _days(years: list[int]) -> list[date]:
    out: list[date] = []
    for year in years:
        day = date(year, 1, 1)
        while day.year == year:
            out.append(day)
            day += timedelta(days=1)
    return out


def lunar_python_loop(days: list[date]) -> None:
    for d in days:
        lunar = Solar.fromYmd(d.year, d.month, d.day).getLunar()
        lunar.getMonth()
        lunar.getDay()
        lunar.getDayInGanZhi()
        lunar.getJieQi()


def sxtwl_loop(days: list[date]) -> None:
    for d in days:
        day = sxtwl.fromSolar(d.year, d.month, d.day)
        day.getLunarMonth()
        day.getLunarDay()
        day.isLunarLeap()
        day.getDayGZ()


def _timed(func: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    result = func()
    return time.perf_counter() - start, result


def main() -> None:
    full_calendar()  # warm: data parsed, years decoded, rule days and shared calendars memoised
    elapsed, count = _timed(full_calendar)
    places = len(all_places())
    years = LAST - FIRST + 1

    sample = list(range(FIRST, LAST + 1, SAMPLE_STEP))
    sample_days = _days(sample)
    all_days = len(_days(list(range(FIRST, LAST + 1))))
    scale = all_days / len(sample_days)
    lunar_python_loop(sample_days[:200])  # warm the libraries
    sxtwl_loop(sample_days[:200])
    lp_sample, _ = _timed(lambda: lunar_python_loop(sample_days))
    sx_sample, _ = _timed(lambda: sxtwl_loop(sample_days))
    lp_full, sx_full = lp_sample * scale, sx_sample * scale

    print(
        f"full calendar, warm: {places} places × up to {years} years (from each place's founding) = "
        f"{count:,} entries in {elapsed:.2f} s"
    )
    print(f"  target < {TARGET_S:.0f} s: {'met' if elapsed < TARGET_S else 'MISSED'}")
    print(f"  per place (all rites, {years} years): {elapsed / places * 1000:.0f} ms")
    cold_start = time.perf_counter()
    clear_memo()
    full_calendar()
    cold = time.perf_counter() - cold_start
    print(f"  without the memoised rule days and shared calendars (years still decoded): {cold:.2f} s")
    print(
        f"baselines timed on {len(sample)} sample years ({len(sample_days):,} days, every {SAMPLE_STEP}th year) "
        f"and scaled ×{scale:.1f} to {all_days:,} days:"
    )
    print(f"  lunar-python per-day loop: {lp_sample / len(sample_days) * 1e6:.0f} µs/day → {lp_full:.2f} s")
    print(f"  sxtwl per-day loop:        {sx_sample / len(sample_days) * 1e6:.2f} µs/day → {sx_full:.2f} s")
    print("ratios (baseline time / our time; > 1 means we are faster):")
    print(f"  all {places} places vs one lunar-python day loop: {lp_full / elapsed:.1f}×")
    print(f"  all {places} places vs one sxtwl day loop:        {sx_full / elapsed:.2f}×")
    print(f"  one place vs one sxtwl day loop:              {sx_full / (elapsed / places):.2f}×")


if __name__ == "__main__":
    main()
