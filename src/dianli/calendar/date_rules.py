"""Date rules: small pure functions that turn a rule of the witnesses into the days of one year.

Each rule kind is a pydantic model (so a rule in YAML is validated) with a ``dates(year, overrides)``
method returning :class:`RuleDate` values. ``year`` is the *rite year*: the Chinese year whose 正月初一
falls in Gregorian year ``year`` for rules on lunar days, and Gregorian year ``year`` for rules on solar
terms (so the 立春 of 1752, 1752-02-04, belongs to the rites of 1752 though it fell in 乾隆十六年十二月).

What each rule does in the edge years:

* 上丁/上戊/上巳 of a 仲月 use the *regular* month; a leap month of the same number (閏二月) never
  hosts the rite. If the month's first day is itself 丁 (戊, 巳), that first day is the 上丁 (上戊, 上巳).
* 上巳 for 山川 comes with 「仲月上旬擇日」: when the first 巳 day falls after the tenth day (day 11 or
  12), the date is still given, with a note that it lies outside 上旬.
* 立春 may fall in the twelfth month of the previous Chinese year; the Chinese date says so.
* A fixed lunar day 30 in a 29-day month falls on the 29th, as a labelled assumption.
* 萬壽聖節 is the birthday of the emperor *reigning on that day*: in a year in which an emperor died
  before his birthday (雍正十三年: died 八月二十三, birthday 十月三十), no festival of his is held, and
  his successor's is held only if it falls after the accession (乾隆's 八月十三 fell before it: none).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cache
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from dianli import cache as disk_cache
from dianli.calendar.eclipse_kinds import EclipseKind
from dianli.calendar.ganzhi import branch_index, day_sexagenary_of_ordinal, stem_index
from dianli.calendar.lunisolar import ChineseYear, DateSource, LunarMonth, chinese_year, to_chinese
from dianli.calendar.reigns import REIGNS, Reign, reigning_emperor
from dianli.calendar.solar_terms import solar_term, term_index
from dianli.datafile import load_model
from dianli.errors import DataError
from dianli.places.places import PlaceAt

Overrides = Mapping[str, date]


@dataclass(frozen=True, slots=True)
class RuleDate:
    """One day a rule yields, where the day comes from, and any notes or assumption behind it."""

    day: date
    source: DateSource
    notes: tuple[str, ...] = field(default=())
    assumption: str | None = None
    time_label: str | None = None  # a time of day the rule itself computes (an eclipse's phases)


def _month(year: int, number: int) -> tuple[ChineseYear, LunarMonth]:
    cy = chinese_year(year)
    return cy, cy.month(number, leap=False)


def nth_stem_day(month: LunarMonth, stem: str, nth: int = 1) -> int | None:
    """Ordinal of the ``nth`` day with heavenly stem ``stem`` in a month (None if the month is too short)."""
    first_index = day_sexagenary_of_ordinal(month.first_ordinal).stem_index
    offset = (stem_index(stem) - first_index) % 10 + 10 * (nth - 1)
    return month.first_ordinal + offset if offset < month.length_days else None


def nth_branch_day(month: LunarMonth, branch: str, nth: int = 1) -> int | None:
    """Ordinal of the ``nth`` day with earthly branch ``branch`` in a month (None if too short)."""
    first_index = day_sexagenary_of_ordinal(month.first_ordinal).branch_index
    offset = (branch_index(branch) - first_index) % 12 + 12 * (nth - 1)
    return month.first_ordinal + offset if offset < month.length_days else None


def first_branch_day_after(ordinal: int, branch: str) -> int:
    """Ordinal of the first day *after* ``ordinal`` whose branch is ``branch`` (冬至節後辰日)."""
    current = day_sexagenary_of_ordinal(ordinal).branch_index
    offset = (branch_index(branch) - current) % 12 or 12
    return ordinal + offset


def lunar_day(year: int, month: int, day: int, leap: bool = False) -> RuleDate:
    """A fixed day of the Chinese calendar; day 30 of a 29-day month falls on its last day (assumption)."""
    cy = chinese_year(year)
    m = cy.month(month, leap)
    if day <= m.length_days:
        return RuleDate(m.day(day), cy.source)
    return RuleDate(
        m.last_day,
        cy.source,
        (f"{m.label} has {m.length_days} days; day {day} taken as its last day",),
        assumption="a day 30 that the month does not have is kept on the month's last day",
    )


def fasting_window(rite_day: date, days_before: int = 3) -> tuple[date, ...]:
    """齋戒: the ``days_before`` days before the rite (散齋 the first two, 致齋 the last)."""
    return tuple(rite_day - timedelta(days=n) for n in range(days_before, 0, -1))


def day_before(rite_day: date, days: int = 1) -> date:
    """前一日 (省牲, 習儀, 迎請旗纛 …) or 前N日 (告城隍)."""
    return rite_day - timedelta(days=days)


# --- rule kinds (YAML ``rule:`` blocks) ---


class _Rule(BaseModel, ABC):
    """A kind of date rule; each kind says how it finds its days in a year."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    # True for a rule whose days differ from place to place (what can be seen there): its days are
    # computed with :meth:`dates_at` and never shared between places.
    place_dependent: ClassVar[bool] = False

    @abstractmethod
    def dates(self, year: int, overrides: Overrides) -> tuple[RuleDate, ...]:
        """The days of the rule in a Chinese year, the same at every place."""

    def dates_at(self, year: int, overrides: Overrides, place: PlaceAt) -> tuple[RuleDate, ...]:
        """The days at ``place``; most rules give the same days everywhere."""
        return self.dates(year, overrides)


class StemDayOfMonth(_Rule):
    """上丁, 上戊: the nth day of a stem in a regular month."""

    kind: Literal["stem_day_of_month"]
    month: int = Field(ge=1, le=12)
    stem: str
    nth: int = Field(default=1, ge=1, le=3)

    def dates(self, year: int, overrides: Overrides) -> tuple[RuleDate, ...]:
        cy, month = _month(year, self.month)
        ordinal = nth_stem_day(month, self.stem, self.nth)
        if ordinal is None:
            return ()
        notes: list[str] = []
        if ordinal == month.first_ordinal:
            notes.append(f"the first {self.stem} day is the first day (朔) of {month.label}")
        if cy.leap_month == self.month:
            notes.append(f"{month.label} is followed by 閏{month.label}; the regular month is used")
        return (RuleDate(date.fromordinal(ordinal), cy.source, tuple(notes)),)


class BranchDayOfMonth(_Rule):
    """上巳: the nth day of a branch in a regular month, optionally expected within the first ``within_days``."""

    kind: Literal["branch_day_of_month"]
    month: int = Field(ge=1, le=12)
    branch: str
    nth: int = Field(default=1, ge=1, le=2)
    within_days: int | None = None

    def dates(self, year: int, overrides: Overrides) -> tuple[RuleDate, ...]:
        cy, month = _month(year, self.month)
        ordinal = nth_branch_day(month, self.branch, self.nth)
        if ordinal is None:
            return ()
        notes: list[str] = []
        day_number = ordinal - month.first_ordinal + 1
        if self.within_days is not None and day_number > self.within_days:
            notes.append(
                f"the first {self.branch} day is day {day_number} of {month.label}, after 上旬 (days 1–{self.within_days})"
            )
        if ordinal == month.first_ordinal:
            notes.append(f"the first {self.branch} day is the first day (朔) of {month.label}")
        if cy.leap_month == self.month:
            notes.append(f"{month.label} is followed by 閏{month.label}; the regular month is used")
        return (RuleDate(date.fromordinal(ordinal), cy.source, tuple(notes)),)


class SolarTermRule(_Rule):
    """The day of a solar term of the Gregorian year, or a day before it (立春前一日, 霜降前一日)."""

    kind: Literal["solar_term"]
    term: str
    days_before: int = Field(default=0, ge=0, le=30)

    def dates(self, year: int, overrides: Overrides) -> tuple[RuleDate, ...]:
        term = solar_term(year, self.term)
        term_index(self.term)
        return (RuleDate(term.day - timedelta(days=self.days_before), term.source),)


class BranchDayAfterTerm(_Rule):
    """冬至節後辰日: the first day of a branch after a solar term's day."""

    kind: Literal["branch_day_after_term"]
    term: str
    branch: str

    def dates(self, year: int, overrides: Overrides) -> tuple[RuleDate, ...]:
        term = solar_term(year, self.term)
        ordinal = first_branch_day_after(term.day.toordinal(), self.branch)
        return (RuleDate(date.fromordinal(ordinal), term.source),)


class LunarDay(_Rule):
    """A fixed day: 正月十五, 五月十三, 七月十五, 十月初一, 正月初一 (元旦)."""

    kind: Literal["lunar_day"]
    month: int = Field(ge=1, le=12)
    day: int = Field(ge=1, le=30)

    def dates(self, year: int, overrides: Overrides) -> tuple[RuleDate, ...]:
        return (lunar_day(year, self.month, self.day),)


class MonthlyDays(_Rule):
    """Every month, leap months included: 朔 (day 1) and/or 望 (taken as day 15, labelled)."""

    kind: Literal["monthly"]
    days: tuple[int, ...]

    def dates(self, year: int, overrides: Overrides) -> tuple[RuleDate, ...]:
        cy = chinese_year(year)
        out: list[RuleDate] = []
        for month in cy.months:
            for day in self.days:
                assumption = (
                    "望 taken as the 15th (civil usage); the full moon itself may fall on the 14th–17th"
                    if day == 15
                    else None
                )
                out.append(RuleDate(month.day(day), cy.source, assumption=assumption))
        return tuple(out)


class Wanshou(_Rule):
    """萬壽聖節: the birthday of the emperor reigning on that day (table ``data/wanshou.yaml``)."""

    kind: Literal["wanshou"]

    def dates(self, year: int, overrides: Overrides) -> tuple[RuleDate, ...]:
        return wanshou_dates(year)


class Default(_Rule):
    """A day the sources leave to an authority (耕耤: the Board of Rites); a user date or a labelled default."""

    kind: Literal["default"]
    override_key: str
    assumption: str
    rule: StemDayOfMonth | BranchDayOfMonth | LunarDay

    def dates(self, year: int, overrides: Overrides) -> tuple[RuleDate, ...]:
        if self.override_key in overrides:
            given = overrides[self.override_key]
            return (
                RuleDate(
                    given, DateSource.ASSUMPTION, ("the day given by the user (the day the authority chose)",)
                ),
            )
        return tuple(
            RuleDate(d.day, DateSource.ASSUMPTION, d.notes, assumption=self.assumption)
            for d in self.rule.dates(year, overrides)
        )


class Open(_Rule):
    """No day can be computed: it depends on an event (an edict arriving, an eclipse) or the sources give none."""

    kind: Literal["open"]
    reason: str

    def dates(self, year: int, overrides: Overrides) -> tuple[RuleDate, ...]:
        return ()


class MonthsBefore(_Rule):
    """A day about N lunar months before the days of another rule (賀表 「二月前涓吉」): the same day number
    N regular months earlier, labelled as an assumption."""

    kind: Literal["lunar_months_before"]
    months: int = Field(ge=1, le=11)
    of: Annotated[Wanshou | LunarDay | SolarTermRule, Field(discriminator="kind")]
    assumption: str

    def dates(self, year: int, overrides: Overrides) -> tuple[RuleDate, ...]:
        out: list[RuleDate] = []
        for target in self.of.dates(year, overrides):
            cd = to_chinese(target.day)
            month, target_year = cd.month - self.months, cd.year
            if month < 1:
                month, target_year = month + 12, target_year - 1
            shifted = lunar_day(target_year, month, cd.day)
            note = f"{self.months} months before {target.day.isoformat()}"
            out.append(
                RuleDate(
                    shifted.day, DateSource.ASSUMPTION, (*target.notes, *shifted.notes, note), self.assumption
                )
            )
        return tuple(out)


class EclipseVisible(_Rule):
    """救護日月: every solar and/or lunar eclipse that can be seen at the place in the Chinese year
    ``year``, computed (:mod:`dianli.calendar.eclipses`); the day is the local date the visible eclipse
    begins, and the phases 初食, 食甚, 復圓 are given in local apparent time as 時辰 and 刻."""

    kind: Literal["eclipse_visible"]
    bodies: tuple[EclipseKind, ...] = Field(min_length=1)
    assumption: str

    place_dependent: ClassVar[bool] = True

    def dates(self, year: int, overrides: Overrides) -> tuple[RuleDate, ...]:
        raise DataError("the rule eclipse_visible needs a place: call dates_at(year, overrides, place)")

    def dates_at(self, year: int, overrides: Overrides, place: PlaceAt) -> tuple[RuleDate, ...]:
        # the ephemeris and numpy load only when the days are not in the cache; the key names the rule, the
        # year, the place's name and coordinates, the package (code and data) and the ephemeris libraries
        entry = disk_cache.installed_key(
            "date_rules.eclipse_visible",
            repr(self),
            str(year),
            place.name,
            repr((place.latitude_deg, place.longitude_deg)),
            disk_cache.versions(
                "skyfield", "jplephem", "de405", "numpy", "chinesecalendar-py", "lunar-python"
            ),
        )
        return disk_cache.pickled(disk_cache.DERIVED, entry, lambda: self._compute(year, place))

    def _compute(self, year: int, place: PlaceAt) -> tuple[RuleDate, ...]:
        from dianli.calendar.eclipses import ephemeris_label, local_eclipses

        cy = chinese_year(year)
        first, end = date.fromordinal(cy.first_ordinal), date.fromordinal(cy.end_ordinal)
        out: list[RuleDate] = []
        found = local_eclipses(
            first - timedelta(days=1),
            end + timedelta(days=1),
            place.latitude_deg,
            place.longitude_deg,
            kinds=self.bodies,
            skip_penumbral=True,
        )
        for local in found:
            day = local.day
            if not local.rite_held or day is None:
                continue
            if not first <= day < end:
                continue
            eclipse = local.eclipse
            notes = (
                f"{eclipse.kind.chinese} ({eclipse.label}), {local.fen:.1f}分 at {place.name}: {local.reason}",
                f"source: {ephemeris_label()}",
            )
            out.append(RuleDate(day, DateSource.COMPUTED, notes, self.assumption, local.time_label()))
        return tuple(out)


DateRule = Annotated[
    StemDayOfMonth
    | BranchDayOfMonth
    | SolarTermRule
    | BranchDayAfterTerm
    | LunarDay
    | MonthlyDays
    | Wanshou
    | Default
    | Open
    | MonthsBefore
    | EclipseVisible,
    Field(discriminator="kind"),
]


# --- 萬壽聖節 ---


class WanshouEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    reign: str
    month: int = Field(ge=1, le=12)
    day: int = Field(ge=1, le=30)
    born: date
    source: str | None = None
    assumption: str | None = None


class WanshouTable(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    emperors: tuple[WanshouEntry, ...]


@cache
def wanshou_table() -> dict[str, WanshouEntry]:
    """Birthday of each emperor (reign id → entry)."""
    name = "data/wanshou.yaml"
    table = load_model("calendar", name, WanshouTable)
    entries = {e.reign: e for e in table.emperors}
    missing = {r.id for r in REIGNS} - set(entries)
    if missing:
        raise DataError(f"dianli/calendar/{name}: no birthday for reigns {sorted(missing)}")
    return entries


def wanshou_dates(year: int) -> tuple[RuleDate, ...]:
    """萬壽聖節 in the Chinese year ``year``: the birthday of whoever reigns on it (none in 1735, none after 1911)."""
    if year > REIGNS[-1].last_year:
        return ()  # no emperor after 宣統
    out: list[RuleDate] = []
    for reign in REIGNS:
        entry = wanshou_table()[reign.id]
        candidate = lunar_day(year, entry.month, entry.day)
        if reigning_emperor(candidate.day) != reign:
            continue
        notes = (*candidate.notes, f"birthday of the {reign.name} emperor ({reign.emperor})")
        assumption = "; ".join(a for a in (entry.assumption, candidate.assumption) if a) or None
        out.append(RuleDate(candidate.day, candidate.source, notes, assumption))
    return tuple(out)


def reign_of(reign_id: str) -> Reign:
    for reign in REIGNS:
        if reign.id == reign_id:
            return reign
    raise DataError(f"no reign {reign_id!r}")
