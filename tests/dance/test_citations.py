"""Per-character citations: generated from the parse, checked, and covering the dance sections."""

from __future__ import annotations

import pytest

from dianli.comparison.coverage import clause_coverage
from dianli.dance.citations import committed, generate

SECTIONS = ("wupu", "yue.yuedi", "yue.jingjie", "yue.xianggu")
WITNESSES = ("fujian-tongzhi-14", "taiwan-fuzhi-9", "fujian-tongzhi-14-modern", "tingzhou-fuzhi-11")


def test_the_committed_citations_are_what_the_parser_generates() -> None:
    assert committed() == generate(), "run `python -m dianli.dance.citations` and commit the file"


@pytest.mark.parametrize("witness", WITNESSES)
@pytest.mark.parametrize("section", SECTIONS)
def test_coverage_of_the_dance_sections(witness: str, section: str) -> None:
    items = [
        c
        for c in clause_coverage(witness)
        if c.clause.section == section or c.clause.section.startswith(section + ".")
    ]
    assert items
    covered = sum(1 for c in items if c.covered_by is not None)
    assert 100 * covered / len(items) >= 95, [c.clause.text for c in items if c.covered_by is None]
