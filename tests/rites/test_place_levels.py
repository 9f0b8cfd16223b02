"""Places in time and level: a place has rites from its founding on; a level no place has (衛所) keeps its
rules without applying them anywhere."""

from __future__ import annotations

import pytest

from dianli.errors import OutOfRangeError
from dianli.places.places import all_places, places_in_year
from dianli.rites.resolve import resolve_rite


@pytest.mark.parametrize("place", [p.id for p in places_in_year(1752)])
def test_garrison_step_applies_nowhere(place: str) -> None:
    resolved = resolve_rite("gengji", place, 1752, "fujian-tongzhi-14-modern")
    assert not any("衛所" in (n.step.action or "") for n in resolved.steps)


def test_no_place_is_a_garrison() -> None:
    assert all(str(period.level) != "garrison" for p in all_places() for period in p.periods)


@pytest.mark.parametrize(("rite", "place", "year", "ok"), [
    ("xianshi", "臺灣府", 1683, False), ("xianshi", "臺灣府", 1684, True),
    ("sheji", "彰化縣", 1722, False), ("sheji", "彰化縣", 1723, True), ("xianshi", "福州府", 1644, True),
])  # fmt: skip
def test_a_place_has_rites_only_from_its_founding(rite: str, place: str, year: int, ok: bool) -> None:
    if ok:
        assert resolve_rite(rite, place, year).steps
    else:
        with pytest.raises(OutOfRangeError, match="or later"):
            resolve_rite(rite, place, year)
