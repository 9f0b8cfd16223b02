"""Coverage: which clause of each witness's ritual sections backs a statement of the correspondence
table (:mod:`dianli.comparison.table`: the rite data, the readings, the alignments, and every other cited
data — music, dance, spring ox, calendar), or is marked not procedural.

Every ``not_procedural.yaml`` (rites, music, witness folders …) marks clauses (history, commentary) as not
procedural, each with its reason. A clause is covered when statements (or marks) account for at least
half of its characters.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from dianli.comparison.table import table, yaml_files
from dianli.corpus.cite import resolve
from dianli.corpus.clauses import Clause, clauses
from dianli.corpus.normalise import is_key_char
from dianli.corpus.witnesses import load_witness, witness_ids, witness_info
from dianli.datafile import parse_model

NOT_PROCEDURAL = ("rites", "data", "not_procedural.yaml")
EXCLUDED_SECTIONS = ("front", "back")
"""Title lines and colophon: not ritual sections."""
TARGET_PERCENT = 95.0

Span = tuple[int, int]


@dataclass(frozen=True)
class ClauseCoverage:
    clause: Clause
    covered_by: str | None
    """'cited' or 'not procedural: reason', or None when uncovered."""


@dataclass(frozen=True)
class SectionFigure:
    witness: str
    section: str
    total: int
    covered: int

    @property
    def percent(self) -> float:
        return 100.0 * self.covered / self.total if self.total else 100.0


def _folder_files() -> list[Path]:
    """The ``not_procedural.yaml`` of every witness folder outside the package."""
    root = str(resources.files("dianli"))
    out: list[Path] = []
    for w in witness_ids():
        folder = witness_info(w).folder
        path = folder / NOT_PROCEDURAL[-1]
        if path.is_file() and not str(folder).startswith(root):
            out.append(path)
    return out


def cited_spans() -> dict[str, tuple[Span, ...]]:
    """Every span of a witness that backs a statement of the correspondence table (the rite data, the
    readings, the alignments and every other cited data: music, dance, spring ox …), by witness, sorted
    and merged."""
    source = table()
    return {w: source.spans(w) for w in source.witnesses()}


class NotProcedural(BaseModel):
    """A clause marked as no procedure (history, commentary), with the reason."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    witness: str
    quote: str
    section: str | None = None
    reason: str


class _NotProceduralFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    clauses: tuple[NotProcedural, ...] = ()


@functools.cache
def not_procedural() -> dict[str, tuple[tuple[int, int, str], ...]]:
    """Spans marked not procedural, with their reasons, by witness (every ``not_procedural.yaml`` of the
    package, each validated by one schema)."""
    out: dict[str, list[tuple[int, int, str]]] = {}
    root = resources.files("dianli")
    for path in (*yaml_files(root), *_folder_files()):
        if path.name != NOT_PROCEDURAL[-1]:
            continue
        for entry in parse_model(str(path), path.read_text(encoding="utf-8"), _NotProceduralFile).clauses:
            found = resolve(entry.witness, entry.quote, entry.section)
            out.setdefault(entry.witness, []).append((found.text_start, found.text_end, entry.reason))
    return {w: tuple(v) for w, v in out.items()}


COVERED_FRACTION = 0.5
"""A clause is covered when cited data (or a not-procedural mark) accounts for at least half of its
characters (letters and numbers, as the folding key counts them). A mere overlap is not enough: one short
quote must not make a long note count as modelled."""


@functools.cache
def _masks(witness: str) -> tuple[bytearray, bytearray]:
    """Per reading-text character of a witness: cited (1/0), and marked not procedural (1/0)."""
    size = len(load_witness(witness).norm.text)
    cited, marked = bytearray(size), bytearray(size)
    for start, end in cited_spans().get(witness, ()):
        cited[start:end] = b"\x01" * (end - start)
    for start, end, _ in not_procedural().get(witness, ()):
        marked[start:end] = b"\x01" * (end - start)
    return cited, marked


def clause_coverage(witness: str) -> tuple[ClauseCoverage, ...]:
    """Every clause of the witness's ritual sections with what covers it."""
    text = load_witness(witness).norm.text
    cited, marked = _masks(witness)
    marks = not_procedural().get(witness, ())
    result = []
    for clause in clauses(witness):
        if clause.section.split(".")[0] in EXCLUDED_SECTIONS:
            continue
        counted = [i for i in range(clause.start, clause.end) if is_key_char(text[i])]
        need = COVERED_FRACTION * len(counted)
        by: str | None = None
        if sum(cited[i] for i in counted) >= need:
            by = "cited"
        elif sum(cited[i] or marked[i] for i in counted) >= need:
            reason = next((r for s, e, r in marks if s < clause.end and e > clause.start), "")
            by = f"not procedural: {reason}"
        result.append(ClauseCoverage(clause, by))
    return tuple(result)


def section_figures(witness: str) -> tuple[SectionFigure, ...]:
    """Covered/total per top-level section of a witness."""
    totals: dict[str, list[int]] = {}
    for item in clause_coverage(witness):
        top = item.clause.section.split(".")[0]
        counts = totals.setdefault(top, [0, 0])
        counts[0] += 1
        counts[1] += item.covered_by is not None
    return tuple(SectionFigure(witness, s, t, c) for s, (t, c) in totals.items())


def below_target(witness: str) -> tuple[SectionFigure, ...]:
    """Sections held to the target that fall below it."""
    return tuple(f for f in section_figures(witness) if f.percent < TARGET_PERCENT)
