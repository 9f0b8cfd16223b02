"""Witness text for reading: spans marked as note or main text, and an original's section beside its
translation. Which witness translates which is the manifests' ``translation_of``
(:func:`dianli.corpus.witnesses.translation_pairs`); a translation shares the section ids of its original."""

from __future__ import annotations

from collections.abc import Iterable

from dianli.corpus.sections import find_sections
from dianli.corpus.witnesses import load_witness, translation_pairs
from dianli.errors import DianliError
from dianli.program.model import Parallel, Segment


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


def translations(witness: str) -> tuple[str, ...]:
    """The witnesses that translate ``witness``, in witness order (() for none)."""
    return tuple(translation for original, translation in translation_pairs() if original == witness)


def translation_segments(witness: str, section_id: str) -> tuple[Segment, ...]:
    """A section in the first translation of ``witness`` that holds it; () when none does."""
    for translation in translations(witness):
        found = section_segments(translation, section_id)
        if found:
            return found
    return ()


def parallels(section_ids: Iterable[str]) -> tuple[Parallel, ...]:
    """Each section that both an original and its translation hold, side by side, pair by pair."""
    wanted = tuple(dict.fromkeys(section_ids))
    out = []
    for original, translation in translation_pairs():
        for sid in wanted:
            classical = section_segments(original, sid)
            modern = section_segments(translation, sid)
            if classical and modern:
                title = find_sections(original, sid)[0].title
                out.append(Parallel(section_id=sid, title=title, classical=classical, modern=modern))
    return tuple(out)
