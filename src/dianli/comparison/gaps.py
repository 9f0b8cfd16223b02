"""What an alignment leaves, at the level a reader means it: a part of a rite no clause states, and clauses
about a rite the model does not have.

* A **missing part** is a part of a rite (an offering round, a shrine's service: ``rite.parts[id]``) of a
  section the witness holds, of which no element was matched at all — reported once, as the part, never as
  its dozen missing steps. A part the witness states in part is not missing (its missing steps are).
* A **rite not in the model** is a run of *new* clauses headed by the name of a temple, shrine or altar
  (「風神廟：在媽宮澳…」) that names no rite of the model (not an id, a name nor an alias): grouped under
  that name with a proposed skeleton — the name, the venue, the days the clauses state (read as values,
  :mod:`dianli.comparison.values`) and the clause that heads them — for a curator to accept as new rite
  data.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from dianli.comparison.align import Alignment
from dianli.comparison.values import facts_in
from dianli.corpus.clauses import Clause
from dianli.corpus.normalise import fold
from dianli.errors import UnknownValueError
from dianli.rites.load import all_rites
from dianli.rites.model import Venue

MIN_SPANS = 2
"""A part counts as missing only when the model states it in at least this many places (a part cited once,
by a heading, says too little to be missed)."""
_PART = re.compile(r"^(.*?\.parts\[[^\]]+\])")
_HEADING = re.compile(r"^[：:\s]*(\w{1,4}?(?:廟|庙|祠|壇|坛|宮|宫))(?:[：:]|在)")
_SENTENCE_WORDS = re.compile(r"[其以为為之於于故今原明一即設设祭]")
"""Characters that make a run a sentence, not a name (「其制累石為壇」, 「故立之廟」, 「一祠在…」)."""


@dataclass(frozen=True, slots=True)
class MissingPart:
    """A part of a rite that no clause of the witness states."""

    rite: str
    part: str
    """Its path (``xianshi.parts[yaxian]``)."""
    title: str
    """The part's title, after the rite's name (「關帝廟·後殿 初獻」)."""
    spans: int
    """How many statements of the model it has (the evidence that a witness could state it)."""


@dataclass(frozen=True, slots=True)
class NewRite:
    """Clauses about a temple, shrine or altar the model has no rite for, with a proposed skeleton."""

    name: str
    clauses: tuple[Clause, ...]
    days: tuple[str, ...]

    def skeleton(self, witness: str) -> dict[str, Any]:
        """The proposed rite data: name, venue and days, each cited to the witness's own clause."""
        head = self.clauses[0]
        cite = {"witness": witness, "quote": head.text.strip("，．。、；：,. 　"), "section": head.section}
        out: dict[str, Any] = {
            "names": {"classical": [self.name], "gloss": "to be written by the curator", "cite": cite},
            "venue": [{"name": self.name, "cite": cite}],
        }
        if self.days:
            out["days (as stated)"] = list(self.days)
        return out


def _title(rite: str, part: str, witnesses: set[str]) -> str:
    """The part's title, from the shared data or from the reading of a witness that states it."""
    from dianli.rites.readings import rites_for

    ident = part.rsplit("[", 1)[-1].rstrip("]")
    for reading in (all_rites(), *(rites_for(w) for w in sorted(witnesses))):
        found = reading.get(rite)
        for p in found.parts if found is not None else ():
            if p.id == ident:
                return p.title
    return "a part"


def _label(part: str, witnesses: set[str]) -> str:
    rite = part.split(".", 1)[0]
    name = all_rites()[rite].names.classical[0] if rite in all_rites() else rite
    return f"{name}·{_title(rite, part, witnesses)}"


def missing_parts(result: Alignment) -> tuple[MissingPart, ...]:
    """The parts of the rites the witness holds that none of its clauses states."""
    stated = {e for a in result.clauses if a.kind in ("same", "variant") for e in a.elements}
    stated_parts = {m.group(1) for e in stated if (m := _PART.match(e))} | stated
    counts: dict[str, int] = {}
    witnesses: dict[str, set[str]] = {}
    for span in result.missing:
        match = _PART.match(span.element)
        if match:
            counts[match.group(1)] = counts.get(match.group(1), 0) + 1
            witnesses.setdefault(match.group(1), set()).add(span.witness)
    out = [
        MissingPart(part.split(".", 1)[0], part, _label(part, witnesses[part]), n)
        for part, n in counts.items()
        if part not in stated_parts and n >= MIN_SPANS
    ]
    return tuple(sorted(out, key=lambda m: (m.rite, m.part)))


def _is_a_rite(name: str) -> bool:
    """Whether a heading names a rite of the model: by its id, name or alias, or as one of its venues."""
    from dianli.rites.resolve import find_rite

    try:
        find_rite(name)
    except UnknownValueError:
        key = fold(name)
        return any(key in fold(v.name) or fold(v.name) in key for v in _venues())
    return True


@functools.cache
def _venues() -> tuple[Venue, ...]:
    """Every venue of every rite as the shared data and every witness's reading name it (啟聖祠, 武廟 …)."""
    from dianli.corpus.witnesses import witness_ids
    from dianli.rites.readings import rites_for

    readings = (all_rites(), *(rites_for(w) for w in witness_ids()))
    found = {
        v.name: v for reading in readings for rite in reading.values() for v in rite.venue if fold(v.name)
    }
    return tuple(found.values())


def rites_not_in_model(result: Alignment) -> tuple[NewRite, ...]:
    """Runs of new clauses headed by a temple's, shrine's or altar's name that names no rite of the model."""
    groups: list[tuple[str, list[Clause]]] = []
    current: list[Clause] | None = None
    for aligned in result.clauses:
        heading = _HEADING.match(aligned.clause.text) if aligned.kind == "new" else None
        if heading is not None:
            name = heading.group(1)
            known = _SENTENCE_WORDS.search(name) or _is_a_rite(name) or _is_a_rite(name[:-1])
            current = None if known else []
            if current is not None:
                groups.append((name, current))
                current.append(aligned.clause)
            continue
        if aligned.kind != "new":
            current = None
        elif current is not None:
            current.append(aligned.clause)
    out = []
    for name, clauses in groups:
        days = tuple(
            dict.fromkeys(v.text for c in clauses for v in facts_in(c.text) if v.kind == "date_rule")
        )
        out.append(NewRite(name, tuple(clauses), days))
    return tuple(out)
