"""Benchmark: every eclipse of 1644–1911 and its local circumstances at 福州, cold (nothing memoised).

Printed against two baselines measured in the same run:

* a naive per-day loop: for every day at 0h UT ask skyfield (same DE405 adapter) for the apparent
  Sun and Moon, one scalar call a day, keeping days whose elongation is within 15° of a syzygy —
  timed on SAMPLE_YEARS years and scaled to the whole range (the output says so);
* the same daily scan vectorised (one skyfield call for all 97,000 days), timed on the whole range.

Both baselines only *find candidate days*; dianli's search does that from mean lunations and the
Moon's mean argument of latitude, then computes every eclipse and its local circumstances. So the
ratios understate the gain. Run: ``python bench/eclipses.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import date

import numpy as np

from dianli.calendar import eclipses
from dianli.calendar.eclipses import local_circumstances
from dianli.places.places import get_place

FIRST, LAST = 1644, 1911
SAMPLE_YEARS = 3
SYZYGY_WINDOW_DEG = 15.0
JD_OF_ORDINAL_ZERO = 1721424.5


def _timed(func: Callable[[], int]) -> tuple[float, int]:
    start = time.perf_counter()
    result = func()
    return time.perf_counter() - start, result


def dianli_search() -> int:
    """All eclipses 1644–1911 and their circumstances at 福州, from cold caches."""
    eclipses._block.cache_clear()
    eclipses._local_cached.cache_clear()
    place = get_place("福州府")
    count = 0
    for year in range(FIRST, LAST + 1):
        for eclipse in eclipses.eclipses_in_year(year):
            local_circumstances(eclipse, place.latitude_deg, place.longitude_deg)
            count += 1
    return count


def _days(first_year: int, last_year: int) -> np.ndarray:
    first = date(first_year, 1, 1).toordinal()
    last = date(last_year + 1, 1, 1).toordinal()
    return np.arange(first, last, dtype=np.float64) + JD_OF_ORDINAL_ZERO


def _near_syzygy(elongation_deg: np.ndarray) -> np.ndarray:
    e = np.abs((elongation_deg + 180.0) % 360.0 - 180.0)
    return np.asarray((e < SYZYGY_WINDOW_DEG) | (e > 180.0 - SYZYGY_WINDOW_DEG))


def naive_loop(years: int) -> int:
    """One scalar skyfield call per day for ``years`` years from FIRST; returns candidate days."""
    count = 0
    for jd in _days(FIRST, FIRST + years - 1):
        elongation = eclipses._ecliptic_elongation_deg(np.array([jd]))
        count += int(_near_syzygy(elongation)[0])
    return count


def vector_scan() -> int:
    return int(_near_syzygy(eclipses._ecliptic_elongation_deg(_days(FIRST, LAST))).sum())


def main() -> None:
    eclipses._skyfield()  # load the ephemeris and time scale once
    years = LAST - FIRST + 1
    ours_s, found = _timed(dianli_search)
    loop_s, _ = _timed(lambda: naive_loop(SAMPLE_YEARS))
    loop_full_s = loop_s * years / SAMPLE_YEARS
    scan_s, candidates = _timed(vector_scan)
    print(f"eclipses {FIRST}–{LAST} with local circumstances at 福州: {found} eclipses in {ours_s:.2f} s")
    print(
        f"baseline per-day scalar loop: {loop_s:.2f} s for {SAMPLE_YEARS} years, scaled to {years} years "
        f"{loop_full_s:.1f} s  → dianli is {loop_full_s / ours_s:.0f}× faster"
    )
    print(
        f"baseline vectorised daily scan (candidate days only, {candidates} of them): {scan_s:.2f} s "
        f"→ ratio {scan_s / ours_s:.2f}"
    )


if __name__ == "__main__":
    main()
