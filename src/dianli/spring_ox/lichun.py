"""The instant of 立春 for a year and a place, read on several clocks, and the facts the rules use.

The ox's *year* is the one that begins at 立春 (its 干支 changes at 立春, not at 正月初一), so 立春 can
fall in the twelfth month of the lunar year before. The *day* of 立春 is the almanac's (Yuk Tung Liu's
table, 1644–1911) or the civil date of the computed instant on a clock; the *hour* (時辰) is always read
from the computed instant (the table gives days only). Three clocks are offered:

* ``local-apparent`` — apparent solar time at the place: the capital's almanac time shifted by the
  place's longitude (see :func:`dianli.calendar.timekeeping.local_apparent_time`);
* ``beijing-apparent`` — the almanac's own clock, apparent solar time at the Beijing meridian;
* ``standard`` — modern civil time UT+8, the clock of today's almanacs (通書, 農民曆).

A :class:`Scenario` fixes the clock, where the day comes from and where the day begins (midnight, or 子初
at 23:00 as in the 夜子時 reckoning). The rules are evaluated once per scenario, and the output shows
where scenarios disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import cache

from dianli.calendar.ganzhi import (
    Element,
    Sexagenary,
    branch_element,
    branch_polarity,
    day_sexagenary,
    stem_element,
    stem_polarity,
    year_sexagenary,
)
from dianli.calendar.lunisolar import DateSource, chinese_year, to_chinese
from dianli.calendar.solar_terms import solar_term
from dianli.calendar.timekeeping import (
    DoubleHour,
    beijing_apparent_time,
    double_hour,
    local_apparent_time,
    local_mean_time,
)
from dianli.calendar.year_names import chinese_date_label
from dianli.errors import UnknownValueError
from dianli.places.places import PlaceAt

STANDARD_MERIDIAN_DEG = 120.0  # UT+8 is mean time at 120° E
ZI_INITIAL_HOUR = 23  # 子初 begins at 23:00

CLOCKS: dict[str, str] = {
    "local-apparent": "apparent solar time at the place (the almanac's Beijing time shifted by longitude)",
    "beijing-apparent": "apparent solar time at the Beijing meridian (the Qing almanac's own clock)",
    "standard": "modern civil time UT+8 (the clock of today's almanacs)",
}
DAY_SOURCES: dict[str, str] = {
    "almanac": "the day the almanac table gives for 立春 (1644–1911; otherwise the clock's date)",
    "clock": "the civil date of the computed instant on the chosen clock",
}
DAY_BOUNDARIES: dict[str, str] = {
    "midnight": "the day begins at midnight (子正)",
    "zi-initial": "the day begins at 子初, 23:00 (夜子時 reckoning)",
}


def _check(kind: str, value: str, accepted: dict[str, str]) -> None:
    if value not in accepted:
        raise UnknownValueError(kind, value, accepted)


@dataclass(frozen=True, slots=True, order=True)
class Scenario:
    """One way of reading the 立春 instant: which clock, where the day comes from, where it begins."""

    clock: str
    day_source: str
    boundary: str

    def __post_init__(self) -> None:
        _check("clock", self.clock, CLOCKS)
        _check("day source", self.day_source, DAY_SOURCES)
        _check("day boundary", self.boundary, DAY_BOUNDARIES)

    @property
    def label(self) -> str:
        return f"{self.clock} clock, {self.day_source} day, {self.boundary} boundary"


@dataclass(frozen=True, slots=True)
class Fact:
    """One fact a rule may use: its key (``day.branch``), value, English label and 五行 (if any)."""

    key: str
    value: str | int
    label: str
    element: Element | None = None
    display: str | None = None  # how to show the value when it is not the value itself (納音 name)

    @property
    def shown(self) -> str:
        if self.display is not None:
            return self.display
        if self.element is None:
            return str(self.value)
        return f"{self.value} ({self.element.value})"


Facts = dict[str, Fact]

FACT_KEYS: tuple[str, ...] = (
    "year.number",
    *(f"{p}.{k}" for p in ("year", "day") for k in ("ganzhi", "stem", "branch", "nayin", "polarity")),
    "hour.branch",
    "hour.polarity",
    "lichun.days_after_new_year",
    "lichun.lunar_month",
    "lichun.lunar_day",
)
"""The keys of :meth:`Lichun.facts`, known before any year is read (rule files are checked against them)."""


@dataclass(frozen=True, slots=True)
class Reading:
    """The 立春 instant read under one scenario: local clock time, 時辰, the day and its 干支."""

    scenario: Scenario
    clock_time: datetime
    hour: DoubleHour
    day: date
    day_sexagenary: Sexagenary


def _sexagenary_facts(prefix: str, label: str, value: Sexagenary) -> Facts:
    nayin = value.nayin
    facts = [
        Fact(f"{prefix}.ganzhi", value.name, f"{label} 干支"),
        Fact(f"{prefix}.stem", value.stem, f"{label} stem", stem_element(value.stem)),
        Fact(f"{prefix}.branch", value.branch, f"{label} branch", branch_element(value.branch)),
        Fact(
            f"{prefix}.nayin",
            nayin.element.value,
            f"{label} 納音",
            nayin.element,
            f"{nayin.name} ({nayin.element.value})",
        ),
        Fact(f"{prefix}.polarity", stem_polarity(value.stem).value, f"{label} 陰陽"),
    ]
    return {f.key: f for f in facts}


@dataclass(frozen=True, slots=True)
class Lichun:
    """立春 of Gregorian year ``year`` (the start of the 干支 year) at a place."""

    year: int
    place: PlaceAt
    jd_utc: float
    table_day: date | None  # the almanac table's day, when the year is in the table
    new_year: date  # 正月初一 of the Chinese year keyed ``year``

    @property
    def year_sexagenary(self) -> Sexagenary:
        return year_sexagenary(self.year)

    def clock_time(self, clock: str) -> datetime:
        _check("clock", clock, CLOCKS)
        if clock == "local-apparent":
            return local_apparent_time(self.jd_utc, self.place.longitude_deg)
        if clock == "beijing-apparent":
            return beijing_apparent_time(self.jd_utc)
        return local_mean_time(self.jd_utc, STANDARD_MERIDIAN_DEG)

    def read(self, scenario: Scenario) -> Reading:
        clock = self.clock_time(scenario.clock)
        day = self.table_day if scenario.day_source == "almanac" and self.table_day else clock.date()
        if scenario.boundary == "zi-initial" and clock.date() == day and clock.hour >= ZI_INITIAL_HOUR:
            day = day + timedelta(days=1)
        return Reading(scenario, clock, double_hour(clock), day, day_sexagenary(day))

    def facts(self, scenario: Scenario) -> Facts:
        reading = self.read(scenario)
        out: Facts = {"year.number": Fact("year.number", self.year, "Gregorian year of 立春")}
        out.update(_sexagenary_facts("year", "year", self.year_sexagenary))
        out.update(_sexagenary_facts("day", "立春 day", reading.day_sexagenary))
        branch = reading.hour.branch
        out["hour.branch"] = Fact("hour.branch", branch, "立春 時辰", branch_element(branch))
        out["hour.polarity"] = Fact("hour.polarity", branch_polarity(branch).value, "立春 時辰 陰陽")
        days = (reading.day - self.new_year).days
        out["lichun.days_after_new_year"] = Fact(
            "lichun.days_after_new_year", days, f"days from 元旦 {self.new_year} to 立春 {reading.day}"
        )
        lunar = to_chinese(reading.day)
        out["lichun.lunar_month"] = Fact(
            "lichun.lunar_month", lunar.month, "lunar month of the 立春 day", display=lunar.month_label
        )
        out["lichun.lunar_day"] = Fact("lichun.lunar_day", lunar.day, "lunar day of the 立春 day")
        return out


@cache
def lichun(year: int, place: PlaceAt) -> Lichun:
    """立春 of Gregorian ``year`` (1644‥2200) at ``place``."""
    term = solar_term(year, "立春")
    table_day = term.day if term.source is DateSource.ALMANAC else None
    return Lichun(year, place, term.jd_utc, table_day, chinese_year(year).months[0].first_day)


def lunar_label(day: date) -> str:
    """The Chinese date of a day (乾隆十六年十二月二十; after 1911 the lunar year by its 干支: 丁酉年正月初七)."""
    return chinese_date_label(to_chinese(day))


def lunar_year_of(day: date) -> int:
    """The Chinese (lunar) year containing a day."""
    return to_chinese(day).year
