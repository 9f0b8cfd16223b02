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
]


@pytest.mark.parametrize(("witness", "rite", "kind", "value"), FOUND)
def test_text_facts(witness: str, rite: str, kind: str, value: str) -> None:
    found = {(f.rite, f.value.kind, f.value.text) for f in text_facts(witness)}
    assert (rite, kind, value) in found


def test_a_witness_is_read_without_its_own_curation() -> None:
    """The sections' rites are learnt from the other witnesses: a section only one witness has is unknown."""
    for witness in ("jinmen-zhi-4", "taiwan-fuzhi-9"):
        others = {s.section for s in table() if s.witness != witness}
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
