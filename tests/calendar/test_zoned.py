"""Lunar months and solar terms computed at a meridian: the Korean calendar (UTC+9) and China's (UTC+8).

Published pairs: the 춘기석전 of 성균관 on 2023-02-28 (khf.news, 2023: 「2023년 2월 28일(화) … 춘기 석전이
봉행되었다」, held on 음력 2월 상정일) and on 2021-03-20 (dailywrn.com, 2021-03-21: 「성균관은 20일 … 춘기석전을
봉행했다」); the 제주 향교 on 2010-03-18 (ndsoftnews, 2010-03-16: 「석전대제가 18일(음력 2월 初丁日)」).
"""

from __future__ import annotations

from datetime import date

import pytest

from dianli.calendar.date_rules import StemDayOfMonth
from dianli.calendar.solar_terms import solar_term
from dianli.calendar.zoned import month_start, solar_term_day, stem_day_of_month
from dianli.errors import OutOfRangeError


@pytest.mark.parametrize(
    ("year", "month", "expected"),
    [(2023, 2, date(2023, 2, 28)), (2021, 2, date(2021, 3, 20)), (2010, 2, date(2010, 3, 18))],
)
def test_korean_shangding_matches_published_days(year: int, month: int, expected: date) -> None:
    assert stem_day_of_month(year, month, "丁", 9) == expected


@pytest.mark.parametrize("year", range(1912, 2101, 7))
def test_at_utc8_it_agrees_with_the_chinese_calendar(year: int) -> None:
    """At UTC+8 the computation is the Chinese calendar's (sxtwl), 上丁 of months 2 and 8."""
    for month in (2, 8):
        expected = StemDayOfMonth(kind="stem_day_of_month", month=month, stem="丁").dates(year, {})[0].day
        assert stem_day_of_month(year, month, "丁", 8) == expected


@pytest.mark.parametrize(
    ("year", "month", "utc8", "utc9"),
    [(2040, 8, date(2040, 9, 6), date(2040, 9, 16)), (1909, 8, date(1909, 9, 14), date(1909, 9, 24))],
)
def test_a_new_moon_late_in_the_chinese_day_moves_the_korean_month(
    year: int, month: int, utc8: date, utc9: date
) -> None:
    assert stem_day_of_month(year, month, "丁", 8) == utc8
    assert stem_day_of_month(year, month, "丁", 9) == utc9
    assert month_start(year, month, 9) != month_start(year, month, 8)


def test_a_year_whose_months_the_simple_rule_cannot_number_is_refused() -> None:
    """2033: one month holds the principal terms of two months (the 2033 problem): no guess."""
    with pytest.raises(OutOfRangeError, match="two principal terms"):
        stem_day_of_month(2033, 8, "丁", 8)


@pytest.mark.parametrize("year", [1920, 1966, 2000, 2025, 2077, 2100])
@pytest.mark.parametrize("term", ["小寒", "春分", "夏至", "秋分", "冬至"])
def test_solar_terms_at_utc8_are_the_calendars(year: int, term: str) -> None:
    assert solar_term_day(year, term, 8)[0] == solar_term(year, term).day
