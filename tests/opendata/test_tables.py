"""How the rows are chosen: the years of the calendar, and the place and year each reading is resolved at."""

from __future__ import annotations

import re

import pytest

from dianli.errors import OutOfRangeError
from dianli.opendata.tables import DEFAULT_YEARS, reading_context
from dianli.opendata.tables import parse_years as parse_export_years


@pytest.mark.parametrize(
    ("text", "years"),
    [("1752", range(1752, 1753)), ("1750..1752", range(1750, 1753)), (" 1911 ", range(1911, 1912))],
)
def test_years(text: str, years: range) -> None:
    assert parse_export_years(text) == years


@pytest.mark.parametrize("text", ["1643", "1912", "1752..1751", "1752-1753", "", "..1752"])
def test_bad_years(text: str) -> None:
    with pytest.raises(OutOfRangeError, match=re.escape("YEAR or FIRST..LAST within 1644..1911")):
        parse_export_years(text)


def test_the_default_year() -> None:
    assert DEFAULT_YEARS == range(1752, 1753)


@pytest.mark.parametrize(
    ("rite", "witness", "place", "year", "reason"),
    [
        ("sheji", "taiwan-fuzhi-9", "taiwan-fu", 1742, "the place the witness (or its base) was written for"),
        ("sheji", "fujian-tongzhi-14", "fuzhou", 1737, "a unit under the place"),
        (
            "sheji",
            "tingzhou-fuzhi-11",
            "tingzhou",
            1752,
            "the place the witness (or its base) was written for",
        ),
        ("changgong", "taiwan-fuzhi-9", "fuzhou", 1742, "a place the rite is restricted to"),
    ],
)
def test_the_place_and_year_of_a_reading(rite: str, witness: str, place: str, year: int, reason: str) -> None:
    resolved, why = reading_context(rite, witness)
    assert resolved is not None
    assert (resolved.place.id, resolved.year, resolved.witness) == (place, year, witness)
    assert why.startswith(reason) and why.endswith(f"{year}: the year it was compiled")
