from __future__ import annotations

from datetime import date

import pytest

from dianli.calendar.ganzhi import (
    Element,
    Polarity,
    Sexagenary,
    branch_element,
    branch_polarity,
    day_sexagenary,
    month_sexagenary,
    nayin,
    parse_sexagenary,
    stem_element,
    stem_polarity,
    year_sexagenary,
)
from dianli.errors import UnknownValueError


@pytest.mark.parametrize(
    ("day", "name"),
    [
        (date(2000, 1, 1), "戊午"),
        (date(1752, 3, 16), "癸巳"),
        (date(1752, 3, 20), "丁酉"),
        (date(1679, 5, 21), "丙子"),  # 「十二日丙子巳初初刻一分小滿」 in the 康熙十八年 almanac
        (date(1912, 2, 18), "甲子"),
    ],
)
def test_day(day: date, name: str) -> None:
    assert day_sexagenary(day).name == name


@pytest.mark.parametrize(("year", "name"), [(1644, "甲申"), (1752, "壬申"), (1911, "辛亥"), (1984, "甲子")])
def test_year(year: int, name: str) -> None:
    assert year_sexagenary(year).name == name


@pytest.mark.parametrize(
    ("year", "month", "name"),
    [(1752, 1, "壬寅"), (1752, 2, "癸卯"), (1984, 1, "丙寅"), (1985, 1, "戊寅"), (1752, 11, "壬子")],
)
def test_month(year: int, month: int, name: str) -> None:
    assert month_sexagenary(year, month).name == name


@pytest.mark.parametrize(
    ("name", "nayin_name", "element"),
    [
        ("甲子", "海中金", Element.METAL),
        ("丙寅", "爐中火", Element.FIRE),
        ("壬申", "劍鋒金", Element.METAL),
        ("癸亥", "大海水", Element.WATER),
    ],
)
def test_nayin(name: str, nayin_name: str, element: Element) -> None:
    value = nayin(parse_sexagenary(name))
    assert (value.name, value.element) == (nayin_name, element)


@pytest.mark.parametrize(
    ("stem", "element", "polarity"),
    [
        ("甲", Element.WOOD, Polarity.YANG),
        ("丁", Element.FIRE, Polarity.YIN),
        ("戊", Element.EARTH, Polarity.YANG),
        ("癸", Element.WATER, Polarity.YIN),
    ],
)
def test_stems(stem: str, element: Element, polarity: Polarity) -> None:
    assert stem_element(stem) == element and stem_polarity(stem) == polarity


@pytest.mark.parametrize(
    ("branch", "element", "polarity"),
    [
        ("子", Element.WATER, Polarity.YANG),
        ("辰", Element.EARTH, Polarity.YANG),
        ("巳", Element.FIRE, Polarity.YIN),
        ("酉", Element.METAL, Polarity.YIN),
    ],
)
def test_branches(branch: str, element: Element, polarity: Polarity) -> None:
    assert branch_element(branch) == element and branch_polarity(branch) == polarity


def test_cycle_round_trip() -> None:
    for i in range(60):
        value = Sexagenary(i)
        assert parse_sexagenary(value.name) == value


@pytest.mark.parametrize("bad", ["甲丑", "子甲", "", "ab"])
def test_bad_names(bad: str) -> None:
    with pytest.raises(UnknownValueError):
        parse_sexagenary(bad)
