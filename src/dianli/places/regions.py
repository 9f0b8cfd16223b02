"""The calendar region of a place — which calendar named its years after the Qing — and the names of its
years and lunar dates (:mod:`dianli.calendar.year_names`, whose data say which regions hold which units:
those whose Qing rule was ended by an event of the place data, e.g. the cession of Taiwan).
"""

from __future__ import annotations

from dianli.calendar.lunisolar import ChineseDate
from dianli.calendar.year_names import YearName, chinese_date_label, region_for, year_name
from dianli.places.places import Place, PlaceAt, get_place


def place_region(place: str | Place | PlaceAt) -> str:
    """The calendar region of a place (a :class:`Place`, a :class:`PlaceAt`, an id or a name)."""
    unit = place if isinstance(place, Place) else get_place(place.id if isinstance(place, PlaceAt) else place)
    return region_for(unit.ended_by)


def place_year_name(year: int, place: str | Place | PlaceAt | None) -> YearName:
    """The name of ``year`` at ``place`` (the default region where no place is given)."""
    return year_name(year, place_region(place) if place is not None else None)


def place_chinese_date_label(value: ChineseDate, place: str | Place | PlaceAt | None) -> str:
    """A lunar date as named at ``place``: 乾隆十七年二月初一 up to 1911; 丙申年三月廿五 after."""
    return chinese_date_label(value, place_region(place) if place is not None else None)
