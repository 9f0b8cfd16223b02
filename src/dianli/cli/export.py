"""``dianli export --format csv|json --out DIR [--years A..B]``: the whole model as a Frictionless data
package, checked after writing (by dianli's own schema check, and by ``frictionless`` where installed)."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from dianli.cli.common import (
    check_output_folder,
    console,
    err_console,
    force_option,
    run_guarded,
    writing_to,
)
from dianli.opendata.check import check_package as check_datapackage
from dianli.opendata.check import frictionless_problems
from dianli.opendata.package import check_format as check_export_format
from dianli.opendata.package import check_package_folder
from dianli.opendata.package import write_package as write_datapackage
from dianli.opendata.schema import TABLES as EXPORT_TABLES
from dianli.opendata.tables import DEFAULT_YEARS as EXPORT_DEFAULT_YEARS
from dianli.opendata.tables import build_tables as build_export_tables
from dianli.opendata.tables import parse_years as parse_export_years

DEFAULT_YEARS = (
    str(EXPORT_DEFAULT_YEARS.start)
    if len(EXPORT_DEFAULT_YEARS) == 1
    else f"{EXPORT_DEFAULT_YEARS.start}..{EXPORT_DEFAULT_YEARS[-1]}"
)


@contextmanager
def _progress() -> Iterator[Progress]:
    """A progress bar on stderr when it is a terminal (nothing when piped or redirected)."""
    show = sys.stderr.isatty() and os.environ.get("TERM") != "dumb"
    columns = (TextColumn("{task.description:<12}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err_console, transient=True, disable=not show) as bar:
        yield bar


def _size(path: Path) -> str:
    size = path.stat().st_size
    return f"{size / 1e6:.1f} MB" if size >= 1e5 else f"{size / 1e3:.1f} kB"


def register(app: typer.Typer) -> None:
    @app.command("export")
    @run_guarded
    def export(
        out: Path = typer.Option(  # noqa: B008
            ..., "--out", "-o", help="The folder to write the package into (created if missing)."
        ),
        fmt: str = typer.Option(
            "csv",
            "--format",
            "-f",
            help="csv: datapackage.json and data/<table>.csv (UTF-8, header row); json: one "
            "datapackage.json with every table inline (frictionless reads inline JSON without extras).",
        ),
        years: str = typer.Option(
            DEFAULT_YEARS,
            "--years",
            help="The years of the dated observances, YEAR or FIRST..LAST: every place's calendar of each. "
            f"Default {DEFAULT_YEARS}: every seed witness had been compiled by then and the units are those of "
            "the mid-Qing, so one year shows every governing witness at work; each year adds about 8,000 "
            "rows and 5 s (1644..1911 takes some 20 minutes).",
        ),
        force: bool = force_option(),
    ) -> None:
        """Write the whole model as a Frictionless data package: witnesses, places (CHGIS ids, periods),
        rites, readings, steps, offerings, tablets, observance rules and dated observances, variants and
        citations (resolved to offsets), each table with its Table Schema (types, descriptions, primary and
        foreign keys); then check it."""
        check_export_format(fmt)
        check_output_folder(out, "--out")
        wanted = parse_export_years(years)
        check_package_folder(
            out, fmt, force
        )  # a file dianli did not write is said before the tables are built
        with writing_to(out):  # an unwritable folder is said before the tables are built
            out.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        with _progress() as bar:
            tasks: dict[str, TaskID] = {}

            def step(table: str, done: int, total: int) -> None:
                if table not in tasks:
                    tasks[table] = bar.add_task(table, total=total or None)
                bar.update(tasks[table], completed=done, total=total or None)

            tables = build_export_tables(wanted, step)
            step("writing", 0, 1)
            with writing_to(out):
                path = write_datapackage(tables, out, fmt, force)
            step("writing", 1, 1)
            step("checking", 0, 2)
            own = check_datapackage(path)
            step("checking", 1, 2)
            theirs = frictionless_problems(path)
            step("checking", 2, 2)
        seconds = time.perf_counter() - started
        counts = tables.counts()
        console.print(f"wrote {path} ({fmt}, observances of {years}) in {seconds:.1f} s", soft_wrap=True)
        width = max(len(t.name) for t in EXPORT_TABLES)
        for schema in EXPORT_TABLES:
            where = f"data/{schema.name}.csv" if fmt == "csv" else "inline"
            file_size = f"  {_size(out / where)}" if fmt == "csv" else ""
            console.print(f"  {schema.name:<{width}} {counts[schema.name]:>7} rows  {where}{file_size}")
        if fmt == "json":
            console.print(f"  {'(all)':<{width}} {sum(counts.values()):>7} rows  {_size(path)}")
        _report("dianli schema check", own)
        if theirs is None:
            console.print("frictionless: not installed (pip install frictionless to validate with it too)")
        else:
            _report("frictionless validate", theirs)
        if own or theirs:
            raise typer.Exit(1)


def _report(name: str, problems: list[str]) -> None:
    if not problems:
        console.print(f"{name}: valid")
        return
    err_console.print(f"[bold red]{name}: {len(problems)} problem(s)[/]", markup=True, highlight=False)
    for line in problems:
        err_console.print(f"  {line}", markup=False, highlight=False)
