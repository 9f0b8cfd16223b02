from __future__ import annotations

import pytest

from dianli.api import PlaceLevel, UnknownValueError, all_places, get_place


@pytest.mark.parametrize(
    ("name", "place_id"),
    [
        ("福州府", "fuzhou"),
        ("福州", "fuzhou"),
        ("省城", "fuzhou"),
        ("臺灣府", "taiwan-fu"),
        ("台灣府", "taiwan-fu"),
        ("台湾府", "taiwan-fu"),
        ("淡水海防廳", "danshui"),
        ("淡水厅", "danshui"),
        ("诸罗县", "zhuluo"),
        ("龙岩州", "longyan"),
        ("汀州府", "tingzhou"),
        ("长汀县", "changting"),
        ("tingzhou", "tingzhou"),
    ],
)
def test_lookup(name: str, place_id: str) -> None:
    assert get_place(name).id == place_id


def test_unknown_place_lists_accepted() -> None:
    with pytest.raises(UnknownValueError) as err:
        get_place("北京")
    assert "北京" in str(err.value) and "福州府" in str(err.value)


@pytest.mark.parametrize(
    ("place_id", "witness"),
    [
        ("fuzhou", "fujian-tongzhi-14"),
        ("taiwan-fu", "taiwan-fuzhi-9"),
        ("fengshan", "taiwan-fuzhi-9"),
        ("tingzhou", "tingzhou-fuzhi"),
        ("yongding", "tingzhou-fuzhi"),
        ("quanzhou", "fujian-tongzhi-14"),
    ],
)
def test_governing_witness(place_id: str, witness: str) -> None:
    assert get_place(place_id).witness == witness


def test_taiwan_units_as_witness_001_lists_them() -> None:
    names = {p.name for p in all_places() if p.parent == "taiwan-fu"}
    assert names == {"臺灣縣", "鳳山縣", "諸羅縣", "彰化縣", "淡水海防廳"}


def test_levels_and_coordinates() -> None:
    for place in all_places():
        assert 21.5 < place.latitude_deg < 28.5 and 115.5 < place.longitude_deg < 121.5
        assert place.assumption  # every coordinate is labelled
    assert get_place("fuzhou").level is PlaceLevel.PROVINCIAL_CAPITAL
    assert {p.id for p in all_places() if p.level is PlaceLevel.INDEPENDENT_DEPARTMENT} == {
        "yongchun",
        "longyan",
    }
    assert len([p for p in all_places() if p.parent == "tingzhou"]) == 8


@pytest.mark.parametrize(("place", "year"), [("彰化縣", 1722), ("臺灣府", 1683), ("福寧府", 1733)])
def test_calendar_before_a_place_existed(place: str, year: int) -> None:
    from dianli.api import OutOfRangeError, observances_for

    with pytest.raises(OutOfRangeError) as err:
        observances_for(get_place(place), year)
    assert str(year) in str(err.value) and "or later" in str(err.value)
    assert observances_for(get_place(place), year + 1)
