"""Benchmark: how many of the clauses the aligner leaves *new* a reader would call noise.

The sample: 50 clauses drawn with a fixed seed from every clause of 4 characters or more that ``dianli
align`` leaves *new* in the gazetteers curated by hand (the witnesses with readings of their own), each
judged by a reader in ``tests/comparison/golden/new_sample.yaml``: noise (it should have matched the
model, or it is a clause cut in two) or a true *new* (history, commentary, a location, or procedure no
other witness states), with the reason. ``tests/comparison/test_new_sample.py`` keeps every true *new*
new.

Printed: how many clauses are left new, the share of noise in the sample against its target (at most
10%), and whether the judged sample is still the
one the seed draws from today's clauses (after a change to the segmentation or the model it is not: draw
again with ``python bench/new_sample.py draw`` and judge the clauses that are new to it).
Run: ``python bench/new_sample.py``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import yaml

from dianli.comparison.align import EXCLUDED_SECTIONS, align
from dianli.corpus.clauses import Clause
from dianli.corpus.normalise import is_key_char
from dianli.corpus.witnesses import witness_ids, witness_info

SEED = 25
SIZE = 50
MIN_CHARS = 4
TARGET = 0.10
GOLDEN = Path(__file__).parents[1] / "tests" / "comparison" / "golden" / "new_sample.yaml"


def curated() -> list[str]:
    """The witnesses curated by hand: those with readings of their own."""
    return [w for w in witness_ids() if (witness_info(w).folder / "readings").is_dir()]


def population() -> list[tuple[str, str, str]]:
    """(witness, section, text) of every clause left *new*, in witness and text order."""
    return [
        (witness, a.clause.section, a.clause.text.strip())
        for witness in curated()
        for a in align(witness).clauses
        if a.kind == "new" and _counted(a.clause)
    ]


def _counted(clause: Clause) -> bool:
    """A clause outside the title and colophon, of at least :data:`MIN_CHARS` characters."""
    if clause.section.split(".")[0] in EXCLUDED_SECTIONS:
        return False
    return sum(is_key_char(ch) for ch in clause.text) >= MIN_CHARS


def draw() -> list[tuple[str, str, str]]:
    return random.Random(SEED).sample(population(), SIZE)


def main() -> None:
    everyone = population()
    total = sum(1 for w in curated() for a in align(w).clauses if _counted(a.clause))
    share_new = len(everyone) / total
    print(f"clauses of {MIN_CHARS}+ characters left new: {len(everyone):,} of {total:,} ({share_new:.0%})")
    judged = yaml.safe_load(GOLDEN.read_text(encoding="utf-8"))["clauses"]
    noise = sum(bool(e["noise"]) for e in judged)
    share = noise / len(judged)
    print(f"a sample of {len(judged)} of them: {noise} noise ({share:.0%}; target at most {TARGET:.0%})")
    drawn = {(w, s, t) for w, s, t in random.Random(SEED).sample(everyone, SIZE)}
    kept = {(e["witness"], e["section"], e["quote"]) for e in judged}
    stale = len(kept - drawn)
    print(
        "the judged sample is today's draw"
        if not stale
        else f"{stale} judged clauses are not in today's draw: draw again (python bench/new_sample.py draw)"
    )


def print_draw() -> None:
    """Today's draw as the golden's entries, the judgements of clauses judged before kept."""
    before = {
        (e["witness"], e["section"], e["quote"]): e
        for e in yaml.safe_load(GOLDEN.read_text(encoding="utf-8"))["clauses"]
    }
    entries = []
    for witness, section, text in draw():
        old = before.get((witness, section, text), {})
        entries.append(
            {
                "witness": witness,
                "section": section,
                "quote": text,
                "noise": old.get("noise"),
                "reason": old.get("reason", ""),
            }
        )
    print(yaml.safe_dump({"clauses": entries}, allow_unicode=True, sort_keys=False, width=110))


if __name__ == "__main__":
    print_draw() if sys.argv[1:] == ["draw"] else main()
