"""comparison.facts: a witness's facts read from its text alone, and the leave-one-out measure."""

from __future__ import annotations

import pytest

from dianli.comparison.facts import (
    READ_KINDS,
    curated_witnesses,
    hand_facts,
    leave_one_out,
    section_rites,
    text_facts,
)
from dianli.comparison.table import table

FOUND = [
    # (witness, rite, kind, value) read from the text with the witness's own curation left out
    ("jinjiang-xianzhi-15", "shanchuan", "date_rule", "二月上戊"),
    ("gemalan-tingzhi-3", "litan", "date_rule", "清明前一日"),  # 「寒食」
    ("taiwan-xianzhi-6", "xianshi", "hymn", "咸和"),
    ("taiwan-fuzhi-9", "xianshi", "rounds", "亞獻"),
    # 「廟祭於春、秋二仲，與釋奠同日」: the 啟聖祠 takes the days the chapter gives 釋奠
    ("zhuluo-xianzhi-4", "chongsheng", "date_rule", "二月上丁"),
    # 「文廟祭畢」, 「次祭名宦祠次祭鄉賢祠」: held in turn, they take the days of 文廟
    ("fujian-tongzhi-14", "minghuan", "date_rule", "八月上丁"),
    ("fujian-tongzhi-14", "xiangxian", "date_rule", "二月上丁"),
    # 「文廟祭畢乃祭」 then 「常公祠…」: the rite named at the start of the next clause
    ("fujian-tongzhi-14", "changgong", "date_rule", "二月上丁"),
    # 「文廟祭畢，乃祭名宦祠」 in a chapter that gives 文廟 no day: the day the other witnesses give it
    ("tingzhou-fuzhi", "minghuan", "date_rule", "二月上丁"),
    # 「進表儀注：…每於二月前」 in a 慶賀 section: filed under the rite the other witnesses give that day
    ("taiwan-fuzhi-9", "qinghe", "date_rule", "萬壽聖節前二月"),
    # 「文廟祭畢，乃祭朱文公祠…次祭名宦祠、次祭鄉賢祠…迎神、送神，俱一跪三叩」: each shrine held in turn
    ("taiwan-fuzhi-9", "xiangxian", "posture", "一跪三叩"),
    ("taiwan-fuzhi-9", "zhuwengong", "posture", "一跪三叩"),
    # 「凡祭文廟，必先崇聖祠」
    ("taiwan-fuzhi-9", "chongsheng", "date_rule", "二月上丁"),
    # a clause that opens with the rite it is about: 「火神以六月下旬三日」 in the 救護 section
    ("gemalan-tingzhi-3", "huoshen", "date_rule", "六月二十三日"),
    ("gemalan-tingzhi-3", "guandi", "date_rule", "五月十三日"),
]

NOT_FOUND = [
    # (witness, rite, kind, value) the text names but that are no rule of the rite
    ("chongxiu-fengshan-xianzhi-5", "qidao", "date_rule", "惊蛰"),  # 「明洪武元年…祭以春驚蟄」: the Ming's
    ("taiwan-fuzhi-9", "qidao", "date_rule", "霜降前一日"),  # 迎請旗纛 the day before 霜降: a preparation
    ("gemalan-tingzhi-3", "jiuhu", "date_rule", "十月初一日"),  # 「厲壇以…十月朔日」 in the 救護 section
    ("taiwan-fuzhi-9", "qinghe", "date_rule", "冬至"),  # 「…冬至表式」: a document's title
    ("taiwan-fuzhi-9", "qinghe", "date_rule", "正月初一日"),  # 「…元旦、冬至表式」 after another clause
    ("taiwan-fuzhi-9", "yingchun", "date_rule", "立春"),  # 「罨耳，用立春時為法」: a measure
    # 「祭崇聖祠畢，文廟中鼓初嚴」 in a chapter that states no day of either: the corpus's days of the rite
    # named first pass to the one after it, never back
    ("tingzhou-fuzhi", "chongsheng", "date_rule", "二月上丁"),
]


@pytest.mark.parametrize(("witness", "rite", "kind", "value"), NOT_FOUND)
def test_text_facts_leave_out(witness: str, rite: str, kind: str, value: str) -> None:
    found = {(f.rite, f.value.kind, f.value.text) for f in text_facts(witness)}
    assert (rite, kind, value) not in found


@pytest.mark.parametrize(("witness", "rite", "kind", "value"), FOUND)
def test_text_facts(witness: str, rite: str, kind: str, value: str) -> None:
    found = {(f.rite, f.value.kind, f.value.text) for f in text_facts(witness)}
    assert (rite, kind, value) in found


def test_a_witness_is_read_without_its_own_curation() -> None:
    """The sections' rites are learnt from the other witnesses' statements of a rite (the music, the dance,
    the spring ox are no rite): a section only one witness has is unknown."""
    for witness in ("jinmen-zhi-4", "taiwan-fuzhi-9"):
        others = {s.section for s in table() if s.witness != witness and s.rite}
        assert set(section_rites(table(), witness)) == others


def test_leave_one_out_counts_real_overlaps() -> None:
    scores = leave_one_out("jinjiang-xianzhi-15")
    assert set(scores) == set(READ_KINDS)
    dates = scores["date_rule"]
    hand = {t for t in hand_facts("jinjiang-xianzhi-15") if t[1] == "date_rule"}
    assert dates.hand == len(hand) and 0 < dates.both <= min(dates.found, dates.hand)
    assert 0 < dates.precision <= 1 and 0 < dates.recall <= 1


def test_curated_witnesses_are_the_gold_standard() -> None:
    assert "taiwan-fuzhi-9" in curated_witnesses() and len(curated_witnesses()) >= 11
