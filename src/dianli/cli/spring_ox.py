"""``dianli spring-ox YEAR``: the spring ox and the Mang god of a year, as text, JSON and an SVG picture."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from dianli.cli.common import FORCE_HELP, check_output_path, run_guarded, write_file, write_text_output
from dianli.cli.lines import write_fitted
from dianli.errors import UnknownValueError
from dianli.provenance import stamp_markup as stamp_provenance
from dianli.spring_ox.figure import FIRST_YEAR as SPRING_OX_FIRST_YEAR
from dianli.spring_ox.figure import LAST_YEAR as SPRING_OX_LAST_YEAR
from dianli.spring_ox.figure import spring_ox
from dianli.spring_ox.lichun import CLOCKS, DAY_BOUNDARIES, DAY_SOURCES
from dianli.spring_ox.report import render_text as spring_ox_text
from dianli.spring_ox.report import to_json as spring_ox_json
from dianli.spring_ox.svg import render_svg as spring_ox_svg


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


def _parse_options(options: list[str]) -> dict[str, str]:
    chosen: dict[str, str] = {}
    for option in options:
        key, sep, value = option.partition("=")
        if not sep or not key or not value:
            raise UnknownValueError(
                "--option", option, ["ATTRIBUTE=READING, e.g. ox.halter=year-stem-overcomer"]
            )
        chosen[key.strip()] = value.strip()
    return chosen


@run_guarded
def _spring_ox(
    year: int,
    place: str | None,
    rule: str | None,
    svg: Path | None,
    output_format: OutputFormat,
    clock: str | None,
    day_source: str | None,
    boundary: str | None,
    option: list[str],
    force: bool = False,
) -> None:
    if svg is not None:
        check_output_path(svg, force, "--svg")
    result = spring_ox(
        year,
        place=place,
        rule=rule,
        clock=clock,
        day_source=day_source,
        boundary=boundary,
        choices=_parse_options(option),
    )
    if output_format is OutputFormat.json:
        write_text_output(json.dumps(spring_ox_json(result), ensure_ascii=False, indent=2), None)
    else:
        write_fitted(spring_ox_text(result))
    if svg is not None:
        write_file(svg, stamp_provenance(spring_ox_svg(result)), force)  # names the version and data digest
        typer.echo(f"picture written to {svg}", err=True)


def register(app: typer.Typer) -> None:
    @app.command("spring-ox")
    def spring_ox_command(
        year: Annotated[
            int,
            typer.Argument(
                help="Gregorian year whose 立春 begins the ox's year "
                f"({SPRING_OX_FIRST_YEAR}–{SPRING_OX_LAST_YEAR})."
            ),
        ],
        place: Annotated[
            str | None,
            typer.Option("--place", "-p", help="Place (id or name) for local time; default fuzhou."),
        ] = None,
        rule: Annotated[
            str | None,
            typer.Option(
                "--rule",
                "-r",
                help="Rule set: gazetteer, almanac or a witness with its own 土牛芒神式 "
                "(default: at --place, the governing witness's own if it has one, else gazetteer).",
            ),
        ] = None,
        svg: Annotated[
            Path | None, typer.Option("--svg", help="Also draw the ox and the god to this SVG file.")
        ] = None,
        output_format: Annotated[
            OutputFormat, typer.Option("--format", "-f", help="text or json.")
        ] = OutputFormat.text,
        clock: Annotated[
            str | None,
            typer.Option(
                "--clock", help=f"Clock for the 時辰: {', '.join(CLOCKS)} (default: the rule set's)."
            ),
        ] = None,
        day_source: Annotated[
            str | None, typer.Option("--day-source", help=f"Day of 立春 from: {', '.join(DAY_SOURCES)}.")
        ] = None,
        boundary: Annotated[
            str | None, typer.Option("--boundary", help=f"Where the day begins: {', '.join(DAY_BOUNDARIES)}.")
        ] = None,
        option: Annotated[
            list[str] | None,
            typer.Option("--option", "-o", help="Choose a reading of a disputed point: ATTRIBUTE=READING."),
        ] = None,
        force: Annotated[bool, typer.Option("--force", help=FORCE_HELP)] = False,
    ) -> None:
        """The spring ox (土牛) and the Mang god (芒神) of a year: every attribute with its reason and source."""
        _spring_ox(year, place, rule, svg, output_format, clock, day_source, boundary, option or [], force)
