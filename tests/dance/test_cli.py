"""`dianli dance`: text, JSON, HTML and the asymmetry list; bad input exits 2 naming the value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dianli.cli import app

runner = CliRunner()


@pytest.mark.parametrize("movement", ["寧平", "安平", "景平", "chuxian", "亚献"])
def test_text_lists_both_ranks_for_each_character(movement: str) -> None:
    result = runner.invoke(app, ["dance", movement, "--format", "text", "--witness", "fujian-tongzhi-14"])
    assert result.exit_code == 0, result.output
    assert result.output.count("東") >= 32 and result.output.count("西") >= 32


def test_json_holds_every_character_of_every_witness() -> None:
    result = runner.invoke(app, ["dance", "初獻", "--format", "json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert set(data["witnesses"]) == {"fujian-tongzhi-14", "taiwan-fuzhi-9", "tingzhou-fuzhi-11"}
    assert all(len(rows) == 32 for rows in data["witnesses"].values())


def test_asymmetries() -> None:
    result = runner.invoke(app, ["dance", "asymmetries"])
    assert result.exit_code == 0
    assert "爰" in result.output and "蹺籥足" in result.output
    as_json = json.loads(runner.invoke(app, ["dance", "asymmetries", "--format", "json"]).output)
    assert as_json["asymmetries"][0]["index"] == 29


def test_html(tmp_path: Path) -> None:
    out = tmp_path / "ningping.html"
    result = runner.invoke(app, ["dance", "寧平", "--html", str(out), "--no-audio"])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["dance", "迎神"], "迎神"),
        (["dance", "寧平", "--format", "xml"], "xml"),
        (["dance", "寧平", "--witness", "tingzhou-fuzhi"], "tingzhou-fuzhi"),
    ],
)
def test_bad_input_exits_2_and_names_the_value(args: list[str], named: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert named in result.output
