from __future__ import annotations

import itertools
from datetime import date

import pytest

from dianli.calendar.lunisolar import DateSource
from dianli.calendar.solar_terms import solar_term, solar_terms
from dianli.calendar.term_names import SOLAR_TERMS
from dianli.errors import UnknownValueError


@pytest.mark.parametrize(
    ("year", "name", "day"),
    [
        (1752, "立春", date(1752, 2, 4)),
        (1752, "冬至", date(1752, 12, 21)),
        (1752, "霜降", date(1752, 10, 23)),
        (1679, "小滿", date(1679, 5, 21)),  # the almanac's day, not the modern 20th
        (2023, "春分", date(2023, 3, 21)),
        (2023, "小满", date(2023, 5, 21)),  # simplified names accepted
    ],
)
def test_term_days(year: int, name: str, day: date) -> None:
    assert solar_term(year, name).day == day


def test_order_and_sources() -> None:
    terms = solar_terms(1800)
    assert [t.name for t in terms] == list(SOLAR_TERMS)
    assert all(a.day < b.day for a, b in itertools.pairwise(terms))
    assert terms[0].source is DateSource.ALMANAC and solar_terms(1950)[0].source is DateSource.COMPUTED
    assert [t.principal for t in terms[:3]] == [False, True, False]


def test_instant_is_near_the_day() -> None:
    term = solar_term(2023, "春分")
    assert abs(term.jd_utc - 2460024.3918) < 0.001  # 2023-03-20 21:24 UT = 05:24 Beijing time


def test_unknown_term() -> None:
    with pytest.raises(UnknownValueError) as err:
        solar_term(1752, "春節")
    assert "立春" in str(err.value)
