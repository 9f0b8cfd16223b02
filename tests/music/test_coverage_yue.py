"""The 祀先師樂 sections (yue.*) reach the coverage target in every witness that holds them."""

from __future__ import annotations

import pytest

from dianli.comparison.coverage import TARGET_PERCENT, clause_coverage, section_figures

YUE_WITNESSES = ("taiwan-fuzhi-9", "fujian-tongzhi-14", "fujian-tongzhi-14-modern", "tingzhou-fuzhi")


@pytest.mark.parametrize("witness", YUE_WITNESSES)
def test_yue_reaches_target(witness: str) -> None:
    (figure,) = [f for f in section_figures(witness) if f.section == "yue"]
    uncovered = [
        c.clause.text
        for c in clause_coverage(witness)
        if c.clause.section.startswith("yue") and not c.covered_by
    ]
    assert figure.percent >= TARGET_PERCENT, uncovered[:10]


@pytest.mark.parametrize("witness", YUE_WITNESSES)
def test_most_of_yue_is_cited_not_marked(witness: str) -> None:
    """Marks are for headings, history and commentary only: most clauses are modelled data."""
    marks = [c for c in clause_coverage(witness) if c.clause.section.startswith("yue") and c.covered_by]
    cited = sum(1 for c in marks if c.covered_by == "cited")
    assert cited / len(marks) >= 0.8
