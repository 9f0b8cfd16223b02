"""Helpers shared by the command modules: error reporting and output."""

from __future__ import annotations

import functools
import os
import sys
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from dianli.api import DianliError, OutputPathError

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


@contextmanager
def writing_to(path: str | os.PathLike[str]) -> Iterator[None]:
    """Turn an OSError raised while writing ``path`` into an :class:`OutputPathError` naming it."""
    try:
        yield
    except OSError as exc:
        raise OutputPathError(path, exc) from exc


def check_output_path(path: str | os.PathLike[str]) -> None:
    """Fail early, before slow work, when ``path`` cannot be written (its folder is missing or read-only)."""
    target = os.fspath(path)
    if target == "-":
        return
    folder = os.path.dirname(os.path.abspath(target)) or "."
    if os.path.isdir(target):
        raise OutputPathError(target, IsADirectoryError(21, "Is a directory"))
    if not os.path.isdir(folder):
        raise OutputPathError(target, FileNotFoundError(2, f"folder {folder} does not exist"))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputPathError(target, PermissionError(13, f"folder {folder} is not writable"))


def write_file(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to the file ``path``; an unwritable path is an OutputPathError."""
    with writing_to(path):
        if isinstance(data, bytes):
            with open(path, "wb") as binary:
                binary.write(data)
        else:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(data)


def write_text_output(text: str, out: str | None) -> None:
    """Print to stdout, or write to the file ``out`` (a path the user gave; '-' means stdout)."""
    if out is None or out == "-":
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return
    write_file(out, text)


def display_width(text: str) -> int:
    """Columns a string takes in a terminal: wide and full-width characters (漢字) take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wrap(text: str, width: int, indent: int = 2) -> list[str]:
    """``text`` in lines of at most ``width`` display columns (continuations indented), broken at spaces,
    or inside a run of wide characters, which has none."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if display_width(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = " " * indent + word
        while display_width(line) > width:
            cut = len(line)
            while cut > indent + 1 and display_width(line[:cut]) > width:
                cut -= 1
            lines.append(line[:cut])
            line = " " * indent + line[cut:]
    lines.append(line)
    return lines
