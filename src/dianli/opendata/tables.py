"""The rows of the open-data package, built from the model: witnesses, places, rites, readings, steps,
offerings, tablets, observance rules, dated observances, variants and citations.

Every row comes from the modules that own the facts (the corpus, the places, the rites and their
calendar); nothing here names a witness, a rite or a place. The columns are those of
:mod:`dianli.opendata.schema`; values are plain Python (``str``, ``int``, ``float``, ``bool``,
:class:`datetime.date`, ``list``, ``dict`` or ``None`` for a missing value).

A *reading* is a rite as one witness that holds it reads it. Its steps, offerings and tablets depend on
the place and the year (elements are scoped by both), so each reading is resolved at one place and year,
chosen by a rule stated once (:func:`reading_context`) and exported with the reading.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from dianli.corpus.cite import Citation, resolve
from dianli.corpus.witnesses import ALIGNMENT_FILE, WitnessInfo, load_witness, manifest
from dianli.errors import DataError, DianliError, OutOfRangeError
from dianli.opendata.schema import TABLES, TableSchema
from dianli.places.governs import governing_witness
from dianli.places.places import (
    PlaceAt,
    PlaceLevel,
    all_places,
    get_place,
    place_at,
    places_in_year,
    year_range,
)
from dianli.rites.expand import NumberedStep
from dianli.rites.load import all_rites
from dianli.rites.model import Altar, DateRule, Element, Include, Override, Part, Rite, walk_paths
from dianli.rites.observances import Occurrence, observances_for
from dianli.rites.readings import own_readings, reading_chain, rites_for, witnesses_with_rite
from dianli.rites.resolve import (
    ResolvedRite,
    inherited_from,
    preferred_citations,
    resolve_rite,
)

Row = dict[str, Any]
Progress = Callable[[str, int, int], None]
"""Called as ``progress(table, done, total)`` while a table is built (``total`` 0: not known yet)."""

DEFAULT_YEARS = range(1752, 1753)
"""The years of the dated observances by default: 1752 alone. Every seed witness had been compiled by then
(the last, 汀州府志, in 1752), Taiwan still had its first prefecture and counties and Fujian its mid-Qing
units, so one year shows every governing witness of the period at every place; the Quickstart's program
is of that year. Each further year adds about 8,000 rows and a few seconds."""


def _quiet(_table: str, _done: int, _total: int) -> None:
    return None


@dataclass(frozen=True)
class Tables:
    """The rows of every table of the package, by table name, with the years of the dated observances."""

    rows: dict[str, list[Row]]
    years: range

    def __getitem__(self, name: str) -> list[Row]:
        return self.rows[name]

    def counts(self) -> dict[str, int]:
        return {name: len(rows) for name, rows in self.rows.items()}


# --- citations ------------------------------------------------------------------------------------


def _cite_columns(element: Element, witness: str | None = None) -> Row:
    """The element's first citation (``witness``'s own first) with its offsets, or its assumption."""
    cites = preferred_citations(element, witness) if witness else element.citations
    if not cites:
        return {**_cite_of(None), "assumption": element.assumption}
    return {**_cite_of(cites[0]), "assumption": element.assumption}


def _cite_of(cite: Citation | None) -> Row:
    if cite is None:
        return {k: None for k in ("cite_witness", "cite_quote", "cite_section", "cite_start", "cite_end")}
    found = _resolved(cite.witness, cite.quote, cite.section)
    return {
        "cite_witness": cite.witness,
        "cite_quote": cite.quote,
        "cite_section": cite.section,
        "cite_start": found.raw_start,
        "cite_end": found.raw_end,
    }


def _resolved(witness: str, quote: str, section: str | None, where: str = "") -> Any:
    try:
        return resolve(witness, quote, section)
    except DianliError as exc:
        raise DataError(f"{where + ': ' if where else ''}a citation that does not resolve: {exc}") from exc


# --- witnesses and places -------------------------------------------------------------------------


def witness_rows() -> list[Row]:
    rows = []
    for info in manifest():
        rows.append(
            {
                "id": info.id,
                "title": info.title,
                "short_title": info.short_title,
                "edition": info.edition,
                "compiled_year": info.compiled_year,
                "compiled_source": info.compiled_source,
                "script": info.script,
                "language": info.language,
                "punctuated": info.punctuated,
                "authority": info.authority,
                "translation_of": info.translation_of,
                "base": info.base,
                "reading_chain": list(reading_chain(info.id)),
                "characters": len(load_witness(info.id).raw),
                "fragments": [f.file for f in info.files],
            }
        )
    return rows


def governs_rows() -> list[Row]:
    return [
        {
            "witness": info.id,
            "place": entry.place,
            "from_year": entry.from_year,
            "until_year": entry.until_year,
            "source": entry.source,
        }
        for info in manifest()
        for entry in info.governs
    ]


def place_rows() -> list[Row]:
    return [
        {
            "id": place.id,
            "name": place.name,
            "names": list(place.names),
            "aliases": list(place.aliases),
            "first_year": place.first_year,
            "last_year": place.last_year,
            "ended_by": place.ended_by,
            "periods": len(place.periods),
        }
        for place in all_places()
    ]


def _grounds(period: Any) -> str | None:
    source = period.parent_source
    if source is None:
        return None
    parts = [f"{q.source}, {q.section}: 「{q.quote}」" for q in source.cite]
    if source.assumption:
        parts.append(f"assumption: {source.assumption}")
    return "; ".join(parts)


def place_period_rows() -> list[Row]:
    return [
        {
            "place": place.id,
            "from_year": period.from_year,
            "until_year": period.until_year,
            "name": period.name,
            "level": str(period.level),
            "level_label": period.level.label,
            "parent": period.parent,
            "chgis_id": period.chgis_id,
            "latitude": period.latitude_deg,
            "longitude": period.longitude_deg,
            "parent_source": _grounds(period),
            "note": period.note,
        }
        for place in all_places()
        for period in place.periods
    ]


# --- rites and readings ---------------------------------------------------------------------------


def _scope(element: Element) -> Row:
    return {
        "from_year": element.from_year,
        "until_year": element.until_year,
        "places": list(element.places),
        "place_levels": list(element.place_levels),
        "witnesses": list(element.witnesses),
        "variant": element.variant,
    }


def rite_rows() -> list[Row]:
    rows = []
    for rite in all_rites().values():
        rows.append(
            {
                "id": rite.id,
                "title": rite.names.classical[0],
                "names": list(rite.names.classical),
                "gloss": rite.names.gloss,
                "aliases": list(rite.names.aliases),
                "category": rite.category,
                "extends": rite.extends,
                **_scope(rite),
                "holders": list(witnesses_with_rite(rite.id)),
                **_cite_columns(rite),
                "notes": list(rite.notes),
            }
        )
    return rows


def _home(witness: str) -> str | None:
    """The first place the witness, or else the nearest witness of its reading chain, was written for."""
    infos = {info.id: info for info in manifest()}
    for member in reading_chain(witness):
        if infos[member].governs:
            return infos[member].governs[0].place
    return None


def _below(place: str, year: int) -> list[PlaceAt]:
    """The units under ``place`` in ``year``, breadth first (a province's 省城 first, in data order)."""
    out: list[PlaceAt] = []
    frontier = [place]
    while frontier:
        level = [u for u in places_in_year(year) if u.parent in frontier]
        level.sort(key=lambda u: u.level is not PlaceLevel.PROVINCIAL_CAPITAL)
        out += level
        frontier = [u.id for u in level]
    return out


def _above(place: str, year: int) -> list[PlaceAt]:
    out: list[PlaceAt] = []
    unit = place_at(place, year)
    while unit.parent is not None:
        unit = place_at(unit.parent, year)
        out.append(unit)
    return out


def _candidates(rite: Rite, witness: str, year: int) -> Iterator[tuple[str, str]]:
    """(place id, why) in the order :func:`reading_context` tries them."""
    home = _home(witness)
    if home is not None and get_place(home).exists(year):
        unit = place_at(home, year)
        written = f"the place the witness (or its base) was written for, {unit.name}"
        if unit.level is not PlaceLevel.PROVINCE:
            yield unit.id, written
        for below in _below(home, year):
            yield below.id, f"a unit under {written}: {below.name}"
        if unit.level is PlaceLevel.PROVINCE:
            yield unit.id, written
        for above in _above(home, year):
            yield above.id, f"a unit above {written}: {above.name}"
    for name in rite.places:
        yield get_place(name, year).id, f"a place the rite is restricted to: {name}"
    for unit in places_in_year(year):
        yield unit.id, f"the first unit of {year} where the rite is held: {unit.name}"


def reading_year(info: WitnessInfo) -> int:
    """The year a witness's readings are resolved for: the year it was compiled, within the years of the
    place data (1644–1911: a gazetteer of the Republic is read in 1911, a Ming one in 1644)."""
    first, last = year_range()
    return min(max(info.compiled_year, first), last)


def reading_context(rite_id: str, witness: str) -> tuple[ResolvedRite | None, str]:
    """The rite resolved in the witness's reading, at the place and in the year chosen for it, and why.

    The year is the witness's compiled year (within 1644–1911). The place is the first of these where
    the rite is held that year: the place the witness (or else the nearest witness of its reading chain)
    was written for — a province holds no rite of its own, its officials sacrifice at the 省城, so a
    province's witness is read at the units under it, the 省城 first —, the units under that place, the
    units above it, the places the rite is restricted to, any unit of that year. A rite held at none of
    them that year gives None and says so."""
    info = next(i for i in manifest() if i.id == witness)
    year = reading_year(info)
    when = (
        "the year it was compiled"
        if year == info.compiled_year
        else "the year of 1644–1911 nearest its compilation"
    )
    rite = all_rites()[rite_id]
    tried: set[str] = set()
    last = ""
    for place, why in _candidates(rite, witness, year):
        if place in tried:
            continue
        tried.add(place)
        try:
            return resolve_rite(rite_id, place, year, witness), f"{why}; {year}: {when}"
        except DianliError as exc:
            last = str(exc)
    return None, f"held at no place in {year} ({when}) in this reading: {last}"


def _via(element: Element) -> str:
    if isinstance(element, Include):
        return f"include {element.include}"
    if isinstance(element, Override):
        return f"override {element.operation}"
    if isinstance(element, Part):
        return f"part {element.id} extends {element.extends}" if element.extends else f"part {element.id}"
    return type(element).__name__


def step_row(rite_id: str, witness: str, numbered: NumberedStep) -> Row:
    step = numbered.step
    return {
        "rite": rite_id,
        "witness": witness,
        "number": numbered.number,
        "part": numbered.placed.part_id,
        "part_title": numbered.placed.part_title,
        "step_id": step.id,
        "kind": step.kind,
        "role": step.role,
        "call": step.call,
        "action": step.action,
        "posture": step.posture,
        "actors": list(step.actors),
        "step_place": step.place,
        "door": step.door,
        "music": step.music,
        "music_action": step.music_action,
        "dance": step.dance,
        "gloss": step.gloss,
        "notes": step.notes,
        "tags": list(step.tags),
        "via": [_via(e) for e in numbered.placed.via],
        "inherited_from": inherited_from(step, witness),
        "citations": len(step.citations),
        **_cite_columns(step, witness),
    }


def _altar_rows(altar: Altar) -> Iterator[Row]:
    head: Row = {"altar": altar.id, "altar_name": altar.name, "altar_tablets": list(altar.tablets)}
    empty: Row = {
        "contents": [],
        "position": None,
        "colour": None,
        "size": None,
        "material": None,
        "notes": None,
    }
    for kind, entries in (("offering", altar.offerings), ("item", altar.items)):
        for entry in entries:  # vessels with their contents, and other items: one shape
            yield {
                **head,
                **empty,
                "kind": kind,
                "what": entry.vessel,
                "count": entry.count,
                "contents": list(entry.contents),
                "position": entry.position,
                "_element": entry,
            }
    for silk in altar.silk:
        yield {
            **head,
            **empty,
            "kind": "silk",
            "what": "帛",
            "count": silk.count,
            "colour": silk.colour,
            "size": silk.size,
            "_element": silk,
        }
    for victim in altar.victims:
        yield {
            **head,
            **empty,
            "kind": "victim",
            "what": victim.animal,
            "count": victim.count,
            "position": victim.position,
            "notes": victim.notes,
            "_element": victim,
        }
    for cup in altar.cups:
        yield {
            **head,
            **empty,
            "kind": "cup",
            "what": "爵",
            "count": cup.count,
            "material": cup.material,
            "_element": cup,
        }


def _offering_rows(rite_id: str, witness: str, resolved: ResolvedRite) -> list[Row]:
    rows: list[Row] = []
    for altar in resolved.altars:
        for row in _altar_rows(altar):
            element = row.pop("_element")
            row.update(inherited_from=inherited_from(element, witness), **_cite_columns(element, witness))
            rows.append({"rite": rite_id, "witness": witness, "number": len(rows) + 1, **row})
    return rows


def _tablet_rows(rite_id: str, witness: str, resolved: ResolvedRite) -> list[Row]:
    return [
        {
            "rite": rite_id,
            "witness": witness,
            "number": i,
            "name": t.name,
            "hall": t.hall,
            "side": t.side,
            "order": t.order,
            "gloss": t.gloss,
            "inherited_from": inherited_from(t, witness),
            **_cite_columns(t, witness),
        }
        for i, t in enumerate(resolved.tablets, start=1)
    ]


@dataclass(frozen=True)
class ReadingTables:
    readings: list[Row]
    steps: list[Row]
    offerings: list[Row]
    tablets: list[Row]


def reading_tables(progress: Progress = _quiet) -> ReadingTables:
    """The readings (every witness that holds a rite) with their steps, offerings and tablets."""
    pairs = [(r, w) for r in all_rites() for w in witnesses_with_rite(r)]
    out = ReadingTables([], [], [], [])
    for done, (rite_id, witness) in enumerate(pairs):
        progress("readings", done, len(pairs))
        resolved, why = reading_context(rite_id, witness)
        chain = reading_chain(witness)
        offerings: list[Row] = []
        tablets: list[Row] = []
        if resolved is not None:
            offerings = _offering_rows(rite_id, witness, resolved)
            tablets = _tablet_rows(rite_id, witness, resolved)
            out.steps.extend(step_row(rite_id, witness, s) for s in resolved.steps)
        out.readings.append(
            {
                "rite": rite_id,
                "witness": witness,
                "chain": list(chain),
                "base": next(i.base for i in manifest() if i.id == witness),
                "patched": any(rite_id in own_readings(m) for m in chain),
                "place": resolved.place.id if resolved else None,
                "place_name": resolved.place.name if resolved else None,
                "year": resolved.year if resolved else None,
                "place_reason": why,
                "governing_witness": resolved.governing_witness if resolved else None,
                "steps": len(resolved.steps) if resolved else 0,
                "offerings": len(offerings),
                "tablets": len(tablets),
            }
        )
        out.offerings.extend(offerings)
        out.tablets.extend(tablets)
    progress("readings", len(pairs), len(pairs))
    return out


# --- the calendar ---------------------------------------------------------------------------------


def _stated_rules(rite_id: str) -> tuple[str, tuple[DateRule, ...]]:
    """The rite whose data states the rite's date rules (itself, or the nearest rite it extends) and them."""
    rites = all_rites()
    current: str | None = rite_id
    seen: list[str] = []
    while current is not None and current not in seen:
        seen.append(current)
        if "date_rule" in rites[current].model_fields_set:
            return current, rites[current].date_rule
        current = rites[current].extends
    return rite_id, ()


def observance_rule_rows() -> list[Row]:
    rows = []
    for rite_id in all_rites():
        stated_by, rules = _stated_rules(rite_id)
        for number, rule in enumerate(rules, start=1):
            scope = f"{rule.scope_cite.witness}「{rule.scope_cite.quote}」" if rule.scope_cite else None
            rows.append(
                {
                    "rite": rite_id,
                    "number": number,
                    "id": rule.id,
                    "stated_by": stated_by,
                    "name": rule.name,
                    "kind": rule.rule.kind,
                    "rule": rule.rule.model_dump(mode="json"),
                    "text": rule.text,
                    "gloss": rule.gloss,
                    "time": rule.time.label if rule.time else None,
                    "related": [
                        {"id": r.id, "name": r.name, "offsets": list(r.offsets)} for r in rule.related
                    ],
                    **_scope(rule),
                    **_cite_columns(rule),
                    "scope_source": scope
                    or (f"assumption: {rule.scope_assumption}" if rule.scope_assumption else None),
                }
            )
    return rows


def _occurrence_row(unit: PlaceAt, year: int, number: int, witness: str, occ: Occurrence) -> Row:
    return {
        "place": unit.id,
        "year": year,
        "number": number,
        "place_name": unit.name,
        "witness": witness,
        "rite": occ.rite,
        "observance": occ.observance_id,
        "name": occ.name,
        "part": occ.part,
        "day": occ.day,
        "chinese_date": str(occ.chinese_date) if occ.chinese_date else None,
        "day_source": str(occ.source) if occ.source else None,
        "time": occ.time_label,
        "rule_text": occ.rule_text,
        "open_reason": occ.open_reason,
        "notes": list(occ.notes),
        **_cite_of(occ.cite),
        "assumption": occ.assumption,
    }


def observance_rows(years: Iterable[int], progress: Progress = _quiet) -> list[Row]:
    """The calendar of every place that exists in each year, in the reading of its governing witness."""
    units = [(year, unit) for year in years for unit in places_in_year(year)]
    rows: list[Row] = []
    for done, (year, unit) in enumerate(units):
        progress("observances", done, len(units))
        witness = governing_witness(unit.id, year)
        for number, occ in enumerate(observances_for(unit.id, year), start=1):
            rows.append(_occurrence_row(unit, year, number, witness, occ))
    progress("observances", len(units), len(units))
    return rows


# --- variants and citations -----------------------------------------------------------------------


def variant_rows() -> list[Row]:
    """Every reading of every point the witnesses read differently, as ``dianli variants`` and ``dianli rites
    diff`` report them (read from the correspondence table)."""
    from dianli.comparison.variation import variation

    rows = []
    numbers: dict[str, int] = {}
    for rule in variation():
        for reading in rule.readings:
            numbers[rule.rite] = numbers.get(rule.rite, 0) + 1
            source = reading.source()
            rows.append(
                {
                    "rite": rule.rite,
                    "number": numbers[rule.rite],
                    "element": "; ".join(dict.fromkeys(reading.paths)) or rule.id,
                    "variant": rule.id,
                    "witnesses": list(reading.witnesses),
                    "followers": list(reading.followers),
                    "reading": reading.value,
                    "source": source if isinstance(source, str) else f"{source.witness}「{source.quote}」",
                }
            )
    return rows


CiteKey = tuple[str, str, str, str | None]


def _citation_row(layer: str, element: str, rite: str | None, cite: Citation | Any, source: str = "") -> Row:
    found = _resolved(
        cite.witness, cite.quote, cite.section, f"{source or layer + ' data'}, element {element}"
    )
    return {
        "layer": layer,
        "element": element,
        "rite": rite,
        "witness": cite.witness,
        "quote": cite.quote,
        "section": cite.section,
        "resolved_section": found.section.id,
        "start": found.raw_start,
        "end": found.raw_end,
        "occurrences": found.occurrences,
    }


def citation_rows(progress: Progress = _quiet) -> list[Row]:
    """Every citation of the rite data (base, then what the witnesses' readings and aligned clauses add)
    and of the witness manifests, each once per element."""
    rows: list[Row] = []
    seen: set[CiteKey] = set()
    base = all_rites()

    def add(layer: str, rite_id: str, rite: Rite, source: str = "") -> None:
        for path, element in walk_paths(rite, rite_id):
            for cite in element.citations:
                key = (path, cite.witness, cite.quote, cite.section)
                if key not in seen:
                    seen.add(key)
                    rows.append(_citation_row(layer, path, rite_id, cite, source))

    for rite_id, rite in base.items():
        add("rites", rite_id, rite)
    infos = manifest()
    for done, info in enumerate(infos):
        progress("citations", done, len(infos))
        for rite_id, rite in rites_for(info.id).items():
            if rite is not base[rite_id]:
                add("reading", rite_id, rite, f"the reading of {info.id} (its readings or {ALIGNMENT_FILE})")
    for info in infos:
        if info.compiled_cite is not None:
            rows.append(_citation_row("manifest", f"{info.id}.compiled", None, info.compiled_cite))
        for entry in info.governs:
            if entry.cite is not None:
                rows.append(_citation_row("manifest", f"{info.id}.governs[{entry.place}]", None, entry.cite))
    progress("citations", len(infos), len(infos))
    return [{"id": i, **row} for i, row in enumerate(rows, start=1)]


# --- everything -----------------------------------------------------------------------------------


def build_tables(years: range = DEFAULT_YEARS, progress: Progress = _quiet) -> Tables:
    """Every table of the package, with the dated observances of ``years`` at every place.

    The citations come first: a quote that does not resolve is an error naming its element."""
    citations = citation_rows(progress)
    readings = reading_tables(progress)
    rows: dict[str, list[Row]] = {
        "witnesses": witness_rows(),
        "governs": governs_rows(),
        "places": place_rows(),
        "place_periods": place_period_rows(),
        "rites": rite_rows(),
        "readings": readings.readings,
        "steps": readings.steps,
        "offerings": readings.offerings,
        "tablets": readings.tablets,
        "observance_rules": observance_rule_rows(),
        "observances": observance_rows(years, progress),
        "variants": variant_rows(),
        "citations": citations,
    }
    _check_columns(TABLES, rows)
    return Tables(rows, years)


def _check_columns(schemas: tuple[TableSchema, ...], rows: dict[str, list[Row]]) -> None:
    """Every row has exactly the columns of its table (a mismatch is a bug here, said plainly)."""
    for schema in schemas:
        names = set(schema.field_names)
        for row in rows[schema.name]:
            if set(row) != names:
                raise DataError(
                    f"table {schema.name}: row columns {sorted(set(row) ^ names)} differ from the schema"
                )


def parse_years(text: str) -> range:
    """``YEAR`` or ``FIRST..LAST`` (inclusive) as a range of years the places cover (1644..1911)."""
    first_year, last_year = year_range()
    valid = f"YEAR or FIRST..LAST within {first_year}..{last_year}"
    first, sep, last = text.strip().partition("..")
    try:
        start = int(first)
        end = int(last) if sep else start
    except ValueError:
        raise OutOfRangeError("--years", text, valid) from None
    if not first_year <= start <= end <= last_year:
        raise OutOfRangeError("--years", text, valid)
    return range(start, end + 1)
