"""comparison.values: facts read from running text and from rite data, written as the witnesses write them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dianli.calendar.date_rules import (
    BranchDayAfterTerm,
    BranchDayOfMonth,
    LunarDay,
    MonthlyDays,
    SolarTermRule,
    StemDayOfMonth,
)
from dianli.comparison.values import KINDS, facts_in, rule_text, same_value

TEXTS = [
    # (clause, kind, values) — the clauses are of the kinds the corpus witnesses write
    ("春、秋二仲月上丁日致祭", "date_rule", ["二月上丁", "八月上丁"]),
    ("每歲春秋仲月上戊日", "date_rule", ["二月上戊", "八月上戊"]),
    ("祭於二月上巳", "date_rule", ["二月上巳"]),
    ("祭以春、秋二仲上已之日", "date_rule", ["二月上巳", "八月上巳"]),  # 已 for 巳
    ("仲春上丁", "date_rule", ["二月上丁"]),
    ("霜降前一日祭旗纛", "date_rule", ["霜降前一日"]),
    ("春祭清明日、秋祭七月十五日、冬祭十月初一日", "date_rule", ["清明", "七月十五日", "十月初一日"]),
    ("每岁清明、中元、十月朔，凡三祭", "date_rule", ["清明", "十月初一日", "七月十五日"]),
    ("厉坛以寒食、中元二节及十月朔日", "date_rule", ["十月初一日", "七月十五日", "清明前一日"]),
    ("每月朔望行香", "date_rule", ["每月朔、望"]),
    ("冬至後辰日", "date_rule", ["冬至後辰日"]),
    ("樂奏咸和之曲", "hymn", ["咸和"]),
    ("唱：『樂奉咸平之章』", "hymn", ["咸平"]),
    ("乐奏宁平之章", "hymn", ["宁平"]),
    ("行三跪九叩頭禮", "posture", ["三跪九叩"]),
    ("一跪三叩，興", "posture", ["一跪三叩"]),
    ("眾官皆再拜", "posture", ["再拜"]),
    ("行初獻禮、亞獻禮、終獻禮", "rounds", ["初獻", "亞獻", "終獻"]),
    ("麾生舉麾，樂作", "date_rule", []),
    ("在大成殿之後", "hymn", []),
]


@pytest.mark.parametrize(("text", "kind", "values"), TEXTS)
def test_facts_in_text(text: str, kind: str, values: list[str]) -> None:
    assert [v.text for v in facts_in(text) if v.kind == kind] == values


RULES = [
    (StemDayOfMonth(kind="stem_day_of_month", month=2, stem="丁"), "二月上丁"),
    (StemDayOfMonth(kind="stem_day_of_month", month=8, stem="戊", nth=2), "八月中戊"),
    (BranchDayOfMonth(kind="branch_day_of_month", month=2, branch="巳"), "二月上巳"),
    (SolarTermRule(kind="solar_term", term="霜降", days_before=1), "霜降前一日"),
    (SolarTermRule(kind="solar_term", term="清明"), "清明"),
    (BranchDayAfterTerm(kind="branch_day_after_term", term="冬至", branch="辰"), "冬至後辰日"),
    (LunarDay(kind="lunar_day", month=10, day=1), "十月初一日"),
    (LunarDay(kind="lunar_day", month=1, day=15), "正月十五日"),
    (LunarDay(kind="lunar_day", month=7, day=15), "七月十五日"),
    (MonthlyDays(kind="monthly", days=(1, 15)), "每月朔、望"),
]


@pytest.mark.parametrize(("rule", "words"), RULES)
def test_rule_text(rule: object, words: str) -> None:
    assert rule_text(rule) == words


READ_BACK = [(r, w) for r, w in RULES if not w.startswith("每月") and "中" not in w]
"""朔望 and 中 days are written, but a bare 「每月朔、望」 or 「八月中戊」 is not read back (no witness writes so)."""


@pytest.mark.parametrize(("rule", "words"), READ_BACK)
def test_a_rule_read_back_from_its_own_words(rule: object, words: str) -> None:
    """The reader of text and the writer of rules speak one language: a rule's words read back as it."""
    found = [v.text for v in facts_in(words) if v.kind == "date_rule"]
    assert any(same_value(f, words) for f in found), found


def test_every_kind_has_words() -> None:
    assert all(k.label and k.described for k in KINDS.values())


@given(st.text(max_size=60))
def test_any_text_is_read_without_error(text: str) -> None:
    for value in facts_in(text):
        assert value.kind in KINDS and value.text
