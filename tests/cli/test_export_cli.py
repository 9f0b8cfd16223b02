"""``dianli export``, run as a user runs it: bad input is a clear error; a whole export is written,
listed table by table and checked."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dianli.cli import app
from dianli.opendata.check import frictionless_problems
from dianli.opendata.schema import TABLES as EXPORT_TABLES

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--format", "xml"], "unknown --format 'xml'; accepted: csv, json"),
        (["--format", "CSV"], "accepted: csv, json"),
        (["--years", "1600"], "YEAR or FIRST..LAST within 1644..1911"),
        (["--years", "1753..1752"], "YEAR or FIRST..LAST"),
        (["--years", "乾隆"], "YEAR or FIRST..LAST"),
    ],
)
def test_bad_input_exits_2(tmp_path: Path, args: list[str], fragment: str) -> None:
    result = runner.invoke(app, ["export", "--out", str(tmp_path / "out"), *args])
    assert result.exit_code == 2
    assert fragment in " ".join(result.output.split())
    assert not (tmp_path / "out").exists()


def test_the_out_folder_is_required() -> None:
    result = runner.invoke(app, ["export"])
    assert result.exit_code == 2 and "--out" in result.output


def test_a_csv_export(tmp_path: Path) -> None:
    result = runner.invoke(app, ["export", "--format", "csv", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"wrote {tmp_path / 'datapackage.json'} (csv, observances of 1752) in ")
    for table in EXPORT_TABLES:
        line = next(x for x in lines if x.split()[:1] == [table.name])
        rows = int(line.split()[1])
        text = (tmp_path / "data" / f"{table.name}.csv").read_text(encoding="utf-8")
        written = list(csv.reader(io.StringIO(text)))  # records, not lines: a reading may hold a line break
        assert rows == len(written) - 1 > 0, table.name
    assert "dianli schema check: valid" in lines
    expected = (
        "frictionless validate: valid"
        if frictionless_problems(tmp_path / "datapackage.json") is not None
        else ("frictionless: not installed (pip install frictionless to validate with it too)")
    )
    assert expected in lines
    assert max(len(x) for x in lines[1:]) <= 80
    assert json.loads((tmp_path / "datapackage.json").read_text(encoding="utf-8"))["name"] == "dianli"
