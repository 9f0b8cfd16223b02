from __future__ import annotations

import itertools
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dianli.calendar.lunisolar import (
    ChineseDate,
    DateSource,
    chinese_year,
    parse_chinese_date,
    parse_day,
    to_chinese,
    to_gregorian,
)
from dianli.errors import DianliError, OutOfRangeError, UnknownValueError


@pytest.mark.parametrize(
    ("day", "label"),
    [
        (date(1752, 3, 16), "乾隆十七年二月初一"),
        (date(1644, 2, 8), "順治元年正月初一"),
        (date(1645, 7, 23), "順治二年閏六月初一"),
        (date(1662, 2, 18), "康熙元年正月初一"),
        (date(1912, 2, 17), "宣統三年十二月三十"),
        (date(1912, 2, 18), "民國元年正月初一"),
        (date(2024, 2, 10), "民國一百一十三年正月初一"),
    ],
)
def test_both_ways(day: date, label: str) -> None:
    assert to_chinese(day).label == label
    assert parse_day(label) == day
    assert to_gregorian(parse_chinese_date(label)) == day


@pytest.mark.parametrize(
    "text",
    ["乾隆十七年二月初一", "乾隆十七年二月一日", "乾隆17年2月1日", "乾隆十七年二月初一日"],
)
def test_spellings(text: str) -> None:
    assert parse_day(text) == date(1752, 3, 16)


def test_sources() -> None:
    assert chinese_year(1752).source is DateSource.ALMANAC
    assert chinese_year(1644).source is DateSource.ALMANAC
    assert chinese_year(1912).source is DateSource.COMPUTED
    assert chinese_year(1752).calendar_name == "時憲曆"
    assert chinese_year(1667).calendar_name == "大統曆"


def test_year_is_contiguous() -> None:
    for y in range(1644, 2100):
        months = chinese_year(y).months
        assert all(a.end_ordinal == b.first_ordinal for a, b in itertools.pairwise(months))
        assert chinese_year(y).end_ordinal == chinese_year(y + 1).first_ordinal
        assert all(m.length_days in (29, 30) for m in months)
        assert len(months) in (12, 13)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("1500-01-01", OutOfRangeError),  # before 順治元年
        ("永曆三年正月初一", UnknownValueError),  # an unknown reign
        ("乾隆十七年閏五月初一", UnknownValueError),  # a 閏 month that did not exist
        ("乾隆十七年二月三十", OutOfRangeError),  # 二月 of 1752 has 29 days
        ("乾隆七十年正月初一", OutOfRangeError),
        ("1752-02-30", UnknownValueError),
        ("yesterday", UnknownValueError),
    ],
)
def test_bad_input_names_value_and_accepted(text: str, error: type[Exception]) -> None:
    with pytest.raises(error) as err:
        parse_day(text)
    assert "accepted" in str(err.value) or "valid" in str(err.value)


def test_leap_error_lists_months() -> None:
    with pytest.raises(UnknownValueError) as err:
        parse_day("乾隆十七年閏五月初一")
    assert "閏五月" in str(err.value) and "十二月" in str(err.value)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_parser_never_crashes(text: str) -> None:
    try:
        parse_day(text)
    except DianliError:
        pass


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(
        [
            "順治",
            "康熙",
            "雍正",
            "乾隆",
            "嘉慶",
            "嘉庆",
            "道光",
            "咸豐",
            "同治",
            "光緒",
            "宣統",
            "民國",
            "永曆",
            "x",
        ]
    ),
    st.integers(min_value=-2, max_value=130),
    st.booleans(),
    st.integers(min_value=-1, max_value=14),
    st.integers(min_value=-1, max_value=33),
)
def test_chinese_parser_never_crashes(reign: str, year: int, leap: bool, month: int, day: int) -> None:
    text = f"{reign}{year}年{'閏' if leap else ''}{month}月{day}日"
    try:
        parsed = parse_chinese_date(text)
    except DianliError:
        return
    assert isinstance(parsed, ChineseDate)
    assert to_chinese(to_gregorian(parsed)) == parsed


@settings(max_examples=500, deadline=None)
@given(st.dates(min_value=date(1644, 2, 8), max_value=date(2200, 12, 31)))
def test_round_trip(day: date) -> None:
    assert to_gregorian(to_chinese(day)) == day
    assert parse_day(to_chinese(day).label) == day
