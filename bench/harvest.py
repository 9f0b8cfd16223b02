"""Benchmark: ``dianli harvest`` — the ritual chapters it finds in whole works against what the curators took,
and witnesses per minute for harvest + ingest, with the estimate for 8,000 gazetteers on 64 cores.

Extent. The works of ``sources/guwen`` are the pages four curated witnesses were transcribed from, with each
work's page 1 (its table of contents). Each is harvested with that witness's own manifest left out of the
headings and its own quotations out of the vocabulary (:func:`dianli.corpus.harvest.build_lexicon`), and
compared on the folding key with the curated text: recall (characters of the curated chapter harvested)
and precision (harvested characters the curator took), per work and over all. Baseline, in the same run:
taking whole pages — every page that holds curated text, whole (what a reader who knows only which pages
to read would take).

Speed. harvest + drafting + ingest of the four works on 1 and on 2 local worker processes (``dianli
harvest DIR -o OUT`` then ``dianli ingest OUT --drafts D``): wall time, witnesses per minute. From the same
run: harvest's cost per character and ingest's steady cost per witness (the aligner's time inside the
worker, the model's start-up apart), scaled to a whole gazetteer of the mean size of these four works
(their page counts times the mean characters of the pages read), give the estimate for 8,000 gazetteers on
64 cores (each worker pays the start-up once). The estimate is for today's model and for pages like these.
Run: ``python bench/harvest.py``.
"""

from __future__ import annotations

import datetime
import tempfile
import time
from pathlib import Path

from dianli.comparison.ingest import draft_corpus, ingest
from dianli.corpus import harvest
from dianli.corpus.draft import read_header

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "sources" / "guwen"
WITNESSES = ROOT / "src" / "dianli" / "corpus" / "witnesses"
CURATED = {
    "金门志": "jinmen-zhi-4",
    "澎湖厅志": "penghu-tingzhi-2",
    "苗栗县志": "miaoli-xianzhi-10",
    "晋江县志道光本": "jinjiang-xianzhi-15",
}
MEASURED_SOURCES = [SOURCES / title for title in CURATED]
"""The pages of the four curated works (sources/guwen holds other works too, harvested but not curated)."""
TARGET_RECALL = 0.90
TARGET_PRECISION = 0.85
GAZETTEERS = 8_000
CORES = 64


def _cell(text: str, width: int) -> str:
    """``text`` padded to ``width`` display columns (a CJK character is two)."""
    import unicodedata

    shown = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    return text + " " * max(0, width - shown)


def _curated(witness: str) -> str:
    text = next((WITNESSES / witness).glob("*.txt")).read_text(encoding="utf-8")
    return text[read_header(text).body_start :]


def _whole_pages(result: harvest.Harvest, curated: str) -> harvest.Extent:
    """The baseline: every page that holds curated text, taken whole."""
    from bisect import bisect_left

    _, where = harvest._keyed(result.work.text)
    wanted = harvest.curated_positions(result.work.text, curated)
    taken: set[int] = set()
    for page in result.work.pages:
        span = range(bisect_left(where, page.start), bisect_left(where, page.end))
        if wanted.intersection(span):
            taken.update(span)
    return harvest.Extent(len(wanted), len(taken), len(wanted & taken))


def extent() -> None:
    print("extent: harvested against curated (folding key; each witness's own data left out)")
    print(f"{'work':<16}{'curated':>8}{'taken':>8}{'recall':>8}{'precision':>10}   baseline: whole pages")
    totals = [0, 0, 0]
    base = [0, 0, 0]
    for work in harvest.load_works(MEASURED_SOURCES):
        witness = CURATED[work.title]
        result = harvest.harvest_work(work, harvest.build_lexicon(witness))
        ours = harvest.measure(result, _curated(witness))
        theirs = _whole_pages(result, _curated(witness))
        for acc, e in ((totals, ours), (base, theirs)):
            acc[0] += e.curated
            acc[1] += e.harvested
            acc[2] += e.both
        print(
            f"{_cell(work.title, 16)}{ours.curated:>8}{ours.harvested:>8}{ours.recall:>8.2f}{ours.precision:>10.2f}"
            f"   recall {theirs.recall:.2f} precision {theirs.precision:.2f}"
        )
    ours_all = harvest.Extent(*totals)
    base_all = harvest.Extent(*base)
    print(
        f"{'overall':<16}{ours_all.curated:>8}{ours_all.harvested:>8}{ours_all.recall:>8.2f}"
        f"{ours_all.precision:>10.2f}   recall {base_all.recall:.2f} precision {base_all.precision:.2f}"
    )
    print(
        f"precision {ours_all.precision / base_all.precision:.1f}× the whole pages' at "
        f"{ours_all.recall / base_all.recall:.2f} of their recall; targets recall ≥ {TARGET_RECALL}, "
        f"precision ≥ {TARGET_PRECISION}: "
        + (
            "met"
            if ours_all.recall >= TARGET_RECALL and ours_all.precision >= TARGET_PRECISION
            else "NOT met"
        )
    )


def speed() -> None:
    works = harvest.load_works(MEASURED_SOURCES)
    characters = sum(len("".join(w.text.split())) for w in works)
    read_pages = [p for w in works for p in w.pages if p.number > 1]
    chars_per_page = sum(p.end - p.start for p in read_pages) / len(read_pages)
    mean_chars = chars_per_page * sum(w.total_pages for w in works) / len(works)
    print(f"\nspeed: harvest + draft + ingest of {len(works)} works ({characters:,} characters of pages)")
    per_char = per_witness = startup = 0.0
    for workers in (1, 2):
        with tempfile.TemporaryDirectory() as scratch:
            out, drafts = Path(scratch) / "harvested", Path(scratch) / "drafts"
            start = time.perf_counter()
            run = harvest.harvest_sources(MEASURED_SOURCES, workers=workers, today=datetime.date.today())
            harvested = time.perf_counter() - start
            out.mkdir()
            for r in run.results:
                (out / r.name).write_text(r.text, encoding="utf-8")
            draft_corpus(out, drafts)
            drafted = time.perf_counter() - start - harvested
            ingested = ingest(drafts, workers=workers)
            wall = time.perf_counter() - start
        per_char = sum(r.seconds for r in run.results) / characters
        per_witness = sum(r.seconds for r in ingested.results) / len(ingested.results)
        startup = max(0.0, ingested.seconds * workers - sum(r.seconds for r in ingested.results)) / workers
        print(
            f"  {workers} worker(s): harvest {harvested:.1f} s, draft {drafted:.1f} s, ingest "
            f"{ingested.seconds:.1f} s — {wall:.1f} s, {len(works) / wall * 60:.1f} witnesses/minute "
            f"({ingested.clauses:,} clauses)"
        )
    gazetteer = per_char * mean_chars + per_witness
    estimate = GAZETTEERS * gazetteer / CORES + startup
    print(
        f"  measured: harvest {per_char * 1e6:.1f} s per million characters, ingest {per_witness:.2f} s per "
        f"witness, start-up {startup:.1f} s per worker"
    )
    print(
        f"  estimate: a gazetteer of {mean_chars:,.0f} characters (the mean of these works: their pages × "
        f"{chars_per_page:,.0f} characters a page) costs {gazetteer:.1f} core-seconds; {GAZETTEERS:,} on "
        f"{CORES} cores ≈ {estimate / 60:.0f} minutes"
    )


if __name__ == "__main__":
    extent()
    speed()
