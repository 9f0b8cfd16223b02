"""The spring ox and the Mang god of one year at one place by one rule set: every attribute with its
reason, the readings of the 立春 instant that change an attribute, and where the other rule set differs.

The rule set is the one asked for; else, at a place, the governing witness's own (its ``spring_ox.yaml``)
if it states one, else :data:`DEFAULT_RULE` — and the result says which and why (:class:`RuleChoice`).
A witness's rule set is compared with the fixed profile it is built on; a fixed one with the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from itertools import product

from dianli.calendar.ganzhi import year_sexagenary
from dianli.calendar.lunisolar import LAST_CHINESE_YEAR, to_chinese
from dianli.calendar.year_names import chinese_date_label
from dianli.errors import DianliError, OutOfRangeError
from dianli.places.governs import governance
from dianli.places.places import PlaceAt, get_place
from dianli.spring_ox.lichun import (
    CLOCKS,
    DAY_BOUNDARIES,
    DAY_SOURCES,
    Lichun,
    Reading,
    Scenario,
    lichun,
)
from dianli.spring_ox.profiles import (
    Evidence,
    Profile,
    base_of,
    load_profile,
    profile_ids,
    stated_attributes,
    witness_patches,
)
from dianli.spring_ox.rules import Outcome, evaluate

DEFAULT_RULE = "gazetteer"
"""The rule set where none is asked for and no governing witness states its own."""


@dataclass(frozen=True, slots=True)
class RuleChoice:
    """Which rule set a place and year take when none is asked for, and why."""

    rule: str
    governing: str | None
    """The witness governing the place that year (None when none does)."""
    reason: str


def choose_rule(year: int, place: str) -> RuleChoice:
    """The governing witness's own rule set at ``place`` in ``year`` if it has one, else the default."""
    try:
        ruling = governance(place, year)
    except DianliError as exc:
        return RuleChoice(DEFAULT_RULE, None, f"{exc}; the default rule set {DEFAULT_RULE}")
    if ruling.witness in witness_patches():
        return RuleChoice(ruling.witness, ruling.witness, f"{ruling.note}; it states its own 土牛芒神式")
    return RuleChoice(
        DEFAULT_RULE,
        ruling.witness,
        f"{ruling.note}; it states no 土牛芒神式 of its own: the default rule set {DEFAULT_RULE}",
    )


def compared_with(rule: str) -> str:
    """The rule set a result is compared with: a witness's base, or the other fixed profile."""
    base = base_of(rule)
    return base if base != rule else next(p for p in profile_ids() if p != rule)


@dataclass(frozen=True, slots=True)
class Variation:
    """An attribute whose value changes with the reading of the 立春 instant."""

    attribute: str
    label: str
    values: tuple[tuple[str, tuple[Scenario, ...]], ...]  # (text, the scenarios giving it)


@dataclass(frozen=True, slots=True)
class RuleDifference:
    """An attribute on which the two rule sets differ (under the same reading of 立春)."""

    attribute: str
    label: str
    this: str
    other: str


@dataclass(frozen=True, slots=True)
class SpringOx:
    """Everything computed for one year, place and rule set."""

    year: int
    place: PlaceAt
    """The place as it was in the year drawn (or, for a year outside its history, in the nearest year it
    existed): its seat's longitude sets the local clocks."""
    profile: Profile
    lichun: Lichun
    scenario: Scenario
    reading: Reading
    readings: tuple[Reading, ...]
    outcomes: tuple[Outcome, ...]
    variations: tuple[Variation, ...]
    other_profile: str
    differences: tuple[RuleDifference, ...]
    only_here: tuple[str, ...]
    only_other: tuple[str, ...]
    subtle_points: tuple[str, ...]
    choices: Mapping[str, str]
    choice: RuleChoice | None = None
    """Why this rule set, when it was chosen by the place (no rule asked for)."""
    stated: tuple[str, ...] = ()
    """For a witness's rule set: the attributes the witness states (the rest are its base's)."""

    @property
    def base(self) -> str | None:
        """The fixed profile a witness's rule set is built on (None for a fixed profile)."""
        base = base_of(self.profile.id)
        return base if base != self.profile.id else None

    def outcome(self, attribute_id: str) -> Outcome:
        for outcome in self.outcomes:
            if outcome.id == attribute_id:
                return outcome
        raise KeyError(attribute_id)

    @property
    def notes(self) -> tuple[Evidence, ...]:
        return self.profile.notes


def all_scenarios() -> tuple[Scenario, ...]:
    return tuple(Scenario(c, d, b) for c, d, b in product(CLOCKS, DAY_SOURCES, DAY_BOUNDARIES))


def _subtle_points(lc: Lichun, reading: Reading, readings: tuple[Reading, ...]) -> tuple[str, ...]:
    points: list[str] = []
    day = lc.table_day or reading.day
    chinese = to_chinese(day)
    ysx = year_sexagenary(lc.year)
    lunar_ganzhi = year_sexagenary(chinese.year).name
    where = f"立春 {day.isoformat()} is {chinese_date_label(chinese)} of the lunar year {lunar_ganzhi}"
    if chinese.year != lc.year:
        points.append(
            f"{where}: 立春 falls in the twelfth month, before 元旦 {lc.new_year.isoformat()}, yet the ox's year "
            f"is {ysx.name} — the year that begins at 立春, not the lunar year {lunar_ganzhi}."
        )
    else:
        points.append(
            f"{where}; the ox's year is {ysx.name}, the year that begins at 立春 ({(day - lc.new_year).days} "
            f"days after 元旦 {lc.new_year.isoformat()})."
        )
    points.append(
        f"The ox's belly (and in the gazetteer rule its hooves and tail) take the YEAR's 納音 "
        f"({ysx.nayin.name}); the god's hair knots and dress take the 立春 DAY's 納音 "
        f"({reading.day_sexagenary.nayin.name})."
    )
    by_clock = {
        r.scenario.clock: r
        for r in readings
        if r.scenario.day_source == "clock" and r.scenario.boundary == "midnight"
    }
    hours = {c: f"{r.clock_time:%H:%M} {r.hour.label}" for c, r in by_clock.items()}
    shown = "; ".join(f"{c}: {h}" for c, h in hours.items())
    branches = {r.hour.branch for r in by_clock.values()}
    if len(branches) > 1:
        points.append(f"The 時辰 of 立春 differs between clocks — {shown}. Both answers are shown below.")
    else:
        points.append(f"The 時辰 of 立春 is the same on every clock — {shown}.")
    if lc.table_day is not None:
        computed = {r.day for r in by_clock.values()}
        if computed != {lc.table_day}:
            days = ", ".join(sorted(f"{d.isoformat()}" for d in computed))
            points.append(
                f"The almanac table gives 立春 on {lc.table_day.isoformat()}, the modern computation on {days}: "
                "the day's 干支 differs, and both answers are shown."
            )
        else:
            points.append(
                f"The almanac table's day of 立春 ({lc.table_day.isoformat()}) agrees with the modern computation; "
                "the hour is from the modern computation (the table gives days only)."
            )
    else:
        points.append("Outside 1644–1911 the day and the hour of 立春 are both computed (sxtwl).")
    late = [r for r in readings if r.scenario.boundary == "zi-initial" and r.day != r.clock_time.date()]
    if late:
        points.append(
            "立春 falls after 23:00 (子初) on some clock: where the day is counted from 子初 (夜子時), "
            "立春 belongs to the next day, with another 干支."
        )
    return tuple(points)


def _variations(
    profile: Profile, lc: Lichun, place_id: str, choices: Mapping[str, str], primary: tuple[Outcome, ...]
) -> tuple[Variation, ...]:
    per_scenario = {s: evaluate(profile, lc.facts(s), place_id, choices) for s in all_scenarios()}
    out: list[Variation] = []
    for index, outcome in enumerate(primary):
        groups: dict[str, list[Scenario]] = {}
        texts: dict[str, str] = {}
        for scenario, outcomes in per_scenario.items():
            groups.setdefault(outcomes[index].key, []).append(scenario)
            texts.setdefault(outcomes[index].key, outcomes[index].text)
        if len(groups) > 1:
            values = tuple((texts[key], tuple(sorted(scen))) for key, scen in groups.items())
            out.append(Variation(outcome.id, outcome.label, values))
    return tuple(out)


FIRST_YEAR = 1644
"""The first year of the spring ox, in the CLI and on the web (the Qing's first, 順治元年)."""
LAST_YEAR = LAST_CHINESE_YEAR
"""The last year of the spring ox: the last the calendar computes (立春 and the year's 干支)."""


def spring_ox(
    year: int,
    place: str | None = None,
    rule: str | None = None,
    clock: str | None = None,
    day_source: str | None = None,
    boundary: str | None = None,
    choices: Mapping[str, str] | None = None,
) -> SpringOx:
    """The ox and the god of the year that begins at 立春 of Gregorian ``year``, by ``rule`` (a fixed
    profile or a witness's id); without one, by the place's choice (:func:`choose_rule`) or the default."""
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise OutOfRangeError("year", year, f"{FIRST_YEAR}..{LAST_YEAR}")
    choice = choose_rule(year, place) if rule is None and place is not None else None
    rule = rule if rule is not None else choice.rule if choice is not None else DEFAULT_RULE
    profile = load_profile(rule)
    where = get_place(place or profile.defaults.place, year).nearest(year)
    scenario = Scenario(
        clock or profile.defaults.clock,
        day_source or profile.defaults.day_source,
        boundary or profile.defaults.boundary,
    )
    chosen = dict(choices or {})
    lc = lichun(year, where)
    facts = lc.facts(scenario)
    outcomes = evaluate(profile, facts, where.id, chosen)
    readings = tuple(lc.read(s) for s in all_scenarios())
    other_id = compared_with(rule)
    other = evaluate(load_profile(other_id), facts, where.id)
    other_by_id = {o.id: o for o in other}
    here_ids = {o.id for o in outcomes}
    differences = tuple(
        RuleDifference(o.id, o.label, o.text, other_by_id[o.id].text)
        for o in outcomes
        if o.id in other_by_id and other_by_id[o.id].key != o.key
    )
    return SpringOx(
        year=year,
        place=where,
        profile=profile,
        lichun=lc,
        scenario=scenario,
        reading=lc.read(scenario),
        readings=readings,
        outcomes=outcomes,
        variations=_variations(profile, lc, where.id, chosen, outcomes),
        other_profile=other_id,
        differences=differences,
        only_here=tuple(o.id for o in outcomes if o.id not in other_by_id),
        only_other=tuple(o.id for o in other if o.id not in here_ids),
        subtle_points=_subtle_points(lc, lc.read(scenario), readings),
        choices=chosen,
        choice=choice,
        stated=stated_attributes(rule) if base_of(rule) != rule else (),
    )


def lichun_day(result: SpringOx) -> date:
    return result.reading.day
