"""What counts as a line too wide for the screen (#14 item 3), shared by the tests of the CLI's text."""

from __future__ import annotations

import unicodedata

from dianli.cli.common import display_width

TAB = 8


def shown(line: str) -> int:
    """Columns ``line`` takes in a terminal: a wide character two (display_width), a tab to the next stop."""
    column = 0
    for part in line.split("\t")[:-1]:
        column = ((column + display_width(part)) // TAB + 1) * TAB
    return column + display_width(line.split("\t")[-1])


def unbreakable(token: str) -> bool:
    """A token with no place to break: no space and no wide character (an address, a path, an id)."""
    return not any(unicodedata.east_asian_width(c) in "WF" for c in token)


def too_wide(output: str, width: int) -> list[str]:
    """The lines of ``output`` wider than ``width`` columns, except one that holds a single unbreakable
    token itself wider than the width (it can only stand alone)."""
    return [
        line
        for line in output.splitlines()
        if shown(line) > width
        and not (len(line.split()) == 1 and unbreakable(line.strip()) and shown(line.strip()) > width)
    ]
