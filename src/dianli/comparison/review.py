"""Reviewing a drafted witness: each proposal of its ``readings/drafted.yaml`` accepted or rejected.

A proposal is one rite patch of the drafted readings — days, a hymn or posture in place of another,
offering rounds added (:mod:`dianli.comparison.drafted`) — numbered as the file lists them (1, 2 …).
Accepting moves the patch into ``readings/reviewed.yaml`` (a curated reading); rejecting drops it; either way
the decision is logged in the folder's ``review.yaml`` (the rite, the kind, the values, the decision), so that
the figures of a review — decisions made, accepted, rejected — are data. The command line (``dianli align W
--review``) and the web app's review page (:mod:`dianli.web.review`) call :func:`decide` alike. A drafted file that somebody edited
by hand is not rewritten (the writes refuse a file dianli did not write, unless ``--force``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from dianli.comparison.drafted import DRAFTED_FILE
from dianli.corpus.witnesses import witness_info
from dianli.errors import DianliError

REVIEWED_FILE = "reviewed.yaml"
REVIEW_LOG = "review.yaml"


@dataclass(frozen=True, slots=True)
class Pending:
    """A proposal awaiting a decision: its number, the rite, the kind of fact and the values it states (for
    a hymn or posture 「咸平 → 咸和」), the witness's quotations, and its patch."""

    number: int
    rite: str
    kind: str
    values: tuple[str, ...]
    quotes: tuple[str, ...]
    patch: dict[str, Any]

    @property
    def citations(self) -> tuple[tuple[str, str], ...]:
        """(quotation, section id) of each of the witness's clauses the patch cites, none twice."""
        return tuple(dict.fromkeys(_cites(self.patch)))

    def summary(self) -> str:
        """The proposal in words: 「祀先師禮 · 樂章 (hymn): 咸平 → 咸和」."""
        from dianli.comparison.values import KINDS
        from dianli.rites.load import all_rites

        rite = all_rites().get(self.rite)
        name = rite.names.classical[0] if rite is not None else self.rite
        label = KINDS[self.kind].label if self.kind in KINDS else self.kind
        return f"{name} · {label}: {'、'.join(self.values)}"


def describe(patch: dict[str, Any]) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """(kind, values, quotations) of a drafted rite patch (:meth:`dianli.comparison.drafted.Proposal.patch`):
    its days, the hymn or posture it puts in place of another (「咸平 → 咸和」), or the rounds it adds."""
    from dianli.comparison.values import facts_in

    quotes = tuple(dict.fromkeys(q for q in _quotes(patch)))
    if patch.get("date_rule"):
        return "date_rule", tuple(str(r.get("text", "")) for r in patch["date_rule"]), quotes
    replaced = [
        o["replace_text"]
        for o in patch.get("overrides") or []
        if isinstance(o, dict)
        and isinstance(o.get("replace_text"), dict)
        and o["replace_text"].get("field") == "all"
    ]
    if replaced:
        new = " ".join(str(r.get("new", "")) for r in replaced)
        kind = "posture" if any(v.kind == "posture" for v in facts_in(new)) else "hymn"
        return kind, tuple(f"{r.get('old')} → {r.get('new')}" for r in replaced), quotes
    if patch.get("parts"):
        return "rounds", tuple(str(p.get("title", "")) for p in patch["parts"]), quotes
    return "text", (), quotes


def _cites(node: Any) -> list[tuple[str, str]]:
    if isinstance(node, dict):
        cite = node.get("cite")
        found = (
            [(str(cite["quote"]), str(cite.get("section") or ""))]
            if isinstance(cite, dict) and "quote" in cite
            else []
        )
        return found + [c for k, v in node.items() if k != "cite" for c in _cites(v)]
    if isinstance(node, list):
        return [c for item in node for c in _cites(item)]
    return []


def _quotes(node: Any) -> list[str]:
    if isinstance(node, dict):
        cite = node.get("cite")
        found = [str(cite["quote"])] if isinstance(cite, dict) and "quote" in cite else []
        return found + [q for k, v in node.items() if k != "cite" for q in _quotes(v)]
    if isinstance(node, list):
        return [q for item in node for q in _quotes(item)]
    return []


def _paths(witness: str) -> tuple[Path, Path, Path]:
    folder = witness_info(witness).folder
    return folder / "readings" / DRAFTED_FILE, folder / "readings" / REVIEWED_FILE, folder / REVIEW_LOG


def _load(path: Path, key: str) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    from dianli.datafile import read_yaml

    data = read_yaml(path.read_text(encoding="utf-8")) or {}
    return list(data.get(key) or [])


def _dump(data: dict[str, Any]) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=110)


def pending(witness: str) -> tuple[Pending, ...]:
    """The witness's proposals awaiting review, numbered."""
    drafted, _, _ = _paths(witness)
    out = []
    for number, patch in enumerate(_load(drafted, "rites"), start=1):
        kind, values, quotes = describe(patch)
        out.append(Pending(number, str(patch["id"]), kind, values, quotes, patch))
    return tuple(out)


def decisions(witness: str) -> list[dict[str, Any]]:
    """Every decision made on the witness so far (its ``review.yaml``)."""
    return _load(_paths(witness)[2], "decisions")


def decide(
    witness: str, accept: set[int], reject: set[int], force: bool = False
) -> tuple[tuple[Pending, ...], tuple[Pending, ...]]:
    """Accept and reject proposals by number; returns (accepted, rejected). A number that is not a proposal,
    or one given both ways, is an error naming the numbers there are."""
    from dianli import written

    found = pending(witness)
    numbers = {p.number for p in found}
    both = accept & reject
    if both:
        raise DianliError(f"proposal {min(both)} is both accepted and rejected; give each number once")
    unknown = sorted((accept | reject) - numbers)
    if unknown:
        accepted_numbers = ", ".join(str(n) for n in sorted(numbers)) or "none (nothing is pending)"
        raise DianliError(f"no proposal {unknown[0]} for {witness}; pending: {accepted_numbers}")
    drafted, reviewed, log = _paths(witness)
    taken = tuple(p for p in found if p.number in accept)
    dropped = tuple(p for p in found if p.number in reject)
    kept = [p.patch for p in found if p.number not in accept | reject]
    written.check([drafted, reviewed, log], force)
    if taken:
        head = "# Reviewed readings: drafted proposals a curator accepted (dianli align W --review --accept N).\n"
        rites = _load(reviewed, "rites") + [p.patch for p in taken]
        written.write(reviewed, (head + _dump({"rites": rites})).encode("utf-8"), force)
    head = "# Drafted readings still to review (dianli align W --review).\n"
    written.write(drafted, (head + _dump({"rites": kept})).encode("utf-8"), force)
    entries = decisions(witness) + [
        {"rite": p.rite, "kind": p.kind, "values": list(p.values), "decision": decision}
        for decision, group in (("accepted", taken), ("rejected", dropped))
        for p in group
    ]
    head = "# Review of the drafted readings: every decision, in order (written by dianli align --review).\n"
    written.write(log, (head + _dump({"decisions": entries})).encode("utf-8"), force)
    return taken, dropped
