"""The Qing almanac (時憲書) as reconstructed by Yuk Tung Liu: the authority for 1644–1911.

The table is the file ``default_calendar_M105_2202.csv`` of the package chinesecalendar-py
(import name ``ChineseCalendar_py``, GPL-3; https://github.com/ytliu0/ChineseCalendar_py, the data of
https://ytliu0.github.io/ChineseCalendar/). Its encoding, learnt from the package's
``calendar_calculation.default_Chinese_year_data`` and ``calendrical_solar_terms_default``:

* one row per year *y*; every number is a count of days after 31 December of Gregorian year *y − 1*;
* ``M01``‥``M12``: first day of the regular months 1‥12 of the Chinese year whose 正月初一 falls in *y*;
* ``Mleap``: first day of the leap month, ``leap``: its number (0 = no leap month); the leap month
  follows the regular month of the same number;
* ``J12 Z12 J01 Z01 … J11 Z11``: the day of each of the 24 solar terms of Gregorian year *y*, in the order
  小寒 大寒 立春 雨水 … 大雪 冬至 (J = 節, Z = 中氣).

Only the years this project needs are read (the module reads the CSV with the standard library).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import cache

from dianli import cache as disk_cache
from dianli.calendar.reigns import FIRST_QING_YEAR
from dianli.errors import DataError, OutOfRangeError

TABLE_FIRST_YEAR = 1643  # 崇禎十六年 (Ming, 大統曆): kept so that days just before 順治元年 have dates
QING_FIRST_YEAR = FIRST_QING_YEAR  # 順治元年 (the Qing used the Ming 大統曆 for it)
TABLE_LAST_YEAR = 1911  # 宣統三年
AUTHORITY = "Yuk Tung Liu's reconstruction of the Qing almanac (chinesecalendar-py default calendar)"
_CSV_PACKAGE = "ChineseCalendar_py"
_CSV_NAME = "default_calendar_M105_2202.csv"


@dataclass(frozen=True, slots=True)
class AlmanacRow:
    """One decoded row: month starts as ``date.toordinal()`` values, the leap month, the 24 term days."""

    year: int
    month_start_ordinals: tuple[int, ...]  # regular months 1..12
    leap_month: int | None
    leap_start_ordinal: int | None
    term_ordinals: tuple[int, ...]  # 24 terms of Gregorian year `year`, 小寒 first


def calendar_name(chinese_year: int) -> str:
    """The almanac system in force (per Liu's table): 大統曆 1644 and 1667–68, 時憲曆 otherwise."""
    if chinese_year < 1645 or 1667 <= chinese_year <= 1668:
        return "大統曆"
    return "時憲曆"


@cache
def _rows() -> dict[int, AlmanacRow]:
    """The decoded rows, kept in the on-disk cache (:mod:`dianli.cache`) under a key naming the package's
    files (this code) and chinesecalendar-py's version (whose table it decodes)."""
    entry = disk_cache.installed_key("almanac.rows")
    return disk_cache.pickled(disk_cache.DERIVED, entry, _read_rows)


def _read_rows() -> dict[int, AlmanacRow]:
    import csv
    from importlib import resources  # only to read the table (a kept one needs none)

    try:
        text = resources.files(_CSV_PACKAGE).joinpath(_CSV_NAME).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError) as exc:  # pragma: no cover - dependency missing
        raise DataError(f"{_CSV_PACKAGE}/{_CSV_NAME}: cannot read the almanac table ({exc})") from exc
    lines = text.splitlines()
    header = next(csv.reader(lines[:1]))
    expected = ["year", *[f"M{i:02d}" for i in range(1, 13)], "Mleap", "leap"]
    if header[:15] != expected or len(header) != 39:
        raise DataError(f"{_CSV_NAME}: unexpected header {header[:16]!r}")
    # the table runs to 2202: only the lines of the years kept are parsed (a line starts with its year)
    wanted = {str(y) for y in range(TABLE_FIRST_YEAR - 1, TABLE_LAST_YEAR + 2)}
    kept = [line for line in lines[1:] if line.split(",", 1)[0].strip('"') in wanted]
    rows: dict[int, AlmanacRow] = {}
    for record in csv.reader(kept):
        year = int(record[0])
        if not TABLE_FIRST_YEAR - 1 <= year <= TABLE_LAST_YEAR + 1:
            continue
        base = date(year - 1, 12, 31).toordinal()
        numbers = [int(x) for x in record[1:]]
        leap = numbers[13]
        rows[year] = AlmanacRow(
            year=year,
            month_start_ordinals=tuple(base + n for n in numbers[:12]),
            leap_month=leap or None,
            leap_start_ordinal=base + numbers[12] if leap else None,
            term_ordinals=tuple(base + n for n in numbers[14:38]),
        )
    return rows


def almanac_row(year: int) -> AlmanacRow:
    """The decoded row for ``year`` (TABLE_FIRST_YEAR − 1 ‥ TABLE_LAST_YEAR + 1 are kept)."""
    rows = _rows()
    if year not in rows:
        raise OutOfRangeError("almanac table year", year, f"{TABLE_FIRST_YEAR - 1}..{TABLE_LAST_YEAR + 1}")
    return rows[year]


def in_table(chinese_year: int) -> bool:
    """Whether this Chinese year is dated by the almanac table."""
    return TABLE_FIRST_YEAR <= chinese_year <= TABLE_LAST_YEAR
