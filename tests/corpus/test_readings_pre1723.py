"""The readings of the three gazetteers written before 1723 (鳳山縣志, 諸羅縣志, 臺灣縣志) and the 城隍 rite."""

from __future__ import annotations

import pytest

from dianli.rites.resolve import resolve_rite

FENGSHAN, ZHULUO, TAIWAN_XIAN = "fengshan-xianzhi-3", "zhuluo-xianzhi-4", "taiwan-xianzhi-6"


@pytest.mark.parametrize(
    ("place", "year", "venue", "tablet"),
    [
        ("鳳山縣", 1720, "启圣祠（在大成殿之后）", "啟聖公（叔梁紇）"),
        ("鳳山縣", 1730, "崇聖祠", "肇聖王"),
        ("諸羅縣", 1720, "启圣祠（在学宫大成殿之后）", "啟聖公（叔梁紇）"),
        ("臺灣縣", 1722, "启圣祠（在文庙之后，两房翼以名宦、乡贤）", "啟聖公（叔梁紇）"),
        ("臺灣縣", 1723, "崇聖祠", "肇聖王"),
    ],
)
def test_qisheng_until_the_edict_then_chongsheng(place: str, year: int, venue: str, tablet: str) -> None:
    r = resolve_rite("chongsheng", place, year)
    assert [v.name for v in r.venues] == [venue]
    assert r.tablets[0].name == tablet
    kings = [t.name for t in r.tablets if t.name.endswith("聖王")]
    assert kings == ([] if year <= 1722 else ["肇聖王", "裕聖王", "詒聖王", "昌聖王", "啟聖王"])


def test_the_five_kings_cite_the_edict() -> None:
    r = resolve_rite("chongsheng", "鳳山縣", 1730)
    king = next(t for t in r.tablets if t.name == "肇聖王")
    assert any(c.witness == "chongxiu-fengshan-xianzhi-5" and "雍正元年" in c.quote for c in king.citations)
    assert "雍正元年" in (king.gloss or "")


@pytest.mark.parametrize(
    ("witness", "place", "officiant"),
    [(FENGSHAN, "鳳山縣", "教官"), (TAIWAN_XIAN, "臺灣縣", "教官")],
)
def test_qisheng_officiant_is_the_teacher(witness: str, place: str, officiant: str) -> None:
    r = resolve_rite("chongsheng", place, 1720, witness)
    assert [o.office for o in r.officiants] == [officiant]


@pytest.mark.parametrize(
    ("witness", "place"),
    [(FENGSHAN, "鳳山縣"), (ZHULUO, "諸羅縣"), (TAIWAN_XIAN, "臺灣縣")],
)
def test_old_sheji_prayer(witness: str, place: str) -> None:
    r = resolve_rite("sheji", place, 1720, witness)
    (prayer,) = r.texts
    assert prayer.text.startswith("品物资生，")
    assert prayer.cite is not None and prayer.cite.witness == witness


@pytest.mark.parametrize(("witness", "place"), [(FENGSHAN, "鳳山縣"), (ZHULUO, "諸羅縣")])
def test_old_sheji_altar_height(witness: str, place: str) -> None:
    r = resolve_rite("sheji", place, 1720, witness)
    dims = {d.measure: (d.value, d.unit) for v in r.venues for d in v.dimensions}
    assert dims["高"] == (3.4, "尺")
    assert dims["方廣"] == (25, "尺")


@pytest.mark.parametrize(
    ("witness", "place", "days_before"),
    [(FENGSHAN, "鳳山縣", 1), (ZHULUO, "諸羅縣", 0), (TAIWAN_XIAN, "臺灣縣", 0)],
)
def test_qidao_day(witness: str, place: str, days_before: int) -> None:
    r = resolve_rite("qidao", place, 1720, witness)
    (rule,) = r.date_rules
    assert rule.rule.kind == "solar_term"
    assert getattr(rule.rule, "days_before", 0) == days_before


@pytest.mark.parametrize(
    ("number_of_call", "call"),
    [
        ("yingshen", "樂奏咸和之曲"),
        ("chuxian", "樂奏安和之曲"),
        ("yaxian", "樂奏景和之曲"),
        ("zhongxian", "樂奏景和之曲"),
    ],
)
def test_taiwan_xianzhi_ming_hymn_names(number_of_call: str, call: str) -> None:
    r = resolve_rite("xianshi", "臺灣縣", 1720, TAIWAN_XIAN)
    calls = [
        s.step.call for s in r.steps if s.step.music == number_of_call and s.step.music_action == "start"
    ]
    assert calls and calls[0] == call


def test_taiwan_xianzhi_four_bows_and_hymn_words() -> None:
    r = resolve_rite("xianshi", "臺灣縣", 1720, TAIWAN_XIAN)
    bows = [s.step for s in r.steps if s.step.call and s.step.call.startswith("鞠躬！拜！")]
    assert len(bows) == 3 and all(b.posture == "鞠躬" for b in bows)
    assert not any(s.step.posture == "三跪九叩" for s in r.steps)
    words = {t.title: t.text for t in r.texts}
    assert words["迎神 咸和之曲"].startswith("大哉孔聖")
    assert words["奠帛 寧和之曲"].startswith("自生民來")


@pytest.mark.parametrize(
    ("witness", "place", "hall", "count"),
    [
        (FENGSHAN, "鳳山縣", "正殿（東哲）", 6),
        (FENGSHAN, "鳳山縣", "東廡（先賢）", 31),
        (ZHULUO, "諸羅縣", "西廡（先儒）", 17),
    ],
)
def test_tablets_as_listed(witness: str, place: str, hall: str, count: int) -> None:
    r = resolve_rite("xianshi", place, 1720, witness)
    assert len([t for t in r.tablets if t.hall == hall]) == count


@pytest.mark.parametrize(
    ("place", "witness", "venue"),
    [
        ("鳳山縣", FENGSHAN, "城隍廟（鳳山縣：興隆莊文廟之後，康熙五十七年建）"),
        ("諸羅縣", ZHULUO, "城隍廟（諸羅縣：縣署之左，康熙五十四年建）"),
    ],
)
def test_chenghuang(place: str, witness: str, venue: str) -> None:
    r = resolve_rite("chenghuang", place, 1720)
    assert r.governing_witness == witness
    assert venue in [v.name for v in r.venues]
    assert [d.rule.kind for d in r.date_rules] == ["open", "open"]
    assert [t.id for t in r.texts] == ["chenghuang-zhu"]
