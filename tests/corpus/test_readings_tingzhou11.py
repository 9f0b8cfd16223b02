"""The readings curated for 汀州府志 卷之十一 (tingzhou-fuzhi-11), non-music sections: who officiates, the
山川 day, the 耕耤 offerings and tasks, the 旗纛 armoury, the words of the 上諭十六條, and the coverage that the
readings and the not-procedural marks give its sections."""

from __future__ import annotations

import pytest

from dianli.comparison.coverage import clause_coverage, section_figures
from dianli.rites.readings import rites_for

WITNESS = "tingzhou-fuzhi-11"


def _rule(witness: str, rite: str, observance: str) -> dict[str, object]:
    rule = next(d for d in rites_for(witness)[rite].date_rule if d.id == observance)
    return rule.rule.model_dump()


@pytest.mark.parametrize(
    ("witness", "observance", "expected"),
    [
        # 汀州府志: 「俱於仲月上巳日行禮」 — the 上巳 itself
        (
            WITNESS,
            "shanchuan-spring",
            {"kind": "branch_day_of_month", "month": 2, "branch": "巳", "nth": 1, "within_days": None},
        ),
        (
            WITNESS,
            "shanchuan-autumn",
            {"kind": "branch_day_of_month", "month": 8, "branch": "巳", "nth": 1, "within_days": None},
        ),
        # the base (通志/臺灣府志): a day chosen in the first decade, most using the 上巳
        (
            "taiwan-fuzhi-9",
            "shanchuan-spring",
            {"kind": "branch_day_of_month", "month": 2, "branch": "巳", "nth": 1, "within_days": 10},
        ),
    ],
)
def test_shanchuan_day(witness: str, observance: str, expected: dict[str, object]) -> None:
    assert _rule(witness, "shanchuan", observance) == expected


@pytest.mark.parametrize(
    ("rite", "function", "office", "quote"),
    [
        ("gengji", "行禮", "知府（率所屬）", "祭日，知府率所属，俱穿朝服到坛"),
        ("sheji", "主祭官", "汀州府知府", "主祭官汀州府知府，祭前三日斋戒"),
        ("shanchuan", "主祭官", "汀州府知府", "主祭官汀州府知府前三日斋戒"),
        ("xianshi", "正獻官", "知府（本府）", "正献官　本府知府"),
        ("xianshi", "分獻官", "同知（本府）", "分献官　本府同知"),
        ("qidao", "迎請旗纛", "鎮標三營將士", "镇标三营将士盛装铠伏"),
        ("xiangyinjiu", "主", "知府", "主，府城知府"),
        ("xiangyinjiu", "主", "知縣", "县城知县"),
    ],
)
def test_officiants(rite: str, function: str, office: str, quote: str) -> None:
    found = [o for o in rites_for(WITNESS)[rite].officiants if o.function == function and o.office == office]
    assert len(found) == 1
    assert found[0].cite is not None
    assert (found[0].cite.witness, found[0].cite.quote) == (WITNESS, quote)


def test_xiangyinjiu_names_no_zhizhou() -> None:
    offices = {o.office for o in rites_for(WITNESS)["xiangyinjiu"].officiants}
    assert offices == {"知府", "知縣", "佐貳官"}


@pytest.mark.parametrize(
    ("witness", "vessel", "count"),
    [
        (WITNESS, "簠", 2),  # 「簠二，簋二」
        (WITNESS, "簋", 2),
        (WITNESS, "籩", 4),
        ("taiwan-fuzhi-9", "簠", 1),  # 001: 簠一、簋一
    ],
)
def test_gengji_vessels(witness: str, vessel: str, count: int) -> None:
    (altar,) = [a for a in rites_for(witness)["gengji"].altars if a.id == "xiannong"]
    counts = [
        o.count for o in altar.offerings if o.vessel == vessel and (not o.witnesses or witness in o.witnesses)
    ]
    assert counts == [count]


@pytest.mark.parametrize(
    ("place_levels", "action"),
    [
        (("府",), "府城：知府秉耒、佐貳執青箱、知縣播種"),
        (("縣",), "外縣：正印官秉耒、佐貳執青箱播種"),
    ],
)
def test_gengji_ploughing_tasks(place_levels: tuple[str, ...], action: str) -> None:
    (part,) = [p for p in rites_for(WITNESS)["gengji"].parts if p.id == "gengji"]
    steps = [s for s in part.steps if getattr(s, "action", None) == action]
    assert len(steps) == 1
    assert tuple(steps[0].place_levels) == place_levels
    assert steps[0].cite is not None and steps[0].cite.witness == WITNESS


@pytest.mark.parametrize(
    ("witness", "venue"),
    [(WITNESS, "兵器庫"), ("fujian-tongzhi-14", "旗纛廟")],
)
def test_qidao_banners_return_to(witness: str, venue: str) -> None:
    names = [v.name for v in rites_for(witness)["qidao"].venue]
    assert names[-1] == venue


def test_qidao_held_in_the_counties() -> None:
    assert "縣" in rites_for(WITNESS)["qidao"].place_levels


def test_shanchuan_city_god_tablet() -> None:
    (altar,) = [a for a in rites_for(WITNESS)["shanchuan"].altars if a.id == "chenghuang"]
    assert list(altar.tablets) == ["汀州府城隍之神"]
    assert [s.count for s in altar.silk] == [1]


@pytest.mark.parametrize(
    ("text_id", "witness", "words"),
    [
        ("shangyu-11", WITNESS, "訓子弟，以警非為"),
        ("shangyu-11", "taiwan-fuzhi-9", "訓子弟，以禁非為"),
        ("shangyu-12", WITNESS, "息誣告，以作良善"),
        ("shangyu-12", "taiwan-fuzhi-9", "息誣告，以全良善"),
        ("shangyu-13", WITNESS, "戒窩逃，以免株連"),
        ("shangyu-16", WITNESS, "解仇忿，以重身命"),
        ("shangyu-01", WITNESS, "敦孝弟，以重人倫"),
    ],
)
def test_xiangyue_articles(text_id: str, witness: str, words: str) -> None:
    (text,) = [t for t in rites_for(witness)["xiangyue"].texts if t.id == text_id]
    assert text.text == words


def test_xiangyue_texts_complete() -> None:
    texts = rites_for(WITNESS)["xiangyue"].texts
    assert [t.id for t in texts if t.id.startswith("shangyu-")] == [f"shangyu-{n:02d}" for n in range(1, 17)]
    assert all(t.cite is not None and t.cite.witness == WITNESS for t in texts)


@pytest.mark.parametrize("section", ["gengji", "qidao", "xiangyue", "litan"])
def test_sections_fully_covered(section: str) -> None:
    (figure,) = [f for f in section_figures(WITNESS) if f.section == section]
    assert figure.covered == figure.total


@pytest.mark.parametrize(
    ("text", "covered_by"),
    [
        ("一训子弟以警非为。", "cited"),
        ("今府城坛在郊之西。", "cited"),
        ("菱即菱角，茨即今鸡头。", "not procedural"),
        ("日用丁，取文明之象也)。", "not procedural"),
    ],
)
def test_clause_covered(text: str, covered_by: str) -> None:
    hits = [c for c in clause_coverage(WITNESS) if c.clause.text.strip() == text]
    assert hits, text
    assert all(c.covered_by is not None and c.covered_by.startswith(covered_by) for c in hits)
