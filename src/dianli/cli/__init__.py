"""The ``dianli`` command line. Each command group lives in its own module; it calls the public API of
``import dianli`` where an entry point does its job, and otherwise imports each name from the module that
owns it (``tests/test_layers.py``).

``main`` (the console script) loads a command's module only when it runs; ``app``, the application with
every command registered, is imported on first use."""

from __future__ import annotations

from typing import Any

from dianli.cli.main import main

__all__ = ["app", "main"]


def __getattr__(name: str) -> Any:
    if name == "app":
        from dianli.cli.application import app

        globals()["app"] = app  # cached: later look-ups find it directly
        return app
    raise AttributeError(name)
