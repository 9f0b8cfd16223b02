"""Dated events and what they are about: the rites whose elements the clause of a date states, read from
the correspondence table (:mod:`dianli.comparison.table`) — the one source of "which witness states what,
where" that ``compare``, ``coverage``, ``align`` and ``variants`` read too.

A dated event (:mod:`dianli.corpus.dated_events`) is a reign date in a clause of a witness. The clause is
*about* a rite when some statement of the table — a hand citation, a curated reading, an agreeing clause
of an alignment, a drafted reading — quotes a stretch of it for an element of that rite (「雍正四年，…建
先農壇」 states 耕耤's venue). A date in a clause no statement quotes is about no rite: the timeline still
shows it, and ``--rite`` leaves it out. So ``dianli timeline --place 鳳山縣 --rite 山川`` answers "from when
does the text say so": the dates the governing witnesses state in the clauses that state 山川.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Iterable

from dianli.corpus.clauses import clauses
from dianli.corpus.dated_events import DatedEvent


@functools.cache
def _rite_spans(witness: str) -> tuple[tuple[int, ...], tuple[tuple[int, int, str], ...]]:
    """The witness's statements of a rite as (start, end, rite), sorted by start, with their starts."""
    from dianli.comparison.table import table

    spans = sorted({(s.start, s.end, s.rite) for s in table().where(witness=witness) if s.rite})
    return tuple(start for start, _end, _rite in spans), tuple(spans)


@functools.cache
def _clause_starts(witness: str) -> tuple[int, ...]:
    return tuple(c.start for c in clauses(witness))


def clause_span(witness: str, offset: int) -> tuple[int, int]:
    """The reading-text span of the clause of ``witness`` that holds ``offset``."""
    found = clauses(witness)
    index = bisect.bisect_right(_clause_starts(witness), offset) - 1
    if 0 <= index < len(found) and found[index].start <= offset < found[index].end:
        return found[index].start, found[index].end
    return offset, offset + 1


def rites_stated(witness: str, start: int, end: int) -> tuple[str, ...]:
    """The rites that some statement of ``witness`` overlapping ``start``..``end`` is about, in text order."""
    starts, spans = _rite_spans(witness)
    out: dict[str, None] = {}
    # a statement that begins before ``end`` may overlap; those beginning far before are checked by end
    for _start, s_end, rite in spans[: bisect.bisect_left(starts, end)]:
        if s_end > start:
            out.setdefault(rite, None)
    return tuple(out)


def event_rites(event: DatedEvent) -> tuple[str, ...]:
    """The rites the clause of a dated event states (none: its clause states no element of the model)."""
    return rites_stated(event.witness, *clause_span(event.witness, event.offset))


def about_rite(events: Iterable[DatedEvent], rite: str) -> tuple[DatedEvent, ...]:
    """The events whose clause states an element of ``rite`` (an id)."""
    return tuple(e for e in events if rite in event_rites(e))
