"""The months of Chinese years outside the Qing almanac: chinesecalendar-py's default calendar before 1643
(the Ming 大統曆, and the older calendars back to -104) and its Southern Ming calendar (殘明大統曆, 1645–1683,
used by the 鄭 regime in Taiwan).

The months come from the package's own functions (``calendar_calculation.default_Chinese_year_data`` and
``SouthernMing_year_data``; Yuk Tung Liu, https://github.com/ytliu0/ChineseCalendar_py, GPL-3). Its class
``calendar_conversion`` cannot be imported here (its module imports pandas for the ephemerides, which dianli
does not need), so :class:`_Tables` stands in for it with the attributes those two functions read, filled
exactly as the class's constructor fills them.

Years of the Qing almanac (1643–1911 in the default calendar) are not answered here: they belong to
:mod:`dianli.calendar.lunisolar`, the project's one conversion of Qing dates. Days are counted on the
Western calendar of the package (Julian before 1582-10-15, Gregorian after) and returned as
``date.toordinal()`` values, i.e. proleptic Gregorian dates.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from datetime import date
from typing import Any

from dianli.errors import DataError, OutOfRangeError, UnknownValueError

CALENDARS = ("default", "SouthernMing")
SOUTHERN_MING_YEARS = (1645, 1683)
_PACKAGE = "ChineseCalendar_py"
_CSV = "default_calendar_M105_2202.csv"
_JDN_OF_ORDINAL_ZERO = 1721425
"""``date.toordinal()`` + this = the Julian day number (2000-01-01 is ordinal 730120, JDN 2451545)."""


@dataclass(frozen=True, slots=True)
class HistoricalMonth:
    """One month of a Chinese year in a calendar of chinesecalendar-py: number, leap, first day, length."""

    number: int
    leap: bool
    first_ordinal: int
    length_days: int


class _Tables:
    """What ``default_Chinese_year_data`` and ``SouthernMing_year_data`` read of a ``calendar_conversion``."""

    def __init__(self) -> None:
        from importlib import resources  # only to read the table (a kept one needs none)

        import numpy as np
        from ChineseCalendar_py import names

        path = resources.files(_PACKAGE).joinpath(_CSV)
        with resources.as_file(path) as file:
            data = np.loadtxt(file, delimiter=",", skiprows=1, dtype="i")
        self.lang = "ChiT"
        self.ybeg = -3500
        self.ybeg_default = int(data[0, 0]) + 1
        self.yend = int(data[-1, 0]) - 1
        self.calData = data[:, 1:15]
        years, calendar_names = names.default_calendars_names("ChiT")
        self.dcal_years = np.array(years)
        self.dcal_names = calendar_names


@functools.cache
def _tables() -> _Tables:
    try:
        return _Tables()
    except (ModuleNotFoundError, FileNotFoundError) as exc:  # pragma: no cover - dependency missing
        raise DataError(f"{_PACKAGE}/{_CSV}: cannot read chinesecalendar-py's tables ({exc})") from exc


def year_range(calendar: str) -> tuple[int, int]:
    """The Chinese years a calendar covers here."""
    if calendar == "SouthernMing":
        return SOUTHERN_MING_YEARS
    if calendar == "default":
        tables = _tables()
        return tables.ybeg_default, tables.yend
    raise UnknownValueError("calendar", calendar, CALENDARS)


@functools.lru_cache(maxsize=512)
def months(calendar: str, chinese_year: int) -> tuple[HistoricalMonth, ...]:
    """The months of ``chinese_year`` (the year whose 正月初一 falls in that Western year) in ``calendar``."""
    first, last = year_range(calendar)
    if not first <= chinese_year <= last:
        raise OutOfRangeError(f"year of the {calendar} calendar", chinese_year, f"{first}..{last}")
    from ChineseCalendar_py import calendar_calculation as cc
    from ChineseCalendar_py.date_and_time import getJDm

    function = cc.SouthernMing_year_data if calendar == "SouthernMing" else cc.default_Chinese_year_data
    year: dict[str, Any] = function(_tables(), chinese_year)
    jdn0 = math.floor(getJDm(chinese_year - 1, 12, 31) + 0.6)
    out = []
    for month in year["cm"]:
        number = int(month["cm"])
        out.append(
            HistoricalMonth(
                number=abs(number),
                leap=number < 0,
                first_ordinal=jdn0 + int(month["d"]) - _JDN_OF_ORDINAL_ZERO,
                length_days=int(month["n"]),
            )
        )
    return tuple(out)


def month(calendar: str, chinese_year: int, number: int, leap: bool = False) -> HistoricalMonth | None:
    """A month of a year in ``calendar``, or None if the year has no such month (a 閏 month it lacks)."""
    return next((m for m in months(calendar, chinese_year) if m.number == number and m.leap == leap), None)


def julian_label(day: date) -> str:
    """The Julian-calendar date of ``day`` as YYYY-MM-DD (the inverse of the Julian day count)."""
    c = day.toordinal() + 1721425 + 32082
    d = (4 * c + 3) // 1461
    e = c - 1461 * d // 4
    m = (5 * e + 2) // 153
    return f"{d - 4800 + m // 10:04d}-{m + 3 - 12 * (m // 10):02d}-{e - (153 * m + 2) // 5 + 1:02d}"
