"""Which witness governs a place in a year: the gazetteer written for it, from its date until a later one.

The facts are data: each witness's manifest (``witness.yaml``) lists the places it was written for, each
from a year (by default the year the witness was compiled) and optionally until one. The rule that turns
them into an answer lives here, once:

1. Walk up from the unit to its parents *as they stood that year* (a county, its prefecture, the
   province). At the first unit that some witness governs in that year, the entry with the latest
   ``from_year`` wins: a later gazetteer takes over from an earlier one.
2. If no witness governs any of them yet (臺灣府 in 1690, before any gazetteer of ours was written), the
   nearest unit's earliest witness stands in, and the answer says so.
3. If none is ever written for the unit or its parents, that is an error naming the witnesses there are.

The calendar, the rites and the program all ask this module, so a newer gazetteer added as a folder takes
over everywhere at once.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from dianli import cache
from dianli.corpus.labels import name_ids, witness_label
from dianli.corpus.witnesses import manifest
from dianli.drafts import with_drafts
from dianli.errors import DataError, DianliError
from dianli.places.places import PlaceAt, all_places, place_at


@dataclass(frozen=True, slots=True)
class Governance:
    """The witness that governs a place in a year, and why."""

    witness: str
    unit: str
    """The unit the witness was written for: the place itself or the parent through which it governs."""
    from_year: int
    until_year: int | None
    source: str
    """Where the entry comes from: the manifest's citation or its labelled assumption."""
    stands_in: bool = False
    """True when no witness governs yet and the earliest one written for the place stands in."""

    @property
    def note(self) -> str:
        """One line for readers: which witness, for which unit, from when, and why."""
        span = f"{self.from_year}–{self.until_year}" if self.until_year else f"from {self.from_year}"
        unit = next((p.name for p in all_places() if p.id == self.unit), self.unit)
        text = f"{witness_label(self.witness)} governs {unit} {span} ({name_ids(self.source)})"
        if self.stands_in:
            text += f"; no earlier witness: it stands in before {self.from_year}"
        return text


@dataclass(frozen=True, slots=True)
class _Entry:
    witness: str
    place: str
    from_year: int
    until_year: int | None
    source: str
    order: int

    def holds(self, year: int) -> bool:
        return self.from_year <= year and (self.until_year is None or year <= self.until_year)


EntryRow = tuple[str, str, int, int | None, str, int]
"""An entry as plain data: witness, place, from_year, until_year, source, order (the fields of _Entry)."""


def _entries() -> tuple[_Entry, ...]:
    """Every ``governs`` entry of every witness manifest, checked against the place ids (a drafted witness's
    only with ``dianli --with-drafts``).

    The entries depend on the manifests and the places alone, so they are kept in the on-disk cache
    (:mod:`dianli.cache`) as plain tuples, under a key naming every file of the package and of the extra
    witness folders: a run reads back a few strings instead of validating every manifest."""
    return _entries_for(with_drafts())


@functools.cache
def _entries_for(drafts: bool) -> tuple[_Entry, ...]:
    entry = cache.installed_key("places.governs._entries", f"drafts={drafts}")
    return tuple(_Entry(*row) for row in cache.pickled(cache.DERIVED, entry, lambda: _entry_rows(drafts)))


def _entry_rows(drafts: bool = False) -> tuple[EntryRow, ...]:
    """The rows of every witness's ``governs``; a drafted witness's only with ``drafts`` (an unreviewed draft
    must not take over a real place)."""
    known = {p.id for p in all_places()}
    out: list[EntryRow] = []
    for order, info in enumerate(manifest()):
        if info.status == "draft" and not drafts:
            continue
        for entry in info.governs:
            if entry.place not in known:
                raise DataError(
                    f"{info.folder / 'witness.yaml'}: governs: unknown place {entry.place!r}; "
                    f"accepted: {', '.join(sorted(known))}"
                )
            out.append((info.id, entry.place, entry.from_year, entry.until_year, entry.source, order))
    return tuple(out)


def _chain(unit: PlaceAt) -> tuple[PlaceAt, ...]:
    """The unit and its parents as they stood in the unit's year, nearest first."""
    chain = [unit]
    seen = {unit.id}
    while chain[-1].parent is not None and chain[-1].parent not in seen:
        parent = place_at(chain[-1].parent, unit.year)
        seen.add(parent.id)
        chain.append(parent)
    return tuple(chain)


def _governance(entry: _Entry, stands_in: bool = False) -> Governance:
    return Governance(
        witness=entry.witness,
        unit=entry.place,
        from_year=entry.from_year,
        until_year=entry.until_year,
        source=entry.source,
        stands_in=stands_in,
    )


def governance(place: str, year: int) -> Governance:
    """Which witness governs ``place`` (id or name) in ``year``, and through which unit (a drafted witness
    only with ``dianli --with-drafts``)."""
    return _governance_with(place, year, with_drafts())


@functools.lru_cache(maxsize=8192)
def _governance_with(place: str, year: int, drafts: bool) -> Governance:
    unit = place_at(place, year)
    chain = _chain(unit)
    entries = _entries_for(drafts)
    for link in chain:
        here = [e for e in entries if e.place == link.id and e.holds(year)]
        if here:
            return _governance(max(here, key=lambda e: (e.from_year, -e.order)))
    for link in chain:
        later = [e for e in entries if e.place == link.id and e.from_year > year]
        if later:
            return _governance(min(later, key=lambda e: (e.from_year, e.order)), stands_in=True)
    witnesses = sorted({e.witness for e in entries})
    raise DianliError(
        f"no witness governs {unit.name} in {year} (nor its parents "
        f"{', '.join(link.name for link in chain[1:]) or 'none'}); ask for one with --witness: "
        f"{', '.join(witnesses)}"
    )


def governing_witness(place: str, year: int) -> str:
    """The id of the witness that governs ``place`` in ``year`` (see :func:`governance`)."""
    return governance(place, year).witness


def governed_by(witness: str) -> tuple[str, ...]:
    """The place ids a witness was written for (its manifest's ``governs`` entries)."""
    return tuple(dict.fromkeys(e.place for e in _entries() if e.witness == witness))
