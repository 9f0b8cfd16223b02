"""Benchmark: drafted section anchors of the curated gazetteers against their hand anchors.

Each transcribed gazetteer of the corpus (a witness whose text opens with a ``SOURCE:`` header) is drafted
from its text alone, as ``dianli ingest --drafts`` drafts a new one, with its own manifest left out of the
heading lexicon (leave one out); the sections its drafted anchors open are compared with the curated ones,
clause by clause (the clauses as the curated sections cut them): the share of clauses put in the same
innermost section, and in the same rite (top-level section).

The baseline is the drafting as it stood before tables of contents and heading context were recognised
(every short line or colon head that holds a lexicon heading, first occurrence wins), copied below as
:func:`baseline_anchors` and measured in the same run.

    python bench/segment.py
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

from dianli.corpus.draft import Anchors, contents_lines, find_anchors, measure_sections, read_header
from dianli.corpus.normalise import fold
from dianli.corpus.tree import section_defs
from dianli.corpus.witnesses import load_witness, manifest

_NOTE = re.compile(r"[（(][^）)]*[）)]")
_SENTENCE_END = re.compile(r"(?<=[。！？])")


def _baseline_lexicon(leave_out: str | None) -> dict[str, tuple[str, ...]]:
    found: dict[str, dict[str, None]] = {}
    for section_id, definition in section_defs().items():
        found.setdefault(fold(definition.title), {})[section_id] = None
    for info in manifest():
        if info.id == leave_out:
            continue
        for section_id, anchor in info.anchors:
            heading = anchor.split("|", 1)[0].lstrip("…")
            if heading and heading != "=":
                found.setdefault(fold(heading), {})[section_id] = None
    return {k: tuple(v) for k, v in found.items() if k}


def _baseline_candidates(body: str) -> Iterator[str]:
    for line in body.splitlines():
        stripped = line.strip().strip("\u3000").strip()
        if not stripped:
            continue
        yield stripped
        for sentence in _SENTENCE_END.split(stripped):
            head, colon, _ = sentence.strip().partition("：")
            if colon:
                yield _NOTE.sub("", head).strip()


def baseline_anchors(text: str, leave_out: str | None = None) -> Anchors:
    """The drafting of anchors before this benchmark's work (HEADING_SLACK 3, MAX_HEADING 14)."""
    lexicon = _baseline_lexicon(leave_out)
    by_length = sorted(lexicon, key=len, reverse=True)
    anchors: list[tuple[str, str]] = []
    seen: set[str] = set()
    open_top: str | None = None
    for written in _baseline_candidates(text[read_header(text).body_start :]):
        key = fold(written)
        if not key or len(key) > 14:
            continue
        match = lexicon.get(key)
        if match is None:
            near = next((h for h in by_length if h in key and len(key) - len(h) <= 3), None)
            match = lexicon[near] if near is not None else None
        if match is None:
            continue
        inside = [c for c in match if open_top and c.startswith(open_top + ".")]
        tops = [c for c in match if "." not in c]
        section = (inside or tops or list(match))[0]
        if section in seen:
            continue
        seen.add(section)
        anchors.append((section, written))
        open_top = section.split(".")[0]
    return tuple(anchors)


def gazetteers() -> list[str]:
    """The curated witnesses drafted from a transcribed file (text with a SOURCE: header), by id."""
    found = []
    for info in manifest():
        first = (info.folder / info.files[0].file).read_text(encoding="utf-8")
        if read_header(first).body_start and info.anchors:
            found.append(info.id)
    return sorted(found)


def main() -> None:
    print("clauses in the same section as the hand anchors put them (innermost; rite = top level)")
    print(
        f"{'witness':28} {'clauses':>7} {'baseline':>9} {'now':>7} {'rite: base':>11} {'now':>6} {'toc':>4}"
    )
    totals = [0, 0, 0, 0, 0]
    t_base = t_now = 0.0
    for witness in gazetteers():
        t0 = time.perf_counter()
        base = measure_sections(witness, baseline_anchors)
        t1 = time.perf_counter()
        now = measure_sections(witness, find_anchors)
        t2 = time.perf_counter()
        t_base += t1 - t0
        t_now += t2 - t1
        print(
            f"{witness:28} {now.clauses:7} {base.share:9.1%} {now.share:7.1%} "
            f"{base.rite_share:11.1%} {now.rite_share:6.1%} {len(contents_lines(load_witness(witness).raw, witness)):4}"
        )
        for i, v in enumerate((now.clauses, base.same, now.same, base.same_rite, now.same_rite)):
            totals[i] += v
    n = totals[0]
    print(
        f"{'all (clause-weighted)':28} {n:7} {totals[1] / n:9.1%} {totals[2] / n:7.1%} "
        f"{totals[3] / n:11.1%} {totals[4] / n:6.1%}"
    )
    print(f"same innermost section: now / baseline = {totals[2] / max(totals[1], 1):.2f}")
    print(f"drafting + measuring time: baseline {t_base:.2f} s, now {t_now:.2f} s")
    print("toc: lines recognised as a table of contents (not sections)")


if __name__ == "__main__":
    main()
