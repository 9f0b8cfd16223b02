"""Every command of the README tour, laid out for 80 columns and piped, prints no line wider than 80
display columns (#14 item 3): long lines are wrapped, never cut and never left to the terminal. The one
exception is a token without a place to break (an address, a path) itself wider than the width: it stands
alone on its line.

The width is given with ``--width 80`` while ``COLUMNS`` says 200, so a command that measures the terminal
itself instead of following the console's width is caught too."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from tests.test_readme import EXAMPLES, enter_scratch
from tests.widths import shown, too_wide
from typer.testing import CliRunner

from dianli.cli import app

WIDTH = 80
URL = "<https://github.com/kanripo/KR3g0051/blob/8b5522eb0299afbd575f1cb556e972c71c40c42a/KR3g0051_012.txt>"


@pytest.mark.parametrize(
    ("line", "columns"),
    [
        ("a" * 80, 80),
        ("漢" * 41, 82),
        ("笙\t" + "漢" * 37, 82),  # the tab goes to column 8
        ("a\tb\tc", 17),
        ("", 0),
    ],
)
def test_shown_width(line: str, columns: int) -> None:
    assert shown(line) == columns


@pytest.mark.parametrize(
    ("line", "flagged"),
    [
        ("a" * 80, False),
        ("漢" * 40, False),
        ("漢" * 41, True),
        ("    " + URL, False),  # alone, and wider than the width by itself
        ("see " + URL, True),  # not alone
        (" " * 8 + "x" * 75, True),  # fits the width by itself: only its indent pushes it out
        ("漢字" + "x" * 90, True),  # it could break after 漢
        ("笙\t" + "漢" * 37, True),
        ("笙 " + "漢" * 38, False),
    ],
)
def test_what_is_too_wide(line: str, flagged: bool) -> None:
    assert too_wide(f"short\n{line}\n", WIDTH) == ([line] if flagged else [])


@pytest.mark.parametrize("line", EXAMPLES)
def test_no_line_is_wider_than_the_width(line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    enter_scratch(tmp_path, monkeypatch)
    words = shlex.split(line)
    result = CliRunner().invoke(app, ["--width", str(WIDTH), *words[1:]], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    wide = too_wide(result.output, WIDTH)
    assert not wide, f"{len(wide)} lines wider than {WIDTH}, e.g.\n" + "\n".join(wide[:5])
