"""The engine: evaluate a profile's attributes against the facts of one 立春 reading.

It knows nothing of oxen or gods: an attribute is a rule of one of four kinds (see
:mod:`dianli.spring_ox.profiles`) evaluated against a mapping of facts (``year.stem``, ``day.nayin``,
``hour.branch`` …) and the attributes already computed. Every outcome carries its reason and evidence.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from dianli.calendar.ganzhi import Element, day_sexagenary
from dianli.calendar.solar_terms import solar_term
from dianli.errors import DataError, UnknownValueError
from dianli.spring_ox.lichun import Fact, Facts
from dianli.spring_ox.profiles import (
    Alternative,
    Attribute,
    Case,
    ColourRule,
    Comparison,
    Evidence,
    Profile,
    Rule,
    TermDayRule,
    load_phases,
)

YEAR_NUMBER_FACT = "year.number"


@dataclass(frozen=True, slots=True)
class Colour:
    """A colour by 五行: its element, its name (青 …) and a print colour."""

    element: Element
    name: str
    hex: str


@dataclass(frozen=True, slots=True)
class Value:
    """What one reading of one attribute gives: its value, display text, reason and evidence."""

    reading: str
    value: Any
    text: str
    reason: str
    evidence: tuple[Evidence, ...]
    colour: Colour | None = None

    @property
    def key(self) -> str:
        """What the value means, without its wording: the colour, or the structured fields of a value."""
        if self.colour is not None:
            return self.colour.name
        if isinstance(self.value, dict):
            # a field without a value is no meaning (a comma in an unquoted gloss makes such keys)
            fields = {k: v for k, v in self.value.items() if k not in ("text", "gloss") and v is not None}
            return repr(sorted(fields.items())) if fields else str(self.value.get("text"))
        return str(self.value)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One attribute evaluated: the primary reading and the alternatives (disputed points)."""

    id: str
    part: str
    label: str
    gloss: str
    primary: Value
    alternatives: tuple[Value, ...]
    basis: str = ""
    """Which authority the attribute states, in words (a profile with ``bases``), else empty."""

    @property
    def text(self) -> str:
        return self.primary.text

    @property
    def key(self) -> str:
        return self.primary.key

    @property
    def disputed(self) -> bool:
        return any(a.key != self.primary.key for a in self.alternatives)


def colour_of(element: Element) -> Colour:
    """The colour of a phase (木 → 青)."""
    for phase in load_phases().phases:
        if phase.element == element.value:
            return Colour(element, phase.colour, phase.hex)
    raise DataError(f"spring_ox/data/phases.yaml: no colour for {element.value}")  # pragma: no cover


def overcomer(element: Element) -> Element:
    """The phase that overcomes ``element`` (土 overcomes 水)."""
    for winner, loser in load_phases().overcomes.items():
        if loser == element.value:
            return Element(winner)
    raise DataError(f"spring_ox/data/phases.yaml: nothing overcomes {element.value}")  # pragma: no cover


def _text_of(value: Any) -> str:
    if isinstance(value, dict):
        return str(value.get("text", value))
    return str(value)


def _matches(fact: Fact, condition: list[str] | Comparison) -> bool:
    if isinstance(condition, Comparison):
        if not isinstance(fact.value, int):
            return False
        number = fact.value
        checks = (
            condition.lt is None or number < condition.lt,
            condition.gt is None or number > condition.gt,
            condition.le is None or number <= condition.le,
            condition.ge is None or number >= condition.ge,
        )
        return all(checks)
    return str(fact.value) in condition


def _condition_text(condition: list[str] | Comparison) -> str:
    if isinstance(condition, Comparison):
        parts = [
            f"{op} {v}"
            for op, v in (("<", condition.lt), (">", condition.gt), ("≤", condition.le), ("≥", condition.ge))
            if v is not None
        ]
        return " and ".join(parts)
    return "∈ {" + "、".join(condition) + "}"


def _fact(facts: Facts, key: str, where: str) -> Fact:
    if key not in facts:
        raise DataError(f"spring_ox profile: {where} uses unknown fact {key!r}; known: {sorted(facts)}")
    return facts[key]


def _case_evidence(case: Case) -> tuple[Evidence, ...]:
    if case.cite is None and not case.sources and case.assumption is None:
        return ()
    return (Evidence(cite=case.cite, sources=case.sources, assumption=case.assumption),)


def _eval_cases(cases: tuple[Case, ...], facts: Facts, where: str) -> tuple[Any, str, tuple[Evidence, ...]]:
    for case in cases:
        if all(_matches(_fact(facts, key, where), cond) for key, cond in case.when.items()):
            reason = "; ".join(
                f"{_fact(facts, key, where).label} {_fact(facts, key, where).shown} {_condition_text(cond)}"
                for key, cond in case.when.items()
            )
            return case.value, reason, _case_evidence(case)
    shown = ", ".join(f"{k}={v.shown}" for k, v in facts.items() if not k.startswith(YEAR_NUMBER_FACT))
    raise DataError(f"spring_ox profile: {where}: no case matches ({shown})")


def _eval_colour(
    rule: ColourRule, facts: Facts, done: Mapping[str, Outcome], where: str
) -> tuple[Colour, str]:
    if rule.of in done:
        source = done[rule.of].primary.colour
        if source is None:
            raise DataError(f"spring_ox profile: {where}: {rule.of} is not a colour")
        element, basis = source.element, f"{done[rule.of].label} {source.name} ({source.element.value})"
    else:
        fact = _fact(facts, rule.of, where)
        if fact.element is None:
            raise DataError(f"spring_ox profile: {where}: fact {rule.of} has no 五行")
        element, basis = fact.element, f"{fact.label} {fact.shown}"
    if rule.via == "own":
        colour = colour_of(element)
        return colour, f"{basis} → {colour.name}"
    winner = overcomer(element)
    colour = colour_of(winner)
    return colour, f"{basis}; {winner.value} overcomes {element.value} → {colour.name}"


def _eval_term_day(rule: TermDayRule, facts: Facts, where: str) -> tuple[str, str]:
    year = int(_fact(facts, YEAR_NUMBER_FACT, where).value) + rule.year_offset
    term = solar_term(year, rule.term)
    day: date = term.day
    for step in range(1, 13):
        candidate = day + timedelta(days=step)
        if day_sexagenary(candidate).branch == rule.branch:
            sexagenary = day_sexagenary(candidate)
            text = f"{candidate.isoformat()} ({sexagenary.name}日)"
            reason = f"{rule.term} {year} fell on {day.isoformat()} ({day_sexagenary(day).name}); first {rule.branch} day after it"
            return text, reason
    raise DataError(f"spring_ox profile: {where}: no {rule.branch} day within 12 days")  # pragma: no cover


def _evidence(rule: Rule) -> tuple[Evidence, ...]:
    return (Evidence(cite=rule.cite, sources=rule.sources, assumption=rule.assumption, note=rule.note),)


def evaluate_rule(rule: Rule, reading: str, facts: Facts, done: Mapping[str, Outcome], where: str) -> Value:
    """One reading of one attribute."""
    evidence = _evidence(rule)
    if rule.colour is not None:
        colour, reason = _eval_colour(rule.colour, facts, done, where)
        value = {"element": colour.element.value, "colour": colour.name, "hex": colour.hex}
        return Value(reading, value, f"{colour.name} ({colour.element.value})", reason, evidence, colour)
    if rule.cases is not None:
        case_value, reason, case_evidence = _eval_cases(rule.cases, facts, where)
        return Value(reading, case_value, _text_of(case_value), reason, evidence + case_evidence)
    if rule.first_day_after_term is not None:
        text, reason = _eval_term_day(rule.first_day_after_term, facts, where)
        return Value(reading, text, text, reason, evidence)
    return Value(reading, rule.value, _text_of(rule.value), "fixed by the rule", evidence)


def _pick(attribute: Attribute, choices: Mapping[str, str]) -> tuple[Rule, str, tuple[tuple[Rule, str], ...]]:
    readings: list[tuple[Rule, str]] = [(attribute, attribute.reading)]
    readings += [(alt, alt.id) for alt in attribute.alternatives]
    wanted = choices.get(attribute.id, attribute.reading)
    for rule, rid in readings:
        if rid == wanted:
            return rule, rid, tuple(r for r in readings if r[1] != rid)
    raise UnknownValueError(f"reading of {attribute.id}", wanted, [rid for _, rid in readings])


def evaluate(
    profile: Profile,
    facts: Facts,
    place_id: str,
    choices: Mapping[str, str] | None = None,
) -> tuple[Outcome, ...]:
    """All attributes of a profile that apply at ``place_id``, in profile order."""
    chosen = dict(choices or {})
    known = {a.id: a for a in profile.attributes}
    for key in chosen:
        if key not in known or not known[key].alternatives:
            disputed = [a.id for a in profile.attributes if a.alternatives]
            raise UnknownValueError(f"disputed attribute of rule set {profile.id}", key, disputed)
    done: dict[str, Outcome] = {}
    for attribute in profile.attributes:
        if attribute.places is not None and place_id not in attribute.places:
            continue
        rule, rid, others = _pick(attribute, chosen)
        where = f"{profile.id}.{attribute.id}"
        primary = evaluate_rule(rule, rid, facts, done, where)
        alternatives = tuple(evaluate_rule(r, i, facts, done, f"{where}/{i}") for r, i in others)
        done[attribute.id] = Outcome(
            attribute.id,
            attribute.part,
            attribute.label,
            attribute.gloss,
            primary,
            alternatives,
            profile.basis_label(attribute),
        )
    return tuple(done.values())


def alternative_label(attribute: Attribute, reading: str) -> str:
    """The label of a reading of an attribute (``as-stated`` for the primary)."""
    for alt in attribute.alternatives:
        if alt.id == reading:
            return alt.label
    return "as stated" if reading == attribute.reading else reading


__all__ = [
    "Alternative",
    "Colour",
    "Outcome",
    "Value",
    "alternative_label",
    "colour_of",
    "evaluate",
    "overcomer",
]
