"""What each page shows, computed from the public API: plain functions returning template contexts."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from typing import Any

import dianli
from dianli.calendar.lunisolar import parse_day
from dianli.calendar.reigns import reign_year
from dianli.comparison.align import align as align_witness
from dianli.comparison.align_report import to_data as alignment_data
from dianli.comparison.collate_report import legend as collation_legend
from dianli.comparison.collate_report import table_cells as collation_cells
from dianli.comparison.collate_tei import to_collatex_json as collatex_json
from dianli.comparison.collate_tei import to_tei as collation_tei
from dianli.comparison.variation import Rule as VariationRule
from dianli.comparison.variation import format_ranges as format_year_ranges
from dianli.comparison.variation import variation
from dianli.comparison.variation_svg import map_svg as variation_map_svg
from dianli.comparison.variation_svg import reading_colour as variation_colour
from dianli.comparison.variation_svg import timeline_svg as variation_timeline_svg
from dianli.corpus.dated_events import governing_witnesses
from dianli.corpus.dated_events import timeline as dated_timeline
from dianli.corpus.labels import use_label
from dianli.corpus.search import search
from dianli.corpus.sections import sections
from dianli.corpus.sources import SourceKind
from dianli.corpus.supplied import supply
from dianli.corpus.timeline_svg import timeline_svg as dated_events_svg
from dianli.corpus.witnesses import load_witness, manifest, witness_ids
from dianli.errors import DianliError, OutOfRangeError, UnknownValueError
from dianli.music.apparatus import KIND_LABELS, apparatus
from dianli.music.columns import witness_columns_svg
from dianli.music.cues import character_times
from dianli.music.engrave import engraved_svg
from dianli.music.instruments import fingering, fingering_witnesses
from dianli.music.pitch import lu
from dianli.music.score import (
    accepted_movement_names,
    movement,
    score_witness,
    score_witnesses,
    witness_movement_info,
)
from dianli.opendata.package import FORMATS as EXPORT_FORMATS
from dianli.opendata.package import package_zip as datapackage_zip
from dianli.opendata.schema import TABLES as EXPORT_TABLES
from dianli.opendata.tables import DEFAULT_YEARS as EXPORT_DEFAULT_YEARS
from dianli.outside import source_uses
from dianli.places.governs import governing_witness
from dianli.places.map import render_map as places_map_svg
from dianli.places.places import (
    Period,
    Place,
    all_places,
    get_place,
    place_sources,
    places_in_year,
    qing_rule_ends,
)
from dianli.places.places import year_range as place_year_range
from dianli.program.html import render_booklet
from dianli.program.model import Program
from dianli.program.textview import section_segments, translation_segments
from dianli.provenance import stamp_markup as stamp_provenance
from dianli.rites.export import occurrence_record
from dianli.rites.observances import authority_days, observances_for, parse_authority_days
from dianli.rites.occasion import occasion_calendar
from dianli.rites.subscription import subscription_query
from dianli.rites.variants import rite_catalogue
from dianli.rites.years import QING_LAST_YEAR as RITE_QING_LAST_YEAR
from dianli.spring_ox.figure import FIRST_YEAR as SPRING_OX_FIRST_YEAR
from dianli.spring_ox.figure import LAST_YEAR as SPRING_OX_LAST_YEAR
from dianli.spring_ox.figure import choose_rule as spring_ox_rule_choice
from dianli.spring_ox.figure import spring_ox
from dianli.spring_ox.profiles import profile_ids
from dianli.spring_ox.profiles import rule_ids as spring_ox_rule_ids
from dianli.spring_ox.report import render_text as spring_ox_text
from dianli.spring_ox.svg import render_svg as spring_ox_svg

PROGRAM_CACHE_SIZE = 64
"""Booklets kept in memory (keyed by the canonical rite id, place id, year, season and witness)."""


def rites_list() -> dict[str, Any]:
    return {"rites": rite_catalogue()}


def order_of_service(rite: str, place: str, year: int, witness: str | None) -> dict[str, Any]:
    program = _assemble(rite, place, year, None, witness)
    return {"p": program, "numbers": {c.id: c.id[1:] for c in program.passages}}


def cue_sheets(program: Program) -> dict[str, list[Any]]:
    """The steps of each role (a step naming several roles, 通贊、引贊, is on each of their sheets)."""
    sheets: dict[str, list[Any]] = {}
    for step in program.steps:
        for role in (step.role or "—").replace("，", "、").split("、"):
            sheets.setdefault(role.strip() or "—", []).append(step)
    return sheets


def canonical_program_key(
    rite: str, place: str, year: int, season: str | None, witness: str | None
) -> tuple[str, str, int, str | None, str | None]:
    """The key the booklet cache uses: names folded to ids, so 祀先師 and xianshi share one entry."""
    program = _assemble(rite, place, year, season, witness)
    return (program.rite, program.place.id, year, program.season, program.witness)


@functools.lru_cache(maxsize=PROGRAM_CACHE_SIZE)
def _assemble(rite: str, place: str, year: int, season: str | None, witness: str | None) -> Program:
    return dianli.ceremony(rite, place, year, season=season, witness=witness).program


@functools.lru_cache(maxsize=PROGRAM_CACHE_SIZE)
def _booklet(key: tuple[str, str, int, str | None, str | None], appendix: str = "full") -> str:
    rite, place, year, season, witness = key
    program = _assemble(rite, place, year, season, witness)
    page = render_booklet(
        program, audio_url=lambda m: f"/music/{m}/audio.ogg", dance=False, appendix=appendix
    )
    return stamp_provenance(page)  # a saved page names the version and data digest it was made from


def booklet_html(
    rite: str, place: str, year: int, season: str | None, witness: str | None, appendix: str = "full"
) -> str:
    """The booklet page, cached twice: the assembled program by the arguments as given, the HTML by the
    canonical key, so every spelling of one ceremony shares one rendered page (both LRU-bounded);
    ``appendix`` as ``dianli program --appendix``."""
    return _booklet(canonical_program_key(rite, place, year, season, witness), appendix)


def program_model(rite: str, place: str, year: int, season: str | None, witness: str | None) -> Program:
    return _assemble(rite, place, year, season, witness)


def calendar_rows(place: str, year: int, chosen: dict[str, str] | None = None) -> dict[str, Any]:
    """A year's observances at a place; ``chosen`` gives the days an authority chose (the Board of Rites's
    day for 耕耤禮) by their key, as ``dianli calendar --day KEY=DATE``: the page's form sends them."""
    where = get_place(place, year)
    # after the Qing the name as asked decides what the place means (a practice may stand for it)
    asked: str | Place = where if year <= RITE_QING_LAST_YEAR else place
    given = chosen or {}
    overrides = parse_authority_days([f"{k}={v}" for k, v in given.items()], 1, parse_day)
    occurrences = occasion_calendar(observances_for(asked, year, overrides=overrides), where.id, year)
    authority = [
        {"key": key, "name": why.split(":", 1)[0], "value": given.get(key, "")}
        for key, why in authority_days().items()
    ]
    return {
        "place": where,
        "year": year,
        "rows": [occurrence_record(o, where) for o in occurrences],
        "authority": authority,
    }


def calendar_feeds(base_url: str, place: str, year: int, rites: Iterable[str]) -> list[dict[str, str]]:
    """The iCal subscription links of a place — every rite, then each rite of the page — as ``https`` and
    ``webcal://`` URLs: stable (no year), so a phone's calendar follows them year after year."""
    unit = place if year > RITE_QING_LAST_YEAR else get_place(place, year).id
    root = base_url.rstrip("/")
    host = root.split("://", 1)[-1]
    out = []
    for rite in (None, *dict.fromkeys(rites)):
        query = subscription_query(unit, rite)
        out.append(
            {
                "rite": rite or "every rite",
                "https": f"{root}/calendar.ics?{query}",
                "webcal": f"webcal://{host}/calendar.ics?{query}",
            }
        )
    return out


@functools.lru_cache(maxsize=256)
def calendar_json(place: str, year: int) -> bytes:
    """The calendar of a place and year as JSON bytes, cached (the entries never change)."""
    ctx = calendar_rows(place, year)
    payload = {"place": ctx["place"].id, "year": year, "entries": ctx["rows"]}
    return json.dumps(payload, ensure_ascii=False).encode("utf-8")


def _fingering_witness(witness: str) -> str | None:
    """The score witness's own 樂譜 where it is data, else the default's."""
    return witness if witness in fingering_witnesses() else None


def music_page(name: str, witness: str | None = None) -> dict[str, Any]:
    mv = movement(name, witness)  # an unknown witness is refused here, with the score witnesses
    info = witness_movement_info(name, witness)
    notes = sorted({c.note.token for c in mv.characters})
    times = character_times(mv.id, witness=witness)
    timed = len(times) == len(mv.characters)
    chars = [
        {
            "char": c.display,
            "token": c.note.token,
            "lu": lu(c.note.lu).name,
            "gongche": c.note.gongche,
            "start_s": round(times[i][1], 3) if timed else None,
            "end_s": round(times[i][2], 3) if timed else None,
        }
        for i, c in enumerate(mv.characters)
    ]
    return {
        "mv": mv,
        "info": info,
        "chars": chars,
        "fingerings": {n: fingering(n, _fingering_witness(mv.witness)) for n in notes},
        "movements": accepted_movement_names(),
        "witness": mv.witness,
        "default_witness": score_witness(),
        "witnesses": score_witnesses(),
        "apparatus": apparatus(mv.id),
        "kind_labels": KIND_LABELS,
        # the engraved score (verovio) and the witness's own columns: offline SVG, notes timed to the audio
        # (called by the template only: the music index reads this context for each movement's info)
        "engraved": functools.partial(engraved_svg, [mv.id], mv.witness),
        "columns": functools.partial(witness_columns_svg, mv.id, mv.witness),
    }


def spring_ox_page(year: int, place: str | None, rule: str | None = None) -> dict[str, Any]:
    """The asked rule set; else the place's choice first (and why), then the fixed profiles to compare."""
    if rule is not None and rule not in spring_ox_rule_ids():
        raise UnknownValueError("rule", rule, spring_ox_rule_ids())
    choice = spring_ox_rule_choice(year, place) if rule is None and place else None
    first = rule or (choice.rule if choice else None)
    rules = [first] if rule else list(dict.fromkeys([*([first] if first else []), *profile_ids()]))
    pictures = []
    for name in rules:
        ox = spring_ox(year, place=place, rule=name)
        pictures.append({"rule": name, "svg": spring_ox_svg(ox), "text": spring_ox_text(ox)})
    return {
        "first_year": SPRING_OX_FIRST_YEAR,
        "last_year": SPRING_OX_LAST_YEAR,
        "year": year,
        "place": place,
        "rule": rule,
        "rules": spring_ox_rule_ids(),
        "choice": choice.reason if choice else None,
        "pictures": pictures,
    }


def check_witness(witness: str) -> str:
    if witness not in witness_ids():
        raise UnknownValueError("witness", witness, witness_ids())
    return witness


@functools.lru_cache(maxsize=32)
def alignment_page(witness: str) -> dict[str, Any]:
    """A witness aligned to the model, as plain data for the page (cached: it does not change at run time)."""
    return alignment_data(align_witness(check_witness(witness)))


def timeline_page(
    place: str | None,
    witness: str | None,
    from_year: int | None,
    until_year: int | None,
    explicit_only: bool = False,
    rite: str | None = None,
) -> dict[str, Any]:
    """The dated events of a place's governing witnesses (or of one witness, or of all), with the SVG;
    with ``explicit_only`` no bare year whose era is carried over from an earlier date; with ``rite`` only
    the dates whose clause states an element of that rite (the correspondence table)."""
    from dianli.comparison.dated import about_rite, event_rites
    from dianli.rites.load import all_rites
    from dianli.rites.resolve import find_rite

    if witness:
        check_witness(witness)
    unit = get_place(place) if place else None
    rite_id = find_rite(rite) if rite else None
    events = dated_timeline(unit.id if unit else None, witness or None, from_year, until_year, explicit_only)
    if rite_id is not None:
        events = about_rite(events, rite_id)
    titles = {i.id: i.short_title for i in manifest()}
    where = f" at {unit.name}" if unit else (f" in {titles[witness]}" if witness else "")
    names = {r.id: r.names.classical[0] for r in all_rites().values()}
    return {
        "rite": rite_id,
        "rite_name": names[rite_id] if rite_id else None,
        "states": ["、".join(names[r] for r in event_rites(e)) for e in events],
        "place": unit,
        "witness": witness or None,
        "from_year": from_year,
        "until_year": until_year,
        "governing": governing_witnesses(unit.id) if unit else (),
        "events": events,
        "titles": titles,
        "witnesses": witness_ids(),
        "svg": dated_events_svg(events, titles, f"dated events{where}"),
        "explicit_only": explicit_only,
        "carried": sum(1 for e in events if e.carry is not None),
    }


def witness_page(witness: str) -> dict[str, Any]:
    w = load_witness(check_witness(witness))
    return {"w": w, "sections": sections(witness)}


def section_page(witness: str, section: str) -> dict[str, Any]:
    w = load_witness(check_witness(witness))
    known = {s.id for s in sections(witness)}
    if section not in known:
        raise UnknownValueError(f"section of {witness}", section, sorted(known))
    title = next(s.title for s in sections(witness) if s.id == section)
    modern = translation_segments(witness, section)
    return {
        "w": w,
        "section": section,
        "title": title,
        "text": section_segments(witness, section),
        "modern": modern,
    }


PLACES_YEARS = (1650, 1700, 1752, 1800, 1850, 1880, 1890, 1895, 1911)
"""Years offered as quick links on the places page."""


def _governing(unit_id: str, year: int) -> str | None:
    try:
        return governing_witness(unit_id, year)
    except DianliError:
        return None


def _parent_names(by_id: dict[str, Place], period: Period) -> str:
    """The names the parent bore during the period, joined by arrows, or a dash."""
    parent = by_id.get(period.parent or "")
    return "→".join(parent.names_between(period.from_year, period.until_year)) if parent else "—"


def places_page(year: int | None) -> dict[str, Any]:
    """The units of a year with their map, or (no year) every unit with all its periods."""
    first, last = place_year_range()
    context: dict[str, Any] = {
        "year": year,
        "first_year": first,
        "last_year": last,
        "years": PLACES_YEARS,
        "sources": place_sources(),
        "endings": qing_rule_ends(),
    }
    if year is None:
        by_id = {p.id: p for p in all_places()}
        context["places"] = [
            {"place": p, "periods": [(period, _parent_names(by_id, period)) for period in p.periods]}
            for p in all_places()
        ]
        return context
    units = places_in_year(year)
    by_id_at = {u.id: u for u in units}
    label = reign_year(year).label
    context["reign_year"] = label
    context["rows"] = [
        {"unit": u, "parent": by_id_at.get(u.parent or ""), "witness": _governing(u.id, year)} for u in units
    ]
    context["svg"] = places_map_svg(units, f"{year} {label}")
    return context


SEARCH_MAX_CHARS = 50
SEARCH_MAX_HITS = 100


def search_page(query: str, witness: str | None) -> dict[str, Any]:
    """Hits with their matched spans cut out for highlighting."""
    if witness:
        check_witness(witness)
    if len(query) > SEARCH_MAX_CHARS:
        raise OutOfRangeError("query length", len(query), f"1..{SEARCH_MAX_CHARS} characters")
    hits = search(query, witness=witness or None)[:SEARCH_MAX_HITS] if query.strip() else []
    rows = []
    for hit in hits:
        text, start = hit.clause.text, hit.clause.start
        pieces, at = [], 0
        for a, b in hit.spans:
            pieces.append((text[at : a - start], False))
            pieces.append((text[a - start : b - start], True))
            at = b - start
        pieces.append((text[at:], False))
        rows.append({"hit": hit, "pieces": pieces})
    return {"query": query, "witness": witness, "rows": rows, "witnesses": witness_ids()}


def variants_index() -> dict[str, Any]:
    """Every rule the witnesses read differently, with its counts, grouped by rite."""
    rites: dict[str, dict[str, Any]] = {}
    for r in variation():
        group = rites.setdefault(r.rite, {"rite": r.rite, "name": r.rite_name, "rules": []})
        group["rules"].append(
            {
                "rule": r,
                "readings": len(r.readings),
                "witnesses": r.witnesses,
                "units": len({s.place for reading in r.readings for s in reading.spans}),
                "colours": [variation_colour(reading) for reading in r.readings],
            }
        )
    return {"rites": list(rites.values()), "count": sum(len(g["rules"]) for g in rites.values())}


def variants_ranked(kind: str | None) -> dict[str, Any]:
    """The rules on which the witnesses contradict each other, most varied first, each with its sentence
    and evidence (:mod:`dianli.comparison.ranking`)."""
    from dianli.comparison.ranking import ranked
    from dianli.comparison.values import FACT_KINDS, KINDS

    found = ranked(kind=kind)
    kinds = [{"id": k, "label": KINDS[k].label} for k in FACT_KINDS]
    return {"ranked": found, "kind": kind, "kinds": kinds}


def variants_changes(boundary: int | None) -> dict[str, Any]:
    """What changed at ``boundary`` (default: the Qing's first year), each change with its sentence."""
    from dianli.comparison.dynasty import CHANGES, before_and_after, boundary_label, qing_start

    year = qing_start() if boundary is None else boundary
    found = before_and_after(boundary=year)
    groups = [{"change": c, "items": [x for x in found if x.change == c]} for c in CHANGES]
    return {"boundary": year, "label": boundary_label(year), "groups": groups, "count": len(found)}


def _busiest_year(rule: VariationRule) -> int:
    """The first year in which the most readings of the rule are in force at once (the map's default)."""
    counts: dict[int, int] = {}
    for reading in rule.readings:
        for start, end in reading.years():
            for year in range(start, end + 1):
                counts[year] = counts.get(year, 0) + 1
    return min(counts, key=lambda y: (-counts[y], y)) if counts else place_year_range()[0]


def variant_page(rule_id: str, year: int | None) -> dict[str, Any]:
    """One rule: its readings with citations and where and when each is in force, the timeline, the map."""
    rule = variation(rule_id)[0]
    first, last = place_year_range()
    if year is not None and not first <= year <= last:
        raise OutOfRangeError("year", year, f"{first}..{last}")
    shown = year if year is not None else _busiest_year(rule)
    starts = sorted({y for reading in rule.readings for y, _end in reading.years()})
    return {
        "rule": rule,
        "year": shown,
        "years": starts,
        "first_year": first,
        "last_year": last,
        "readings": [
            {
                "reading": r,
                "colour": variation_colour(r),
                "governed": [
                    {
                        "group": g,
                        "years": format_year_ranges(g.years),
                        "standing_in": format_year_ranges(g.standing_in),
                    }
                    for g in r.governed()
                ],
                "years": format_year_ranges(r.years()),
                "in_year": sum(1 for s in r.spans if s.holds(shown)),
            }
            for r in rule.readings
        ],
        "timeline": variation_timeline_svg(rule),
        "map": variation_map_svg(rule, shown),
    }


# --- open data (dianli export) -------------------------------------------------------------------


def export_page() -> dict[str, Any]:
    """The data package described from its schemas (nothing is built to show the page)."""
    years = EXPORT_DEFAULT_YEARS
    label = str(years.start) if len(years) == 1 else f"{years.start}..{years[-1]}"
    return {"tables": EXPORT_TABLES, "years": label, "formats": EXPORT_FORMATS}


def export_zip() -> bytes:
    """The whole package in CSV format as a zip: built once per process (some 20 s), then kept."""
    return datapackage_zip()


@functools.lru_cache(maxsize=32)
def _collation(rite: str, section: str | None, base: str | None) -> Any:
    return dianli.collate(rite, section, base=base).collation


def collation_page(rite: str, section: str | None, base: str | None) -> dict[str, Any]:
    """The alignment table of a rite's section: witnesses × columns, differences from the base marked."""
    result = _collation(rite, section, base)
    query = "&".join(f"{k}={v}" for k, v in (("section", section), ("base", base)) if v)
    return {
        "c": result,
        "rite": rite,
        "query": f"?{query}" if query else "",
        "legend": collation_legend(result),
        "rows": list(zip(result.witnesses, collation_cells(result), strict=True)),
        "agree": [column.agree for column in result.columns],
    }


def collation_export(rite: str, section: str | None, base: str | None, fmt: str) -> str:
    """The collation as TEI P5 (``tei``) or CollateX JSON (``json``), a character the transcription could not
    encode written as supplied (〔須〕), as in every output."""
    result = _collation(rite, section, base)
    return supply(collation_tei(result) if fmt == "tei" else collatex_json(result))


def _source_words(entry: Any) -> dict[str, Any]:
    """A source with its uses in words (what, quote, where), a use said twice in the same words once."""
    uses = dict.fromkeys((*use_label(u.supports, u.where), u.quote) for u in entry.uses)
    return {"source": entry.source, "uses": [{"what": w, "where": p, "quote": q} for w, p, q in uses]}


def sources_page(kind: str | None, weak: bool) -> dict[str, Any]:
    """Every outside source grouped by kind (grade), with what it supports and where; filtered by kind."""
    kinds = [k.value for k in SourceKind]
    if kind is not None and kind not in kinds:
        raise UnknownValueError("kind", kind, kinds)
    entries = [e for e in source_uses() if (kind is None or e.source.kind.value == kind)]
    entries = [e for e in entries if e.source.weak or not weak]
    groups = [(k, [_source_words(e) for e in entries if e.source.kind is k]) for k in SourceKind]
    return {
        "groups": [(k, g) for k, g in groups if g],
        "count": len(entries),
        "weak_count": sum(e.source.weak for e in entries),
        "kinds": kinds,
        "kind": kind,
        "weak": weak,
    }
