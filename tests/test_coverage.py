"""Coverage of the witnesses' ritual sections by cited data (target: 95% per witness and section)."""

from __future__ import annotations

import pytest

from dianli.corpus.witnesses import witness_ids
from dianli.coverage import TARGET_PERCENT, below_target, clause_coverage, not_procedural, section_figures

# Switched on once every witness reaches the target (see the issue); until then the figures are reported.
TARGET_ENFORCED = False


@pytest.mark.parametrize("witness", witness_ids())
def test_figures_are_consistent(witness: str) -> None:
    items = clause_coverage(witness)
    figures = section_figures(witness)
    assert sum(f.total for f in figures) == len(items)
    assert all(0 <= f.covered <= f.total for f in figures)


def test_every_not_procedural_mark_has_a_reason() -> None:
    assert all(reason.strip() for marks in not_procedural().values() for _, _, reason in marks)


@pytest.mark.skipif(
    not TARGET_ENFORCED, reason="coverage below target; figures reported by `dianli coverage`"
)
@pytest.mark.parametrize("witness", witness_ids())
def test_coverage_target(witness: str) -> None:
    assert not below_target(witness), f"sections below {TARGET_PERCENT}%"
