"""The passages a program cites, each resolved once and numbered for the booklet's appendix.

A resolved quote depends only on its witness's text (and the code that searches it), so what each
witness's quotes resolve to is kept in the on-disk cache (:mod:`dianli.cache`): one entry per witness
(:class:`WitnessQuotes`) under :func:`dianli.cache.installed_key` of the witness — a key naming every file
of the package and of the extra witness folders and the libraries, so an entry is never stale. The entry
grows as programs cite more of the witness; a booklet for another place or year reads the quotes it
shares with earlier ones instead of loading the witness and searching it again.
"""

from __future__ import annotations

import functools
import pickle
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from dianli import cache
from dianli.program.model import Passage

if TYPE_CHECKING:
    from dianli.corpus.cite import Citation

CONTEXT_CHARS = 40
"""Reading-text characters shown either side of a quoted passage."""
CACHE_NAME = "program.passages"
"""The name of a witness's resolved quotes in the on-disk cache."""

Quote = tuple[str, str | None]
"""A quote and the section it is looked for in (None: the whole witness)."""


@functools.lru_cache(maxsize=256)
def _title(witness: str) -> str:
    from dianli.corpus.witnesses import load_witness

    try:
        return load_witness(witness).info.short_title
    except Exception:  # an unknown witness is reported by the passage's error instead
        return witness


def _resolved_fields(witness: str, quote: str, section: str | None) -> dict[str, Any]:
    """What a quote resolves to in its witness (the fields of :class:`Passage` past id, witness, title
    and quote): the passage with its context and section, or the resolver's error."""
    from dianli.corpus.cite import CitationError, resolve

    try:  # the resolver itself: the citation was validated where it was read (no model built here)
        found = resolve(witness, quote, section)
    except CitationError as exc:
        return {"error": str(exc)}
    before, text, after = found.context(CONTEXT_CHARS)
    return {
        "section_id": found.section.id,
        "section_title": found.section.title,
        "before": before,
        "passage": text,
        "after": after,
    }


def resolve_passage(pid: str, witness: str, quote: str, section: str | None = None) -> Passage:
    """The quote found in its witness with context, or a passage that carries the resolver's error."""
    return Passage(
        id=pid,
        witness=witness,
        witness_title=_title(witness),
        quote=quote,
        **_resolved_fields(witness, quote, section),
    )


class WitnessQuotes:
    """The quotes of one witness resolved so far, kept on disk between runs: its short title and, for each
    (quote, section), the fields :func:`_resolved_fields` gives. Every entry is what resolving gives with
    the files its key names; entries are added as they are asked for and written back by :meth:`save`
    (when the process ends, only if the files did not change meanwhile: :func:`dianli.cache.write_checked`)."""

    def __init__(self, witness: str) -> None:
        self.witness = witness
        self.key = cache.installed_key(CACHE_NAME, witness)
        self.title: str | None = None
        self.quotes: dict[Quote, dict[str, Any]] = {}
        self.changed = False
        stored = cache.read(cache.DERIVED, self.key, ".pickle")
        if stored is not None:
            try:
                title, quotes = pickle.loads(stored)
                self.title, self.quotes = str(title), dict(quotes)
            except Exception:  # a damaged entry is made again
                self.title, self.quotes = None, {}

    def short_title(self) -> str:
        if self.title is None:
            self.title, self.changed = _title(self.witness), True
        return self.title

    def fields(self, quote: str, section: str | None) -> dict[str, Any]:
        found = self.quotes.get((quote, section))
        if found is None:
            found = self.quotes[(quote, section)] = _resolved_fields(self.witness, quote, section)
            self.changed = True
        return found

    def save(self) -> None:
        if self.changed:
            blob = pickle.dumps((self.title, self.quotes), protocol=cache.PICKLE_PROTOCOL)
            cache.write_checked(cache.DERIVED, self.key, blob, ".pickle")
            self.changed = False


class PassageBook:
    """Numbers citations as they are met (``c1``, ``c2`` …), one entry per (witness, quote); each resolved
    through its witness's :class:`WitnessQuotes`, the new ones stored when :attr:`passages` is read."""

    def __init__(self) -> None:
        self._ids: dict[tuple[str, str], str] = {}
        self._entries: list[Passage] = []
        self._witnesses: dict[str, WitnessQuotes] = {}

    def _resolve(self, pid: str, witness: str, quote: str, section: str | None) -> Passage:
        known = self._witnesses.get(witness)
        if known is None:
            known = self._witnesses[witness] = WitnessQuotes(witness)
        return Passage(
            id=pid,
            witness=witness,
            witness_title=known.short_title(),
            quote=quote,
            **known.fields(quote, section),
        )

    def ref(self, witness: str, quote: str, section: str | None = None) -> str:
        key = (witness, quote)
        found = self._ids.get(key)
        if found is None:
            found = self._ids[key] = f"c{len(self._ids) + 1}"
            self._entries.append(self._resolve(found, witness, quote, section))
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
        for known in self._witnesses.values():
            known.save()
        return tuple(self._entries)
