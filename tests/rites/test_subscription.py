"""The iCal subscription of a place and rite: a stable URL whose feed holds the years around today."""

from __future__ import annotations

import re
from datetime import date

import pytest
from fastapi.testclient import TestClient
from icalendar import Calendar

from dianli.errors import OutOfRangeError, UnknownValueError
from dianli.rites.subscription import calendar_feed, subscription_query, subscription_years
from dianli.web.app import app

client = TestClient(app)


@pytest.mark.parametrize(
    ("today", "years"),
    [
        (date(2026, 12, 1), (2025, 2026, 2027, 2028)),
        (date(2099, 6, 1), (2098, 2099, 2100)),
        (date(1644, 3, 1), (1644, 1645, 1646)),
    ],
)
def test_subscription_years(today: date, years: tuple[int, ...]) -> None:
    assert subscription_years(today) == years


def test_a_day_outside_the_range_is_refused() -> None:
    with pytest.raises(OutOfRangeError):
        subscription_years(date(2300, 1, 1))


def _events(body: bytes) -> dict[str, str]:
    """DTSTART (YYYYMMDD) → SUMMARY of every event."""
    cal = Calendar.from_ical(body)
    return {e.decoded("dtstart").strftime("%Y%m%d"): str(e.get("summary")) for e in cal.walk("VEVENT")}


@pytest.mark.parametrize(
    ("place", "rite", "practice", "today", "day", "summary_part"),
    [
        ("taiwan-fu", "xianshi", None, date(2026, 1, 1), "20250928", "臺南孔子廟"),
        ("臺灣府", "祀先師", None, date(2026, 1, 1), "20270928", "秋祭"),
        ("福州", "xianshi", None, date(2026, 1, 1), "20250925", "仲秋上丁"),
        ("福州", "xianshi", "seonggyungwan", date(2024, 1, 1), "20230228", "춘기석전"),
    ],
)
def test_feed_holds_the_days_around_today(
    place: str, rite: str, practice: str | None, today: date, day: str, summary_part: str
) -> None:
    body, name = calendar_feed(place, rite, practice, today=today)
    events = _events(body)
    assert summary_part in events[day]
    assert name.endswith(".ics") and "xianshi" in name


def test_one_year_is_a_download() -> None:
    body, name = calendar_feed("臺灣府", None, None, year=1752)
    assert name == "dianli-taiwan-fu-1752.ics"
    assert "17520320" in _events(body)


def test_the_query_names_ids_only() -> None:
    assert subscription_query("taiwan-fu", "祀先師") == "place=taiwan-fu&rite=xianshi"
    with pytest.raises(UnknownValueError):
        subscription_query("taiwan-fu", "nope")


def test_the_route_serves_a_subscription() -> None:
    response = client.get("/calendar.ics?place=taiwan-fu&rite=xianshi")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/calendar")
    assert response.headers["content-disposition"].startswith("inline")
    assert _events(response.content)


def test_the_calendar_page_offers_webcal_links() -> None:
    page = client.get("/calendar?place=臺灣府&year=1752").text
    links = re.findall(r'href="(webcal://[^"]+)"', page)
    assert "webcal://testserver/calendar.ics?place=taiwan-fu" in links
    assert "webcal://testserver/calendar.ics?place=taiwan-fu&amp;rite=xianshi" in links


@pytest.mark.parametrize(
    ("url", "status", "needle"),
    [
        ("/calendar.ics?place=福州&rite=nope", 400, "xianshi"),
        ("/calendar.ics?place=福州&practice=nope", 400, "seonggyungwan"),
        ("/calendar?place=臺灣府&year=1900", 400, "1895"),
        ("/calendar?place=臺灣府&year=2025", 200, "臺南孔子廟"),
    ],
)
def test_calendar_routes(url: str, status: int, needle: str) -> None:
    response = client.get(url)
    assert response.status_code == status
    assert needle in response.text
