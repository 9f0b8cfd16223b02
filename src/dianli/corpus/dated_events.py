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

**Carried-over eras.** Gazetteers write the era once and then bare years: 「康熙四十年，…建。四十三年，县治
归诸罗山。四十五年冬，…」. A bare year number (元年 … 六十一年, with the same optional 干支, month and day) is
read as a date of the era of the explicit date before it only when all of these hold:

- it begins a clause or follows punctuation (so 「每三年」, 「按一年三百六十日」, 「凤山二十五年设学」 are not
  read) and is not a count: not 一年 (a first year is 元年), and not followed by a counted thing or a span
  (「三年一修」, 「三年而成」, 「三年之后」, 「三年间」, 「三年以来」 …, :data:`_NOT_A_DATE_AFTER`);
- an explicit date precedes it in the same section of the same witness, with no section boundary between
  (an explicit era date that is not a year of its era, such as 「同治十四年」, also ends the carried era, and
  so does another era named without a year, 「成化間」「康熙初」, or 「國朝」 after an era of another dynasty);
- the number is a year of that era, and the year is not before the explicit date's year nor after the year
  the witness was compiled.

「是年」/「其年」 (the year just stated) and 「明年」/「次年」/「翌年」 (the year after it) are read the same way,
from the last date read in the section. 「本年」 is not: in the witnesses it is the year of a quoted document
or of an almanac rule (「牛色以本年為法」), not the year just stated.

Such an event says so: ``carry`` is ``"year"``, ``"same-year"`` or ``"next-year"``, ``era_from`` is the
explicit date as written (``era_from_offset`` where it starts) and its first note reads 「era carried over
from 康熙四十年」 — the era was supplied by the program, not by the text.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING

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
from dianli.calendar.historical import julian_label
from dianli.calendar.reigns import parse_integer_chinese
from dianli.corpus.clauses import Clause, clauses
from dianli.corpus.normalise import fold_char, is_key_char
from dianli.corpus.witnesses import load_witness, manifest, witness_ids
from dianli.errors import DianliError, OutOfRangeError, UnknownValueError

if TYPE_CHECKING:
    from collections.abc import Iterable

_NUMBER = "元〇零一二三四五六七八九十百廿卅有"
_DIGIT = "一二三四五六七八九"
_GANZHI = f"[{STEMS}][{BRANCHES}]"
_MONTHS = {"正": 1, "冬": 11, "腊": 12}
_DAY = (
    rf"(?P<day>初[{_DIGIT}十]日?|(?:[一二]?十|廿)[{_DIGIT}]?日?|三十日?|卅日?|[{_DIGIT}]日)"
    rf"|(?P<day_ganzhi>{_GANZHI})日?|(?P<first>朔)"
)


CARRY_KINDS = ("year", "same-year", "next-year")
"""How an event's era was carried over: a bare year number, 「是年」/「其年」, 「明年」/「次年」/「翌年」."""

_RELATIVE = {"是": "same-year", "其": "same-year", "明": "next-year", "次": "next-year", "翌": "next-year"}
_NOT_A_DATE_AFTER = "一二三四五六七八九十两兩而之间間有余餘矣内內许許来來后後前乃始方未不再中半"
"""A bare 「N年」 followed by one of these is a count or a span (三年一修, 三年而成, 三年之后, 三年间 …)."""
_NOT_A_DATE_AFTER_PAIRS = (
    "以来",
    "以后",
    "以前",
    "以上",
    "以下",
    "以内",
    "以外",
    "以为",
    "为期",
    "为限",
    "为率",
)


GREGORIAN_REFORM = date(1582, 10, 15)
"""The first Gregorian day; earlier days are given in the proleptic Gregorian calendar and, in a note, Julian."""


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
    """What did not convert or check: a month the year lacks, a 干支 that disagrees, an alias read; for a
    carried-over era first of all 「era carried over from …」."""
    carry: str | None = None
    """None where the text names the era; else how it was carried over (:data:`CARRY_KINDS`)."""
    era_from: str | None = None
    """The explicit date (as written) whose era a carried-over event continues; None if not carried."""
    era_from_offset: int | None = None
    """Where that explicit date starts in the witness's reading text."""

    @property
    def shown_date(self) -> str:
        """The date as a reader should see it: :attr:`era_date`, with what the program supplied in 〔〕
        (〔康熙〕四十三年, 是年〔康熙四十八年〕, 次年〔康熙二十三年〕)."""
        if self.carry is None:
            return self.era_date
        if self.carry == "year":
            return f"〔{self.era}〕{self.era_date.removeprefix(self.era)}"
        return f"{self.chinese_text}〔{self.era_date}〕"

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
    return re.compile(
        rf"(?P<era>{'|'.join(map(re.escape, forms))})(?P<number>[{_NUMBER}]{{1,6}})[年载]{_tail()}"
    )


def _tail() -> str:
    """What may follow a year: its 干支, a month and a day (as :func:`_pattern` reads them)."""
    months = f"十[一二]|正|冬|腊|[{_DIGIT}十]"
    return (
        rf"(?:岁次)?(?P<year_ganzhi>{_GANZHI})?"
        rf"(?:(?P<leap>闰)?(?P<month>{months})月(?:{_DAY})?)?"
    )


@functools.cache
def _bare_pattern() -> re.Pattern[str]:
    """A year without its era on the folded text: a number and 年, or 是/其/明/次/翌 and 年, then the tail.
    Whether it begins a clause or follows punctuation is checked by :func:`_begins_clause`."""
    return re.compile(rf"(?:(?P<number>[{_NUMBER}]{{1,6}})|(?P<relative>[{''.join(_RELATIVE)}]))年{_tail()}")


_THIS_DYNASTY = ("国朝", "本朝", "皇朝", "我朝", "圣朝")
"""Words for the witnesses' own dynasty (the first of ``eras.yaml``'s order)."""


@functools.cache
def _mention_pattern() -> re.Pattern[str]:
    """An era named without a year (「成化間」, 「康熙初」, 「光緒間」) or the witness's own dynasty named
    (「國朝」) on the folded text: after it a bare year may belong to another era than the carried one."""
    forms = sorted({"".join(fold_char(c) for c in f) for f in era_forms()}, key=len, reverse=True)
    return re.compile(
        rf"(?P<era>{'|'.join(map(re.escape, forms))})(?=[间中初末时])|(?P<dynasty>{'|'.join(_THIS_DYNASTY)})"
    )


def _same_era(mention: re.Match[str], era: Era) -> bool:
    """Whether a mention names the carried era itself (「光緒間」 after 光緒元年) or, for 「國朝」, its
    dynasty is the witnesses' own (the first of the data's order)."""
    if mention.group("dynasty"):
        return era.dynasty.rank == 0
    name, _ = era_forms()[_form_of_folded()[mention.group("era")]]
    return name == era.name


def _begins_clause(folded: str, start: int) -> bool:
    return start == 0 or not is_key_char(folded[start - 1])


def _is_count(folded: str, match: re.Match[str]) -> bool:
    """Whether a bare 「N年」 is a count or span, not a date: 一年 (a first year is 元年), or 年 followed
    by a counted thing or a span (三年一修, 三年而成, 三年以来 …). A stated month makes it a date."""
    number = match.group("number")
    if number is None:
        return False
    if number.replace("有", "") in ("一", "〇", "零"):
        return True
    if match.group("month") is not None:
        return False
    after = folded[match.end() : match.end() + 2]
    return after[:1] in _NOT_A_DATE_AFTER or after in _NOT_A_DATE_AFTER_PAIRS


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
    witness: str,
    compiled: int,
    clause_text: str,
    folded: str,
    match: re.Match[str],
    carried: tuple[Era, int, str] | None = None,
) -> tuple[dict[str, object], list[str], Era] | None:
    """The fields of one matched date, its notes and its era, or None when the year number is not a year
    of that era. ``carried`` is (era, year number, carry note) for a year whose era the text does not
    name; otherwise the era is read from the match."""
    notes: list[str] = []
    alternatives: tuple[Era, ...] = ()
    if carried is None:
        form = _form_of_folded()[match.group("era")]
        try:
            number = _number(match.group("number"))
            reading = read_era_year(form, number, written_by=compiled)
        except (OutOfRangeError, UnknownValueError):
            return None
        era = reading.era
        cy = reading.chinese_year
        alternatives = reading.alternatives
        if (why := alias_note(form)) is not None:
            notes.append(f"{form} read as {era.name}: {why}")
        if reading.ambiguous:
            notes.append(
                f"{era.name} read as {_span_label(era)}, the first dynasty for this witness's context"
            )
    else:
        era, number, carry_note = carried
        try:
            cy = era.chinese_year(number)
        except OutOfRangeError:
            return None
        notes.append(carry_note)
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
        "alternatives": tuple(_span_label(e) for e in alternatives),
    }
    return fields, notes, era


def _scan(items: Iterable[Clause], compiled: int | None, explicit_only: bool) -> list[DatedEvent]:
    """The dates of ``items`` (clauses in text order), explicit ones and — unless ``explicit_only`` —
    those whose era is carried over from the explicit date before them in the same section."""
    pattern = _pattern()
    bare = _bare_pattern()
    written_by = compiled if compiled is not None else 9999
    out: list[DatedEvent] = []
    section: str | None = None
    anchor: tuple[DatedEvent, Era] | None = None  # the explicit date whose era is carried
    last: DatedEvent | None = None  # the last date read since it: what 是年 and 次年 count from
    for clause in items:
        if clause.section != section:
            section, anchor, last = clause.section, None, None
        folded = "".join(fold_char(c) for c in clause.text)
        found: list[tuple[int, str, re.Match[str]]] = [
            (m.start(), "explicit", m) for m in pattern.finditer(folded)
        ]
        if not explicit_only:
            found += [
                (m.start(), "bare", m)
                for m in bare.finditer(folded)
                if _begins_clause(folded, m.start()) and not _is_count(folded, m)
            ]
            found += [(m.start(), "mention", m) for m in _mention_pattern().finditer(folded)]
            found.sort(key=lambda f: f[0])
        for _, kind, match in found:
            carry: str | None = None
            if kind == "mention":
                if anchor is not None and not _same_era(match, anchor[1]):
                    anchor = last = None  # 「成化間」, 「國朝」: the narrative left the carried era
                continue
            if kind == "explicit":
                read = _read(clause.witness, written_by, clause.text, folded, match)
                if read is None:
                    anchor = last = None  # an era named but not read: what follows is not its era
                    continue
            else:
                if anchor is None or last is None:
                    continue
                origin, era = anchor
                relative = match.group("relative")
                if relative is None:
                    carry, number = "year", _number(match.group("number"))
                    how = f"the text writes only {clause.text[match.start() : match.end()]}"
                else:
                    carry = _RELATIVE[relative]
                    step = 1 if carry == "next-year" else 0
                    number = last.year_number + step
                    which = "the year after the one just stated" if step else "the year just stated"
                    how = (
                        f"{clause.text[match.start() : match.start() + 2]} read as {which} ({last.era_date})"
                    )
                note = f"era carried over from {origin.chinese_text}: {how}"
                read = _read(clause.witness, written_by, clause.text, folded, match, (era, number, note))
                if read is None:
                    continue
                year = read[0]["chinese_year"]
                assert isinstance(year, int)
                if year < origin.chinese_year or (compiled is not None and year > compiled):
                    continue
            fields, notes, era_read = read
            event = DatedEvent(
                witness=clause.witness,
                section=clause.section,
                quote=clause.text,
                offset=clause.start + match.start(),
                clause_kind=clause.kind,
                notes=tuple(notes),
                carry=carry,
                era_from=anchor[0].chinese_text if carry and anchor else None,
                era_from_offset=anchor[0].offset if carry and anchor else None,
                **fields,  # type: ignore[arg-type]
            )
            out.append(event)
            if carry is None:
                anchor = (event, era_read)
            last = event
    return out


@functools.cache
def dated_events(witness: str, explicit_only: bool = False) -> tuple[DatedEvent, ...]:
    """Every date ``witness`` states, in text order: with its era named and — unless ``explicit_only`` —
    carried over from the explicit date before it (see the module docstring)."""
    if witness not in witness_ids():
        raise UnknownValueError("witness", witness, witness_ids())
    compiled = load_witness(witness).info.compiled_year
    return tuple(_scan(clauses(witness), compiled, explicit_only))


def events_in_clauses(
    items: Iterable[Clause], written_by: int | None = None, explicit_only: bool = False
) -> tuple[DatedEvent, ...]:
    """The dates of any clauses in text order, read as :func:`dated_events` reads a witness's (a change
    of ``section`` between two clauses is a section boundary); ``written_by`` is the year they were
    written: no carried-over year may be after it (default: any)."""
    return tuple(_scan(items, written_by, explicit_only))


def extract_dates(text: str, written_by: int | None = None, carry: bool = False) -> tuple[DatedEvent, ...]:
    """The dates of any string, read as :func:`dated_events` reads a witness's clause (``witness`` and
    ``section`` empty, ``quote`` the whole string); ``written_by`` is the year the text was written
    (default: any era may be meant). Only dates that name their era, unless ``carry``: then the string
    is one section and bare years carry the era of the explicit date before them."""
    return events_in_clauses(
        [Clause("", "", 0, len(text), "text", text)], written_by, explicit_only=not carry
    )


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


@functools.cache
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
    explicit_only: bool = False,
) -> tuple[DatedEvent, ...]:
    """The dated events of the witnesses that govern ``place`` (all witnesses if None) — or of ``witness``
    alone — whose Gregorian year lies in ``from_year``..``until_year``, sorted by date. With a place, an
    event in a section about another unit (a county's temples in a prefectural gazetteer) is left out.
    With ``explicit_only``, only the dates that name their era (no carried-over era)."""
    from dianli.places.places import get_place

    if from_year is not None and until_year is not None and from_year > until_year:
        raise OutOfRangeError("--until year", until_year, f"{from_year} (the --from year) or later")
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
        for e in dated_events(w, explicit_only)
        if (from_year is None or e.gregorian_year >= from_year)
        and (until_year is None or e.gregorian_year <= until_year)
        and (unit is None or about_place(e, unit))
    ]
    return tuple(sorted(events, key=lambda e: e.sort_key))
