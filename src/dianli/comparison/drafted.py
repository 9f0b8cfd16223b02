"""Drafted readings: what a witness states differently from its base, proposed as reading patches for a
curator to accept or reject — so that curating a new gazetteer is reviewing, not writing.

For each rite, the days a witness's text gives (:func:`dianli.comparison.facts.text_facts`, read from its
text alone) are compared with the days of the reading it would otherwise inherit — its manifest's ``base``,
else the witness that governs its place, else the shared rite data. Where the two differ as values (neither
set contains the other: 二月上戊 against 二月上巳), a **proposal** is a patch of that rite in the schema of
``readings/*.yaml``: its ``date_rule`` as the witness states it, each day a rule with the witness's own
clause as citation. The base's related days (齋戒, 省牲, 告祭) are kept by the reading (the checks at load see
to it). Where they agree, nothing is proposed: the agreeing clauses are the alignment's business
(``alignment.yaml``).

``dianli ingest --drafts`` writes the proposals of each drafted witness into its folder as
``readings/drafted.yaml`` (a draft governs no place until reviewed); ``dianli align W --review`` lists them
and ``--accept N`` / ``--reject N`` moves each into ``readings/reviewed.yaml`` or out, every decision logged
in the folder's ``review.yaml`` (:mod:`dianli.comparison.review`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml

from dianli.calendar.reigns import parse_integer_chinese
from dianli.calendar.term_names import SOLAR_TERMS
from dianli.comparison.facts import Found, text_facts
from dianli.comparison.values import MONTHS, NTH, OPEN, day_number, rule_text
from dianli.corpus.normalise import fold
from dianli.corpus.witnesses import DRAFTED_FILE as DRAFTED_FILE  # the proposals' file: defined there
from dianli.corpus.witnesses import witness_info
from dianli.rites.load import all_rites
from dianli.rites.model import Rite

_MONTH = {f"{m}月": n for n, m in enumerate(MONTHS, start=1)}
_NTH = {v: k for k, v in NTH.items()}
_STEMS = "甲乙丙丁戊己庚辛壬癸"
_TERMS = {fold(t): t for t in SOLAR_TERMS}


def rule_of(value: str) -> dict[str, Any] | None:
    """The ``rule:`` block of the rite data for a day in the witnesses' words (the inverse of
    :func:`dianli.comparison.values.rule_text`), or None where the words are no rule the calendar computes."""
    month = re.match(r"^(正|十一|十二|[二三四五六七八九十])月(.+)$", value)
    if month:
        number, rest = _MONTH[f"{month.group(1)}月"], month.group(2)
        nth = re.match(rf"^([上中下])([{_STEMS}子丑寅卯辰巳午未申酉戌亥])$", rest)
        if nth:
            kind = "stem_day_of_month" if nth.group(2) in _STEMS else "branch_day_of_month"
            field = "stem" if kind == "stem_day_of_month" else "branch"
            out: dict[str, Any] = {"kind": kind, "month": number, field: nth.group(2)}
            if _NTH[nth.group(1)] != 1:
                out["nth"] = _NTH[nth.group(1)]
            return out
        day = day_number(rest)
        return {"kind": "lunar_day", "month": number, "day": day} if day else None
    if value == "每月朔、望":
        return {"kind": "monthly", "days": [1, 15]}
    term = re.match(r"^(\w{2})(?:前([一二三])日|[後后](\w)日)?$", value)
    if term and fold(term.group(1)) in _TERMS:
        name = _TERMS[fold(term.group(1))]
        if term.group(3):
            return {"kind": "branch_day_after_term", "term": name, "branch": term.group(3)}
        out = {"kind": "solar_term", "term": name}
        if term.group(2):
            out["days_before"] = parse_integer_chinese(term.group(2))
        return out
    return None


@dataclass(frozen=True, slots=True)
class Proposal:
    """One drafted reading: a rite's days as the witness states them, where they differ from its base."""

    rite: str
    values: tuple[str, ...]
    base: str
    """The witness (or ``rite data``) whose days it would otherwise inherit."""
    base_values: tuple[str, ...]
    evidence: tuple[Found, ...]
    """The clauses that state the days."""

    @property
    def confidence(self) -> str:
        """``high`` where one clause states every day, else ``medium`` (the days gathered from several)."""
        return "high" if len({f.clause.start for f in self.evidence}) == 1 else "medium"

    def patch(self, witness: str) -> dict[str, Any]:
        """The rite patch in the schema of ``readings/*.yaml``."""
        name = all_rites()[self.rite].names.classical[0]
        rules = []
        for n, value in enumerate(self.values, start=1):
            found = next(f for f in self.evidence if fold(f.value.text) == fold(value))
            rules.append(
                {
                    "id": f"{self.rite}-{witness}-{n}",
                    "name": f"{name}（{value}）",
                    "rule": rule_of(value),
                    "text": value,
                    "cite": {
                        "witness": witness,
                        "quote": found.clause.text.strip("，．。、；：,. 　"),
                        "section": found.clause.section,
                    },
                }
            )
        return {"id": self.rite, "date_rule": rules}


def _base_reading(witness: str) -> tuple[str, dict[str, Rite]]:
    """(who, rites) of the reading the witness would inherit: its base, else the witness that governs its
    first place in its year (drafts not counted), else the shared rite data."""
    from dianli.errors import DianliError
    from dianli.places.governs import governing_witness
    from dianli.rites.readings import rites_for

    info = witness_info(witness)
    if info.base:
        return info.base, dict(rites_for(info.base))
    for entry in info.governs:
        try:
            other = governing_witness(entry.place, entry.from_year)
        except DianliError:
            continue
        if other != witness:
            return other, dict(rites_for(other))
    return "rite data", dict(all_rites())


def proposals(witness: str, base: str | None = None) -> tuple[Proposal, ...]:
    """Every rite whose days the witness states differently from the reading it would inherit (or from
    ``base``'s reading, a witness id, where given)."""
    if base is not None:
        from dianli.rites.readings import rites_for

        witness_info(base)  # an unknown id is an error naming the known ones
        rites: dict[str, Rite] = dict(rites_for(base))
    else:
        base, rites = _base_reading(witness)
    by_rite: dict[str, list[Found]] = {}
    for fact in text_facts(witness):
        if fact.value.kind == "date_rule" and rule_of(fact.value.text) is not None:
            by_rite.setdefault(fact.rite, []).append(fact)
    out = []
    for rite, found in by_rite.items():
        if rite not in rites:
            continue
        theirs = tuple(dict.fromkeys(rule_text(d.rule) for d in rites[rite].date_rule))
        values = tuple(dict.fromkeys(f.value.text for f in found))
        mine, other = {fold(v) for v in values}, {fold(v) for v in theirs if v != OPEN}
        if mine <= other or (other and other <= mine):
            continue  # the same days (or some of them): nothing to decide
        out.append(Proposal(rite, values, base, theirs, tuple(found)))
    return tuple(out)


def drafted_file(witness: str, found: tuple[Proposal, ...]) -> str:
    """The witness's ``readings/drafted.yaml``: the proposals as rite patches, each headed by a comment
    with its number, confidence and evidence (a comment, so that the file is a reading as it stands)."""
    from dianli.corpus.labels import witness_label

    head = [
        f"# Drafted readings of {witness_label(witness)}, written by `dianli ingest --drafts`: where its text",
        "# states a rite's days differently from the reading it would inherit. Review them with",
        f"# `dianli align {witness} --review` (--accept N, --reject N); do not edit by hand.",
    ]
    patches = []
    for number, proposal in enumerate(found, start=1):
        head.append(
            f"# [{number}] {all_rites()[proposal.rite].names.classical[0]}: {'、'.join(proposal.values)} — "
            f"{witness_label(proposal.base) if proposal.base != 'rite data' else 'the rite data'} has "
            f"{'、'.join(proposal.base_values) or 'none'} ({proposal.confidence} confidence)"
        )
        patches.append(proposal.patch(witness))
    body = yaml.safe_dump({"rites": patches}, allow_unicode=True, sort_keys=False, width=110)
    return "\n".join(head) + "\n" + body
