"""Dated events: every reign date a witness states (康熙五十一年, 雍正元年六月初四日 …), read and converted.

A date is a known era name (:mod:`dianli.calendar.eras`: the Qing reigns, the Southern Ming, 後金, Ming and
the earlier dynasties of ``calendar/data/eras.yaml``) *immediately* followed by a year number and 年 (載):
元年, 二年 … 六十一年, 廿/卅, 〇, 二十有二年. Not every 年 is a date: 「一年三百六十日」, 「四十三年，」 with no
era and 「維乾隆某年」 are not read. After the year the witness may give the year's 干支 (checked against
the calendar), a month (閏, 正月, 冬月, 臘月) and a day (初一 … 三十 with 日, a 干支 day, or 朔).

Matching is on each character folded as the folding key folds it (:func:`dianli.corpus.normalise.fold_char`),
so simplified and traditional witnesses read alike; the quote of an event is the clause holding the date
(:mod:`dianli.corpus.clauses`: a sentence, heading, call or note of the witness's reading text), which
resolves as a citation (:func:`dianli.corpus.cite.resolve`). Editorial marks are never clauses, so a date
in a transcriber's header is not an event.

An era name several eras bore is read in those begun by the year the witness was compiled, the first
dynasty of the data's order first (Qing, Southern Ming, 後金, Ming …); the event keeps the others.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from datetime import date

from dianli.calendar.eras import (
    DaySpan,
    Era,
    alias_note,
    era_forms,
    month_span,
    read_era_year,
    year_span,
)
from dianli.calendar.ganzhi import BRANCHES, STEMS, day_sexagenary_of_ordinal, year_sexagenary
from dianli.calendar.reigns import parse_integer_chinese
from dianli.corpus.clauses import clauses
from dianli.corpus.normalise import fold_char
from dianli.corpus.witnesses import load_witness, manifest, witness_ids
from dianli.errors import DianliError, OutOfRangeError, UnknownValueError

_NUMBER = "元〇零一二三四五六七八九十百廿卅有"
_DIGIT = "一二三四五六七八九"
_GANZHI = f"[{STEMS}][{BRANCHES}]"
_MONTHS = {"正": 1, "冬": 11, "腊": 12}
_DAY = (
    rf"(?P<day>初[{_DIGIT}十]日?|(?:[一二]?十|廿)[{_DIGIT}]?日?|三十日?|卅日?|[{_DIGIT}]日)"
    rf"|(?P<day_ganzhi>{_GANZHI})日?|(?P<first>朔)"
)


GREGORIAN_REFORM = date(1582, 10, 15)
"""The first Gregorian day; earlier days are given in the proleptic Gregorian calendar and, in a note, Julian."""


def julian_label(day: date) -> str:
    """The Julian-calendar date of ``day`` as YYYY-MM-DD (the inverse of the Julian day count)."""
    c = day.toordinal() + 1721425 + 32082
    d = (4 * c + 3) // 1461
    e = c - 1461 * d // 4
    m = (5 * e + 2) // 153
    return f"{d - 4800 + m // 10:04d}-{m + 3 - 12 * (m // 10):02d}-{e - (153 * m + 2) // 5 + 1:02d}"


@dataclass(frozen=True, slots=True)
class DatedEvent:
    """A date a witness states, with its clause and its conversion.

    ``quote`` is the clause holding the date, exactly as the witness's reading text has it; ``chinese_text``
    the date itself as written. ``gregorian_date`` is set where the text gives a day that the calendar has;
    ``first_day``/``last_day`` bound the stated year, month or day (None where no calendar covers it).
    Dates before 1582-10-15 are proleptic Gregorian, as every ``datetime.date``.
    """

    witness: str
    section: str
    quote: str
    era: str
    dynasty: str
    dynasty_name: str
    year_number: int
    month: int | None
    leap: bool
    day: int | None
    gregorian_year: int
    gregorian_date: date | None
    chinese_text: str
    chinese_year: int
    first_day: date | None
    last_day: date | None
    offset: int
    """Where the date starts in the witness's reading text."""
    clause_kind: str
    alternatives: tuple[str, ...] = ()
    """Other readings of the era name, e.g. ``元 至元 (1335–1340)``; empty if the name is not ambiguous."""
    notes: tuple[str, ...] = field(default=())
    """What did not convert or check: a month the year lacks, a 干支 that disagrees, an alias read."""

    @property
    def era_date(self) -> str:
        """The date as read, in a standard spelling: 康熙五十四年閏五月初一."""
        from dianli.calendar.lunisolar import DAY_NAMES, MONTH_NAMES
        from dianli.calendar.reigns import year_number_chinese

        text = f"{self.era}{year_number_chinese(self.year_number)}年"
        if self.month is not None:
            text += ("閏" if self.leap else "") + MONTH_NAMES[self.month - 1] + "月"
        if self.day is not None:
            text += DAY_NAMES[self.day - 1]
        return text

    @property
    def sort_key(self) -> tuple[int, int, int]:
        first = self.gregorian_date or self.first_day or date(max(1, self.chinese_year), 1, 1)
        return (first.toordinal(), _witness_order().get(self.witness, 0), self.offset)


@functools.cache
def _witness_order() -> dict[str, int]:
    return {w: i for i, w in enumerate(witness_ids())}


@functools.cache
def _pattern() -> re.Pattern[str]:
    forms = sorted({"".join(fold_char(c) for c in f) for f in era_forms()}, key=len, reverse=True)
    months = f"十[一二]|正|冬|腊|[{_DIGIT}十]"
    return re.compile(
        rf"(?P<era>{'|'.join(map(re.escape, forms))})(?P<number>[{_NUMBER}]{{1,6}})[年载]"
        rf"(?:岁次)?(?P<year_ganzhi>{_GANZHI})?"
        rf"(?:(?P<leap>闰)?(?P<month>{months})月(?:{_DAY})?)?"
    )


@functools.cache
def _form_of_folded() -> dict[str, str]:
    return {"".join(fold_char(c) for c in f): f for f in era_forms()}


def _number(text: str) -> int:
    """A year number as written: 元, 五十一, 廿三, 二十有二 (有 joins tens and units)."""
    return parse_integer_chinese(text.replace("有", ""))


def _day_number(text: str) -> int:
    return parse_integer_chinese(text.rstrip("日").removeprefix("初"))


def _span_label(era: Era) -> str:
    return f"{era.dynasty.name} {era.name} ({era.first_year}–{era.last_year})"


def _read(
    witness: str, compiled: int, clause_text: str, folded: str, match: re.Match[str]
) -> tuple[dict[str, object], list[str]] | None:
    """The fields of one matched date, or None when the year number is not a year of that era."""
    form = _form_of_folded()[match.group("era")]
    try:
        number = _number(match.group("number"))
        reading = read_era_year(form, number, written_by=compiled)
    except (OutOfRangeError, UnknownValueError):
        return None
    era = reading.era
    cy = reading.chinese_year
    notes: list[str] = []
    if (why := alias_note(form)) is not None:
        notes.append(f"{form} read as {era.name}: {why}")
    if reading.ambiguous:
        notes.append(f"{era.name} read as {_span_label(era)}, the first dynasty for this witness's context")
    stated_gz = match.group("year_ganzhi")
    if stated_gz and str(year_sexagenary(cy)) != stated_gz:
        notes.append(f"the text's year 干支 {stated_gz} is not {cy}'s {year_sexagenary(cy)}")
    try:
        span: DaySpan | None = year_span(era, cy)
    except DianliError:
        span = None
    month = _MONTHS.get(match.group("month") or "") or (
        parse_integer_chinese(match.group("month")) if match.group("month") else None
    )
    leap = match.group("leap") is not None
    day: int | None = None
    exact: date | None = None
    if month is not None and span is not None:
        in_month = month_span(era, cy, month, leap)
        label = ("閏" if leap else "") + f"{month}月"
        if in_month is None:
            notes.append(f"{era.name}{number}年 ({cy}) has no {label} in its calendar: the year is kept")
        else:
            span = in_month
            if match.group("first"):
                day = 1
            elif match.group("day"):
                day = _day_number(match.group("day"))
            elif match.group("day_ganzhi"):
                wanted = match.group("day_ganzhi")
                days = (span.last - span.first).days + 1
                hit = next(
                    (
                        i + 1
                        for i in range(days)
                        if str(day_sexagenary_of_ordinal(span.first.toordinal() + i)) == wanted
                    ),
                    None,
                )
                if hit is None:
                    notes.append(
                        f"no {wanted} day in that month ({span.first}…{span.last}): the month is kept"
                    )
                day = hit
            if day is not None:
                length = (span.last - span.first).days + 1
                if day > length:
                    notes.append(f"that month has {length} days, not {day}: the month is kept")
                    day = None
                else:
                    exact = date.fromordinal(span.first.toordinal() + day - 1)
    elif month is not None:
        day = None
    if exact is not None and exact < GREGORIAN_REFORM:
        notes.append(f"{exact.isoformat()} is proleptic Gregorian; Julian calendar {julian_label(exact)}")
    if exact is not None:
        gregorian_year = exact.year
    elif span is not None and month is not None:
        gregorian_year = span.first.year
    else:
        gregorian_year = cy
    fields: dict[str, object] = {
        "era": era.name,
        "dynasty": era.dynasty.id,
        "dynasty_name": era.dynasty.name,
        "year_number": number,
        "month": month,
        "leap": leap and month is not None,
        "day": day if exact is not None else None,
        "gregorian_year": gregorian_year,
        "gregorian_date": exact,
        "chinese_text": clause_text[match.start() : match.end()],
        "chinese_year": cy,
        "first_day": exact or (span.first if span else None),
        "last_day": exact or (span.last if span else None),
        "alternatives": tuple(_span_label(e) for e in reading.alternatives),
    }
    return fields, notes


@functools.cache
def dated_events(witness: str) -> tuple[DatedEvent, ...]:
    """Every date ``witness`` states, in text order."""
    if witness not in witness_ids():
        raise UnknownValueError("witness", witness, witness_ids())
    compiled = load_witness(witness).info.compiled_year
    pattern = _pattern()
    out: list[DatedEvent] = []
    for clause in clauses(witness):
        folded = "".join(fold_char(c) for c in clause.text)
        for match in pattern.finditer(folded):
            read = _read(witness, compiled, clause.text, folded, match)
            if read is None:
                continue
            fields, notes = read
            out.append(
                DatedEvent(
                    witness=witness,
                    section=clause.section,
                    quote=clause.text,
                    offset=clause.start + match.start(),
                    clause_kind=clause.kind,
                    notes=tuple(notes),
                    **fields,  # type: ignore[arg-type]
                )
            )
    return tuple(out)


def extract_dates(text: str, written_by: int | None = None) -> tuple[DatedEvent, ...]:
    """The dates of any string, read as :func:`dated_events` reads a witness's clause (``witness`` and
    ``section`` empty, ``quote`` the whole string); ``written_by`` is the year the text was written
    (default: any era may be meant)."""
    found = []
    folded = "".join(fold_char(c) for c in text)
    for match in _pattern().finditer(folded):
        read = _read("", written_by if written_by is not None else 9999, text, folded, match)
        if read is not None:
            fields, notes = read
            found.append(
                DatedEvent(
                    witness="",
                    section="",
                    quote=text,
                    offset=match.start(),
                    clause_kind="text",
                    notes=tuple(notes),
                    **fields,  # type: ignore[arg-type]
                )
            )
    return tuple(found)


@dataclass(frozen=True, slots=True)
class Governing:
    """A witness that governs a place (or a unit containing it) in some years, with those years."""

    witness: str
    first_year: int
    last_year: int
    through: tuple[str, ...]
    """The units it governs the place through (the place itself or a parent), as ids."""


@functools.cache
def governing_witnesses(place: str) -> tuple[Governing, ...]:
    """The witnesses that govern ``place`` (id or name) or a unit containing it in some year of its
    existence, in the order they first do (:func:`dianli.places.governs.governance`, year by year)."""
    from dianli.places.governs import governance
    from dianli.places.places import get_place

    unit = get_place(place)
    years: dict[str, list[int]] = {}
    through: dict[str, dict[str, None]] = {}
    for year in range(unit.first_year, unit.last_year + 1):
        try:
            rule = governance(unit.id, year)
        except DianliError:
            continue
        years.setdefault(rule.witness, []).append(year)
        through.setdefault(rule.witness, {})[rule.unit] = None
    return tuple(Governing(w, min(ys), max(ys), tuple(through[w])) for w, ys in years.items())


def _lineage(place_id: str) -> frozenset[str]:
    """A unit and every unit that was its parent in some period, up to the province (ids)."""
    from dianli.places.places import get_place

    seen: set[str] = set()
    todo = [place_id]
    while todo:
        unit = todo.pop()
        if unit in seen:
            continue
        seen.add(unit)
        todo.extend(p.parent for p in get_place(unit).periods if p.parent is not None)
    return frozenset(seen)


@functools.cache
def section_place(section_id: str) -> str | None:
    """The unit a section is about, when its own title or an ancestor's is a place name (the 祠祀 of
    臺灣府志 has one section per county: 鳳山縣, 諸羅縣 …); None for a section of no one place."""
    from dianli.corpus.sections import section_defs
    from dianli.places.places import get_place

    titles = {i: d.title for i, d in section_defs().items()}
    parts = section_id.split(".")
    for depth in range(len(parts), 0, -1):
        title = titles.get(".".join(parts[:depth]))
        if title is None:
            continue
        try:
            return get_place(title).id
        except DianliError:
            continue
    return None


def about_place(event: DatedEvent, place_id: str) -> bool:
    """Whether an event concerns the unit: its section is about no one place, or about the unit, one of
    its parents or one of the units it contains."""
    other = section_place(event.section)
    return other is None or other in _lineage(place_id) or place_id in _lineage(other)


def timeline(
    place: str | None = None,
    witness: str | None = None,
    from_year: int | None = None,
    until_year: int | None = None,
) -> tuple[DatedEvent, ...]:
    """The dated events of the witnesses that govern ``place`` (all witnesses if None) — or of ``witness``
    alone — whose Gregorian year lies in ``from_year``..``until_year``, sorted by date. With a place, an
    event in a section about another unit (a county's temples in a prefectural gazetteer) is left out."""
    from dianli.places.places import get_place

    if witness is not None and witness not in witness_ids():
        raise UnknownValueError("witness", witness, witness_ids())
    if place is not None:
        chosen = [g.witness for g in governing_witnesses(place)]
        if witness is not None:
            if witness not in chosen:
                raise UnknownValueError(f"witness governing {place}", witness, chosen or ["(none)"])
            chosen = [witness]
    else:
        chosen = [witness] if witness is not None else [i.id for i in manifest()]
    unit = None if place is None else get_place(place).id
    events = [
        e
        for w in chosen
        for e in dated_events(w)
        if (from_year is None or e.gregorian_year >= from_year)
        and (until_year is None or e.gregorian_year <= until_year)
        and (unit is None or about_place(e, unit))
    ]
    return tuple(sorted(events, key=lambda e: e.sort_key))
