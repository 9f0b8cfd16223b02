"""Resolving a rite for (place, year, witness): the governing witness's reading and the rules in force.

An element is in force when the year lies in its ``from_year``..``until_year``, the place matches its
``places`` (by id, name or alias) and its ``place_levels``, and the witness is one of its ``witnesses``
(when it names any). The place's governing witness is used unless another is asked for.
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
from dianli.places.places import Place, check_place_year, get_place
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
)
from dianli.rites.vocabulary import place_levels

FIRST_YEAR = 1644
LAST_YEAR = 1911
T = TypeVar("T", bound=Element)
RITE_WITNESSES = ("fujian-tongzhi-14", "taiwan-fuzhi-9", "tingzhou-fuzhi", "fujian-tongzhi-14-modern")


@dataclass(frozen=True)
class Scope:
    """Where, when and in whose reading a rite is resolved."""

    place: Place
    year: int
    witness: str

    def keeps(self, element: Element) -> bool:
        """Whether the element is in force for this scope."""
        if element.from_year is not None and self.year < element.from_year:
            return False
        if element.until_year is not None and self.year > element.until_year:
            return False
        if element.witnesses and self.witness not in element.witnesses:
            return False
        if element.places and not any(_same_place(name, self.place) for name in element.places):
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
def _same_place(name: str, place: Place) -> bool:
    return get_place(name).id == place.id


@dataclass(frozen=True)
class ResolvedRite:
    """A rite as performed at one place in one year, in one witness's reading."""

    rite: Rite
    place: Place
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


def _kept(items: tuple[T, ...], scope: Scope) -> tuple[T, ...]:
    return tuple(item for item in items if scope.keeps(item))


def _check(year: int, witness: str | None) -> None:
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise OutOfRangeError("year", year, f"{FIRST_YEAR}..{LAST_YEAR}")
    if witness is not None and witness not in witness_ids():
        raise UnknownValueError("witness", witness, witness_ids())


def resolve_rite(rite: str, place: str, year: int, witness: str | None = None) -> ResolvedRite:
    """The rite ``rite`` (id or name) at ``place`` in ``year``, in ``witness``'s reading (default: the
    place's governing witness)."""
    _check(year, witness)
    rite_id = find_rite(rite)
    where = get_place(place)
    check_place_year(where, year)
    return _resolve(rite_id, where.id, year, witness or where.witness)


@functools.lru_cache(maxsize=4096)
def _resolve(rite_id: str, place_id: str, year: int, witness: str) -> ResolvedRite:
    return resolve_with(all_rites(), rite_id, get_place(place_id), year, witness)


def resolve_with(
    rites: Mapping[str, Rite], rite_id: str, place: Place, year: int, witness: str
) -> ResolvedRite:
    """Resolve against a given set of rites (no caching): the engine behind :func:`resolve_rite`."""
    scope = Scope(place, year, witness)
    expander = Expander(rites, scope.keeps)
    effective = expander.rite(rite_id)
    if not scope.keeps(effective):
        where = ", ".join(effective.places) or "(other places)"
        span = f"{effective.from_year or FIRST_YEAR}..{effective.until_year or LAST_YEAR}"
        raise UnknownValueError(
            f"place/year for rite {rite_id!r} (performed at {where}, {span})",
            f"{place.name} {year}",
            effective.places,
        )
    steps = number(expander.sequence(rite_id))
    return ResolvedRite(
        rite=effective,
        place=place,
        year=year,
        witness=witness,
        governing_witness=place.witness,
        steps=steps,
        officiants=_kept(effective.officiants, scope),
        roles=_kept(effective.roles, scope),
        preparations=_kept(effective.preparations, scope),
        vessels=_kept(effective.vessels, scope),
        foods=_kept(effective.foods, scope),
        altars=_kept(effective.altars, scope),
        plan=effective.plan if effective.plan is None or scope.keeps(effective.plan) else None,
        tablets=_kept(effective.tablets, scope),
        texts=_kept(effective.texts, scope),
        date_rules=_kept(effective.date_rule, scope),
        venues=_kept(effective.venue, scope),
    )
