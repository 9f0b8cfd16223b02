"""The name of a year at a place: its Qing reign year up to 1911; after that its 干支 and Gregorian number,
with the 民國 year only where the Republic's calendar was in use (the mainland 1912–1949, Taiwan from 1945).

Which calendar was in use where is data (``data/year_names.yaml``, cited); a place is given by its region
(``"mainland"``, ``"taiwan"``), which :func:`region_for` finds from the event that ended Qing rule over the
place (``ended_by`` in the place data). This package does not read the places: callers pass the region or
the ``ended_by`` value (:mod:`dianli.places.regions` does it for a place).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from dianli import cache
from dianli.calendar.eras import all_eras
from dianli.calendar.ganzhi import year_sexagenary
from dianli.calendar.lunisolar import DAY_NAMES, ChineseDate
from dianli.calendar.reigns import FIRST_CHINESE_YEAR, LAST_QING_CHINESE_YEAR, reign_year
from dianli.datafile import load_model
from dianli.errors import DataError, OutOfRangeError, UnknownValueError

YEAR_NAMES_FILE = "data/year_names.yaml"
LAST_NAMED_YEAR = 2200


@dataclass(frozen=True, slots=True)
class _Period:
    """A span of years of a region with its calendar (an era name, or None for no Chinese calendar)."""

    from_year: int
    until_year: int | None
    calendar: str | None
    note: str
    sources: tuple[str, ...]
    """Each citation as a reader sees it: 「title, locator: quote」."""
    assumption: str | None

    def holds(self, year: int) -> bool:
        return self.from_year <= year <= (self.until_year if self.until_year is not None else year)


@dataclass(frozen=True, slots=True)
class _Region:
    id: str
    name: str
    places_ended_by: tuple[str, ...]
    periods: tuple[_Period, ...]


@dataclass(frozen=True, slots=True)
class _Data:
    default_region: str
    regions: tuple[_Region, ...]


@functools.cache
def _data() -> _Data:
    """The data, checked; kept in the on-disk cache (:mod:`dianli.cache`) as plain data under a key naming
    the package's files (``data/year_names.yaml``, ``data/eras.yaml`` and this code among them)."""
    entry = cache.installed_key("year_names.data", cache.versions("pydantic", "PyYAML", "chinesecalendar-py"))
    return cache.pickled(cache.DERIVED, entry, _read)


def _read() -> _Data:
    from dianli.calendar.year_names_schema import _File

    data = load_model("calendar", YEAR_NAMES_FILE, _File)
    where = f"dianli/calendar/{YEAR_NAMES_FILE}"
    ids = [r.id for r in data.regions]
    if data.default_region not in ids:
        raise DataError(f"{where}: default_region: unknown region {data.default_region!r}; accepted: {ids}")
    sources = {s.id for s in data.sources}
    eras = {e.name for e in all_eras()}
    for r, region in enumerate(data.regions):
        for p, period in enumerate(region.periods):
            if period.calendar is not None and period.calendar not in eras:
                raise DataError(
                    f"{where}: regions.{r}.periods.{p}.calendar: unknown era {period.calendar!r}; "
                    f"accepted: an era name of eras.yaml"
                )
            for c, cite in enumerate(period.cite):
                if cite.source not in sources:
                    raise DataError(
                        f"{where}: regions.{r}.periods.{p}.cite.{c}.source: unknown source "
                        f"{cite.source!r}; accepted: {', '.join(sorted(sources))}"
                    )
    by_id = {s.id: s for s in data.sources}
    return _Data(
        data.default_region,
        tuple(
            _Region(
                region.id,
                region.name,
                region.places_ended_by,
                tuple(
                    _Period(
                        period.from_year,
                        period.until_year,
                        period.calendar,
                        period.note,
                        tuple(
                            f"{by_id[c.source].title}, {by_id[c.source].locator}: 「{c.quote}」"
                            for c in period.cite
                        ),
                        period.assumption,
                    )
                    for period in region.periods
                ),
            )
            for region in data.regions
        ),
    )


def regions() -> tuple[str, ...]:
    """The region ids of the data (``mainland``, ``taiwan``)."""
    return tuple(r.id for r in _data().regions)


def default_region() -> str:
    return _data().default_region


def region_for(ended_by: str | None) -> str:
    """The region of a place whose Qing rule was ended by ``ended_by`` (None: never ended): the region
    whose ``places_ended_by`` holds it, else the default region."""
    if ended_by is not None:
        for region in _data().regions:
            if ended_by in region.places_ended_by:
                return region.id
    return _data().default_region


def _region(region: str) -> _Region:
    for r in _data().regions:
        if r.id == region:
            return r
    raise UnknownValueError("region", region, regions())


@dataclass(frozen=True, slots=True)
class YearName:
    """A year named at a place: the Chinese era year where one was in use, its 干支, and why."""

    year: int
    ganzhi: str
    era_year: str | None
    """乾隆十七年, 民國一百〇五年; None where no Chinese calendar named the year (a 干支 and a number)."""
    region: str
    note: str = ""
    """Why the year is named so (the period of the data), '' for a Qing reign year."""
    sources: tuple[str, ...] = ()
    """The cited words, as 'locator: quote'."""
    assumption: str | None = None

    @property
    def label(self) -> str:
        """乾隆十七年 壬申 (1752); 民國一百〇五年 丙申 (2016); 丙申年 (2016)."""
        if self.era_year is not None:
            return f"{self.era_year} {self.ganzhi} ({self.year})"
        return f"{self.ganzhi}年 ({self.year})"

    @property
    def lunar_prefix(self) -> str:
        """What stands before a lunar month: the reign year (乾隆十七年) where a Chinese calendar named the
        lunar year, else its 干支 (丙申年) — a 民國 year is Gregorian and does not name a lunar year."""
        if self.era_year is not None and self.year <= LAST_QING_CHINESE_YEAR:
            return self.era_year
        return f"{self.ganzhi}年"


def year_name(year: int, region: str | None = None) -> YearName:
    """The name of the Chinese year ``year`` (the one whose 正月初一 falls in it) in ``region``.

    Up to 1911: the Qing reign year (乾隆十七年), unless a period of the region says no Chinese calendar
    was in use (Taiwan 1896–1911). From 1912: 干支 and number, with 民國 where a period puts it in use.
    """
    if not FIRST_CHINESE_YEAR <= year <= LAST_NAMED_YEAR:
        raise OutOfRangeError("year", year, f"{FIRST_CHINESE_YEAR}..{LAST_NAMED_YEAR}")
    chosen = _region(region if region is not None else default_region())
    ganzhi = str(year_sexagenary(year))
    period = next((p for p in chosen.periods if p.holds(year)), None)
    sources = period.sources if period is not None else ()
    if period is not None and period.calendar is None:
        return YearName(year, ganzhi, None, chosen.id, period.note, sources, period.assumption)
    if period is not None and period.calendar is not None:
        era = next(e for e in all_eras() if e.name == period.calendar)
        number = year - era.first_year + 1
        era.chinese_year(number)  # the era had that year (OutOfRangeError if the data say otherwise)
        return YearName(
            year,
            ganzhi,
            era.label(number),
            chosen.id,
            period.note,
            sources,
            period.assumption,
        )
    if year <= LAST_QING_CHINESE_YEAR:
        return YearName(year, ganzhi, reign_year(year).label, chosen.id)
    return YearName(
        year, ganzhi, None, chosen.id, f"no era year: {chosen.name} after the periods of the data"
    )


def chinese_date_label(value: ChineseDate, region: str | None = None) -> str:
    """A lunar date named for a place: 乾隆十七年二月初一 (Qing); 丙申年三月廿五 (2016, mainland or Taiwan:
    the 民國 year is Gregorian, so the lunar year is named by its 干支); 丙申年… for Taiwan 1896–1944."""
    name = year_name(value.year, region)
    return f"{name.lunar_prefix}{value.month_label}{DAY_NAMES[value.day - 1]}"


def clause_year(year: int, region: str | None = None) -> str:
    """The year as a 祝文's date clause names it (「維…，歲次…」): the era year where one was in use
    (乾隆十七年, 民國一百〇五年), else the Gregorian number in Chinese digits (公元二〇一六年) — the 干支
    follows in the clause's 歲次."""
    name = year_name(year, region)
    if name.era_year is not None:
        return name.era_year
    return "公元" + "".join("〇一二三四五六七八九"[int(d)] for d in str(year)) + "年"
