"""Spring-ox benchmark: figures as ratios against a baseline measured in the same run.

Baseline: reading the 立春 solar term of a year from the calendar (the one calendar call every figure needs).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from dianli.calendar.solar_terms import solar_term
from dianli.spring_ox.figure import spring_ox
from dianli.spring_ox.report import render_text as spring_ox_text
from dianli.spring_ox.svg import render_svg as spring_ox_svg

YEARS = range(1700, 1760)


def _per_call_s(func: Callable[[int], object]) -> float:
    start = time.perf_counter()
    for year in YEARS:
        func(year)
    return (time.perf_counter() - start) / len(YEARS)


def main() -> None:
    for year in YEARS:  # warm the calendar caches for every measurement alike
        solar_term(year, "立春")
    baseline = _per_call_s(lambda y: solar_term(y, "立春"))
    figures = {
        "spring_ox (gazetteer, 12 readings)": _per_call_s(lambda y: spring_ox(y)),
        "spring_ox (almanac)": _per_call_s(lambda y: spring_ox(y, rule="almanac")),
        "text report": _per_call_s(lambda y: spring_ox_text(spring_ox(y))),
        "svg picture": _per_call_s(lambda y: spring_ox_svg(spring_ox(y))),
    }
    print(f"baseline solar_term lookup: {baseline * 1e6:.1f} µs/year")
    for name, seconds in figures.items():
        print(f"{name:<36} {seconds * 1e3:7.2f} ms/year  = {seconds / baseline:8.0f} × baseline")


if __name__ == "__main__":
    main()
