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
# (added by the calendar module)
