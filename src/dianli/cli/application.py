"""The full command-line application: every command module of :mod:`dianli.cli.commands` registered at once
(``register(app)``). Tests and documentation use it; the console script (:mod:`dianli.cli.main`) loads the
same commands one at a time. To add a command, add it to the table in ``dianli/cli/commands.py``."""

from __future__ import annotations

import importlib

from dianli.cli.commands import COMMANDS, command_modules
from dianli.cli.root import root_app

# One entry per command module under dianli.cli; each defines ``register(app: typer.Typer) -> None``.
COMMAND_MODULES: tuple[str, ...] = command_modules()

app = root_app()

for _name in COMMAND_MODULES:
    importlib.import_module(f"dianli.cli.{_name}").register(app)

# the listing's line of each command comes from the table, as in the console script
for _command in app.registered_commands:
    _command.short_help = COMMANDS[str(_command.name)].summary
for _group in app.registered_groups:
    _group.short_help = COMMANDS[str(_group.name)].summary


def main() -> None:
    """Run the full application (the console script is :func:`dianli.cli.main.main`)."""
    app()
