"""The readings curated for 噶瑪蘭廳志 (gemalan-tingzhi-3), 苗栗縣志 (miaoli-xianzhi-10) and 晉江縣志 道光本
(jinjiang-xianzhi-15), and the rites first modelled from them (文昌, 火神, 八蜡, 東嶽, 昭忠)."""

from __future__ import annotations

import pytest

from dianli.rites.load import all_rites
from dianli.rites.readings import rites_for
from dianli.rites.resolve import resolve_rite


def _rule(witness: str, rite: str, observance: str) -> dict[str, object]:
    rule = next(d for d in rites_for(witness)[rite].date_rule if d.id == observance)
    return rule.rule.model_dump()


@pytest.mark.parametrize(
    ("witness", "height"),
    [
        ("gemalan-tingzhi-3", 2.1),  # the new size (通禮)
        ("miaoli-xianzhi-10", 2.1),
        ("jinjiang-xianzhi-15", 3.4),  # the old size
    ],
)
def test_sheji_altar_height(witness: str, height: float) -> None:
    dims = [d for v in rites_for(witness)["sheji"].venue for d in v.dimensions if d.measure == "高"]
    assert [d.value for d in dims] == [height]
    assert all(d.cite is not None and d.cite.witness == witness for d in dims)


@pytest.mark.parametrize("witness", ["gemalan-tingzhi-3", "jinjiang-xianzhi-15"])
def test_sheji_prayer_is_the_tongli_text(witness: str) -> None:
    (text,) = [t for t in rites_for(witness)["sheji"].texts if t.id == "sheji-zhuwen"]
    assert "奠安九土，粒食萬邦" in text.text
    assert text.cite is not None and text.cite.witness == witness


@pytest.mark.parametrize(
    ("witness", "rite", "observance", "expected"),
    [
        # 寒食 for the spring 厲祭 (通禮), taken as the day before 清明
        (
            "gemalan-tingzhi-3",
            "litan",
            "litan-qingming",
            {"kind": "solar_term", "term": "清明", "days_before": 1},
        ),
        (
            "miaoli-xianzhi-10",
            "litan",
            "litan-qingming",
            {"kind": "solar_term", "term": "清明", "days_before": 1},
        ),
        (
            "jinjiang-xianzhi-15",
            "litan",
            "litan-qingming",
            {"kind": "solar_term", "term": "清明", "days_before": 0},
        ),
        # 山川 on 上戊 (the day of 社稷) in 晉江
        (
            "jinjiang-xianzhi-15",
            "shanchuan",
            "shanchuan-spring",
            {"kind": "stem_day_of_month", "month": 2, "stem": "戊", "nth": 1},
        ),
        # 先農: 仲春辛日 in 晉江, 仲春亥日 in 噶瑪蘭
        (
            "jinjiang-xianzhi-15",
            "gengji",
            "gengji",
            {"kind": "stem_day_of_month", "month": 2, "stem": "辛", "nth": 1},
        ),
        (
            "gemalan-tingzhi-3",
            "gengji",
            "gengji",
            {"kind": "branch_day_of_month", "month": 2, "branch": "亥", "nth": 1, "within_days": None},
        ),
        ("jinjiang-xianzhi-15", "qidao", "qidao", {"kind": "solar_term", "term": "霜降", "days_before": 0}),
    ],
)
def test_date_rules(witness: str, rite: str, observance: str, expected: dict[str, object]) -> None:
    assert _rule(witness, rite, observance) == expected


@pytest.mark.parametrize(
    ("rite", "observance", "expected"),
    [
        ("huoshen", "huoshen", {"kind": "lunar_day", "month": 6, "day": 23}),
        ("bazha", "bazha", {"kind": "stem_day_of_month", "month": 12, "stem": "戊", "nth": 1}),
    ],
)
def test_new_rites_days(rite: str, observance: str, expected: dict[str, object]) -> None:
    rule = next(d for d in all_rites()[rite].date_rule if d.id == observance)
    assert rule.rule.model_dump() == expected


@pytest.mark.parametrize(
    ("rite", "from_year"),
    [("wenchang", 1801), ("bazha", 1733), ("zhaozhong", 1815), ("dongyue", None), ("huoshen", None)],
)
def test_new_rites_exist_with_their_year(rite: str, from_year: int | None) -> None:
    assert all_rites()[rite].from_year == from_year


@pytest.mark.parametrize(
    ("rite", "first_calls"),
    [
        ("sheji", ["執事者各司其事", "就位", "迎神", "復位", "跪、叩、興", "初獻"]),
        ("wenchang", ["執事者各司其事", "就位", "迎神", "詣上香位", "上香", "復位"]),
    ],
)
def test_gemalan_order_of_service(rite: str, first_calls: list[str]) -> None:
    r = resolve_rite(rite, "噶瑪蘭廳", 1852, witness="gemalan-tingzhi-3")
    calls = [n.step.call for n in r.steps if n.step.call]
    assert calls[: len(first_calls)] == first_calls


def test_gemalan_sheji_ends_with_songshen_then_chezhuan() -> None:
    r = resolve_rite("sheji", "噶瑪蘭廳", 1852, witness="gemalan-tingzhi-3")
    calls = [n.step.call for n in r.steps if n.step.call]
    assert calls[-3:] == ["跪、叩、興", "徹饌", "瘞祝帛"]
    assert "瘞毛血" not in calls  # done the evening before in this witness


@pytest.mark.parametrize(
    ("witness", "officiants"),
    [("jinjiang-xianzhi-15", [("秉耒", "知府"), ("執青箱", "佐貳"), ("播種", "晉江縣知縣")])],
)
def test_joint_ploughing(witness: str, officiants: list[tuple[str, str]]) -> None:
    got = [(o.function, o.office) for o in rites_for(witness)["gengji"].officiants]
    assert got == officiants
