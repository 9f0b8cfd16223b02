"""Practice profiles: living practice as cited data that replaces the texts' date rule."""

from __future__ import annotations

from datetime import date

import pytest

from dianli.corpus.sources import outside_sources
from dianli.errors import OutOfRangeError, UnknownValueError
from dianli.rites.load import all_rites
from dianli.rites.practice import (
    accepted_practices,
    check_practice_year,
    default_practice,
    get_practice,
    practice_ids,
    practices,
)


def test_profiles_load_with_known_rites_and_sources() -> None:
    assert set(practice_ids()) == {"seonggyungwan", "tainan-kongmiao", "taipei-kongmiao"}
    registry = outside_sources()
    for profile in practices().values():
        for held in profile.rites:
            assert held.rite in all_rites()
            for obs in held.observances:
                assert obs.sources and all(s.source in registry for s in obs.sources)


@pytest.mark.parametrize(
    ("practice", "rite", "year", "days"),
    [
        ("taipei-kongmiao", "xianshi", 2025, [date(2025, 9, 28)]),
        ("tainan-kongmiao", "xianshi", 2020, [date(2020, 3, 20), date(2020, 9, 28)]),  # 春分 2020: 3月20日
        ("tainan-kongmiao", "xianshi", 2025, [date(2025, 3, 20), date(2025, 9, 28)]),
        ("seonggyungwan", "xianshi", 2023, [date(2023, 2, 28), date(2023, 9, 16)]),
        ("seonggyungwan", "xianshi", 2021, [date(2021, 3, 20), date(2021, 9, 16)]),
    ],
)
def test_days_of_a_practice(practice: str, rite: str, year: int, days: list[date]) -> None:
    profile = get_practice(practice, rite)
    held = profile.rite(rite)
    assert held is not None
    assert [o.rule.day_in(year, profile.utc_offset_hours) for o in held.observances] == days


@pytest.mark.parametrize(
    ("practice", "rite", "needle"),
    [("nope", "xianshi", "taipei-kongmiao"), ("taipei-kongmiao", "sheji", "sheji")],
)
def test_unknown_practice_lists_the_accepted(practice: str, rite: str, needle: str) -> None:
    with pytest.raises(UnknownValueError) as err:
        get_practice(practice, rite)
    assert needle in str(err.value)
    assert err.value.accepted


def test_a_practice_holds_from_its_first_year() -> None:
    with pytest.raises(OutOfRangeError, match="1946"):
        check_practice_year(get_practice("tainan-kongmiao"), 1930)


@pytest.mark.parametrize(
    ("place", "rite", "year", "expected"),
    [
        ("臺灣府", "xianshi", 2025, "tainan-kongmiao"),
        ("台南府", "xianshi", 2025, "tainan-kongmiao"),
        ("臺北府", "xianshi", 2025, "taipei-kongmiao"),
        ("臺北府", "sheji", 2025, None),
        ("臺灣府", "xianshi", 1930, None),
        ("福州府", "xianshi", 2025, None),
    ],
)
def test_default_practice_of_a_place(place: str, rite: str, year: int, expected: str | None) -> None:
    found = default_practice(place, rite, year)
    assert (found.id if found else None) == expected


def test_accepted_practices_name_their_places() -> None:
    assert any("stands for 臺灣府" in a for a in accepted_practices("xianshi"))
