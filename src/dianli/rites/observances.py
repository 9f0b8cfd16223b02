"""The ritual calendar of a place and a year, derived from the rites' own date rules.

A rite's ``date_rule`` elements (one per observance: the spring and the autumn sacrifice …) are the one
source of truth for when it is held. They are resolved like every element — by year, by place as the unit
stood that year, and in the reading of the witness that governs the place (or one asked for) — and their
days computed with :mod:`dianli.calendar.date_rules`, with the related days (齋戒, 省牲, 習儀 …). Every
rite of the rite data is in the calendar; nothing here names one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from datetime import date, timedelta

from dianli.calendar.date_rules import Default, Open, Overrides, RuleDate
from dianli.calendar.lunisolar import DateSource, to_chinese
from dianli.corpus.cite import Citation
from dianli.errors import DataError, DianliError, OutOfRangeError, QingRuleEndedError, UnknownValueError
from dianli.places.governs import governing_witness
from dianli.places.places import Place, PlaceAt, get_place, place_at, qing_rule_end
from dianli.rites.load import all_rites
from dianli.rites.model import DateRule, Rite
from dianli.rites.occurrence import Occurrence as Occurrence
from dianli.rites.practice import Practice, PracticeObservance, source_text
from dianli.rites.readings import reading_chain, rites_for
from dianli.rites.resolve import (
    FIRST_YEAR,
    QING_LAST_YEAR,
    Standing,
    check_witness,
    find_rite,
    kept_in_scope,
    scope_for,
    standing,
)
from dianli.rites.years import CALENDAR_LAST_YEAR as CALENDAR_LAST_YEAR


def _citation_for(rule: DateRule, witness: str) -> Citation:
    """The rule's citation in ``witness`` if it states the rule, else in the nearest witness of its reading
    chain that does (its base …), else its main one."""
    cites = rule.citations
    for member in reading_chain(witness):
        found = next((c for c in cites if c.witness == member), None)
        if found is not None:
            return found
    if cites:
        return cites[0]
    raise DataError(f"date rule {rule.id!r}: needs a citation (it rests only on an assumption)")


def _date_rules(table: Mapping[str, Rite], rite_id: str) -> tuple[DateRule, ...]:
    """The rite's own date rules, or those of the rite it extends (the first in the chain that sets any)."""
    seen: list[str] = []
    current: str | None = rite_id
    while current is not None and current not in seen:
        seen.append(current)
        rite = table[current]
        if "date_rule" in rite.model_fields_set:
            return rite.date_rule
        current = rite.extends
    return ()


@functools.cache
def _rules_of(witness: str, rite_id: str) -> tuple[Rite, tuple[DateRule, ...]]:
    rites = rites_for(witness)
    return rites[rite_id], _date_rules(rites, rite_id)


def all_observances() -> tuple[DateRule, ...]:
    """Every date rule of the base rite data (each an observance), in rite order."""
    out: list[DateRule] = []
    for rite_id in all_rites():
        out.extend(_date_rules(all_rites(), rite_id))
    return tuple(out)


def authority_days() -> dict[str, str]:
    """The days the sources leave to an authority (a rule of kind ``default``): the key a user gives the
    real day under (``dianli calendar --day KEY=DATE``) → the observance and why it is left open."""
    found: dict[str, str] = {}
    for rule in all_observances():
        if isinstance(rule.rule, Default):
            found.setdefault(rule.rule.override_key, f"{rule.name}: {rule.rule.assumption}")
    return found


def parse_authority_days(given: Iterable[str], years: int, parse: Callable[[str], date]) -> dict[str, date]:
    """``KEY=DATE`` pairs (the day an authority chose) → overrides; one year at a time, since the day
    differs every year. Errors name the bad pair and list the accepted keys."""
    accepted = authority_days()
    out: dict[str, date] = {}
    for pair in given:
        key, sep, day = pair.partition("=")
        if not sep or key.strip() not in accepted:
            raise UnknownValueError(
                "--day KEY=DATE", pair, [f"{k}=YYYY-MM-DD ({v})" for k, v in accepted.items()]
            )
        if years != 1:
            raise OutOfRangeError("--day", pair, "a single YEAR (the day differs every year)")
        out[key.strip()] = parse(day.strip())
    return out


def rules_in_force(rite_id: str, place: PlaceAt, year: int, witness: str) -> tuple[DateRule, ...]:
    """The date rules of a rite in force at a place in a year, in a witness's reading ((): not held)."""
    rite, rules = _rules_of(witness, rite_id)
    scope = scope_for(rite_id, place, year, witness)
    if not scope.keeps(rite):
        return ()
    return kept_in_scope(rules, scope)


_RULE_DATES: dict[tuple[str, str, int, tuple[float, float] | None], tuple[RuleDate, ...]] = {}
_CALENDARS: dict[tuple[tuple[int, ...], str, int, bool], tuple[Occurrence, ...]] = {}
_CALENDARS_MAX = 8192


def clear_memo() -> None:
    """Forget the memoised rule days and shared calendars (for benchmarks and tests)."""
    _CALENDARS.clear()
    _RULE_DATES.clear()


def _rule_dates(rite_id: str, rule: DateRule, year: int, place: PlaceAt) -> tuple[RuleDate, ...]:
    """The days of one rule in one year (memoised): the same at every place unless the rule is
    place-dependent (an eclipse seen there), and then the same at every unit with the same seat (a
    prefecture and its 附郭 counties)."""
    spec = rule.rule
    seat = (place.latitude_deg, place.longitude_deg) if spec.place_dependent else None
    key = (rite_id, rule.id, year, seat)
    found = _RULE_DATES.get(key)
    if found is None:
        found = _RULE_DATES[key] = spec.dates_at(year, {}, place)
    return found


def _occurrence(rite_id: str, rule: DateRule, witness: str, rd: RuleDate) -> Occurrence:
    return Occurrence(
        observance_id=rule.id,
        rite=rite_id,
        name=rule.name,
        day=rd.day,
        chinese_date=to_chinese(rd.day),
        source=rd.source,
        cite=_citation_for(rule, witness),
        time_label=rd.time_label or (rule.time.label if rule.time else None),
        notes=rd.notes,
        assumption=rd.assumption,
        rule_text=rule.text,
    )


def _related(rite_id: str, rule: DateRule, rd: RuleDate) -> Iterable[Occurrence]:
    for rel in rule.related:
        for offset in rel.offsets:
            day = rd.day + timedelta(days=offset)
            yield Occurrence(
                observance_id=rule.id,
                rite=rite_id,
                name=f"{rel.name}（{rule.name}）",
                day=day,
                chinese_date=to_chinese(day),
                source=rd.source,
                cite=rel.cite,
                part=rel.id,
                notes=(f"{offset:+d} day(s) from {rd.day.isoformat()}",),
                assumption=rd.assumption,
            )


def _order(occ: Occurrence) -> tuple[date, bool, str]:
    return (occ.day or date.min, occ.part is None, occ.observance_id)


def observances_for(
    place: Place | PlaceAt | str,
    year: int,
    rites: Iterable[str] | None = None,
    overrides: Overrides | None = None,
    include_related: bool = True,
    witness: str | None = None,
    practice: str | None = None,
) -> tuple[Occurrence, ...]:
    """Every observance of ``year`` at ``place`` (optionally only some rites, by id or name), sorted by
    day; undatable ones (an edict's arrival, a day the witnesses do not give) come last with their reason.

    After 1911, or with a practice profile (``practice``), each rite's place and year mean what
    :func:`dianli.rites.resolve.standing` says: the text of the unit's last Qing year, its days computed
    on China Standard Time, or a practice's days; the entries say so in their ``assumption``.

    The rules are those of the resolved rites in the reading of the witness that governs the place that
    year (or ``witness``). Without overrides, the days of rules that do not depend on the place are
    computed once per year and shared (the entries are immutable). In the year Qing rule over the place
    ended (Taiwan, 1895), the days after the cession took effect are left out."""
    if not FIRST_YEAR <= year <= CALENDAR_LAST_YEAR:
        raise OutOfRangeError("year", year, f"{FIRST_YEAR}..{CALENDAR_LAST_YEAR}")
    name = place if isinstance(place, str) else place.id
    wanted = tuple(dict.fromkeys(find_rite(r) for r in rites)) if rites is not None else tuple(all_rites())
    if year > QING_LAST_YEAR or practice is not None:
        return _today(
            name, year, wanted, rites is not None, overrides or {}, include_related, witness, practice
        )
    # A place that left Qing rule (Taiwan, 1895) is an error naming the cession after that year.
    unit = place_at(name, year)
    reader = check_witness(witness) if witness is not None else governing_witness(unit.id, unit.year)
    chosen = [(rite_id, rule) for rite_id in wanted for rule in rules_in_force(rite_id, unit, year, reader)]
    return _until_qing_rule_ends(_entries(chosen, unit, year, reader, include_related, overrides or {}), unit)


def _today(
    place: str,
    year: int,
    wanted: tuple[str, ...],
    asked: bool,
    given: Overrides,
    include_related: bool,
    witness: str | None,
    practice: str | None,
) -> tuple[Occurrence, ...]:
    """The observances after the Qing or by a practice profile: per rite, what the place and year mean
    (:func:`standing`); a rite that nothing documents there is left out of a whole calendar (an error
    when it was asked for by name, or when no rite is left)."""
    out: list[Occurrence] = []
    refused: list[DianliError] = []
    for rite_id in wanted:
        try:
            meant = standing(place, year, rite_id, practice)
        except QingRuleEndedError:
            raise
        except (UnknownValueError, OutOfRangeError) as exc:
            if asked:
                raise
            refused.append(exc)
            continue
        reader = (
            check_witness(witness)
            if witness is not None
            else governing_witness(meant.place.id, meant.text_year)
        )
        rules = rules_in_force(rite_id, meant.place, meant.elements_year, reader)
        if meant.practice is not None:
            out.extend(_practice_entries(meant, rite_id, rules, year, reader, include_related))
            continue
        entries = _entries(
            [(rite_id, rule) for rule in rules], meant.place, year, reader, include_related, given
        )
        out.extend(_computed(o, meant) for o in entries)
    if not out and refused:
        raise refused[0]
    dated = sorted((o for o in out if o.day is not None), key=_order)
    return (*dated, *(o for o in out if o.day is None))


def _computed(occ: Occurrence, meant: Standing) -> Occurrence:
    """An entry after the Qing: its day is a computation on China Standard Time; say what it means."""
    if occ.day is None or occ.part is not None:
        return occ
    why = f"{meant.note}; {DateSource.COMPUTED.description}" if meant.note else None
    joined = "; ".join(a for a in (why, occ.assumption) if a)
    return replace(occ, assumption=joined or None)


def _nearest_rule(rules: tuple[DateRule, ...], day: date, year: int, place: PlaceAt) -> DateRule | None:
    """The text's rule whose day that year lies nearest to ``day`` (the one a practice's day replaces)."""
    best: tuple[int, DateRule] | None = None
    for rule in rules:
        if isinstance(rule.rule, Open):
            continue
        try:
            days = rule.rule.dates_at(year, {}, place)
        except DianliError:
            continue
        for rd in days:
            gap = abs((rd.day - day).days)
            if best is None or gap < best[0]:
                best = (gap, rule)
    return best[1] if best is not None else (rules[0] if rules else None)


def _practice_entries(
    meant: Standing,
    rite_id: str,
    rules: tuple[DateRule, ...],
    year: int,
    reader: str,
    include_related: bool,
) -> list[Occurrence]:
    """The days of a rite by a practice profile; each replaces the text's rule nearest to it, whose
    related days (齋戒, 省牲 …) are counted from the practice's day."""
    chosen: Practice | None = meant.practice
    held = chosen.rite(rite_id) if chosen is not None else None
    if chosen is None or held is None:
        return []
    out: list[Occurrence] = []
    for obs in held.observances:
        day = obs.rule.day_in(year, chosen.utc_offset_hours)
        rule = _nearest_rule(rules, day, year, meant.place)
        out.append(_practice_occurrence(chosen, obs, rite_id, day, rule, reader, meant))
        if include_related and rule is not None:
            counted = RuleDate(day, DateSource.PRACTICE, ("the text's days counted from the practice's day",))
            out.extend(_related(rite_id, rule, counted))
    return out


def _practice_occurrence(
    chosen: Practice,
    obs: PracticeObservance,
    rite_id: str,
    day: date,
    rule: DateRule | None,
    reader: str,
    meant: Standing,
) -> Occurrence:
    if rule is not None:
        cite = _citation_for(rule, reader)
    else:
        rite = all_rites()[rite_id]
        if not rite.citations:
            raise DataError(f"rite {rite_id!r}: needs a citation for a practice's day to stand for")
        cite = rite.citations[0]
    method = f"{obs.rule.method} ({chosen.zone_label})"
    replaced = f", in place of the text's rule 「{rule.text}」" if rule is not None and rule.text else ""
    return Occurrence(
        observance_id=rule.id if rule is not None else f"{chosen.id}-{obs.id}",
        rite=rite_id,
        name=f"{obs.name}（{chosen.name}）",
        day=day,
        chinese_date=to_chinese(day),
        source=DateSource.PRACTICE,
        cite=cite,
        time_label=f"{obs.time} ({chosen.zone_label})" if obs.time else None,
        notes=(method, *(source_text(s) for s in obs.sources)),
        assumption=meant.note,
        rule_text=f"{chosen.name}: {method}{replaced}",
        practice=chosen.id,
    )


def _until_qing_rule_ends(entries: tuple[Occurrence, ...], unit: PlaceAt) -> tuple[Occurrence, ...]:
    """Drop the days after Qing rule over the unit ended (Taiwan: the ratification of the cession, 1895)."""
    ending = get_place(unit.id).ended_by
    if ending is None or unit.year < qing_rule_end(ending).last_year:
        return entries
    last_day = qing_rule_end(ending).ratifications_exchanged
    return tuple(o for o in entries if o.day is None or o.day <= last_day)


def _entries(
    chosen: list[tuple[str, DateRule]],
    unit: PlaceAt,
    year: int,
    reader: str,
    include_related: bool,
    given: Overrides,
) -> tuple[Occurrence, ...]:
    if given:
        dated, undated = _calendar(chosen, unit, year, reader, include_related, given)
        return (*dated, *undated)
    shared = [(r, rule) for r, rule in chosen if not rule.rule.place_dependent]
    local = [(r, rule) for r, rule in chosen if rule.rule.place_dependent]
    key = (tuple(id(rule) for _, rule in shared), reader, year, include_related)
    found = _CALENDARS.get(key)
    if found is None:
        if len(_CALENDARS) >= _CALENDARS_MAX:
            _CALENDARS.clear()
        dated, undated = _calendar(shared, unit, year, reader, include_related, given)
        found = _CALENDARS[key] = (*dated, *undated)
    if not local:
        return found
    here, here_undated = _calendar(local, unit, year, reader, include_related, given)
    split = sum(1 for o in found if o.day is not None)
    merged = sorted((*found[:split], *here), key=_order)
    return (*merged, *found[split:], *here_undated)


def _calendar(
    chosen: list[tuple[str, DateRule]],
    place: PlaceAt,
    year: int,
    witness: str,
    include_related: bool,
    given: Overrides,
) -> tuple[tuple[Occurrence, ...], tuple[Occurrence, ...]]:
    """(dated occurrences sorted by day, undatable ones)."""
    dated: list[Occurrence] = []
    undated: list[Occurrence] = []
    for rite_id, rule in chosen:
        if isinstance(rule.rule, Open):
            undated.append(
                Occurrence(
                    rule.id,
                    rite_id,
                    rule.name,
                    None,
                    None,
                    None,
                    _citation_for(rule, witness),
                    open_reason=rule.rule.reason,
                    rule_text=rule.text,
                )
            )
            continue
        days = (
            _rule_dates(rite_id, rule, year, place) if not given else rule.rule.dates_at(year, given, place)
        )
        for rd in days:
            dated.append(_occurrence(rite_id, rule, witness, rd))
            if include_related:
                dated.extend(_related(rite_id, rule, rd))
    dated.sort(key=_order)
    return tuple(dated), tuple(undated)
