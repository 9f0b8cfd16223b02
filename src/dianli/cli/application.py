"""Root of the command line: a declarative table of command modules, each with ``register(app)``."""

from __future__ import annotations

import importlib

import typer

from dianli import __version__

# One entry per command module under dianli.cli; each defines ``register(app: typer.Typer) -> None``.
COMMAND_MODULES: tuple[str, ...] = (
    "texts",
    "cite",
    "dates",
    "spring_ox",
    "rites",
    "music",
    "coverage",
    "dance",
    "temples",
    "program",
    "serve",
    "eclipses",
    "places",
    "align",
    "timeline",
    "ingest",
    "export",
    "variants",
    "collate",
)

app = typer.Typer(
    name="dianli",
    help="dianli (典禮): the Qing ritual code of Fujian and Taiwan — texts, rites, dates, music and dance, "
    "every statement cited to its witness.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"dianli {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version."
    ),
) -> None:
    """dianli (典禮)."""


for _name in COMMAND_MODULES:
    importlib.import_module(f"dianli.cli.{_name}").register(app)


def main() -> None:
    """Entry point of the ``dianli`` console script."""
    app()
