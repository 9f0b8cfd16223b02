"""Variation across the corpus: for every rule the witnesses read differently, which witness says what,
and at which places and in which years each reading is in force.

A **rule** is one point of a rite that can be read differently, found in the data, never named in code:

* a ``variant`` group — the elements of a rite sharing a ``variant`` label (alternative readings of one
  rule, ``witnesses`` naming whose), id ``RITE:LABEL``;
* a field of a rite that some witness's ``readings/*.yaml`` replaces — id ``RITE.FIELD``, or
  ``RITE.FIELD.ID`` for the fields merged item by item (``parts``, ``altars``).

A **reading** is one value of the rule: the elements read for it (or none: the empty reading), their
words, and their citations. It is found where it is **in force**, through the governance of the places
(:mod:`dianli.places.governs`): for every unit and every stretch of years with one governing witness, the
witness's reading of the rite — its reading chain, the reading files of its folder, the agreeing
citations of its ``alignment.yaml``, resolved as :mod:`dianli.rites.resolve` resolves it — keeps the
elements of the rule in force there and then (their own ``from_year``/``until_year``, ``places`` and
``place_levels``, and the rite's). A unit where the rite is not held, or where the rule's elements are
all out of scope, has no reading of it; a unit whose governing witness reads nothing of it has the empty
reading. A witness that holds the rite but governs no unit where the rule is in force (a translation, a
provincial rule read in a prefecture) adds its reading as it states it, in force nowhere.

What each witness states is read from the correspondence table (:mod:`dianli.comparison.table`), the one
source that ``compare``, ``coverage`` and ``align`` read too: a reading's citations are those the table
holds (a quote that is not in its witness states nothing), with the witness's agreeing clauses; a witness
*states* a reading when the reading names it, quotes it, or the table has the witness giving one of its
facts in its own words (the same hymn, day or office at the same slot: :mod:`dianli.comparison.values`),
and otherwise *follows* it (inherits it from its base). A reading that has none of a variant group's
elements but states the same point in its own place (a hymn at another step of its own order of
service) reads the rule there. A rule is listed when it has two readings or more.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dianli.comparison.table import Statement
from dianli.comparison.values import FACT_KINDS, element_names, element_values
from dianli.corpus.cite import Citation
from dianli.corpus.normalise import fold
from dianli.corpus.witnesses import manifest, witness_ids
from dianli.errors import DianliError, UnknownValueError
from dianli.places.governs import governance
from dianli.places.places import Place, PlaceAt, all_places, default_place, year_range
from dianli.rites.load import all_rites
from dianli.rites.model import (
    Altar,
    DateRule,
    Dimension,
    Element,
    Include,
    Names,
    Offering,
    Officiant,
    Part,
    Rite,
    Step,
    Text,
    Venue,
    walk_paths,
)
from dianli.rites.readings import (
    MERGED_BY_ID,
    apply_reading,
    own_readings,
    reading_chain,
    witnesses_with_rite,
)
from dianli.rites.resolve import Scope, find_rite, kept_in_scope, scope_for

Fact = tuple[str, str, str, tuple[tuple[str, ...], tuple[str, ...]]]
"""(kind, slot, value key, scope) of a fact an element states (:mod:`dianli.comparison.values`)."""
NONE_TEXT = "—"
"""How the empty reading is shown: the witness's reading has nothing of the rule."""
SEPARATOR = " ／ "
"""Between the elements of one reading."""
_META = frozenset(Element.model_fields)


# --- data -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Span:
    """A unit and a stretch of years (inclusive) in which a reading is in force, and through whom."""

    place: str
    name: str
    """The unit's name in ``from_year``."""
    witness: str
    """The witness that governs the unit then."""
    unit: str
    unit_name: str
    """The unit the witness was written for (the place itself or the parent it governs through)."""
    from_year: int
    until_year: int
    stands_in: bool
    """No witness governs the unit yet: the earliest written for it stands in."""
    source: str
    """Why the witness governs there: its manifest's quotation or assumption."""

    def holds(self, year: int) -> bool:
        return self.from_year <= year <= self.until_year


@dataclass(frozen=True, slots=True)
class Reading:
    """One value of a rule: its words, who states it, who follows it, where and when it is in force."""

    number: int
    """1, 2 … in the order of the rule's readings (first in force first)."""
    value: str
    """The reading's words (:data:`NONE_TEXT` for the empty reading)."""
    witnesses: tuple[str, ...]
    """The witnesses that state it: it names them, or they cite it (their own words)."""
    followers: tuple[str, ...]
    """Witnesses that read it without stating it: inherited from their base."""
    citations: tuple[Citation, ...]
    """Every citation of its elements, the stating witnesses' first."""
    assumptions: tuple[str, ...]
    """Labelled assumptions of elements that have no citation."""
    scope: str
    """The elements' own validity and place scope ("from 1738; places 臺灣府"), or ''."""
    paths: tuple[str, ...]
    """The element paths (``rite.field[id]…``) it is read from."""
    spans: tuple[Span, ...]

    @property
    def empty(self) -> bool:
        return not self.paths

    def years(self) -> tuple[tuple[int, int], ...]:
        """The years it is in force somewhere, as disjoint inclusive ranges."""
        return merge_ranges((s.from_year, s.until_year) for s in self.spans)

    def places(self) -> tuple[str, ...]:
        """The ids of the units where it is ever in force, in the order first met."""
        return tuple(dict.fromkeys(s.place for s in self.spans))

    def first_citation(self, witness: str) -> Citation | None:
        return next((c for c in self.citations if c.witness == witness), None)

    def source(self) -> Citation | str:
        """What the reading rests on, first: a stating witness's own quotation, else any quotation of its
        elements, else its labelled assumption, else '' (the empty reading)."""
        for witness in self.witnesses:
            found = self.first_citation(witness)
            if found is not None:
                return found
        if self.citations:
            return self.citations[0]
        return f"assumption: {self.assumptions[0]}" if self.assumptions else ""

    def cited_witnesses(self) -> tuple[str, ...]:
        """The witnesses that some citation of the reading quotes, stating witnesses first."""
        return tuple(dict.fromkeys(c.witness for c in self.citations))

    def governed(self) -> tuple[Governed, ...]:
        """Where it is in force, by governing witness and the unit it was written for."""
        groups: dict[tuple[str, str], list[Span]] = {}
        for span in self.spans:
            groups.setdefault((span.witness, span.unit), []).append(span)
        out = [
            Governed(
                witness=witness,
                unit=unit,
                unit_name=spans[0].unit_name,
                places=tuple(dict.fromkeys(s.name for s in spans)),
                years=merge_ranges((s.from_year, s.until_year) for s in spans),
                standing_in=merge_ranges((s.from_year, s.until_year) for s in spans if s.stands_in),
                source=spans[0].source,
            )
            for (witness, unit), spans in groups.items()
        ]
        return tuple(sorted(out, key=lambda g: (g.years[0][0], g.witness)))


@dataclass(frozen=True, slots=True)
class Governed:
    """The units where a reading is in force through one witness written for one unit."""

    witness: str
    unit: str
    unit_name: str
    places: tuple[str, ...]
    """The names of the units (the unit itself, or those it governs through it)."""
    years: tuple[tuple[int, int], ...]
    standing_in: tuple[tuple[int, int], ...]
    """The years in which the witness only stands in (none written for the unit yet)."""
    source: str


@dataclass(frozen=True, slots=True)
class Rule:
    """A point of a rite that the witnesses read differently, with its readings."""

    id: str
    rite: str
    rite_name: str
    kind: str
    """``variant`` (a variant group of the shared data) or ``reading`` (a field a witness's reading replaces)."""
    label: str
    """The variant label, or the field path."""
    readings: tuple[Reading, ...]

    def reading_at(self, place: str, year: int) -> Reading | None:
        """The reading in force at a unit (id) in a year, or None where the rule is not in force."""
        return next(
            (r for r in self.readings if any(s.place == place and s.holds(year) for s in r.spans)), None
        )

    @property
    def witnesses(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(w for r in self.readings for w in r.witnesses))


def merge_ranges(ranges: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Inclusive year ranges merged where they overlap or touch."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if out and start <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return tuple(out)


def format_ranges(ranges: Sequence[tuple[int, int]]) -> str:
    """``1644–1719, 1764–1911``."""
    return ", ".join(f"{a}–{b}" if a != b else str(a) for a, b in ranges)


# --- the words of an element ----------------------------------------------------------------------


def _plain(element: Element) -> str:
    """The non-metadata scalar fields of an element, for elements with no dedicated wording."""
    values = []
    for name in type(element).model_fields:
        if name in _META or name == "id":
            continue
        value = getattr(element, name)
        if isinstance(value, str | int | float) and not isinstance(value, bool) and str(value):
            values.append(str(value))
    return " ".join(values) or type(element).__name__


def element_text(element: Element, altars: Mapping[str, str] | None = None) -> str:
    """The words of one element as a reading shows them (what differs between readings shows here);
    ``altars`` gives the name of each altar by id, for an altar set out like another (「如 東哲」)."""
    if isinstance(element, Step):
        parts = [element.call and f"「{element.call}」", element.action, element.posture, element.door]
        return "　".join(x for x in parts if x) or _plain(element)
    if isinstance(element, Include):
        return f"如 {element.include}"
    if isinstance(element, DateRule):
        return element.text or element.name
    if isinstance(element, Officiant):
        count = f"（{element.count}）" if element.count else ""
        return f"{element.function}：{element.office}{count}"
    if isinstance(element, Dimension):
        what = f"{element.of} " if element.of else ""
        return f"{what}{element.measure} {element.text or f'{element.value:g}{element.unit}'}"
    if isinstance(element, Venue):
        sizes = "、".join(element_text(d) for d in element.dimensions)
        return f"{element.name}（{sizes}）" if sizes else element.name
    if isinstance(element, Text):
        return f"{element.title}：{element.text}"
    if isinstance(element, Names):
        return "、".join(element.classical)
    if isinstance(element, Offering):
        contents = f"（{'、'.join(element.contents)}）" if element.contents else ""
        return f"{element.vessel}{element.count}{contents}"
    if isinstance(element, Part):
        steps = SEPARATOR.join(element_text(s) for s in element.steps)
        return f"{element.title}：{steps}" if steps else element.title
    if isinstance(element, Altar):
        like = f"（如 {(altars or {}).get(element.like, element.like)}）" if element.like else ""
        return f"{element.name}{like}"
    for name in ("name", "office", "text", "title"):
        value = getattr(element, name, None)
        if isinstance(value, str):
            return value
    return _plain(element)


def _scope_text(elements: Sequence[Element]) -> str:
    """The elements' own years and place scope, where they all share it."""
    parts: list[str] = []
    froms = {e.from_year for e in elements}
    untils = {e.until_year for e in elements}
    if len(froms) == 1 and None not in froms:
        parts.append(f"from {froms.pop()}")
    if len(untils) == 1 and None not in untils:
        parts.append(f"until {untils.pop()}")
    places = dict.fromkeys(p for e in elements for p in e.places)
    if places:
        parts.append(f"places {'、'.join(places)}")
    levels = dict.fromkeys(level for e in elements for level in e.place_levels)
    if levels:
        parts.append(f"levels {'、'.join(levels)}")
    return "; ".join(parts)


# --- the rules ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _RuleKey:
    rite: str
    kind: str
    label: str
    field: str = ""
    item: str = ""

    @property
    def id(self) -> str:
        if self.kind == "variant":
            return f"{self.rite}:{self.label}"
        return self.label


@functools.cache
def _read_rite(witness: str, rite_id: str) -> Rite:
    """The rite as the witness reads it: the shared base with the reading files of its chain, farthest
    first (as :func:`dianli.rites.readings.rites_for`; its agreeing citations are added per element)."""
    rite = all_rites()[rite_id]
    for member in reversed(reading_chain(witness)):
        for where, patch in own_readings(member).get(rite_id, ()):
            rite = apply_reading(rite, patch, where)
    return rite


@functools.cache
def _variant_index(witness: str, rite_id: str) -> dict[str, tuple[tuple[str, Element], ...]]:
    """variant label → (path, element) of the rite as the witness reads it."""
    rite = _read_rite(witness, rite_id)
    changed = rite is not all_rites()[rite_id]
    source = tuple(walk_paths(rite, rite_id)) if changed else _base_paths(rite_id)
    found: dict[str, list[tuple[str, Element]]] = {}
    for path, element in source:
        if element.variant is not None:
            found.setdefault(element.variant, []).append((path, element))
    return {label: tuple(items) for label, items in found.items()}


@functools.cache
def _base_paths(rite_id: str) -> tuple[tuple[str, Element], ...]:
    return tuple(walk_paths(all_rites()[rite_id], rite_id))


def _field_items(rite: Rite, key: _RuleKey) -> list[tuple[str, Element]]:
    """(path, element) of a replaced field (every item) or of one item of a merged field."""
    value = getattr(rite, key.field)
    base = f"{rite.id}.{key.field}"
    if isinstance(value, Element):
        return [(base, value)]
    if not isinstance(value, tuple):
        return []
    out = []
    for index, item in enumerate(value):
        if not isinstance(item, Element):
            continue
        ident = getattr(item, "id", None) or index
        if key.item and str(ident) != key.item:
            continue
        out.append((f"{base}[{ident}]", item))
    return out


@functools.cache
def _rule_keys() -> tuple[_RuleKey, ...]:
    """Every variant group and every field a witness's reading replaces, rites in data order."""
    keys: dict[str, _RuleKey] = {}
    patched: dict[str, list[tuple[str, str]]] = {}
    for witness in witness_ids():
        for rite_id, patches in own_readings(witness).items():
            for _where, patch in patches:
                for field, value in patch.items():
                    if field in ("id", "with") or field not in Rite.model_fields:
                        continue
                    if field in MERGED_BY_ID and isinstance(value, list):
                        for item in value:
                            ident = str(item.get("id")) if isinstance(item, dict) else ""
                            patched.setdefault(rite_id, []).append((field, ident))
                    else:
                        patched.setdefault(rite_id, []).append((field, ""))
    for rite_id in all_rites():
        holders = _holders(rite_id)
        labels = dict.fromkeys(label for w in holders for label in _variant_index(w, rite_id))
        labels.update(dict.fromkeys(e.variant for _p, e in _base_paths(rite_id) if e.variant is not None))
        for label in labels:
            key = _RuleKey(rite_id, "variant", label)
            keys.setdefault(key.id, key)
        for field, item in patched.get(rite_id, ()):
            label = f"{rite_id}.{field}.{item}" if item else f"{rite_id}.{field}"
            keys.setdefault(label, _RuleKey(rite_id, "reading", label, field, item))
    return tuple(keys.values())


@functools.cache
def _holders(rite_id: str) -> tuple[str, ...]:
    """The witnesses that hold the rite, and those whose reading files read it."""
    readers = [w for w in witness_ids() if any(rite_id in own_readings(m) for m in reading_chain(w))]
    return tuple(dict.fromkeys([*witnesses_with_rite(rite_id), *readers]))


# --- evaluation -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Value:
    """What one witness reads for a rule in one scope: the elements, their paths and citations."""

    key: tuple[str, ...]
    paths: tuple[str, ...]
    elements: tuple[Element, ...]
    citations: tuple[Citation, ...]


@functools.cache
def _selection(key: _RuleKey, witness: str) -> tuple[tuple[str, Element], ...]:
    """(path, element) of the rule in the rite as the witness reads it, before any scope. A reading that
    has none of a variant group's elements but states the same point in its own place (its hymn at
    another step) reads the rule there: the elements the correspondence table finds it stating."""
    if key.kind == "variant":
        labelled = _variant_index(witness, key.rite).get(key.label, ())
        have = {id(e) for _p, e in labelled}
        return labelled + tuple((p, e) for p, e in _stated_instead(key, witness) if id(e) not in have)
    return tuple(_field_items(_read_rite(witness, key.rite), key))


def _readable(key: _RuleKey, witness: str, scope: Scope) -> list[tuple[str, Element]]:
    """The elements of the rule the witness reads in a scope: the group's elements its reading chain
    takes, else — where it takes none (they name other witnesses, or its reading has none of them) — the
    elements the correspondence table finds it stating in their place (:func:`_stated_instead`)."""
    if key.kind != "variant":
        return [(p, e) for p, e in _selection(key, witness) if _reads(scope, e)]
    labelled = [(p, e) for p, e in _variant_index(witness, key.rite).get(key.label, ()) if _reads(scope, e)]
    return labelled or list(_stated_instead(key, witness))


# --- what the correspondence table says each witness states -----------------------------------------


@functools.cache
def _table_index() -> dict[tuple[str, str], tuple[Statement, ...]]:
    """(witness, rite) → the witness's statements of the rite in the correspondence table
    (:mod:`dianli.comparison.table`)."""
    from dianli.comparison.table import table

    out: dict[tuple[str, str], list[Statement]] = {}
    for s in table():
        out.setdefault((s.witness, s.rite), []).append(s)
    return {key: tuple(found) for key, found in out.items()}


def _stated_by(witness: str, rite_id: str) -> tuple[Statement, ...]:
    return _table_index().get((witness, rite_id), ())


@functools.cache
def _own_at(witness: str, rite_id: str) -> dict[str, tuple[Statement, ...]]:
    """element path → the witness's statements of it in its own reading or alignment."""
    out: dict[str, list[Statement]] = {}
    for s in _stated_by(witness, rite_id):
        if s.reading == witness:
            out.setdefault(s.element, []).append(s)
    return {path: tuple(found) for path, found in out.items()}


@functools.cache
def _facts_stated(witness: str, rite_id: str) -> frozenset[tuple[str, str, str]]:
    """(kind, slot, value key) of every fact the witness states of the rite."""
    return frozenset((s.kind, s.slot, s.key) for s in _stated_by(witness, rite_id) if s.kind in FACT_KINDS)


@functools.cache
def _quotes_stated() -> frozenset[tuple[str, str]]:
    """(witness, quote's folding key) of every statement: a citation the table does not hold (its quote is
    not in the witness) states nothing and is shown nowhere."""
    return frozenset((s.witness, _folded(s.quote)) for found in _table_index().values() for s in found)


@functools.lru_cache(maxsize=65536)
def _folded(quote: str) -> str:
    return fold(quote)


def _facts(rite_id: str, items: Sequence[tuple[str, Element]], names: dict[str, str]) -> frozenset[Fact]:
    """(kind, slot, value key, scope) of the facts the elements state (:func:`element_values`)."""
    return frozenset(
        (v.kind, v.slot, fold(v.text), _scope_key(e))
        for path, e in items
        for v in element_values(rite_id, path, e, names)
    )


def _scope_key(element: Element) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The places and place levels an element is limited to: two elements of one slot are the same point
    only where their scope is the same (the 主祭官 of the provincial capital is not a county's)."""
    return (tuple(sorted(element.places)), tuple(sorted(element.place_levels)))


@functools.cache
def _value_facts(witness: str, rite_id: str, paths: tuple[str, ...]) -> frozenset[tuple[str, str, str]]:
    """(kind, slot, value key) of the facts the elements at ``paths`` of the witness's reading state."""
    wanted = set(paths)
    items = [(p, e) for p, e in _walked(witness, rite_id) if p in wanted]
    return frozenset(
        (kind, slot, key) for kind, slot, key, _scope in _facts(rite_id, items, _names(witness, rite_id))
    )


@functools.cache
def _walked(witness: str, rite_id: str) -> tuple[tuple[str, Element], ...]:
    """(path, element) of the rite as the witness reads it, in order (two variants of one item share a
    path)."""
    return tuple(walk_paths(_read_rite(witness, rite_id), rite_id))


@functools.cache
def _altar_names(witness: str, rite_id: str) -> dict[str, str]:
    """altar id → its name, in the rite as the witness reads it."""
    return {a.id: a.name for a in _read_rite(witness, rite_id).altars}


@functools.cache
def _names(witness: str, rite_id: str) -> dict[str, str]:
    return element_names(_read_rite(witness, rite_id), rite_id)


@functools.cache
def _rule_facts(key: _RuleKey) -> frozenset[Fact]:
    """The facts the elements of a variant group state, in the shared data and in every reading that has
    them (the slots a reading lacking them may state in its own place)."""
    out: set[Fact] = set()
    for witness in ("", *_holders(key.rite)):
        items = (
            [(p, e) for p, e in _base_paths(key.rite) if e.variant == key.label]
            if not witness
            else list(_variant_index(witness, key.rite).get(key.label, ()))
        )
        names = element_names(all_rites()[key.rite], key.rite) if not witness else _names(witness, key.rite)
        out.update(f for f in _facts(key.rite, items, names) if f[0] in FACT_KINDS)
    return frozenset(out)


@functools.cache
def _stated_instead(key: _RuleKey, witness: str) -> tuple[tuple[str, Element], ...]:
    """The elements of the witness's reading (or of the nearest reading of its chain that has any) that
    state one of the group's facts' slots in the same scope, as the correspondence table has them."""
    wanted = {(kind, slot, scope) for kind, slot, _value, scope in _rule_facts(key)}
    if not wanted:
        return ()
    items = _walked(witness, key.rite)
    names = _names(witness, key.rite)
    for member in reading_chain(witness):
        stated = {
            (s.element, s.slot, s.key)
            for s in _stated_by(member, key.rite)
            if s.kind in FACT_KINDS and s.reading in ("", member)
        }
        paths = {path for path, _slot, _key in stated}
        found = [
            (path, element)
            for path, element in items
            if path in paths
            and element.variant is None  # its own element, not another witness's alternative
            and any(
                (f[0], f[1], f[3]) in wanted and (path, f[1], f[2]) in stated
                for f in _facts(key.rite, [(path, element)], names)
            )
        ]
        if found:
            return tuple(found)
    return ()


@functools.cache
def _value_of(key: _RuleKey, witness: str, paths: tuple[str, ...]) -> _Value:
    """:func:`_value` of the elements of the rule at ``paths`` (computed once)."""
    chosen = set(paths)
    return _value(witness, [(p, e) for p, e in _selection(key, witness) if p in chosen], key.rite)


def _reads(scope: Scope, element: Element) -> bool:
    return not element.witnesses or scope.reader(element) in element.witnesses


def _value(witness: str, items: Sequence[tuple[str, Element]], rite_id: str) -> _Value:
    """The value of the elements as the witness reads them: their citations the correspondence table
    holds, then the witness's agreeing clauses of them (its ``alignment.yaml``, as the table has them)."""
    stated = _quotes_stated()
    own = [c for _p, e in items for c in e.citations if (c.witness, _folded(c.quote)) in stated]
    shown = {(c.witness, _folded(c.quote)) for c in own}
    mine = _own_at(witness, rite_id)
    aligned = [
        Citation(witness=s.witness, quote=s.quote, section=s.section)
        for path in dict.fromkeys(p for p, _e in items)
        for s in mine.get(path, ())
        if (s.witness, _folded(s.quote)) not in shown
    ]
    return _Value(
        key=tuple(element_text(e, _altar_names(witness, rite_id)) for _p, e in items),
        paths=tuple(p for p, _e in items),
        elements=tuple(e for _p, e in items),
        citations=tuple(dict.fromkeys([*own, *aligned])),
    )


@functools.cache
def _reader_place() -> PlaceAt:
    place = default_place()
    return place.at(place.periods[0].from_year)


@functools.cache
def _statement(key: _RuleKey, witness: str) -> _Value:
    """What the witness reads for the rule anywhere and at any time (its reading chain decides)."""
    scope = scope_for(key.rite, _reader_place(), _reader_place().year, witness)
    return _value(witness, _readable(key, witness, scope), key.rite)


def _in_force(key: _RuleKey, witness: str, place: PlaceAt, year: int) -> _Value | None:
    """What the witness's reading keeps of the rule at the unit in the year (None: not in force there)."""
    scope = scope_for(key.rite, place, year, witness)
    if not scope.keeps(_read_rite(witness, key.rite)):
        return None
    chosen = _readable(key, witness, scope)
    if not chosen:
        return _value_of(key, witness, ())
    kept = [(p, e) for p, e in chosen if scope.keeps(e)]
    top = [(p, e) for p, e in kept if _is_top(p, key.rite)]
    if top:
        survivors = {id(e) for e in kept_in_scope(tuple(e for _p, e in top), scope)}
        kept = [(p, e) for p, e in kept if not _is_top(p, key.rite) or id(e) in survivors]
    return _value_of(key, witness, tuple(p for p, _e in kept)) if kept else None


def _is_top(path: str, rite_id: str) -> bool:
    """A path of an item of one of the rite's own lists (``rite.officiants[2]``), where a place's own
    item replaces the general ones."""
    rest = path[len(rite_id) + 1 :]
    return "." not in rest and rest.endswith("]")


@dataclass(frozen=True, slots=True)
class _Stretch:
    place: str
    from_year: int
    until_year: int
    witness: str
    unit: str
    stands_in: bool
    source: str

    @property
    def at(self) -> PlaceAt:
        """The unit as it stood in these years (one period of it: stretches are cut at its periods)."""
        return _place_at(self.place, self.from_year)

    @property
    def unit_name(self) -> str:
        """The name of the unit the witness was written for, in the stretch's first year."""
        place = _place_by_id()[self.unit]
        return place.at(self.from_year).name if place.exists(self.from_year) else place.name


@functools.cache
def _place_at(place: str, year: int) -> PlaceAt:
    return _place_by_id()[place].at(year)


@functools.cache
def _stretches() -> tuple[_Stretch, ...]:
    """Every unit's years cut where its period or its governing witness changes (computed once)."""
    first, last = year_range()
    cuts = {first, last + 1}
    for place in all_places():
        for period in place.periods:
            cuts.update((period.from_year, period.until_year + 1))
    for info in manifest():
        for entry in info.governs:
            cuts.add(entry.from_year)
            if entry.until_year is not None:
                cuts.add(entry.until_year + 1)
    bounds = sorted(c for c in cuts if first <= c <= last + 1)
    out: list[_Stretch] = []
    for place in all_places():
        current: _Stretch | None = None
        for start, stop in itertools.pairwise(bounds):
            if not place.exists(start):
                if current is not None:
                    out.append(current)
                    current = None
                continue
            try:
                ruling = governance(place.id, start)
            except DianliError:
                continue
            same = current is not None and (current.witness, current.unit, current.stands_in) == (
                ruling.witness,
                ruling.unit,
                ruling.stands_in,
            )
            if current is not None and same and current.until_year == start - 1:
                current = _Stretch(
                    place.id, current.from_year, stop - 1, ruling.witness, ruling.unit, ruling.stands_in,
                    ruling.source,
                )  # fmt: skip
                continue
            if current is not None:
                out.append(current)
            current = _Stretch(
                place.id, start, stop - 1, ruling.witness, ruling.unit, ruling.stands_in, ruling.source
            )
        if current is not None:
            out.append(current)
    return tuple(out)


def _element_cuts(key: _RuleKey) -> set[int]:
    cuts: set[int] = set()
    for witness in {s.witness for s in _stretches()} | set(_holders(key.rite)):
        rite = _read_rite(witness, key.rite)
        for element in (rite, *(e for _p, e in _selection(key, witness))):
            if element.from_year is not None:
                cuts.add(element.from_year)
            if element.until_year is not None:
                cuts.add(element.until_year + 1)
    return cuts


@functools.cache
def _place_by_id() -> dict[str, Place]:
    return {p.id: p for p in all_places()}


@functools.cache
def _evaluate(key: _RuleKey) -> Rule | None:
    """The rule's readings (None when it has fewer than two distinct values: nothing differs)."""
    found: dict[tuple[str, ...], dict[str, Any]] = {}

    def entry(value: _Value) -> dict[str, Any]:
        item = found.setdefault(
            value.key,
            {"paths": [], "elements": [], "cites": {}, "stating": [], "following": [], "spans": []},
        )
        for path, element in zip(value.paths, value.elements, strict=True):
            if path not in item["paths"]:
                item["paths"].append(path)
                item["elements"].append(element)
        item["cites"].update(dict.fromkeys(value.citations))
        return item

    def states(witness: str, value: _Value) -> bool:
        """The reading names the witness, quotes it, or the table has the witness stating one of its
        facts in its own words (the same hymn, day, office at the same slot)."""
        named = any(witness in e.witnesses for e in value.elements)
        if named or any(c.witness == witness for c in value.citations):
            return True
        stated = _facts_stated(witness, key.rite)
        return bool(stated and value.paths) and not _value_facts(witness, key.rite, value.paths).isdisjoint(
            stated
        )

    def note(witness: str, value: _Value) -> None:
        item = entry(value)
        target = item["stating"] if states(witness, value) else item["following"]
        if witness not in target:
            target.append(witness)

    cuts = _element_cuts(key)
    for stretch in _stretches():
        bounds = sorted(
            {stretch.from_year, stretch.until_year + 1}
            | {c for c in cuts if stretch.from_year < c <= stretch.until_year}
        )
        unit = stretch.at
        for start, stop in itertools.pairwise(bounds):
            kept = _in_force(key, stretch.witness, unit, start)
            if kept is None:
                continue
            if not kept.paths and _statement(key, stretch.witness).paths:
                continue  # its reading has the rule, only not for this unit or year
            note(stretch.witness, kept)
            entry(kept)["spans"].append(
                Span(
                    place=stretch.place,
                    name=unit.name,
                    witness=stretch.witness,
                    unit=stretch.unit,
                    unit_name=stretch.unit_name,
                    from_year=start,
                    until_year=stop - 1,
                    stands_in=stretch.stands_in,
                    source=stretch.source,
                )
            )
    noted = {w for item in found.values() for w in (*item["stating"], *item["following"])}
    for witness in _holders(key.rite):
        if witness in noted:
            continue
        # it governs no unit where the rule is in force: its reading as it states it (a witness that only
        # follows its base there, in force nowhere, adds no reading: 范咸's 府志 of the units 臺灣府志 governs)
        value = _statement(key, witness)
        if states(witness, value):
            note(witness, value)
    if len(found) < 2:
        return None
    ordered = sorted(
        found.items(),
        key=lambda kv: (
            min((s.from_year for s in kv[1]["spans"]), default=10_000),
            not kv[0],
            kv[0],
        ),
    )
    readings = []
    for number, (value_key, item) in enumerate(ordered, start=1):
        stating = tuple(item["stating"])
        cites = tuple(c for c in item["cites"] if c.witness in stating) + tuple(
            c for c in item["cites"] if c.witness not in stating
        )
        readings.append(
            Reading(
                number=number,
                value=SEPARATOR.join(value_key) if value_key else NONE_TEXT,
                witnesses=stating,
                followers=tuple(w for w in item["following"] if w not in stating),
                citations=cites,
                assumptions=tuple(
                    dict.fromkeys(e.assumption for e in item["elements"] if e.assumption and not e.citations)
                ),
                scope=_scope_text(item["elements"]) if item["elements"] else "",
                paths=tuple(item["paths"]),
                spans=_merge_spans(item["spans"]),
            )
        )
    rite = all_rites()[key.rite]
    return Rule(
        id=key.id,
        rite=key.rite,
        rite_name=rite.names.classical[0],
        kind=key.kind,
        label=key.label,
        readings=tuple(readings),
    )


def _merge_spans(spans: Sequence[Span]) -> tuple[Span, ...]:
    """Adjacent spans of one unit under one witness joined."""
    out: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.place, s.from_year)):
        last = out[-1] if out else None
        if (
            last is not None
            and (last.place, last.witness, last.unit, last.stands_in)
            == (span.place, span.witness, span.unit, span.stands_in)
            and span.from_year == last.until_year + 1
        ):
            out[-1] = Span(
                last.place, last.name, last.witness, last.unit, last.unit_name, last.from_year,
                span.until_year, last.stands_in, last.source,
            )  # fmt: skip
        else:
            out.append(span)
    order = {p.id: i for i, p in enumerate(all_places())}
    return tuple(sorted(out, key=lambda s: (order.get(s.place, 0), s.from_year)))


@functools.cache
def _all_rules() -> tuple[Rule, ...]:
    return tuple(rule for key in _rule_keys() if (rule := _evaluate(key)) is not None) + _engine_rules()


def _engine_rules() -> tuple[Rule, ...]:
    """Rules of an engine's data that witnesses read differently: the spring ox (``spring_ox.ATTRIBUTE``,
    from the witnesses' own ``spring_ox.yaml``), filed under the rite that shows it."""
    from dianli.comparison.spring_ox_variation import (
        spring_ox_rules,  # it builds on this module: imported late
    )

    return spring_ox_rules()


def rule_ids() -> tuple[str, ...]:
    """The ids of the rules that differ somewhere."""
    return tuple(rule.id for rule in _all_rules())


def variation(rule: str | None = None, rite: str | None = None) -> tuple[Rule, ...]:
    """Every rule that differs somewhere, or the one ``rule`` (its id), or those of one ``rite`` (id)."""
    rite_id = find_rite(rite) if rite is not None else None
    if rule is None:
        if rite_id is None:
            return _all_rules()
        found_rules = tuple(r for k in _rule_keys() if k.rite == rite_id and (r := _evaluate(k)) is not None)
        return found_rules + tuple(r for r in _engine_rules() if r.rite == rite_id)
    key = next((k for k in _rule_keys() if k.id == rule and rite_id in (None, k.rite)), None)
    found = (
        _evaluate(key)
        if key is not None
        else next((r for r in _engine_rules() if r.id == rule and rite_id in (None, r.rite)), None)
    )
    if found is None:
        named = re.split(r"[:.]", rule, maxsplit=1)[0]  # a rule of a known rite: list that rite's rules
        within = rite_id or (named if named in all_rites() else None)
        accepted = [r.id for r in _all_rules() if within is None or r.rite == within]
        raise UnknownValueError("rule", rule, accepted or rule_ids())
    return (found,)


def rule_record(rule: Rule) -> dict[str, Any]:
    """A rule as plain data (JSON): its readings with witnesses, citations and spans in force."""
    return {
        "id": rule.id,
        "rite": rule.rite,
        "rite_name": rule.rite_name,
        "kind": rule.kind,
        "label": rule.label,
        "readings": [
            {
                "number": r.number,
                "value": r.value,
                "empty": r.empty,
                "witnesses": list(r.witnesses),
                "followers": list(r.followers),
                "scope": r.scope,
                "paths": list(r.paths),
                "citations": [c.model_dump(mode="json") for c in r.citations],
                "assumptions": list(r.assumptions),
                "years": [list(y) for y in r.years()],
                "spans": [
                    {
                        "place": s.place,
                        "name": s.name,
                        "witness": s.witness,
                        "unit": s.unit,
                        "unit_name": s.unit_name,
                        "from_year": s.from_year,
                        "until_year": s.until_year,
                        "stands_in": s.stands_in,
                        "source": s.source,
                    }
                    for s in r.spans
                ],
            }
            for r in rule.readings
        ],
    }
