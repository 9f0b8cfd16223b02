"""``dianli timeline``, run as a user runs it."""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from pathlib import Path
from xml.etree import ElementTree as etree

import pytest
from typer.testing import CliRunner

from dianli.cli import app

runner = CliRunner()


def _width(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["timeline", "--place", "諸羅縣"],
            [
                "諸羅縣: the dates",  # names, not ids (#14)
                "諸羅縣志 1684–1741",
                "1715",
                "康熙五十四年",
                "知县周锺瑄",
                "1742",
                "臺灣府志",
            ],
        ),
        (
            ["timeline", "--witness", "taiwan-xianzhi-6"],
            ["1712-03-10", "康熙五十一年二月初四", "1200-04-30", "Julian calendar 1200-04-23"],
        ),
        (["timeline", "--witness", "gemalan-tingzhi-3"], ["1488", "明 弘治元年", "宏治元年", "宏 for 弘"]),
        (
            ["timeline", "--witness", "penghu-jilue-2", "--from", "1600", "--until", "1700"],
            ["1624-08-14…", "天啟四年七月"],
        ),
    ],
)
def test_timeline_text(args: list[str], expected: list[str]) -> None:
    result = runner.invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    for fragment in expected:
        assert fragment in result.output
    assert max(_width(line) for line in result.output.splitlines()) <= 80


def test_the_years_are_in_order_and_within_the_range() -> None:
    result = runner.invoke(app, ["timeline", "--place", "諸羅縣", "--from", "1700", "--until", "1720"])
    years = [int(line.split()[0]) for line in result.output.splitlines() if line[:5].strip().isdigit()]
    assert years and years == sorted(years) and all(1700 <= y <= 1720 for y in years)


def test_json_and_csv() -> None:
    data = json.loads(runner.invoke(app, ["timeline", "--place", "諸羅縣", "--format", "json"]).output)
    assert [g["witness"] for g in data["governing"]] == ["zhuluo-xianzhi-4", "taiwan-fuzhi-9"]
    first = next(e for e in data["events"] if e["chinese_text"] == "康熙五十四年")
    assert (first["gregorian_year"], first["dynasty"], first["witness"]) == (1715, "qing", "zhuluo-xianzhi-4")
    rows = list(csv.DictReader(io.StringIO(runner.invoke(app, ["timeline", "--format", "csv"]).output)))
    assert (
        len(rows) == len(runner.invoke(app, ["timeline", "--format", "json"]).output.split('"era_date"')) - 1
    )
    assert {"gregorian_date", "quote", "witness", "section", "dynasty"} <= set(rows[0])


def test_svg(tmp_path: Path) -> None:
    target = tmp_path / "timeline.svg"
    result = runner.invoke(app, ["timeline", "--place", "諸羅縣", "--svg", str(target)])
    assert result.exit_code == 0, result.output
    svg = etree.fromstring(target.read_text(encoding="utf-8"))
    titles = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}title")]
    assert any(t and "康熙五十四年" in t for t in titles)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["timeline", "--place", "火星"], "臺灣省"),
        (["timeline", "--witness", "nowhere"], "zhuluo-xianzhi-4"),
        (["timeline", "--place", "諸羅縣", "--witness", "jinmen-zhi-4"], "taiwan-fuzhi-9"),
    ],
)
def test_bad_input_names_what_is_accepted(args: list[str], needle: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "error" in result.output and needle in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "present", "absent"),
    [
        (
            ["timeline", "--witness", "zhuluo-xianzhi-4"],
            [
                "22 dated events",
                "7 of them with the era carried over from an earlier date",
                "1704             清 〔康熙〕四十三年 · 諸羅縣志 · 祀先師",  # the section by its heading (#14)
                "「四十三年，县治归诸罗山。」",
                "note: era carried over from 康熙二十五年: the text writes only 四十三年",
                "是年〔康熙四十八年〕",
            ],
            [],
        ),
        (
            ["timeline", "--witness", "zhuluo-xianzhi-4", "--explicit-only"],
            ["15 dated events", "康熙五十四年"],
            ["〔", "carried", "四十三年，县治"],
        ),
        (
            ["timeline", "--witness", "penghu-tingzhi-2", "--from", "1684", "--until", "1684"],
            ["次年〔康熙二十三年〕", "era carried over from 康熙二十二年: 次年 read as the year after the"],
            [],
        ),
    ],
)
def test_carried_eras_are_marked_and_can_be_left_out(
    args: list[str], present: list[str], absent: list[str]
) -> None:
    result = runner.invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    for fragment in present:
        assert fragment in result.output
    for fragment in absent:
        assert fragment not in result.output
    assert max(_width(line) for line in result.output.splitlines()) <= 80


def test_carried_eras_in_json_csv_and_svg(tmp_path: Path) -> None:
    args = ["timeline", "--witness", "zhuluo-xianzhi-4"]
    events = json.loads(runner.invoke(app, [*args, "--format", "json"]).output)["events"]
    carried = next(e for e in events if e["chinese_text"] == "四十三年")
    assert (carried["era_date"], carried["carry"], carried["era_from"]) == (
        "康熙四十三年",
        "year",
        "康熙二十五年",
    )
    assert carried["notes"][0] == "era carried over from 康熙二十五年: the text writes only 四十三年"
    assert all(
        e["carry"] is None and e["era_from"] is None for e in events if e["chinese_text"].startswith("康熙")
    )
    rows = list(csv.DictReader(io.StringIO(runner.invoke(app, [*args, "--format", "csv"]).output)))
    row = next(r for r in rows if r["chinese_text"] == "四十三年")
    assert (row["carry"], row["era_from"]) == ("year", "康熙二十五年")
    assert row["notes"].startswith("era carried over from 康熙二十五年")
    target = tmp_path / "t.svg"
    assert runner.invoke(app, [*args, "--svg", str(target)]).exit_code == 0
    titles = [
        t.text or ""
        for t in etree.fromstring(target.read_text("utf-8")).iter("{http://www.w3.org/2000/svg}title")
    ]
    assert any("〔康熙〕四十三年" in t and "era carried over from 康熙二十五年" in t for t in titles)
    assert len([t for t in titles if "era carried over" in t]) == 7


def test_an_empty_year_span_is_an_error() -> None:
    from typer.testing import CliRunner

    from dianli.cli import app

    result = CliRunner().invoke(app, ["timeline", "--from", "1900", "--until", "1800"])
    assert result.exit_code == 2 and "1800" in result.output and "1900" in result.output


def test_each_date_names_the_rites_its_clause_states() -> None:
    """From the correspondence table: 鳳山縣's 山川 dates, each in a clause that states 山川 (#25 item 1)."""
    result = runner.invoke(app, ["timeline", "--place", "鳳山縣", "--rite", "山川"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "in a clause that states 祭山川禮" in result.output
    assert "雍正二年奏准：风云雷雨神居中" in result.output
    events = [
        line for line in result.output.splitlines() if re.match(r" ?\d{4} ", line)
    ]  # not a wrapped span
    states = [line for line in result.output.splitlines() if line.strip().startswith("states:")]
    assert events and len(states) == len(events) and all("祭山川禮" in line for line in states)
    data = json.loads(
        runner.invoke(
            app, ["timeline", "--place", "鳳山縣", "--rite", "shanchuan", "--format", "json"]
        ).output
    )
    assert data["rite"] == "shanchuan" and len(data["events"]) == len(events)
    assert all("shanchuan" in e["rites"] and "祭山川禮" in e["rite_names"] for e in data["events"])
    everything = json.loads(runner.invoke(app, ["timeline", "--place", "鳳山縣", "--format", "json"]).output)
    assert len(everything["events"]) > len(events)
    assert any(not e["rites"] for e in everything["events"])  # a date in a clause that states no rite


def test_an_unknown_rite_is_an_error_naming_the_rites() -> None:
    result = runner.invoke(app, ["timeline", "--rite", "火星"])
    assert result.exit_code == 2 and "shanchuan" in result.output and "Traceback" not in result.output
