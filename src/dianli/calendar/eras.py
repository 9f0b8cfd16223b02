"""Era names (年號) of every dynasty whose dates a witness states, to Chinese years and Gregorian days.

Which dynasties and which of their eras are recognised is data (``data/eras.yaml``, with its sources);
where the years come from is said there for each dynasty: the era labels of chinesecalendar-py (read year
by year), or a cited table (後金, 紹武 and 民國, which the package lacks). A month and day convert through
:mod:`dianli.calendar.lunisolar` for the years of the Qing almanac (1643–1911), through
:mod:`dianli.calendar.historical` for earlier years and for the Southern Ming, and as Gregorian months and
days for 民國 (the Republic's calendar).

One name can belong to several eras (至元 of 元 twice; a name reused by a later dynasty):
:func:`read_era_year` reads it in the eras that had begun by a given year (the year the witness was
compiled) and takes the first dynasty in the data's order, keeping the others as alternatives.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from datetime import date
from typing import TYPE_CHECKING

from dianli import cache
from dianli.calendar import historical, lunisolar
from dianli.calendar.reigns import (
    FIRST_CHINESE_YEAR,
    LAST_QING_CHINESE_YEAR,
    parse_integer_chinese,
    year_number_chinese,
)
from dianli.datafile import load_model
from dianli.errors import DataError, OutOfRangeError, UnknownValueError

if TYPE_CHECKING:
    from dianli.calendar.eras_schema import _Dynasty, _ErasFile

ERAS_FILE = "data/eras.yaml"
_PACKAGE_NUMBER = r"([元一二三四五六七八九十百]+)[年載]$"
"""A year number ending an era label of chinesecalendar-py (after the era's name, escaped)."""


@dataclass(frozen=True, slots=True)
class Dynasty:
    """A dynasty whose era names are recognised, and where its years and months come from."""

    id: str
    name: str
    calendar: str
    source: str
    rank: int
    """Its place in the order of preference (0 first)."""
    note: str = ""
    """What the data say of it (where an era is counted beyond the tables, why)."""


@dataclass(frozen=True, slots=True)
class Era:
    """One era: its name, dynasty, first and last Chinese year (the year whose 正月初一 falls in it)."""

    name: str
    dynasty: Dynasty
    first_year: int
    last_year: int
    first_month: int | None = None
    """The first month the era named in its first year, where it began within a year (else None)."""
    last_month: int | None = None
    """The last month it named in its last year, where it ended within a year (else None)."""
    counted_on_from: int | None = None
    """The first Chinese year counted on after its emperor by another regime (永曆 in Taiwan), or None."""
    counted_on_note: str = ""

    def note_for(self, chinese_year: int) -> str:
        """The data's note for a year of this era counted on after its emperor ('' if none)."""
        if self.counted_on_from is not None and chinese_year >= self.counted_on_from:
            return self.counted_on_note
        return ""

    @property
    def years(self) -> int:
        return self.last_year - self.first_year + 1

    def chinese_year(self, number: int) -> int:
        """The Chinese year of ``number`` (1 = 元年); OutOfRangeError for a year the era did not have."""
        if not 1 <= number <= self.years:
            raise OutOfRangeError(f"{self.dynasty.name} {self.name} year", number, f"1..{self.years}")
        return self.first_year + number - 1

    def label(self, number: int) -> str:
        return f"{self.name}{year_number_chinese(number)}年"


@dataclass(frozen=True, slots=True)
class EraYear:
    """A year named by era, as read: the era taken, its number, the Chinese year, the other readings."""

    era: Era
    number: int
    alternatives: tuple[Era, ...]
    """The other eras of that name that fit the year number (another dynasty's, or the same one's)."""

    @property
    def chinese_year(self) -> int:
        return self.era.chinese_year(self.number)

    @property
    def ambiguous(self) -> bool:
        return bool(self.alternatives)


@dataclass(frozen=True, slots=True)
class Alias:
    """A written form that stands for an era name (in one dynasty), and why (the data's assumption)."""

    form: str
    era: str
    dynasty: str
    assumption: str


@functools.cache
def _aliases() -> tuple[Alias, ...]:
    return _tables()[0]


@functools.cache
def _tables() -> tuple[tuple[Alias, ...], tuple[Era, ...]]:
    """The aliases and every era the data name. Reading chinesecalendar-py's label of every year takes a
    noticeable part of a second, so both are kept in the on-disk cache (:mod:`dianli.cache`), as plain
    data (no schema to load), under a key naming the package's files (this code and ``data/eras.yaml``
    among them) and chinesecalendar-py's version."""
    entry = cache.installed_key("eras.tables", cache.versions("chinesecalendar-py", "pydantic", "PyYAML"))
    return cache.pickled(cache.DERIVED, entry, lambda: (_read_aliases(), _read_eras()))


def _read_aliases() -> tuple[Alias, ...]:
    return tuple(Alias(a.form, a.era, a.dynasty, a.assumption) for a in _read_data().aliases)


def _read_data() -> _ErasFile:
    from dianli.calendar.eras_schema import _ErasFile

    data = load_model("calendar", ERAS_FILE, _ErasFile)
    ids = [d.id for d in data.dynasties]
    for index, alias in enumerate(data.aliases):
        if alias.dynasty not in ids:
            raise DataError(
                f"dianli/calendar/{ERAS_FILE}: aliases.{index}.dynasty: unknown dynasty {alias.dynasty!r}; "
                f"accepted: {', '.join(ids)}"
            )
    return data


def _package_eras(entry: _Dynasty, dynasty: Dynasty) -> list[Era]:
    """The years of the named eras, read from chinesecalendar-py's label of every year of the dynasty."""
    from ChineseCalendar_py.era_names import era_name_lookup

    assert entry.region is not None and entry.years is not None
    names = sorted((e for e in entry.eras if isinstance(e, str)), key=len, reverse=True)
    found: dict[tuple[str, int], int] = {}  # (name, first year) -> last year seen
    for year in range(entry.years[0], entry.years[1] + 1):
        for part in str(era_name_lookup("ChiT", year, entry.region)).split("/"):
            for name in names:
                number = re.search(re.escape(name) + _PACKAGE_NUMBER, part)
                if number is None:
                    continue
                first = year - parse_integer_chinese(number.group(1)) + 1
                found[(name, first)] = max(found.get((name, first), year), year)
                break
    missing = [n for n in names if not any(key[0] == n for key in found)]
    if missing:
        raise DataError(
            f"dianli/calendar/{ERAS_FILE}: dynasty {entry.id}: chinesecalendar-py has no year of "
            f"{', '.join(missing)} in {entry.years[0]}..{entry.years[1]} (region {entry.region}); "
            f"accepted: era names its labels hold in those years"
        )
    return [
        Era(name, dynasty, first, last)
        for (name, first), last in sorted(found.items(), key=lambda i: i[0][1])
    ]


def all_eras() -> tuple[Era, ...]:
    """Every recognised era, dynasty by dynasty in the order of preference, each in time order."""
    return _tables()[1]


def _read_eras() -> tuple[Era, ...]:
    from dianli.calendar.eras_schema import _TableEra

    out: list[Era] = []
    for rank, entry in enumerate(_read_data().dynasties):
        source = {
            "chinesecalendar-py": f"chinesecalendar-py era labels ({entry.region}, {entry.years})",
            "table": entry.source or "",
        }[entry.eras_from]
        dynasty = Dynasty(entry.id, entry.name, entry.calendar, source, rank, entry.note)
        if entry.eras_from == "table":
            out.extend(
                Era(e.name, dynasty, e.first_year, e.last_year, e.first_month, e.last_month)
                for e in entry.eras
                if isinstance(e, _TableEra)
            )
        else:
            out.extend(_with_counted_on(entry, _package_eras(entry, dynasty)))
    return tuple(out)


def _with_counted_on(entry: _Dynasty, eras: list[Era]) -> list[Era]:
    names = {e.name for e in eras}
    for index, later in enumerate(entry.counted_on):
        if later.era not in names:
            raise DataError(
                f"dianli/calendar/{ERAS_FILE}: dynasty {entry.id}: counted_on.{index}.era: {later.era!r} is "
                f"not one of its eras; accepted: {', '.join(sorted(names))}"
            )
    by_name = {c.era: c for c in entry.counted_on}
    return [
        replace(e, counted_on_from=by_name[e.name].from_year, counted_on_note=by_name[e.name].note)
        if e.name in by_name
        else e
        for e in eras
    ]


def dynasties() -> tuple[Dynasty, ...]:
    """The recognised dynasties in the order of preference."""
    return tuple(dict.fromkeys(e.dynasty for e in all_eras()))


@functools.cache
def era_forms() -> dict[str, tuple[str, str | None]]:
    """Every written form of an era name → (the era name, the dynasty id it is restricted to, or None)."""
    forms: dict[str, tuple[str, str | None]] = {e.name: (e.name, None) for e in all_eras()}
    for alias in _aliases():
        forms[alias.form] = (alias.era, alias.dynasty)
    return forms


def alias_note(form: str) -> str | None:
    """Why a form stands for another era name (the data's assumption), or None for a plain name."""
    return next((a.assumption for a in _aliases() if a.form == form), None)


def eras_named(name: str) -> tuple[Era, ...]:
    """The eras a written form names (an alias reads as its era, in its dynasty), preference order."""
    era_name, dynasty = era_forms().get(name, (name, None))
    found = tuple(
        e for e in all_eras() if e.name == era_name and (dynasty is None or e.dynasty.id == dynasty)
    )
    if not found:
        raise UnknownValueError("era name", name, list(era_forms()))
    return found


def read_era_year(name: str, number: int, written_by: int | None = None) -> EraYear:
    """Read ``name`` + ``number`` 年 as a year: the eras of that name that had that many years and had
    begun by ``written_by`` (the year the text was compiled; all of them if none had), first dynasty of
    the data's order first. OutOfRangeError if no era of that name had that many years."""
    fits = [e for e in eras_named(name) if 1 <= number <= e.years]
    if not fits:
        longest = max(e.years for e in eras_named(name))
        raise OutOfRangeError(f"{name} year", number, f"1..{longest}")
    if written_by is not None:
        fits = [e for e in fits if e.chinese_year(number) <= written_by] or fits
    fits.sort(key=lambda e: (e.dynasty.rank, e.first_year))
    return EraYear(fits[0], number, tuple(fits[1:]))


@dataclass(frozen=True, slots=True)
class DaySpan:
    """The Gregorian days of a stated period (a year, a month or a day): first and last day."""

    first: date
    last: date


def month_span(era: Era, chinese_year: int, month: int, leap: bool) -> DaySpan | None:
    """The days of a month in the era's calendar, or None if the year has no such month."""
    first_ordinal, length = _month(era.dynasty.calendar, chinese_year, month, leap)
    if first_ordinal is None:
        return None
    return DaySpan(date.fromordinal(first_ordinal), date.fromordinal(first_ordinal + length - 1))


def year_span(era: Era, chinese_year: int) -> DaySpan:
    """The days of a Chinese year in the era's calendar: 正月初一 to the last day of its last month."""
    if era.dynasty.calendar == "Gregorian":
        return DaySpan(date(chinese_year, 1, 1), date(chinese_year, 12, 31))
    if _in_almanac(era.dynasty.calendar, chinese_year):
        cy = lunisolar.chinese_year(chinese_year)
        return DaySpan(date.fromordinal(cy.first_ordinal), date.fromordinal(cy.end_ordinal - 1))
    months = historical.months(era.dynasty.calendar, chinese_year)
    last = months[-1]
    return DaySpan(
        date.fromordinal(months[0].first_ordinal), date.fromordinal(last.first_ordinal + last.length_days - 1)
    )


def _in_almanac(calendar: str, chinese_year: int) -> bool:
    """Whether the project's Qing almanac (lunisolar) dates this year: the default calendar, 1643–1911."""
    return calendar == "default" and FIRST_CHINESE_YEAR <= chinese_year <= LAST_QING_CHINESE_YEAR


def _month(calendar: str, chinese_year: int, number: int, leap: bool) -> tuple[int | None, int]:
    if calendar == "Gregorian":
        if leap or not 1 <= number <= 12:
            return (None, 0)
        import calendar as western  # the Gregorian months' lengths (民國), loaded when one is asked

        return (date(chinese_year, number, 1).toordinal(), western.monthrange(chinese_year, number)[1])
    if _in_almanac(calendar, chinese_year):
        cy = lunisolar.chinese_year(chinese_year)
        found = next((m for m in cy.months if m.number == number and m.leap == leap), None)
        return (found.first_ordinal, found.length_days) if found else (None, 0)
    hm = historical.month(calendar, chinese_year, number, leap)
    return (hm.first_ordinal, hm.length_days) if hm else (None, 0)
