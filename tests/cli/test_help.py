"""Every command's --help at 80 columns, piped, as the console script shows it (the root's listing in plain
text, a command's help in rich's panels): no word cut to "…" (rich's wrapping of wide characters, fixed by
dianli.cli.rich_fix), no line wider than the width."""

from __future__ import annotations

from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from dianli.cli import app
from dianli.cli.common import display_width
from dianli.cli.lazy import LazyGroup
from dianli.cli.root import root_app

WIDTH = 80


def _commands(command: Any, path: tuple[str, ...]) -> list[tuple[tuple[str, ...], Any]]:
    found = [(path, command)]
    if hasattr(command, "commands"):  # a group (typer's own click)
        for name, sub in command.commands.items():
            found += _commands(sub, (*path, name))
    return found


def _source_text(command: Any) -> str:
    """Every help string of the command, its parameters and its subcommands, as written."""
    parts = [command.help or "", command.short_help or ""]
    parts += [getattr(p, "help", None) or "" for p in command.params]
    if hasattr(command, "commands"):
        parts += [_source_text(sub) for sub in command.commands.values()]
    return "\n".join(parts)


COMMANDS = _commands(typer.main.get_command(app), ())


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[" ".join(p) or "dianli" for p, _ in COMMANDS])
def test_help_cuts_no_word(path: tuple[str, ...], command: Any) -> None:
    result = CliRunner().invoke(root_app(cls=LazyGroup), [*path, "--help"], env={"COLUMNS": str(WIDTH)})
    assert result.exit_code == 0, result.output
    assert result.output.count("…") <= _source_text(command).count("…"), result.output
    assert [line for line in result.output.splitlines() if display_width(line) > WIDTH] == []


def test_the_fix_is_what_keeps_the_word() -> None:
    """The case that showed it: a line of 漢字 exactly as wide as its cell kept its trailing space, counted
    one cell too wide and lost its last letter to "…"."""
    from rich.console import Console
    from rich.text import Text

    text = "Place id or name (福州府, 臺灣府, 汀州府 x); default: the provincial capital."
    console = Console(width=53, color_system=None)
    lines = console.render_lines(Text(text), console.options.update(overflow="ellipsis"), pad=False)
    shown = ["".join(segment.text for segment in line) for line in lines]
    assert shown == ["Place id or name (福州府, 臺灣府, 汀州府 x); default:", "the provincial capital."]
