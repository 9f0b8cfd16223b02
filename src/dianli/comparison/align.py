"""Alignment of a witness to the model: which of its clauses say what a modelled element already cites.

The *model* is every element of the rite data as every other witness states it — the curated statements of
the correspondence table (:mod:`dianli.comparison.table`: the shared rite data and each witness's own
reading) — in witnesses of the same language as the target (a modern translation is not compared with a
classical text). For each top-level section that the target shares with a model witness,
the target's clauses and the model's cited spans (in text order) are aligned as two sequences:

* every pair is scored on the folding key (script and variant characters do not matter) by a fuzzy
  local match — ``rapidfuzz``'s partial ratio of the shorter string inside the longer, 0–100 —
  weighted by how much of the longer the shorter covers, so a two-character call does not "match" a long
  passage that happens to contain it;
* a monotone path through the score matrix (each step goes to the next clause, the next span, or both)
  maximises the sum of the scores above :data:`VARIANT_SCORE`; order in the section decides between equal
  candidates, as a reader would (the second 「再拜」 follows the second offering, not the first).

Each clause of the target is then *same* (on the path with a score ≥ :data:`SAME_SCORE`: an agreeing
citation of the elements that span supports), *variant* (best score on the path between the two
thresholds: a different reading of those elements, with the differing characters marked), or *new* (no
span of the model matches it). Model elements of the shared sections that no clause matched are
*missing*. The thresholds are measured on the seeds (``measure``): see the README.
"""

from __future__ import annotations

import difflib
import functools
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from rapidfuzz import fuzz
from rapidfuzz.process import cdist

from dianli.comparison.table import table
from dianli.corpus.clauses import Clause, clauses
from dianli.corpus.normalise import fold
from dianli.corpus.witnesses import manifest, witness_ids
from dianli.errors import UnknownValueError
from dianli.rites.load import all_rites

SAME_SCORE = 90.0
"""A clause whose best aligned span scores at least this is *same* (measured on 001: see ``measure``)."""
VARIANT_SCORE = 60.0
"""Below this a span does not match a clause at all; between the two the clause is a *variant*."""
MIN_KEY = 3
"""A span or clause shorter than this (a two-character call such as 再拜) matches only as a whole."""
DISTINCT_KEY = 6
"""Words at least this long, matched once, are taken as stated for every element of the section that
cites the same words elsewhere (a tablet and the call that visits it); shorter ones (跪叩首興) only where
the path put them."""
CONTAINED_SCORE = 95.0
"""A clause found whole (at least this partial ratio) inside a longer span says those words of it: its
score is not weighted down by the share of the span it covers (001 cuts 『奠帛』．『行初獻禮』 where 福建通志
runs them together)."""
EXCLUDED_SECTIONS = ("front", "back")
CLASSES = ("same", "variant", "new")


@dataclass(frozen=True, slots=True)
class ModelSpan:
    """Where a witness of the model states an element: the element's path, the witness and the span."""

    element: str
    witness: str
    section: str
    start: int
    end: int
    quote: str
    key: str


@dataclass(frozen=True, slots=True)
class Match:
    """One aligned pair: a model span the clause matches, with its score."""

    span: ModelSpan
    score: float


@dataclass(frozen=True)
class AlignedClause:
    """A clause of the target with its class and the model spans it matches (best first)."""

    clause: Clause
    kind: str
    matches: tuple[Match, ...] = ()

    @property
    def elements(self) -> tuple[str, ...]:
        """The elements this clause supports (for *same*) or reads differently (for *variant*)."""
        return tuple(dict.fromkeys(m.span.element for m in self.matches))

    @property
    def best(self) -> Match | None:
        return self.matches[0] if self.matches else None

    def diff(self) -> tuple[tuple[str, str], ...]:
        """The clause against its best span, as (op, text) runs: ``=`` shared, ``-`` only in the model,
        ``+`` only in the target (reading text, characters compared on the folding key)."""
        if self.best is None:
            return (("+", self.clause.text),)
        return char_diff(self.best.span.quote, self.clause.text)


@dataclass(frozen=True)
class Alignment:
    """A witness aligned to the model: every clause classed, and the model elements it lacks."""

    witness: str
    model_witnesses: tuple[str, ...]
    clauses: tuple[AlignedClause, ...]
    missing: tuple[ModelSpan, ...] = field(default=())

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys((*CLASSES, "missing"), 0)
        for aligned in self.clauses:
            out[aligned.kind] += 1
        out["missing"] = len({m.element for m in self.missing})
        return out


def char_diff(model: str, target: str) -> tuple[tuple[str, str], ...]:
    """Character runs of two readings: ``=`` in both, ``-`` model only, ``+`` target only (compared on the
    folding key of each character, shown in each text's own characters; punctuation and layout, which the
    folding key drops, are left out of both)."""
    model = "".join(c for c in model if fold(c))
    target = "".join(c for c in target if fold(c))
    a, b = [fold(c) for c in model], [fold(c) for c in target]
    runs: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            runs.append(("=", target[j1:j2]))
            continue
        if i2 > i1:
            runs.append(("-", model[i1:i2]))
        if j2 > j1:
            runs.append(("+", target[j1:j2]))
    return tuple(runs)


def _top(section: str) -> str:
    return section.split(".", 1)[0]


def _language(witness: str) -> str:
    return next(info.language for info in manifest() if info.id == witness)


def model_witnesses(target: str) -> tuple[str, ...]:
    """The witnesses the target is compared with: the others of its language, except a text it translates
    or that translates it (those are one text)."""
    if target not in witness_ids():
        raise UnknownValueError("witness", target, witness_ids())
    infos = {info.id: info for info in manifest()}
    family = {target, infos[target].translation_of} | {
        i.id for i in infos.values() if i.translation_of == target
    }
    return tuple(w for w in witness_ids() if w not in family and _language(w) == _language(target))


CURATED = ("cited", "read")
"""The provenances the model is made of: hand citations of the rite data and the curated readings (an
automatic alignment is never a model for another)."""


@functools.cache
def cited_spans() -> tuple[tuple[str, str, str, int, int, str], ...]:
    """(element path, witness, section, text start, text end, quote) of every curated statement of the
    correspondence table (:mod:`dianli.comparison.table`): every element as every witness states it, in the
    shared rite data and in each witness's own reading, so that a clause agreeing with any witness is found —
    and the other cited data (the music, the dance, the spring ox: its element is the domain, ``music``), so
    that a 樂譜 or a 舞譜 the model holds is not *new*."""
    return tuple(
        (s.element, s.witness, s.section, s.start, s.end, s.quote) for s in table() if s.provenance in CURATED
    )


_MODEL: list[tuple[ModelSpan, ...]] = []
"""The model of this process, once built or given (:func:`use_model`)."""


def _all_spans() -> tuple[ModelSpan, ...]:
    """Every curated span with its folding key, folded once per process, in text order."""
    if not _MODEL:
        spans = [
            ModelSpan(path, w, section, start, end, quote, fold(quote))
            for path, w, section, start, end, quote in cited_spans()
        ]
        _MODEL.append(tuple(sorted(spans, key=lambda s: (s.witness, s.start, s.end, s.element))))
    return _MODEL[0]


def the_model() -> tuple[ModelSpan, ...]:
    """The whole model — every curated span of every witness — as this process has it: what a pool of
    workers is given once (:func:`use_model`) instead of each building it from the correspondence table."""
    return _all_spans()


def use_model(spans: tuple[ModelSpan, ...]) -> None:
    """Align with ``spans`` as the model (made by :func:`the_model` in another process of the same corpus)
    instead of building it here."""
    _MODEL[:] = [spans]


def model_spans(witnesses: Iterable[str]) -> tuple[ModelSpan, ...]:
    """The model as seen from the given witnesses: one span per (element, citation), in text order."""
    wanted = set(witnesses)
    return tuple(s for s in _all_spans() if s.witness in wanted)


def _score_matrix(clause_keys: Sequence[str], span_keys: Sequence[str]) -> list[list[float]]:
    """Scores of every (clause, span) pair: the partial ratio of the shorter inside the longer. A clause
    that holds a whole quoted span states that element (hand citations quote phrases of clauses), so
    containment counts fully; a clause that is only a piece of a longer span says part of it, and its score
    is weighted by the share of the span it covers. Pieces of fewer than :data:`MIN_KEY` characters only
    count when they match whole. (The weights are applied to the whole matrix at once, cell by cell in
    the order written here: the same floating-point operations as one cell at a time. The scores are
    computed on every core: rapidfuzz's C++ releases the interpreter's lock.)"""
    if not clause_keys or not span_keys:
        return [[0.0] * len(span_keys) for _ in clause_keys]
    score = cdist(clause_keys, span_keys, scorer=fuzz.partial_ratio, workers=-1).astype(np.float64)
    lc = np.array([len(k) for k in clause_keys], dtype=np.float64)[:, None]
    ls = np.array([len(k) for k in span_keys], dtype=np.float64)[None, :]
    same = np.array(clause_keys, dtype=object)[:, None] == np.array(span_keys, dtype=object)[None, :]
    short_clause = (lc < MIN_KEY) & ~same
    piece = ~short_clause & (lc < ls) & (score < CONTAINED_SCORE)
    short_span = ~short_clause & ~piece & (ls < MIN_KEY) & ~same
    out = np.where(short_clause, score * (lc / np.maximum(ls, 1)), score)
    out = np.where(piece, score * (0.6 + 0.4 * lc / ls), out)
    out = np.where(short_span, score * (0.6 + 0.4 * ls / np.maximum(lc, 1)), out)
    rows: list[list[float]] = out.tolist()
    return rows


def _path(scores: list[list[float]]) -> list[tuple[int, int]]:
    """The cells of the monotone path through the matrix that maximises the sum of the scores that reach
    :data:`VARIANT_SCORE` (a step moves to the next row, the next column or both)."""
    n, m = len(scores), len(scores[0]) if scores else 0
    if not n or not m:
        return []
    gain = [[s if s >= VARIANT_SCORE else 0.0 for s in row] for row in scores]
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        prev, here, g = best[i - 1], best[i], gain[i - 1]
        for j in range(1, m + 1):
            here[j] = g[j - 1] + max(prev[j - 1], prev[j], here[j - 1])
    cells: list[tuple[int, int]] = []
    i, j = n, m
    while i > 0 and j > 0:
        cells.append((i - 1, j - 1))
        diag, up, left = best[i - 1][j - 1], best[i - 1][j], best[i][j - 1]
        top = max(diag, up, left)
        if diag == top:
            i, j = i - 1, j - 1
        elif up == top:
            i -= 1
        else:
            j -= 1
    return cells[::-1]


def align_sequences(clause_keys: Sequence[str], span_keys: Sequence[str]) -> list[tuple[int, int, float]]:
    """(clause index, span index, score) of every aligned pair that reaches :data:`VARIANT_SCORE`, in
    order: the engine of :func:`align`, on folding keys."""
    scores = _score_matrix(clause_keys, span_keys)
    return [(r, c, scores[r][c]) for r, c in _path(scores) if scores[r][c] >= VARIANT_SCORE]


def _attach(
    found: dict[int, list[Match]],
    row: int,
    cols: Sequence[ModelSpan],
    at: tuple[int, int],
    key: str,
    score: float,
) -> None:
    """A clause's match to the span at ``at`` (its words ``key``) if it reaches :data:`VARIANT_SCORE`;
    words distinctive enough are stated for every element that cites them in the section."""
    if score < VARIANT_SCORE:
        return
    for span in cols:
        if (span.start, span.end) == at or (span.key == key and len(key) >= DISTINCT_KEY):
            found.setdefault(row, []).append(Match(span, round(score, 1)))


def _block(section: str) -> str:
    """The section under the top one a clause stands in (xianshi.chongsheng.yizhu → xianshi.chongsheng)."""
    return ".".join(section.split(".")[:2])


def _runs(items: Sequence[int], keys: Sequence[str]) -> list[list[int]]:
    """``items`` in runs of consecutive items with the same key (``keys``: each item's)."""
    runs = itertools.groupby(zip(items, keys, strict=True), key=lambda pair: pair[1])
    return [[item for item, _ in run] for _, run in runs]


def classify(score: float | None) -> str:
    """The class of a clause from the best score of its aligned spans (None: none reached)."""
    if score is None:
        return "new"
    return "same" if score >= SAME_SCORE else "variant"


def _affinity(a: str, b: str) -> int:
    """How many levels of two section ids agree from the top (xianshi.chongsheng / xianshi.zhisheng: 1)."""
    n = 0
    for x, y in zip(a.split("."), b.split("."), strict=False):
        if x != y:
            break
        n += 1
    return n


def preferred(clause: Clause, matches: Sequence[Match]) -> tuple[Match, ...]:
    """The matches a clause keeps: among the best-scoring ones (all *same*, or else all), those of the
    section nearest the clause's. The same formula 「眾官皆跪」 stands in the 崇聖祠 service and in the 先師
    service of one chapter; a clause belongs to the one it stands in. (Measured on 001: precision of
    automatic *same* 77.1% → 81.2% at unchanged recall. Preferring a part's step over the part lost recall:
    hand citations often cite both with one quote.)"""
    if not matches:
        return ()
    best = [m for m in matches if m.score >= SAME_SCORE] if matches[0].score >= SAME_SCORE else list(matches)
    near = max(_affinity(clause.section, m.span.section) for m in best)
    return tuple(m for m in best if _affinity(clause.section, m.span.section) == near)


def _is_rite_element(path: str) -> bool:
    """A path into the rite data (``xianshi.parts[…]``), not a domain of the other cited data (``music``)."""
    return path.split(".", 1)[0].split("[", 1)[0] in all_rites()


def align(target: str, model: Sequence[str] | None = None) -> Alignment:
    """Align every clause of ``target`` outside the title and colophon to the model of ``model`` (default:
    :func:`model_witnesses`)."""
    asked = tuple(model) if model is not None else model_witnesses(target)
    spans = model_spans(asked)
    witnesses = tuple(w for w in asked if any(s.witness == w for s in spans))  # those the model cites
    mine = [c for c in clauses(target) if _top(c.section) not in EXCLUDED_SECTIONS]
    found: dict[int, list[Match]] = {}
    tops = sorted({_top(c.section) for c in mine})
    by_group: dict[tuple[str, str, bool], list[ModelSpan]] = {}
    for s in spans:
        by_group.setdefault((s.witness, _top(s.section), _is_rite_element(s.element)), []).append(s)
    for top in tops:
        rows = [i for i, c in enumerate(mine) if _top(c.section) == top]
        keys = [fold(mine[i].text) for i in rows]
        groups = [
            by_group.get((witness, top, rite), [])
            for witness in witnesses
            for rite in (True, False)  # the rite data and the other cited data each have a path of their own
        ]
        paths: list[tuple[list[ModelSpan], list[tuple[int, int]], list[str], list[list[float]]]] = []
        for cols in groups:
            if not cols:
                continue
            distinct = sorted({(s.start, s.end) for s in cols})
            keyed = {(s.start, s.end): s.key for s in cols}
            span_keys = [keyed[d] for d in distinct]
            scores = _score_matrix(keys, span_keys)
            paths.append((cols, distinct, span_keys, scores))
            for r, c in _path(scores):
                _attach(found, rows[r], cols, distinct[c], span_keys[c], scores[r][c])
        # the clauses no path reached, each section under the top on a path of its own: a service told in
        # another order than a model witness tells it (崇聖祠 after 文廟) is not passed by where it agrees
        left = [r for r in range(len(rows)) if rows[r] not in found]
        for block in _runs(left, [_block(mine[rows[r]].section) for r in left]):
            for cols, distinct, span_keys, scores in paths:
                sub = [scores[r] for r in block]
                for r, c in _path(sub):
                    if sub[r][c] >= SAME_SCORE:  # agreement only: mere likeness out of order is no match
                        _attach(found, rows[block[r]], cols, distinct[c], span_keys[c], sub[r][c])
    aligned: list[AlignedClause] = []
    matched_elements: set[str] = set()
    for i, clause in enumerate(mine):
        ranked = sorted(found.get(i, ()), key=lambda m: (-m.score, m.span.element))
        # an element of the rites first; the other cited data (music, dance …) only for a clause none states
        matches = preferred(clause, [m for m in ranked if _is_rite_element(m.span.element)]) or preferred(
            clause, [m for m in ranked if not _is_rite_element(m.span.element)]
        )
        if not matches:
            aligned.append(AlignedClause(clause, "new"))
            continue
        kind = classify(matches[0].score)
        kept = tuple(m for m in matches if (m.score >= SAME_SCORE) == (kind == "same"))
        matched_elements.update(m.span.element for m in kept)
        aligned.append(AlignedClause(clause, kind, kept))
    mine_tops = set(tops)
    missing = tuple(s for s in spans if _top(s.section) in mine_tops and s.element not in matched_elements)
    return Alignment(target, witnesses, tuple(aligned), missing)


@dataclass(frozen=True)
class Measure:
    """The aligner against the hand-made citations of a witness (its own citations left out of the model)."""

    witness: str
    hand: int
    """Hand citations of the witness (element, span) in the aligned sections."""
    alignable: int
    """Of those, the ones whose element the model knows from another witness (the only ones findable)."""
    recalled: int
    """Hand citations whose element the aligner attached as *same* to a clause overlapping the span."""
    automatic: int
    """Automatic *same* attachments (clause, element)."""
    correct: int
    """Of those, the ones where the element has a hand citation overlapping the clause."""
    nested: int = 0
    """Of the others, the ones where the element encloses, or is enclosed by, an element that has a hand
    citation overlapping the clause (the clause attached to the whole part where the hand cited its step,
    or the reverse): right in substance, coarser or finer in granularity."""

    @property
    def recall(self) -> float:
        return self.recalled / self.hand if self.hand else 0.0

    @property
    def recall_alignable(self) -> float:
        return self.recalled / self.alignable if self.alignable else 0.0

    @property
    def precision(self) -> float:
        return self.correct / self.automatic if self.automatic else 0.0

    @property
    def precision_nested(self) -> float:
        """Precision counting an enclosing or enclosed element as right (see :attr:`nested`)."""
        return (self.correct + self.nested) / self.automatic if self.automatic else 0.0


def measure(target: str) -> Measure:
    """Align ``target`` against the model without its own citations and compare with its hand citations."""
    result = align(target)
    hand = [(path, start, end) for path, w, section, start, end, _ in cited_spans()
            if w == target and _top(section) not in EXCLUDED_SECTIONS]  # fmt: skip
    known = {s.element for s in model_spans(result.model_witnesses)}
    same = [(a.clause, e) for a in result.clauses if a.kind == "same" for e in a.elements]
    by_element: dict[str, list[tuple[int, int]]] = {}
    for path, start, end in hand:
        by_element.setdefault(path, []).append((start, end))
    attached: dict[str, list[Clause]] = {}
    for clause, element in same:
        attached.setdefault(element, []).append(clause)

    def overlaps(a: tuple[int, int], clause: Clause) -> bool:
        return a[0] < clause.end and clause.start < a[1]

    recalled = sum(
        1 for path, start, end in hand if any(overlaps((start, end), c) for c in attached.get(path, ()))
    )
    correct = sum(
        1 for clause, element in same if any(overlaps(s, clause) for s in by_element.get(element, ()))
    )

    def enclosing(clause: Clause, element: str) -> bool:
        at = {p for p, spans in by_element.items() if any(overlaps(s, clause) for s in spans)}
        return element not in at and any(
            p.startswith(element + ".") or element.startswith(p + ".") for p in at
        )

    nested = sum(1 for clause, element in same if enclosing(clause, element))
    return Measure(
        witness=target,
        hand=len(hand),
        alignable=sum(1 for path, _, _ in hand if path in known),
        recalled=recalled,
        automatic=len(same),
        correct=correct,
        nested=nested,
    )
