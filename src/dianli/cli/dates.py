"""``dianli date`` (convert a day both ways) and ``dianli calendar`` (every rite of a year at a place)."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from dianli.api import (
    CALENDAR_LAST_YEAR,
    RITE_FIRST_YEAR,
    DayInfo,
    DianliError,
    Occurrence,
    OutOfRangeError,
    Place,
    beijing_apparent_time,
    default_place,
    describe_day,
    double_hour,
    get_place,
    observances_for,
    occurrence_record,
    parse_authority_days,
    parse_day,
    provincial_offset_minutes,
    provincial_time,
    to_ical,
)
from dianli.cli.common import check_output_path, console, run_guarded, write_file

FIRST_YEAR, LAST_YEAR = RITE_FIRST_YEAR, CALENDAR_LAST_YEAR


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


def _day_record(info: DayInfo) -> dict[str, object]:
    term = info.solar_term
    return {
        "date": info.day.isoformat(),
        "weekday": info.weekday,
        "chinese_date": info.chinese_date.label,
        "chinese_year": info.chinese_date.year,
        "month": info.chinese_date.month,
        "leap": info.chinese_date.leap,
        "day": info.chinese_date.day,
        "reign_year": info.reign_year,
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


@run_guarded
def date_command(
    text: str = typer.Argument(..., help="A day: 1752-03-16, or 乾隆十七年二月初一 (leap months as 閏)."),
    output_format: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="text or json.")
    ] = OutputFormat.text,
    place_name: Annotated[
        str | None, typer.Option("--place", "-p", help="Also give a solar term's time at this place.")
    ] = None,
) -> None:
    """Convert a day between the Gregorian and the Chinese calendar, with its 干支 and solar term."""
    info = describe_day(parse_day(text))
    year = info.day.year
    place = get_place(place_name, year).nearest(year) if place_name is not None else None
    if output_format is OutputFormat.json:
        record = _day_record(info)
        if place is not None and info.solar_term is not None:
            local = provincial_time(beijing_apparent_time(info.solar_term.jd_utc), place.longitude_deg)
            record["solar_term_local_time"] = {
                "place": place.id,
                "time": local.replace(microsecond=0).isoformat(),
            }
        console.print_json(json.dumps(record, ensure_ascii=False))
        return
    term = info.solar_term
    month_gz = f"{info.month_ganzhi}月 " if info.month_ganzhi else ""
    console.print(f"{info.day.isoformat()} ({info.weekday}) = {info.chinese_date.label}")
    console.print(f"  {info.year_ganzhi}年 {month_gz}{info.day_ganzhi}日 (納音 {info.day_ganzhi.nayin.name})")
    if term:
        instant = beijing_apparent_time(term.jd_utc)
        console.print(
            f"  solar term {term.name}; computed instant {instant:%H:%M} Beijing apparent time "
            f"({double_hour(instant)})"
        )
        if place is not None:
            local = provincial_time(instant, place.longitude_deg)
            console.print(
                f"  at {place.name} ({place.longitude_deg:.2f}°E, {provincial_offset_minutes(place.longitude_deg):+.1f} min "
                f"from Beijing): {local:%H:%M} ({double_hour(local)})"
            )
    if info.reigning:
        console.print(f"  reigning: the {info.reigning.name} emperor ({info.reigning.emperor})")
    console.print(
        f"  source: {info.month_source.value} ({info.calendar_name}; {info.month_source.description})"
    )


def _source_label(occ: Occurrence) -> str:
    return occ.source.value if occ.source else "open"


def _print_year(place: Place, year: int, occurrences: tuple[Occurrence, ...]) -> None:
    table = Table(title=f"{place.nearest(year).name} — {year}", show_lines=False)
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
            occ.chinese_date.label if occ.chinese_date else "",
            occ.rite,
            occ.name + mark,
            occ.time_label or "",
            _source_label(occ),
            occ.cite.witness,
        )
    console.print(table)
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
) -> None:
    """Every rite of a year at a place: Gregorian and Chinese dates, weekday, and where each date comes from."""
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
                results.append((y, observances_for(place, y, rites, overrides, related, witness)))
                progress.advance(task)
    else:
        results.append((years[0], observances_for(place, years[0], rites, overrides, related, witness)))
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
    """Add ``dianli date`` and ``dianli calendar`` to the root command."""
    app.command("date")(date_command)
    app.command("calendar")(calendar_command)
