"""``dianli timeline``: the dated events the witnesses state (康熙五十一年 …), converted and in date order."""

from __future__ import annotations

import csv
import io
import json
from enum import StrEnum
from pathlib import Path
from typing import Any

import typer

from dianli.cli.common import (
    check_output_path,
    display_width,
    force_option,
    run_guarded,
    supplied_text,
    wrap,
    write_file,
    write_text_output,
)
from dianli.corpus.dated_events import DatedEvent, governing_witnesses
from dianli.corpus.dated_events import timeline as dated_timeline
from dianli.corpus.labels import section_label
from dianli.corpus.timeline_svg import timeline_svg as dated_events_svg
from dianli.corpus.witnesses import manifest, witness_ids
from dianli.places.places import get_place
from dianli.provenance import stamp_markup as stamp_provenance

WIDTH = 80
QUOTE_INDENT = 6


class Format(StrEnum):
    text = "text"
    json = "json"
    csv = "csv"


FIELDS = (
    "gregorian_year",
    "gregorian_date",
    "first_day",
    "last_day",
    "era_date",
    "chinese_text",
    "era",
    "dynasty",
    "dynasty_name",
    "year_number",
    "month",
    "leap",
    "day",
    "chinese_year",
    "witness",
    "witness_title",
    "section",
    "quote",
    "alternatives",
    "notes",
    "carry",
    "era_from",
    "era_from_offset",
    "rites",
    "rite_names",
)


def short_titles() -> dict[str, str]:
    return {i.id: i.short_title for i in manifest()}


def rite_names(rites: tuple[str, ...]) -> list[str]:
    """The rites by their first classical name."""
    from dianli.rites.load import all_rites

    return [all_rites()[r].names.classical[0] for r in rites]


def event_record(event: DatedEvent, titles: dict[str, str]) -> dict[str, Any]:
    """One event as plain data (JSON and CSV), with the keys of :data:`FIELDS`; ``rites``: the rites its
    clause states, as the correspondence table has it."""
    from dianli.comparison.dated import event_rites

    rites = event_rites(event)
    return {
        "gregorian_year": event.gregorian_year,
        "gregorian_date": event.gregorian_date.isoformat() if event.gregorian_date else None,
        "first_day": event.first_day.isoformat() if event.first_day else None,
        "last_day": event.last_day.isoformat() if event.last_day else None,
        "era_date": event.era_date,
        "chinese_text": event.chinese_text,
        "era": event.era,
        "dynasty": event.dynasty,
        "dynasty_name": event.dynasty_name,
        "year_number": event.year_number,
        "month": event.month,
        "leap": event.leap,
        "day": event.day,
        "chinese_year": event.chinese_year,
        "witness": event.witness,
        "witness_title": titles.get(event.witness, event.witness),
        "section": event.section,
        "quote": event.quote,
        "alternatives": list(event.alternatives),
        "notes": list(event.notes),
        "carry": event.carry,
        "era_from": event.era_from,
        "era_from_offset": event.era_from_offset,
        "rites": list(rites),
        "rite_names": rite_names(rites),
    }


def _header(
    place: str | None,
    witness: str | None,
    count: int,
    titles: dict[str, str],
    carried: int = 0,
    rite: str | None = None,
) -> list[str]:
    lines: list[str] = []
    if place is not None:
        unit = get_place(place)
        governing = "; ".join(
            f"{titles.get(g.witness, g.witness)} {g.first_year}–{g.last_year}"  # names, not ids (#14)
            for g in governing_witnesses(unit.id)
        )
        lines += wrap(f"{unit.name}: the dates stated by the witnesses that govern it:", WIDTH)
        lines += wrap("  " + (governing or "none"), WIDTH, indent=2)
    elif witness is not None:
        lines += wrap(f"{witness} ({titles.get(witness, witness)}): the dates it states", WIDTH)
    else:
        lines.append("the dates stated by every witness")
    about = f" in a clause that states {rite_names((rite,))[0]}" if rite is not None else ""
    lines += wrap(f"{count} dated event{'s' if count != 1 else ''}{about}", WIDTH)
    if carried:
        lines += wrap(
            f"{carried} of them with the era carried over from an earlier date: the text writes only the"
            " year (四十三年, 是年, 次年); the era the program supplied is in 〔〕 (--explicit-only: without them)",
            WIDTH,
        )
    return lines


def fill(text: str, width: int, indent: int) -> list[str]:
    """``text`` (which starts with its own indentation) in lines of at most ``width`` display columns,
    broken anywhere (the quotations have no spaces), continuations indented by ``indent``."""
    lines: list[str] = []
    line = ""
    for char in supplied_text(text):
        if display_width(line + char) > width:
            lines.append(line.rstrip())
            line = " " * indent + ("" if char == " " else char)
            continue
        line += char
    if line.strip():
        lines.append(line.rstrip())
    return lines


def text_lines(events: tuple[DatedEvent, ...], titles: dict[str, str]) -> list[str]:
    """Each event: Gregorian year and day (or the first day of its month, with …), the dynasty and the
    date as read (what the program supplied in 〔〕), the witness and section; then the quotation and any
    notes (「era carried over from …」 first), wrapped to 80 columns; where the clause states an element of
    a rite (the correspondence table), the rites it states."""
    from dianli.comparison.dated import event_rites

    lines: list[str] = []
    for event in events:
        day = event.gregorian_date.isoformat() if event.gregorian_date else ""
        if not day and event.month is not None and event.first_day is not None:
            day = f"{event.first_day.isoformat()}…"
        head = (
            f"{event.gregorian_year:>5} {day:<11} {event.dynasty_name} {event.shown_date}"
            f" · {titles.get(event.witness, event.witness)} · {section_label(event.section)}"
        )
        lines.append("")
        lines += fill(head, WIDTH, QUOTE_INDENT)
        lines += fill(" " * QUOTE_INDENT + f"「{event.quote}」", WIDTH, QUOTE_INDENT + 1)
        about = rite_names(event_rites(event))
        if about:
            lines += fill(" " * QUOTE_INDENT + f"states: {'、'.join(about)}", WIDTH, QUOTE_INDENT + 2)
        for note in (*event.notes, *(f"also readable as {a}" for a in event.alternatives)):
            lines += fill(" " * QUOTE_INDENT + f"note: {note}", WIDTH, QUOTE_INDENT + 2)
    return lines


def to_csv(events: tuple[DatedEvent, ...], titles: dict[str, str]) -> str:
    records = [event_record(e, titles) for e in events]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    for record in records:
        writer.writerow({k: "; ".join(v) if isinstance(v, list) else v for k, v in record.items()})
    return out.getvalue()


def register(app: typer.Typer) -> None:
    @app.command("timeline")
    @run_guarded
    def timeline(
        place: str | None = typer.Option(
            None, "--place", "-p", help="Only the witnesses that govern this place (name or id) at some time."
        ),
        witness: str | None = typer.Option(
            None, "--witness", "-w", help="Only this witness (dianli texts list)."
        ),
        from_year: int | None = typer.Option(None, "--from", help="From this Gregorian year."),
        until_year: int | None = typer.Option(None, "--until", help="Until this Gregorian year (inclusive)."),
        fmt: Format = typer.Option(Format.text, "--format", "-f", help="text, json or csv."),  # noqa: B008
        svg: Path | None = typer.Option(None, "--svg", help="Also draw the timeline as SVG into this file."),  # noqa: B008
        explicit_only: bool = typer.Option(
            False,
            "--explicit-only",
            help="Only dates that name their era: no bare year (四十三年, 是年, 次年) carried over from an "
            "earlier date.",
        ),
        rite: str | None = typer.Option(
            None,
            "--rite",
            "-r",
            help="Only the dates whose clause states an element of this rite (id or name), as the "
            "correspondence table has it (dianli compare): from when a witness says so.",
        ),
        force: bool = force_option(),
    ) -> None:
        """Every reign date the witnesses state (康熙五十一年, 雍正元年六月初四日 …; Ming, Southern Ming, 後金
        and earlier eras too), converted to the Gregorian year and day, in date order with its quotation,
        its witness and section, and the dynasty the era name was read in. A bare year after an explicit
        date in the same section (「康熙四十年…。四十三年，…」, 是年, 次年) is read in that date's era and
        says so: 「era carried over from 康熙四十年」, the supplied era in 〔〕. Each date names the rites
        its clause states (the correspondence table), and --rite keeps those of one rite."""
        if witness is not None and witness not in witness_ids():
            from dianli.errors import UnknownValueError

            raise UnknownValueError("witness", witness, witness_ids())
        if svg is not None:
            check_output_path(svg, force, "--svg")
        events = dated_timeline(
            place=place,
            witness=witness,
            from_year=from_year,
            until_year=until_year,
            explicit_only=explicit_only,
        )
        rite_id = None
        if rite is not None:
            from dianli.comparison.dated import about_rite
            from dianli.rites.resolve import find_rite

            rite_id = find_rite(rite)
            events = about_rite(events, rite_id)
        titles = short_titles()
        if svg is not None:
            where = f" at {get_place(place).name}" if place else (f" in {titles[witness]}" if witness else "")
            drawn = dated_events_svg(events, titles, f"dated events{where}", link=False)
            write_file(svg, stamp_provenance(drawn), force)  # names the version and data digest
        if fmt is Format.json:
            data = {
                "place": get_place(place).id if place else None,
                "witness": witness,
                "rite": rite_id,
                "governing": [
                    {
                        "witness": g.witness,
                        "first_year": g.first_year,
                        "last_year": g.last_year,
                        "through": g.through,
                    }
                    for g in (governing_witnesses(get_place(place).id) if place else ())
                ],
                "events": [event_record(e, titles) for e in events],
            }
            write_text_output(json.dumps(data, ensure_ascii=False, indent=1), None)
            return
        if fmt is Format.csv:
            write_text_output(to_csv(events, titles), None)
            return
        carried = sum(1 for e in events if e.carry is not None)
        head = _header(place, witness, len(events), titles, carried, rite_id)
        lines = [*head, *text_lines(events, titles)]
        write_text_output("\n".join(lines), None)
