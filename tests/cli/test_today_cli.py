"""`rites show`, `program` and `calendar` for any year up to 2100: what the date means, and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dianli.cli import app

runner = CliRunner()


def test_program_2025_at_taiwan_fu_says_how_its_date_was_obtained(tmp_path: Path) -> None:
    args = ["program", "祀先師", "--place", "臺灣府", "--year", "2025", "--season", "autumn"]
    result = runner.invoke(app, [*args, "--format", "json", "--no-audio", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    data = json.loads(Path(result.output.strip()).read_text(encoding="utf-8"))
    assert data["date"]["western"] == "2025-09-28"
    assert data["date"]["source"] == "practice profile"
    assert "9月28日" in data["date"]["rule_text"]
    assert any("tainan-kongmiao" in a and "1894" in a for a in data["assumptions"])


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["rites", "show", "祀先師", "--place", "臺灣府", "--year", "1900"], ["1895", "馬關條約"]),
        (["rites", "show", "祀先師", "--place", "臺灣府", "--year", "1930"], ["1895", "tainan-kongmiao"]),
        (["rites", "show", "祀先師", "--place", "福州", "--year", "2101"], ["1644..2100"]),
        (["calendar", "2025", "--place", "福州", "--practice", "nope"], ["seonggyungwan"]),
        (
            ["program", "祀先師", "--place", "福州", "--year", "2025", "--practice", "tainan-kongmiao"],
            ["臺灣府"],
        ),
    ],
)
def test_clear_errors(args: list[str], needles: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code != 0
    text = " ".join(result.output.split())
    for needle in needles:
        assert needle in text


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["rites", "show", "祀先師", "--place", "福州", "--year", "2025", "--alone"], ["1911", "computed"]),
        (
            [
                "rites",
                "show",
                "祀先師",
                "--place",
                "福州",
                "--year",
                "2025",
                "--practice",
                "seonggyungwan",
                "--alone",
            ],
            ["seonggyungwan"],
        ),
        (
            ["calendar", "2025", "--place", "臺灣府", "--rite", "祀先師", "--no-related"],
            ["2025-09-28", "practice"],
        ),
        (
            ["calendar", "2023", "--place", "福州", "--rite", "xianshi", "--practice", "seonggyungwan"],
            ["2023-02-28", "Asia/Seoul"],
        ),
    ],
)
def test_today_works(args: list[str], needles: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    text = "".join(result.output.split())
    for needle in needles:
        assert "".join(needle.split()) in text
