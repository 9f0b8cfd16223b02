from __future__ import annotations

import json
from datetime import date

from icalendar import Calendar

from dianli.places.places import get_place
from dianli.rites.export import occurrence_record, to_ical
from dianli.rites.observances import observances_for


def test_ical_parses_back() -> None:
    place = get_place("臺灣府")
    occurrences = observances_for(place, 1752)
    data = to_ical(occurrences, place)
    cal = Calendar.from_ical(data)
    events = [c for c in cal.walk("VEVENT")]
    dated = [o for o in occurrences if o.day is not None]
    assert len(events) == len(dated)
    uids = {str(e.get("uid")) for e in events}
    assert len(uids) == len(events)
    by_summary = {str(e.get("summary")): e for e in events}
    xianshi = by_summary["春祭至聖先師（仲春上丁）"]
    assert xianshi.decoded("dtstart") == date(1752, 3, 20)
    assert xianshi.decoded("dtend") == date(1752, 3, 21)
    description = str(xianshi.get("description"))
    assert (
        "乾隆十七年二月初五" in description
        and "almanac table" in description
        and "taiwan-fuzhi-9" in description
    )
    assert str(cal.get("version")) == "2.0"


def test_json_records_say_where_dates_come_from() -> None:
    place = get_place("fuzhou")
    records = [occurrence_record(o, place) for o in observances_for(place, 1752)]
    json.dumps(records, ensure_ascii=False)
    sources = {r["source"] for r in records}
    assert sources == {"almanac table", "assumption", "computation", "open"}  # computation: 救護 (eclipse)
    opened = [r for r in records if r["source"] == "open"]
    assert all(r["date"] is None and r["open_reason"] for r in opened)
