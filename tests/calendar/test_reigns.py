from __future__ import annotations

from datetime import date

import pytest

from dianli.calendar.reigns import (
    chinese_year_of,
    parse_reign_year,
    reign_by_name,
    reign_year,
    reigning_emperor,
)
from dianli.errors import OutOfRangeError, UnknownValueError


@pytest.mark.parametrize(
    ("year", "label"),
    [
        (1644, "順治元年"),
        (1661, "順治十八年"),
        (1662, "康熙元年"),
        (1722, "康熙六十一年"),
        (1735, "雍正十三年"),
        (1736, "乾隆元年"),
        (1752, "乾隆十七年"),
        (1795, "乾隆六十年"),
        (1796, "嘉慶元年"),
        (1875, "光緒元年"),
        (1911, "宣統三年"),
        (1912, "民國元年"),
        (2024, "民國一百一十三年"),
    ],
)
def test_reign_year(year: int, label: str) -> None:
    assert reign_year(year).label == label
    assert parse_reign_year(label).chinese_year == year


@pytest.mark.parametrize(
    ("day", "reign"),
    [
        (date(1735, 10, 7), "雍正"),
        (date(1735, 10, 8), "乾隆"),  # 雍正十三年八月二十三: the year keeps 雍正's name
        (date(1796, 2, 9), "嘉慶"),
        (date(1661, 2, 4), "順治"),
        (date(1661, 2, 5), "康熙"),
        (date(1912, 2, 11), "宣統"),
    ],
)
def test_reigning_emperor(day: date, reign: str) -> None:
    found = reigning_emperor(day)
    assert found is not None and found.name == reign


def test_no_emperor_after_abdication() -> None:
    assert reigning_emperor(date(1912, 2, 12)) is None


@pytest.mark.parametrize("name", ["乾隆", "qianlong", "嘉庆", "光绪"])
def test_reign_names(name: str) -> None:
    assert reign_by_name(name).id in {"qianlong", "jiaqing", "guangxu"}


def test_unknown_reign_lists_accepted() -> None:
    with pytest.raises(UnknownValueError) as err:
        reign_by_name("永曆")
    assert "永曆" in str(err.value) and "乾隆" in str(err.value)


@pytest.mark.parametrize(("reign", "number"), [("乾隆", 61), ("宣統", 4), ("雍正", 0)])
def test_year_out_of_reign(reign: str, number: int) -> None:
    with pytest.raises(OutOfRangeError):
        chinese_year_of(reign, number)


def test_year_before_qing() -> None:
    with pytest.raises(OutOfRangeError) as err:
        reign_year(1500)
    assert "1500" in str(err.value) and "1643" in str(err.value)
