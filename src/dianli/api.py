"""The facade of the interfaces: every name the CLI and the web app call.

Users' Python API is ``import dianli`` (``dianli/__init__.pyi``: a dozen entry points returning tables and
objects); this module is the interfaces' wider list.

Names are re-exported from the module that owns them (the import lines say which); nothing inside the
package imports this facade except the interfaces (``dianli.cli``, ``dianli.web``).
"""

from __future__ import annotations

import ast
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dianli.calendar.computed import Disagreement, cross_check_year
    from dianli.calendar.date_clause import DateClause, date_clause, fill_date_clause
    from dianli.calendar.date_rules import RuleDate, fasting_window, wanshou_dates
    from dianli.calendar.day import DayInfo, describe_day
    from dianli.calendar.eclipses import (
        ECLIPSE_ASSUMPTIONS,
        Eclipse,
        EclipseKind,
        EclipseType,
        LocalCircumstances,
        Phase,
        eclipses_in_year,
        ephemeris_label,
        local_circumstances,
        local_eclipses,
    )
    from dianli.calendar.eras import Era, EraYear, all_eras, read_era_year
    from dianli.calendar.ganzhi import (
        BRANCHES,
        STEMS,
        Element,
        NaYin,
        Polarity,
        Sexagenary,
        branch_element,
        branch_polarity,
        day_sexagenary,
        month_sexagenary,
        nayin,
        parse_sexagenary,
        stem_element,
        stem_polarity,
        year_sexagenary,
    )
    from dianli.calendar.lunisolar import (
        ChineseDate,
        ChineseYear,
        DateSource,
        LunarMonth,
        chinese_year,
        parse_chinese_date,
        parse_day,
        to_chinese,
        to_gregorian,
    )
    from dianli.calendar.reigns import (
        LAST_QING_CHINESE_YEAR,
        REIGNS,
        Reign,
        ReignYear,
        chinese_year_of,
        parse_reign_year,
        reign_by_name,
        reign_year,
        reigning_emperor,
    )
    from dianli.calendar.solar_terms import SolarTermDay, solar_term, solar_terms
    from dianli.calendar.term_names import SOLAR_TERMS
    from dianli.calendar.timekeeping import (
        DoubleHour,
        beijing_apparent_time,
        double_hour,
        ke_of_day,
        local_apparent_time,
        local_mean_time,
        provincial_offset_minutes,
        provincial_time,
    )
    from dianli.calendar.written_dates import CALENDAR_NAMES as ERA_CALENDAR_NAMES
    from dianli.calendar.written_dates import (
        DayDescription,
        DayNaming,
        DayReading,
        WrittenDate,
        almanac_covers,
        day_namings,
        describe_named_day,
        parse_written_date,
        read_day,
    )
    from dianli.calendar.year_names import YearName, chinese_date_label, region_for, year_name
    from dianli.comparison.align import Alignment
    from dianli.comparison.align import align as align_witness
    from dianli.comparison.align import measure as measure_alignment
    from dianli.comparison.align_report import alignment_file
    from dianli.comparison.align_report import draft_reading as alignment_draft
    from dianli.comparison.align_report import text_lines as alignment_lines
    from dianli.comparison.align_report import to_data as alignment_data
    from dianli.comparison.align_report import to_html as alignment_html
    from dianli.comparison.collate import Collation, collate
    from dianli.comparison.collate_report import legend as collation_legend
    from dianli.comparison.collate_report import table_cells as collation_cells
    from dianli.comparison.collate_report import text_lines as collation_lines
    from dianli.comparison.collate_report import to_html as collation_html
    from dianli.comparison.collate_tei import to_collatex_json as collatex_json
    from dianli.comparison.collate_tei import to_tei as collation_tei
    from dianli.comparison.coverage import (
        TARGET_PERCENT,
        ClauseCoverage,
        SectionFigure,
        clause_coverage,
        section_figures,
    )
    from dianli.comparison.ingest import IngestRun, WitnessResult, corpus_folder, draft_corpus, ingest
    from dianli.comparison.record import FIELDS as RECORD_FIELDS
    from dianli.comparison.record import Record, corpus_table
    from dianli.comparison.variation import Governed as VariationGoverned
    from dianli.comparison.variation import Reading as VariationReading
    from dianli.comparison.variation import Rule as VariationRule
    from dianli.comparison.variation import Span as VariationSpan
    from dianli.comparison.variation import format_ranges as format_year_ranges
    from dianli.comparison.variation import rule_ids as variation_rule_ids
    from dianli.comparison.variation import rule_record as variation_record
    from dianli.comparison.variation import variation
    from dianli.comparison.variation_svg import map_svg as variation_map_svg
    from dianli.comparison.variation_svg import reading_colour as variation_colour
    from dianli.comparison.variation_svg import timeline_svg as variation_timeline_svg
    from dianli.corpus.cite import Citation, CitationError, ResolvedCitation, closest_passage, resolve
    from dianli.corpus.clauses import CLAUSE_KINDS, Clause, clauses
    from dianli.corpus.dated_events import (
        DatedEvent,
        Governing,
        dated_events,
        extract_dates,
        governing_witnesses,
    )
    from dianli.corpus.dated_events import timeline as dated_timeline
    from dianli.corpus.harvest import HarvestRun, WorkResult, harvest_sources
    from dianli.corpus.labels import name_ids, section_label, use_label, witness_label, witness_labels
    from dianli.corpus.normalise import Normalised, NoteSpan, fold, normalise
    from dianli.corpus.search import SearchHit, search
    from dianli.corpus.sections import (
        Section,
        SectionDef,
        find_sections,
        resolve_section_id,
        section_at,
        section_defs,
        section_ids,
        sections,
    )
    from dianli.corpus.sources import CopyKind, OutsideSource, SourceKind, outside_sources, sources_mentioned
    from dianli.corpus.supplied import private_use, supplied_chars, supply
    from dianli.corpus.timeline_svg import timeline_svg as dated_events_svg
    from dianli.corpus.witnesses import (
        ALIGNMENT_FILE,
        Witness,
        WitnessInfo,
        all_witnesses,
        load_witness,
        manifest,
        witness_ids,
    )
    from dianli.corpus.witnesses import package_root as package_witnesses
    from dianli.dance.animate import render_html as dance_html
    from dianli.dance.audio import Audio as DanceAudio
    from dianli.dance.audio import movement_audio as dance_audio
    from dianli.dance.formation import Formation as DanceFormation
    from dianli.dance.formation import formation as dance_formation
    from dianli.dance.listing import poses_json as dance_poses_json
    from dianli.dance.mirror import Asymmetry as DanceAsymmetry
    from dianli.dance.mirror import asymmetries as dance_asymmetries
    from dianli.dance.mirror import asymmetries_json as dance_asymmetries_json
    from dianli.dance.notation import (
        CharacterNotation,
        NotationError,
        RankClause,
        dance_witnesses,
        default_dance_witness,
    )
    from dianli.dance.notation import Movement as DanceMovement
    from dianli.dance.notation import emendations as dance_emendations
    from dianli.dance.notation import movement as dance_movement
    from dianli.dance.notation import movements as dance_movements
    from dianli.dance.notation import parse_description as parse_dance_description
    from dianli.dance.notation import parse_movement as parse_dance
    from dianli.dance.pose import FigureState
    from dianli.dance.timing import character_timing as dance_timing
    from dianli.dance.vocabulary import vocabulary as dance_vocabulary
    from dianli.errors import (
        DataError,
        DianliError,
        OutOfRangeError,
        OutputPathError,
        QingRuleEndedError,
        UnknownValueError,
    )
    from dianli.layout.altar import altar_plan_svg, offering_table_svg
    from dianli.layout.figures import LayoutFigure, layout_figures
    from dianli.layout.seating import Seat, seating_svg
    from dianli.layout.seating import seats as layout_seats
    from dianli.layout.tablets import tablet_plan_svg
    from dianli.music.apparatus import (
        KIND_LABELS,
        MovementApparatus,
        apparatus,
        apparatus_json,
        collatable_witnesses,
    )
    from dianli.music.columns import witness_columns_svg
    from dianli.music.cues import (
        Event,
        Timeline,
        Timing,
        character_times,
        cue_findings,
        default_timing,
        suite_timeline,
        timeline,
    )
    from dianli.music.engrave import engraved_svg
    from dianli.music.findings import Finding
    from dianli.music.instruments import (
        Fingering,
        Instrument,
        family_name,
        fingering,
        fingering_gloss,
        fingering_rule,
        fingering_witnesses,
        instrument,
        instruments,
    )
    from dianli.music.memo import BoundedCache
    from dianli.music.pitch import (
        Tuning,
        cents_table,
        default_huangzhong_hz,
        default_tuning,
        gekoupu_cites,
        gongche,
        lu,
        lus,
        parse_note,
    )
    from dianli.music.render import (
        MUSIC_FILE_EXTENSIONS,
        MUSIC_FORMATS,
        SAMPLES_CACHE_BYTES,
        SUITE_FORMATS,
        Samples,
        music_findings,
        render_movement,
        render_movement_samples,
        render_suite,
        render_suite_samples,
    )
    from dianli.music.score import (
        Movement,
        SungCharacter,
        accepted_movement_names,
        check_score_witness,
        movement,
        movement_ids,
        movement_info,
        parse_score_text,
        score_witness,
        score_witnesses,
        suite,
        witness_movement_info,
    )
    from dianli.music.synth import (
        AUDIO_FORMATS,
        SAMPLE_RATE_HZ,
        SAMPLE_RATE_RANGE_HZ,
        encode_audio,
        encode_samples,
    )
    from dianli.opendata.check import check_package as check_datapackage
    from dianli.opendata.check import frictionless_problems
    from dianli.opendata.package import FORMATS as EXPORT_FORMATS
    from dianli.opendata.package import check_format as check_export_format
    from dianli.opendata.package import package_zip as datapackage_zip
    from dianli.opendata.package import write_package as write_datapackage
    from dianli.opendata.schema import TABLES as EXPORT_TABLES
    from dianli.opendata.tables import DEFAULT_YEARS as EXPORT_DEFAULT_YEARS
    from dianli.opendata.tables import build_tables as build_export_tables
    from dianli.opendata.tables import parse_years as parse_export_years
    from dianli.outside import (
        SourceUses,
        rule_supports,
        source_json,
        source_uses,
        source_uses_of,
        unregistered_addresses,
    )
    from dianli.places.governs import Governance, governance, governing_witness
    from dianli.places.map import render_map as places_map_svg
    from dianli.places.places import (
        Period,
        Place,
        PlaceAt,
        PlaceLevel,
        QingRuleEnd,
        all_places,
        children_of,
        default_place,
        get_place,
        place_at,
        place_names,
        place_sources,
        places_in_year,
        qing_rule_ends,
    )
    from dianli.places.places import year_range as place_year_range
    from dianli.places.regions import place_chinese_date_label, place_region, place_year_name
    from dianli.program.assemble import assemble as assemble_program
    from dianli.program.audio import MovementAudio as ProgramAudio
    from dianli.program.audio import movement_audio as program_audio
    from dianli.program.audio import render_all as render_all_audio
    from dianli.program.config import season_ids as program_seasons
    from dianli.program.exhibits import exhibit_names, rite_exhibits
    from dianli.program.export import booklet_name
    from dianli.program.export import to_json as program_json
    from dianli.program.fingerprint import inputs_fingerprint as program_inputs_fingerprint
    from dianli.program.fingerprint import libopus_version as opus_library_version
    from dianli.program.html import APPENDICES as BOOKLET_APPENDICES
    from dianli.program.html import booklet_chunks, render_booklet
    from dianli.program.html import environment as booklet_environment
    from dianli.program.labels import rite_label
    from dianli.program.model import Program
    from dianli.program.nofont import nofont_html
    from dianli.program.textview import section_segments, translation_segments
    from dianli.provenance import stamp_markup as stamp_provenance
    from dianli.public.comparison import variants as variants_table
    from dianli.rites.expand import NumberedStep, Placed, expand
    from dianli.rites.export import occurrence_record, to_ical
    from dianli.rites.load import all_rites, parse_rite_file
    from dianli.rites.model import DateRule as Observance
    from dianli.rites.model import Element as RiteElement
    from dianli.rites.model import Rite, RiteFile, Step
    from dianli.rites.observances import (
        Occurrence,
        all_observances,
        authority_days,
        observances_for,
        parse_authority_days,
        rules_in_force,
    )
    from dianli.rites.occasion import (
        Occasion,
        OccasionMember,
        occasion_calendar,
        occasion_html,
        occasion_of,
        occasion_relation,
    )
    from dianli.rites.practice import Practice, accepted_practices, practice_ids, practices
    from dianli.rites.prayer import FilledText, filled_texts
    from dianli.rites.readings import reading_chain, rites_for, witnesses_with_rite
    from dianli.rites.render import Exhibit as RiteExhibit
    from dianli.rites.render import movement_label
    from dianli.rites.render import plan_lines as rite_plan_lines
    from dianli.rites.render import source_label as rite_source_label
    from dianli.rites.render import step_data as rite_step_data
    from dianli.rites.render import step_line as rite_step_line
    from dianli.rites.render import to_data as rite_to_data
    from dianli.rites.render import to_html as rite_to_html
    from dianli.rites.render import venue_line as rite_venue_line
    from dianli.rites.resolve import ResolvedRite, find_rite, inherited_from, resolve_rite, rite_ids
    from dianli.rites.subscription import calendar_feed, subscription_query
    from dianli.rites.temples import PlaceTemples, Temple, TempleNote, temple_places, temples
    from dianli.rites.variants import diff_rite, rite_catalogue
    from dianli.rites.years import CALENDAR_LAST_YEAR
    from dianli.rites.years import FIRST_YEAR as RITE_FIRST_YEAR
    from dianli.rites.years import LAST_YEAR as RITE_LAST_YEAR
    from dianli.rites.years import QING_LAST_YEAR as RITE_QING_LAST_YEAR
    from dianli.spring_ox.figure import FIRST_YEAR as SPRING_OX_FIRST_YEAR
    from dianli.spring_ox.figure import LAST_YEAR as SPRING_OX_LAST_YEAR
    from dianli.spring_ox.figure import SpringOx, spring_ox
    from dianli.spring_ox.figure import choose_rule as spring_ox_rule_choice
    from dianli.spring_ox.lichun import CLOCKS, DAY_BOUNDARIES, DAY_SOURCES
    from dianli.spring_ox.profiles import load_profile, profile_ids
    from dianli.spring_ox.profiles import rule_ids as spring_ox_rule_ids
    from dianli.spring_ox.report import render_text as spring_ox_text
    from dianli.spring_ox.report import to_json as spring_ox_json
    from dianli.spring_ox.svg import render_svg as spring_ox_svg

__all__: list[str] = [
    "ALIGNMENT_FILE",
    "AUDIO_FORMATS",
    "BOOKLET_APPENDICES",
    "BRANCHES",
    "CALENDAR_LAST_YEAR",
    "CLAUSE_KINDS",
    "CLOCKS",
    "DAY_BOUNDARIES",
    "DAY_SOURCES",
    "ECLIPSE_ASSUMPTIONS",
    "ERA_CALENDAR_NAMES",
    "EXPORT_DEFAULT_YEARS",
    "EXPORT_FORMATS",
    "EXPORT_TABLES",
    "KIND_LABELS",
    "LAST_QING_CHINESE_YEAR",
    "MUSIC_FILE_EXTENSIONS",
    "MUSIC_FORMATS",
    "RECORD_FIELDS",
    "REIGNS",
    "RITE_FIRST_YEAR",
    "RITE_LAST_YEAR",
    "RITE_QING_LAST_YEAR",
    "SAMPLES_CACHE_BYTES",
    "SAMPLE_RATE_HZ",
    "SAMPLE_RATE_RANGE_HZ",
    "SOLAR_TERMS",
    "SPRING_OX_FIRST_YEAR",
    "SPRING_OX_LAST_YEAR",
    "STEMS",
    "SUITE_FORMATS",
    "TARGET_PERCENT",
    "Alignment",
    "BoundedCache",
    "CharacterNotation",
    "ChineseDate",
    "ChineseYear",
    "Citation",
    "CitationError",
    "Clause",
    "ClauseCoverage",
    "Collation",
    "CopyKind",
    "DanceAsymmetry",
    "DanceAudio",
    "DanceFormation",
    "DanceMovement",
    "DataError",
    "DateClause",
    "DateSource",
    "DatedEvent",
    "DayDescription",
    "DayInfo",
    "DayNaming",
    "DayReading",
    "DianliError",
    "Disagreement",
    "DoubleHour",
    "Eclipse",
    "EclipseKind",
    "EclipseType",
    "Element",
    "Era",
    "EraYear",
    "Event",
    "FigureState",
    "FilledText",
    "Finding",
    "Fingering",
    "Governance",
    "Governing",
    "HarvestRun",
    "IngestRun",
    "Instrument",
    "LayoutFigure",
    "LocalCircumstances",
    "LunarMonth",
    "Movement",
    "MovementApparatus",
    "NaYin",
    "Normalised",
    "NotationError",
    "NoteSpan",
    "NumberedStep",
    "Observance",
    "Occasion",
    "OccasionMember",
    "Occurrence",
    "OutOfRangeError",
    "OutputPathError",
    "OutsideSource",
    "Period",
    "Phase",
    "Place",
    "PlaceAt",
    "PlaceLevel",
    "PlaceTemples",
    "Placed",
    "Polarity",
    "Practice",
    "Program",
    "ProgramAudio",
    "QingRuleEnd",
    "QingRuleEndedError",
    "RankClause",
    "Record",
    "Reign",
    "ReignYear",
    "ResolvedCitation",
    "ResolvedRite",
    "Rite",
    "RiteElement",
    "RiteExhibit",
    "RiteFile",
    "RuleDate",
    "Samples",
    "SearchHit",
    "Seat",
    "Section",
    "SectionDef",
    "SectionFigure",
    "Sexagenary",
    "SolarTermDay",
    "SourceKind",
    "SourceUses",
    "SpringOx",
    "Step",
    "SungCharacter",
    "Temple",
    "TempleNote",
    "Timeline",
    "Timing",
    "Tuning",
    "UnknownValueError",
    "VariationGoverned",
    "VariationReading",
    "VariationRule",
    "VariationSpan",
    "Witness",
    "WitnessInfo",
    "WitnessResult",
    "WorkResult",
    "WrittenDate",
    "YearName",
    "accepted_movement_names",
    "accepted_practices",
    "align_witness",
    "alignment_data",
    "alignment_draft",
    "alignment_file",
    "alignment_html",
    "alignment_lines",
    "all_eras",
    "all_observances",
    "all_places",
    "all_rites",
    "all_witnesses",
    "almanac_covers",
    "altar_plan_svg",
    "apparatus",
    "apparatus_json",
    "assemble_program",
    "authority_days",
    "beijing_apparent_time",
    "booklet_chunks",
    "booklet_environment",
    "booklet_name",
    "branch_element",
    "branch_polarity",
    "build_export_tables",
    "calendar_feed",
    "cents_table",
    "character_times",
    "check_datapackage",
    "check_export_format",
    "check_score_witness",
    "children_of",
    "chinese_date_label",
    "chinese_year",
    "chinese_year_of",
    "clause_coverage",
    "clauses",
    "closest_passage",
    "collatable_witnesses",
    "collate",
    "collatex_json",
    "collation_cells",
    "collation_html",
    "collation_legend",
    "collation_lines",
    "collation_tei",
    "corpus_folder",
    "corpus_table",
    "cross_check_year",
    "cue_findings",
    "dance_asymmetries",
    "dance_asymmetries_json",
    "dance_audio",
    "dance_emendations",
    "dance_formation",
    "dance_html",
    "dance_movement",
    "dance_movements",
    "dance_poses_json",
    "dance_timing",
    "dance_vocabulary",
    "dance_witnesses",
    "datapackage_zip",
    "date_clause",
    "dated_events",
    "dated_events_svg",
    "dated_timeline",
    "day_namings",
    "day_sexagenary",
    "default_dance_witness",
    "default_huangzhong_hz",
    "default_place",
    "default_timing",
    "default_tuning",
    "describe_day",
    "describe_named_day",
    "diff_rite",
    "double_hour",
    "draft_corpus",
    "eclipses_in_year",
    "encode_audio",
    "encode_samples",
    "engraved_svg",
    "ephemeris_label",
    "exhibit_names",
    "expand",
    "extract_dates",
    "family_name",
    "fasting_window",
    "fill_date_clause",
    "filled_texts",
    "find_rite",
    "find_sections",
    "fingering",
    "fingering_gloss",
    "fingering_rule",
    "fingering_witnesses",
    "fold",
    "format_year_ranges",
    "frictionless_problems",
    "gekoupu_cites",
    "get_place",
    "gongche",
    "governance",
    "governing_witness",
    "governing_witnesses",
    "harvest_sources",
    "ingest",
    "inherited_from",
    "instrument",
    "instruments",
    "ke_of_day",
    "layout_figures",
    "layout_seats",
    "load_profile",
    "load_witness",
    "local_apparent_time",
    "local_circumstances",
    "local_eclipses",
    "local_mean_time",
    "lu",
    "lus",
    "manifest",
    "measure_alignment",
    "month_sexagenary",
    "movement",
    "movement_ids",
    "movement_info",
    "movement_label",
    "music_findings",
    "name_ids",
    "nayin",
    "nofont_html",
    "normalise",
    "observances_for",
    "occasion_calendar",
    "occasion_html",
    "occasion_of",
    "occasion_relation",
    "occurrence_record",
    "offering_table_svg",
    "opus_library_version",
    "outside_sources",
    "package_witnesses",
    "parse_authority_days",
    "parse_chinese_date",
    "parse_dance",
    "parse_dance_description",
    "parse_day",
    "parse_export_years",
    "parse_note",
    "parse_reign_year",
    "parse_rite_file",
    "parse_score_text",
    "parse_sexagenary",
    "parse_written_date",
    "place_at",
    "place_chinese_date_label",
    "place_names",
    "place_region",
    "place_sources",
    "place_year_name",
    "place_year_range",
    "places_in_year",
    "places_map_svg",
    "practice_ids",
    "practices",
    "private_use",
    "profile_ids",
    "program_audio",
    "program_inputs_fingerprint",
    "program_json",
    "program_seasons",
    "provincial_offset_minutes",
    "provincial_time",
    "qing_rule_ends",
    "read_day",
    "read_era_year",
    "reading_chain",
    "region_for",
    "reign_by_name",
    "reign_year",
    "reigning_emperor",
    "render_all_audio",
    "render_booklet",
    "render_movement",
    "render_movement_samples",
    "render_suite",
    "render_suite_samples",
    "resolve",
    "resolve_rite",
    "resolve_section_id",
    "rite_catalogue",
    "rite_exhibits",
    "rite_ids",
    "rite_label",
    "rite_plan_lines",
    "rite_source_label",
    "rite_step_data",
    "rite_step_line",
    "rite_to_data",
    "rite_to_html",
    "rite_venue_line",
    "rites_for",
    "rule_supports",
    "rules_in_force",
    "score_witness",
    "score_witnesses",
    "search",
    "seating_svg",
    "section_at",
    "section_defs",
    "section_figures",
    "section_ids",
    "section_label",
    "section_segments",
    "sections",
    "solar_term",
    "solar_terms",
    "source_json",
    "source_uses",
    "source_uses_of",
    "sources_mentioned",
    "spring_ox",
    "spring_ox_json",
    "spring_ox_rule_choice",
    "spring_ox_rule_ids",
    "spring_ox_svg",
    "spring_ox_text",
    "stamp_provenance",
    "stem_element",
    "stem_polarity",
    "subscription_query",
    "suite",
    "suite_timeline",
    "supplied_chars",
    "supply",
    "tablet_plan_svg",
    "temple_places",
    "temples",
    "timeline",
    "to_chinese",
    "to_gregorian",
    "to_ical",
    "translation_segments",
    "unregistered_addresses",
    "use_label",
    "variants_table",
    "variation",
    "variation_colour",
    "variation_map_svg",
    "variation_record",
    "variation_rule_ids",
    "variation_timeline_svg",
    "wanshou_dates",
    "witness_columns_svg",
    "witness_ids",
    "witness_label",
    "witness_labels",
    "witness_movement_info",
    "witnesses_with_rite",
    "write_datapackage",
    "year_name",
    "year_sexagenary",
]


@cache
def _origins() -> dict[str, tuple[str, str]]:
    """Each public name → (its module, its name there), read from the import lines above: they are the one
    list of what the facade re-exports; at run time a name's module is imported on first use."""
    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    found: dict[str, tuple[str, str]] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for line in node.body:
                if isinstance(line, ast.ImportFrom) and line.module:
                    found |= {(alias.asname or alias.name): (line.module, alias.name) for alias in line.names}
    return found


def __getattr__(name: str) -> Any:
    """Import the module that owns ``name`` when it is first asked for (PEP 562)."""
    origin = _origins().get(name)
    if origin is None:
        raise AttributeError(f"module 'dianli.api' has no attribute {name!r}")
    value = getattr(import_module(origin[0]), origin[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
