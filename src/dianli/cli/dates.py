"""``dianli date``: convert a day both ways, as a gazetteer writes it or as an ISO date. It loads the calendar
only; the places are loaded when ``--place`` is given (``dianli calendar`` is in :mod:`dianli.cli.ritual_calendar`).

The answer is made, kept and shown by :mod:`dianli.cli.date_view`, which imports no typer: the console script
answers a plain ``dianli date`` through it without loading this module (see there)."""

from __future__ import annotations

from typing import Annotated

import typer

from dianli.cli.common import run_guarded
from dianli.cli.date_view import FORMAT_OPTION, PLACE_OPTION, OutputFormat, kept_day_view, show_day


@run_guarded
def date_command(
    text: str = typer.Argument(
        ...,
        help="A day: 1617-02-06, or as a gazetteer writes it — 萬曆四十五年正月初一, 天聰三年二月初一, "
        "永曆十五年三月初一日, 乾隆十七年閏五月十五日, 乾隆十七年二月癸巳朔, 康熙元年五月望, 民國六年二月六日.",
    ),
    output_format: Annotated[
        OutputFormat, typer.Option(*FORMAT_OPTION, help="text or json.")
    ] = OutputFormat.text,
    place_name: Annotated[
        str | None,
        typer.Option(
            *PLACE_OPTION,
            help="Name the year as at this place (民國 only where in use) and give a solar term's time there.",
        ),
    ] = None,
) -> None:
    """Convert a day between the Gregorian and the Chinese calendar (every era of the Ming, Southern Ming,
    後金, Qing and 民國), with its 干支 and solar term; impossible dates are refused with the reason."""
    show_day(kept_day_view(text, place_name), output_format)


def register(app: typer.Typer) -> None:
    """Add ``dianli date`` to the root command."""
    app.command("date")(date_command)
