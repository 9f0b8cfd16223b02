"""Helpers shared by the command modules: error reporting and output."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from dianli.api import DianliError

P = ParamSpec("P")
R = TypeVar("R")

console = Console(highlight=False, soft_wrap=False)
err_console = Console(stderr=True, highlight=False)


def run_guarded(func: Callable[P, R]) -> Callable[P, R]:
    """Wrap a command so that a DianliError prints ``error: …`` on stderr and exits with status 2."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except DianliError as exc:
            # the message is data (ids, paths like parts[qisheng]), never markup
            err_console.print(f"[bold red]error:[/] {escape(str(exc))}", markup=True, highlight=False)
            raise typer.Exit(2) from exc

    return wrapper


def write_text_output(text: str, out: str | None) -> None:
    """Print to stdout, or write to the file ``out`` (a path the user gave; '-' means stdout)."""
    if out is None or out == "-":
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return
    with open(out, "w", encoding="utf-8") as handle:
        handle.write(text)
