"""Benchmark: aligning a witness to the model (``dianli align``), against a plain pairwise baseline.

Ours: ``align`` of every witness of the seeds that has a model of its language (001 and 002 against the
others), cold for the scoring (the model's cited spans resolved once, as the command does). Baseline, in
the same run: the same clause × span pairs of the same sections scored with ``difflib.SequenceMatcher``
(the standard library's fuzzy matcher), best span per clause, no ordering — timed on a sample of sections
and scaled by the pair count. Printed: clauses aligned per second (one core) and the ratio.

Then the whole corpus (every witness of the package that has a model of its language), in the same run:
aligned one after another in this process and compared (every rite's values from the correspondence
table) — target under 10 s warm — and ingested with Dask on local processes (``dianli ingest``, one worker
per core, the model built once in this process and given to each): clauses per second per core, the wall
times and the parallel speed-up, and from the measured steady per-witness time an estimate for 8,000
gazetteers on N cores (each worker pays its start-up once; the model grows as witnesses are curated, so
the estimate is for today's model).
Run: ``python bench/align.py``.
"""

from __future__ import annotations

import difflib
import os
import time

from dianli.comparison.align import EXCLUDED_SECTIONS, align, cited_spans, model_spans, model_witnesses
from dianli.comparison.compare import compare
from dianli.comparison.ingest import ingest
from dianli.corpus.clauses import clauses
from dianli.corpus.normalise import fold
from dianli.corpus.witnesses import package_root, witness_ids

TARGETS = ("taiwan-fuzhi-9", "tingzhou-fuzhi")
SAMPLE_PAIRS = 200_000


def _pairs(target: str) -> list[tuple[str, list[str]]]:
    """(clause key, the keys of the model spans of its section) for every clause of the target."""
    spans = model_spans(model_witnesses(target))
    by_top: dict[str, list[str]] = {}
    for s in spans:
        by_top.setdefault(s.section.split(".")[0], []).append(s.key)
    return [
        (fold(c.text), by_top.get(c.section.split(".")[0], []))
        for c in clauses(target)
        if c.section.split(".")[0] not in EXCLUDED_SECTIONS
    ]


def difflib_baseline(pairs: list[tuple[str, list[str]]], budget: int) -> tuple[float, int]:
    """Seconds and pairs scored for at most ``budget`` pairs of best-ratio search."""
    done = 0
    start = time.perf_counter()
    for key, keys in pairs:
        if done >= budget:
            break
        matcher = difflib.SequenceMatcher(None, key, autojunk=False)
        best = 0.0
        for other in keys:
            matcher.set_seq1(other)
            best = max(best, matcher.ratio())
        done += len(keys)
    return time.perf_counter() - start, done


def main() -> None:
    cited_spans()  # resolve the model's citations once (the command does too)
    for target in TARGETS:
        start = time.perf_counter()
        result = align(target)
        ours = time.perf_counter() - start
        pairs = _pairs(target)
        total_pairs = sum(len(keys) for _, keys in pairs)
        base_s, base_pairs = difflib_baseline(pairs, SAMPLE_PAIRS)
        base_full = base_s * total_pairs / max(base_pairs, 1)
        n = len(result.clauses)
        print(f"{target}: {n:,} clauses, {total_pairs:,} clause × span pairs in their sections")
        print(f"  dianli align: {ours:.2f} s = {n / ours:,.0f} clauses/s on one core ({result.counts()})")
        print(
            f"  difflib best-ratio loop: {base_s:.2f} s for {base_pairs:,} pairs, scaled to all: {base_full:.1f} s "
            f"= {n / base_full:,.0f} clauses/s"
        )
        print(f"  ratio (baseline time / ours; > 1 means faster): {base_full / ours:.1f}×")
    corpus()


GAZETTEERS = 8_000
TARGET_WHOLE_S = 10.0
"""Issue 25: the whole corpus aligned and compared in under 10 s warm on this 2-core machine."""
CORES = (2, 16, 64, 256)


def corpus() -> None:
    """The whole corpus: serial in this process against Dask's local processes, and the estimate."""
    targets = [w for w in witness_ids() if model_spans(model_witnesses(w))]
    start = time.perf_counter()
    n_clauses = sum(len(align(w).clauses) for w in targets)
    serial = time.perf_counter() - start
    start = time.perf_counter()
    rows = compare()
    compared = time.perf_counter() - start
    cores = os.cpu_count() or 1
    run = ingest(package_root(), witnesses=tuple(targets), workers=cores)
    steady = sorted(r.seconds for r in run.results)[: max(1, len(run.results) - run.workers)]
    per_witness = sum(steady) / len(steady)  # the first task of each worker also builds the model
    startup = max(r.seconds for r in run.results) - per_witness
    print(f"whole corpus: {len(targets)} witnesses, {n_clauses:,} clauses")
    print(
        f"  aligned one by one in this process (model warm): {serial:.1f} s = {n_clauses / serial:,.0f} clauses/s"
    )
    print(
        f"  compared (every rite's values, {len(rows):,} rows of the correspondence table): {compared:.2f} s"
    )
    total = serial + compared
    print(
        f"  aligned and compared: {total:.1f} s (target < {TARGET_WHOLE_S:.0f} s: {'met' if total < TARGET_WHOLE_S else 'not met'})"
    )
    print(
        f"  dask, {run.workers} local processes: {run.seconds:.1f} s wall = "
        f"{n_clauses / run.seconds / run.workers:,.0f} clauses/s per core; speed-up over one by one "
        f"{serial / run.seconds:.2f}× (the model built once here and given to every worker; a worker's "
        f"first task also loads the corpus: ~{startup:.0f} s)"
    )
    print(
        f"  estimate for {GAZETTEERS:,} gazetteers at {per_witness:.2f} s each (steady) + start-up per worker:"
    )
    for n in CORES:
        hours = (GAZETTEERS * per_witness / n + startup) / 3600
        print(f"    {n:>4} cores: {hours:6.2f} h")


if __name__ == "__main__":
    main()
