"""Which witness governs a place in a year: from its date, through the unit's parents that year, until a
later witness takes over; the earliest stands in before any was written."""

from __future__ import annotations

import pytest

from dianli.corpus.labels import witness_label
from dianli.errors import DianliError
from dianli.places.governs import governance, governed_by, governing_witness


@pytest.mark.parametrize(
    ("place", "year", "witness", "unit", "stands_in"),
    [
        ("福州府", 1750, "fujian-tongzhi-14", "fujian", False),  # before its own 府志 (乾隆本, 1751)
        ("福州府", 1752, "fuzhou-fuzhi-qianlong-14", "fuzhou", False),
        ("閩縣", 1752, "fuzhou-fuzhi-qianlong-14", "fuzhou", False),  # a 附郭 county, through its prefecture
        ("泉州府", 1752, "fujian-tongzhi-14", "fujian", False),  # through its province
        ("晉江縣", 1829, "fujian-tongzhi-14", "fujian", False),  # a county, through 泉州府 and 福建
        ("晉江縣", 1830, "jinjiang-xianzhi-15", "jinjiang", False),  # until its own gazetteer (道光)
        ("鳳山縣", 1730, "fengshan-xianzhi-3", "fengshan", False),  # 鳳山縣志 (1720) governs it then
        ("鳳山縣", 1750, "taiwan-fuzhi-9", "fengshan", False),  # the 臺灣府志 (1742) takes over
        ("鳳山縣", 1770, "chongxiu-fengshan-xianzhi-5", "fengshan", False),  # 重修鳳山縣志 (1764)
        ("臺灣府", 1752, "taiwan-fuzhi-9", "taiwan-fu", False),
        ("彰化縣", 1752, "taiwan-fuzhi-9", "zhanghua", False),
        ("長汀縣", 1752, "tingzhou-fuzhi-11", "tingzhou", False),  # through its prefecture
        ("汀州府", 1745, "fujian-tongzhi-14", "fujian", False),  # before 汀州府志, the 通志 governs
        ("臺灣府", 1740, "fujian-tongzhi-14", "fujian", False),  # before 臺灣府志 (1742): the 通志 (1737)
        ("臺灣府", 1690, "taiwan-fuzhi-9", "taiwan-fu", True),  # before any: the nearest's earliest
        # before any witness: its own 府志 (1751) is the nearest
        ("福州府", 1700, "fuzhou-fuzhi-qianlong-14", "fuzhou", True),
        ("臺南府", 1890, "taiwan-fuzhi-9", "taiwan-fu", False),  # the renamed 臺灣府 keeps its gazetteer
    ],
)
def test_governance(place: str, year: int, witness: str, unit: str, stands_in: bool) -> None:
    found = governance(place, year)
    assert (found.witness, found.unit, found.stands_in) == (witness, unit, stands_in)
    assert governing_witness(place, year) == witness
    # the note is for readers: the witness by its short title, never its id (#14)
    assert witness_label(witness) in found.note and witness not in found.note and found.source


def test_the_translation_governs_nothing() -> None:
    assert governed_by("fujian-tongzhi-14-modern") == ()
    assert "taiwan-fu" in governed_by("taiwan-fuzhi-9")


def test_after_the_cession_is_an_error() -> None:
    with pytest.raises(DianliError, match="1895"):
        governance("臺灣府", 1896)


@pytest.mark.parametrize(
    ("place", "rite", "observance", "quote"),
    [
        # 汀州府志 卷十一 governs 汀州府 (「主祭官汀州府知府」) and its counties: its readings are in force there
        ("汀州府", "shanchuan", "shanchuan-spring", "每春秋二祭，俱于仲月上巳日行礼"),
        ("長汀縣", "shanchuan", "shanchuan-autumn", "每春秋二祭，俱于仲月上巳日行礼"),
    ],
)
def test_tingzhou_juan_11_governs_its_prefecture(place: str, rite: str, observance: str, quote: str) -> None:
    from dianli.rites.resolve import resolve_rite

    assert governance(place, 1760).witness == "tingzhou-fuzhi-11"
    resolved = resolve_rite(rite, place, 1760)
    rule = next(d for d in resolved.date_rules if d.id == observance)
    assert rule.rule.model_dump()["branch"] == "巳" and rule.rule.model_dump()["within_days"] is None  # 上巳
    assert (rule.citations[0].witness, rule.citations[0].quote) == ("tingzhou-fuzhi-11", quote)
