"""The ``dianli`` command line. Each command group lives in its own module and calls only ``dianli.api``."""

from dianli.cli.app import app, main

__all__ = ["app", "main"]
