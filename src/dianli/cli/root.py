"""The root of the command line: its name, help and global options (``--version``, ``--width``), shared by
the full application (:mod:`dianli.cli.application`) and the console script (:mod:`dianli.cli.main`)."""

from __future__ import annotations

import os
from typing import Any

import typer

from dianli import __version__
from dianli.cli import rich_fix
from dianli.cli.common import set_width
from dianli.drafts import DRAFTS_VAR

rich_fix.install()  # rich's wrapping of wide characters, for the help panels and the tables

HELP = (
    "dianli (典禮): the Qing ritual code of Fujian and Taiwan — texts, rites, dates, music and dance, "
    "every statement cited to its witness."
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"dianli {__version__}")
        raise typer.Exit()


def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version."
    ),
    width: int | None = typer.Option(
        None,
        "--width",
        min=20,
        max=1000,
        metavar="<cols>",
        help="Lay text out for this many columns (default: the terminal's, or 80 when piped).",
    ),
    drafts: bool = typer.Option(
        False,
        "--with-drafts",
        help="Let drafted, unreviewed witnesses (status: draft, from ingest --drafts) govern the places their "
        "manifests name; they are marked as drafts wherever they are named.",
    ),
) -> None:
    """dianli (典禮)."""
    if drafts:  # for this process (and the workers it starts): the drafts govern their places
        os.environ[DRAFTS_VAR] = "1"
    # set for this command only: without --width the terminal's (or COLUMNS') width again, so that one
    # process running many commands (the tests, a shell) never keeps an earlier command's width
    set_width(width)


def root_app(**settings: Any) -> typer.Typer:
    """A Typer application with the root's help and options and no command yet."""
    app = typer.Typer(
        name="dianli",
        help=HELP,
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode=None,
        **settings,
    )
    app.callback()(_root)
    return app
