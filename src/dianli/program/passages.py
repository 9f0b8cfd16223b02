"""The passages a program cites, each resolved once and numbered for the booklet's appendix."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

from dianli.corpus.cite import Citation, CitationError
from dianli.corpus.witnesses import load_witness
from dianli.program.model import Passage

CONTEXT_CHARS = 40
"""Reading-text characters shown either side of a quoted passage."""


@functools.lru_cache(maxsize=256)
def _title(witness: str) -> str:
    try:
        return load_witness(witness).info.short_title
    except Exception:  # an unknown witness is reported by the passage's error instead
        return witness


def resolve_passage(pid: str, witness: str, quote: str, section: str | None = None) -> Passage:
    """The quote found in its witness with context, or a passage that carries the resolver's error."""
    base = {"id": pid, "witness": witness, "witness_title": _title(witness), "quote": quote}
    try:
        found = Citation(witness=witness, quote=quote, section=section).resolve()
    except CitationError as exc:
        return Passage(**base, error=str(exc))
    before, text, after = found.context(CONTEXT_CHARS)
    return Passage(
        **base,
        section_id=found.section.id,
        section_title=found.section.title,
        before=before,
        passage=text,
        after=after,
    )


class PassageBook:
    """Numbers citations as they are met (``c1``, ``c2`` …), one entry per (witness, quote)."""

    def __init__(self) -> None:
        self._ids: dict[tuple[str, str], str] = {}
        self._entries: list[Passage] = []

    def ref(self, witness: str, quote: str, section: str | None = None) -> str:
        key = (witness, quote)
        found = self._ids.get(key)
        if found is None:
            found = self._ids[key] = f"c{len(self._ids) + 1}"
            self._entries.append(resolve_passage(found, witness, quote, section))
        return found

    def refs(self, cites: Iterable[Mapping[str, Any]]) -> tuple[str, ...]:
        """Ids of citations given as ``{witness, quote[, section]}`` mappings (rites' plain data)."""
        return tuple(
            self.ref(str(c["witness"]), str(c["quote"]), c.get("section")) for c in cites if "quote" in c
        )

    def cite(self, citation: Citation) -> str:
        return self.ref(citation.witness, citation.quote, citation.section)

    @property
    def passages(self) -> tuple[Passage, ...]:
        return tuple(self._entries)
