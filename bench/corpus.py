"""Benchmark: corpus load + normalise + segment (cold and warm) and search latency.

Every figure is printed as a ratio against a naive baseline measured in the same run: a plain
substring scan of the raw files (no normalisation, no folding, no sections). The baseline finds less
(it misses 鐘 for 钟 and quotes split by layout or punctuation); the ratio says what that service costs.

    python bench/corpus.py [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from dianli.corpus import cite, normalise, search, sections, witnesses
from dianli.corpus import clauses as clauses_module

QUERIES = ["钟", "土牛", "迎神 咸平", "望瘞", "上丁", "東班舞生開籥"]


def _timed(func: Callable[[], object], repeat: int) -> float:
    """Median seconds of ``repeat`` runs."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def _clear_caches() -> None:
    for cached in (
        witnesses.load_witness,
        witnesses.manifest,
        sections.sections,
        sections.section_defs,
        clauses_module.clauses,
        search._clause_keys,
        normalise.fold_char,
        cite.resolve,
    ):
        cached.cache_clear()


def _load_all() -> None:
    for wid in witnesses.witness_ids():
        sections.sections(wid)
        clauses_module.clauses(wid)
        search._clause_keys(wid)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (median is reported)")
    args = parser.parse_args()
    files = [info.folder / f.file for info in witnesses.manifest() for f in info.files]

    def naive_load() -> list[str]:
        return [p.read_text(encoding="utf-8") for p in files]

    raws = naive_load()

    def naive_search(query: str) -> int:
        return sum(raw.count(term) for raw in raws for term in query.split())

    t_naive_load = _timed(naive_load, args.repeat)

    def cold() -> None:
        _clear_caches()
        _load_all()

    t_cold = _timed(cold, args.repeat)
    _load_all()
    t_warm = _timed(_load_all, args.repeat)
    print(f"baseline: read the raw files            {t_naive_load * 1e3:9.3f} ms")
    print(
        f"load+normalise+segment, cold            {t_cold * 1e3:9.3f} ms  = {t_cold / t_naive_load:8.1f} x baseline"
    )
    print(
        f"load+normalise+segment, warm            {t_warm * 1e3:9.3f} ms  = {t_warm / t_naive_load:8.3f} x baseline"
    )
    print()
    print(f"{'query':14} {'naive ms':>10} {'search ms':>10} {'ratio':>8} {'hits':>6} {'naive hits':>10}")
    for query in QUERIES:
        t_base = _timed(lambda q=query: naive_search(q), args.repeat * 4)
        t_ours = _timed(lambda q=query: search.search(q), args.repeat * 4)
        hits = len(search.search(query))
        print(
            f"{query:14} {t_base * 1e3:10.3f} {t_ours * 1e3:10.3f} {t_ours / t_base:8.1f} {hits:6d} "
            f"{naive_search(query):10d}"
        )


if __name__ == "__main__":
    main()
