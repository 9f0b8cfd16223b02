"""cli/common: tables that never cut a word, at any width, in a terminal or piped."""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from rich.table import Table

from dianli.cli import common
from dianli.cli.common import display_width, say, show_rows, show_table, table_records

LONG = "迎春禮（立春前一日）於東郊 the welcoming of spring at the eastern suburb, read in full"


def _table() -> Table:
    table = Table("date", "Chinese date", "observance", "note", title="福州府 — 2016")
    table.add_row("2016-02-04", "民國一百〇五年正月初一", f"[bold]{LONG}[/]", "")
    table.add_row("2016-02-05", "民國一百〇五年正月初二", "鞭春", "computed")
    return table


def _printed(width: int, terminal: bool) -> str:
    out = Console(width=width, force_terminal=terminal, color_system=None, highlight=False)
    with out.capture() as captured:
        show_table(_table(), out)
    return captured.get()


@pytest.mark.parametrize(
    ("width", "terminal"), [(40, False), (80, False), (80, True), (200, False), (40, True)]
)
def test_no_word_is_cut(width: int, terminal: bool) -> None:
    text = _printed(width, terminal)
    assert "…" not in text
    for line in text.splitlines():
        assert display_width(line) <= width, line
    words = set(text.replace("│", " ").split())
    for word in (
        "民國一百〇五年正月初一",
        "民國一百〇五年正月初二",
        "鞭春",
        "computed",
        "2016-02-05",
        *LONG.split(),
    ):
        assert word in words


@pytest.mark.parametrize(
    ("width", "terminal", "layout"), [(80, False, "records"), (40, True, "records"), (200, True, "table")]
)
def test_layout_chosen(width: int, terminal: bool, layout: str) -> None:
    text = _printed(width, terminal)
    assert ("┃" in text) == (layout == "table")


def test_records_leave_out_empty_cells_and_keep_the_title() -> None:
    lines = table_records(_table(), 80)
    assert lines[0] == "福州府 — 2016"
    assert sum(1 for line in lines if line.startswith("note")) == 1
    assert "date          2016-02-04" in lines


ROWS = [
    ["2016-02-04", "民國一百〇五年正月初一", LONG, ""],
    ["2016-02-05", "民國一百〇五年正月初二", "鞭春", "computed"],
]


@pytest.mark.parametrize("width", [30, 80, 200])
def test_plain_rows_piped_are_the_records_of_the_same_table(
    width: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """:func:`show_rows` prints piped rows as :func:`table_records` prints the table of the same cells."""
    table = Table("date", "Chinese date", "observance", "note", title="福州府 — 2016")
    for row in ROWS:
        table.add_row(*row)
    monkeypatch.setattr(common, "_WIDTH", width)
    show_rows("福州府 — 2016", ["date", "Chinese date", "observance", "note"], ROWS)
    assert capsys.readouterr().out.splitlines() == table_records(table, width)


@pytest.mark.parametrize(
    ("line", "width", "expected"),
    [
        ("  short", 80, ["  short"]),
        (
            "  source: almanac table (時憲曆; a reconstruction)",
            30,
            ["  source: almanac table", "    (時憲曆; a reconstruction)"],
        ),
        ("[1] 迎春禮前一日", 10, ["[1] 迎春禮", "  前一日"]),
        ("", 80, [""]),
    ],
)
def test_say_wraps_under_the_line_s_own_indent(
    line: str,
    width: int,
    expected: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(common, "_WIDTH", width)
    say(line)
    printed = capsys.readouterr().out.splitlines()
    assert printed == expected
    assert all(display_width(p) <= max(width, 10) for p in printed)


@pytest.mark.parametrize(
    ("given", "columns", "expected"),
    [
        (None, "100", 100),
        (None, None, common.DEFAULT_WIDTH),
        (60, "100", 60),
        (None, "wide", common.DEFAULT_WIDTH),
    ],
)
def test_the_width_is_the_option_then_columns_then_80(
    given: int | None, columns: str | None, expected: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Piped (as under pytest): ``--width``, else ``COLUMNS``, else 80 — as rich's console takes it."""
    monkeypatch.setattr(common, "_MADE", {})
    monkeypatch.setattr(common, "_WIDTH", given)
    monkeypatch.setattr(common.os, "get_terminal_size", _no_terminal)
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert common.width() == expected
    if given is None:
        assert Console(color_system=None).width == expected  # rich's own reading of the same settings


def _no_terminal(descriptor: int = 1) -> os.terminal_size:
    raise OSError(25, "Inappropriate ioctl for device")


# --- output_format: the format of an output file is the one its name says ------------------------------

_MUSIC = {
    "wav": (".wav",),
    "flac": (".flac",),
    "svg": (".svg",),
    "columns": (".columns.svg", ".svg"),
    "json": (".json",),
}


@pytest.mark.parametrize(
    ("out", "given", "strict", "expected"),
    [
        (None, None, False, "wav"),
        ("-", None, True, "wav"),
        ("-", "json", True, "json"),
        ("a.flac", None, True, "flac"),
        ("A.FLAC", None, True, "flac"),
        ("dir.v2/a", None, True, "wav"),  # no extension: the default
        ("a.svg", None, True, "svg"),  # an ending two formats share: the first
        ("a.columns.svg", None, True, "columns"),  # the longest ending wins
        ("a.svg", "columns", True, "columns"),  # columns are written as .svg too
        ("a.flac", "flac", True, "flac"),
        ("a.ogg", "wav", True, "wav"),  # an unknown ending with --format: as given
        ("notes.txt", None, False, "wav"),  # not strict: an unknown ending gives the default
        (".hidden", None, True, "wav"),
    ],
)
def test_output_format(out: str | None, given: str | None, strict: bool, expected: str) -> None:
    from dianli.cli.common import output_format

    assert output_format(out, given, _MUSIC, "wav", strict) == expected


@pytest.mark.parametrize(
    ("out", "given", "said"),
    [
        ("a.flac", "wav", "'a.flac' ends in '.flac', a flac file, but --format is 'wav'"),
        ("a.columns.svg", "json", "a columns file, but --format is 'json'"),
        ("a.ogg", None, "'a.ogg' ends in '.ogg', which no format of this command is written as"),
    ],
)
def test_a_name_that_contradicts_the_format_is_refused(out: str, given: str | None, said: str) -> None:
    from dianli.cli.common import output_format
    from dianli.errors import DianliError

    with pytest.raises(DianliError, match=re.escape(said)):
        output_format(out, given, _MUSIC, "wav", strict=True)


@given(st.text(max_size=30), st.sampled_from([None, *_MUSIC]), st.booleans())
def test_output_format_is_a_format_or_a_clear_error(name: str, given: str | None, strict: bool) -> None:
    from dianli.cli.common import output_format
    from dianli.errors import DianliError

    try:
        found = output_format(name, given, _MUSIC, "wav", strict)
    except DianliError as exc:
        assert "accepted:" in str(exc)
        return
    assert found in _MUSIC and (given is None or found == given)
