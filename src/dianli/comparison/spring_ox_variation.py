"""The spring-ox attributes that witnesses read differently, as rules of the corpus variation
(:mod:`dianli.comparison.variation`): id ``spring_ox.ATTRIBUTE`` (``spring_ox.god.height``), one reading per
distinct rule, with the witnesses that state it, those that follow it, and where and when it is in force.

A unit in a year takes the rule set :func:`dianli.spring_ox.figure.choose_rule` gives: its governing
witness's own (``spring_ox.yaml``) if it has one, else the default (the gazetteer rule, in the words of the
witness it cites). Readings are compared by what they mean, not by their wording: a fixed value by its
structured fields (``length_cun`` …) or else its text, a colour by what it is taken from, cases by which
facts give which value (five pairs of stems and ten single stems giving the same directions are one
reading). The fixed almanac profile is no witness and is in force nowhere: it takes no part.

:func:`rule_set_comparison` sets the rules side by side instead, attribute by attribute, where they differ:
the statute (the 會典, as the witness the almanac profile's ``bases`` names quotes it), the gazetteers'
rules (the default rule set and every witness's own) and the modern almanacs' practice, each reading with
who states it and on what evidence (witnesses by id, outside sources with their grade).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dianli.corpus.cite import Citation
from dianli.corpus.labels import witness_label
from dianli.corpus.witnesses import manifest, witness_ids
from dianli.spring_ox.figure import DEFAULT_RULE
from dianli.spring_ox.profiles import (
    Attribute,
    Comparison,
    Profile,
    load_profile,
    profile_ids,
    stated_attributes,
    witness_patches,
)
from dianli.spring_ox.profiles import (
    Rule as ProfileRule,
)

if TYPE_CHECKING:  # the corpus variation is imported where it is used: the comparison does not need it
    from dianli.comparison.variation import Reading, Rule, Span

RULE_PREFIX = "spring_ox."
KIND = "spring_ox"
SHOWS = "spring_ox"
"""A rite part's ``shows`` entry that shows the spring ox: the rules are filed under its rite."""


def _value_meaning(value: Any) -> str:
    if isinstance(value, dict):
        fields = {k: v for k, v in value.items() if k not in ("text", "gloss") and v is not None}
        return repr(sorted(fields.items())) if fields else str(value.get("text"))
    return str(value)


def _value_text(value: Any) -> str:
    return str(value.get("text", value)) if isinstance(value, dict) else str(value)


def _condition(condition: list[str] | Comparison) -> str:
    if isinstance(condition, Comparison):
        return " ".join(f"{op} {v}" for op, v in condition.model_dump(exclude_none=True).items())
    return "、".join(condition)


def meaning(attribute: Attribute) -> tuple[str, str]:
    """(what the rule means, how to show it) for an attribute's primary reading."""
    if attribute.colour is not None:
        via = "overcoming" if attribute.colour.via == "overcomer" else "of"
        text = f"colour {via} {attribute.colour.of}"
        return text, text
    if attribute.first_day_after_term is not None:
        rule = attribute.first_day_after_term
        text = f"first {rule.branch} day after {rule.term} (year {rule.year_offset:+d})"
        return text, text
    if attribute.cases is not None:
        groups: dict[tuple[str, str], list[str]] = {}
        shown: dict[tuple[str, str], str] = {}
        for case in attribute.cases:
            single = len(case.when) == 1 and not isinstance(next(iter(case.when.values())), Comparison)
            if single:
                ((fact, values),) = case.when.items()
                assert isinstance(values, list)
                key = (fact, _value_meaning(case.value))
                groups.setdefault(key, []).extend(values)
            else:
                cond = "; ".join(f"{f} {_condition(c)}" for f, c in case.when.items())
                key = (cond, _value_meaning(case.value))
                groups.setdefault(key, [])
            shown.setdefault(key, _value_text(case.value))
        means = repr(sorted((fact, value, tuple(sorted(set(v)))) for (fact, value), v in groups.items()))
        words = " · ".join(
            f"{shown[k]} ({'、'.join(dict.fromkeys(v)) if v else k[0]})" for k, v in groups.items()
        )
        return means, words
    return _value_meaning(attribute.value), _value_text(attribute.value)


def _citations(attribute: Attribute) -> tuple[Citation, ...]:
    cites = [attribute.cite, *(c.cite for c in attribute.cases or ())]
    return tuple(dict.fromkeys(c for c in cites if c is not None))


@functools.cache
def _rite() -> tuple[str, str]:
    """The rite that shows the spring ox (its id and first name), from the rites data."""
    from dianli.rites.load import all_rites

    for rite in all_rites().values():
        if any(SHOWS in part.shows for part in rite.parts):
            return rite.id, rite.names.classical[0]
    return "", ""  # pragma: no cover - the data has one


def _rule_sets() -> dict[str, Profile]:
    """The rule sets that can be in force: the default, and every witness's own."""
    return {name: load_profile(name) for name in (DEFAULT_RULE, *witness_patches())}


@functools.cache
def spring_ox_rules() -> tuple[Rule, ...]:
    """Every spring-ox attribute read differently by the rule sets in force somewhere, as variation rules."""
    from dianli.comparison.variation import Rule, Span
    from dianli.comparison.variation import _stretches as stretches

    sets = _rule_sets()
    in_force: dict[str, list[Span]] = {name: [] for name in sets}
    followers: dict[str, list[str]] = {name: [] for name in sets}
    for stretch in stretches():
        name = stretch.witness if stretch.witness in sets else DEFAULT_RULE
        if name != stretch.witness and stretch.witness not in followers[name]:
            followers[name].append(stretch.witness)
        in_force[name].append(
            Span(
                place=stretch.place,
                name=stretch.at.name,
                witness=stretch.witness,
                unit=stretch.unit,
                unit_name=stretch.unit_name,
                from_year=stretch.from_year,
                until_year=stretch.until_year,
                stands_in=stretch.stands_in,
                source=stretch.source,
            )
        )
    ids = list(dict.fromkeys(a.id for profile in sets.values() for a in profile.attributes))
    rite_id, rite_name = _rite()
    out: list[Rule] = []
    for attribute_id in ids:
        readings = _readings(attribute_id, sets, in_force, followers)
        if len(readings) > 1:
            label = next(a for p in sets.values() for a in p.attributes if a.id == attribute_id)
            out.append(
                Rule(
                    id=RULE_PREFIX + attribute_id,
                    rite=rite_id,
                    rite_name=rite_name,
                    kind=KIND,
                    label=f"{label.label} {label.gloss}",
                    readings=tuple(readings),
                )
            )
    return tuple(out)


def _readings(
    attribute_id: str,
    sets: dict[str, Profile],
    in_force: dict[str, list[Span]],
    followers: dict[str, list[str]],
) -> list[Reading]:
    from dianli.comparison.variation import NONE_TEXT, Reading

    found: dict[str, dict[str, Any]] = {}
    for name, profile in sets.items():
        attribute = next((a for a in profile.attributes if a.id == attribute_id), None)
        means, words = meaning(attribute) if attribute is not None else ("", NONE_TEXT)
        item = found.setdefault(
            means,
            {
                "words": words,
                "stating": [],
                "following": [],
                "cites": [],
                "assumptions": [],
                "spans": [],
                "paths": [],
            },
        )
        cites = _citations(attribute) if attribute is not None else ()
        stating = list(dict.fromkeys(c.witness for c in cites))
        item["stating"] += [w for w in stating if w not in item["stating"]]
        item["following"] += [w for w in [name, *followers[name]] if w not in stating and w in _witnesses()]
        item["cites"] += [c for c in cites if c not in item["cites"]]
        if attribute is not None and attribute.assumption and not cites:
            item["assumptions"].append(attribute.assumption.strip())
        item["spans"] += in_force[name]
        if attribute is not None:
            item["paths"].append(f"{name}:{attribute_id}")
    ordered = sorted(
        found.items(), key=lambda kv: (min((s.from_year for s in kv[1]["spans"]), default=10_000), kv[0])
    )
    return [
        Reading(
            number=number,
            value=item["words"],
            witnesses=tuple(item["stating"]),
            followers=tuple(w for w in dict.fromkeys(item["following"]) if w not in item["stating"]),
            citations=tuple(item["cites"]),
            assumptions=tuple(dict.fromkeys(item["assumptions"])),
            scope="",
            paths=tuple(item["paths"]),
            spans=_sorted(item["spans"]),
        )
        for number, (_, item) in enumerate(ordered, start=1)
    ]


@functools.cache
def _witnesses() -> frozenset[str]:
    return frozenset(witness_ids())


def _sorted(spans: Sequence[Span]) -> tuple[Span, ...]:
    return tuple(sorted(spans, key=lambda s: (s.place, s.from_year)))


# --- the rule sets side by side ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Holder:
    """A rule set holding a reading: its id, who it is, and the evidence it gives for the reading."""

    rule_set: str
    role: str  # "statute", "gazetteer" or "almanac"
    who: str
    evidence: tuple[str, ...]
    shown: tuple[str, ...] = ()
    """The evidence as a reader reads it: witnesses by short title, outside sources by title and grade."""


@dataclass(frozen=True, slots=True)
class SideBySide:
    """One attribute: each distinct reading (its words) with the rule sets holding it, and those silent."""

    attribute: str
    label: str
    readings: tuple[tuple[str, tuple[Holder, ...]], ...]
    silent: tuple[Holder, ...]


ROLES = ("statute", "gazetteer", "almanac")


@functools.cache
def _titles() -> dict[str, str]:
    return {w.id: w.title for w in manifest()}


def _columns() -> list[tuple[str, str, str]]:
    """(rule set, role, who): the statute as quoted, the gazetteers' rules, the almanacs' practice."""
    practice = [p for p in profile_ids() if load_profile(p).bases is not None]
    statutes: dict[str, str] = {}
    for name in practice:
        bases = load_profile(name).bases
        if bases is not None and bases.rule.witness in witness_patches():
            statutes[bases.rule.witness] = bases.rule.label
    out = [(w, "statute", who) for w, who in statutes.items()]
    gazetteers = [p for p in profile_ids() if p not in practice] + [
        w for w in witness_patches() if w not in statutes
    ]
    for name in gazetteers:
        who = load_profile(name).title if name in profile_ids() else _titles().get(name, name)
        out.append((name, "gazetteer", who))
    out += [(name, "almanac", f"the modern almanacs ({load_profile(name).title})") for name in practice]
    return out


def _evidence(rule: ProfileRule) -> dict[str, str]:
    """The evidence of a rule: its id (a witness, or an outside source with its grade) → what a reader sees."""
    cites = [rule.cite, *(c.cite for c in rule.cases or ())]
    refs = [*rule.sources, *(r for c in rule.cases or () for r in c.sources)]
    out = {c.witness: witness_label(c.witness) for c in cites if c is not None}
    out |= {f"{r.source} ({r.entry.kind.value})": f"{r.entry.title} ({r.entry.kind.value})" for r in refs}
    if not out and rule.assumption:
        out["assumption"] = "assumption"
    return out


@functools.cache
def rule_set_comparison(differing_only: bool = True) -> tuple[SideBySide, ...]:
    """Every spring-ox attribute, the rule sets' readings side by side (by default only where they differ:
    two readings, or a rule set silent where another states the attribute)."""
    columns = _columns()
    stated = {name: set(stated_attributes(name)) for name, _, _ in columns}
    ids = list(dict.fromkeys(a.id for name, _, _ in columns for a in load_profile(name).attributes))
    out: list[SideBySide] = []
    for attribute_id in ids:
        found: dict[str, tuple[str, list[Holder]]] = {}
        silent: list[Holder] = []
        label = ""
        for name, role, who in columns:
            profile = load_profile(name)
            attribute = next((a for a in profile.attributes if a.id == attribute_id), None)
            if attribute is None or attribute_id not in stated[name]:
                if role != "gazetteer" or name in profile_ids():
                    silent.append(Holder(name, role, who, ()))
                continue
            label = label or f"{attribute.label} {attribute.gloss}"
            means, words = meaning(attribute)
            evidence = _evidence(attribute)
            found.setdefault(means, (words, []))[1].append(
                Holder(name, role, who, tuple(evidence), tuple(evidence.values()))
            )
        readings = tuple((words, tuple(holders)) for words, holders in found.values())
        if differing_only and len(readings) < 2 and not silent:
            continue
        out.append(SideBySide(attribute_id, label, readings, tuple(silent)))
    return tuple(out)
