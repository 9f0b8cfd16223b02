"""Lunar months and solar terms computed for a time zone: the calendar of a place that is not China.

The Chinese lunisolar calendar is computed at a meridian: a month begins on the civil day that holds the
new moon, and a month is numbered by the principal term (中氣) it holds — 春分 in the second month, 秋分
in the eighth. The Qing almanac and China's calendar today use Beijing time (UTC+8); Korea's calendar
uses Korea Standard Time (UTC+9), so a new moon or a term in the last hour of a Chinese day falls on the
next day in Korea and a month or a 上丁 can differ. This module computes the days for any whole-hour
offset from the instants of 寿星天文历 (as implemented in lunar-python: new moons and solar longitudes
on Beijing time, shifted here to the offset). A leap month holds no principal term, so the month that
holds a month's term is always the regular month of that number.
"""

from __future__ import annotations

import math
from datetime import date, timedelta
from functools import cache
from itertools import pairwise

from lunar_python.util import ShouXingUtil

from dianli.calendar.ganzhi import day_sexagenary_of_ordinal, stem_index
from dianli.calendar.solar_terms import term_index
from dianli.calendar.term_names import SOLAR_TERMS
from dianli.errors import OutOfRangeError

_J2000 = date(2000, 1, 1)
"""The civil day of JD 2451545.0; 寿星 counts days from its noon, on Beijing time (UTC+8)."""
_BEIJING_HOURS = 8
_SYNODIC_DAYS = 29.530588853
_FIRST_NEW_MOON = 5.6
"""Days from J2000 to the first new moon of 2000 (2000-01-06), the zero of 寿星's lunation count."""
FIRST_YEAR, LAST_YEAR = 1600, 2200
_SPRING_EQUINOX = SOLAR_TERMS.index("春分")


def _civil(t_beijing: float, utc_offset_hours: int) -> tuple[date, float]:
    """(civil day, hour) at the offset of an instant given as 寿星 days from J2000 on Beijing time."""
    x = t_beijing + 0.5 + (utc_offset_hours - _BEIJING_HOURS) / 24.0
    whole = math.floor(x)
    return _J2000 + timedelta(days=whole), (x - whole) * 24.0


def _check(year: int) -> None:
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise OutOfRangeError("year", year, f"{FIRST_YEAR}..{LAST_YEAR}")


@cache
def principal_term(year: int, month: int, utc_offset_hours: int) -> tuple[date, float]:
    """The civil day and hour at the offset of the principal term of lunar month ``month`` of the year
    whose 正月 begins in Gregorian ``year`` (雨水 for month 1, 春分 for 2 … 大寒 for 12, in January of
    the next year)."""
    _check(year)
    if not 1 <= month <= 12:
        raise OutOfRangeError("lunar month", month, "1..12")
    angle = (year - 1999) * 2 * math.pi + math.radians(30 * (month - 2))
    return _civil(ShouXingUtil.qiHigh(angle), utc_offset_hours)


@cache
def month_start(year: int, month: int, utc_offset_hours: int) -> date:
    """The first day (朔) of the regular lunar month ``month`` at the offset: the civil day of the last
    new moon on or before the day of the month's principal term."""
    term_day, _ = principal_term(year, month, utc_offset_hours)
    t = (term_day - _J2000).days
    k = round((t - _FIRST_NEW_MOON) / _SYNODIC_DAYS)
    starts = [
        _civil(ShouXingUtil.shuoHigh(n * 2 * math.pi), utc_offset_hours)[0] for n in (k - 2, k - 1, k, k + 1)
    ]
    return max(d for d in starts if d <= term_day)


def _new_moons(first: date, last: date, utc_offset_hours: int) -> list[date]:
    """The civil days at the offset of the new moons from ``first`` to ``last``."""
    k = round(((first - _J2000).days - _FIRST_NEW_MOON) / _SYNODIC_DAYS) - 1
    out: list[date] = []
    while True:
        day = _civil(ShouXingUtil.shuoHigh(k * 2 * math.pi), utc_offset_hours)[0]
        if day > last:
            return out
        if day >= first:
            out.append(day)
        k += 1


def _check_numbering(year: int, month: int, utc_offset_hours: int) -> None:
    """Refuse a month the simple rule may misnumber: where one lunar month holds the principal terms of
    two months (2033 at UTC+8), a month with none lies near it and the almanac's full rule (which month
    is leap, counted from 冬至 to 冬至) numbers the months between them; this module does not apply it."""
    starts = [month_start(year, m, utc_offset_hours) for m in range(1, 13)]
    doubles = [m for m, (a, b) in enumerate(pairwise(starts), start=1) if a == b]
    if not doubles:
        return
    empty = [d for d in _new_moons(starts[0], starts[-1], utc_offset_hours) if d not in starts]
    asked = starts[month - 1]
    for m in doubles:
        both = starts[m - 1]
        between = any(min(e, both) <= asked <= max(e, both) for e in empty)
        if month in (m, m + 1) or between:
            raise OutOfRangeError(
                f"year for lunar month {month} computed at UTC{utc_offset_hours:+d}",
                year,
                f"a year in which no lunar month near it holds two principal terms (in {year} the month "
                f"beginning {both.isoformat()} holds those of months {m} and {m + 1})",
            )


def stem_day_of_month(year: int, month: int, stem: str, utc_offset_hours: int, nth: int = 1) -> date:
    """上丁 (``stem`` 丁) and the like: the ``nth`` day of a heavenly stem in the regular lunar month at the
    offset. The day's 干支 does not depend on the zone; the month's first day does. A year whose months
    this rule cannot number is an :class:`OutOfRangeError` (see :func:`_check_numbering`)."""
    _check_numbering(year, month, utc_offset_hours)
    first = month_start(year, month, utc_offset_hours)
    offset = (stem_index(stem) - day_sexagenary_of_ordinal(first.toordinal()).stem_index) % 10
    return first + timedelta(days=offset + 10 * (nth - 1))


@cache
def solar_term_day(year: int, term: str, utc_offset_hours: int) -> tuple[date, float]:
    """The civil day and hour at the offset of solar term ``term`` (either script) of Gregorian ``year``
    (小寒 in January … 冬至 in December)."""
    _check(year)
    index = term_index(term)
    angle = (year - 1999) * 2 * math.pi + math.radians(15 * (index - _SPRING_EQUINOX))
    return _civil(ShouXingUtil.qiHigh(angle), utc_offset_hours)
