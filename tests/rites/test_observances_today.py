"""The calendar after the Qing: computed days (China Standard Time) or a practice profile's, labelled."""

from __future__ import annotations

from datetime import date

import pytest

from dianli.calendar.lunisolar import DateSource
from dianli.errors import DianliError, OutOfRangeError
from dianli.rites.observances import CALENDAR_LAST_YEAR, observances_for
from dianli.rites.resolve import LAST_YEAR


def _main(place: str, year: int, practice: str | None = None) -> list[tuple[date | None, DateSource | None]]:
    occ = observances_for(place, year, ["xianshi"], practice=practice)
    return [(o.day, o.source) for o in occ if o.part is None]


def test_the_calendar_has_the_commands_range() -> None:
    assert CALENDAR_LAST_YEAR == LAST_YEAR == 2100
    with pytest.raises(OutOfRangeError, match=r"1644\.\.2100"):
        observances_for("福州", 2101)


@pytest.mark.parametrize(
    ("place", "year", "practice", "expected"),
    [
        (
            "福州",
            2025,
            None,
            [(date(2025, 3, 9), DateSource.COMPUTED), (date(2025, 9, 25), DateSource.COMPUTED)],
        ),
        (
            "臺灣府",
            2025,
            None,
            [(date(2025, 3, 20), DateSource.PRACTICE), (date(2025, 9, 28), DateSource.PRACTICE)],
        ),
        ("臺北府", 2030, None, [(date(2030, 9, 28), DateSource.PRACTICE)]),
        (
            "福州",
            2023,
            "seonggyungwan",
            [(date(2023, 2, 28), DateSource.PRACTICE), (date(2023, 9, 16), DateSource.PRACTICE)],
        ),
        (
            "福州",
            1752,
            None,
            [(date(1752, 3, 20), DateSource.ALMANAC), (date(1752, 9, 16), DateSource.ALMANAC)],
        ),
    ],
)
def test_days_and_their_source(
    place: str, year: int, practice: str | None, expected: list[tuple[date, DateSource]]
) -> None:
    assert _main(place, year, practice) == expected


def test_a_computed_day_says_what_it_means() -> None:
    main = [o for o in observances_for("福州", 2025, ["祀先師"]) if o.part is None]
    assert main and all(o.assumption for o in main)
    for o in main:
        assert o.assumption is not None
        assert "1911" in o.assumption and "China Standard Time" in o.assumption


def test_a_practice_day_names_its_sources_and_hour() -> None:
    occ = observances_for("臺灣府", 2025, ["xianshi"])
    autumn = next(o for o in occ if o.day == date(2025, 9, 28) and o.part is None)
    assert autumn.practice == "tainan-kongmiao"
    assert autumn.time_label == "05:00 (Asia/Taipei, UTC+8)"
    assert any("ettoday" in n for n in autumn.notes)
    assert autumn.rule_text is not None and "月用仲、日用上丁" in autumn.rule_text
    related = sorted(
        (o.day, o.part) for o in occ if o.part is not None and o.observance_id == autumn.observance_id
    )
    assert related[0] == (date(2025, 9, 25), "sanzhai")  # the text's 祭前三日, from the practice's day


def test_a_whole_calendar_after_the_cession_keeps_the_documented_rites() -> None:
    """臺灣府 in 2025: only what a practice documents there; the other Qing rites are not held."""
    assert {o.rite for o in observances_for("臺灣府", 2025)} == {"xianshi"}


def test_under_japanese_rule_there_is_no_calendar() -> None:
    with pytest.raises(DianliError, match="1895"):
        observances_for("臺灣府", 1930)
