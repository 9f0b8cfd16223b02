"""cli/common: tables that never cut a word, at any width, in a terminal or piped."""

from __future__ import annotations

import pytest
from rich.console import Console
from rich.table import Table

from dianli.cli.common import display_width, show_table, table_records

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
