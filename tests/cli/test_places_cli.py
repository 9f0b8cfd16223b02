"""``dianli places``, run as a user runs it."""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from pathlib import Path

import pytest
from tests.widths import too_wide
from typer.testing import CliRunner

from dianli.cli import app
from dianli.cli.common import display_width, wrap
from dianli.cli.places import render_table

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["places", "--year", "1890"], ["臺南府", "hvd_32026", "taiwan-fu-1887", "hvd_32029", "光緒十六年"]),
        (["places", "--year", "1752"], ["諸羅縣", "hvd_40355", "淡水廳", "hvd_40359", "福建通志"]),
        (["places", "--year", "1896"], ["閩縣", "Qing rule ended in 1895", "馬關條約"]),
        (["places"], ["1684–1886", "臺灣府→臺南府", "hvd_40356", "95 units, 120 periods", "GPL-3.0"]),
    ],
)
def test_places_text(args: list[str], expected: list[str]) -> None:
    result = runner.invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    for fragment in expected:
        assert fragment in result.output
    widths = [
        sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
        for line in result.output.splitlines()
    ]
    assert max(widths) <= 80
    assert "…" not in result.output


def test_the_year_1890_lists_both_prefectures_with_their_ids() -> None:
    result = runner.invoke(app, ["places", "--year", "1890", "--format", "csv"])
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO(result.output))}
    assert (rows["taiwan-fu"]["name"], rows["taiwan-fu"]["chgis_id"]) == ("臺南府", "hvd_32026")
    assert (rows["taiwan-fu-1887"]["name"], rows["taiwan-fu-1887"]["chgis_id"]) == ("臺灣府", "hvd_32029")
    assert rows["yunlin"]["parent_name"] == "臺灣府" and rows["taiwan-xian"]["name"] == "安平縣"
    assert "danshui" not in rows


def test_json_carries_the_sources() -> None:
    result = runner.invoke(app, ["places", "--year", "1752", "--format", "json"])
    data = json.loads(result.output)
    units = {u["id"]: u for u in data["units"]}
    assert units["zhanghua"]["parent_source"]["cite"][0]["source"] == "qingshigao-71"
    assert data["qing_rule_ends"][0]["signed"] == "1895-04-17"
    every = json.loads(runner.invoke(app, ["places", "--format", "json"]).output)
    assert {u["id"] for u in every["units"]} >= {"fuzhou", "taiwan-fu-1887"}
    assert [p["name"] for p in next(u for u in every["units"] if u["id"] == "zhuluo")["periods"]] == [
        "諸羅縣",
        "諸羅縣",
        "嘉義縣",
    ]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["places", "--year", "1600"], "1644..1911"),
        (["places", "--year", "1912"], "1644..1911"),
        (["places", "--svg", "x.svg"], "--year"),
        (["places", "--format", "xml"], "xml"),
    ],
)
def test_bad_input_exits_2(args: list[str], fragment: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert fragment in result.output


def test_svg_map(tmp_path: Path) -> None:
    target = tmp_path / "map.svg"
    result = runner.invoke(app, ["places", "--year", "1890", "--svg", str(target), "--format", "csv"])
    assert result.exit_code == 0, result.output
    svg = target.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "臺南府" in svg and "雲林縣" in svg


@pytest.mark.parametrize(
    ("width", "expect_lines"),
    [(80, 3), (30, 5)],
)
def test_tables_wrap_instead_of_cutting(width: int, expect_lines: int) -> None:
    table = render_table(
        ("id", "name", "witness"), [("taiwan-xian-1887", "臺灣縣", "fujian-tongzhi-14")], width
    )
    lines = table.splitlines()
    assert len(lines) == expect_lines
    assert "臺灣縣" in table and "fujian-tongzhi-14" in table
    assert all(display_width(line) <= width for line in lines)


@pytest.mark.parametrize(
    ("text", "width"), [("馬關條約 " * 20, 30), ("a" * 100, 40), ("臺灣全島及所有附屬各島嶼" * 5, 24)]
)
def test_wrap_keeps_every_character(text: str, width: int) -> None:
    """Within the width, except a token with no place to break, wider than the width: it stands alone, whole."""
    lines = wrap(text, width)
    assert too_wide("\n".join(lines), width) == []
    assert "".join(line.strip() for line in lines).replace(" ", "") == text.replace(" ", "")
