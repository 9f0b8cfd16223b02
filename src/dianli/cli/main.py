"""The ``dianli`` console script: one command, then the process ends.

This module imports nothing heavy: :func:`main` turns the cyclic garbage collector off first, answers a
plain ``dianli date`` without typer (:func:`dianli.cli.date_view.answer`: typer's import is a third of a
new day's run), and otherwise loads typer, the root group (:mod:`dianli.cli.lazy`) and the one command
asked for. Everything start-up makes —
modules, classes, the command line's own objects — lives until the process ends, so no collection need
walk it: once the command is loaded it is frozen out of the collector's reach and the collector runs again
for the command's own work (:func:`dianli.cli.common.collect_from_here`), and at the end the last
collection Python makes on its way out finds nothing to walk (``gc.freeze`` at exit). Measured on
``dianli date``: a fifth of its run was spent in collections of what start-up had made."""

from __future__ import annotations

import atexit
import gc
import os
import sys

PYDANTIC_PLUGINS_ENV = "PYDANTIC_DISABLE_PLUGINS"
"""Pydantic's switch for its plugins (observability tools found through entry points): the console script
sets it to ``__all__`` unless it is set already. Looking for plugins walks every installed distribution's
metadata when the first model validates (0.02–0.03 s of a booklet here); a user who wants a plugin in
dianli sets the variable (to the plugins to leave out, or to nothing)."""


def main() -> None:
    """Entry point of the ``dianli`` console script: one command, then the process ends."""
    gc.disable()  # until the command is loaded (see the module's doc)
    atexit.register(gc.freeze)  # run last: the collection of the interpreter's exit walks nothing
    from dianli.cli.common import ends_with_command

    ends_with_command()
    os.environ.setdefault(PYDANTIC_PLUGINS_ENV, "__all__")
    if sys.argv[1:2] == ["date"]:
        from dianli.cli.date_view import answer

        status = answer(sys.argv[1:])
        if status is not None:
            sys.exit(status)
    parsed()


def parsed() -> None:
    """Run the command ``sys.argv`` names through typer: the root group, the command loaded when it runs."""
    from dianli.cli.lazy import LazyGroup
    from dianli.cli.root import root_app

    root_app(cls=LazyGroup)()
