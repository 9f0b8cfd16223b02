from __future__ import annotations

import pytest

from dianli.calendar.lunisolar import to_chinese
from dianli.places.places import all_places
from dianli.places.regions import place_chinese_date_label, place_region, place_year_name


@pytest.mark.parametrize(
    ("place", "region"),
    [
        ("臺灣府", "taiwan"),
        ("鳳山縣", "taiwan"),
        ("澎湖廳", "taiwan"),
        ("福州府", "mainland"),
        ("汀州府", "mainland"),
    ],
)
def test_place_region(place: str, region: str) -> None:
    assert place_region(place) == region


def test_every_unit_ceded_in_1895_is_in_taiwan() -> None:
    for place in all_places():
        assert (place_region(place) == "taiwan") == (place.ended_by is not None)


@pytest.mark.parametrize(
    ("year", "place", "label"),
    [
        (2016, "福州府", "丙申年 (2016)"),
        (2016, "臺灣府", "民國一百〇五年 丙申 (2016)"),
        (1930, "福州府", "民國十九年 庚午 (1930)"),
        (1930, "臺灣府", "庚午年 (1930)"),
        (1752, "臺灣府", "乾隆十七年 壬申 (1752)"),
        (2016, None, "丙申年 (2016)"),
    ],
)
def test_place_year_name(year: int, place: str | None, label: str) -> None:
    assert place_year_name(year, place).label == label


def test_place_chinese_date_label() -> None:
    from datetime import date

    assert place_chinese_date_label(to_chinese(date(1752, 3, 16)), "臺灣府") == "乾隆十七年二月初一"
    assert place_chinese_date_label(to_chinese(date(2025, 3, 1)), "臺灣府") == "乙巳年二月初二"
