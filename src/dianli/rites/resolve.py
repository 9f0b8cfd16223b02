"""Resolving a rite for (place, year, witness): the governing witness's reading and the rules in force.

An element is in force when the year lies in its ``from_year``..``until_year``, the place matches its
``places`` (by id, name or alias) and its ``place_levels`` (as the unit stood that year), and, when it
names ``witnesses``, its reading is the one the witness follows (see :class:`Scope`). The witness that
governs the place that year (:mod:`dianli.places.governs`) is used unless another is asked for; its
reading is the shared base plus its own readings (:mod:`dianli.rites.readings`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

from dianli.corpus.cite import Citation
from dianli.corpus.normalise import fold
from dianli.corpus.witnesses import witness_ids
from dianli.errors import DataError, OutOfRangeError, UnknownValueError
from dianli.places.governs import governing_witness
from dianli.places.places import PlaceAt, get_place, place_at
from dianli.rites.expand import Expander, NumberedStep, number
from dianli.rites.load import all_rites
from dianli.rites.model import (
    Altar,
    DateRule,
    Element,
    Food,
    Officiant,
    Plan,
    Preparation,
    Rite,
    Role,
    Tablet,
    Text,
    Venue,
    Vessel,
    walk_elements,
)
from dianli.rites.readings import reading_chain, rites_for, translation_family, witnesses_with_rite
from dianli.rites.vocabulary import place_levels

FIRST_YEAR = 1644
LAST_YEAR = 1911
T = TypeVar("T", bound=Element)


@functools.cache
def _variant_witnesses() -> dict[tuple[str, str], frozenset[str]]:
    """(rite id, variant label) → the witnesses that some reading of that point names."""
    found: dict[tuple[str, str], set[str]] = {}
    for rite in all_rites().values():
        for element in walk_elements(rite):
            if element.variant is not None and element.witnesses:
                found.setdefault((rite.id, element.variant), set()).update(element.witnesses)
    return {key: frozenset(value) for key, value in found.items()}


@dataclass(frozen=True)
class Scope:
    """Where, when and in whose reading a rite is resolved.

    ``order`` is the witness's reading chain (itself, its base, their translations; see
    :func:`dianli.rites.readings.reading_chain`) — followed by every other witness when the witness and its
    translations do not hold the rite at all (it is read wholly from the others). Where witnesses give a
    point different readings (elements sharing a ``variant`` label), the first witness of ``order`` that
    reads it decides: a witness that does not state the point inherits its base's reading instead of
    getting none; a witness that holds the rite and whose chain reads the point nowhere has none of it
    (崇聖祠's 先儒朱氏, a reading of 臺灣府志 alone). An element restricted to some witnesses without a ``variant`` label (a step only one text
    has) is kept when one of them is in the witness's own chain."""

    place: PlaceAt
    year: int
    witness: str
    rite_id: str = ""
    order: tuple[str, ...] = ()

    @property
    def chain(self) -> tuple[str, ...]:
        return reading_chain(self.witness)

    def reader(self, element: Element) -> str | None:
        """The witness whose reading of the element's point is used (None: the element names none)."""
        if not element.witnesses:
            return None
        if element.variant is None:
            return next((w for w in self.chain if w in element.witnesses), None)
        mentioned = _variant_witnesses().get((self.rite_id, element.variant), frozenset(element.witnesses))
        return next((w for w in self.order or self.chain if w in mentioned), None)

    def keeps(self, element: Element) -> bool:
        """Whether the element is in force for this scope."""
        if element.from_year is not None and self.year < element.from_year:
            return False
        if element.until_year is not None and self.year > element.until_year:
            return False
        if element.witnesses and self.reader(element) not in element.witnesses:
            return False
        if element.places and not any(_same_place(name, self.place.id) for name in element.places):
            return False
        if element.place_levels:
            table = place_levels()
            for name in element.place_levels:
                if name not in table:
                    raise DataError(f"place level {name!r} is not one of {', '.join(table)}")
            if not any(str(self.place.level) in table[name] for name in element.place_levels):
                return False
        return True


@functools.cache
def _same_place(name: str, place_id: str) -> bool:
    return get_place(name).id == place_id


def inherited_from(element: Element, witness: str) -> str | None:
    """None when ``witness`` states the element (it cites it, or the element is its reading); else the
    witness it comes from — shown to readers as "not stated in W; from V"."""
    cited = tuple(c.witness for c in element.citations)
    if witness in element.witnesses or witness in cited:
        return None
    return next(iter(element.witnesses or cited), None)


@dataclass(frozen=True)
class ResolvedRite:
    """A rite as performed at one place in one year, in one witness's reading."""

    rite: Rite
    place: PlaceAt
    year: int
    witness: str
    governing_witness: str
    steps: tuple[NumberedStep, ...]
    officiants: tuple[Officiant, ...]
    roles: tuple[Role, ...]
    preparations: tuple[Preparation, ...]
    vessels: tuple[Vessel, ...]
    foods: tuple[Food, ...]
    altars: tuple[Altar, ...]
    plan: Plan | None
    tablets: tuple[Tablet, ...]
    texts: tuple[Text, ...]
    date_rules: tuple[DateRule, ...]
    venues: tuple[Venue, ...]


def rite_ids() -> tuple[str, ...]:
    return tuple(all_rites())


@functools.cache
def _name_keys(name: str) -> tuple[str, ...]:
    """The folded name, then its core without the words that frame a rite's name: 祭社稷禮 and 社稷,
    鄉飲酒禮 and 鄉飲酒, 耕耤禮 and 耕耤 are one name."""
    key = fold(name)
    core = key.removesuffix("礼")
    if len(core) > 2 and core[0] in "祭祀":
        core = core[1:]
    return (key, core) if core and core != key else (key,)


def _name_index() -> dict[str, str]:
    index: dict[str, str] = {}
    for rite in all_rites().values():
        for name in (rite.id, *rite.names.classical, *rite.names.aliases):
            for key in _name_keys(name):
                index.setdefault(key, rite.id)
    return index


def find_rite(name: str) -> str:
    """A rite id from its id, a classical name or an alias (either script)."""
    index = _name_index()
    found = next((index[k] for k in _name_keys(name) if k in index), None) if fold(name) else None
    if found is None:
        accepted = sorted(all_rites())
        names = sorted({n for r in all_rites().values() for n in (*r.names.classical, *r.names.aliases)})
        raise UnknownValueError("rite", name, accepted + names)
    return found


def preferred_citations(element: Element, witness: str) -> tuple[Citation, ...]:
    """The element's citations, those of ``witness`` first."""
    cites = element.citations
    return tuple(c for c in cites if c.witness == witness) + tuple(c for c in cites if c.witness != witness)


def kept_in_scope(items: tuple[T, ...], scope: Scope) -> tuple[T, ...]:
    """The items in force for the scope; within a point the readings differ on (a ``variant`` label), an
    item scoped to the place replaces those that are not (淡水's own 厲壇 day replaces the general ones)."""
    kept = tuple(item for item in items if scope.keeps(item))
    local = {item.variant for item in kept if item.variant is not None and item.places}
    if not local:
        return kept
    return tuple(item for item in kept if item.places or item.variant not in local)


def check_year(year: int) -> None:
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise OutOfRangeError("year", year, f"{FIRST_YEAR}..{LAST_YEAR}")


def check_witness(witness: str) -> str:
    if witness not in witness_ids():
        raise UnknownValueError("witness", witness, witness_ids())
    return witness


def resolve_rite(rite: str, place: str, year: int, witness: str | None = None) -> ResolvedRite:
    """The rite ``rite`` (id or name) at ``place`` in ``year``, in ``witness``'s reading (default: the
    witness that governs the place that year).

    A witness asked for by name must hold the rite (itself, or the text it translates or that translates
    it, cites the rite or gives a reading of it); otherwise the error names the witnesses that do. The governing witness, asked for by default, may lack a rite
    held at its place (a fragment): then the rite's other readings stand in and every element says so."""
    check_year(year)
    if witness is not None:
        check_witness(witness)
    rite_id = find_rite(rite)
    where = place_at(place, year)
    if witness is not None:
        holders = witnesses_with_rite(rite_id)
        if not any(w in holders for w in translation_family(witness)):
            raise UnknownValueError(
                f"witness for rite {rite_id!r} (this witness does not have it)", witness, holders
            )
    return _resolve(rite_id, where.id, year, witness)


@functools.lru_cache(maxsize=4096)
def _resolve(rite_id: str, place_id: str, year: int, witness: str | None) -> ResolvedRite:
    where = place_at(place_id, year)
    governing = governing_witness(place_id, year)
    return resolve_with(
        rites_for(witness or governing), rite_id, where, year, witness or governing, governing
    )


def scope_for(rite_id: str, place: PlaceAt, year: int, witness: str) -> Scope:
    """The scope of a rite at a place in a year in a witness's reading (see :class:`Scope`)."""
    return Scope(place, year, witness, rite_id, _order(rite_id, witness))


@functools.cache
def _order(rite_id: str, witness: str) -> tuple[str, ...]:
    """The witnesses whose readings ``witness`` follows for ``rite_id`` (see :class:`Scope`)."""
    chain = reading_chain(witness)
    holders = witnesses_with_rite(rite_id) if rite_id in all_rites() else ()
    if any(w in holders for w in translation_family(witness)):
        return chain
    return chain + tuple(w for w in witness_ids() if w not in chain)


def resolve_with(
    rites: Mapping[str, Rite],
    rite_id: str,
    place: PlaceAt,
    year: int,
    witness: str,
    governing: str | None = None,
) -> ResolvedRite:
    """Resolve against a given set of rites (no caching): the engine behind :func:`resolve_rite`."""
    scope = scope_for(rite_id, place, year, witness)
    expander = Expander(rites, scope.keeps)
    effective = expander.rite(rite_id)
    if not scope.keeps(effective):
        where = ", ".join(effective.places) or "(other places)"
        span = f"{effective.from_year or FIRST_YEAR}..{effective.until_year or LAST_YEAR}"
        raise UnknownValueError(
            f"place/year for rite {rite_id!r} (performed at {where}, {span})",
            f"{place.name} {year}",
            effective.places or [f"any place, {span}"],
        )
    steps = number(expander.sequence(rite_id))
    return ResolvedRite(
        rite=effective,
        place=place,
        year=year,
        witness=witness,
        governing_witness=governing or witness,
        steps=steps,
        officiants=kept_in_scope(effective.officiants, scope),
        roles=kept_in_scope(effective.roles, scope),
        preparations=kept_in_scope(effective.preparations, scope),
        vessels=kept_in_scope(effective.vessels, scope),
        foods=kept_in_scope(effective.foods, scope),
        altars=kept_in_scope(effective.altars, scope),
        plan=effective.plan if effective.plan is None or scope.keeps(effective.plan) else None,
        tablets=kept_in_scope(effective.tablets, scope),
        texts=kept_in_scope(effective.texts, scope),
        date_rules=kept_in_scope(effective.date_rule, scope),
        venues=kept_in_scope(effective.venue, scope),
    )
