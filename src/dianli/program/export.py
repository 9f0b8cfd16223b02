"""Writing a program: the booklet file name, and the program as JSON (the booklet's content as data)."""

from __future__ import annotations

import re

from dianli.corpus.supplied import supply
from dianli.program.model import Program

_UNSAFE = re.compile(r"[^\w\-]+")


def booklet_name(program: Program, suffix: str = "html") -> str:
    """``<rite>-<place>-<year>.<suffix>`` with only word characters (no separators from user input)."""
    parts = (program.rite, program.place.id, str(program.year))
    return "-".join(_UNSAFE.sub("_", p) for p in parts) + f".{suffix}"


def to_json(program: Program) -> str:
    """The program as JSON (UTF-8, CJK kept), the same content as the booklet."""
    return supply(program.model_dump_json(indent=1)) + "\n"
