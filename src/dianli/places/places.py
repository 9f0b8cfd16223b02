"""Places of the rites: id, name, level, parent, governing witness and approximate coordinates.

Lookup accepts the id, the Chinese name, or an alias, in traditional or simplified characters
(臺/台 variants included); anything else raises :class:`UnknownValueError` listing the accepted names.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache

from pydantic import BaseModel, ConfigDict, Field

from dianli.datafile import load_model
from dianli.errors import DataError, OutOfRangeError, UnknownValueError

_DATA = "data/places.yaml"


class PlaceLevel(StrEnum):
    """Administrative level of a place."""

    PROVINCIAL_CAPITAL = "provincial-capital"
    PREFECTURE = "prefecture"
    INDEPENDENT_DEPARTMENT = "independent-department"
    COUNTY = "county"
    SUBPREFECTURE = "subprefecture"
    GARRISON = "garrison"
    """衛所, a garrison with its own walled town. The witnesses give it rules (耕耤: 專城衛所 亦正印官秉耒),
    but no place of the data is one, so those rules are kept and never apply."""


class Established(BaseModel):
    """The first Chinese year of a unit set up after 1644, with its source (a citation or an assumption)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    year: int
    assumption: str


class Place(BaseModel):
    """One place: its seat's approximate coordinates are labelled by ``assumption`` (or a citation)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    aliases: tuple[str, ...] = ()
    level: PlaceLevel
    parent: str | None = None
    witness: str
    established: Established | None = None
    latitude_deg: float = Field(ge=-90, le=90)
    longitude_deg: float = Field(ge=-180, le=180)
    assumption: str | None = None


class _PlacesFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    places: tuple[Place, ...]


def _fold(name: str) -> str:
    """Fold the variants a user may type: 台→臺, simplified forms of the characters in our names."""
    table = str.maketrans(
        {
            "台": "臺",
            "湾": "灣",
            "县": "縣",
            "厅": "廳",
            "宁": "寧",
            "兴": "興",
            "凤": "鳳",
            "诸": "諸",
            "罗": "羅",
            "长": "長",
            "连": "連",
            "归": "歸",
            "龙": "龍",
            "岩": "巖",
            "汀": "汀",
        }
    )
    return name.strip().translate(table).lower()


@cache
def all_places() -> tuple[Place, ...]:
    """Every place, in data order."""
    data = load_model("places", _DATA, _PlacesFile)
    ids = [p.id for p in data.places]
    if len(set(ids)) != len(ids):
        raise DataError(f"dianli/places/{_DATA}: duplicate place ids")
    for place in data.places:
        if place.parent is not None and place.parent not in ids:
            raise DataError(f"dianli/places/{_DATA}: place {place.id!r} has unknown parent {place.parent!r}")
    return data.places


@cache
def _index() -> dict[str, Place]:
    index: dict[str, Place] = {}
    for place in all_places():
        for key in (place.id, place.name, *place.aliases):
            folded = _fold(key)
            other = index.get(folded)
            if other is not None and other.id != place.id:
                raise DataError(
                    f"dianli/places/{_DATA}: name {key!r} is used by {other.id!r} and {place.id!r}"
                )
            index[folded] = place
    return index


def place_names() -> list[str]:
    """Accepted names: every id and Chinese name."""
    return [p.id for p in all_places()] + [p.name for p in all_places()]


def get_place(name: str) -> Place:
    """A place by id, Chinese name or alias (traditional or simplified)."""
    place = _index().get(_fold(name))
    if place is None:
        raise UnknownValueError("place", name, place_names())
    return place


def check_place_year(place: Place, year: int) -> None:
    """Raise OutOfRangeError for a year before the place was set up (彰化縣 in 1700)."""
    if place.established is not None and year < place.established.year:
        raise OutOfRangeError(
            f"year at {place.name}",
            year,
            f"{place.established.year} or later ({place.established.assumption})",
        )


def children_of(place_id: str) -> tuple[Place, ...]:
    """The counties / subprefectures under a prefecture."""
    return tuple(p for p in all_places() if p.parent == place_id)
