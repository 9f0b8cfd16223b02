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
from dianli.comparison.values import (
    KINDS,
    element_values,
    facts_in,
    override_facts,
    rite_hymns,
    rule_text,
    same_value,
)

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
    ("每月朔望宣講", "date_rule", ["每月朔、望"]),
    ("朔、望俱行香", "date_rule", []),  # the fortnightly incense, not a rite's day
    ("每月朔旦行釋菜禮", "date_rule", ["每月朔"]),
    ("每月初一、十五日", "date_rule", ["每月朔、望"]),
    ("每岁仲春辛日致祭", "date_rule", ["二月上辛"]),  # a season's month and a stem: its first
    ("春秋二仲丁祭畢", "date_rule", ["二月上丁", "八月上丁"]),
    ("季秋上戊", "date_rule", ["九月上戊"]),
    ("孟冬朔日", "date_rule", ["十月初一日"]),
    ("火神以六月下旬三日", "date_rule", ["六月二十三日"]),
    ("關帝又於五月旬有三日", "date_rule", ["五月十三日"]),
    ("先立春一日，正官率屬", "date_rule", ["立春前一日"]),
    ("選在冬至節後的辰日", "date_rule", ["冬至後辰日"]),
    ("納音：如甲子年立春", "date_rule", []),  # a year's term: an example, not a day
    ("每歲霜降前一日迎請旗纛…至霜降日五鼓", "date_rule", ["霜降"]),  # the day before: its preparation
    ("凡日月薄蝕，行救護禮", "date_rule", ["日月食之日"]),
    ("凡遇萬壽聖節、元旦、冬至", "date_rule", ["冬至", "正月初一日", "萬壽聖節"]),
    ("上元張燈", "date_rule", ["正月十五日"]),
    # 「每於二月前」: the day so many months before each festival named
    (
        "凡遇萬壽聖節、元旦、冬至，每於二月前涓吉拜進賀表",
        "date_rule",
        ["冬至前二月", "正月初一日前二月", "萬壽聖節前二月"],
    ),
    ("老少，以立春年為法", "date_rule", []),  # the year a term falls in: a measure, not a day
    ("以立春所在年份為依據", "date_rule", []),
    ("鞋、褲、行纏，以立春納音為法", "date_rule", []),
    ("老少，以立春為法", "date_rule", []),
    ("皇上萬壽、元旦、冬至表式", "date_rule", []),  # a document's title, not a day
    ("罨耳，用立春時為法", "date_rule", []),  # the term's hour as a measure
    ("遮耳方式以立春时辰为依据", "date_rule", []),
    ("芒神服色用立春日支辰受克為衣色", "date_rule", []),  # the term's day's branch or stem as a measure
    ("以立春當日的日干決定籠頭的顏色", "date_rule", []),
    ("籠頭、构、索：以立春日日干為籠頭色", "date_rule", []),
    ("如立春子日屬水，衣取土剋水", "date_rule", []),
    ("立春日，各官執綵杖", "date_rule", ["立春"]),
    ("跪，叩首、叩首、叩首，起身", "posture", ["一跪三叩"]),
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


def test_a_note_takes_its_months_from_the_clause_it_annotates() -> None:
    note = "今郡縣多用上巳日"
    assert [v.text for v in facts_in(note) if v.kind == "date_rule"] == []
    read = facts_in(note, context="每春秋二祭俱於仲月上旬擇日行禮")
    assert [v.text for v in read if v.kind == "date_rule"] == ["二月上巳", "八月上巳"]


def test_a_document_title_is_no_day_after_a_context() -> None:
    # the clause before moves the clause's own words along: a festival's title is found where it stands
    read = facts_in("皇上萬壽、元旦、冬至表式", context="並一應慶賀表箋，俱由內閣臨期撰擬")
    assert [v.text for v in read if v.kind == "date_rule"] == []


OVERRIDES = [
    # (override, hymns of the rite, facts): what an override puts in the steps it changes
    ({"replace_text": {"field": "all", "old": "寧平", "new": "安平"}}, {"寧平"}, [("hymn", "安平")]),
    ({"replace_text": {"field": "all", "old": "寧平", "new": "安平"}}, set(), []),  # 寧平 no hymn here
    ({"replace_text": {"field": "call", "old": "初獻", "new": "亞獻"}}, {"寧平"}, [("rounds", "亞獻")]),
    (
        {"replace_text": {"field": "all", "old": "一跪三叩", "new": "三跪九叩"}},
        set(),
        [("posture", "三跪九叩")],
    ),
    ({"replace_text": {"field": "all", "old": "望瘞", "new": "望燎"}}, {"咸平"}, []),
    ({"set": {"tag": "樂章", "field": "call", "value": "樂奏景平之章"}}, set(), [("hymn", "景平")]),
]


@pytest.mark.parametrize(("override", "hymns", "facts"), OVERRIDES)
def test_override_facts(override: dict[str, object], hymns: set[str], facts: list[tuple[str, str]]) -> None:
    from dianli.corpus.normalise import fold
    from dianli.rites.model import Override

    made = Override.model_validate({**override, "assumption": "a test override"})
    found = override_facts(made, frozenset(fold(h) for h in hymns))
    assert list(found) == facts


def test_the_hymns_of_a_rite_follow_its_overrides() -> None:
    """寧平 in the 初獻, 安平 and 景平 only by the 亞獻's and 終獻's overrides (「俱如前儀」 but the hymn)."""
    from dianli.corpus.normalise import fold

    assert {fold(h) for h in ("咸平", "寧平", "安平", "景平")} <= rite_hymns("xianshi")


STEPS = [
    # (step, facts): a step states its posture field and the round it calls
    ({"kind": "action", "posture": "三跪九叩"}, [("posture", "三跪九叩")]),
    ({"kind": "call", "call": "奠帛，行初獻禮"}, [("rounds", "初獻")]),
    ({"kind": "call", "call": "樂奏寧平之章"}, [("hymn", "寧平")]),
]


@pytest.mark.parametrize(("step", "facts"), STEPS)
def test_a_step_states(step: dict[str, object], facts: list[tuple[str, str]]) -> None:
    from dianli.rites.model import Step

    made = Step.model_validate({**step, "assumption": "a test step"})
    values = element_values("xianshi", "xianshi.parts[chuxian].steps[0]", made)
    assert [(v.kind, v.text) for v in values] == facts
    assert all(
        v.slot == ("xianshi.rounds" if v.kind == "rounds" else f"xianshi.parts[chuxian].{v.kind}")
        for v in values
    )


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


STATED = [
    # (value kind, value, quotation, stated): an aligned clause states a value only in its own words
    ("date_rule", "二月上丁", "每歲春秋二仲月上丁日致祭", True),
    ("date_rule", "二月上丁", "名宦祠", False),  # a bare heading agrees with the rite, states no day
    ("officiant", "知縣", "社稷壇", False),
    ("officiant", "知縣", "主祭官知縣", True),
    ("venue", "社稷壇", "社稷壇在縣西", True),
    ("posture", "三跪九叩", "行三跪九叩禮", True),
    ("posture", "三跪九叩", "興、平身", False),
    ("rounds", "初獻", "麾生舉麾", False),
    ("offering", "1", "羊一、豕一", True),  # numbers: written in the witness's own numerals, taken as stated
]


@pytest.mark.parametrize(("kind", "value", "quote", "stated"), STATED)
def test_quote_states(kind: str, value: str, quote: str, stated: bool) -> None:
    from dianli.comparison.values import Value, quote_states

    assert quote_states(Value(kind, "a.slot", value), quote) is stated
