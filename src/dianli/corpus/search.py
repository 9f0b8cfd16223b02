"""Script-insensitive search over the clauses of every witness, ranked.

A query is split on spaces into terms; each term is folded like the witnesses (钟 finds 鐘). A hit is
a clause that holds every term. Hits are ranked by how much of the clause the terms cover (a short
clause that is mostly the query ranks above a long one that mentions it), then by the witness's
authority (primary witnesses before the modern gloss), then in document order. Clauses never hold an
editorial span (a transcriber's header or ``[OMITTED: …]`` mark), so the words of a mark are never found.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from dianli.corpus.clauses import Clause, clauses
from dianli.corpus.normalise import fold, fold_char, is_key_char
from dianli.corpus.sections import is_within, resolve_section_id
from dianli.corpus.witnesses import load_witness, witness_ids
from dianli.errors import DianliError, UnknownValueError

_AUTHORITY_RANK = {"primary": 0, "gloss": 1}


@dataclass(frozen=True)
class SearchHit:
    """One clause that matches, with the matched spans in reading-text coordinates."""

    clause: Clause
    spans: tuple[tuple[int, int], ...]
    score: float

    @property
    def witness(self) -> str:
        return self.clause.witness

    @property
    def section(self) -> str:
        return self.clause.section


@functools.cache
def _clause_keys(witness_id: str) -> tuple[tuple[Clause, str, tuple[int, ...]], ...]:
    """Each clause with its folding key and the key's map to reading-text offsets."""
    result = []
    for clause in clauses(witness_id):
        key_chars: list[str] = []
        offsets: list[int] = []
        for i, char in enumerate(clause.text):
            if is_key_char(char):
                key_chars.append(fold_char(char))
                offsets.append(clause.start + i)
        result.append((clause, "".join(key_chars), tuple(offsets)))
    return tuple(result)


def search(
    query: str,
    witness: str | None = None,
    section: str | None = None,
    limit: int | None = None,
) -> list[SearchHit]:
    """Find clauses holding every term of ``query``; filter by witness id and section (id or title)."""
    terms = [fold(t) for t in query.split()]
    terms = [t for t in terms if t]
    if not terms:
        raise DianliError(f"search query {query!r} has no characters to search for")
    if witness is not None and witness not in witness_ids():
        raise UnknownValueError("witness", witness, witness_ids())
    section_id = resolve_section_id(section) if section is not None else None
    hits: list[tuple[tuple[float, int, int], SearchHit]] = []
    for order, wid in enumerate(witness_ids()):
        if witness is not None and wid != witness:
            continue
        rank = _AUTHORITY_RANK.get(load_witness(wid).info.authority, 2)
        for clause, key, offsets in _clause_keys(wid):
            if section_id is not None and not is_within(clause.section, section_id):
                continue
            if not all(term in key for term in terms):
                continue
            spans: list[tuple[int, int]] = []
            covered = 0
            for term in terms:
                at = key.find(term)
                while at >= 0:
                    spans.append((offsets[at], offsets[at + len(term) - 1] + 1))
                    covered += len(term)
                    at = key.find(term, at + len(term))
            score = min(1.0, covered / max(1, len(key)))
            hit = SearchHit(clause, tuple(sorted(spans)), round(score, 4))
            hits.append(((-score, rank, order), hit))
    hits.sort(key=lambda pair: (pair[0], pair[1].clause.start))
    ranked = [hit for _, hit in hits]
    return ranked[:limit] if limit is not None else ranked
