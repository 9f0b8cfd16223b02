"""An iCalendar subscription: the days of a place's rites (or of one rite) around today, for a phone.

A subscription URL names a place, optionally a rite and a practice profile, and no year: each time a
calendar application fetches it, the feed holds the entries of the years around the day of the request
(:data:`YEARS_BEFORE` before, :data:`YEARS_AFTER` after, within the commands' range), so the same URL
keeps giving the coming days. The entries are those of :func:`dianli.rites.observances.observances_for`
(after 1911: computed on China Standard Time, or a practice's), one all-day event each, saying where its
date comes from; a given year gives that year only (the download of the calendar page).
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from urllib.parse import urlencode

from dianli.errors import OutOfRangeError
from dianli.places.places import get_place
from dianli.rites.export import to_ical
from dianli.rites.observances import Occurrence, observances_for
from dianli.rites.resolve import FIRST_YEAR, LAST_YEAR, QING_LAST_YEAR, find_rite

YEARS_BEFORE = 1
YEARS_AFTER = 2
STAMP = datetime(2000, 1, 1, tzinfo=UTC)
"""The DTSTAMP of every event: fixed, so the same request gives the same bytes (cacheable, testable)."""


def subscription_years(today: date) -> tuple[int, ...]:
    """The years a subscription fetched on ``today`` holds."""
    first = max(FIRST_YEAR, today.year - YEARS_BEFORE)
    last = min(LAST_YEAR, today.year + YEARS_AFTER)
    if first > last:
        raise OutOfRangeError("date of the request", today.isoformat(), f"a day of {FIRST_YEAR}..{LAST_YEAR}")
    return tuple(range(first, last + 1))


def subscription_query(place: str, rite: str | None = None, practice: str | None = None) -> str:
    """The query string of the subscription URL (``place=…&rite=…``), ids only so it stays stable."""
    params = {"place": place}
    if rite:
        params["rite"] = find_rite(rite)
    if practice:
        params["practice"] = practice
    return urlencode(params)


def calendar_feed(
    place: str,
    rite: str | None = None,
    practice: str | None = None,
    year: int | None = None,
    today: date | None = None,
) -> tuple[bytes, str]:
    """(the iCalendar bytes, a file name) of the entries of ``place`` (one ``rite`` or all) in ``year``, or,
    without a year, in the subscription years around ``today`` (default: the current UTC day)."""
    years = (year,) if year is not None else subscription_years(today or datetime.now(UTC).date())
    rites = [find_rite(rite)] if rite else None
    entries: list[Occurrence] = []
    for y in years:
        if not FIRST_YEAR <= y <= LAST_YEAR:
            raise OutOfRangeError("year", y, f"{FIRST_YEAR}..{LAST_YEAR}")
        # up to 1911 a name means the unit that bore it that year; after, the name as asked (what it means
        # then is the resolver's decision: the unit of its last Qing year, or a practice that stands for it)
        where = get_place(place, y).id if y <= QING_LAST_YEAR else place
        entries.extend(observances_for(where, y, rites, practice=practice))
    unit = get_place(place, min(years[0], QING_LAST_YEAR))
    span = f"{years[0]}" if len(years) == 1 else f"{years[0]}-{years[-1]}"
    name = "-".join(x for x in ("dianli", unit.id, rites[0] if rites else "", practice or "", span) if x)
    return to_ical(entries, unit, stamp=STAMP), f"{name}.ics"
