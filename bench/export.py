"""Benchmark: ``dianli export`` — the whole model as a data package, phase by phase, cold.

Times each group of tables as the export builds it (in one process, so the first phase pays for loading
the model), writing both formats, and checking the package: dianli's own check against
``frictionless.validate`` (the baseline, where installed) on the same files. Printed: seconds per phase,
rows, bytes written, and the ratio of the two checks. Run: ``python bench/export.py [YEARS]``
(default the export's default, 1752; ``1750..1752`` for three years of calendars).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory

from dianli.opendata import tables as t
from dianli.opendata.check import check_package, frictionless_problems
from dianli.opendata.package import write_package


def _timed(label: str, func, *args):  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    value = func(*args)
    print(f"{label:<34} {time.perf_counter() - started:7.2f} s")
    return value


def main() -> None:
    years = t.parse_years(sys.argv[1]) if len(sys.argv) > 1 else t.DEFAULT_YEARS
    started = time.perf_counter()
    readings = _timed("readings, steps, offerings, tablets", t.reading_tables)
    rows = {
        "witnesses": _timed("witnesses", t.witness_rows),
        "governs": t.governs_rows(),
        "places": _timed("places and periods", t.place_rows),
        "place_periods": t.place_period_rows(),
        "rites": _timed("rites", t.rite_rows),
        "readings": readings.readings,
        "steps": readings.steps,
        "offerings": readings.offerings,
        "tablets": readings.tablets,
        "observance_rules": _timed("observance rules", t.observance_rule_rows),
        "observances": _timed(
            f"observances of {sys.argv[1] if len(sys.argv) > 1 else '1752'}", t.observance_rows, years
        ),
        "variants": _timed("variants", t.variant_rows),
        "citations": _timed("citations", t.citation_rows),
    }
    built = t.Tables(rows, years)
    print(f"{'built':<34} {time.perf_counter() - started:7.2f} s, {sum(built.counts().values())} rows")
    with TemporaryDirectory() as tmp:
        for fmt in ("csv", "json"):
            path = _timed(f"write {fmt}", write_package, built, Path(tmp) / fmt, fmt)
            size = sum(p.stat().st_size for p in path.parent.rglob("*") if p.is_file())
            print(f"{'':<34} {size / 1e6:7.2f} MB")
            ours_started = time.perf_counter()
            assert check_package(path) == []
            ours = time.perf_counter() - ours_started
            theirs_started = time.perf_counter()
            problems = frictionless_problems(path)
            theirs = time.perf_counter() - theirs_started
            print(f"{'check ' + fmt + ' (dianli)':<34} {ours:7.2f} s")
            if problems is None:
                print(f"{'check ' + fmt + ' (frictionless)':<34} not installed")
            else:
                assert problems == [], problems
                print(
                    f"{'check ' + fmt + ' (frictionless)':<34} {theirs:7.2f} s  ({theirs / ours:.1f}× dianli's)"
                )


if __name__ == "__main__":
    main()
