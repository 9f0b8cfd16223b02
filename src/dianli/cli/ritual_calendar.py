"""``dianli calendar``: every rite of a year (or of a range of years) at a place, with its day and where the day
comes from; the rites of one occasion together, in their order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from dianli.api import (
    CALENDAR_LAST_YEAR,
    LAST_QING_CHINESE_YEAR,
    RITE_FIRST_YEAR,
    DianliError,
    Occurrence,
    OutOfRangeError,
    Place,
    default_place,
    get_place,
    observances_for,
    occasion_calendar,
    occurrence_record,
    parse_authority_days,
    parse_day,
    place_chinese_date_label,
    place_year_name,
    to_ical,
)
from dianli.cli.common import check_output_path, console, run_guarded, show_table, write_file
from dianli.cli.dates import OutputFormat

FIRST_YEAR, LAST_YEAR = RITE_FIRST_YEAR, CALENDAR_LAST_YEAR
QING_LAST_YEAR = LAST_QING_CHINESE_YEAR


def _source_label(occ: Occurrence) -> str:
    return occ.source.value if occ.source else "open"


def _print_year(place: Place, year: int, occurrences: tuple[Occurrence, ...]) -> None:
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
            occ.rite,
            occ.name + mark,
            occ.time_label or "",
            _source_label(occ),
            occ.cite.witness,
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
    overrides = parse_authority_days(days or (), len(years), parse_day)
    results: list[tuple[int, tuple[Occurrence, ...]]] = []
    if len(years) > 1:
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, console=console, transient=True) as progress:
            task = progress.add_task(f"{place.name}", total=len(years))
            for y in years:
                where = place if y <= QING_LAST_YEAR or place_name is None else place_name
                results.append((y, observances_for(where, y, rites, overrides, related, witness, practice)))
                progress.advance(task)
    else:
        where = place if years[0] <= QING_LAST_YEAR or place_name is None else place_name
        results.append(
            (years[0], observances_for(where, years[0], rites, overrides, related, witness, practice))
        )
    # the rites of one occasion (崇聖祠, then 文廟 …) together, in the order their data gives
    results = [(y, occasion_calendar(occ, place.id, y, witness)) for y, occ in results]
    if ics is not None:
        write_file(ics, to_ical((o for _, occ in results for o in occ), place))
    if output_format is OutputFormat.json:
        records = [dict(occurrence_record(o, place), year=y) for y, occ in results for o in occ]
        console.print_json(json.dumps(records, ensure_ascii=False))
        return
    for y, occ in results:
        _print_year(place, y, occ)
    if ics is not None:
        console.print(f"iCalendar written to {ics}")


def register(app: typer.Typer) -> None:
    """Add ``dianli calendar`` to the root command."""
    app.command("calendar")(calendar_command)
