"""The dated observances of the rites (``data/observances.yaml``) resolved for a place and a year.

An observance ties a rite id to a date rule and to the witness text that states the rule. Resolving it
for (place, year) applies its scope (places, levels, years), computes its days with
:mod:`dianli.calendar.date_rules`, adds the related days (齋戒, 省牲, 習儀 …) and picks the citation of
the place's governing witness when that witness states the rule too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cache

from pydantic import BaseModel, ConfigDict, Field, model_validator

from dianli.calendar.date_rules import DateRule, Open, Overrides, RuleDate
from dianli.calendar.lunisolar import ChineseDate, DateSource, to_chinese
from dianli.corpus.cite import Citation
from dianli.datafile import load_model
from dianli.errors import DataError, UnknownValueError
from dianli.places.places import Place, PlaceLevel, check_place_year

_DATA = "data/observances.yaml"

RITE_IDS: tuple[str, ...] = (
    "qinghe",
    "jiezhao",
    "wanshouting",
    "yingchun",
    "bianchun",
    "gengji",
    "jiuhu",
    "xiangyinjiu",
    "xiangyue",
    "sheji",
    "shanchuan",
    "xianshi",
    "chongsheng",
    "minghuan",
    "xiangxian",
    "changgong",
    "shicai",
    "guandi",
    "longshen",
    "litan",
    "qidao",
)


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Variant(_Model):
    cite: Citation


class TimeOfDay(_Model):
    label: str
    cite: Citation


class Related(_Model):
    """A day tied to the rite day: ``offsets`` in days (−1 = the day before)."""

    id: str
    name: str
    offsets: tuple[int, ...] = Field(min_length=1)
    cite: Citation


class Scope(_Model):
    places: tuple[str, ...] | None = None
    levels: tuple[PlaceLevel, ...] | None = None
    from_year: int | None = None
    until_year: int | None = None
    cite: Citation | None = None
    assumption: str | None = None

    @model_validator(mode="after")
    def _sourced(self) -> Scope:
        if (self.cite is None) == (self.assumption is None):
            raise ValueError("a scope needs exactly one of cite or assumption")
        return self


class Observance(_Model):
    id: str
    rite: str
    name: str
    rule: DateRule
    cite: Citation
    variants: tuple[Variant, ...] = ()
    related: tuple[Related, ...] = ()
    time: TimeOfDay | None = None
    scope: Scope | None = None

    def applies(self, place: Place, year: int) -> bool:
        scope = self.scope
        if scope is None:
            return True
        if scope.places is not None and place.id not in scope.places:
            return False
        if scope.levels is not None and place.level not in scope.levels:
            return False
        if scope.from_year is not None and year < scope.from_year:
            return False
        return not (scope.until_year is not None and year > scope.until_year)

    def citation_for(self, witness: str) -> Citation:
        """The citation in a place's governing witness if it states the rule, else the primary one."""
        for cite in (self.cite, *(v.cite for v in self.variants)):
            if cite.witness == witness:
                return cite
        return self.cite


class _ObservancesFile(_Model):
    observances: tuple[Observance, ...]


@cache
def all_observances() -> tuple[Observance, ...]:
    """Every observance of ``data/observances.yaml``, validated."""
    data = load_model("calendar", _DATA, _ObservancesFile)
    ids = [o.id for o in data.observances]
    if len(set(ids)) != len(ids):
        raise DataError(f"dianli/calendar/{_DATA}: duplicate observance ids")
    for obs in data.observances:
        if obs.rite not in RITE_IDS:
            raise DataError(f"dianli/calendar/{_DATA}: observance {obs.id!r} has unknown rite {obs.rite!r}")
    return data.observances


def check_rite(rite: str) -> str:
    if rite not in RITE_IDS:
        raise UnknownValueError("rite", rite, RITE_IDS)
    return rite


@dataclass(frozen=True, slots=True)
class Occurrence:
    """One dated (or undatable) entry of a place's ritual calendar."""

    observance_id: str
    rite: str
    name: str
    day: date | None
    chinese_date: ChineseDate | None
    source: DateSource | None
    cite: Citation
    part: str | None = None  # None for the rite itself, else the related id (zhaijie, shengsheng …)
    time_label: str | None = None
    notes: tuple[str, ...] = field(default=())
    assumption: str | None = None
    open_reason: str | None = None

    @property
    def weekday(self) -> str | None:
        return self.day.strftime("%A") if self.day else None


def _occurrence(obs: Observance, witness: str, rd: RuleDate) -> Occurrence:
    return Occurrence(
        observance_id=obs.id,
        rite=obs.rite,
        name=obs.name,
        day=rd.day,
        chinese_date=to_chinese(rd.day),
        source=rd.source,
        cite=obs.citation_for(witness),
        time_label=rd.time_label or (obs.time.label if obs.time else None),
        notes=rd.notes,
        assumption=rd.assumption,
    )


def _related(obs: Observance, witness: str, rd: RuleDate) -> Iterable[Occurrence]:
    for rel in obs.related:
        for offset in rel.offsets:
            day = rd.day + timedelta(days=offset)
            yield Occurrence(
                observance_id=obs.id,
                rite=obs.rite,
                name=f"{rel.name}（{obs.name}）",
                day=day,
                chinese_date=to_chinese(day),
                source=rd.source,
                cite=rel.cite,
                part=rel.id,
                notes=(f"{offset:+d} day(s) from {rd.day.isoformat()}",),
                assumption=rd.assumption,
            )


_RULE_DATES: dict[tuple[str, int, str | None], tuple[RuleDate, ...]] = {}


def _rule_dates(obs: Observance, year: int, place: Place) -> tuple[RuleDate, ...]:
    """The days of one observance in one year without user overrides (memoised): the same at every place
    unless the rule is place-dependent (an eclipse seen there)."""
    key = (obs.id, year, place.id if obs.rule.place_dependent else None)
    found = _RULE_DATES.get(key)
    if found is None:
        found = _RULE_DATES[key] = obs.rule.dates_at(year, {}, place)
    return found


def observances_for(
    place: Place,
    year: int,
    rites: Iterable[str] | None = None,
    overrides: Overrides | None = None,
    include_related: bool = True,
) -> tuple[Occurrence, ...]:
    """Every observance of ``year`` at ``place`` (optionally only some rites), sorted by day; undatable ones
    (an edict's arrival, an eclipse, a day the witnesses do not give) come last with their reason.

    Places with the same governing witness to which the same observances apply have the same calendar;
    without overrides it is computed once per year and shared (the entries are immutable). Observances
    whose rule is place-dependent (eclipses seen at the place) are computed for the place and merged in."""
    check_place_year(place, year)
    wanted = {check_rite(r) for r in rites} if rites is not None else None
    given: Overrides = overrides or {}
    chosen = tuple(
        obs
        for obs in all_observances()
        if (wanted is None or obs.rite in wanted) and obs.applies(place, year)
    )
    shared = tuple(o for o in chosen if not o.rule.place_dependent)
    local = tuple(o for o in chosen if o.rule.place_dependent)
    if given:
        dated, undated = _calendar(chosen, place, year, include_related, given)
        return (*dated, *undated)
    key = (tuple(o.id for o in shared), place.witness, year, include_related)
    found = _CALENDARS.get(key)
    if found is None:
        if len(_CALENDARS) >= _CALENDARS_MAX:
            _CALENDARS.clear()
        dated, undated = _calendar(shared, place, year, include_related, given)
        found = _CALENDARS[key] = (*dated, *undated)
    if not local:
        return found
    here, here_undated = _calendar(local, place, year, include_related, given)
    split = sum(1 for o in found if o.day is not None)
    merged = sorted((*found[:split], *here), key=_order)
    return (*merged, *found[split:], *here_undated)


def _order(occ: Occurrence) -> tuple[date, bool, str]:
    return (occ.day or date.min, occ.part is None, occ.observance_id)


_CALENDARS: dict[tuple[tuple[str, ...], str, int, bool], tuple[Occurrence, ...]] = {}
_CALENDARS_MAX = 8192


def clear_memo() -> None:
    """Forget the memoised rule days and shared calendars (for benchmarks and tests)."""
    _CALENDARS.clear()
    _RULE_DATES.clear()


def _calendar(
    chosen: tuple[Observance, ...], place: Place, year: int, include_related: bool, given: Overrides
) -> tuple[tuple[Occurrence, ...], tuple[Occurrence, ...]]:
    """(dated occurrences sorted by day, undatable ones)."""
    witness = place.witness
    dated: list[Occurrence] = []
    undated: list[Occurrence] = []
    for obs in chosen:
        if isinstance(obs.rule, Open):
            undated.append(
                Occurrence(
                    obs.id,
                    obs.rite,
                    obs.name,
                    None,
                    None,
                    None,
                    obs.citation_for(witness),
                    open_reason=obs.rule.reason,
                )
            )
            continue
        for rd in _rule_dates(obs, year, place) if not given else obs.rule.dates_at(year, given, place):
            dated.append(_occurrence(obs, witness, rd))
            if include_related:
                dated.extend(_related(obs, witness, rd))
    dated.sort(key=_order)
    return tuple(dated), tuple(undated)
