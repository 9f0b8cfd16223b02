"""The ``dianli`` console script: the root lists every command from :mod:`dianli.cli.commands` and imports a
command's module only when that command runs, so ``dianli date …`` does not load the music, the dance or
the rites."""

from __future__ import annotations

import importlib
from typing import Any

import typer
import typer.core
import typer.main

from dianli.cli.commands import COMMANDS
from dianli.cli.root import root_app


def load_command(name: str) -> Any:
    """The real command ``name``, registered by its module on an application of its own."""
    app = typer.Typer()
    importlib.import_module(f"dianli.cli.{COMMANDS[name].module}").register(app)
    return typer.main.get_group(app).commands[name]


class LazyCommand(typer.core.TyperCommand):
    """Stands for a command in the root's listing (name and summary); loads it when it is run."""

    def __init__(self, name: str) -> None:
        super().__init__(name=name, short_help=COMMANDS[name].summary, help=COMMANDS[name].summary)
        self._real: Any = None

    def real(self) -> Any:
        if self._real is None:
            self._real = load_command(str(self.name))
        return self._real

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        return self.real().make_context(info_name, args, parent=parent, **extra)


class LazyGroup(typer.core.TyperGroup):
    """The root group: every command of the table, each loaded on first use."""

    def list_commands(self, ctx: Any) -> list[str]:
        return [*self.commands, *(name for name in COMMANDS if name not in self.commands)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            self.commands[cmd_name] = LazyCommand(cmd_name)
        return self.commands.get(cmd_name)


def main() -> None:
    """Entry point of the ``dianli`` console script."""
    root_app(cls=LazyGroup)()
