"""Lunar months, leap months, and Chinese date ↔ Gregorian date.

A Chinese year is keyed by the Gregorian year in which its 正月初一 falls (乾隆十七年 = 1752, which runs
from 1752-02-15 to 1753-02-02). For 1644–1911 its months come from the almanac table
(:mod:`dianli.calendar.almanac`); for other years they are computed (:mod:`dianli.calendar.computed`).
Every year says which (:class:`DateSource`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from enum import Enum
from functools import cache, lru_cache

from dianli.calendar import almanac, computed
from dianli.calendar.reigns import (
    FIRST_CHINESE_YEAR,
    parse_integer_chinese,
    parse_reign_year,
    reign_year,
)
from dianli.errors import OutOfRangeError, UnknownValueError

LAST_CHINESE_YEAR = 2200
MONTH_NAMES: tuple[str, ...] = ("正", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二")
DAY_NAMES: tuple[str, ...] = (
    "初一",
    "初二",
    "初三",
    "初四",
    "初五",
    "初六",
    "初七",
    "初八",
    "初九",
    "初十",
    "十一",
    "十二",
    "十三",
    "十四",
    "十五",
    "十六",
    "十七",
    "十八",
    "十九",
    "二十",
    "廿一",
    "廿二",
    "廿三",
    "廿四",
    "廿五",
    "廿六",
    "廿七",
    "廿八",
    "廿九",
    "三十",
)


class DateSource(Enum):
    """Where a date comes from: the almanac as issued, a computation, or a choice the sources leave open."""

    ALMANAC = "almanac table"
    COMPUTED = "computation"
    ASSUMPTION = "assumption"
    PRACTICE = "practice profile"

    @property
    def description(self) -> str:
        return {
            DateSource.ALMANAC: almanac.AUTHORITY,
            DateSource.COMPUTED: (
                "astronomical computation on China Standard Time, UTC+8 (sxtwl; cross-checked with lunar-python)"
            ),
            DateSource.ASSUMPTION: "a default the witnesses leave open (labelled, user may override)",
            DateSource.PRACTICE: "the day a documented living practice holds it (a cited practice profile)",
        }[self]


@dataclass(frozen=True, slots=True)
class LunarMonth:
    """One month of a Chinese year: its number, whether it is the leap month, first day and length."""

    number: int
    leap: bool
    first_ordinal: int
    length_days: int

    @property
    def first_day(self) -> date:
        return date.fromordinal(self.first_ordinal)

    @property
    def last_day(self) -> date:
        return date.fromordinal(self.first_ordinal + self.length_days - 1)

    @property
    def end_ordinal(self) -> int:
        """First ordinal after the month."""
        return self.first_ordinal + self.length_days

    @property
    def label(self) -> str:
        return ("閏" if self.leap else "") + MONTH_NAMES[self.number - 1] + "月"

    def day(self, day: int) -> date:
        """The Gregorian date of day ``day`` (1‥length) of this month."""
        if not 1 <= day <= self.length_days:
            raise OutOfRangeError(f"day of {self.label}", day, f"1..{self.length_days}")
        return date.fromordinal(self.first_ordinal + day - 1)


@dataclass(frozen=True, slots=True)
class ChineseYear:
    """The months of one Chinese year and where they come from."""

    year: int
    months: tuple[LunarMonth, ...]
    source: DateSource
    calendar_name: str

    @property
    def first_ordinal(self) -> int:
        return self.months[0].first_ordinal

    @property
    def end_ordinal(self) -> int:
        return self.months[-1].end_ordinal

    @property
    def leap_month(self) -> int | None:
        return next((m.number for m in self.months if m.leap), None)

    def month(self, number: int, leap: bool = False) -> LunarMonth:
        """A month by number; ``leap=True`` asks for the leap month of that number."""
        for month in self.months:
            if month.number == number and month.leap == leap:
                return month
        accepted = [m.label for m in self.months]
        raise UnknownValueError(
            f"month of {reign_label(self.year)} ({self.year})",
            ("閏" if leap else "") + (MONTH_NAMES[number - 1] + "月" if 1 <= number <= 12 else str(number)),
            accepted,
        )

    def month_containing(self, ordinal: int) -> LunarMonth:
        for month in self.months:
            if month.first_ordinal <= ordinal < month.end_ordinal:
                return month
        raise OutOfRangeError(
            f"day in Chinese year {self.year}",
            str(date.fromordinal(ordinal)),
            f"{date.fromordinal(self.first_ordinal)}..{date.fromordinal(self.end_ordinal - 1)}",
        )


@dataclass(frozen=True, slots=True, order=True)
class ChineseDate:
    """A day of the Chinese calendar."""

    year: int
    month: int
    leap: bool
    day: int

    @property
    def month_label(self) -> str:
        return ("閏" if self.leap else "") + MONTH_NAMES[self.month - 1] + "月"

    @property
    def label(self) -> str:
        """乾隆十七年二月初一."""
        return f"{reign_label(self.year)}{self.month_label}{DAY_NAMES[self.day - 1]}"

    def __str__(self) -> str:
        return self.label


def reign_label(chinese_year: int) -> str:
    return reign_year(chinese_year).label


def _check_year(chinese_year: int) -> None:
    if not FIRST_CHINESE_YEAR <= chinese_year <= LAST_CHINESE_YEAR:
        raise OutOfRangeError(
            "year",
            chinese_year,
            f"{FIRST_CHINESE_YEAR}..{LAST_CHINESE_YEAR} (崇禎十六年, 順治元年 … {LAST_CHINESE_YEAR})",
        )


def _table_year(chinese_year: int) -> ChineseYear:
    row = almanac.almanac_row(chinese_year)
    following = almanac.almanac_row(chinese_year + 1).month_start_ordinals[0]
    starts: list[tuple[int, int, bool]] = [(o, i + 1, False) for i, o in enumerate(row.month_start_ordinals)]
    if row.leap_month is not None and row.leap_start_ordinal is not None:
        starts.append((row.leap_start_ordinal, row.leap_month, True))
    starts.sort()
    ends = [s[0] for s in starts[1:]] + [following]
    months = tuple(
        LunarMonth(number, leap, first, end - first)
        for (first, number, leap), end in zip(starts, ends, strict=True)
    )
    return ChineseYear(chinese_year, months, DateSource.ALMANAC, almanac.calendar_name(chinese_year))


def _computed_year(chinese_year: int) -> ChineseYear:
    months = tuple(
        LunarMonth(m.number, m.leap, m.first_ordinal, m.length_days)
        for m in computed.sxtwl_months(chinese_year)
    )
    name = "時憲曆 rules (computed)" if chinese_year <= almanac.TABLE_LAST_YEAR else "農曆 (computed)"
    return ChineseYear(chinese_year, months, DateSource.COMPUTED, name)


@cache
def chinese_year(chinese_year: int) -> ChineseYear:
    """The months of a Chinese year (1643‥2200): almanac table 1643–1911, computed otherwise."""
    _check_year(chinese_year)
    if almanac.in_table(chinese_year):
        return _table_year(chinese_year)
    return _computed_year(chinese_year)


def year_of_ordinal(ordinal: int) -> ChineseYear:
    """The Chinese year containing the day with this ordinal."""
    guess = date.fromordinal(ordinal).year
    for year in (guess, guess - 1):
        if FIRST_CHINESE_YEAR <= year <= LAST_CHINESE_YEAR:
            cy = chinese_year(year)
            if cy.first_ordinal <= ordinal < cy.end_ordinal:
                return cy
    first = chinese_year(FIRST_CHINESE_YEAR).first_ordinal
    last = chinese_year(LAST_CHINESE_YEAR).end_ordinal - 1
    raise OutOfRangeError(
        "date", str(date.fromordinal(ordinal)), f"{date.fromordinal(first)}..{date.fromordinal(last)}"
    )


@lru_cache(maxsize=1 << 17)
def chinese_date_of_ordinal(ordinal: int) -> ChineseDate:
    """Chinese date of the day with this ``date.toordinal()`` (cached: the ritual calendar asks often)."""
    cy = year_of_ordinal(ordinal)
    month = cy.month_containing(ordinal)
    return ChineseDate(cy.year, month.number, month.leap, ordinal - month.first_ordinal + 1)


def to_chinese(day: date) -> ChineseDate:
    """Gregorian → Chinese: 1752-03-16 → 乾隆十七年二月初一."""
    return chinese_date_of_ordinal(day.toordinal())


def to_gregorian(value: ChineseDate) -> date:
    """Chinese → Gregorian. Raises for a month (e.g. a 閏 month) or day the year did not have."""
    return chinese_year(value.year).month(value.month, value.leap).day(value.day)


def source_of(day: date) -> DateSource:
    """Whether the Chinese date of ``day`` comes from the almanac table or from computation."""
    return year_of_ordinal(day.toordinal()).source


_MONTH_RE = "(?P<leap>閏|闰)?(?P<month>正|十一|十二|冬|臘|腊|[一二三四五六七八九十]|[0-9]{1,2})月"
_DAY_RE = "(?P<day>初[一二三四五六七八九十]|[一二三四五六七八九十廿卅]{1,3}|[0-9]{1,2})日?"


@cache
def _chinese_date_re() -> re.Pattern[str]:
    """A Chinese date's pattern, compiled when first used (a day's answer never parses one)."""
    return re.compile(rf"^(?P<year>.+?年){_MONTH_RE}{_DAY_RE}$")


def _month_number(text: str) -> int:
    special = {"正": 1, "冬": 11, "臘": 12, "腊": 12}
    if text in special:
        return special[text]
    number = parse_integer_chinese(text)
    if not 1 <= number <= 12:
        raise OutOfRangeError("month", text, "正月..十二月 (1..12)")
    return number


def _day_number(text: str) -> int:
    if text.startswith("初"):
        text = text[1:]
    number = parse_integer_chinese(text)
    if not 1 <= number <= 30:
        raise OutOfRangeError("day", text, "初一..三十 (1..30)")
    return number


def parse_chinese_date(text: str) -> ChineseDate:
    """``"乾隆十七年二月初一"`` / ``"乾隆十七年閏五月十五日"`` → ChineseDate (validated against the calendar)."""
    match = _chinese_date_re().match(text.strip())
    if not match:
        raise UnknownValueError(
            "Chinese date",
            text,
            ["<reign><n>年[閏]<month>月<day>, e.g. 乾隆十七年二月初一, 道光二年閏三月十五日"],
        )
    ry = parse_reign_year(match.group("year"))
    value = ChineseDate(
        ry.chinese_year,
        _month_number(match.group("month")),
        match.group("leap") is not None,
        _day_number(match.group("day")),
    )
    to_gregorian(value)  # validates the month and the day
    return value


def parse_day(text: str) -> date:
    """A day written either way: ISO Gregorian (``1752-03-16``) or Chinese (``乾隆十七年二月初一``)."""
    stripped = text.strip()
    if re.fullmatch(r"-?\d{1,4}-\d{1,2}-\d{1,2}", stripped):
        parts = [int(p) for p in stripped.lstrip("-").split("-")]
        try:
            day = date(parts[0], parts[1], parts[2])
        except ValueError as exc:
            raise UnknownValueError("Gregorian date", text, ["YYYY-MM-DD, a real day"], str(exc)) from exc
        year_of_ordinal(day.toordinal())  # range check with a clear message
        return day
    if "年" in stripped:
        return to_gregorian(parse_chinese_date(stripped))
    raise UnknownValueError(
        "date", text, ["YYYY-MM-DD (e.g. 1752-03-16)", "a Chinese date (e.g. 乾隆十七年二月初一)"]
    )
