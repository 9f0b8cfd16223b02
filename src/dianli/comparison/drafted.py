"""Drafted readings: what a witness states differently from its base, proposed as reading patches for a
curator to accept or reject — so that curating a new gazetteer is reviewing, not writing.

For each rite, the facts a witness's text gives of the kinds read from running text — days, hymn names,
postures, offering rounds (:func:`dianli.comparison.facts.text_facts`, read from its text alone) — are
compared with those of the reading it would otherwise inherit: its manifest's ``base``, else the witness
that governs its place, else the shared rite data. Where the two differ as values (neither set contains the
other, as ``dianli compare`` decides: 二月上戊 against 二月上巳, 咸和 against 咸平), a **proposal** is a
patch of that rite in the schema of ``readings/*.yaml`` citing the witness's own clause:

* days: its ``date_rule`` as the witness states it, each day a rule (the base's related days — 齋戒, 省牲,
  告祭 — are kept by the reading: the checks at load see to it);
* a hymn or a posture: an override of the rite that puts the witness's name in place of the base's, paired
  in the order both name them (「樂奏咸平之章」 → 「樂奏咸和之曲」: ``replace_text`` 咸平 → 咸和; a posture
  also in the steps' ``posture``);
* offering rounds: the rounds the witness names that the base lacks, each a part repeating the first round.

Each proposal has a confidence: high where one clause states it and the text never states what it
replaces, low where the text states that too, else medium. Where they agree, nothing is proposed: the
agreeing clauses are the alignment's business (``alignment.yaml``, written beside them).

``dianli ingest --drafts`` writes the proposals of each drafted witness into its folder as
``readings/drafted.yaml`` (a draft governs no place until reviewed); ``dianli align W --review`` (and the web
app's review page, ``/review/W``) lists them and accepts or rejects each, moving it into ``readings/reviewed.yaml`` or
out, every decision logged in the folder's ``review.yaml`` (:mod:`dianli.comparison.review`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

import yaml

from dianli.calendar.reigns import parse_integer_chinese
from dianli.calendar.term_names import SOLAR_TERMS
from dianli.comparison.facts import Found, text_facts
from dianli.comparison.values import KINDS, MONTHS, NTH, OPEN, day_number, rule_text
from dianli.corpus.normalise import fold
from dianli.corpus.witnesses import DRAFTED_FILE as DRAFTED_FILE  # the proposals' file: defined there
from dianli.corpus.witnesses import witness_info
from dianli.rites.load import all_rites
from dianli.rites.model import Rite
from dianli.rites.vocabulary import postures

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
    monthly = {"每月朔、望": [1, 15], "每月朔": [1], "每月望": [15]}.get(value)
    if monthly is not None:
        return {"kind": "monthly", "days": monthly}
    if fold(value) == fold("萬壽聖節"):
        return {"kind": "wanshou"}
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


PROPOSED_KINDS = ("date_rule", "hymn", "posture", "rounds")
"""The kinds of fact a drafted reading proposes: those read from running text (:mod:`dianli.comparison.facts`)."""


@dataclass(frozen=True, slots=True)
class Proposal:
    """One drafted reading: a fact of a rite as the witness states it, where it differs from its base.

    For days (``date_rule``) the rite's days as the witness states them; for a hymn or a posture one
    name in place of the base's (``replaces``: 咸平 → 咸和); for offering rounds the rounds it states that
    the base lacks."""

    rite: str
    kind: str
    values: tuple[str, ...]
    base: str
    """The witness (or ``rite data``) whose reading it would otherwise inherit."""
    base_values: tuple[str, ...]
    evidence: tuple[Found, ...]
    """The clauses that state the values."""
    replaces: str = ""
    """For a hymn or a posture: the base's value the witness's value stands in place of."""
    contradicted: bool = False
    """The witness's text also states what the proposal replaces (the pairing may be wrong)."""

    @property
    def confidence(self) -> str:
        """``high`` where one clause states every value and the text never states what it replaces,
        ``low`` where the text also states what it replaces, else ``medium``."""
        if self.contradicted:
            return "low"
        return "high" if len({f.clause.start for f in self.evidence}) == 1 else "medium"

    def summary(self) -> str:
        """The proposal in words: 「祀先師禮 · 樂章 (hymn): 咸平 → 咸和」."""
        name = all_rites()[self.rite].names.classical[0]
        words = f"{self.replaces} → {'、'.join(self.values)}" if self.replaces else "、".join(self.values)
        return f"{name} · {KINDS[self.kind].label}: {words}"

    def _cite(self, witness: str, value: str) -> dict[str, Any]:
        found = next((f for f in self.evidence if fold(f.value.text) == fold(value)), self.evidence[0])
        return {
            "witness": witness,
            "quote": found.clause.text.strip("，．。、；：,. 　"),
            "section": found.clause.section,
        }

    def patch(self, witness: str) -> dict[str, Any]:
        """The rite patch in the schema of ``readings/*.yaml``, citing the witness's own clause."""
        if self.kind == "date_rule":
            name = all_rites()[self.rite].names.classical[0]
            rules = [
                {
                    "id": f"{self.rite}-{witness}-{n}",
                    "name": f"{name}（{value}）",
                    "rule": rule_of(value),
                    "text": value,
                    "cite": self._cite(witness, value),
                }
                for n, value in enumerate(self.values, start=1)
            ]
            return {"id": self.rite, "date_rule": rules}
        if self.kind in ("hymn", "posture"):
            new = self.values[0]
            cite = self._cite(witness, new)
            overrides: list[dict[str, Any]] = [
                {"replace_text": {"field": "all", "old": self.replaces, "new": new}, "cite": dict(cite)}
            ]
            if self.kind == "posture" and self.replaces in postures() and new in postures():
                overrides.append(
                    {
                        "replace_text": {"field": "posture", "old": self.replaces, "new": new},
                        "cite": dict(cite),
                    }
                )
            return {"id": self.rite, "overrides": overrides}
        first = _first_round(self.rite)
        parts = [
            {"id": f"{witness}-{n}", "title": value, **({"extends": f"#{first}"} if first else {}),
             "cite": self._cite(witness, value)}
            for n, value in enumerate(self.values, start=1)
        ]  # fmt: skip
        return {"id": self.rite, "parts": parts}


def _first_round(rite: str) -> str | None:
    """The id of the rite's first offering round (the part a round the witness adds repeats)."""
    from dianli.comparison.values import element_values

    for part in all_rites()[rite].parts:
        if any(v.kind == "rounds" for v in element_values(rite, f"{rite}.parts[{part.id}]", part)):
            return part.id
    return None


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


def rite_values(rite: Rite, kind: str) -> tuple[str, ...]:
    """The values of one kind a rite (as some reading gives it) states, in order, none twice: its days as
    rules (rule_text), else the facts its elements state (:func:`dianli.comparison.values.element_values`)."""
    from dianli.comparison.values import element_names, element_values
    from dianli.rites.model import walk_paths

    if kind == "date_rule":
        return tuple(dict.fromkeys(rule_text(d.rule) for d in rite.date_rule))
    names = element_names(rite, rite.id)
    found: dict[str, str] = {}
    for path, element in walk_paths(rite, rite.id):
        for value in element_values(rite.id, path, element, names):
            if value.kind == kind:
                found.setdefault(fold(value.text), value.text)
    return tuple(found.values())


def proposals(witness: str, base: str | None = None) -> tuple[Proposal, ...]:
    """Every fact of a readable kind (days, hymns, postures, offering rounds) the witness's text states of
    a rite differently from the reading it would inherit — or from ``base``'s reading, a witness id, where
    given. Two values differ as in ``dianli compare``: neither set holds the other."""
    if base is not None:
        from dianli.rites.readings import rites_for

        witness_info(base)  # an unknown id is an error naming the known ones
        rites: dict[str, Rite] = dict(rites_for(base))
    else:
        base, rites = _base_reading(witness)
    by_rite: dict[tuple[str, str], list[Found]] = {}
    for fact in text_facts(witness):
        kind = fact.value.kind
        if kind in PROPOSED_KINDS and (kind != "date_rule" or rule_of(fact.value.text) is not None):
            by_rite.setdefault((fact.rite, kind), []).append(fact)
    out: list[Proposal] = []
    for (rite, kind), found in by_rite.items():
        if rite not in rites:
            continue
        theirs = tuple(v for v in rite_values(rites[rite], kind) if v != OPEN)
        values = tuple(dict.fromkeys(f.value.text for f in found))
        mine, other = {fold(v) for v in values}, {fold(v) for v in theirs}
        if mine <= other or (other and other <= mine) or (not other and kind != "date_rule"):
            continue  # the same values (or some of them): nothing to decide
        if kind == "date_rule":
            out.append(Proposal(rite, kind, values, base, theirs, tuple(found)))
        elif kind == "rounds":
            added = tuple(v for v in values if fold(v) not in other)
            evidence = tuple(f for f in found if fold(f.value.text) in {fold(v) for v in added})
            out.append(Proposal(rite, kind, added, base, theirs, evidence))
        else:
            out.extend(_paired(rite, kind, values, base, theirs, found))
    order = {r: i for i, r in enumerate(all_rites())}
    kinds = {k: i for i, k in enumerate(PROPOSED_KINDS)}
    return tuple(sorted(out, key=lambda p: (order.get(p.rite, 0), kinds[p.kind])))


def _paired(
    rite: str, kind: str, values: tuple[str, ...], base: str, theirs: tuple[str, ...], found: list[Found]
) -> list[Proposal]:
    """A hymn or posture proposal for each of the base's values the witness names differently, paired in
    the order both name them (咸平 寧平 安平 against 咸和 寧和 安和)."""
    mine = [fold(v) for v in values]
    other = [fold(v) for v in theirs]
    out = []
    for tag, a0, a1, b0, b1 in SequenceMatcher(None, other, mine, autojunk=False).get_opcodes():
        if tag != "replace":
            continue
        for old, new in zip(theirs[a0:a1], values[b0:b1], strict=False):
            evidence = tuple(f for f in found if fold(f.value.text) == fold(new))
            stated_old = any(fold(f.value.text) == fold(old) for f in found)
            out.append(Proposal(rite, kind, (new,), base, theirs, evidence, old, stated_old))
    return out


def drafted_file(witness: str, found: tuple[Proposal, ...]) -> str:
    """The witness's ``readings/drafted.yaml``: the proposals as rite patches, each headed by a comment
    with its number, what it proposes in words, what the base has and its confidence (a comment, so that
    the file is a reading as it stands)."""
    from dianli.corpus.labels import witness_label

    head = [
        f"# Drafted readings of {witness_label(witness)}, written by `dianli ingest --drafts`: where its text",
        "# states a rite's days, hymns, postures or offering rounds differently from the reading it would",
        f"# inherit. Review them with `dianli align {witness} --review` (--accept N, --reject N) or on the",
        f"# web app's /review/{witness}; do not edit by hand.",
    ]
    patches = []
    for number, proposal in enumerate(found, start=1):
        base = witness_label(proposal.base) if proposal.base != "rite data" else "the rite data"
        head.append(
            f"# [{number}] {proposal.summary()} — {base} has "
            f"{'、'.join(proposal.base_values) or 'none'} ({proposal.confidence} confidence)"
        )
        patches.append(proposal.patch(witness))
    body = yaml.safe_dump({"rites": patches}, allow_unicode=True, sort_keys=False, width=110)
    return "\n".join(head) + "\n" + body
