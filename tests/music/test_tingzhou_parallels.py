"""汀州府志 卷十一 (tingzhou-fuzhi-11) as a further witness of the cue rules, instruments and 歌口譜:
its words that agree with 001 are parallels of the same entries (cues.yaml, instruments.yaml, pitch.yaml)."""

from __future__ import annotations

import pytest

from dianli.comparison.coverage import clause_coverage
from dianli.corpus.cite import resolve
from dianli.music.cues import cues_data
from dianli.music.pitch import gekoupu_cites

W = "tingzhou-fuzhi-11"


def _rule(rule_id: str):  # type: ignore[no-untyped-def]
    (rule,) = [r for r in cues_data().rules if r.id == rule_id]
    return rule


@pytest.mark.parametrize(
    ("rule_id", "quote"),
    [
        ("tuogu_warning_open", "先击三百六十数，以警戒"),
        ("tuogu_qigu_open", "初起扎扎鼕扎扎鼕扎扎鼕鼕"),
        ("tuogu_tong1_open", "第一通鼓鼕鼓鼕鼓鼕"),
    ],
)
def test_cue_rules_cite_tingzhou_as_a_parallel(rule_id: str, quote: str) -> None:
    rule = _rule(rule_id)
    assert quote in [c.quote for c in rule.parallels if c.witness == W]
    # the same words as the rule's 001 citation, on the folding key
    assert any(c.witness == "taiwan-fuzhi-9" for c in rule.cite)


def test_gekoupu_has_tingzhous_words() -> None:
    ours = [c for c in gekoupu_cites() if c.witness == W]
    assert len(ours) == 8
    assert all(resolve(W, c.quote, c.section).section.id == "yue.gekoupu" for c in ours)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("section", "at_least"),
    [
        ("yue.tuogu", 16),
        ("yue.cues", 33),
        ("yue.gekoupu", 11),
        ("yue.xianggu", 4),
        ("yue.jingjie", 7),
        ("yue.yuedi", 19),
    ],
)
def test_tingzhou_yue_sections_are_covered(section: str, at_least: int) -> None:
    items = [c for c in clause_coverage(W) if c.clause.section == section]
    assert sum(1 for c in items if c.covered_by is not None) >= at_least
