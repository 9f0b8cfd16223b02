from __future__ import annotations

from datetime import date

import pytest

from dianli.calendar.lunisolar import to_chinese
from dianli.calendar.year_names import chinese_date_label, region_for, regions, year_name
from dianli.errors import OutOfRangeError, UnknownValueError


@pytest.mark.parametrize(
    ("year", "region", "label", "in_note"),
    [
        (1752, "mainland", "乾隆十七年 壬申 (1752)", ""),
        (1752, "taiwan", "乾隆十七年 壬申 (1752)", ""),
        (1895, "taiwan", "光緒二十一年 乙未 (1895)", ""),  # the year of the cession keeps its Qing name
        (1896, "taiwan", "丙申年 (1896)", "Japanese rule"),
        (1911, "taiwan", "辛亥年 (1911)", "Japanese rule"),
        (1911, "mainland", "宣統三年 辛亥 (1911)", ""),
        (1912, "mainland", "民國元年 壬子 (1912)", "民國紀年"),
        (1916, "taiwan", "丙辰年 (1916)", "Japanese rule"),
        (1944, "taiwan", "甲申年 (1944)", "Japanese rule"),
        (1945, "taiwan", "民國三十四年 乙酉 (1945)", "1945"),
        (1949, "mainland", "民國三十八年 己丑 (1949)", "1949"),
        (1950, "mainland", "庚寅年 (1950)", "公元"),
        (2016, "mainland", "丙申年 (2016)", "公元"),
        (2016, "taiwan", "民國一百〇五年 丙申 (2016)", "Taiwan from 1945"),
        (2100, "taiwan", "民國一百八十九年 庚申 (2100)", ""),
    ],
)
def test_year_name(year: int, region: str, label: str, in_note: str) -> None:
    name = year_name(year, region)
    assert name.label == label
    assert in_note in name.note
    if name.note:
        assert name.sources, "every period cites its source"


def test_no_min_guo_on_the_mainland_after_1949() -> None:
    assert all(year_name(y, "mainland").era_year is None for y in range(1950, 2101))
    assert all((year_name(y, "taiwan").era_year or "").startswith("民國") for y in range(1945, 2101))


@pytest.mark.parametrize(
    ("day", "region", "label"),
    [
        (date(1752, 3, 16), "taiwan", "乾隆十七年二月初一"),
        (date(2016, 5, 1), "mainland", "丙申年三月廿五"),
        (date(2016, 5, 1), "taiwan", "丙申年三月廿五"),  # a 民國 year is Gregorian: the lunar year by 干支
        (date(1900, 3, 1), "taiwan", "庚子年二月初一"),
        (date(1900, 3, 1), "mainland", "光緒二十六年二月初一"),
    ],
)
def test_chinese_date_label(day: date, region: str, label: str) -> None:
    assert chinese_date_label(to_chinese(day), region) == label


def test_regions_from_the_place_data() -> None:
    assert set(regions()) == {"mainland", "taiwan"}
    assert region_for(None) == "mainland"
    assert region_for("shimonoseki-1895") == "taiwan"
    assert region_for("some-other-event") == "mainland"


def test_bad_region_and_year() -> None:
    with pytest.raises(UnknownValueError) as caught:
        year_name(2016, "korea")
    assert "mainland" in str(caught.value)
    with pytest.raises(OutOfRangeError):
        year_name(1500, "mainland")
