"""Resolving a rite for (place, year, witness): the governing witness's reading and the rules in force.

An element is in force when the year lies in its ``from_year``..``until_year``, the place matches its
``places`` (by id, name or alias) and its ``place_levels`` (as the unit stood that year), and, when it
names ``witnesses``, its reading is the one the witness follows (see :class:`Scope`). The witness that
governs the place that year (:mod:`dianli.places.governs`) is used unless another is asked for; its
reading is the shared base plus its own readings (:mod:`dianli.rites.readings`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TypeVar

from dianli import cache
from dianli.corpus.cite import Citation
from dianli.corpus.normalise import fold
from dianli.corpus.witnesses import witness_ids
from dianli.errors import DataError, OutOfRangeError, QingRuleEndedError, UnknownValueError
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
from dianli.rites.practice import (
    Practice,
    accepted_practices,
    check_practice_year,
    default_practice,
    get_practice,
    practices_for_place,
    source_text,
)
from dianli.rites.readings import reading_chain, rites_for, translation_family, witnesses_with_rite
from dianli.rites.vocabulary import place_levels
from dianli.rites.years import FIRST_YEAR as FIRST_YEAR
from dianli.rites.years import LAST_YEAR as LAST_YEAR
from dianli.rites.years import QING_LAST_YEAR as QING_LAST_YEAR

T = TypeVar("T", bound=Element)
D = TypeVar("D")


@functools.cache
def _variant_witnesses() -> dict[tuple[str, str], frozenset[str]]:
    """(rite id, variant label) → the witnesses that some reading of that point names (kept in the on-disk
    cache: :func:`_derived`)."""
    return _derived("_variant_witnesses", _find_variant_witnesses)


def _derived(name: str, make: Callable[[], D]) -> D:
    """``make()`` kept in the on-disk cache (:mod:`dianli.cache`) as plain data (strings, tuples, dicts:
    cheap to read back) under a key naming ``name`` and every file of the package and of the extra witness
    folders: a table of the rite data alone, made once, not walked again by every run."""
    entry = cache.installed_key(f"rites.resolve.{name}")
    return cache.pickled(cache.DERIVED, entry, make)


def _find_variant_witnesses() -> dict[tuple[str, str], frozenset[str]]:
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
    :func:`dianli.rites.readings.reading_chain`) — followed by every other witness when neither the witness,
    its translations nor its chain hold the rite at all (it is read wholly from the others). Where witnesses
    give a point different readings (elements sharing a ``variant`` label), the first witness of ``order`` that
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
    text_year: int | None = None
    """The year whose text is read when it is not ``year`` (after the Qing: the unit's last Qing year)."""
    practice: Practice | None = None
    """The practice profile that gives the day and today's officiants, if one is used."""
    note: str | None = None
    """What the place and year asked for mean, when that is not plain (after the Qing, a practice)."""


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


@functools.cache
def _name_index() -> dict[str, str]:
    """Each folded name of a rite (its id, classical names, aliases, and their cores) → the rite id (kept in
    the on-disk cache: :func:`_derived`)."""
    return _derived("_name_index", _make_name_index)


def _make_name_index() -> dict[str, str]:
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
    """The element's citations, those of ``witness`` first, then those of its reading chain in order (its
    base …), then the others."""
    cites = element.citations
    chain = reading_chain(witness) if witness in witness_ids() else (witness,)
    rank = {w: i for i, w in enumerate(chain)}
    return tuple(sorted(cites, key=lambda c: rank.get(c.witness, len(chain))))


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


@dataclass(frozen=True)
class Standing:
    """What a place and a year asked for mean for a rite: the Qing unit and the year whose text is read,
    the practice profile that gives the day (if any), and, when it is not plain, why (``note``)."""

    place: PlaceAt
    text_year: int
    practice: Practice | None = None
    note: str | None = None
    scope_year: int | None = None
    """The year the rite's elements are kept for, when it is not ``text_year``: after 1911 the year asked
    for, so what ended with the dynasty (萬壽聖節, 接詔 …: ``until_year: 1911``) is not held."""

    @property
    def elements_year(self) -> int:
        return self.scope_year if self.scope_year is not None else self.text_year


def standing(place: str, year: int, rite_id: str, practice: str | None = None) -> Standing:
    """The meaning of ``place`` in ``year`` for ``rite_id`` (an id), decided so:

    * up to 1911, the unit as it stood that year (a place no longer under Qing rule — Taiwan after the
      cession of 1895 — is a :class:`QingRuleEndedError`);
    * after 1911, the rite as the text prescribes it for the unit as it stood in 1911, its last Qing year;
      its days are computed (China Standard Time) by the text's rule;
    * a place whose Qing rule ended before 1911 has no Qing unit to stand for it: its name means the
      practice profile that lists it (臺灣府: 臺南孔子廟, the 文廟 of the 臺灣府學), which says whose text
      it continues; where none does, the error names the end of Qing rule and the profiles there are;
    * ``practice`` (a profile id) replaces the date rule: a profile with a ``text`` reads that unit's
      text (the place asked for must be one it stands for), one without replaces the date only.
    """
    if practice is not None:
        chosen = get_practice(practice, rite_id)
        check_practice_year(chosen, year)
        if chosen.text is not None:
            if not chosen.stands_for(place) and get_place(place).id != get_place(chosen.text.place).id:
                raise UnknownValueError(f"place for practice {chosen.id}", place, chosen.places)
            return _practice_standing(chosen, year)
        unit = _qing_unit(place, year, rite_id)
        note = _practice_note(chosen, unit.place, year)
        return Standing(unit.place, unit.text_year, chosen, note, unit.scope_year)
    return _qing_unit(place, year, rite_id)


def _qing_unit(place: str, year: int, rite_id: str) -> Standing:
    if year <= QING_LAST_YEAR:
        return Standing(place_at(place, year), year)
    try:
        unit = place_at(place, QING_LAST_YEAR)
    except QingRuleEndedError as ended:
        found = default_practice(place, rite_id, year)
        if found is not None:
            return _practice_standing(found, year)
        here = practices_for_place(place, year)
        accepted = [
            f"--practice {p.id} ({p.name}: {', '.join(r.rite for r in p.rites)})" for p in here
        ] or accepted_practices()
        raise UnknownValueError(
            f"place in {year}: Qing rule over {place} ended in {ended.last_year} ({ended.event}); no Qing "
            f"unit answers the name after that, and no practice profile documents rite {rite_id!r} there "
            f"in {year} (a profile stands for a place: data/practice/*.yaml)",
            place,
            accepted,
        ) from None
    note = (
        f"after the Qing: the rite as the text prescribes it for {unit.name} as it stood in "
        f"{QING_LAST_YEAR}, its last Qing year; its day computed by the text's rule (no almanac)"
    )
    return Standing(unit, QING_LAST_YEAR, None, note, year)


def _practice_standing(chosen: Practice, year: int) -> Standing:
    if chosen.text is None:
        raise DataError(f"practice {chosen.id}: names no text place")
    unit = place_at(chosen.text.place, chosen.text.year)
    return Standing(unit, chosen.text.year, chosen, _practice_note(chosen, unit, year))


def _practice_note(chosen: Practice, unit: PlaceAt, year: int) -> str:
    parts = [f"practice {chosen.label}, {chosen.where}: its day replaces the text's rule"]
    if chosen.text is not None:
        sources = "; ".join(source_text(s) for s in chosen.text.sources)
        parts.append(
            f"the order of service is the text's for {unit.name} as it stood in {chosen.text.year} "
            f"({chosen.text.note}{'; ' + sources if sources else ''})"
        )
        if chosen.text.assumption:
            parts.append(f"assumption: {chosen.text.assumption}")
    else:
        parts.append(
            f"the order of service is the text's for {unit.name} as it stood in {min(year, QING_LAST_YEAR)}"
        )
    if chosen.assumption:
        parts.append(f"assumption: {chosen.assumption}")
    return "; ".join(parts)


def _officiants_today(
    officiants: tuple[Officiant, ...], chosen: Practice | None, rite_id: str
) -> tuple[Officiant, ...]:
    """After the Qing no Qing office holds a function: the text's function stays, its office is given only
    where a practice profile names today's holder (cited), and is blank otherwise."""
    today = chosen.rite(rite_id) if chosen is not None else None
    out = []
    for o in officiants:
        holder = next(
            (p for p in (today.officiants if today else ()) if fold(p.function) == fold(o.function)), None
        )
        if holder is not None:
            note = f"today: {holder.office} — " + "; ".join(source_text(s) for s in holder.sources)
            office = holder.office
        else:
            note = f"after the Qing no office holds it (the text: {o.office}); whoever the temple chooses"
            office = ""
        notes = f"{o.notes}; {note}" if o.notes else note
        out.append(o.model_copy(update={"office": office, "notes": notes, "assumption": None}))
    return tuple(out)


def check_witness(witness: str) -> str:
    if witness not in witness_ids():
        raise UnknownValueError("witness", witness, witness_ids())
    return witness


def resolve_rite(
    rite: str, place: str, year: int, witness: str | None = None, practice: str | None = None
) -> ResolvedRite:
    """The rite ``rite`` (id or name) at ``place`` in ``year``, in ``witness``'s reading (default: the
    witness that governs the place that year). What the place and the year mean — after the Qing, for a
    place no longer Chinese, with a practice profile (``practice``) — is decided by :func:`standing`.

    A witness asked for by name must hold the rite (itself, or the text it translates or that translates
    it, cites the rite or gives a reading of it); otherwise the error names the witnesses that do. The governing witness, asked for by default, may lack a rite
    held at its place (a fragment): then the rite's other readings stand in and every element says so."""
    check_year(year)
    if witness is not None:
        check_witness(witness)
    rite_id = find_rite(rite)
    meant = standing(place, year, rite_id, practice)
    if witness is not None:
        holders = witnesses_with_rite(rite_id)
        if not any(w in holders for w in translation_family(witness)):
            raise UnknownValueError(
                f"witness for rite {rite_id!r} (this witness does not have it)", witness, holders
            )
    resolved = _resolve(rite_id, meant.place.id, meant.text_year, witness, meant.elements_year)
    if meant.practice is None and meant.text_year == year:
        return resolved
    return replace(
        resolved,
        year=year,
        text_year=meant.text_year,
        practice=meant.practice,
        note=meant.note,
        officiants=_officiants_today(resolved.officiants, meant.practice, rite_id),
    )


@functools.lru_cache(maxsize=4096)
def _resolve(rite_id: str, place_id: str, year: int, witness: str | None, scope_year: int) -> ResolvedRite:
    """The rite at the unit as it stood in ``year`` (its governing witness that year), its elements
    kept for ``scope_year`` (the same year, except after the dynasty)."""
    where = place_at(place_id, year)
    governing = governing_witness(place_id, year)
    return resolve_with(
        rites_for(witness or governing), rite_id, where, scope_year, witness or governing, governing
    )


def scope_for(rite_id: str, place: PlaceAt, year: int, witness: str) -> Scope:
    """The scope of a rite at a place in a year in a witness's reading (see :class:`Scope`)."""
    return Scope(place, year, witness, rite_id, _order(rite_id, witness))


@functools.cache
def _order(rite_id: str, witness: str) -> tuple[str, ...]:
    """The witnesses whose readings ``witness`` follows for ``rite_id`` (see :class:`Scope`)."""
    chain = reading_chain(witness)
    holders = witnesses_with_rite(rite_id) if rite_id in all_rites() else ()
    if any(w in holders for w in (*translation_family(witness), *chain)):
        return chain  # the witness, or its base, holds the rite: it reads it through its chain alone
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
        span = f"{effective.from_year or FIRST_YEAR}..{effective.until_year or QING_LAST_YEAR}"
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
