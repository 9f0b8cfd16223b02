"""A day's answer for ``dianli date`` (:mod:`dianli.cli.dates` is the command): computed, kept, shown — and
the console script's way of answering a plain ``dianli date`` without typer.

A day's answer is kept as the reader reads it (:class:`DayView`: its lines and its JSON record, plain data)
in the on-disk cache, under a key naming the arguments as typed and everything the answer is made from, so
asking the same day again loads no calendar module at all; a day not asked before is computed as ever.

This module imports neither typer nor a calendar module. Typer (with its own click) is some 35 ms of a
start here, a third of a day not asked before; so the console script (:mod:`dianli.cli.main`) gives its
arguments to :func:`answer` first, which answers ``date TEXT`` with at most a ``--format`` (text or json)
and a ``--place`` — each given once, as ``--name value``, ``-x value`` or ``--name=value`` — and leaves
anything else to typer (help, the root's options, a value typer refuses or reads otherwise, a completion
request; every date on Windows, where typer expands wildcards in the arguments): what it answers, it answers as typer's path does (the same output, errors and exit status;
tested case by case against it)."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from datetime import date
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from dianli import cache
from dianli.drafts import DRAFTS_VAR

if TYPE_CHECKING:
    from dianli.calendar.day import DayInfo
    from dianli.calendar.written_dates import DayDescription, DayNaming, WrittenDate

_DAY_LIBRARIES = ("chinesecalendar-py", "sxtwl", "pydantic", "PyYAML")
"""The libraries whose code or data a day's answer depends on, beside :data:`dianli.cache.LIBRARIES`."""


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


class DayView(NamedTuple):
    """A day's answer as the reader is shown it — its lines (``--format text``) and its record (``--format
    json``), plain text and JSON values only, so that showing a kept one loads no calendar module."""

    lines: tuple[str, ...]
    record: dict[str, object]


def _calendar_name(calendar: str) -> str:
    from dianli.calendar.written_dates import CALENDAR_NAMES

    return CALENDAR_NAMES.get(calendar, calendar)


def _day_record(info: DayInfo, region: str | None) -> dict[str, object]:
    from dianli.calendar.reigns import LAST_QING_CHINESE_YEAR
    from dianli.calendar.timekeeping import beijing_apparent_time
    from dianli.calendar.year_names import chinese_date_label, year_name

    term = info.solar_term
    name = year_name(info.chinese_date.year, region)
    return {
        "date": info.day.isoformat(),
        "weekday": info.weekday,
        "chinese_date": chinese_date_label(info.chinese_date, region),
        "chinese_year": info.chinese_date.year,
        "month": info.chinese_date.month,
        "leap": info.chinese_date.leap,
        "day": info.chinese_date.day,
        "reign_year": info.reign_year if info.chinese_date.year <= LAST_QING_CHINESE_YEAR else None,
        "year_name": name.label,
        "year_name_note": name.note or None,
        "year_ganzhi": info.year_ganzhi.name,
        "month_ganzhi": info.month_ganzhi.name if info.month_ganzhi else None,
        "day_ganzhi": info.day_ganzhi.name,
        "nayin": info.day_ganzhi.nayin.name,
        "solar_term": term.name if term else None,
        "solar_term_beijing_apparent_time": beijing_apparent_time(term.jd_utc).isoformat() if term else None,
        "reigning_emperor": info.reigning.name if info.reigning else None,
        "source": info.month_source.value,
        "calendar": info.calendar_name,
    }


def _naming_record(naming: DayNaming) -> dict[str, object]:
    return {
        "label": naming.label,
        "era": naming.era.name,
        "dynasty": naming.era.dynasty.name,
        "year_number": naming.number,
        "chinese_year": naming.chinese_year,
        "month": naming.month,
        "leap": naming.leap,
        "day": naming.day,
        "calendar": _calendar_name(naming.era.dynasty.calendar),
    }


def _written_record(written: WrittenDate) -> dict[str, object]:
    return {
        "text": written.text,
        "read_as": written.label,
        "era": written.era.name,
        "dynasty": written.era.dynasty.name,
        "chinese_year": written.chinese_year,
        "calendar": _calendar_name(written.calendar),
        "notes": list(written.notes),
    }


def _historical_record(described: DayDescription) -> dict[str, object]:
    first = described.namings[0]
    return {
        "date": described.day.isoformat(),
        "weekday": described.weekday,
        "julian_date": described.julian,
        "chinese_date": first.label,
        "chinese_year": first.chinese_year,
        "month": first.month,
        "leap": first.leap,
        "day": first.day,
        "year_ganzhi": described.year_ganzhi.name,
        "month_ganzhi": described.month_ganzhi.name if described.month_ganzhi else None,
        "day_ganzhi": described.day_ganzhi.name,
        "nayin": described.day_ganzhi.nayin.name,
        "source": _calendar_name(first.era.dynasty.calendar),
    }


def _naming_lines(namings: tuple[DayNaming, ...], shown: str) -> list[str]:
    lines = []
    for naming in namings:
        if naming.label == shown:
            continue
        calendar = {"SouthernMing": ", Southern Ming calendar", "Gregorian": ", Gregorian calendar"}.get(
            naming.era.dynasty.calendar, ""
        )
        lines.append(f"  also {naming.label} ({naming.era.dynasty.name}{calendar})")
    return lines


def _written_lines(written: WrittenDate | None) -> list[str]:
    if written is None:
        return []
    era = written.era
    read = f"  read as {written.label} ({era.dynasty.name}, {era.name} {era.first_year}–{era.last_year})"
    return [read, *(f"  note: {note}" for note in written.notes)]


def _historical_lines(described: DayDescription, written: WrittenDate | None) -> list[str]:
    first = described.namings[0]
    julian = f"; Julian {described.julian}" if described.julian else ""
    month_gz = f"{described.month_ganzhi}月 " if described.month_ganzhi else ""
    calendars = dict.fromkeys(n.era.dynasty.calendar for n in described.namings)
    return [
        f"{described.day.isoformat()} ({described.weekday}{julian}) = {first.label}",
        f"  {described.year_ganzhi}年 {month_gz}{described.day_ganzhi}日 (納音 {described.day_ganzhi.nayin.name})",
        *_naming_lines(described.namings, first.label),
        *_written_lines(written),
        *(f"  source: {_calendar_name(calendar)}" for calendar in calendars),
    ]


def day_view(text: str, place_name: str | None) -> DayView:
    """The answer to ``dianli date TEXT [--place P]``, computed: its lines and its JSON record."""
    from dataclasses import replace

    from dianli.calendar.written_dates import almanac_covers, day_namings, describe_named_day, read_day

    reading = read_day(text)
    day = reading.day
    written = reading.written
    # the era the user wrote first, then the others in the data's order of dynasties
    namings = tuple(sorted(day_namings(day), key=lambda n: written is None or n.label != written.label))
    if not almanac_covers(day):
        if place_name is not None:  # an unknown place is an error even where no term time is given
            from dianli.places.places import get_place

            get_place(place_name, day.year)
        described = replace(describe_named_day(day), namings=namings)
        record = _historical_record(described)
        record["namings"] = [_naming_record(n) for n in namings]
        if written is not None:
            record["written"] = _written_record(written)
        return DayView(tuple(_historical_lines(described, written)), record)
    return _almanac_view(day, written, namings, place_name)


def _almanac_view(
    day: date, written: WrittenDate | None, namings: tuple[DayNaming, ...], place_name: str | None
) -> DayView:
    """A day the Qing almanac (or the modern calendar after it) dates: both calendars, the 干支, its solar
    term and, with a place, the term's local time."""
    from dianli.calendar.day import describe_day
    from dianli.calendar.reigns import LAST_QING_CHINESE_YEAR
    from dianli.calendar.timekeeping import (
        beijing_apparent_time,
        double_hour,
        provincial_offset_minutes,
        provincial_time,
    )
    from dianli.calendar.year_names import chinese_date_label, year_name

    info = describe_day(day)
    year = info.day.year
    place, region = None, None
    if place_name is not None:
        from dianli.places.places import get_place  # the places load only when one is named
        from dianli.places.regions import place_region

        place = get_place(place_name, year).nearest(year)
        region = place_region(place)
    shown = chinese_date_label(info.chinese_date, region)
    name = year_name(info.chinese_date.year, region)
    # the Republic's Gregorian naming only where that calendar names the year (not the mainland after 1949)
    namings = tuple(
        n
        for n in namings
        if n.era.dynasty.calendar != "Gregorian" or (name.era_year or "").startswith(n.era.name)
    )
    record = _day_record(info, region)
    record["namings"] = [_naming_record(n) for n in namings]
    if written is not None:
        record["written"] = _written_record(written)
    term = info.solar_term
    if place is not None and term is not None:
        local = provincial_time(beijing_apparent_time(term.jd_utc), place.longitude_deg)
        record["solar_term_local_time"] = {
            "place": place.id,
            "time": local.replace(microsecond=0).isoformat(),
        }
    month_gz = f"{info.month_ganzhi}月 " if info.month_ganzhi else ""
    lines = [
        f"{info.day.isoformat()} ({info.weekday}) = {shown}",
        f"  {info.year_ganzhi}年 {month_gz}{info.day_ganzhi}日 (納音 {info.day_ganzhi.nayin.name})",
    ]
    if info.chinese_date.year > LAST_QING_CHINESE_YEAR or name.note:
        where = f" at {place.name}" if place is not None else ""
        lines.append(f"  year{where}: {name.label}" + (f" — {name.note}" if name.note else ""))
    lines += _naming_lines(namings, info.chinese_date.label)
    lines += _written_lines(written)
    if term:
        instant = beijing_apparent_time(term.jd_utc)
        lines.append(
            f"  solar term {term.name}; computed instant {instant:%H:%M} Beijing apparent time "
            f"({double_hour(instant)})"
        )
        if place is not None:
            local = provincial_time(instant, place.longitude_deg)
            lines.append(
                f"  at {place.name} ({place.longitude_deg:.2f}°E, {provincial_offset_minutes(place.longitude_deg):+.1f} min "
                f"from Beijing): {local:%H:%M} ({double_hour(local)})"
            )
    if info.reigning:
        lines.append(f"  reigning: the {info.reigning.name} emperor ({info.reigning.emperor})")
    lines.append(
        f"  source: {info.month_source.value} ({info.calendar_name}; {info.month_source.description})"
    )
    return DayView(tuple(lines), record)


def kept_day_view(text: str, place_name: str | None) -> DayView:
    """:func:`day_view`, kept in the on-disk cache (:mod:`dianli.cache`) under a key naming the arguments as
    typed, every file of the package and of the extra witness folders (code and data: eras, almanac,
    places), whether drafts govern, and the libraries that compute days. A day or place the data refuses
    raises before anything is kept."""
    entry = cache.installed_key(
        "cli.date.view",
        repr((text, place_name, os.environ.get(DRAFTS_VAR, ""))),
        cache.versions(*_DAY_LIBRARIES),
    )
    return cache.pickled(cache.DERIVED, entry, lambda: day_view(text, place_name))


FORMAT_OPTION = ("--format", "-f")
"""The names of ``dianli date``'s ``--format`` (declared here for the command and for :func:`answer`)."""
PLACE_OPTION = ("--place", "-p")
"""The names of ``dianli date``'s ``--place``."""


def show_day(view: DayView, output_format: OutputFormat) -> None:
    """Print a day's answer: its lines (wrapped to the width), or its record as JSON."""
    from dianli.cli.common import say

    if output_format is OutputFormat.json:
        import json

        from dianli.cli.common import console

        console.print_json(json.dumps(view.record, ensure_ascii=False))
        return
    say(*view.lines)


def plain_arguments(args: Sequence[str]) -> tuple[str, OutputFormat, str | None] | None:
    """The day, format and place of ``args`` (the console script's, the program's name left out) when they
    are a plain ``date`` (see the module's doc), else None: typer reads them."""
    if not args or args[0] != "date":
        return None
    text: str | None = None
    given: dict[str, str] = {}
    rest = list(args[1:])
    index = 0
    while index < len(rest):
        token = rest[index]
        if not token.startswith("-"):
            if text is not None:
                return None  # a second argument: typer's error
            text = token
            index += 1
            continue
        name, equals, value = token.partition("=")
        if equals and name in (FORMAT_OPTION[0], PLACE_OPTION[0]):
            index += 1
        elif token in (*FORMAT_OPTION, *PLACE_OPTION) and index + 1 < len(rest):
            name, value = token, rest[index + 1]
            if value.startswith("-"):
                return None  # typer takes it as the value; left to it
            index += 2
        else:
            return None  # help, another option, a value joined to a short name, ``--``, ``-``
        option = "format" if name in FORMAT_OPTION else "place"
        if option in given:
            return None  # given twice: typer keeps the last
        given[option] = value
    chosen = given.get("format", OutputFormat.text.value)
    if text is None or chosen not in {f.value for f in OutputFormat}:
        return None
    return text, OutputFormat(chosen), given.get("place")


def _completing() -> bool:
    """Whether the shell asks for completions (click's ``_<PROG>_COMPLETE`` variable): typer answers."""
    return any(k.startswith("_") and k.endswith("_COMPLETE") and v for k, v in os.environ.items())


def answer(args: Sequence[str]) -> int | None:
    """Answer a plain ``dianli date`` (see the module's doc) as typer's path would, and give the exit status;
    None, having printed nothing, when ``args`` are not plain — or when the answer fails otherwise than
    as the data refuses a day: typer's path then asks again and reports the failure its own way."""
    plain = plain_arguments(args)
    if plain is None or _completing() or os.name == "nt":
        return None
    from dianli.cli.common import collect_from_here, report_error
    from dianli.errors import DianliError

    collect_from_here()  # the command is loaded (see dianli.cli.main)
    text, output_format, place_name = plain
    try:
        try:
            view = kept_day_view(text, place_name)
        except DianliError as exc:
            report_error(exc)
            return 2
        except Exception:  # not the data's refusal: typer's path reports it
            return None
        show_day(view, output_format)
    except KeyboardInterrupt:
        return 130  # as typer's path: its Exit(130)
    except OSError as exc:
        import errno

        if exc.errno != errno.EPIPE:
            raise
        from typer._click.utils import PacifyFlushWrapper  # as typer's path: a closed pipe ends quietly

        sys.stdout = PacifyFlushWrapper(sys.stdout)
        sys.stderr = PacifyFlushWrapper(sys.stderr)
        return 1
    return 0
