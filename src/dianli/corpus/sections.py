"""Sections: the shared section tree and where each section stands in each witness.

The tree (ids, titles, parents) is ``data/sections.yaml`` (:mod:`dianli.corpus.tree`); where each
heading stands in a witness is the ``anchors`` list of its ``witness.yaml``: section ids with the heading
text as the witness writes it, found in order on the folding key (so an unpunctuated or inline heading is found the same way
as one on its own line). The anchor ``"="`` puts a section at the same place as the one before it (a
rite whose first sub-section heading is its only heading); ``"heading|context"`` anchors on a heading
that the context must follow; ``"…heading"`` marks a section whose start is lost. A fragment that starts
inside a section names it as ``starts_in``; such sections are marked ``mid_start``.
"""

from __future__ import annotations

import bisect
import functools
from dataclasses import dataclass

from dianli.corpus.normalise import Normalised, fold
from dianli.corpus.tree import SectionDef as SectionDef  # the tree, re-exported where it was defined
from dianli.corpus.tree import section_defs as section_defs
from dianli.corpus.witnesses import Witness, load_witness, witness_ids
from dianli.errors import DataError, UnknownValueError

SAME_PLACE = "="
MID_START = "…"
CONTEXT_MARK = "|"


@dataclass(frozen=True)
class Section:
    """One occurrence of a section in a witness, in reading-text coordinates (half-open)."""

    witness: str
    id: str
    title: str
    start: int
    end: int
    heading: str
    """The heading as the witness writes it ('' where the section has no heading of its own)."""
    mid_start: bool
    """True where the witness's fragment begins inside this section (its start is lost)."""

    @property
    def depth(self) -> int:
        return self.id.count(".")


def ancestors(section_id: str) -> list[str]:
    """The ids above a section, root first."""
    defs = section_defs()
    chain: list[str] = []
    parent = defs[section_id].parent
    while parent is not None:
        chain.insert(0, parent)
        parent = defs[parent].parent
    return chain


def is_within(section_id: str, other: str) -> bool:
    """Whether ``section_id`` is ``other`` or lies below it."""
    return section_id == other or other in ancestors(section_id)


def resolve_section_id(name: str) -> str:
    """Accept a section id (``xianshi.chenshe``), a title (``陳設``) or a heading as any witness writes
    it (``祭至聖先師儀注``, ``祀先师乐``), in either script."""
    defs = section_defs()
    if name in defs:
        return name
    folded = fold(name)
    matches = sorted(_names_by_key().get(folded, set())) if folded else []
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise UnknownValueError(
            "section", name, matches, hint="the title is ambiguous: give one of these ids"
        )
    raise UnknownValueError("section", name, [f"{d.id} ({d.title})" for d in defs.values()])


@functools.lru_cache(maxsize=1)
def _names_by_key() -> dict[str, set[str]]:
    """Folded titles and witness headings, each with the section ids it names."""
    names: dict[str, set[str]] = {}
    for definition in section_defs().values():
        names.setdefault(fold(definition.title), set()).add(definition.id)
    for witness_id in witness_ids():
        for section in sections(witness_id):
            if section.heading and fold(section.heading):
                names.setdefault(fold(section.heading), set()).add(section.id)
    return names


@functools.cache
def sections(witness_id: str) -> tuple[Section, ...]:
    """Every section occurrence of a witness, in document order (parents before their children)."""
    wit = load_witness(witness_id)
    bounds = tuple((_text_at_raw(wit, f.start), _text_at_raw(wit, f.end), f.starts_in) for f in wit.fragments)
    return sections_of(witness_id, wit.norm, wit.info.anchors, bounds, str(wit.info.manifest_path))


def sections_of(
    witness_id: str,
    norm: Normalised,
    anchors: tuple[tuple[str, str], ...],
    fragments: tuple[tuple[int, int, str | None], ...],
    where: str,
) -> tuple[Section, ...]:
    """The sections that ``anchors`` (as a manifest writes them) open in a normalised text cut into
    ``fragments`` (reading-text start, end, the section a fragment starts in): what :func:`sections` builds
    for a witness, and what a drafted manifest's anchors would build (:mod:`dianli.corpus.draft`).
    ``where`` names the anchors' manifest in an error."""
    # Events: (reading-text offset, section id, mid_start, heading text). Fragment starts come first.
    events: list[tuple[int, str, bool, str]] = []
    for t_start, _t_end, starts_in in fragments:
        events.append((t_start, starts_in or "front", starts_in is not None, ""))
    key_pos = 0
    previous = 0
    for section_id, anchor in anchors:
        mid = anchor.startswith(MID_START)
        heading, _, context = anchor.removeprefix(MID_START).partition(CONTEXT_MARK)
        if heading == SAME_PLACE:
            found, length = previous, 0
        else:
            needle = fold(heading)
            found = norm.key.find(needle + fold(context), key_pos)
            if not needle or found < 0:
                raise DataError(
                    f"{where}: anchors: heading {anchor!r} of section {section_id!r} is not "
                    f"in the text after the previous anchor (key offset {key_pos}); accepted: the heading as "
                    f"the witness writes it, in document order"
                )
            length = len(needle)
            key_pos = found + length
        t0, t1 = norm.text_span_of_key(found, found + length)
        events.append((t0, section_id, mid, "" if mid else norm.text[t0:t1]))
        previous = found
    events.sort(key=lambda e: e[0])  # stable: anchors at one place keep their order
    result: list[Section] = []
    for f_start, f_end, _starts_in in fragments:
        stack: list[tuple[str, int, bool, str]] = []
        for at, sid, mid, heading in events:
            if not f_start <= at < f_end:
                continue
            while stack and not is_within(sid, stack[-1][0]):
                result.append(_closed(witness_id, stack.pop(), at))
            open_ids = {s[0] for s in stack}
            for ancestor in ancestors(sid):
                if ancestor not in open_ids:
                    stack.append((ancestor, at, mid, ""))
            stack.append((sid, at, mid, heading))
        while stack:
            result.append(_closed(witness_id, stack.pop(), f_end))
    result.sort(key=lambda s: (s.start, s.depth))
    return tuple(result)


def _closed(witness_id: str, opened: tuple[str, int, bool, str], end: int) -> Section:
    sid, start, mid, heading = opened
    return Section(witness_id, sid, section_defs()[sid].title, start, end, heading, mid)


def _text_at_raw(wit: Witness, raw_offset: int) -> int:
    norm = wit.norm
    return bisect.bisect_left(norm.text_to_raw, raw_offset, 0, len(norm.text))


def section_ids(witness_id: str) -> tuple[str, ...]:
    """The distinct section ids a witness holds, in document order."""
    seen: dict[str, None] = {}
    for section in sections(witness_id):
        seen.setdefault(section.id, None)
    return tuple(seen)


def section_at(witness_id: str, text_offset: int) -> Section:
    """The innermost section that holds a reading-text offset."""
    best: Section | None = None
    for section in sections(witness_id):
        if section.start <= text_offset < section.end and (best is None or section.depth >= best.depth):
            best = section
    if best is None:
        for section in sections(witness_id):
            if section.end == text_offset:
                best = section
    if best is None:
        raise ValueError(f"offset {text_offset} is outside every section of {witness_id!r}")
    return best


def find_sections(witness_id: str, section_id: str) -> tuple[Section, ...]:
    """The occurrences of one section in a witness (a section cut by a fragment gap occurs twice)."""
    if witness_id not in witness_ids():
        raise UnknownValueError("witness", witness_id, witness_ids())
    sid = resolve_section_id(section_id)
    found = tuple(s for s in sections(witness_id) if s.id == sid)
    if not found:
        raise UnknownValueError(
            f"section of witness {witness_id}",
            section_id,
            section_ids(witness_id),
            hint="that section is not in this witness",
        )
    return found
