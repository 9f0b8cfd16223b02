"""Dates as a gazetteer writes them: 萬曆四十五年正月初一, 天聰三年二月初一, 永曆十五年三月初一日,
乾隆十七年歲次壬申二月癸巳朔, 康熙元年閏六月望, 雍正元年二月初一日丙午, 民國六年二月六日.

A written date is an era name (optionally after its dynasty: 明, 大清, 南明 …), a year number and 年 (載),
optionally the year's 干支 (歲次壬申), a month (閏 for the leap month; 正, 冬, 臘), and a day: a number
(初一, 十五, 廿三, with or without 日), 朔 (the first day), 望 (the fifteenth), 晦 (the last), or a 干支
alone (the day of that 干支 in the month). A day's 干支 may follow its number (初一日丙午) and a month's
first day's 干支 may stand before 朔 (五月丙辰朔): every stated 干支 is checked against the calendar.

The era names and their years are those of :mod:`dianli.calendar.eras` (``data/eras.yaml``: the
chinesecalendar-py era labels, and cited tables where the package has none) — the same list the timeline
of dated events reads. The months are those of the era's calendar: the Qing almanac (1643–1911,
:mod:`dianli.calendar.lunisolar`), chinesecalendar-py's 大統曆 and earlier calendars or its 殘明大統曆 of the
Southern Ming and the 鄭 regime (:mod:`dianli.calendar.historical`), and for 民國 the Gregorian calendar.

An impossible date is refused with a message naming what is wrong (an unknown era, a year the era did not
have, a leap month the year did not have, a day the month did not have, a 干支 that is not that day's)
and what is accepted: :class:`~dianli.errors.UnknownValueError` or :class:`~dianli.errors.OutOfRangeError`.

Days before 1582-10-15 are ``datetime.date`` values, i.e. proleptic Gregorian; :func:`julian_label` gives
the Julian-calendar date that Western sources of those years print.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from dianli import cache
from dianli.calendar import historical, lunisolar
from dianli.calendar.eras import Era, all_eras, dynasties, era_forms, month_span
from dianli.calendar.ganzhi import (
    BRANCHES,
    STEMS,
    Sexagenary,
    day_sexagenary,
    day_sexagenary_of_ordinal,
    year_sexagenary,
)
from dianli.calendar.historical import julian_label
from dianli.calendar.lunisolar import DAY_NAMES, MONTH_NAMES
from dianli.calendar.reigns import (
    FIRST_CHINESE_YEAR,
    LAST_QING_CHINESE_YEAR,
    integer_chinese,
    parse_integer_chinese,
)
from dianli.corpus.simplified import simplified
from dianli.errors import DianliError, OutOfRangeError, UnknownValueError

GREGORIAN_REFORM = date(1582, 10, 15)
"""The first Gregorian day; earlier ``date`` values are proleptic Gregorian."""

ACCEPTED_FORMS: tuple[str, ...] = (
    "<era><n>年<month>月<day>, e.g. 萬曆四十五年正月初一, 天聰三年二月初一, 乾隆十七年閏五月十五日",
    "a dynasty before the era: 明萬曆四十五年…, 大清乾隆…, 南明永曆…",
    "the year's 干支: 乾隆十七年歲次壬申二月初一",
    "朔 (1st), 望 (15th), 晦 (last day): 康熙元年五月望",
    "a month's first-day 干支 before 朔: 乾隆十七年二月癸巳朔",
    "a day's 干支 after its number, or alone: 雍正元年二月初一日丙午, 雍正元年二月丙午",
    "民國 dates are Gregorian: 民國六年二月六日",
    "an ISO day: 1617-02-06",
)

_NUM = "〇零一二三四五六七八九十百廿卅有0-9０-９"
_GZ = f"[{''.join(STEMS)}][{''.join(BRANCHES)}]"
_FULLWIDTH_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")


def _fold_with(text: str, fold_char: Callable[[str], str]) -> str:
    return "".join(fold_char(c) for c in text.translate(_FULLWIDTH_DIGITS))


def _fold(text: str) -> str:
    """One comparison form: simplified script (OpenCC t2s, character by character), ASCII digits. The
    characters of the era names and of the date words are folded from the cached table (:func:`_folded_forms`),
    any other from the ideographs' table of :mod:`dianli.corpus.simplified`: OpenCC loads only for a
    character outside both."""
    known = _folded_forms()[2]
    return _fold_with(text, lambda c: known[c] if c in known else simplified(c))


_DATE_WORDS = "元年載歲次閏正冬臘月朔望晦日初廿卅維惟大皇，,、。." + _NUM
"""The characters a written date uses besides its era, dynasty and 干支 (see the pattern below)."""


@functools.cache
def _folded_forms() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """The folded era forms and dynasty names (below), and the folded form of every character they and the
    date words use; kept in the on-disk cache (:mod:`dianli.cache`) under a key naming the package's files
    and OpenCC's version (both in :func:`cache.installed_key`)."""
    entry = cache.installed_key("written_dates.folded_forms")
    return cache.pickled(cache.DERIVED, entry, _fold_forms)


def _fold_forms() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    eras = {_fold_with(form, simplified): form for form in era_forms()}
    dynasty_names: dict[str, str] = {}
    for dynasty in dynasties():
        for prefix in ("", "大", "皇"):
            dynasty_names.setdefault(_fold_with(prefix + dynasty.name, simplified), dynasty.name)
    words = [*era_forms(), *(d.name for d in dynasties()), *STEMS, *BRANCHES, _DATE_WORDS]
    chars = {c: simplified(c) for c in sorted(set("".join(words)))}
    return eras, dynasty_names, chars


def _folded_eras() -> dict[str, str]:
    """Folded written form of every era name (and alias) → the form as the data write it."""
    return _folded_forms()[0]


def _folded_dynasties() -> dict[str, str]:
    """Folded dynasty name, with the honorific forms 大清, 皇明 …, → the dynasty's name in the data."""
    return _folded_forms()[1]


def _alternation(forms: list[str]) -> str:
    if not forms:
        return "(?!)"  # nothing to match
    return "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))


def _pattern_for(folded: str) -> re.Pattern[str]:
    """The pattern of a written date, its alternations of dynasty names and era forms cut to those that
    occur in ``folded`` (a form absent from the text cannot match it: the match is the same, the pattern
    far smaller to compile)."""
    return _pattern(
        tuple(f for f in _folded_dynasties() if f in folded), tuple(f for f in _folded_eras() if f in folded)
    )


@functools.lru_cache(maxsize=256)
def _pattern(dynasties: tuple[str, ...], eras: tuple[str, ...]) -> re.Pattern[str]:
    dyn = _alternation(list(dynasties))
    era = _alternation(list(eras))
    return re.compile(
        rf"^(?:维|惟)?(?P<dynasty>{dyn})?(?P<era>{era})(?P<number>[{_NUM}元]+)[年载]"
        rf"(?:岁次(?P<year_gz>{_GZ})[，,、]?)?"
        rf"(?P<leap>闰)?(?P<month>正|冬|腊|十一|十二|十|[一二三四五六七八九]|1[0-2]|0?[1-9])月"
        rf"(?:(?P<new_moon_gz>{_GZ})?(?P<shuo>朔)"
        rf"|(?P<wang>望)|(?P<hui>晦)"
        rf"|(?P<day>初[一二三四五六七八九十]|[{_NUM}]+)日?(?:(?P<day_gz>{_GZ})日?)?"
        rf"|(?P<gz_only>{_GZ})日?)?$"
    )


@dataclass(frozen=True, slots=True)
class WrittenDate:
    """A written date read: the era taken, its year, month and day, the Gregorian day, and notes."""

    text: str
    era: Era
    number: int
    chinese_year: int
    month: int
    leap: bool
    day: int
    gregorian: date
    month_length: int
    notes: tuple[str, ...]
    alternatives: tuple[Era, ...]
    """Other eras of that name that had that year (another dynasty's); the first of the data's order is read."""

    @property
    def calendar(self) -> str:
        return self.era.dynasty.calendar

    @property
    def day_ganzhi(self) -> Sexagenary:
        return day_sexagenary(self.gregorian)

    @property
    def year_ganzhi(self) -> Sexagenary:
        return year_sexagenary(self.chinese_year)

    @property
    def label(self) -> str:
        """The date in one canonical form: 萬曆四十五年正月初一; 民國六年二月六日."""
        return date_label(self.era, self.number, self.month, self.leap, self.day)


def date_label(era: Era, number: int, month: int, leap: bool, day: int) -> str:
    """萬曆, 45, 1, False, 1 → 萬曆四十五年正月初一 (民國: 民國六年二月六日)."""
    if era.dynasty.calendar == "Gregorian":
        return f"{era.label(number)}{integer_chinese(month)}月{integer_chinese(day)}日"
    return f"{era.label(number)}{'閏' if leap else ''}{MONTH_NAMES[month - 1]}月{DAY_NAMES[day - 1]}"


def _month_number(text: str) -> int:
    special = {"正": 1, "冬": 11, "腊": 12}
    if text in special:
        return special[text]
    return parse_integer_chinese(text)


def _number(text: str, what: str) -> int:
    try:
        return parse_integer_chinese(text.replace("有", "").replace("零", "〇"))
    except UnknownValueError as exc:
        raise UnknownValueError(what, text, exc.accepted) from None


def _choose_era(form: str, dynasty: str | None, number: int, text: str) -> tuple[Era, tuple[Era, ...]]:
    era_name, restricted = era_forms()[form]
    candidates = [
        e
        for e in all_eras()
        if e.name == era_name
        and (restricted is None or e.dynasty.id == restricted)
        and (dynasty is None or e.dynasty.name == dynasty)
    ]
    if not candidates:
        named = sorted({e.dynasty.name for e in all_eras() if e.name == era_name})
        raise UnknownValueError(
            f"dynasty of {era_name}", dynasty, named, f"{era_name} is an era of {'、'.join(named)}"
        )
    fits = sorted(
        (e for e in candidates if 1 <= number <= e.years), key=lambda e: (e.dynasty.rank, e.first_year)
    )
    if not fits:
        valid = "; ".join(
            f"1..{e.years} ({e.dynasty.name} {e.name}: {e.first_year}–{e.last_year})"
            for e in sorted(candidates, key=lambda e: e.first_year)
        )
        raise OutOfRangeError(f"year of {era_name} in {text!r}", number, valid)
    chosen = fits[0]
    others = tuple(e for e in fits[1:] if e.chinese_year(number) != chosen.chinese_year(number))
    return chosen, others


def _month_label(month: int, leap: bool, gregorian: bool) -> str:
    if gregorian:
        return f"{integer_chinese(month)}月" if 1 <= month <= 12 else f"{month}月"
    return ("閏" if leap else "") + (MONTH_NAMES[month - 1] if 1 <= month <= 12 else str(month)) + "月"


def _months_of_year(era: Era, chinese_year: int) -> list[str]:
    gregorian = era.dynasty.calendar == "Gregorian"
    out = []
    for number in range(1, 13):
        for leap in (False, True):
            if month_span(era, chinese_year, number, leap) is not None:
                out.append(_month_label(number, leap, gregorian))
    return out


def _check_era_months(era: Era, number: int, chinese_year: int, month: int) -> None:
    """A month outside an era that began or ended within a year (紹武: 十一月, 十二月 only)."""
    first = era.first_month if chinese_year == era.first_year else None
    last = era.last_month if chinese_year == era.last_year else None
    if (first is not None and month < first) or (last is not None and month > last):
        lo = MONTH_NAMES[(first or 1) - 1]
        hi = MONTH_NAMES[(last or 12) - 1]
        raise OutOfRangeError(
            f"month of {era.label(number)} ({era.dynasty.name} {era.name} named only part of {chinese_year})",
            f"{MONTH_NAMES[month - 1]}月",
            f"{lo}月..{hi}月",
        )


def parse_written_date(text: str) -> WrittenDate:
    """Read a date as a gazetteer writes it (see the module) and convert it, checking every stated 干支."""
    stripped = "".join(text.split()).rstrip("。.")
    folded = _fold(stripped)
    match = _pattern_for(folded).match(folded)
    if not match:
        raise UnknownValueError("written date", text, ACCEPTED_FORMS, _why_not(folded))
    dynasty = _folded_dynasties()[match.group("dynasty")] if match.group("dynasty") else None
    form = _folded_eras()[match.group("era")]
    number = _number(match.group("number"), f"year number of {form}")
    era, alternatives = _choose_era(form, dynasty, number, text)
    chinese_year = era.chinese_year(number)
    year_label = era.label(number)
    gregorian = era.dynasty.calendar == "Gregorian"
    notes: list[str] = []
    if form != era.name:
        notes.append(f"{form} read as {era.name}")
    first_of_name = min((e for e in all_eras() if e.name == era.name), key=lambda e: e.dynasty.rank)
    if era.dynasty != first_of_name.dynasty and era.dynasty.note:
        notes.append(era.dynasty.note)
    if later := era.note_for(chinese_year):
        notes.append(later)
    if alternatives:
        others = ", ".join(f"{e.dynasty.name} {e.name} ({e.chinese_year(number)})" for e in alternatives)
        notes.append(f"read in {era.dynasty.name}, the first dynasty of the data's order; also {others}")

    stated_year_gz = match.group("year_gz")
    if stated_year_gz is not None and str(year_sexagenary(chinese_year)) != _fold(stated_year_gz):
        raise UnknownValueError(
            f"year 干支 of {year_label} ({chinese_year})",
            stated_year_gz,
            [str(year_sexagenary(chinese_year))],
            f"{year_label} is the year {year_sexagenary(chinese_year)}",
        )

    month = _month_number(match.group("month"))
    leap = match.group("leap") is not None
    if not 1 <= month <= 12:
        raise OutOfRangeError(f"month of {year_label}", match.group("month"), "正月..十二月 (1..12)")
    if gregorian and leap:
        raise UnknownValueError(
            f"month of {year_label}",
            f"閏{match.group('month')}月",
            _months_of_year(era, chinese_year),
            "民國 dates are Gregorian (國曆): there are no leap months",
        )
    _check_era_months(era, number, chinese_year, month)
    span = month_span(era, chinese_year, month, leap)
    month_label = _month_label(month, leap, gregorian)
    if span is None:
        raise UnknownValueError(
            f"month of {year_label} ({chinese_year}, {era.dynasty.name} {_calendar_label(era)})",
            month_label,
            _months_of_year(era, chinese_year),
            f"{year_label} had no {month_label}",
        )
    length = (span.last - span.first).days + 1
    where = f"{year_label}{month_label}"

    if gregorian and (match.group("shuo") or match.group("wang") or match.group("hui")):
        said = match.group("shuo") or match.group("wang") or match.group("hui")
        raise UnknownValueError(
            f"day of {where}",
            said,
            [f"a day number 1..{length}"],
            "民國 dates are Gregorian (國曆): 朔, 望 and 晦 name days of a lunar month",
        )

    day: int
    if match.group("shuo"):
        day = 1
        stated = match.group("new_moon_gz")
        if stated is not None:
            _check_day_ganzhi(span.first, stated, f"first day (朔) of {where}")
        notes.append("朔 is the first day of the month")
    elif match.group("wang"):
        day = 15
        notes.append("望 is read as the fifteenth day")
    elif match.group("hui"):
        day = length
        notes.append(f"晦 is the last day of the month (day {length})")
    elif match.group("day"):
        raw = match.group("day")
        day = _number(raw.removeprefix("初"), f"day of {where}")
        if raw.startswith("初") and day > 10:
            raise UnknownValueError(f"day of {where}", raw, ["初一..初十", "十一..三十"])
        if not 1 <= day <= length:
            raise OutOfRangeError(
                f"day of {where} ({span.first.isoformat()}–{span.last.isoformat()})",
                day,
                f"1..{length} ({where} had {length} days)",
            )
        stated = match.group("day_gz")
        if stated is not None:
            at = date.fromordinal(span.first.toordinal() + day - 1)
            _check_day_ganzhi(at, stated, f"day {day} of {where}")
    elif match.group("gz_only"):
        stated = match.group("gz_only")
        found = [
            i + 1
            for i in range(length)
            if str(day_sexagenary_of_ordinal(span.first.toordinal() + i)) == stated
        ]
        if not found:
            days = [
                f"{day_sexagenary_of_ordinal(span.first.toordinal() + i)} (day {i + 1})"
                for i in range(length)
            ]
            raise UnknownValueError(f"day 干支 in {where}", stated, days, f"{where} had no {stated} day")
        day = found[0]
        notes.append(f"{stated} is day {day} of the month")
    else:
        raise UnknownValueError(
            "written date",
            text,
            ACCEPTED_FORMS,
            f"a day is missing after {where}: a number (初一), 朔, 望, 晦 or a day 干支",
        )
    gregorian_day = date.fromordinal(span.first.toordinal() + day - 1)
    if gregorian_day < GREGORIAN_REFORM:
        notes.append(
            f"{gregorian_day.isoformat()} is proleptic Gregorian; Julian calendar {julian_label(gregorian_day)}"
        )
    return WrittenDate(
        text=text,
        era=era,
        number=number,
        chinese_year=chinese_year,
        month=month,
        leap=leap,
        day=day,
        gregorian=gregorian_day,
        month_length=length,
        notes=tuple(notes),
        alternatives=alternatives,
    )


def _check_day_ganzhi(day: date, stated: str, what: str) -> None:
    actual = str(day_sexagenary(day))
    if actual != _fold(stated):
        raise UnknownValueError(
            f"干支 of the {what}", stated, [actual], f"that day, {day.isoformat()}, is {actual}"
        )


def _why_not(folded: str) -> str:
    """A hint for a text that does not parse: what was recognised and where it stopped."""
    for form_folded, form in sorted(_folded_eras().items(), key=lambda i: -len(i[0])):
        at = folded.find(form_folded)
        if at >= 0:
            return f"the era {form} is known; the text after it should be <n>年<month>月<day>"
    return f"no known era name in it; known: {len(era_forms())} names, e.g. 萬曆, 天聰, 永曆, 乾隆, 民國"


def _calendar_label(era: Era) -> str:
    return {
        "default": "calendar",
        "SouthernMing": "Southern Ming calendar",
        "Gregorian": "Gregorian calendar",
    }.get(era.dynasty.calendar, era.dynasty.calendar)


# --- the other way: a Gregorian day named in every era that covered it -------------------------------


@dataclass(frozen=True, slots=True)
class DayNaming:
    """A day named in one era: 萬曆四十五年正月初一 (明, calendar default)."""

    era: Era
    number: int
    chinese_year: int
    month: int
    leap: bool
    day: int

    @property
    def label(self) -> str:
        return date_label(self.era, self.number, self.month, self.leap, self.day)


def _lunar_position(calendar: str, day: date) -> tuple[int, int, bool, int] | None:
    """(Chinese year, month, leap, day) of ``day`` in a lunar calendar of the eras, or None if not covered."""
    ordinal = day.toordinal()
    if calendar == "default" and FIRST_CHINESE_YEAR <= day.year <= LAST_QING_CHINESE_YEAR + 1:
        try:
            cd = lunisolar.to_chinese(day)
        except DianliError:  # a day of the Chinese year before the almanac's first: the tables below
            cd = None
        if cd is not None:
            return (cd.year, cd.month, cd.leap, cd.day) if cd.year <= LAST_QING_CHINESE_YEAR else None
    first, last = historical.year_range(calendar)
    for year in (day.year, day.year - 1):
        if not first <= year <= last:
            continue
        if calendar == "default" and year >= FIRST_CHINESE_YEAR:
            continue
        for month in historical.months(calendar, year):
            if month.first_ordinal <= ordinal < month.first_ordinal + month.length_days:
                return (year, month.number, month.leap, ordinal - month.first_ordinal + 1)
    return None


def day_namings(day: date) -> tuple[DayNaming, ...]:
    """``day`` named in every recognised era that numbered its year, the data's order of dynasties:
    1617-02-06 → 萬曆四十五年正月初一 (明), 天命二年正月初一 (後金); 1662-06-01 → 康熙元年四月十五 (清),
    永曆十六年四月十五 (南明). An era that began or ended within a year names only its months."""
    positions: dict[str, tuple[int, int, bool, int] | None] = {}
    out: list[DayNaming] = []
    for era in sorted(all_eras(), key=lambda e: (e.dynasty.rank, e.first_year)):
        calendar = era.dynasty.calendar
        if calendar == "Gregorian":
            if era.first_year <= day.year <= era.last_year:
                out.append(DayNaming(era, day.year - era.first_year + 1, day.year, day.month, False, day.day))
            continue
        if calendar not in positions:
            positions[calendar] = _lunar_position(calendar, day)
        position = positions[calendar]
        if position is None:
            continue
        year, month, leap, number_of_day = position
        if not era.first_year <= year <= era.last_year:
            continue
        if year == era.first_year and era.first_month is not None and month < era.first_month:
            continue
        if year == era.last_year and era.last_month is not None and month > era.last_month:
            continue
        naming = DayNaming(era, year - era.first_year + 1, year, month, leap, number_of_day)
        if all(n.label != naming.label for n in out):
            out.append(naming)
    return tuple(out)


# --- a day from either form, described in every calendar that named it ------------------------------


@dataclass(frozen=True, slots=True)
class DayReading:
    """A day as the user gave it: the Gregorian day, and the written date read if one was given."""

    day: date
    written: WrittenDate | None


_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")


def read_day(text: str) -> DayReading:
    """A day written either way: ISO Gregorian (``1617-02-06``) or as a gazetteer writes it
    (``萬曆四十五年正月初一``). An ISO day must be named by some era of the data or by the almanac."""
    stripped = text.strip()
    iso = _ISO.match(stripped.translate(_FULLWIDTH_DIGITS))
    if iso is None:
        if re.fullmatch(r"[-\d/.\s]+", stripped):
            raise UnknownValueError("Gregorian date", text, ["YYYY-MM-DD, e.g. 1617-02-06"])
        written = parse_written_date(stripped)
        return DayReading(written.gregorian, written)
    try:
        day = date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3)))
    except ValueError as exc:
        raise UnknownValueError("Gregorian date", text, ["YYYY-MM-DD, a real day"], str(exc)) from None
    last = date(lunisolar.LAST_CHINESE_YEAR, 12, 31)
    in_almanac = FIRST_CHINESE_YEAR < day.year <= lunisolar.LAST_CHINESE_YEAR
    named = any(n.era.dynasty.calendar != "Gregorian" for n in day_namings(day))
    if day > last or not (in_almanac or named):
        first_year = min(e.first_year for e in all_eras())
        first = date.fromordinal(historical.months("default", first_year)[0].first_ordinal)
        raise OutOfRangeError(
            "date", text, f"{first.isoformat()}..{last.isoformat()} (the days an era of the data names)"
        )
    return DayReading(day, None)


@dataclass(frozen=True, slots=True)
class DayDescription:
    """A day in every calendar of the data that named it, with its 干支 (for days the almanac lacks)."""

    day: date
    namings: tuple[DayNaming, ...]
    year_ganzhi: Sexagenary
    month_ganzhi: Sexagenary | None
    day_ganzhi: Sexagenary
    julian: str | None
    """The Julian-calendar date before 1582-10-15, else None."""

    @property
    def weekday(self) -> str:
        return self.day.strftime("%A")


def describe_named_day(day: date) -> DayDescription:
    """A day's namings and 干支: the year and month 干支 are those of its first naming's lunar year and
    month (the month has none if it is a leap month)."""
    from dianli.calendar.ganzhi import month_sexagenary

    namings = day_namings(day)
    lunar = next((n for n in namings if n.era.dynasty.calendar != "Gregorian"), None)
    if lunar is None:
        raise OutOfRangeError("date", day.isoformat(), "a day an era of the data names")
    return DayDescription(
        day=day,
        namings=namings,
        year_ganzhi=year_sexagenary(lunar.chinese_year),
        month_ganzhi=None if lunar.leap else month_sexagenary(lunar.chinese_year, lunar.month),
        day_ganzhi=day_sexagenary(day),
        julian=julian_label(day) if day < GREGORIAN_REFORM else None,
    )


CALENDAR_NAMES = {
    "default": "chinesecalendar-py default calendar (大統曆 under the Ming; the Qing almanac from 1644)",
    "SouthernMing": "chinesecalendar-py 殘明大統曆 (Southern Ming and the 鄭 regime)",
    "Gregorian": "Gregorian calendar (國曆 of the Republic)",
}
"""What each calendar of the eras is, for output."""


def almanac_covers(day: date) -> bool:
    """Whether the project's almanac (:mod:`dianli.calendar.lunisolar`, 1643–2200) names ``day``."""
    try:
        lunisolar.year_of_ordinal(day.toordinal())
    except DianliError:
        return False
    return True
