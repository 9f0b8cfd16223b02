"""A ceremony day made of rites: the occasion a rite belongs to, as the rite data says.

A rite's ``occasion`` links (:class:`~dianli.rites.model.OccasionLink`) name the rites held before or after
it on the same occasion, each link cited (「凡祭文廟，必先崇聖祠」: 崇聖祠 before 文廟; 「文廟祭畢，乃祭…」: the
shrines after it; 迎春 the day before 鞭春). The occasion of a rite at a place in a year is every rite its
links reach — a link counts where it is in force (it is an element: years, places, witnesses) and both
rites it joins are held at the place that year — ordered by day, and within a day by the links (a
topological order; rites the links leave unordered keep the order of the rite data). Nothing here names a
rite: a rite without links is an occasion of one.
"""

from __future__ import annotations

import functools
import heapq
import html
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta

from dianli.corpus.cite import Citation
from dianli.corpus.labels import witness_label
from dianli.errors import DataError, DianliError, UnknownValueError
from dianli.rites.load import all_rites
from dianli.rites.model import OccasionLink
from dianli.rites.observances import Occurrence, observances_for
from dianli.rites.readings import rites_for, translation_family, witnesses_with_rite
from dianli.rites.render import Exhibit, exhibits_html, plan_lines, source_label, step_line, venue_line
from dianli.rites.resolve import ResolvedRite, preferred_citations, resolve_rite, scope_for


@dataclass(frozen=True)
class Placement:
    """One link in force between two rites of the occasion: ``first`` is held ``days`` before ``second``
    (0: the same day, ``first`` finished before ``second`` begins); ``declared_by`` holds the link."""

    first: str
    second: str
    days: int
    link: OccasionLink
    declared_by: str


@dataclass(frozen=True)
class Member:
    """A rite of the occasion, resolved at the place and year; ``day`` counts days from the day of the
    rite the occasion was asked for (−1: the day before); ``placements`` are the links that place it."""

    resolved: ResolvedRite
    day: int
    placements: tuple[Placement, ...]
    reading_note: str | None = None
    """Set when the witness asked for does not hold this rite and it is read in the place's own."""

    @property
    def rite(self) -> str:
        return self.resolved.rite.id

    @property
    def name(self) -> str:
        return self.resolved.rite.names.classical[0]

    def relations(self) -> tuple[Placement, ...]:
        """The links that say where this rite stands: what it follows, or (the first rite) what it
        precedes."""
        own = sorted(self.placements, key=lambda p: p.declared_by != self.rite)  # its own words first
        follows = tuple(p for p in own if p.second == self.rite)
        return follows or tuple(p for p in own if p.first == self.rite)


@dataclass(frozen=True)
class Occasion:
    """The rites held together with ``rite`` (the one asked for), in their order."""

    rite: str
    members: tuple[Member, ...]

    @property
    def alone(self) -> bool:
        return len(self.members) == 1

    @property
    def main(self) -> Member:
        return next(m for m in self.members if m.rite == self.rite)

    def member(self, rite_id: str) -> Member:
        return next(m for m in self.members if m.rite == rite_id)

    @property
    def summary(self) -> str:
        """The rites in order in one line: 崇聖祠 → 祀先師禮 → … (a later day marked)."""
        bits = []
        for m in self.members:
            shift = m.day - self.members[0].day
            bits.append(m.name + (f"（+{shift}日）" if shift else ""))
        return " → ".join(bits)


def relation_text(placement: Placement, rite_id: str, name_of: Callable[[str], str]) -> str:
    """How ``rite_id`` stands to the other rite of a placement, in words: ``before 祀先師禮``,
    ``after 崇聖祠``, ``the day before 鞭春``, ``2 days after …``."""
    other = placement.second if placement.first == rite_id else placement.first
    side = "before" if placement.first == rite_id else "after"
    if placement.days == 0:
        gap = ""
    elif placement.days == 1:
        gap = "the day "
    else:
        gap = f"{placement.days} days "
    return f"{gap}{side} {name_of(other)}"


def placement_citations(placement: Placement, witness: str) -> tuple[Citation, ...]:
    """The citations of the link, those of ``witness`` first."""
    return preferred_citations(placement.link, witness)


@functools.cache
def _links(witness: str) -> tuple[tuple[str, OccasionLink], ...]:
    """(declaring rite, link) for every occasion link of the rites as ``witness`` reads them."""
    table = rites_for(witness)
    return tuple((rite_id, link) for rite_id, rite in table.items() for link in rite.occasion)


def _reader_for(rite_id: str, witness: str | None) -> str | None:
    """``witness`` when it holds the rite (itself or a text of its family), else None (the place's own)."""
    if witness is None:
        return None
    holders = witnesses_with_rite(rite_id)
    return witness if any(w in holders for w in translation_family(witness)) else None


def _held(
    rite_id: str, place: str, year: int, witness: str | None, practice: str | None = None
) -> ResolvedRite | None:
    """The rite resolved at the place and year, or None where it is not held there then (or the practice
    profile asked for does not document it)."""
    try:
        return resolve_rite(rite_id, place, year, _reader_for(rite_id, witness), practice)
    except UnknownValueError:
        return None


def occasion_of(
    rite: str, place: str, year: int, witness: str | None = None, practice: str | None = None
) -> Occasion:
    """The occasion of ``rite`` (id or name) at ``place`` in ``year``, in ``witness``'s reading (default:
    the place's own): the rite itself first resolved (so bad input is the usual clear error), then every
    rite its links reach (by ``practice``, a practice profile id, where one is asked for)."""
    asked = resolve_rite(rite, place, year, witness, practice)
    return _occasion(asked.rite.id, asked.place.id, year, witness, practice)


@functools.lru_cache(maxsize=1024)
def _occasion(
    rite_id: str, place_id: str, year: int, witness: str | None, practice: str | None = None
) -> Occasion:
    asked = resolve_rite(rite_id, place_id, year, witness, practice)
    resolved: dict[str, ResolvedRite] = {rite_id: asked}
    placements: list[Placement] = []
    seen: set[tuple[str, int]] = set()
    frontier = [rite_id]
    links = _links(asked.witness)
    while frontier:
        current = frontier.pop()
        for declarer, link in links:
            if current not in (declarer, link.other) or (declarer, id(link)) in seen:
                continue
            mine = resolved.get(declarer) or _held(declarer, place_id, year, witness, practice)
            theirs = resolved.get(link.other) or _held(link.other, place_id, year, witness, practice)
            if mine is None or theirs is None:
                continue
            if not scope_for(declarer, mine.place, year, mine.witness).keeps(link):
                continue
            seen.add((declarer, id(link)))
            for r, f in ((declarer, mine), (link.other, theirs)):
                if r not in resolved:
                    resolved[r] = f
                    frontier.append(r)
            first, second = (declarer, link.other) if link.before is not None else (link.other, declarer)
            placements.append(Placement(first, second, link.days, link, declarer))
    days = _days(rite_id, placements)
    order = _order(resolved, placements, days)
    members = tuple(
        Member(
            resolved=resolved[r],
            day=days[r],
            placements=tuple(p for p in placements if r in (p.first, p.second)),
            reading_note=_reading_note(resolved[r], witness),
        )
        for r in order
    )
    return Occasion(rite_id, members)


def _reading_note(r: ResolvedRite, witness: str | None) -> str | None:
    if witness is None or r.witness == witness:
        return None
    return (
        f"{witness_label(witness)} does not hold {r.rite.names.classical[0]}: read in {witness_label(r.witness)}, "
        "the place's own witness"
    )


def _days(start: str, placements: Sequence[Placement]) -> dict[str, int]:
    """Each rite's day counted from ``start``'s, through the links; links that disagree are a DataError."""
    days = {start: 0}
    pending = list(placements)
    while pending:
        progress = False
        for p in list(pending):
            if p.first in days or p.second in days:
                want = (
                    (days[p.first] + p.days, p.second)
                    if p.first in days
                    else (days[p.second] - p.days, p.first)
                )
                value, rite = want
                if rite in days and days[rite] != value:
                    raise DataError(
                        f"rite {p.declared_by!r}: field occasion: {p.first!r} {p.days} day(s) before "
                        f"{p.second!r} disagrees with the other links of the occasion"
                    )
                days[rite] = value
                pending.remove(p)
                progress = True
        if not progress:
            break
    return days


def _order(
    resolved: Mapping[str, ResolvedRite], placements: Sequence[Placement], days: Mapping[str, int]
) -> list[str]:
    """The rites by day, and within a day in the links' order (ties: the rite data's order)."""
    data_order = {r: i for i, r in enumerate(all_rites())}
    after: dict[str, set[str]] = {r: set() for r in resolved}
    for p in placements:
        after[p.second].add(p.first)
    waiting = {r: len(before) for r, before in after.items()}
    ready = [(days[r], data_order.get(r, 0), r) for r, n in waiting.items() if n == 0]
    heapq.heapify(ready)
    out: list[str] = []
    while ready:
        _, _, r = heapq.heappop(ready)
        out.append(r)
        for other, before in after.items():
            if r in before:
                waiting[other] -= 1
                if waiting[other] == 0:
                    heapq.heappush(ready, (days[other], data_order.get(other, 0), other))
    if len(out) != len(resolved):
        cycle = sorted(set(resolved) - set(out))
        raise DataError(f"field occasion: the links of {', '.join(cycle)} form a cycle; accepted: an order")
    return out


# --- the calendar ---------------------------------------------------------------------------------


def occasion_calendar(
    occurrences: Iterable[Occurrence], place: str, year: int, witness: str | None = None
) -> tuple[Occurrence, ...]:
    """A calendar's entries with the rites of one occasion together, in their order: on each day the
    entries of an occasion's rites follow each other in the occasion's order, where the first of them
    stood; each carries a note naming the occasion and its place in it. Other entries are unchanged."""
    items = list(occurrences)
    table: dict[str, Occasion | None] = {}

    def occasion(rite_id: str) -> Occasion | None:
        if rite_id not in table:
            try:
                found = _held(rite_id, place, year, witness)
                table[rite_id] = (
                    _occasion(rite_id, found.place.id, year, _reader_for(rite_id, witness)) if found else None
                )
            except DianliError:  # a year the rites are not resolved in: the calendar stays as it is
                table[rite_id] = None
        return table[rite_id]

    calendars: dict[str, tuple[Occurrence, ...]] = {}

    def days(rite_id: str) -> tuple[Occurrence, ...]:
        if rite_id not in calendars:
            calendars[rite_id] = observances_for(
                place, year, [rite_id], include_related=False, witness=witness
            )
        return calendars[rite_id]

    mains = [i for i, o in enumerate(items) if o.part is None and o.day is not None]
    by_day: dict[date, list[int]] = {}
    for i in mains:
        day = items[i].day
        assert day is not None
        by_day.setdefault(day, []).append(i)
    noted = list(items)
    for i in mains:
        occ = items[i]
        found = occasion(occ.rite)
        if found is None or found.alone:
            continue
        me = found.member(occ.rite)
        position = [m.rite for m in found.members].index(occ.rite) + 1
        if not all(_dated(days(m.rite), m.rite, occ.day, m.day - me.day) for m in found.members):
            continue  # this observance is not the occasion's (迎春's 送牛, in winter)
        note = f"occasion {position}/{len(found.members)}: {found.summary}"
        noted[i] = replace(occ, notes=(*occ.notes, note))
    placed = list(noted)
    for indices in by_day.values():
        if len(indices) < 2:
            continue
        rank: dict[int, tuple[tuple[str, ...], int]] = {}
        for i in indices:
            found = occasion(items[i].rite)
            if found is None or found.alone:
                continue
            group = tuple(m.rite for m in found.members)
            rank[i] = (group, group.index(items[i].rite))
        slots = sorted(indices)
        ordered = sorted(indices, key=functools.partial(_slot_key, rank=rank, indices=indices))
        for slot, i in zip(slots, ordered, strict=True):
            placed[slot] = noted[i]
    return tuple(placed)


def _slot_key(
    i: int, rank: Mapping[int, tuple[tuple[str, ...], int]], indices: Sequence[int]
) -> tuple[int, int]:
    """Where entry ``i`` goes among a day's entries: an occasion's entries at its first one's place."""
    if i not in rank:
        return (i, 0)
    group, position = rank[i]
    first = min(j for j in indices if j in rank and rank[j][0] == group)
    return (first, position)


def _dated(items: Sequence[Occurrence], rite_id: str, day: date | None, shift: int) -> bool:
    if day is None:
        return False
    want = day + timedelta(days=shift)
    return any(o.rite == rite_id and o.part is None and o.day == want for o in items)


OccasionMember = Member
"""A rite of an occasion (the public name)."""


def occasion_relation(member: Member, occasion: Occasion) -> tuple[tuple[str, tuple[Citation, ...]], ...]:
    """Where ``member`` stands in ``occasion``, in words (``before 祀先師禮``) with the citations of the
    links that say so (its reading witness's first); links saying the same are merged."""
    merged: dict[str, list[Citation]] = {}
    for p in member.relations():
        text = relation_text(p, member.rite, lambda r: occasion.member(r).name)
        cites = merged.setdefault(text, [])
        cites.extend(c for c in placement_citations(p, member.resolved.witness) if c not in cites)
    return tuple((text, tuple(cites)) for text, cites in merged.items())


def occasion_html(occasion: Occasion, exhibits_of: Callable[[ResolvedRite], Sequence[Exhibit]]) -> str:
    """The occasion as one self-contained HTML page (all text escaped): the rites in order with the links
    that place them, each rite's officiants, venues, plan and exhibits, and one order of service numbered
    across the rites, a heading row per rite. ``exhibits_of`` gives what a rite's parts show."""
    e = html.escape
    first = occasion.main.resolved
    title = f"{first.rite.names.classical[0]} — {first.place.name} {first.year}"
    listed = "".join(
        f"<li><a href='#rite-{e(m.rite)}'>{e(m.name)}</a>"
        + "".join(
            f" — {e(text)} <small>{e('；'.join(f'{witness_label(c.witness)}「{c.quote}」' for c in cites))}</small>"
            for text, cites in occasion_relation(m, occasion)
        )
        + "</li>"
        for m in occasion.members
    )
    blocks, rows, number = [], [], 0
    for m in occasion.members:
        r, w = m.resolved, m.resolved.witness
        offs = "".join(
            f"<li>{e(o.function)}: {e(o.office)} <small>{e(source_label(o, w))}</small></li>"
            for o in r.officiants
        )
        venues = "".join(
            f"<li>{e(venue_line(v))} <small>{e(source_label(v, w))}</small></li>" for v in r.venues
        )
        plan = f"<pre>{e(chr(10).join(plan_lines(r)))}</pre>" if r.plan else ""
        blocks.append(
            f"<section id='rite-{e(m.rite)}'><h2>{e(m.name)} <small>{e(r.rite.names.gloss)}</small></h2>"
            f"<h3>獻官</h3><ul>{offs}</ul>"
            + (f"<h3>壇位 venues</h3><ul>{venues}</ul>" if venues else "")
            + plan
            + exhibits_html(exhibits_of(r))
            + "</section>"
        )
        if not occasion.alone:
            rows.append(f"<tr class='rite-row'><th colspan='6'>{e(m.name)}</th></tr>")
        for n in r.steps:
            number += 1
            s = n.step
            cls = ' class="assumption"' if not s.citations else ""
            rows.append(
                f"<tr><td>{number}</td><td>{e(n.placed.part_title)}</td><td>{e(s.role or '')}</td>"
                f"<td>{e(step_line(s))}</td><td>{e(s.gloss or '')}</td><td{cls}>{e(source_label(s, w))}</td></tr>"
            )
    return (
        "<!DOCTYPE html><html lang='zh-Hant'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{e(title)}</title><style>body{{font-family:serif;margin:2em}}"
        "table{border-collapse:collapse}td{border-top:1px solid #ccc;padding:.2em .5em;vertical-align:top}"
        "small,td:last-child{color:#555;font-size:.85em}.assumption{color:#a40}"
        ".rite-row th{background:#222;color:#fff;text-align:left;padding:.3em .5em}</style></head><body>"
        f"<h1>{e(title)}</h1><p>{e(first.rite.names.gloss)} · witness {e(witness_label(first.witness))}</p>"
        + ("" if occasion.alone else f"<h2>the occasion</h2><ol>{listed}</ol>")
        + "".join(blocks)
        + "<h2>儀注</h2><table>"
        "<tr><th>#</th><th>part</th><th>role</th><th>call / action</th><th>gloss</th><th>source</th></tr>"
        + "".join(rows)
        + "</table></body></html>\n"
    )
