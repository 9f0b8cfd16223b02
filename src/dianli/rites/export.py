"""Calendars out: plain records (for JSON) and iCalendar (RFC 5545, via the ``icalendar`` library)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from dianli import __version__
from dianli.places.places import Place
from dianli.places.regions import place_chinese_date_label
from dianli.rites.observances import Occurrence

JsonValue = str | int | float | bool | None | list["JsonValue"] | dict[str, "JsonValue"]


def occurrence_record(occ: Occurrence, place: Place) -> dict[str, JsonValue]:
    """A JSON-ready record of one calendar entry, saying where its date comes from."""
    return {
        "observance": occ.observance_id,
        "rite": occ.rite,
        "part": occ.part,
        "name": occ.name,
        "place": place.id,
        "date": occ.day.isoformat() if occ.day else None,
        "weekday": occ.weekday,
        "chinese_date": place_chinese_date_label(occ.chinese_date, place) if occ.chinese_date else None,
        "time": occ.time_label,
        "source": occ.source.value if occ.source else "open",
        "assumption": occ.assumption,
        "notes": list(occ.notes),
        "open_reason": occ.open_reason,
        "cite": {"witness": occ.cite.witness, "quote": occ.cite.quote},
    }


def _uid(occ: Occurrence, place: Place) -> str:
    day = occ.day.isoformat() if occ.day else "open"
    return f"{occ.observance_id}.{occ.part or 'rite'}.{place.id}.{day}@dianli"


def to_ical(occurrences: Iterable[Occurrence], place: Place, stamp: datetime | None = None) -> bytes:
    """An iCalendar file of the dated entries (all-day events); undatable entries are left out."""
    from icalendar import Calendar, Event  # loaded when a file is written, not for the records

    cal = Calendar()
    cal.add("prodid", f"-//dianli {__version__}//典禮 ritual calendar//ZH")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", f"{place.name} 典禮")
    now = stamp or datetime.now(UTC)
    for occ in occurrences:
        if occ.day is None:
            continue
        event = Event()
        event.add("uid", _uid(occ, place))
        event.add("dtstamp", now)
        event.add("dtstart", occ.day)
        event.add("dtend", occ.day + timedelta(days=1))
        event.add("summary", occ.name)
        source = occ.source.value if occ.source else "open"
        lines = [
            f"{place_chinese_date_label(occ.chinese_date, place) if occ.chinese_date else ''}",
            f"rite: {occ.rite}; date from: {source}",
            f"cite: {occ.cite.witness} 「{occ.cite.quote}」",
        ]
        if occ.time_label:
            lines.append(f"time: {occ.time_label}")
        if occ.assumption:
            lines.append(f"assumption: {occ.assumption}")
        lines.extend(occ.notes)
        event.add("description", "\n".join(lines))
        event.add("location", place.name)
        event.add("categories", [occ.rite])
        cal.add_component(event)
    return bytes(cal.to_ical())
