"""``dianli calendar``: every rite of a year (or of a range of years) at a place, with its day and where the day
comes from; the rites of one occasion together, in their order."""

from __future__ import annotations

import json
from datetime import date
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NamedTuple

import typer

from dianli import cache
from dianli.calendar.reigns import LAST_QING_CHINESE_YEAR
from dianli.cli.common import (
    FORCE_HELP,
    check_output_path,
    end_without_collecting,
    run_guarded,
    say,
    show_rows,
    write_file,
)
from dianli.errors import DianliError, OutOfRangeError
from dianli.rites.years import CALENDAR_LAST_YEAR
from dianli.rites.years import FIRST_YEAR as RITE_FIRST_YEAR

if TYPE_CHECKING:
    from dianli.places.places import Place
    from dianli.rites.export import JsonValue
    from dianli.rites.occurrence import Occurrence


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


FIRST_YEAR, LAST_YEAR = RITE_FIRST_YEAR, CALENDAR_LAST_YEAR
QING_LAST_YEAR = LAST_QING_CHINESE_YEAR
COLUMNS = ("date", "weekday", "Chinese date", "rite", "observance", "time", "source", "witness")
"""The columns of a year's table, as the reader reads them."""
_DAY_LIBRARIES = ("pydantic", "PyYAML", "chinesecalendar-py", "lunar-python", "skyfield", "jplephem", "de405")
"""The libraries whose code or data a year's days depend on, beside :data:`dianli.cache.LIBRARIES`."""


class Year(NamedTuple):
    """One year of a place's calendar: its occurrences, and the reader's name of each rite and witness id."""

    occurrences: tuple[Occurrence, ...]
    names: dict[str, str]


class YearView(NamedTuple):
    """One year of a place's calendar as a reader is shown it — plain text and JSON values only, so that
    showing a kept one needs neither the places, the rites nor pydantic: the table's title, its rows
    (:data:`COLUMNS`), the footnotes its rows point to, and the JSON records of ``--format json``."""

    title: str
    rows: tuple[tuple[str, ...], ...]
    footnotes: tuple[str, ...]
    records: tuple[dict[str, JsonValue], ...]


def _where(place: Place, place_name: str | None, year: int) -> Place | str:
    """What the rites are resolved for: the unit as it stood that year, or after the Qing the name asked."""
    return place if year <= QING_LAST_YEAR or place_name is None else place_name


def _place(place_name: str | None, first_year: int) -> Place:
    """The unit a name means in the first year asked (a name means the unit that bore it then)."""
    from dianli.places.places import default_place, get_place  # the places load only here

    return get_place(place_name, first_year) if place_name is not None else default_place()


def _year(
    where: Place | str,
    place_id: str,
    year: int,
    rites: list[str] | None,
    overrides: dict[str, date],
    related: bool,
    witness: str | None,
    practice: str | None,
) -> Year:
    """The observances of one year, the rites of one occasion (崇聖祠, then 文廟 …) together in the order
    their data gives, with the names a reader reads for their rite and witness ids."""
    from dianli.corpus.labels import witness_label
    from dianli.program.labels import rite_label
    from dianli.rites.observances import observances_for
    from dianli.rites.occasion import occasion_calendar

    found = observances_for(where, year, rites, overrides, related, witness, practice)
    occurrences = occasion_calendar(found, place_id, year, witness)
    names = {o.rite: rite_label(o.rite) for o in occurrences}
    names |= {o.cite.witness: witness_label(o.cite.witness) for o in occurrences}
    return Year(occurrences, names)


def _source_label(occ: Occurrence) -> str:
    return occ.source.value if occ.source else "open"


def _view(place: Place, year: int, found: Year) -> YearView:
    """A year as the reader is shown it (see :class:`YearView`)."""
    from dianli.places.regions import place_chinese_date_label, place_year_name
    from dianli.rites.export import occurrence_record

    occurrences, names = found
    rows: list[tuple[str, ...]] = []
    footnotes: list[str] = []
    for occ in occurrences:
        mark = ""
        details = [*occ.notes] + ([f"assumption: {occ.assumption}"] if occ.assumption else [])
        if occ.open_reason:
            details.append(occ.open_reason)
        if details and occ.part is None:
            footnotes.append("; ".join(details))
            mark = f" [{len(footnotes)}]"
        rows.append(
            (
                occ.day.isoformat() if occ.day else "—",
                occ.weekday or "",
                place_chinese_date_label(occ.chinese_date, place) if occ.chinese_date else "",
                names.get(occ.rite, occ.rite),
                occ.name + mark,
                occ.time_label or "",
                _source_label(occ),
                names.get(occ.cite.witness, occ.cite.witness),
            )
        )
    title = f"{place.nearest(year).name} — {place_year_name(year, place).label}"
    records = tuple(dict(occurrence_record(o, place), year=year) for o in occurrences)
    return YearView(title, tuple(rows), tuple(footnotes), records)


class _Asked(NamedTuple):
    """What ``dianli calendar`` was asked, as typed (the place as a name, or None for the default)."""

    place_name: str | None
    first_year: int
    rites: list[str] | None
    overrides: dict[str, date]
    related: bool
    witness: str | None
    practice: str | None


def _year_view(asked: _Asked, year: int, made: dict[int, Year]) -> YearView:
    """One year as shown, kept in the on-disk cache (:mod:`dianli.cache`) under a key naming the arguments
    as typed, every file of the package and of the extra witness folders (code, rites, witnesses, places)
    and the versions of the libraries that compute days: the places and the rites are loaded only when
    the year is not kept (what they give is left in ``made``, for an iCalendar file of the same years). A
    name the data does not know raises before anything is kept."""

    def make() -> YearView:
        place = _place(asked.place_name, asked.first_year)
        where = _where(place, asked.place_name, year)
        found = made[year] = _year(
            where, place.id, year, asked.rites, asked.overrides, asked.related, asked.witness, asked.practice
        )
        return _view(place, year, found)

    entry = cache.installed_key(
        "cli.calendar.view",
        repr((asked.place_name, asked.first_year, year, asked.rites, sorted(asked.overrides.items()))),
        repr((asked.related, asked.witness, asked.practice)),
        cache.versions(*_DAY_LIBRARIES),
    )
    return cache.pickled(cache.DERIVED, entry, make)


def _print_year(view: YearView) -> None:
    show_rows(view.title, COLUMNS, view.rows)
    say(*(f"[{number}] {text}" for number, text in enumerate(view.footnotes, 1)), indent=0)


@run_guarded
def calendar_command(
    year: int | None = typer.Argument(None, help="Year (the Chinese year whose 正月初一 falls in it)."),
    place_name: str | None = typer.Option(
        None,
        "--place",
        "-p",
        help="Place id or name (福州府, 臺灣府, 汀州府 …); default: the provincial capital.",
    ),
    rites: Annotated[
        list[str] | None,
        typer.Option("--rite", "-r", help="Only this rite, by id or name (xianshi, 祀先師; repeatable)."),
    ] = None,
    year_from: int | None = typer.Option(None, "--from", help="First year of a range."),
    year_to: int | None = typer.Option(None, "--to", help="Last year of a range."),
    ics: Annotated[
        Path | None, typer.Option("--ics", help="Also write the dated entries as iCalendar.")
    ] = None,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="text or json.")
    ] = OutputFormat.text,
    days: Annotated[
        list[str] | None,
        typer.Option(
            "--day",
            help="KEY=DATE: the day an authority chose where the sources give none (e.g. gengji=1752-04-02, "
            "the 耕耤 day the Board of Rites announced); one year only; repeatable.",
        ),
    ] = None,
    witness: str | None = typer.Option(
        None, "--witness", "-w", help="Read the rules in another witness than the one governing the place."
    ),
    related: bool = typer.Option(
        True, "--related/--no-related", help="Include 齋戒, 省牲 and other related days."
    ),
    practice: str | None = typer.Option(
        None,
        "--practice",
        help="A practice profile whose days replace the texts' rules (e.g. seonggyungwan).",
    ),
    force: Annotated[bool, typer.Option("--force", help=FORCE_HELP)] = False,
) -> None:
    """Every rite of a year at a place: Gregorian and Chinese dates, weekday, and where each date comes from.
    After 1911 the days are computed by the texts' rules, or given by a practice profile (--practice)."""
    end_without_collecting()
    if year is not None and (year_from is not None or year_to is not None):
        raise OutOfRangeError(
            "year arguments", f"{year} with --from/--to", "either YEAR or --from Y1 --to Y2"
        )
    if year is not None:
        years = [year]
    elif year_from is not None and year_to is not None:
        if year_from > year_to:
            raise OutOfRangeError("--from/--to", f"{year_from}..{year_to}", "--from not after --to")
        years = list(range(year_from, year_to + 1))
    else:
        if year_from is not None:
            given = f"--from {year_from} without --to"
        elif year_to is not None:
            given = f"--to {year_to} without --from"
        else:
            given = "no year given"
        raise DianliError(
            f"calendar needs a year ({given}); accepted: YEAR, or both --from Y1 and --to Y2, "
            f"each in {FIRST_YEAR}..{LAST_YEAR}"
        )
    for y in (years[0], years[-1]):
        if not FIRST_YEAR <= y <= LAST_YEAR:
            raise OutOfRangeError("year", y, f"{FIRST_YEAR}..{LAST_YEAR}")
    if ics is not None:
        check_output_path(ics, force, "--ics")
    overrides: dict[str, date] = {}
    if days:
        from dianli.calendar.lunisolar import parse_day
        from dianli.rites.observances import parse_authority_days  # the rites load only when days are given

        overrides = parse_authority_days(days, len(years), parse_day)
    asked = _Asked(place_name, years[0], rites, overrides, related, witness, practice)
    views: list[YearView] = []
    made: dict[int, Year] = {}  # the years computed for the views (not read from the cache)
    if len(years) > 1:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        from dianli.cli.common import console

        place = _place(place_name, years[0])  # an unknown name is said before the bar starts
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, console=console, transient=True) as progress:
            task = progress.add_task(f"{place.name}", total=len(years))
            for y in years:
                views.append(_year_view(asked, y, made))
                progress.advance(task)
    else:
        views.append(_year_view(asked, years[0], made))
    if ics is not None:
        from dianli.rites.export import to_ical  # icalendar loads only when a file is asked for

        place = _place(place_name, years[0])
        occurrences = (
            o
            for y in years
            for o in (
                made.get(y)
                or _year(
                    _where(place, place_name, y), place.id, y, rites, overrides, related, witness, practice
                )
            ).occurrences
        )
        write_file(ics, to_ical(occurrences, place), force)
    if output_format is OutputFormat.json:
        from dianli.cli.common import console

        console.print_json(json.dumps([r for view in views for r in view.records], ensure_ascii=False))
        return
    for view in views:
        _print_year(view)
    if ics is not None:
        say(f"iCalendar written to {ics}", indent=0)


def register(app: typer.Typer) -> None:
    """Add ``dianli calendar`` to the root command."""
    app.command("calendar")(calendar_command)
