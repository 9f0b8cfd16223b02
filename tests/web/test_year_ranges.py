"""One range of years per page, the same the CLI states: a page's year field offers exactly the years the
route accepts (#14 item 8)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from dianli.places.places import year_range as place_year_range
from dianli.rites.years import CALENDAR_LAST_YEAR
from dianli.rites.years import FIRST_YEAR as RITE_FIRST_YEAR
from dianli.rites.years import LAST_YEAR as RITE_LAST_YEAR
from dianli.spring_ox.figure import FIRST_YEAR as SPRING_OX_FIRST_YEAR
from dianli.spring_ox.figure import LAST_YEAR as SPRING_OX_LAST_YEAR
from dianli.web.app import app

client = TestClient(app)


@pytest.mark.parametrize(
    ("url", "first", "last"),
    [
        ("/spring-ox?year=1752", SPRING_OX_FIRST_YEAR, SPRING_OX_LAST_YEAR),
        ("/rites", RITE_FIRST_YEAR, RITE_LAST_YEAR),
        ("/calendar?place=臺灣府&year=1752", RITE_FIRST_YEAR, CALENDAR_LAST_YEAR),
        ("/places?year=1752", *place_year_range()),
    ],
)
def test_the_year_field_offers_the_accepted_range(url: str, first: int, last: int) -> None:
    page = client.get(url)
    assert page.status_code == 200
    field = re.search(r'<input[^>]*type="number"[^>]*min="(\d+)" max="(\d+)"', page.text)
    assert field is not None, url
    assert (int(field.group(1)), int(field.group(2))) == (first, last)


@pytest.mark.parametrize(
    ("year", "status"),
    [(SPRING_OX_FIRST_YEAR, 200), (2150, 200), (SPRING_OX_LAST_YEAR, 200), (SPRING_OX_LAST_YEAR + 1, 400)],
)
def test_the_spring_ox_page_takes_the_years_the_cli_takes(year: int, status: int) -> None:
    page = client.get("/spring-ox", params={"year": year})
    assert page.status_code == status
    if status != 200:
        assert f"{SPRING_OX_FIRST_YEAR}..{SPRING_OX_LAST_YEAR}" in page.text
