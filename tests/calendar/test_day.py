"""calendar/day: one day described — its Chinese date, and the solar term that falls on it, if one does."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from dianli.calendar.day import describe_day
from dianli.calendar.solar_terms import solar_terms


@pytest.mark.parametrize(
    ("day", "term", "chinese"),
    [
        (date(1752, 3, 16), None, "乾隆十七年二月初一"),
        (date(1752, 3, 20), "春分", "乾隆十七年二月初五"),
        (date(1752, 2, 4), "立春", "乾隆十六年十二月二十"),
        (date(1950, 4, 5), "清明", "民國三十九年二月十九"),  # computed, after the almanac
        (date(1950, 4, 4), None, "民國三十九年二月十八"),
    ],
)
def test_a_day_and_its_term(day: date, term: str | None, chinese: str) -> None:
    info = describe_day(day)
    assert (info.solar_term.name if info.solar_term else None) == term
    assert info.chinese_date.label == chinese


@pytest.mark.parametrize("year", [1645, 1752, 1911, 1950])
def test_the_term_of_every_day_is_the_one_whose_day_it_is(year: int) -> None:
    """Every day of a year (the almanac's years and computed ones): the term is the year's term of that day,
    with its instant, or none."""
    terms = {t.day: t for t in solar_terms(year)}
    day = date(year, 1, 1)
    while day.year == year:
        assert describe_day(day).solar_term == terms.get(day), day
        day += timedelta(days=1)
