"""Text and JSON renderings of a :class:`~dianli.spring_ox.figure.SpringOx` (no rules computed here)."""

from __future__ import annotations

from typing import Any

from dianli.comparison.spring_ox_variation import ROLES, Holder, SideBySide, rule_set_comparison
from dianli.corpus.labels import witness_label
from dianli.spring_ox.figure import SpringOx
from dianli.spring_ox.lichun import CLOCKS, DAY_BOUNDARIES, DAY_SOURCES, Reading, Scenario
from dianli.spring_ox.profiles import Evidence
from dianli.spring_ox.rules import Outcome, Value

PART_TITLES: dict[str, str] = {
    "ox": "土牛 the ox",
    "god": "芒神 the Mang god",
    "making": "making the ox",
    "placing": "placing (迎春/鞭春)",
}


def evidence_text(evidence: Evidence) -> list[str]:
    """One line per piece of evidence: witness quote, outside source (with its grade), assumption, note."""
    lines: list[str] = []
    if evidence.cite is not None:
        lines.append(f"{witness_label(evidence.cite.witness)} 「{evidence.cite.quote}」")
    for ref in evidence.sources:
        where = f" ({ref.section})" if ref.section else ""
        lines.append(f"outside source: {ref.entry.heading}{where}: 「{ref.quote}」")
        lines.append(f"    [{ref.entry.grade}] <{ref.entry.where}>")
    if evidence.assumption:
        lines.append(f"ASSUMPTION: {evidence.assumption.strip()}")
    if evidence.note:
        lines.append(f"note: {evidence.note.strip()}")
    return lines


def _reading_line(reading: Reading) -> str:
    return (
        f"{reading.clock_time:%Y-%m-%d %H:%M} {reading.hour.label} → day {reading.day.isoformat()} "
        f"{reading.day_sexagenary.name} ({reading.day_sexagenary.nayin.name})"
    )


def _value_lines(outcome: Outcome, indent: str) -> list[str]:
    value = outcome.primary
    gloss = value.value.get("gloss") if isinstance(value.value, dict) else None
    head = f"{indent}{outcome.label} {outcome.gloss}: {value.text}" + (f" — {gloss}" if gloss else "")
    lines = [head, f"{indent}    because {value.reason}"]
    if outcome.basis:
        lines.append(f"{indent}    basis: {outcome.basis}")
    lines += [f"{indent}    {line}" for ev in value.evidence for line in evidence_text(ev)]
    for alt in outcome.alternatives:
        mark = "differs" if alt.key != value.key else "same"
        lines.append(
            f"{indent}    alternative reading [{alt.reading}] ({mark}): {alt.text} — because {alt.reason}"
        )
        lines += [f"{indent}        {line}" for ev in alt.evidence for line in evidence_text(ev)]
    return lines


def scenario_group_label(scenarios: tuple[Scenario, ...]) -> str:
    """A group of scenarios by what they share: ``boundary zi-initial (any clock, any day source)``."""
    dims = (("clock", CLOCKS), ("day_source", DAY_SOURCES), ("boundary", DAY_BOUNDARIES))
    fixed, free = [], []
    for name, accepted in dims:
        values = sorted({getattr(sc, name) for sc in scenarios})
        if set(values) == set(accepted):
            free.append(f"any {name.replace('_', ' ')}")
        else:
            fixed.append(f"{name.replace('_', ' ')} {'/'.join(values)}")
    return ", ".join(fixed) + (f" ({', '.join(free)})" if free else "")


def _choice_lines(result: SpringOx) -> list[str]:
    """Why this rule set (when the place chose it) and what a witness's own rule set states."""
    out: list[str] = []
    if result.choice is not None:
        out.append(f"rule set chosen for the place and year: {result.choice.rule} — {result.choice.reason}")
    if result.base is not None:
        out.append(
            f"{result.profile.id} states {len(result.stated)} of {len(result.profile.attributes)} attributes; "
            f"the rest are the {result.base} rule set's"
        )
    return out


ROLE_TITLES: dict[str, str] = {
    "statute": "the statute as quoted",
    "gazetteer": "the gazetteers' rules",
    "almanac": "the modern almanacs' practice",
}


def _rule_set_name(rule_set: str) -> str:
    """A rule set as a reader names it: a witness's own by the witness's short title, else its name."""
    return witness_label(rule_set)


def _holders_text(holders: tuple[Holder, ...]) -> str:
    parts = []
    for role in ROLES:
        mine = [h for h in holders if h.role == role]
        if mine:
            shown = ", ".join(
                f"{_rule_set_name(h.rule_set)} [{'; '.join(h.shown)}]"
                if h.evidence not in ((), (h.rule_set,))
                else _rule_set_name(h.rule_set)
                for h in mine
            )
            parts.append(f"{role}: {shown}")
    return " · ".join(parts)


def side_by_side_lines(rows: tuple[SideBySide, ...]) -> list[str]:
    """The rule sets side by side where they differ: each reading with who states it and on what evidence."""
    out: list[str] = []
    seen: dict[str, str] = {}
    for row in rows:
        for _, holders in row.readings:
            seen.update({_rule_set_name(h.rule_set): f"{h.role}: {h.who}" for h in holders})
        seen.update({_rule_set_name(h.rule_set): f"{h.role}: {h.who}" for h in row.silent})
    out += [f"  {name} = {who}" for name, who in seen.items()]
    for row in rows:
        out.append(f"  {row.label}")
        for words, holders in row.readings:
            out.append(f"    {words}")
            out.append(f"        ← {_holders_text(holders)}")  # one line: the reader wraps it to its width
        if row.silent:
            out.append(f"    not stated by: {', '.join(_rule_set_name(h.rule_set) for h in row.silent)}")
    return out


def render_text(result: SpringOx) -> str:
    lc = result.lichun
    out: list[str] = []
    ysx = lc.year_sexagenary
    out.append(
        f"土牛芒神 {result.year} {ysx.name}年 — rule set: {result.profile.id} ({result.profile.title})"
    )
    out.append(f"place: {result.place.name} ({result.place.longitude_deg:.2f}°E)")
    out += _choice_lines(result)
    out.append("")
    out.append("立春")
    if lc.table_day is not None:
        out.append(
            f"  almanac table day: {lc.table_day.isoformat()} (Yuk Tung Liu's reconstruction of the 時憲書)"
        )
    out.append("  computed instant (sxtwl), read on each clock:")
    for r in result.readings:
        if r.scenario.day_source == "clock" and r.scenario.boundary == "midnight":
            out.append(f"    {r.scenario.clock:<17} {_reading_line(r)}")
    s = result.scenario
    out.append(f"  used here: {s.label}")
    out.append(f"    → {_reading_line(result.reading)}")
    out.append(f"  year {ysx.name} ({ysx.nayin.name}), {'陽' if ysx.stem_index % 2 == 0 else '陰'} year")
    out.append("")
    out.append("Subtle points")
    out += [f"  * {p}" for p in result.subtle_points]
    for part, title in PART_TITLES.items():
        items = [o for o in result.outcomes if o.part == part]
        if not items:
            continue
        out.append("")
        out.append(title)
        for outcome in items:
            out += _value_lines(outcome, "  ")
    out.append("")
    out.append("Where the reading of the 立春 instant changes an attribute")
    if not result.variations:
        out.append("  nowhere: every clock, day source and day boundary gives the same ox and god")
    for variation in result.variations:
        out.append(f"  {variation.label} ({variation.attribute}):")
        for text, scenarios in variation.values:
            out.append(f"    {text}  ← {scenario_group_label(scenarios)}")
    out.append("")
    out.append(f"Where the {result.other_profile} rule set differs (same 立春 reading)")
    for diff in result.differences:
        out.append(
            f"  {diff.label} ({diff.attribute}): {result.profile.id} {diff.this}  |  {result.other_profile} {diff.other}"
        )
    if result.only_here:
        out.append(f"  only in {result.profile.id}: {', '.join(result.only_here)}")
    if result.only_other:
        out.append(f"  only in {result.other_profile}: {', '.join(result.only_other)}")
    if result.notes:
        out.append("")
        out.append("Notes on this rule set")
        for ev in result.notes:
            out += [f"  * {line}" for line in evidence_text(ev)]
    out.append("")
    out.append("The rules side by side, where they differ (the statute as quoted · gazetteers · almanacs)")
    out += side_by_side_lines(rule_set_comparison())
    return "\n".join(out)


def _evidence_json(evidence: Evidence) -> dict[str, Any]:
    out = evidence.model_dump(exclude_none=True, exclude={"sources"})
    if evidence.sources:
        out["sources"] = [
            {
                **ref.model_dump(exclude_none=True),
                "title": ref.entry.heading,
                "kind": ref.entry.kind.value,
                "read": ref.entry.read.value,
                "grade": ref.entry.grade,
                "where": ref.entry.where,
            }
            for ref in evidence.sources
        ]
    return out


def _value_json(value: Value) -> dict[str, Any]:
    return {
        "reading": value.reading,
        "value": value.value,
        "text": value.text,
        "reason": value.reason,
        "evidence": [_evidence_json(e) for e in value.evidence],
    }


def _reading_json(reading: Reading) -> dict[str, Any]:
    return {
        "clock": reading.scenario.clock,
        "day_source": reading.scenario.day_source,
        "boundary": reading.scenario.boundary,
        "clock_time": reading.clock_time.isoformat(),
        "hour": reading.hour.label,
        "hour_branch": reading.hour.branch,
        "day": reading.day.isoformat(),
        "day_ganzhi": reading.day_sexagenary.name,
        "day_nayin": reading.day_sexagenary.nayin.name,
    }


def to_json(result: SpringOx) -> dict[str, Any]:
    lc = result.lichun
    return {
        "year": result.year,
        "year_ganzhi": lc.year_sexagenary.name,
        "rule": result.profile.id,
        "rule_title": result.profile.title,
        "place": {
            "id": result.place.id,
            "name": result.place.name,
            "longitude_deg": result.place.longitude_deg,
        },
        "lichun": {
            "almanac_table_day": lc.table_day.isoformat() if lc.table_day else None,
            "new_year": lc.new_year.isoformat(),
            "used": _reading_json(result.reading),
            "readings": [_reading_json(r) for r in result.readings],
        },
        "choices": dict(result.choices),
        "subtle_points": list(result.subtle_points),
        "attributes": [
            {
                "id": o.id,
                "part": o.part,
                "label": o.label,
                "gloss": o.gloss,
                **({"basis": o.basis} if o.basis else {}),
                **_value_json(o.primary),
                "alternatives": [_value_json(a) for a in o.alternatives],
            }
            for o in result.outcomes
        ],
        "variations": [
            {
                "attribute": v.attribute,
                "values": [{"text": t, "scenarios": [sc.label for sc in scs]} for t, scs in v.values],
            }
            for v in result.variations
        ],
        "differences": {
            "other_rule": result.other_profile,
            "attributes": [
                {
                    "attribute": d.attribute,
                    "label": d.label,
                    result.profile.id: d.this,
                    result.other_profile: d.other,
                }
                for d in result.differences
            ],
            "only_here": list(result.only_here),
            "only_other": list(result.only_other),
        },
        "notes": [_evidence_json(e) for e in result.notes],
        "side_by_side": [_side_json(row) for row in rule_set_comparison()],
        **_choice_json(result),
    }


def _choice_json(result: SpringOx) -> dict[str, Any]:
    """Keys present only for a rule set chosen by the place or built on another (a witness's own)."""
    out: dict[str, Any] = {}
    if result.choice is not None:
        out["rule_choice"] = {
            "rule": result.choice.rule,
            "governing_witness": result.choice.governing,
            "reason": result.choice.reason,
        }
    if result.base is not None:
        out["base_rule"] = result.base
        out["stated_attributes"] = list(result.stated)
    return out


def _holder_json(holder: Holder) -> dict[str, Any]:
    return {
        "rule": holder.rule_set,
        "role": holder.role,
        "who": holder.who,
        "evidence": list(holder.evidence),
    }


def _side_json(row: SideBySide) -> dict[str, Any]:
    return {
        "attribute": row.attribute,
        "label": row.label,
        "readings": [
            {"text": words, "held_by": [_holder_json(h) for h in holders]} for words, holders in row.readings
        ],
        "not_stated_by": [_holder_json(h) for h in row.silent],
    }
