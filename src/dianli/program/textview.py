"""Witness text for reading: spans marked as note or main text, and a classical section beside its
modern translation (the gloss witness shares the section ids of the classical one)."""

from __future__ import annotations

from collections.abc import Iterable

from dianli.corpus.sections import find_sections
from dianli.corpus.witnesses import load_witness
from dianli.errors import DianliError
from dianli.program.model import Parallel, Segment

CLASSICAL = "fujian-tongzhi-14"
MODERN = "fujian-tongzhi-14-modern"


def segments(witness: str, start: int, end: int) -> tuple[Segment, ...]:
    """The reading text from ``start`` to ``end`` cut into main text and notes (small print, 【】, ())."""
    norm = load_witness(witness).norm
    cuts: list[Segment] = []
    at = start
    for note in norm.notes:
        if note.end <= at or note.start >= end:
            continue
        if note.start > at:
            cuts.append(Segment(text=norm.text[at : note.start], note=False))
        stop = min(note.end, end)
        cuts.append(Segment(text=norm.text[max(at, note.start) : stop], note=True))
        at = stop
    if at < end:
        cuts.append(Segment(text=norm.text[at:end], note=False))
    return tuple(cuts)


def section_segments(witness: str, section_id: str) -> tuple[Segment, ...]:
    """All of a section's occurrences in a witness, as segments; () when the witness lacks it."""
    try:
        found = find_sections(witness, section_id)
    except DianliError:
        return ()
    return tuple(seg for s in found for seg in segments(witness, s.start, s.end))


def parallels(section_ids: Iterable[str]) -> tuple[Parallel, ...]:
    """Each section that both the classical text and its modern translation hold, side by side."""
    out = []
    for sid in dict.fromkeys(section_ids):
        classical = section_segments(CLASSICAL, sid)
        modern = section_segments(MODERN, sid)
        if classical and modern:
            title = find_sections(CLASSICAL, sid)[0].title
            out.append(Parallel(section_id=sid, title=title, classical=classical, modern=modern))
    return tuple(out)
