from __future__ import annotations

import json
from pathlib import Path

import pytest
from icalendar import Calendar
from typer.testing import CliRunner

from dianli.cli import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("arg", "expected"),
    [
        ("1752-03-16", "乾隆十七年二月初一"),
        ("乾隆十七年二月初一", "1752-03-16"),
        ("順治二年閏六月初一", "1645-07-23"),
        ("1679-05-21", "小滿"),
        ("萬曆四十五年正月初一", "1617-02-06"),
        ("天聰三年二月初一", "1629-02-23"),
        ("1617-02-06", "萬曆四十五年正月初一"),
        ("永曆十六年四月十五日", "康熙元年四月十五"),
        ("1500-01-01", "Julian 1499-12-23) = 弘治十二年十一月廿一"),
        ("民國六年二月六日", "1917-02-06"),
    ],
)
def test_date_both_ways(arg: str, expected: str) -> None:
    result = runner.invoke(app, ["date", arg])
    assert result.exit_code == 0, result.output
    assert expected in result.output


def test_date_json() -> None:
    result = runner.invoke(app, ["date", "1752-03-20", "--format", "json"])
    data = json.loads(result.output)
    assert data["day_ganzhi"] == "丁酉" and data["source"] == "almanac table"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["date", "0500-01-01"], "0500"),  # before any era of the data
        (["date", "永曆三十八年正月初一"], "1..37"),  # 永曆 ended with the 鄭 surrender in 1683
        (["date", "萬曆四十五年正月三十"], "1..29"),
        (["date", "乾隆十七年二月丁巳朔"], "癸巳"),
        (["date", "乾隆十七年閏五月初一"], "閏五月"),
        (["calendar", "1752", "--place", "北京"], "北京"),
        (["calendar", "1500"], "1500"),
        (["calendar", "1752", "--rite", "nope"], "nope"),
    ],
)
def test_bad_input_exits_2(args: list[str], fragment: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert fragment in result.output


def test_calendar_taiwan_1752(tmp_path: Path) -> None:
    ics = tmp_path / "taiwan.ics"
    result = runner.invoke(
        app, ["calendar", "1752", "--place", "臺灣府", "--ics", str(ics)], env={"COLUMNS": "220"}
    )
    assert result.exit_code == 0, result.output
    for fragment in (
        "乾隆十七年二月初五",
        "祀先師禮",  # rites and witnesses by name, never by id (#14)
        "almanac table",
        "assumption",
        "臺灣府志",
        "詣萬壽亭慶賀萬壽聖節、正旦、冬至禮",
    ):
        assert fragment in result.output
    events = Calendar.from_ical(ics.read_bytes()).walk("VEVENT")
    assert len(events) > 50


def test_calendar_range_json() -> None:
    result = runner.invoke(
        app,
        [
            "calendar",
            "--from",
            "1750",
            "--to",
            "1752",
            "-p",
            "fuzhou",
            "-r",
            "sheji",
            "--no-related",
            "-f",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [r["year"] for r in data] == [1750, 1750, 1751, 1751, 1752, 1752]


def test_a_day_given_by_the_authority() -> None:
    result = runner.invoke(
        app, ["calendar", "1752", "-r", "gengji", "--day", "gengji=1752-04-02", "-f", "json"]
    )
    data = json.loads(result.output)
    assert any(r["date"] == "1752-04-02" and r["rite"] == "gengji" for r in data)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--day", "nope=1752-04-02"], "gengji=YYYY-MM-DD"),
        (["--day", "gengji"], "gengji=YYYY-MM-DD"),
        (["--from", "1750", "--to", "1752", "--day", "gengji=1752-04-02"], "a single YEAR"),
    ],
)
def test_a_bad_authority_day_names_the_accepted_keys(args: list[str], message: str) -> None:
    year = [] if "--from" in args else ["1752"]
    result = runner.invoke(app, ["calendar", *year, "-r", "gengji", *args])
    assert result.exit_code == 2 and message in result.output


def test_date_with_place_gives_local_term_time() -> None:
    result = runner.invoke(app, ["date", "1752-02-04", "--place", "臺灣府"])
    assert result.exit_code == 0, result.output
    assert "立春" in result.output and "臺灣府" in result.output and "+15.1 min" in result.output


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["date", "2016-05-01"], ["丙申年三月廿五", "丙申年 (2016)"]),
        (["date", "2016-05-01", "--place", "福州"], ["丙申年三月廿五", "丙申年 (2016)"]),
        (["date", "2016-05-01", "--place", "臺灣府"], ["丙申年三月廿五", "民國一百〇五年 丙申 (2016)"]),
        (["date", "1916-03-04", "--place", "福州"], ["民國五年 丙辰 (1916)"]),
        (["date", "1916-03-04", "--place", "臺灣府"], ["丙辰年 (1916)", "Japanese rule"]),
    ],
)
def test_date_names_the_year_by_place(args: list[str], fragments: list[str]) -> None:
    """After 1911: 干支 and Gregorian number, 民國 only where that calendar was in use."""
    result = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    for fragment in fragments:
        assert fragment in result.output
    if "臺灣府" not in args or "1916-03-04" in args:
        assert "民國一百〇五年 丙申" not in result.output


def test_date_json_of_a_ming_day() -> None:
    result = runner.invoke(app, ["date", "萬曆四十五年正月初一", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["date"] == "1617-02-06" and data["day_ganzhi"] == "丁卯"
    assert data["written"]["read_as"] == "萬曆四十五年正月初一"
    assert {n["label"] for n in data["namings"]} == {"萬曆四十五年正月初一", "天命二年正月初一"}


# --- a day's answer kept in the on-disk cache --------------------------------------------------------


@pytest.mark.usefixtures("stable_package")
@pytest.mark.parametrize(
    "args",
    [
        ["date", "乾隆十七年二月初一"],
        ["date", "乾隆十七年二月初一", "--format", "json"],
        ["date", "1752-03-20", "--place", "臺灣府"],  # a solar term, its local time
        ["date", "1950-04-05", "--place", "臺灣府", "-f", "json"],  # after the Qing, named as at the place
        ["date", "永曆十六年四月十五日"],
        ["date", "1500-01-01", "-f", "json"],  # before the almanac: the Ming calendar
    ],
)
def test_a_kept_day_prints_what_a_cold_run_prints(
    args: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The second run reads the answer the first kept (nothing is computed: ``day_view`` would fail), and
    prints exactly what a run with the cache off prints."""
    from dianli import cache
    from dianli.cli import date_view

    monkeypatch.setenv("DIANLI_CACHE_DIR", "off")
    off = runner.invoke(app, args)
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path))
    cold = runner.invoke(app, args)
    cache.flush()  # written at the end of a process; here, now
    assert list((tmp_path / cache.DERIVED).rglob("*.pickle"))

    def computed(*_: object) -> date_view.DayView:
        raise AssertionError("the day was computed although it is kept")

    monkeypatch.setattr(date_view, "day_view", computed)
    warm = runner.invoke(app, args)
    assert off.exit_code == cold.exit_code == warm.exit_code == 0, warm.output
    assert warm.output == cold.output == off.output


def test_a_refused_day_is_not_kept(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from dianli import cache
    from dianli.cli import date_view
    from dianli.errors import DianliError

    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path))
    with pytest.raises(DianliError, match="閏五月"):
        date_view.kept_day_view("乾隆十七年閏五月初一", None)
    cache.flush()
    made = date_view.DayView(("made now",), {})
    monkeypatch.setattr(date_view, "day_view", lambda *_: made)
    assert date_view.kept_day_view("乾隆十七年閏五月初一", None) is made  # nothing was kept for it
