"""Places over time: lookup, lineages, parents by year, the end of Qing rule, and the data's own checks."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dianli.calendar.lunisolar import parse_day
from dianli.errors import DataError, DianliError, OutOfRangeError, QingRuleEndedError, UnknownValueError
from dianli.places.places import (
    Place,
    PlaceLevel,
    _check,
    _first_year_missing,
    _PlacesFile,
    all_places,
    check_place_year,
    children_of,
    get_place,
    place_at,
    place_names,
    places_in_year,
    qing_rule_ends,
)
from dianli.places.places import year_range as place_year_range

BY_ID = {p.id: p for p in all_places()}


@pytest.mark.parametrize(
    ("name", "year", "place_id"),
    [
        ("福州府", None, "fuzhou"),
        ("福州", None, "fuzhou"),
        ("省城", None, "fuzhou"),
        ("fuzhou", 1752, "fuzhou"),
        ("TINGZHOU", None, "tingzhou"),
        ("汀州府", None, "tingzhou"),
        ("长汀县", None, "changting"),
        ("臺灣府", None, "taiwan-fu"),
        ("臺灣府", 1752, "taiwan-fu"),
        ("臺灣府", 1886, "taiwan-fu"),
        ("臺灣府", 1887, "taiwan-fu-1887"),
        ("臺灣府", 1890, "taiwan-fu-1887"),
        ("台湾府", 1890, "taiwan-fu-1887"),
        ("台灣府", 1752, "taiwan-fu"),
        ("臺灣府", 1900, "taiwan-fu-1887"),
        ("臺南府", 1752, "taiwan-fu"),
        ("臺南府", None, "taiwan-fu"),
        ("臺灣縣", 1800, "taiwan-xian"),
        ("臺灣縣", 1890, "taiwan-xian-1887"),
        ("安平縣", 1890, "taiwan-xian"),
        ("taiwan-fu-1887", None, "taiwan-fu-1887"),
        ("诸罗县", None, "zhuluo"),
        ("嘉義縣", 1752, "zhuluo"),
        ("嘉义", None, "zhuluo"),
        ("淡水海防廳", None, "danshui"),
        ("淡水厅", 1752, "danshui"),
        ("淡水縣", 1880, "danshui-xian"),
        ("龙岩州", None, "longyan"),
        ("龍岩縣", 1700, "longyan"),
        ("福寧州", None, "funing"),
        ("永春縣", 1700, "yongchun"),
        ("闽县", None, "minxian"),
        ("云宵厅", None, "yunxiao"),
        ("雲霄廳", None, "yunxiao"),
        ("歐寧縣", None, "ouning"),
        ("瓯宁县", None, "ouning"),
        ("雞籠廳", None, "jilong"),
        ("基隆厅", 1890, "jilong"),
        ("宜蘭縣", None, "gamalan"),
        ("福建省", None, "fujian"),
        ("臺灣省", None, "taiwan-sheng"),
    ],
)
def test_lookup(name: str, year: int | None, place_id: str) -> None:
    assert get_place(name, year).id == place_id


@pytest.mark.parametrize("name", ["北京", "", "  ", "——", "taiwan"])
def test_unknown_place_lists_accepted(name: str) -> None:
    with pytest.raises(UnknownValueError) as err:
        get_place(name)
    assert "accepted" in str(err.value) and "福建省" in str(err.value)
    assert "fuzhou" in err.value.accepted and "福州府" in err.value.accepted


@given(st.text(max_size=12), st.one_of(st.none(), st.integers(min_value=-5000, max_value=5000)))
@settings(max_examples=300, deadline=None)
def test_any_text_is_a_place_or_a_dianli_error(text: str, year: int | None) -> None:
    try:
        assert isinstance(get_place(text, year), Place)
    except DianliError:
        pass


# --- lineages: one unit, successive periods -------------------------------------------------------


@pytest.mark.parametrize(
    ("place_id", "year", "name", "level", "parent", "chgis_id"),
    [
        ("zhuluo", 1703, "諸羅縣", "county", "taiwan-fu", "hvd_40354"),
        ("zhuluo", 1704, "諸羅縣", "county", "taiwan-fu", "hvd_40355"),
        ("zhuluo", 1786, "諸羅縣", "county", "taiwan-fu", "hvd_40355"),
        ("zhuluo", 1787, "嘉義縣", "county", "taiwan-fu", "hvd_40356"),
        ("fengshan", 1787, "鳳山縣", "county", "taiwan-fu", "hvd_40350"),
        ("fengshan", 1788, "鳳山縣", "county", "taiwan-fu", "hvd_40351"),
        ("fengshan", 1806, "鳳山縣", "county", "taiwan-fu", "hvd_40351"),
        ("fengshan", 1807, "鳳山縣", "county", "taiwan-fu", "hvd_40352"),
        ("fengshan", 1850, "鳳山縣", "county", "taiwan-fu", "hvd_40352"),
        ("fengshan", 1851, "鳳山縣", "county", "taiwan-fu", "hvd_40353"),
        ("danshui", 1723, "淡水廳", "subprefecture", "taiwan-fu", "hvd_40358"),
        ("danshui", 1730, "淡水廳", "subprefecture", "taiwan-fu", "hvd_40358"),
        ("danshui", 1731, "淡水廳", "subprefecture", "taiwan-fu", "hvd_40359"),
        ("danshui", 1875, "淡水廳", "subprefecture", "taiwan-fu", "hvd_40359"),
        ("funing", 1733, "福寧州", "independent-department", "fujian", "hvd_32110"),
        ("funing", 1734, "福寧府", "prefecture", "fujian", "hvd_32019"),
        ("yongchun", 1733, "永春縣", "county", "quanzhou", "hvd_40321"),
        ("yongchun", 1734, "永春州", "independent-department", "fujian", "hvd_32020"),
        ("longyan", 1733, "龍巖縣", "county", "zhangzhou", "hvd_40324"),
        ("longyan", 1734, "龍巖州", "independent-department", "fujian", "hvd_32101"),
        ("taiwan-fu", 1886, "臺灣府", "prefecture", "fujian", "hvd_32025"),
        ("taiwan-fu", 1887, "臺南府", "prefecture", "taiwan-sheng", "hvd_32026"),
        ("taiwan-fu-1887", 1887, "臺灣府", "prefecture", "taiwan-sheng", "hvd_32029"),
        ("taiwan-xian", 1886, "臺灣縣", "county", "taiwan-fu", "hvd_40348"),
        ("taiwan-xian", 1887, "安平縣", "county", "taiwan-fu", "hvd_40349"),
        ("taiwan-xian-1887", 1890, "臺灣縣", "county", "taiwan-fu-1887", "hvd_40366"),
        ("fuzhou", 1752, "福州府", "provincial-capital", "fujian", "hvd_32116"),
        ("taiwan-sheng", 1893, "臺灣省", "province", None, "hvd_30013"),
        ("taiwan-sheng", 1895, "臺灣省", "province", None, "hvd_30014"),
    ],
)
def test_unit_in_a_year(
    place_id: str, year: int, name: str, level: str, parent: str | None, chgis_id: str
) -> None:
    unit = place_at(place_id, year)
    assert (unit.id, unit.year, unit.name, unit.level.value, unit.parent, unit.chgis_id) == (
        place_id,
        year,
        name,
        level,
        parent,
        chgis_id,
    )


@pytest.mark.parametrize(
    ("place_id", "before", "after"),
    [
        ("datian", ("yanping", 1733), ("yongchun", 1734)),
        ("dehua", ("quanzhou", 1733), ("yongchun", 1734)),
        ("shouning", ("jianning", 1733), ("funing", 1734)),
        ("zhangping", ("zhangzhou", 1733), ("longyan", 1734)),
        ("ningyang", ("zhangzhou", 1733), ("longyan", 1734)),
        ("zhanghua", ("taiwan-fu", 1886), ("taiwan-fu-1887", 1887)),
        ("pulishe", ("taiwan-fu", 1886), ("taiwan-fu-1887", 1887)),
        ("beinan", ("taiwan-fu", 1886), ("taidong", 1887)),
        ("taibei", ("fujian", 1886), ("taiwan-sheng", 1887)),
        ("gamalan", ("taiwan-fu", 1875), ("taibei", 1876)),
    ],
)
def test_parent_changes(place_id: str, before: tuple[str, int], after: tuple[str, int]) -> None:
    for parent, year in (before, after):
        assert place_at(place_id, year).parent == parent


@pytest.mark.parametrize("place", all_places(), ids=lambda p: p.id)
def test_every_unit_at_its_first_and_last_year(place: Place) -> None:
    first, last = place.periods[0], place.periods[-1]
    assert place_at(place, place.first_year).name == first.name
    assert place_at(place.id, place.last_year).name == last.name
    assert place.name == first.name
    if place.first_year > place_year_range()[0]:
        with pytest.raises(OutOfRangeError, match=f"{place.first_year} or later"):
            place.at(place.first_year - 1)
    expected: type[DianliError] = QingRuleEndedError if place.ended_by else OutOfRangeError
    with pytest.raises(expected, match=str(place.last_year)):
        place.at(place.last_year + 1)


@pytest.mark.parametrize(("name", "year"), [("臺灣府", 1896), ("臺南府", 1896), ("嘉義縣", 1900), ("淡水縣", 1911),
                                            ("臺灣省", 1896), ("taiwan-fu", 1896), ("澎湖廳", 2025)])  # fmt: skip
def test_after_the_cession_is_qing_rule_ended(name: str, year: int) -> None:
    with pytest.raises(QingRuleEndedError) as err:
        place_at(name, year)
    message = str(err.value)
    for fact in ("馬關條約", "1895-04-17", "1895-05-08", "臺灣全島及所有附屬各島嶼", str(year), "1895"):
        assert fact in message
    assert err.value.last_year == 1895


@pytest.mark.parametrize(
    ("place_id", "year", "valid"),
    [("danshui", 1876, "1723..1875"), ("fuzhou", 1912, "1644..1911"), ("jilong", 1900, "1876..1895")],
)
def test_after_its_end_a_unit_names_its_years(place_id: str, year: int, valid: str) -> None:
    error = QingRuleEndedError if BY_ID[place_id].ended_by else OutOfRangeError
    with pytest.raises(error, match=valid.replace(".", r"\.")):
        place_at(place_id, year)


@pytest.mark.parametrize(
    ("place", "year"),
    [("彰化縣", 1722), ("臺灣府", 1683), ("馬巷廳", 1748), ("雲霄廳", 1797), ("臺北府", 1875)],
)
def test_before_a_unit_existed(place: str, year: int) -> None:
    unit = get_place(place, year)
    with pytest.raises(OutOfRangeError) as err:
        check_place_year(unit, year)
    assert str(year) in str(err.value) and f"{year + 1} or later" in str(err.value)
    check_place_year(unit, year + 1)
    check_place_year(get_place("福寧府"), 1733)  # 福寧 existed in 1733, as 福寧州


@pytest.mark.parametrize(("place_id", "year", "used"), [("fuzhou", 2017, 1911), ("fuzhou", 1600, 1644),
                                                        ("taiwan-fu", 1752, 1752), ("taiwan-fu", 1950, 1895)])  # fmt: skip
def test_nearest_year_for_astronomy(place_id: str, year: int, used: int) -> None:
    assert BY_ID[place_id].nearest(year).year == used


# --- years, children, the data's shape -------------------------------------------------------------


@pytest.mark.parametrize(
    ("year", "present", "absent"),
    [
        (1644, {"fuzhou", "yongchun", "fujian"}, {"taiwan-fu", "pingnan", "fuding"}),
        (1752, {"taiwan-fu", "danshui", "penghu", "pingnan", "fuding", "maxiang"}, {"yunxiao", "taibei"}),
        (1890, {"taiwan-fu", "taiwan-fu-1887", "taiwan-sheng", "taibei", "yunlin"}, {"danshui", "nanya"}),
        (1895, {"taiwan-fu", "nanya", "hualiangang"}, set()),
        (1896, {"fuzhou", "yunxiao"}, {"taiwan-fu", "taiwan-sheng", "taibei"}),
        (1911, {"fujian", "fuzhou"}, {"taiwan-fu"}),
    ],
)
def test_places_in_year(year: int, present: set[str], absent: set[str]) -> None:
    ids = [u.id for u in places_in_year(year)]
    assert present <= set(ids) and not absent & set(ids)
    assert ids == [p.id for p in all_places() if p.exists(year)]  # data order


@pytest.mark.parametrize("year", [1643, 1912, 2025])
def test_places_in_a_year_outside_the_data(year: int) -> None:
    with pytest.raises(OutOfRangeError, match=r"1644\.\.1911"):
        places_in_year(year)


@pytest.mark.parametrize(
    ("parent", "year", "names"),
    [
        ("taiwan-fu", 1752, {"臺灣縣", "鳳山縣", "諸羅縣", "彰化縣", "淡水廳", "澎湖廳"}),
        ("臺灣府", 1890, {"臺灣縣", "彰化縣", "雲林縣", "苗栗縣", "埔里社廳"}),
        ("臺南府", 1890, {"安平縣", "鳳山縣", "嘉義縣", "恆春縣", "澎湖廳"}),
        ("臺北府", 1890, {"淡水縣", "新竹縣", "宜蘭縣", "基隆廳"}),
        ("臺東州", 1890, {"卑南廳", "花蓮港廳"}),
        ("汀州府", 1752, {"長汀縣", "寧化縣", "上杭縣", "武平縣", "清流縣", "連城縣", "歸化縣", "永定縣"}),
        ("永春州", 1752, {"德化縣", "大田縣"}),
        ("福寧府", 1752, {"霞浦縣", "福鼎縣", "福安縣", "寧德縣", "壽寧縣"}),
    ],
)
def test_children_of(parent: str, year: int, names: set[str]) -> None:
    assert {u.name for u in children_of(parent, year)} == names


def test_periods_are_contiguous_and_parents_exist_every_year() -> None:
    for place in all_places():
        for before, after in zip(place.periods, place.periods[1:], strict=False):
            assert after.from_year == before.until_year + 1, place.id
        for period in place.periods:
            assert period.from_year <= period.until_year
            if period.parent is not None:
                parent = BY_ID[period.parent]
                assert all(parent.exists(y) for y in range(period.from_year, period.until_year + 1)), place.id
                assert period.parent_source is not None


def test_every_county_and_subprefecture_has_a_parent() -> None:
    for place in all_places():
        for period in place.periods:
            if period.level in (PlaceLevel.COUNTY, PlaceLevel.SUBPREFECTURE):
                assert period.parent is not None, place.id


def _under(place_id: str, ancestors: set[str]) -> bool:
    place = BY_ID[place_id]
    return any(
        p.parent in ancestors or (p.parent is not None and _under(p.parent, ancestors)) for p in place.periods
    )


def test_no_unit_of_the_ceded_province_outlives_the_cession() -> None:
    ending = qing_rule_ends()[0]
    ceded = {p.id for p in all_places() if p.ended_by == ending.id}
    under = {p.id for p in all_places() if _under(p.id, ceded)}
    assert under <= {p.id for p in all_places() if p.last_year <= ending.last_year}
    assert all(BY_ID[i].last_year == ending.last_year for i in ceded)
    assert under - {"danshui"} <= ceded  # 淡水廳 ends in 1875 (CHGIS), before the cession


def test_the_cession_dates_agree_with_the_calendar() -> None:
    ending = qing_rule_ends()[0]
    assert ending.signed == parse_day("光緒二十一年三月二十三日")
    assert ending.ratifications_exchanged == parse_day("光緒二十一年四月十四日")


def test_counts_coordinates_and_names() -> None:
    places = all_places()
    assert (len(places), sum(len(p.periods) for p in places)) == (95, 120)
    assert place_year_range() == (1644, 1911)
    for place in places:
        for period in place.periods:
            assert 21.8 <= period.latitude_deg <= 28.5 and 115.8 <= period.longitude_deg <= 122.2
    assert {p.id for p in places if any(x.level is PlaceLevel.PROVINCIAL_CAPITAL for x in p.periods)} == {
        "fuzhou"
    }
    assert place_names()[0] == "福建省" and "taiwan-fu-1887" in place_names()


# --- the data's own checks --------------------------------------------------------------------------

_DATASET = "chgis"  # an id of the registry of outside sources (dianli/corpus/data/outside_sources.yaml)


def _period(start: int, end: int, name: str, parent: str | None = None, **extra: Any) -> dict[str, Any]:
    period: dict[str, Any] = {
        "from_year": start,
        "until_year": end,
        "name": name,
        "level": "county" if parent else "province",
        "parent": parent,
        "chgis_id": "hvd_1",
        "latitude_deg": 25.0,
        "longitude_deg": 119.0,
    }
    if parent:
        period["parent_source"] = {"cite": [{"source": "qingshigao-70", "section": "x", "quote": "q"}]}
    period.update(extra)
    return period


_PROVINCE = {"id": "p", "periods": [_period(1700, 1800, "甲省")]}
_UNKNOWN_SOURCE = _period(
    1750, 1760, "乙縣", "p", parent_source={"cite": [{"source": "nope", "section": "x", "quote": "q"}]}
)


@pytest.mark.parametrize(
    ("places", "fragment"),
    [
        ([_PROVINCE, {"id": "c", "periods": [_period(1690, 1800, "乙縣", "p")]}], "does not exist in 1690"),
        ([_PROVINCE, {"id": "c", "periods": [_period(1750, 1810, "乙縣", "p")]}], "does not exist in 1801"),
        ([_PROVINCE, {"id": "c", "periods": [_period(1850, 1860, "乙縣", "p")]}], "does not exist in 1850"),
        ([_PROVINCE, {"id": "c", "periods": [_period(1600, 1900, "乙縣", "p")]}], "does not exist in 1600"),
        ([_PROVINCE, {"id": "c", "periods": [_period(1750, 1760, "乙縣", "q")]}], "unknown parent 'q'"),
        ([_PROVINCE, _PROVINCE], "duplicate id 'p'"),
        (
            [_PROVINCE, {"id": "c", "aliases": ["甲省"], "periods": [_period(1750, 1760, "乙縣", "p")]}],
            "already names",
        ),
        ([_PROVINCE, {"id": "c", "periods": [_period(1750, 1760, "甲省", "p")]}], "both bear the name"),
        (
            [_PROVINCE, {"id": "c", "ended_by": "nothing", "periods": [_period(1750, 1760, "乙縣", "p")]}],
            "ended_by",
        ),
        ([_PROVINCE, {"id": "c", "periods": [_UNKNOWN_SOURCE]}], "unknown source 'nope'"),
    ],
)
def test_data_errors_name_the_element_and_the_value(places: list[dict[str, Any]], fragment: str) -> None:
    data = _PlacesFile.model_validate(
        {"default_place": places[0]["id"], "dataset_source": _DATASET, "places": places}
    )
    with pytest.raises(DataError) as err:
        _check(data)
    assert "dianli/places/data/places.yaml" in str(err.value) and fragment in str(err.value)


_TWO_PERIODS = {"id": "p", "periods": [_period(1700, 1750, "甲省"), _period(1751, 1800, "丙省")]}


@pytest.mark.parametrize(
    ("start", "end", "missing"),
    [
        (1700, 1800, None),
        (1751, 1751, None),
        (1699, 1699, 1699),
        (1690, 1760, 1690),
        (1750, 1801, 1801),
        (1801, 1810, 1801),
        (1650, 1850, 1650),
    ],
)
def test_a_parent_is_checked_over_the_whole_period(start: int, end: int, missing: int | None) -> None:
    """The check compares the spans; the answer is the first year, counted one by one, the parent lacks."""
    parent = Place.model_validate(_TWO_PERIODS)
    child = Place.model_validate({"id": "c", "periods": [_period(start, end, "乙縣", "p")]})
    by_year = [y for y in range(start, end + 1) if not parent.exists(y)]
    assert _first_year_missing(child.periods[0], parent) == (by_year[0] if by_year else None) == missing
    data = _PlacesFile.model_validate(
        {"default_place": "p", "dataset_source": _DATASET, "places": [_TWO_PERIODS, child.model_dump()]}
    )
    if missing is None:
        _check(data)
    else:
        with pytest.raises(
            DataError, match=f"parent 'p' does not exist in {missing} \\(it exists 1700–1800\\)"
        ):
            _check(data)


def test_the_dataset_source_must_be_registered() -> None:
    data = _PlacesFile.model_validate(
        {"default_place": "p", "dataset_source": "atlas", "places": [_PROVINCE]}
    )
    with pytest.raises(
        DataError, match="dataset_source: unknown source 'atlas'; accepted: almanac-2006-olddo"
    ):
        _check(data)


@pytest.mark.parametrize(("source", "fails"), [("nope", True), ("qingshigao-70", False)])
def test_an_ending_quotes_registered_sources(source: str, fails: bool) -> None:
    ending = {
        "id": "e",
        "last_year": 1800,
        "event": "x",
        "signed": "1800-01-01",
        "ratifications_exchanged": "1800-02-01",
        "cite": [{"source": source, "section": "x", "quote": "q"}],
    }
    data = _PlacesFile.model_validate(
        {"default_place": "p", "dataset_source": _DATASET, "qing_rule_ends": [ending], "places": [_PROVINCE]}
    )
    if fails:
        with pytest.raises(DataError, match=r"qing_rule_ends\.0 \(e\): unknown source 'nope'; accepted: "):
            _check(data)
    else:
        _check(data)


def test_the_place_sources_are_registry_entries_with_their_grades() -> None:
    from dianli.places.places import place_sources

    grades = {s.id: s.grade for s in place_sources()}
    assert grades["chgis"] == "scholarly work, read in a digital library"
    assert (
        grades["qingshigao-71"]
        == "later edition or transcription of a primary text, read in a digital library"
    )
    assert grades["ding-shaoyi-jianzhi"] == "primary Qing text, read in a digital library"  # Wikisource


def test_the_default_place_must_exist() -> None:
    data = _PlacesFile.model_validate(
        {"default_place": "nowhere", "dataset_source": _DATASET, "places": [_PROVINCE]}
    )
    with pytest.raises(DataError, match="default_place: unknown place id 'nowhere'"):
        _check(data)


@pytest.mark.parametrize(
    "periods",
    [
        [_period(1700, 1750, "甲省"), _period(1752, 1800, "甲省")],  # a gap
        [_period(1760, 1750, "甲省")],  # ends before it starts
        [_period(1700, 1750, "乙縣", "p", parent_source=None)],  # a parent without its source
    ],
)
def test_malformed_periods_are_refused(periods: list[dict[str, Any]]) -> None:
    with pytest.raises(ValueError):
        _PlacesFile.model_validate({"dataset_source": _DATASET, "places": [{"id": "p", "periods": periods}]})
