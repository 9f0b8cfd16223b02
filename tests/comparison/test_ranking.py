"""The rules ranked by how much the witnesses contradict each other (dianli.comparison.ranking)."""

from __future__ import annotations

import pytest

from dianli.comparison.compare import compare
from dianli.comparison.ranking import era_of, rank, ranked


@pytest.mark.parametrize(
    ("year", "era"),
    [
        (1752, "乾隆"),  # a Qing year: the reign alone
        (1644, "順治"),  # shared with 崇禎 and the Southern Ming: the table's first dynasty
        (1490, "明·弘治"),  # 八閩通志's year: a Ming era, named with its dynasty
        (1182, "宋·淳熙"),  # 淳熙三山志's
        (1893, "光緒"),
    ],
)
def test_the_era_of_a_year_comes_from_the_era_table(year: int, era: str) -> None:
    assert era_of(year) == era


def test_only_contradictions_are_ranked_most_varied_first() -> None:
    found = ranked()
    assert found, "the corpus has rules on which witnesses contradict each other"
    assert all(r.row.verdict == "differs" for r in found)
    keys = [(-r.disagreement, -r.witnesses) for r in found]
    assert keys == sorted(keys)
    assert all(0 < r.disagreement <= 1 for r in found)


def test_the_shanchuan_days_differ_between_places_within_one_reign() -> None:
    found = {r.label: r for r in ranked(kind="date_rule")}
    shanchuan = next(r for label, r in found.items() if label.startswith("祭山川禮·祭期"))
    values = {v for reading in shanchuan.readings for v in reading.values}
    assert {"二月上巳", "二月上戊"} <= values  # the prefectures and counties against 晉江縣志
    jinjiang = next(r for r in shanchuan.readings if "二月上戊" in r.values)
    assert [h.title for h in jinjiang.holders] == ["晉江縣志"]
    assert [e.quote for e in jinjiang.evidence] == [
        "每岁颁行祭费银十两正，于春秋二仲月上戊日致祭。帛一，白瓷爵二十"
    ]
    text = shanchuan.sentence()
    assert "晉江縣志 (道光 1830, 晉江縣)" in text and "諸羅縣志 卷四 (康熙 1717, 諸羅縣)" in text
    # the disagreement is the share of contradicting pairs: 8 witnesses, 1 + 1 of them apart from the rest
    # (晉江 and 噶瑪蘭 against the 6 of 上巳 and each other): (6 + 6 + 1) / 28
    assert shanchuan.disagreement == pytest.approx(13 / 28)


def test_translations_are_not_counted() -> None:
    for r in ranked():
        titles = {h.witness for reading in r.readings for h in reading.holders}
        assert "fujian-tongzhi-14-modern" not in titles


def test_a_row_of_one_voice_is_not_ranked() -> None:
    agreeing = [row for row in compare(verdict="wording")]
    assert agreeing and all(rank(row) is None for row in agreeing[:20])


def test_each_record_carries_its_evidence_and_sentence() -> None:
    record = ranked(kind="date_rule")[0].record()
    assert record["sentence"].startswith(record["rule"])
    assert record["evidence"] and all(e["quote"] and e["title"] for e in record["evidence"])
    assert record["readings"] >= 2 and record["witnesses"] >= 2
