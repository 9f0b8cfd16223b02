"""Resolving a rite after the Qing: one year range, what a place means then, and no Qing office invented."""

from __future__ import annotations

import pytest

from dianli.errors import DianliError, OutOfRangeError, QingRuleEndedError, UnknownValueError
from dianli.rites.resolve import FIRST_YEAR, LAST_YEAR, QING_LAST_YEAR, resolve_rite, standing


def test_one_range() -> None:
    assert (FIRST_YEAR, QING_LAST_YEAR, LAST_YEAR) == (1644, 1911, 2100)


@pytest.mark.parametrize(
    ("place", "year", "rite", "practice", "unit", "text_year", "used"),
    [
        ("福州", 1752, "xianshi", None, "fuzhou", 1752, None),
        ("福州", 2025, "xianshi", None, "fuzhou", 1911, None),
        ("汀州府", 2100, "sheji", None, "tingzhou", 1911, None),
        ("臺灣府", 2025, "xianshi", None, "taiwan-fu", 1894, "tainan-kongmiao"),
        ("臺北府", 1990, "xianshi", None, "taibei", 1894, "taipei-kongmiao"),
        ("福州", 2025, "xianshi", "seonggyungwan", "fuzhou", 1911, "seonggyungwan"),
        ("臺南府", 2025, "xianshi", "tainan-kongmiao", "taiwan-fu", 1894, "tainan-kongmiao"),
    ],
)
def test_what_a_place_and_year_mean(
    place: str, year: int, rite: str, practice: str | None, unit: str, text_year: int, used: str | None
) -> None:
    meant = standing(place, year, rite, practice)
    assert (meant.place.id, meant.text_year) == (unit, text_year)
    assert (meant.practice.id if meant.practice else None) == used
    assert (meant.note is None) == (year <= QING_LAST_YEAR and practice is None)


@pytest.mark.parametrize(
    ("place", "year", "rite", "practice", "error", "needles"),
    [
        ("臺灣府", 1900, "xianshi", None, QingRuleEndedError, ["1895", "馬關條約"]),
        ("臺灣府", 1930, "xianshi", None, UnknownValueError, ["1895", "tainan-kongmiao"]),
        ("臺灣府", 2025, "sheji", None, UnknownValueError, ["1895", "sheji", "tainan-kongmiao"]),
        ("福州", 2101, "xianshi", None, OutOfRangeError, ["1644..2100"]),
        ("福州", 2025, "xianshi", "taipei-kongmiao", UnknownValueError, ["臺北府"]),
        ("福州", 2025, "xianshi", "nope", UnknownValueError, ["seonggyungwan"]),
        ("福州", 2019, "xianshi", "seonggyungwan", OutOfRangeError, ["2020"]),
    ],
)
def test_clear_errors(
    place: str, year: int, rite: str, practice: str | None, error: type[DianliError], needles: list[str]
) -> None:
    with pytest.raises(error) as err:
        resolve_rite(rite, place, year, practice=practice)
    for needle in needles:
        assert needle in str(err.value)


def test_after_the_qing_the_years_and_the_note() -> None:
    r = resolve_rite("祀先師", "福州", 2025)
    assert (r.year, r.text_year, r.place.name, r.practice) == (2025, 1911, "福州府", None)
    assert r.note is not None and "1911" in r.note and "computed" in r.note


@pytest.mark.parametrize(
    ("place", "year", "practice", "office_of_zhengxian"),
    [("福州", 2025, None, ""), ("臺灣府", 2025, None, "臺南市長"), ("福州", 2025, "seonggyungwan", "")],
)
def test_no_qing_office_after_the_qing(
    place: str, year: int, practice: str | None, office_of_zhengxian: str
) -> None:
    """The text's functions stay; an office is given only where a practice names today's holder."""
    r = resolve_rite("祀先師", place, year, practice=practice)
    assert r.officiants
    for o in r.officiants:
        assert o.assumption is None
        if o.function == "正獻官":
            assert o.office == office_of_zhengxian
        else:
            assert o.office == ""
            assert o.notes is not None and "after the Qing no office holds it" in o.notes
    qing = resolve_rite("祀先師", place if place != "臺灣府" else "臺南府", 1890)
    assert any(o.office for o in qing.officiants)


def test_the_imperial_rites_have_no_days_after_the_dynasty() -> None:
    assert resolve_rite("慶賀", "福州", 2025).date_rules == ()
    assert resolve_rite("慶賀", "福州", 1900).date_rules
