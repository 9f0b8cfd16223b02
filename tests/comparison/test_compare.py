"""comparison.compare: witnesses compared as values, and ``dianli compare``."""

from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

from dianli.cli.application import app
from dianli.comparison.compare import compare, sentence, slot_label
from dianli.errors import UnknownValueError

DIFFERENCES = [
    # (rite, kind, value of one group, value of another): the differences a reader finds in the texts
    ("litan", "date_rule", "清明前一日", "清明"),  # 噶瑪蘭廳志, 苗栗縣志: 寒食 against 清明
    ("qidao", "date_rule", "霜降前一日", "霜降"),  # 鳳山縣志 against the others
    ("shanchuan", "date_rule", "二月上戊", "二月上巳"),  # 晉江縣志 against the others
    ("xianshi", "hymn", "咸和", "咸平"),  # 臺灣縣志's hymn names before 乾隆
]


@pytest.mark.parametrize(("rite", "kind", "one", "other"), DIFFERENCES)
def test_a_difference_of_value_differs(rite: str, kind: str, one: str, other: str) -> None:
    rows = [r for r in compare(rite, kind=kind) if r.verdict == "differs"]
    assert any(
        any(one in g.values for g in r.groups) and any(other in g.values for g in r.groups) for r in rows
    )


def test_a_subset_of_days_is_not_a_difference() -> None:
    """福建通志 譯文 names 清明 only of the three 厲壇 days: it agrees with the three, not against them."""
    row = next(r for r in compare("litan", kind="date_rule"))
    assert row.relation("fujian-tongzhi-14-modern", "taiwan-fuzhi-9") == "agrees"
    assert row.relation("gemalan-tingzhi-3", "taiwan-fuzhi-9") == "differs"


def test_sentence_names_witnesses_by_title() -> None:
    row = next(r for r in compare("shanchuan", kind="date_rule"))
    line = sentence(row, "jinjiang-xianzhi-15")
    assert line.startswith("晉江縣志: ") and "differs from" in line and "臺灣府志" in line
    assert "jinjiang" not in line


def test_labels_are_words() -> None:
    for row in compare("litan"):
        label = slot_label(row)
        assert label.startswith("祭厲壇禮·") and "[" not in label and "litan" not in label


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [({"rite": "nosuch"}, "rite"), ({"witness": "nosuch"}, "witness"), ({"kind": "colour"}, "kind")],
)
def test_bad_arguments_name_what_is_accepted(kwargs: dict[str, str], name: str) -> None:
    with pytest.raises(UnknownValueError, match=name):
        compare(**kwargs)


runner = CliRunner()


def test_cli_text_fits_80_columns() -> None:
    from dianli.cli.common import display_width

    result = runner.invoke(app, ["--width", "80", "compare", "厲壇"])
    assert result.exit_code == 0, result.output
    assert "清明前一日" in result.output and "DIFFERS" in result.output
    assert max(display_width(line) for line in result.output.splitlines()) <= 80


def test_cli_json_and_csv() -> None:
    result = runner.invoke(app, ["compare", "山川", "--kind", "date_rule", "--format", "json"])
    rows = json.loads(result.output)
    assert rows[0]["verdict"] == "differs" and rows[0]["label"].startswith("祭山川禮")
    result = runner.invoke(app, ["compare", "--statements", "--witness", "jinmen-zhi-4", "--format", "csv"])
    records = list(csv.DictReader(io.StringIO(result.output)))
    assert records and {r["witness"] for r in records} == {"jinmen-zhi-4"} and records[0]["title"] == "金門志"


@pytest.mark.parametrize(
    "args", [["compare", "nosuch"], ["compare", "--kind", "x"], ["compare", "--verdict", "maybe"]]
)
def test_cli_bad_input_exits_2(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_the_public_entry_point_returns_a_table_that_joins() -> None:
    import dianli

    table = dianli.compare("山川", kind="date_rule")
    assert {r["title"] for r in table} >= {"晉江縣志", "臺灣府志"} and table.key == ("slot", "witness")
    assert all(r["verdict"] == "differs" for r in table.differing())
    jinjiang = next(r for r in table if r["witness"] == "jinjiang-xianzhi-15")
    assert jinjiang["values"] == ["二月上戊", "八月上戊"] or set(jinjiang["values"]) == {
        "二月上戊",
        "八月上戊",
    }
    frame = table.to_frame()
    witnesses = dianli.witnesses().to_frame()
    joined = frame.merge(witnesses, left_on="witness", right_on=witnesses.columns[0])
    assert len(joined) == len(frame)


def test_cli_statements_are_listed_in_words() -> None:
    result = runner.invoke(app, ["--width", "80", "compare", "--statements", "--witness", "jinmen-zhi-4"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[1].startswith("金門志 · ") and "·" in lines[1]
    assert not any("chenghuang" in line or "venue[" in line for line in lines)


@pytest.mark.parametrize(
    ("args", "opening"),
    [
        (["compare", "山川", "--kind", "date_rule"], "1 point stated by two witnesses or more: 1 differs,"),
        (["compare", "厲壇"], " points stated by two witnesses or more: "),
    ],
)
def test_cli_counts_read_as_words(args: list[str], opening: str) -> None:
    """「1 point … 1 differs」, never 「1 points … 1 differ」."""
    result = runner.invoke(app, ["--width", "200", *args])
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert opening in first and "1 points" not in first
