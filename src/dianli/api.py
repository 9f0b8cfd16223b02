"""The public facade of dianli: everything the CLI, the web app and users call.

Each block below belongs to one domain; names are re-exported from the module that owns them.
"""

from __future__ import annotations

# --- corpus ---
from dianli.corpus.cite import Citation, CitationError, ResolvedCitation, closest_passage, resolve
from dianli.corpus.clauses import CLAUSE_KINDS, Clause, clauses
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
from dianli.corpus.witnesses import Witness, WitnessInfo, all_witnesses, load_witness, manifest, witness_ids
from dianli.errors import DataError, DianliError, OutOfRangeError, UnknownValueError

__all__: list[str] = [
    # corpus
    "CLAUSE_KINDS",
    "Citation",
    "CitationError",
    "Clause",
    # errors
    "DataError",
    "DianliError",
    "Normalised",
    "NoteSpan",
    "OutOfRangeError",
    "ResolvedCitation",
    "SearchHit",
    "Section",
    "SectionDef",
    "UnknownValueError",
    "Witness",
    "WitnessInfo",
    "all_witnesses",
    "clauses",
    "closest_passage",
    "find_sections",
    "fold",
    "load_witness",
    "manifest",
    "normalise",
    "resolve",
    "resolve_section_id",
    "search",
    "section_at",
    "section_defs",
    "section_ids",
    "sections",
    "witness_ids",
]

# --- calendar ---
from dianli.calendar.computed import Disagreement, cross_check_year
from dianli.calendar.date_clause import DateClause, date_clause, fill_date_clause
from dianli.calendar.date_rules import RuleDate, fasting_window, wanshou_dates
from dianli.calendar.day import DayInfo, describe_day
from dianli.calendar.export import occurrence_record, to_ical
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
from dianli.calendar.observances import RITE_IDS, Observance, Occurrence, all_observances, observances_for
from dianli.calendar.reigns import (
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
from dianli.places.places import Place, PlaceLevel, all_places, get_place

__all__ += [
    "BRANCHES",
    "REIGNS",
    "RITE_IDS",
    "SOLAR_TERMS",
    "STEMS",
    "ChineseDate",
    "ChineseYear",
    "DateClause",
    "DateSource",
    "DayInfo",
    "Disagreement",
    "DoubleHour",
    "Element",
    "LunarMonth",
    "NaYin",
    "Observance",
    "Occurrence",
    "Place",
    "PlaceLevel",
    "Polarity",
    "Reign",
    "ReignYear",
    "RuleDate",
    "Sexagenary",
    "SolarTermDay",
    "all_observances",
    "all_places",
    "beijing_apparent_time",
    "branch_element",
    "branch_polarity",
    "chinese_year",
    "chinese_year_of",
    "cross_check_year",
    "date_clause",
    "day_sexagenary",
    "describe_day",
    "double_hour",
    "fasting_window",
    "fill_date_clause",
    "get_place",
    "ke_of_day",
    "local_apparent_time",
    "local_mean_time",
    "month_sexagenary",
    "nayin",
    "observances_for",
    "occurrence_record",
    "parse_chinese_date",
    "parse_day",
    "parse_reign_year",
    "parse_sexagenary",
    "provincial_offset_minutes",
    "provincial_time",
    "reign_by_name",
    "reign_year",
    "reigning_emperor",
    "solar_term",
    "solar_terms",
    "stem_element",
    "stem_polarity",
    "to_chinese",
    "to_gregorian",
    "to_ical",
    "wanshou_dates",
    "year_sexagenary",
]
# --- end calendar ---

# --- spring_ox ---
from dianli.spring_ox.figure import SpringOx, spring_ox  # noqa: E402
from dianli.spring_ox.lichun import CLOCKS, DAY_BOUNDARIES, DAY_SOURCES  # noqa: E402
from dianli.spring_ox.profiles import load_profile, profile_ids  # noqa: E402
from dianli.spring_ox.report import render_text as spring_ox_text  # noqa: E402
from dianli.spring_ox.report import to_json as spring_ox_json  # noqa: E402
from dianli.spring_ox.svg import render_svg as spring_ox_svg  # noqa: E402

__all__ += [
    "CLOCKS",
    "DAY_BOUNDARIES",
    "DAY_SOURCES",
    "SpringOx",
    "load_profile",
    "profile_ids",
    "spring_ox",
    "spring_ox_json",
    "spring_ox_svg",
    "spring_ox_text",
]
# --- end spring_ox ---

# --- rites ---
from dianli.rites.expand import NumberedStep, Placed, expand  # noqa: E402
from dianli.rites.load import all_rites, parse_rite_file  # noqa: E402
from dianli.rites.model import Element as RiteElement  # noqa: E402
from dianli.rites.model import Rite, RiteFile, Step  # noqa: E402
from dianli.rites.render import Exhibit as RiteExhibit  # noqa: E402
from dianli.rites.render import plan_lines as rite_plan_lines  # noqa: E402
from dianli.rites.render import source_label as rite_source_label  # noqa: E402
from dianli.rites.render import step_line as rite_step_line  # noqa: E402
from dianli.rites.render import to_data as rite_to_data  # noqa: E402
from dianli.rites.render import to_html as rite_to_html  # noqa: E402
from dianli.rites.render import venue_line as rite_venue_line  # noqa: E402
from dianli.rites.resolve import ResolvedRite, find_rite, resolve_rite, rite_ids  # noqa: E402
from dianli.rites.variants import diff_rite, rite_catalogue  # noqa: E402

__all__ += [
    "NumberedStep",
    "Placed",
    "ResolvedRite",
    "Rite",
    "RiteElement",
    "RiteExhibit",
    "RiteFile",
    "Step",
    "all_rites",
    "diff_rite",
    "expand",
    "find_rite",
    "parse_rite_file",
    "resolve_rite",
    "rite_catalogue",
    "rite_ids",
    "rite_plan_lines",
    "rite_source_label",
    "rite_step_line",
    "rite_to_data",
    "rite_to_html",
    "rite_venue_line",
]
# --- end rites ---

# --- music ---
from dianli.music.cues import (  # noqa: E402
    Event,
    Timeline,
    Timing,
    character_times,
    cue_findings,
    default_timing,
    suite_timeline,
    timeline,
)
from dianli.music.findings import Finding  # noqa: E402
from dianli.music.instruments import (  # noqa: E402
    Fingering,
    Instrument,
    fingering,
    fingering_gloss,
    instrument,
    instruments,
)
from dianli.music.memo import BoundedCache  # noqa: E402
from dianli.music.pitch import (  # noqa: E402
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
from dianli.music.render import (  # noqa: E402
    MUSIC_FORMATS,
    SAMPLES_CACHE_BYTES,
    Samples,
    music_findings,
    render_movement,
    render_movement_samples,
    render_suite,
    render_suite_samples,
)
from dianli.music.score import (  # noqa: E402
    Movement,
    SungCharacter,
    accepted_movement_names,
    movement,
    movement_ids,
    movement_info,
    parse_score_text,
    suite,
)
from dianli.music.synth import (  # noqa: E402
    AUDIO_FORMATS,
    SAMPLE_RATE_HZ,
    SAMPLE_RATE_RANGE_HZ,
    encode_audio,
    encode_samples,
)

__all__ += [
    "AUDIO_FORMATS",
    "MUSIC_FORMATS",
    "SAMPLES_CACHE_BYTES",
    "SAMPLE_RATE_HZ",
    "SAMPLE_RATE_RANGE_HZ",
    "BoundedCache",
    "Event",
    "Finding",
    "Fingering",
    "Instrument",
    "Movement",
    "Samples",
    "SungCharacter",
    "Timeline",
    "Timing",
    "Tuning",
    "accepted_movement_names",
    "cents_table",
    "character_times",
    "cue_findings",
    "default_huangzhong_hz",
    "default_timing",
    "default_tuning",
    "encode_audio",
    "encode_samples",
    "fingering",
    "fingering_gloss",
    "gekoupu_cites",
    "gongche",
    "instrument",
    "instruments",
    "lu",
    "lus",
    "movement",
    "movement_ids",
    "movement_info",
    "music_findings",
    "parse_note",
    "parse_score_text",
    "render_movement",
    "render_movement_samples",
    "render_suite",
    "render_suite_samples",
    "suite",
    "suite_timeline",
    "timeline",
]

# --- coverage ---
from dianli.coverage import TARGET_PERCENT, ClauseCoverage, SectionFigure, clause_coverage, section_figures  # noqa: E402

__all__ += ["TARGET_PERCENT", "ClauseCoverage", "SectionFigure", "clause_coverage", "section_figures"]
# --- end coverage ---

# --- dance ---
from dianli.dance.animate import render_html as dance_html  # noqa: E402
from dianli.dance.audio import Audio as DanceAudio  # noqa: E402
from dianli.dance.audio import movement_audio as dance_audio  # noqa: E402
from dianli.dance.formation import Formation as DanceFormation  # noqa: E402
from dianli.dance.formation import formation as dance_formation  # noqa: E402
from dianli.dance.listing import poses_json as dance_poses_json  # noqa: E402
from dianli.dance.mirror import Asymmetry as DanceAsymmetry  # noqa: E402
from dianli.dance.mirror import asymmetries as dance_asymmetries  # noqa: E402
from dianli.dance.mirror import asymmetries_json as dance_asymmetries_json  # noqa: E402
from dianli.dance.notation import (  # noqa: E402
    CharacterNotation,
    NotationError,
    RankClause,
    dance_witnesses,
)
from dianli.dance.notation import emendations as dance_emendations  # noqa: E402
from dianli.dance.notation import movement as dance_movement  # noqa: E402
from dianli.dance.notation import movements as dance_movements  # noqa: E402
from dianli.dance.notation import parse_description as parse_dance_description  # noqa: E402
from dianli.dance.notation import parse_movement as parse_dance  # noqa: E402
from dianli.dance.pose import FigureState  # noqa: E402
from dianli.dance.timing import character_timing as dance_timing  # noqa: E402
from dianli.dance.vocabulary import vocabulary as dance_vocabulary  # noqa: E402

__all__ += [
    "CharacterNotation",
    "DanceAsymmetry",
    "DanceAudio",
    "DanceFormation",
    "FigureState",
    "NotationError",
    "RankClause",
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
    "parse_dance",
    "parse_dance_description",
]
# --- end dance ---

# --- temples ---
from dianli.rites.temples import PlaceTemples, Temple, TempleNote, temple_places, temples  # noqa: E402

__all__ += ["PlaceTemples", "Temple", "TempleNote", "temple_places", "temples"]
# --- end temples ---

# --- program ---
from dianli.program.assemble import assemble as assemble_program  # noqa: E402
from dianli.program.audio import MovementAudio as ProgramAudio  # noqa: E402
from dianli.program.audio import movement_audio as program_audio  # noqa: E402
from dianli.program.audio import render_all as render_all_audio  # noqa: E402
from dianli.program.config import season_ids as program_seasons  # noqa: E402
from dianli.program.exhibits import exhibit_names, rite_exhibits  # noqa: E402
from dianli.program.export import booklet_name  # noqa: E402
from dianli.program.export import to_json as program_json  # noqa: E402
from dianli.program.html import render_booklet  # noqa: E402
from dianli.program.model import Program  # noqa: E402

__all__ += [
    "Program",
    "ProgramAudio",
    "assemble_program",
    "booklet_name",
    "exhibit_names",
    "program_audio",
    "program_json",
    "program_seasons",
    "render_all_audio",
    "render_booklet",
    "rite_exhibits",
]
# --- end program ---

# --- eclipses ---
from dianli.calendar.eclipses import (  # noqa: E402
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

__all__ += [
    "ECLIPSE_ASSUMPTIONS",
    "Eclipse",
    "EclipseKind",
    "EclipseType",
    "LocalCircumstances",
    "Phase",
    "eclipses_in_year",
    "ephemeris_label",
    "local_circumstances",
    "local_eclipses",
]
# --- end eclipses ---

# --- layout ---
from dianli.layout.altar import altar_plan_svg, offering_table_svg  # noqa: E402
from dianli.layout.figures import LayoutFigure, layout_figures  # noqa: E402
from dianli.layout.seating import Seat, seating_svg  # noqa: E402
from dianli.layout.seating import seats as layout_seats  # noqa: E402
from dianli.layout.tablets import tablet_plan_svg  # noqa: E402

__all__ += [
    "LayoutFigure",
    "Seat",
    "altar_plan_svg",
    "layout_figures",
    "layout_seats",
    "offering_table_svg",
    "seating_svg",
    "tablet_plan_svg",
]
# --- end layout ---
