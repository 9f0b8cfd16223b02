"""Benchmark: resolve every rite for every place for one year, warm, against a baseline that re-reads
and re-validates the YAML for each resolution; both measured in this run, reported as a ratio."""

from __future__ import annotations

import time

from dianli.errors import DianliError
from dianli.places.places import all_places
from dianli.rites.load import all_rites, read_all
from dianli.rites.resolve import _resolve, resolve_rite, resolve_with

YEAR = 1752


def main() -> None:
    pairs = [(r, p) for r in all_rites() for p in all_places()]
    resolve_rite("xianshi", "臺灣府", YEAR)  # warm the corpus and places

    def run_warm() -> int:
        done = 0
        for rite_id, place in pairs:
            try:
                resolve_rite(rite_id, place.id, YEAR)
                done += 1
            except DianliError:
                pass
        return done

    _resolve.cache_clear()
    t0 = time.perf_counter()
    done = run_warm()
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    run_warm()
    warm = time.perf_counter() - t0

    sample = pairs[: max(1, len(pairs) // 10)]
    t0 = time.perf_counter()
    for rite_id, place in sample:
        try:
            resolve_with(read_all(), rite_id, place, YEAR, place.witness)
        except DianliError:
            pass
    baseline_each = (time.perf_counter() - t0) / len(sample)
    print(f"{len(pairs)} rite×place pairs ({done} performed there) for {YEAR}")
    print(
        f"first pass (uncached resolution, YAML read once): {first:.3f}s  = {first / len(pairs) * 1e3:.2f} ms/pair"
    )
    print(
        f"warm (cached):                                    {warm:.4f}s = {warm / len(pairs) * 1e6:.1f} µs/pair"
    )
    print(f"baseline (re-read + re-validate YAML each time):  {baseline_each * 1e3:.1f} ms/pair")
    print(
        f"ratio baseline/first-pass: {baseline_each / (first / len(pairs)):.0f}×; baseline/warm: {baseline_each / (warm / len(pairs)):.0f}×"
    )


if __name__ == "__main__":
    main()
