"""A reader's judgement of 50 clauses the aligner leaves *new*: each true *new* stays new (nothing the model
lacks is matched to it by accident), each still resolves in its witness, and the share of noise is what the
docs report."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
import yaml

from dianli.comparison.align import Alignment, align
from dianli.corpus.normalise import fold

SAMPLE = yaml.safe_load((Path(__file__).parent / "golden" / "new_sample.yaml").read_text(encoding="utf-8"))[
    "clauses"
]


@functools.cache
def _aligned(witness: str) -> Alignment:
    return align(witness)


def _kind(entry: dict[str, object]) -> str:
    found = [
        a.kind
        for a in _aligned(str(entry["witness"])).clauses
        if a.clause.section == entry["section"] and fold(a.clause.text) == fold(str(entry["quote"]))
    ]
    assert found, f"{entry['quote']!r} is no longer a clause of {entry['witness']} ({entry['section']})"
    return found[0]


@pytest.mark.parametrize("entry", [e for e in SAMPLE if not e["noise"]], ids=lambda e: e["quote"][:12])
def test_a_true_new_clause_stays_new(entry: dict[str, object]) -> None:
    assert entry["reason"] and _kind(entry) == "new"


def test_the_share_of_noise_is_the_one_reported() -> None:
    assert len(SAMPLE) == 50 and all(e["reason"] for e in SAMPLE)
    assert sum(e["noise"] for e in SAMPLE) == 3  # 6%, as docs/explanation/alignment.md says
