"""Places over time: the administrative units of the data (省, 府, 直隸州, 廳, 縣), each a lineage of periods.

A :class:`Place` is one unit with a stable id and one or more :class:`Period` s; each period has its years,
name, level, parent, CHGIS id, seat coordinates and the source of its parent. A renaming, a move of the
seat or a change of level or parent is a new period of the same unit. "What was this unit in year Y" is
one call, :func:`place_at` (or :meth:`Place.at`), which gives a :class:`PlaceAt`; a year before the unit
existed or after it was abolished is an :class:`OutOfRangeError`, a year after Qing rule over it ended a
:class:`QingRuleEndedError` naming the event, its date and its source. The data, with its sources, is
``data/places.yaml``.

:func:`get_place` accepts an id, any period's name or an alias, in traditional or simplified characters
(compared on the corpus folding key, :func:`dianli.corpus.normalise.fold`). With a year, a name means the
unit that bore it that year, or else the unit that bore it nearest to that year; without one, the unit
that bore it first. Anything else raises :class:`UnknownValueError` listing the accepted names.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator

from dianli.corpus.normalise import fold
from dianli.corpus.sources import outside_sources
from dianli.datafile import load_model
from dianli.errors import DataError, OutOfRangeError, QingRuleEndedError, UnknownValueError

_PACKAGE = "places"
_DATA = "data/places.yaml"
_WHERE = f"dianli/{_PACKAGE}/{_DATA}"


class PlaceLevel(StrEnum):
    """Administrative level of a unit in one period."""

    PROVINCE = "province"
    PROVINCIAL_CAPITAL = "provincial-capital"
    """The prefecture that holds the provincial capital (the rites' 省城)."""
    PREFECTURE = "prefecture"
    INDEPENDENT_DEPARTMENT = "independent-department"
    COUNTY = "county"
    SUBPREFECTURE = "subprefecture"
    GARRISON = "garrison"
    """衛所, a garrison with its own walled town. The witnesses give it rules (耕耤: 專城衛所 亦正印官秉耒),
    but no unit of the data is one, so those rules are kept and never apply."""

    @property
    def label(self) -> str:
        """The level as the sources name it (省, 府, 直隸州, 縣, 廳 …), for short tables."""
        return _LEVEL_LABELS[self]


_LEVEL_LABELS: dict[PlaceLevel, str] = {
    PlaceLevel.PROVINCE: "省",
    PlaceLevel.PROVINCIAL_CAPITAL: "省城",
    PlaceLevel.PREFECTURE: "府",
    PlaceLevel.INDEPENDENT_DEPARTMENT: "直隸州",
    PlaceLevel.COUNTY: "縣",
    PlaceLevel.SUBPREFECTURE: "廳",
    PlaceLevel.GARRISON: "衛所",
}

PREFECTURE_LEVELS: frozenset[PlaceLevel] = frozenset(
    {PlaceLevel.PROVINCIAL_CAPITAL, PlaceLevel.PREFECTURE, PlaceLevel.INDEPENDENT_DEPARTMENT}
)
"""The levels directly under a province (府 and 直隸州): the groups of the map."""


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Quote(_Strict):
    """An exact quotation: its source (an id of the registry of outside sources), the entry it stands in,
    the words."""

    source: str
    section: str
    quote: str = Field(min_length=1)

    def line(self, sources: dict[str, Source]) -> str:
        """One line for readers: the source's title, the entry and the words."""
        title = sources[self.source].title if self.source in sources else self.source
        return f"{title}, {self.section}: 「{self.quote}」"


class Grounds(_Strict):
    """Why a period has its parent: exact quotations, a labelled assumption for what they leave unsaid, or
    both."""

    cite: tuple[Quote, ...] = ()
    assumption: str | None = None

    @model_validator(mode="after")
    def _stated(self) -> Grounds:
        if not self.cite and not self.assumption:
            raise ValueError("give cite (quotations), assumption or both")
        return self


class Period(_Strict):
    """One stretch of a unit's history with a constant name, level, parent and seat (years inclusive)."""

    from_year: int
    until_year: int
    name: str = Field(min_length=1)
    level: PlaceLevel
    parent: str | None
    chgis_id: str = Field(pattern=r"^hvd_[0-9]+$")
    latitude_deg: float = Field(ge=-90, le=90)
    longitude_deg: float = Field(ge=-180, le=180)
    parent_source: Grounds | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Period:
        if self.until_year < self.from_year:
            raise ValueError(f"until_year {self.until_year} is before from_year {self.from_year}")
        if self.parent is not None and self.parent_source is None:
            raise ValueError(f"parent {self.parent!r} needs a parent_source (cite or assumption)")
        if self.parent is None and self.parent_source is not None:
            raise ValueError("parent_source given for a unit without parent")
        return self

    def holds(self, year: int) -> bool:
        """Whether ``year`` falls in this period."""
        return self.from_year <= year <= self.until_year

    @property
    def years(self) -> str:
        """The period's years for readers: ``1684–1786`` (or ``1887`` for a single year)."""
        if self.from_year == self.until_year:
            return str(self.from_year)
        return f"{self.from_year}–{self.until_year}"


@dataclass(frozen=True, slots=True)
class PlaceAt:
    """What a unit was in one year: its name, level, parent (a unit id) and seat that year."""

    id: str
    year: int
    name: str
    level: PlaceLevel
    parent: str | None
    chgis_id: str
    latitude_deg: float
    longitude_deg: float
    period: Period


class Place(_Strict):
    """One unit (a lineage) over time: a stable id, its aliases and its successive periods."""

    id: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    aliases: tuple[str, ...] = ()
    ended_by: str | None = None
    """The id of the event (``qing_rule_ends`` of the data) that ended Qing rule over the unit, if any."""
    periods: tuple[Period, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _contiguous(self) -> Place:
        for before, after in zip(self.periods, self.periods[1:], strict=False):
            if after.from_year != before.until_year + 1:
                raise ValueError(
                    f"periods {before.years} and {after.years} do not follow each other "
                    "(a period starts the year after the one before ends)"
                )
        return self

    @property
    def name(self) -> str:
        """The canonical label: the name of the first period."""
        return self.periods[0].name

    @property
    def first_year(self) -> int:
        return self.periods[0].from_year

    @property
    def last_year(self) -> int:
        return self.periods[-1].until_year

    @property
    def names(self) -> tuple[str, ...]:
        """Every name the unit bore, in order, each once."""
        return tuple(dict.fromkeys(p.name for p in self.periods))

    def names_between(self, first: int, last: int) -> tuple[str, ...]:
        """The names the unit bore in any year from ``first`` to ``last``, in order, each once."""
        return tuple(
            dict.fromkeys(p.name for p in self.periods if p.from_year <= last and first <= p.until_year)
        )

    def period_in(self, year: int) -> Period | None:
        """The period in force in ``year``, or None."""
        return next((p for p in self.periods if p.holds(year)), None)

    def exists(self, year: int) -> bool:
        """Whether the unit exists in ``year``."""
        return self.first_year <= year <= self.last_year

    def at(self, year: int) -> PlaceAt:
        """The unit as it was in ``year``.

        Raises :class:`OutOfRangeError` before its first year (naming that year) and after it was abolished
        or merged (naming its years), :class:`QingRuleEndedError` after Qing rule over it ended.
        """
        period = self.period_in(year)
        if period is not None:
            return PlaceAt(
                id=self.id,
                year=year,
                name=period.name,
                level=period.level,
                parent=period.parent,
                chgis_id=period.chgis_id,
                latitude_deg=period.latitude_deg,
                longitude_deg=period.longitude_deg,
                period=period,
            )
        first, last = self.periods[0], self.periods[-1]
        if year < first.from_year:
            raise OutOfRangeError(
                f"year at {first.name}",
                year,
                f"{first.from_year} or later ({first.name} was set up in {first.from_year}; "
                f"the unit lasts until {last.until_year})",
            )
        valid = f"{first.from_year}..{last.until_year}"
        if self.ended_by is not None:
            ending = qing_rule_end(self.ended_by)
            raise QingRuleEndedError(
                f"{last.name} ({self.id})", year, ending.last_year, ending.describe(), valid
            )
        raise OutOfRangeError(
            f"year at {last.name}", year, f"{valid} ({last.name} ends in {last.until_year})"
        )

    def nearest(self, year: int) -> PlaceAt:
        """The unit in ``year``, or as it was in the nearest year it existed (for astronomy at its seat,
        where the year may lie outside the unit's history); ``PlaceAt.year`` is the year used."""
        return self.at(min(max(year, self.first_year), self.last_year))


class Source(_Strict):
    """A work the data quotes: its title and where the quoted copy is (a URL or a repository file), with
    its grade — an entry of the registry of outside sources (:mod:`dianli.corpus.sources`)."""

    id: str
    title: str
    locator: str
    grade: str
    note: str | None = None


class QingRuleEnd(_Strict):
    """The end of Qing rule over a territory (stated once; units name it with ``ended_by``)."""

    id: str
    last_year: int
    event: str
    signed: date
    ratifications_exchanged: date
    cite: tuple[Quote, ...] = Field(min_length=1)

    def describe(self) -> str:
        """One line: the event, its dates and its source (the first quotations of the first source)."""
        sources = {s.id: s for s in place_sources()}
        first = self.cite[0].source
        title = sources[first].title if first in sources else first
        quotes = "; ".join(f"{q.section}: 「{q.quote}」" for q in self.cite if q.source == first)
        return (
            f"{self.event}, signed {self.signed.isoformat()}, ratifications exchanged "
            f"{self.ratifications_exchanged.isoformat()} (source: {title}, {quotes})"
        )


class _PlacesFile(_Strict):
    default_place: str
    dataset_source: str  # the registry id of the dataset the units come from
    qing_rule_ends: tuple[QingRuleEnd, ...] = ()
    places: tuple[Place, ...] = Field(min_length=1)


# --- loading and checks ---------------------------------------------------------------------------


def _fail(element: str, problem: str) -> DataError:
    return DataError(f"{_WHERE}: {element}: {problem}")


def _check(data: _PlacesFile) -> None:
    """Every cross reference of the file: sources, parents (in every year), endings, names, aliases."""
    if data.default_place not in {p.id for p in data.places}:
        raise _fail("default_place", f"unknown place id {data.default_place!r}")
    registry = outside_sources()
    source_ids = sorted(registry)  # named in the messages; looked up in the registry itself
    if data.dataset_source not in registry:
        raise _fail(
            "dataset_source", f"unknown source {data.dataset_source!r}; accepted: {', '.join(source_ids)}"
        )
    ending_ids = {e.id: e for e in data.qing_rule_ends}
    for i, ending in enumerate(data.qing_rule_ends):
        for quote in ending.cite:
            if quote.source not in registry:
                raise _fail(
                    f"qing_rule_ends.{i} ({ending.id})",
                    f"unknown source {quote.source!r}; accepted: {', '.join(source_ids)}",
                )
    by_id: dict[str, Place] = {}
    for i, place in enumerate(data.places):
        if place.id in by_id:
            raise _fail(f"places.{i}", f"duplicate id {place.id!r}")
        by_id[place.id] = place
    for i, place in enumerate(data.places):
        where = f"places.{i} ({place.id})"
        if place.ended_by is not None:
            end = ending_ids.get(place.ended_by)
            if end is None:
                raise _fail(
                    where,
                    f"ended_by: unknown event {place.ended_by!r}; accepted: "
                    f"{', '.join(ending_ids) or 'none'}",
                )
            if place.last_year != end.last_year:
                raise _fail(
                    where,
                    f"last year {place.last_year} is not {end.last_year}, the last year of "
                    f"{end.id} that ends it",
                )
        for j, period in enumerate(place.periods):
            here = f"{where}: periods.{j} ({period.years})"
            for quote in period.parent_source.cite if period.parent_source else ():
                if quote.source not in registry:
                    raise _fail(here, f"unknown source {quote.source!r}; accepted: {', '.join(source_ids)}")
            if period.parent is None:
                continue
            parent = by_id.get(period.parent)
            if parent is None:
                raise _fail(here, f"unknown parent {period.parent!r}")
            missing = _first_year_missing(period, parent)
            if missing is not None:
                raise _fail(
                    here,
                    f"parent {period.parent!r} does not exist in {missing} (it exists "
                    f"{parent.first_year}–{parent.last_year})",
                )
    _check_names(data.places)


def _first_year_missing(period: Period, parent: Place) -> int | None:
    """The first year of ``period`` in which ``parent`` does not exist, or None. A unit's periods follow
    each other (:class:`Place` refuses a gap), so it exists in every year from its first to its last: the
    answer is found from the two spans, not year by year."""
    first, last = parent.first_year, parent.last_year
    if period.from_year < first or period.from_year > last:
        return period.from_year
    if period.until_year > last:
        return last + 1
    return None


def _check_names(places: tuple[Place, ...]) -> None:
    """No two units bear one name (folded) in the same year; aliases and ids name one unit each."""
    bearers: dict[str, list[tuple[Place, Period]]] = {}
    for place in places:
        for period in place.periods:
            bearers.setdefault(_key(period.name), []).append((place, period))
    for entries in bearers.values():
        for a, (place, period) in enumerate(entries):
            for other, other_period in entries[a + 1 :]:
                if other.id != place.id and not (
                    period.until_year < other_period.from_year or other_period.until_year < period.from_year
                ):
                    raise _fail(
                        f"places ({place.id}, {other.id})",
                        f"both bear the name {period.name!r} ({period.years} and {other_period.years})",
                    )
    owners: dict[str, str] = {}
    for place in places:
        for key in {_key(place.id), *(_key(n) for n in place.names)}:
            owners.setdefault(key, place.id)
    for place in places:
        own = {_key(n) for n in place.names}
        for alias in place.aliases:
            key = _key(alias)
            if not key:
                raise _fail(f"places ({place.id})", f"alias {alias!r} has no letters to compare")
            if key in own:
                continue  # the same name in another script: a name lookup finds it already
            owner = owners.setdefault(key, place.id)
            if owner != place.id:
                raise _fail(f"places ({place.id})", f"alias {alias!r} already names {owner!r}")


@functools.cache
def _data() -> _PlacesFile:
    data = load_model(_PACKAGE, _DATA, _PlacesFile)
    _check(data)
    return data


@functools.lru_cache(maxsize=8192)
def _key(text: str) -> str:
    """The comparison form of a name or id: the corpus folding key (script-insensitive), lower case."""
    return fold(text).lower()


@functools.cache
def _ids() -> dict[str, Place]:
    return {_key(p.id): p for p in all_places()}


@functools.cache
def _names() -> dict[str, tuple[tuple[Place, Period], ...]]:
    table: dict[str, list[tuple[Place, Period]]] = {}
    for place in all_places():
        for period in place.periods:
            table.setdefault(_key(period.name), []).append((place, period))
    return {k: tuple(v) for k, v in table.items()}


@functools.cache
def _aliases() -> dict[str, Place]:
    return {_key(a): p for p in all_places() for a in p.aliases}


def _distance(period: Period, year: int) -> int:
    if period.holds(year):
        return 0
    return min(abs(year - period.from_year), abs(year - period.until_year))


# --- the public API -------------------------------------------------------------------------------


def all_places() -> tuple[Place, ...]:
    """Every unit, in data order."""
    return _data().places


def period_quotes(period: Period) -> tuple[Quote, ...]:
    """The quotations that ground a period's parent (none for a unit without parent)."""
    return period.parent_source.cite if period.parent_source is not None else ()


@functools.cache
def place_sources() -> tuple[Source, ...]:
    """The works the place data quotes (registry entries, in order of first use), with where the quoted
    copies are and their grades."""
    data = _data()
    quotes = [q for e in data.qing_rule_ends for q in e.cite]
    quotes += [q for p in data.places for period in p.periods for q in period_quotes(period)]
    registry = outside_sources()
    used = [registry[i] for i in dict.fromkeys([data.dataset_source, *(q.source for q in quotes)])]
    return tuple(Source(id=s.id, title=s.title, locator=s.where, grade=s.grade, note=s.note) for s in used)


def qing_rule_ends() -> tuple[QingRuleEnd, ...]:
    """The events that ended Qing rule over a territory, each stated once with its sources."""
    return _data().qing_rule_ends


def qing_rule_end(event_id: str) -> QingRuleEnd:
    """One event of :func:`qing_rule_ends` by id."""
    for ending in qing_rule_ends():
        if ending.id == event_id:
            return ending
    raise UnknownValueError("end of Qing rule", event_id, [e.id for e in qing_rule_ends()])


@functools.cache
def year_range() -> tuple[int, int]:
    """The first and last year of the data (1644 and 1911 for the CHGIS extract)."""
    places = all_places()
    return min(p.first_year for p in places), max(p.last_year for p in places)


def check_year(year: int) -> int:
    """``year`` if the data covers it, else :class:`OutOfRangeError` naming the range."""
    first, last = year_range()
    if not first <= year <= last:
        raise OutOfRangeError("year", year, f"{first}..{last}")
    return year


def default_place() -> Place:
    """The place used when none is given (``default_place`` of the data: the provincial capital)."""
    return get_place(_data().default_place)


def place_names() -> list[str]:
    """Accepted names: every name a unit bore (data order, each once), then every id."""
    names = dict.fromkeys(n for p in all_places() for n in p.names)
    return [*names, *(p.id for p in all_places())]


@functools.lru_cache(maxsize=4096)
def get_place(name: str, year: int | None = None) -> Place:
    """A unit by id, a name it bore or an alias (traditional or simplified).

    With ``year``, a name means the unit that bore it that year, or else the one that bore it nearest to
    that year (a later name asked for an earlier year means the unit that came to bear it); without, the
    unit that bore it first.
    """
    key = _key(name)
    if key:
        place = _ids().get(key)
        if place is not None:
            return place
        entries = _names().get(key)
        if entries:
            if year is None:
                return min(entries, key=lambda e: e[1].from_year)[0]
            return min(entries, key=lambda e: (_distance(e[1], year), e[1].from_year))[0]
        alias = _aliases().get(key)
        if alias is not None:
            return alias
    raise UnknownValueError("place", name, place_names())


def place_at(name_or_place: str | Place, year: int) -> PlaceAt:
    """What a unit (a :class:`Place`, an id or a name as :func:`get_place` reads it) was in ``year``."""
    place = name_or_place if isinstance(name_or_place, Place) else get_place(name_or_place, year)
    return place.at(year)


def check_place_year(place: Place, year: int) -> None:
    """Raise as :meth:`Place.at` does for a year the unit does not have (before it was set up, after it
    ended, after Qing rule over it ended)."""
    place.at(year)


def places_in_year(year: int) -> tuple[PlaceAt, ...]:
    """Every unit that exists in ``year``, as it was then, in data order."""
    check_year(year)
    return tuple(p.at(year) for p in all_places() if p.exists(year))


def children_of(place: str, year: int) -> tuple[PlaceAt, ...]:
    """The units directly under ``place`` (an id or a name) in ``year``, in data order."""
    parent = get_place(place, year).id
    return tuple(unit for unit in places_in_year(year) if unit.parent == parent)
