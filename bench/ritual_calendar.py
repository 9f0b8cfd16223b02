"""Benchmark: the full ritual calendar of every rite at every place of the place list for 1644–1911.

The calendar is derived from the rites' own date rules, resolved for each unit as it stood that year (its
level, the witness that governs it) — 95 units, each for the years it existed under Qing rule. Printed
against baselines measured in the same run:

* a bare sxtwl per-day loop over the same years (Chinese date and 干支 of every day, no rule at all): the
  floor any calendar built on a per-day library pays once;
* a per-day loop asking lunar-python for the Chinese date, 干支 and solar term (timed on every
  SAMPLE_STEP-th year and scaled; the output says so).

Our figures: *without memoised results* (the memo of rule days and shared calendars cleared before every
place-year, so every rule of every rite is computed anew each time), and as the program runs it (the memo
cleared once, then shared between units with the same rules). Run: ``python bench/ritual_calendar.py``.
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
from lunar_python import Solar  # noqa: E402

from dianli.places.places import all_places  # noqa: E402
from dianli.rites.observances import clear_memo, observances_for  # noqa: E402

FIRST, LAST = 1644, 1911
SAMPLE_STEP = 10
TARGET_PER_UNIT_S = 1.0
"""What a user waits for ``dianli calendar --from 1644 --to 1911 --place P`` (memo on), on this 2-core
machine: one unit's whole Qing calendar."""


def _place_years() -> list[tuple[str, int]]:
    """(unit, year) for every unit of the place list and every year 1644–1911 it existed under Qing rule."""
    return [
        (place.id, year)
        for place in all_places()
        for year in range(max(FIRST, place.first_year), min(LAST, place.last_year) + 1)
    ]


def full_calendar(pairs: list[tuple[str, int]], memo: bool = True) -> int:
    """Every observance (with 齋戒, 省牲 … days) at every unit, every year it existed; the entry count."""
    count = 0
    for place, year in pairs:
        if not memo:
            clear_memo()
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
    pairs = _place_years()
    full_calendar(pairs[:50])  # warm the imports, the data and the decoded almanac years
    cold, count = _timed(lambda: full_calendar(pairs, memo=False))
    clear_memo()
    warm, _ = _timed(lambda: full_calendar(pairs))
    places = len(all_places())
    years = LAST - FIRST + 1

    all_days = _days(list(range(FIRST, LAST + 1)))
    sxtwl_loop(all_days[:200])  # warm the library
    sx_full, _ = _timed(lambda: sxtwl_loop(all_days))
    sample = list(range(FIRST, LAST + 1, SAMPLE_STEP))
    sample_days = _days(sample)
    lunar_python_loop(sample_days[:200])
    lp_sample, _ = _timed(lambda: lunar_python_loop(sample_days))
    lp_full = lp_sample * len(all_days) / len(sample_days)

    print(
        f"full calendar: {places} units, {len(pairs):,} unit-years of {years} years (each unit while it "
        f"existed under Qing rule), {count:,} entries"
    )
    print(f"  without memoised results (memo cleared before every unit-year): {cold:.2f} s")
    print(f"  with the memo of rule days and shared calendars (as the program runs): {warm:.2f} s")
    per_unit = warm / places
    verdict = "met" if per_unit < TARGET_PER_UNIT_S else "MISSED"
    print(f"    per unit, all its years: {per_unit:.2f} s (target < {TARGET_PER_UNIT_S:.0f} s: {verdict})")
    print("baselines, same run:")
    print(f"  bare sxtwl per-day loop over {len(all_days):,} days (1644–1911, no rule): {sx_full:.2f} s")
    print(
        f"  lunar-python per-day loop: timed on {len(sample)} years (every {SAMPLE_STEP}th), "
        f"scaled to all days: {lp_full:.2f} s"
    )
    print("ratios (our time / baseline time; < 1 means faster than the baseline):")
    print(f"  all units, no memo  / one sxtwl day loop: {cold / sx_full:.1f}×")
    print(f"  all units, memo     / one sxtwl day loop: {warm / sx_full:.2f}×")
    print(f"  one unit,  no memo  / one sxtwl day loop: {cold / places / sx_full:.3f}×")
    print(f"  all units, no memo  / one lunar-python day loop: {cold / lp_full:.2f}×")


if __name__ == "__main__":
    main()
