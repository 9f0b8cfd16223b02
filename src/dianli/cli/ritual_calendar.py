"""``dianli calendar``: every rite of a year (or of a range of years) at a place, with its day and where the day
comes from; the rites of one occasion together, in their order."""

from __future__ import annotations

import json
from datetime import date
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NamedTuple

import typer
from rich.table import Table

from dianli import cache
from dianli.api import (
    CALENDAR_LAST_YEAR,
    LAST_QING_CHINESE_YEAR,
    RITE_FIRST_YEAR,
    DianliError,
    OutOfRangeError,
    Place,
    default_place,
    get_place,
    parse_day,
    place_chinese_date_label,
    place_year_name,
)
from dianli.cli.common import check_output_path, console, run_guarded, show_table, write_file

if TYPE_CHECKING:
    from dianli.api import Occurrence


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


FIRST_YEAR, LAST_YEAR = RITE_FIRST_YEAR, CALENDAR_LAST_YEAR
QING_LAST_YEAR = LAST_QING_CHINESE_YEAR


class Year(NamedTuple):
    """One year of a place's calendar: its occurrences, and the reader's name of each rite and witness id."""

    occurrences: tuple[Occurrence, ...]
    names: dict[str, str]


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
    their data gives, with the names a reader reads for their rite and witness ids. Kept in the on-disk cache (:mod:`dianli.cache`) under a key naming every argument,
    every file of the package and of the extra witness folders (code, rites, witnesses, places) and the
    versions of the libraries that compute days: the rites are only loaded when the year is not there."""

    def make() -> Year:
        from dianli.api import observances_for, occasion_calendar, rite_label, witness_label

        found = observances_for(where, year, rites, overrides, related, witness, practice)
        occurrences = occasion_calendar(found, place_id, year, witness)
        names = {o.rite: rite_label(o.rite) for o in occurrences}
        names |= {o.cite.witness: witness_label(o.cite.witness) for o in occurrences}
        return Year(occurrences, names)

    entry = cache.installed_key(
        "cli.calendar.year",
        repr((where if isinstance(where, str) else ("place", where.id), place_id, year)),
        repr((rites, sorted(overrides.items()), related, witness, practice)),
        cache.versions(
            "pydantic",
            "PyYAML",
            "chinesecalendar-py",
            "lunar-python",
            "skyfield",
            "jplephem",
            "de405",
            "numpy",
        ),
    )
    return cache.pickled(cache.DERIVED, entry, make)


def _source_label(occ: Occurrence) -> str:
    return occ.source.value if occ.source else "open"


def _print_year(place: Place, year: int, found: Year) -> None:
    occurrences, names = found
    table = Table(title=f"{place.nearest(year).name} — {place_year_name(year, place).label}")
    for column in ("date", "weekday", "Chinese date", "rite", "observance", "time", "source", "witness"):
        table.add_column(column)
    footnotes: list[str] = []
    for occ in occurrences:
        mark = ""
        details = [*occ.notes] + ([f"assumption: {occ.assumption}"] if occ.assumption else [])
        if occ.open_reason:
            details.append(occ.open_reason)
        if details and occ.part is None:
            footnotes.append("; ".join(details))
            mark = f" [{len(footnotes)}]"
        table.add_row(
            occ.day.isoformat() if occ.day else "—",
            occ.weekday or "",
            place_chinese_date_label(occ.chinese_date, place) if occ.chinese_date else "",
            names.get(occ.rite, occ.rite),
            occ.name + mark,
            occ.time_label or "",
            _source_label(occ),
            names.get(occ.cite.witness, occ.cite.witness),
        )
    show_table(table)
    for number, text in enumerate(footnotes, 1):
        console.print(f"[{number}] {text}", markup=False)


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
) -> None:
    """Every rite of a year at a place: Gregorian and Chinese dates, weekday, and where each date comes from.
    After 1911 the days are computed by the texts' rules, or given by a practice profile (--practice)."""
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
        check_output_path(ics)
    # a name means the unit that bore it in the first year
    place = get_place(place_name, years[0]) if place_name is not None else default_place()
    overrides: dict[str, date] = {}
    if days:
        from dianli.api import parse_authority_days  # the rites load only when days are given

        overrides = parse_authority_days(days, len(years), parse_day)
    results: list[tuple[int, Year]] = []
    if len(years) > 1:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, console=console, transient=True) as progress:
            task = progress.add_task(f"{place.name}", total=len(years))
            for y in years:
                where = place if y <= QING_LAST_YEAR or place_name is None else place_name
                results.append((y, _year(where, place.id, y, rites, overrides, related, witness, practice)))
                progress.advance(task)
    else:
        where = place if years[0] <= QING_LAST_YEAR or place_name is None else place_name
        results.append(
            (years[0], _year(where, place.id, years[0], rites, overrides, related, witness, practice))
        )
    if ics is not None:
        from dianli.api import to_ical  # icalendar loads only when a file is asked for

        write_file(ics, to_ical((o for _, found in results for o in found.occurrences), place))
    if output_format is OutputFormat.json:
        from dianli.api import occurrence_record

        records = [
            dict(occurrence_record(o, place), year=y) for y, found in results for o in found.occurrences
        ]
        console.print_json(json.dumps(records, ensure_ascii=False))
        return
    for y, found in results:
        _print_year(place, y, found)
    if ics is not None:
        console.print(f"iCalendar written to {ics}")


def register(app: typer.Typer) -> None:
    """Add ``dianli calendar`` to the root command."""
    app.command("calendar")(calendar_command)
