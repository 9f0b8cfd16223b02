"""``dianli places [--year Y] [--format text|json|csv] [--svg FILE]``: the administrative units over time.

With ``--year``, the units of that year as they were then (name, level, parent, CHGIS id, seat, governing
witness); without, every period of every unit. Text tables fit the terminal (80 columns when piped): a
row that does not fit continues on an indented line, and no cell is cut.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from dianli.calendar.reigns import reign_year
from dianli.cli.common import (
    FORCE_HELP,
    check_output_path,
    display_width,
    format_for,
    run_guarded,
    wrap,
    write_file,
    write_text_output,
)
from dianli.cli.common import width as layout_width
from dianli.corpus.labels import witness_label
from dianli.errors import DianliError, OutOfRangeError
from dianli.places.governs import governing_witness
from dianli.places.map import render_map as places_map_svg
from dianli.places.places import (
    Period,
    Place,
    PlaceAt,
    PlaceLevel,
    all_places,
    place_sources,
    places_in_year,
    qing_rule_ends,
)
from dianli.places.places import year_range as place_year_range
from dianli.provenance import stamp_markup as stamp_provenance

GAP = 1
"""Spaces between two columns of a text table."""
CONTINUATION_INDENT = 4
"""Indent of the continuation line of a row too wide for the terminal."""
NONE = "—"


class Format(StrEnum):
    text = "text"
    json = "json"
    csv = "csv"


# --- text tables ----------------------------------------------------------------------------------


def _pad(text: str, width: int) -> str:
    return text + " " * (width - display_width(text))


def _line_groups(widths: Sequence[int], width: int) -> list[list[int]]:
    """Which columns go on which line of a row: as many as fit in ``width``, the rest continued below."""
    groups: list[list[int]] = [[]]
    used = 0
    for index, column_width in enumerate(widths):
        need = column_width + (GAP if groups[-1] else 0)
        if groups[-1] and used + need > width:
            groups.append([])
            used = CONTINUATION_INDENT
            need = column_width
        groups[-1].append(index)
        used += need
    return groups


def render_table(headers: Sequence[str], rows: Sequence[Sequence[str]], width: int) -> str:
    """A plain-text table no wider than ``width`` where it can be: columns sized to their widest cell
    (display width), rows that do not fit continued on indented lines; cells are never cut."""
    widths = [max(display_width(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]
    groups = _line_groups(widths, width)

    def lines(cells: Sequence[str]) -> list[str]:
        out = []
        for number, group in enumerate(groups):
            indent = " " * (CONTINUATION_INDENT if number else 0)
            out.append((indent + (" " * GAP).join(_pad(cells[i], widths[i]) for i in group)).rstrip())
        return out

    head = lines(headers)
    rule = "-" * min(width, max(display_width(line) for line in head))
    body = [line for row in rows for line in lines(row)]
    return "\n".join([*head, rule, *body])


# --- rows -----------------------------------------------------------------------------------------


def _names_over(place: Place, period: Period) -> str:
    """The names a parent bore during ``period`` of one of its children, joined by arrows."""
    return "→".join(place.names_between(period.from_year, period.until_year))


def _witness(unit: PlaceAt) -> str | None:
    """The witness that governs the unit that year, or None where none does (see ``dianli.places.governs``)."""
    try:
        return governing_witness(unit.id, unit.year)
    except DianliError:
        return None


def _year_records(year: int) -> list[dict[str, object]]:
    units = places_in_year(year)
    by_id = {u.id: u for u in units}
    records: list[dict[str, object]] = []
    for unit in units:
        parent = by_id.get(unit.parent) if unit.parent else None
        grounds = unit.period.parent_source
        records.append(
            {
                "id": unit.id,
                "year": year,
                "name": unit.name,
                "level": unit.level.value,
                "parent": unit.parent,
                "parent_name": parent.name if parent else None,
                "chgis_id": unit.chgis_id,
                "latitude_deg": unit.latitude_deg,
                "longitude_deg": unit.longitude_deg,
                "from_year": unit.period.from_year,
                "until_year": unit.period.until_year,
                "governing_witness": _witness(unit),
                "parent_source": grounds.model_dump(mode="json") if grounds else None,
            }
        )
    return records


def _period_records() -> list[dict[str, object]]:
    by_id = {p.id: p for p in all_places()}
    records: list[dict[str, object]] = []
    for place in all_places():
        for period in place.periods:
            parent = by_id.get(period.parent) if period.parent else None
            records.append(
                {
                    "id": place.id,
                    "from_year": period.from_year,
                    "until_year": period.until_year,
                    "name": period.name,
                    "level": period.level.value,
                    "parent": period.parent,
                    "parent_names": _names_over(parent, period) if parent else None,
                    "chgis_id": period.chgis_id,
                    "latitude_deg": period.latitude_deg,
                    "longitude_deg": period.longitude_deg,
                }
            )
    return records


def _text_year(year: int, width: int) -> str:
    units = places_in_year(year)
    by_id = {u.id: u for u in units}
    headers = ("id", "name", "level", "parent", "CHGIS", "lat", "lon", "governing witness")
    rows = [
        (
            u.id,
            u.name,
            u.level.label,
            by_id[u.parent].name if u.parent in by_id else NONE,
            u.chgis_id,
            f"{u.latitude_deg:.2f}",
            f"{u.longitude_deg:.2f}",
            witness_label(w) if (w := _witness(u)) else NONE,  # a reader sees the title, not the id
        )
        for u in units
    ]
    lines = [f"{year} ({reign_year(year).label}): {len(units)} units", "", render_table(headers, rows, width)]
    lines.extend(_notes(year, width))
    return "\n".join(lines)


def _text_all(width: int) -> str:
    by_id = {p.id: p for p in all_places()}
    headers = ("id", "years", "name", "level", "parent", "CHGIS", "lat", "lon")
    rows = []
    for place in all_places():
        for number, period in enumerate(place.periods):
            parent = by_id.get(period.parent) if period.parent else None
            rows.append(
                (
                    "" if number else place.id,
                    period.years,
                    period.name,
                    PlaceLevel(period.level).label,
                    _names_over(parent, period) if parent else NONE,
                    period.chgis_id,
                    f"{period.latitude_deg:.2f}",
                    f"{period.longitude_deg:.2f}",
                )
            )
    lines = [f"{len(by_id)} units, {len(rows)} periods", "", render_table(headers, rows, width)]
    lines.extend(_notes(None, width))
    return "\n".join(lines)


def _notes(year: int | None, width: int) -> list[str]:
    """The end of Qing rule (where it bears on ``year``) and the data's sources, for the text output."""
    notes = [""]
    for ending in qing_rule_ends():
        if year is None or year >= ending.last_year:
            notes.extend(wrap(f"note: Qing rule ended in {ending.last_year}: {ending.describe()}", width))
    titles = "; ".join(s.title for s in place_sources())
    notes.extend(
        wrap(f"sources (the quotation or assumption of each parent: --format json): {titles}", width)
    )
    return notes


def _csv(records: list[dict[str, object]]) -> str:
    buffer = io.StringIO()
    fields = [k for k in records[0] if k != "parent_source"] if records else []
    writer = csv.DictWriter(buffer, fieldnames=fields, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(records)
    return buffer.getvalue()


def _check_year(year: int) -> int:
    first, last = place_year_range()
    if not first <= year <= last:
        raise OutOfRangeError("--year", year, f"{first}..{last} (the years of the place data)")
    return year


@run_guarded
def places_command(
    year: Annotated[
        int | None, typer.Option("--year", "-y", help="Only the units of this year, as they were then.")
    ] = None,
    fmt: Annotated[
        Format | None,
        typer.Option("--format", "-f", help="text, json or csv (default: from the --out name, else text)."),
    ] = None,
    svg: Annotated[
        Path | None, typer.Option("--svg", help="Also write the map of --year as SVG to this file.")
    ] = None,
    out: Annotated[str | None, typer.Option("--out", "-o", help="Write to this file.")] = None,
    force: Annotated[bool, typer.Option("--force", help=FORCE_HELP)] = False,
) -> None:
    """The 府, 直隸州, 廳 and 縣 over time: names, levels, parents, CHGIS ids and seats, each period cited."""
    fmt = format_for(Format, fmt, out, Format.text)
    for path, option in ((svg, "--svg"), (out, None)):
        if path is not None:
            check_output_path(path, force, option)
    if year is not None:
        _check_year(year)
    if svg is not None:
        if year is None:
            raise DianliError(f"--svg {svg} needs --year Y as well: the map shows the units of one year")
        drawn = places_map_svg(places_in_year(year), f"{year} {reign_year(year).label}")
        write_file(svg, stamp_provenance(drawn), force)  # names the version and data digest
    width = layout_width()  # the terminal's, --width, or 80 when piped
    if fmt is Format.json:
        if year is not None:
            payload: dict[str, object] = {"year": year, "units": _year_records(year)}
        else:
            payload = {"units": [{"name": p.name, **p.model_dump(mode="json")} for p in all_places()]}
        payload["qing_rule_ends"] = [e.model_dump(mode="json") for e in qing_rule_ends()]
        payload["sources"] = [s.model_dump(mode="json") for s in place_sources()]
        write_text_output(json.dumps(payload, ensure_ascii=False, indent=2), out, force)
    elif fmt is Format.csv:
        write_text_output(_csv(_year_records(year) if year is not None else _period_records()), out, force)
    else:
        write_text_output(_text_year(year, width) if year is not None else _text_all(width), out, force)


def register(app: typer.Typer) -> None:
    """Add ``dianli places`` to the root command."""
    app.command("places")(places_command)
