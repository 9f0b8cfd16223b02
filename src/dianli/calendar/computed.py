"""Astronomical computation of month starts and solar terms, for years outside the almanac table.

Two implementations are used and compared:

* ``sxtwl`` (寿星天文历 by 許劍偉, C++): the primary computation — fast, gives month starts and
  solar-term instants as Julian dates on Beijing clock time (UT+8);
* ``lunar-python`` (6tail): the cross-check. Both descend from the same 寿星 algorithms, so they are
  independent *implementations*, not independent theories; their disagreements are reported by
  :func:`cross_check_year`.

Both express instants as UT+8 Julian dates; this module returns ``jd_utc`` (UT) values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date
from functools import cache

from dianli.calendar.ganzhi import date_of_jdn
from dianli.calendar.term_names import SIMPLIFIED_TERM_NAMES, SOLAR_TERMS

UT8_DAYS = 8.0 / 24.0

# sxtwl numbers the terms from 冬至 (0), 小寒 (1) …; this project numbers them from 小寒 (0) … 冬至 (23).
_SXTWL_OFFSET = 1

# lunar-python's table names, in this project's order (小寒 … 冬至); its key for the 冬至 that ends a
# Gregorian year is "DONG_ZHI" ("冬至" there is the one of the December before).
LUNAR_PYTHON_TERM_KEYS: tuple[str, ...] = (*SOLAR_TERMS[:-1], "DONG_ZHI")


@dataclass(frozen=True, slots=True)
class ComputedMonth:
    number: int
    leap: bool
    first_ordinal: int
    length_days: int


def _ordinal_of_ut8_jd(jd_ut8: float) -> int:
    return date_of_jdn(math.floor(jd_ut8 + 0.5)).toordinal()


@cache
def sxtwl_months(chinese_year: int) -> tuple[ComputedMonth, ...]:
    """Months of a Chinese year by sxtwl, in calendar order (a leap month after its namesake)."""
    import sxtwl  # loaded when a computation asks for it (a day of the almanac needs none)

    leap = int(sxtwl.getRunMonth(chinese_year))
    months: list[ComputedMonth] = []
    for number in range(1, 13):
        for is_leap in (False, True) if number == leap else (False,):
            day = sxtwl.fromLunar(chinese_year, number, 1, is_leap)
            first = date(day.getSolarYear(), day.getSolarMonth(), day.getSolarDay()).toordinal()
            length = int(sxtwl.getLunarMonthNum(chinese_year, number, is_leap))
            months.append(ComputedMonth(number, is_leap, first, length))
    return tuple(months)


@cache
def sxtwl_term_instants(gregorian_year: int) -> tuple[float, ...]:
    """UT Julian dates of the 24 solar terms of a Gregorian year (小寒 … 冬至), by sxtwl."""
    import sxtwl  # loaded when a computation asks for it (a day of the almanac needs none)

    found: dict[int, float] = {}
    for source_year in (gregorian_year - 1, gregorian_year):
        for info in sxtwl.getJieQiByYear(source_year):
            jd_ut8 = float(info.jd)
            if date_of_jdn(math.floor(jd_ut8 + 0.5)).year == gregorian_year:
                found[(int(info.jqIndex) - _SXTWL_OFFSET) % 24] = jd_ut8 - UT8_DAYS
    if len(found) != 24:  # pragma: no cover - would be a library defect
        raise RuntimeError(f"sxtwl gave {len(found)} solar terms for {gregorian_year}")
    return tuple(found[i] for i in range(24))


def sxtwl_term_ordinals(gregorian_year: int) -> tuple[int, ...]:
    """Day (UT+8, i.e. Beijing clock) of each of the 24 solar terms of a Gregorian year, by sxtwl."""
    return tuple(_ordinal_of_ut8_jd(jd + UT8_DAYS) for jd in sxtwl_term_instants(gregorian_year))


@cache
def lunar_python_term_instants(gregorian_year: int) -> tuple[float, ...]:
    """UT Julian dates of the 24 solar terms of a Gregorian year, by lunar-python."""
    from lunar_python import Lunar  # the cross-check's second opinion, loaded when asked

    table = Lunar.fromYmd(gregorian_year, 6, 1).getJieQiTable()
    out: list[float] = []
    for key in LUNAR_PYTHON_TERM_KEYS:
        solar = table.get(key) or table[SIMPLIFIED_TERM_NAMES.get(key, key)]
        out.append(float(solar.getJulianDay()) - UT8_DAYS)
    return tuple(out)


def lunar_python_term_ordinals(gregorian_year: int) -> tuple[int, ...]:
    """Day (UT+8) of each solar term of a Gregorian year, by lunar-python."""
    return tuple(_ordinal_of_ut8_jd(jd + UT8_DAYS) for jd in lunar_python_term_instants(gregorian_year))


@cache
def lunar_python_months(chinese_year: int) -> tuple[ComputedMonth, ...]:
    """Months of a Chinese year by lunar-python."""
    from lunar_python import LunarYear, Solar  # the cross-check's second opinion, loaded when asked

    months: list[ComputedMonth] = []
    for month in LunarYear.fromYear(chinese_year).getMonthsInYear():
        number = int(month.getMonth())
        first = Solar.fromJulianDay(month.getFirstJulianDay())
        first_ordinal = date(first.getYear(), first.getMonth(), first.getDay()).toordinal()
        months.append(ComputedMonth(abs(number), number < 0, first_ordinal, int(month.getDayCount())))
    return tuple(months)


@dataclass(frozen=True, slots=True)
class Disagreement:
    """A place where the two computations differ: what, and each one's value."""

    year: int
    item: str
    sxtwl: str
    lunar_python: str


def cross_check_year(year: int) -> tuple[Disagreement, ...]:
    """Compare sxtwl and lunar-python for one year: the months of Chinese year ``year`` and the solar-term
    days of Gregorian year ``year``."""
    out: list[Disagreement] = []
    a, b = sxtwl_months(year), lunar_python_months(year)
    if [(m.number, m.leap, m.first_ordinal) for m in a] != [(m.number, m.leap, m.first_ordinal) for m in b]:
        out.append(
            Disagreement(
                year,
                "months",
                ", ".join(
                    f"{'閏' if m.leap else ''}{m.number}:{date.fromordinal(m.first_ordinal)}" for m in a
                ),
                ", ".join(
                    f"{'閏' if m.leap else ''}{m.number}:{date.fromordinal(m.first_ordinal)}" for m in b
                ),
            )
        )
    for index, (x, y) in enumerate(
        zip(sxtwl_term_ordinals(year), lunar_python_term_ordinals(year), strict=True)
    ):
        if x != y:
            out.append(
                Disagreement(year, f"solar term {index}", str(date.fromordinal(x)), str(date.fromordinal(y)))
            )
    return tuple(out)
