"""Practice profiles: how a living temple holds a rite today, as data that cites its sources.

A profile (``data/practice/<id>.yaml``) replaces the texts' date rule for the rites it documents — a fixed
Gregorian day (臺北市孔廟: 28 September), a solar term, or 上丁 by a calendar computed at another meridian
(成均館: the Korean calendar, UTC+9) — with the time of day where its sources give one, and may name who
officiates today. The order of service stays the text's: a profile with ``text`` names the Qing unit and
year whose text it continues (臺南孔子廟 is the 文廟 of the 臺灣府學); one without replaces the date only, at
the place asked for. ``places`` are the names a user may give for it: after Qing rule over a place ended
(Taiwan, 1895) no Qing unit answers the name, and a profile that lists it is what the name means today.
Every fact quotes an outside source (:mod:`dianli.corpus.sources`). Nothing here names a temple or a rite.
"""

from __future__ import annotations

import functools
from datetime import date
from datetime import time as clock_time
from importlib import resources
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, field_validator

from dianli.calendar.solar_terms import term_index
from dianli.corpus.normalise import fold
from dianli.corpus.sources import OutsideRef, outside_source
from dianli.datafile import parse_model
from dianli.errors import DataError, OutOfRangeError, UnknownValueError
from dianli.places.places import get_place
from dianli.rites.load import all_rites
from dianli.rites.years import FIRST_YEAR, QING_LAST_YEAR

PRACTICE_PACKAGE = "dianli.rites.data.practice"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class GregorianDay(_Strict):
    """A fixed day of the Gregorian year (28 September)."""

    kind: Literal["gregorian_day"]
    month: int = Field(ge=1, le=12)
    day: int = Field(ge=1, le=31)

    def day_in(self, year: int, utc_offset_hours: int) -> date:
        return date(year, self.month, self.day)

    @property
    def method(self) -> str:
        return f"a fixed Gregorian day, {self.month}月{self.day}日"


class SolarTermDay(_Strict):
    """The civil day of a solar term at the profile's meridian (春分)."""

    kind: Literal["solar_term"]
    term: str

    @field_validator("term")
    @classmethod
    def _known(cls, value: str) -> str:
        term_index(value)
        return value

    def day_in(self, year: int, utc_offset_hours: int) -> date:
        from dianli.calendar.zoned import solar_term_day  # (lunar_python) only for a profile's day

        return solar_term_day(year, self.term, utc_offset_hours)[0]

    @property
    def method(self) -> str:
        return f"the day of {self.term}, computed"


class LunarStemDay(_Strict):
    """上丁 and the like: the first day of a stem in a regular lunar month, the months computed at the
    profile's meridian (the Korean calendar at UTC+9)."""

    kind: Literal["lunar_stem_day"]
    month: int = Field(ge=1, le=12)
    stem: str = Field(pattern="^[甲乙丙丁戊己庚辛壬癸]$")

    def day_in(self, year: int, utc_offset_hours: int) -> date:
        from dianli.calendar.zoned import stem_day_of_month  # (lunar_python) only for a profile's day

        return stem_day_of_month(year, self.month, self.stem, utc_offset_hours)

    @property
    def method(self) -> str:
        return f"the first {self.stem} day of lunar month {self.month}, computed"


PracticeRule = Annotated[GregorianDay | SolarTermDay | LunarStemDay, Discriminator("kind")]


class PracticeObservance(_Strict):
    """One observance of the rite in the practice: its day rule, its hour, and its sources."""

    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    name: str
    rule: PracticeRule
    time: str | None = Field(default=None, pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")
    sources: tuple[OutsideRef, ...] = Field(min_length=1)

    @property
    def start(self) -> clock_time | None:
        if self.time is None:
            return None
        hours, minutes = self.time.split(":")
        return clock_time(int(hours), int(minutes))


class PracticeOfficiant(_Strict):
    """Who holds a function of the text's service in the practice today (正獻官: the mayor)."""

    function: str
    office: str
    sources: tuple[OutsideRef, ...] = Field(min_length=1)


class PracticeRite(_Strict):
    """A rite the practice holds (a rite id of the rite data) and how."""

    rite: str
    observances: tuple[PracticeObservance, ...] = Field(min_length=1)
    officiants: tuple[PracticeOfficiant, ...] = ()


class TextPlace(_Strict):
    """The Qing unit (an id or name of the place data) and the year whose text the practice continues."""

    place: str
    year: int = Field(ge=FIRST_YEAR, le=QING_LAST_YEAR)
    note: str
    sources: tuple[OutsideRef, ...] = ()
    assumption: str | None = None


class Practice(_Strict):
    """A practice profile (see the module's docstring)."""

    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    name: str
    gloss: str
    where: str
    utc_offset_hours: int = Field(ge=-12, le=14)
    time_zone: str
    from_year: int
    until_year: int | None = None
    assumption: str | None = None
    places: tuple[str, ...] = ()
    text: TextPlace | None = None
    rites: tuple[PracticeRite, ...] = Field(min_length=1)

    @property
    def label(self) -> str:
        return f"{self.id} ({self.name})"

    @property
    def span(self) -> str:
        return f"{self.from_year}..{self.until_year or ''}"

    def holds(self, year: int) -> bool:
        return self.from_year <= year and (self.until_year is None or year <= self.until_year)

    def rite(self, rite_id: str) -> PracticeRite | None:
        return next((r for r in self.rites if r.rite == rite_id), None)

    def stands_for(self, place: str) -> bool:
        """Whether ``place`` (as the user wrote it) is one of the names the profile stands for, or the id
        of the unit whose text it continues."""
        key = fold(place.strip())
        if any(fold(name) == key for name in self.places):
            return True
        return self.text is not None and place.strip() == get_place(self.text.place).id

    @property
    def zone_label(self) -> str:
        return f"{self.time_zone}, UTC{self.utc_offset_hours:+d}"


@functools.cache
def practices() -> dict[str, Practice]:
    """Every practice profile by id, checked: rite ids, places and outside sources must exist."""
    root = resources.files(PRACTICE_PACKAGE)
    found: dict[str, Practice] = {}
    rites = all_rites()
    for path in sorted((p for p in root.iterdir() if p.name.endswith(".yaml")), key=lambda p: p.name):
        where = f"dianli/rites/data/practice/{path.name}"
        profile = parse_model(where, path.read_text(encoding="utf-8"), Practice)
        if path.name != f"{profile.id}.yaml":
            raise DataError(f"{where}: id {profile.id!r} must match the file name")
        for i, entry in enumerate(profile.rites):
            if entry.rite not in rites:
                raise DataError(
                    f"{where}: rites.{i}.rite: unknown rite {entry.rite!r}; accepted: {sorted(rites)}"
                )
        for name in (*profile.places, *((profile.text.place,) if profile.text else ())):
            try:
                get_place(name)
            except UnknownValueError as exc:
                raise DataError(f"{where}: unknown place {name!r}: {exc}") from None
        found[profile.id] = profile
    return found


def practice_ids() -> tuple[str, ...]:
    return tuple(practices())


def accepted_practices(rite_id: str | None = None) -> list[str]:
    """``id (name, years; rites)`` for every profile (that holds ``rite_id``, when given)."""
    out = []
    for p in practices().values():
        if rite_id is not None and p.rite(rite_id) is None:
            continue
        where = f"; stands for {', '.join(p.places)}" if p.places else "; any place (date only)"
        out.append(f"{p.id} ({p.name}, {p.span}{where})")
    return out


def get_practice(practice_id: str, rite_id: str | None = None) -> Practice:
    """A profile by id; an unknown id, or one that does not hold ``rite_id``, is an error listing those
    that do."""
    found = practices().get(practice_id.strip())
    if found is None or (rite_id is not None and found.rite(rite_id) is None):
        what = "practice" if found is None else f"practice for rite {rite_id!r} (this one does not hold it)"
        raise UnknownValueError(what, practice_id, accepted_practices(rite_id) or accepted_practices())
    return found


def check_practice_year(practice: Practice, year: int) -> None:
    if not practice.holds(year):
        raise OutOfRangeError(f"year for practice {practice.id}", year, practice.span)


def default_practice(place: str, rite_id: str, year: int) -> Practice | None:
    """The profile that the name ``place`` means in ``year`` for the rite, if exactly one lists it."""
    found = [
        p
        for p in practices().values()
        if p.stands_for(place) and p.holds(year) and p.rite(rite_id) is not None
    ]
    return found[0] if len(found) == 1 else None


def practices_for_place(place: str, year: int) -> tuple[Practice, ...]:
    """The profiles that the name ``place`` means in ``year`` (any rite)."""
    return tuple(p for p in practices().values() if p.stands_for(place) and p.holds(year))


def source_text(ref: OutsideRef) -> str:
    """``title (url): 「quote」`` for one quotation of an outside source."""
    source = outside_source(ref.source)
    return f"{source.title} ({source.where}): 「{ref.quote}」"
