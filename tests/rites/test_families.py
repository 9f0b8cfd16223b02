"""The rite families 慶賀 … 旗纛 and the 祠祀 list: they load, expand and resolve; dated and place rules hold."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from dianli.cli import app
from dianli.errors import UnknownValueError
from dianli.rites.load import all_rites
from dianli.rites.resolve import resolve_rite
from dianli.rites.temples import temple_places, temples

MODERN = "fujian-tongzhi-14-modern"

# (rite, place, year, witness or None for the governing one, a call or action the order must contain)
FAMILIES = [
    ("qinghe", "臺灣府", 1752, None, "班齊"),
    ("jiezhao", "臺灣府", 1752, None, "排班"),
    ("jiezhao", "福州府", 1752, MODERN, "朝使東立，西向"),
    ("wanshouting", "臺灣府", 1752, None, "齊到萬壽亭"),
    ("yingchun", "臺灣縣", 1752, None, "鞠躬拜、興，拜、興"),
    ("bianchun", "鳳山縣", 1752, None, "鞭春"),
    ("gengji", "臺灣府", 1752, None, "行耕時，耆老一人牽牛、農夫二人扶犁，九推九返"),
    ("jiuhu", "臺灣府", 1752, None, "食甚"),
    ("xiangyinjiu", "臺灣府", 1752, None, "讀律令"),
    ("xiangyue", "臺灣府", 1752, None, "地方官聚集公所，逐條宣講「聖諭廣訓」；兵民皆得恭聽"),
    ("guandi", "福州府", 1752, None, "先光昭、次裕昌、次成忠各獻畢"),
    ("longshen", "福州府", 1752, None, "詣望燎位"),
    ("litan", "臺灣縣", 1752, None, "焚告文，禮畢"),
    ("qidao", "臺灣府", 1752, None, "各營皆然"),
]


def _texts(rite: str, place: str, year: int, witness: str | None = None) -> list[str]:
    resolved = resolve_rite(rite, place, year, witness)
    return [t for n in resolved.steps for t in (n.step.call, n.step.action) if t]


@pytest.mark.parametrize(("rite", "place", "year", "witness", "expected"), FAMILIES)
def test_family_resolves(rite: str, place: str, year: int, witness: str | None, expected: str) -> None:
    resolved = resolve_rite(rite, place, year, witness)
    assert resolved.steps, f"{rite} has no steps at {place} {year}"
    assert [n.number for n in resolved.steps] == list(range(1, len(resolved.steps) + 1))
    assert expected in _texts(rite, place, year, witness)
    for numbered in resolved.steps:
        step = numbered.step
        assert step.citations or step.assumption, (
            f"{rite} step {numbered.number} is neither cited nor assumed"
        )


@pytest.mark.parametrize(
    ("year", "venue", "absent"),
    [(1710, "齊到明倫堂", "齊到萬壽亭"), (1712, "齊到萬壽亭", "齊到明倫堂")],
)
def test_wanshouting_building_switches_in_1711(year: int, venue: str, absent: str) -> None:
    texts = _texts("wanshouting", "臺灣府", year)
    assert venue in texts and absent not in texts


@pytest.mark.parametrize(("year", "sits"), [(1710, False), (1712, True)])
def test_wanshouting_zuoban_only_with_the_pavilion(year: int, sits: bool) -> None:
    resolved = resolve_rite("wanshouting", "臺灣府", year)
    assert any(n.placed.part_id == "zuoban" for n in resolved.steps) is sits


@pytest.mark.parametrize(("year", "held"), [(1726, False), (1727, True)])
def test_gengji_from_yongzheng_5(year: int, held: bool) -> None:
    if held:
        assert resolve_rite("gengji", "臺灣府", year).steps
    else:
        with pytest.raises(UnknownValueError):
            resolve_rite("gengji", "臺灣府", year)


@pytest.mark.parametrize(
    ("place", "witness", "task"),
    [
        ("臺灣府", None, "府城：知府秉耒、佐貳執青箱、知縣播種"),
        ("鳳山縣", None, "外州、縣：正印官秉耒、佐貳執青箱播種"),
        ("福州府", MODERN, "省城：督撫秉耒，知縣執青箱，知府播種"),
        ("泉州府", MODERN, "府城：知府秉耒、佐貳執青箱、知縣播種"),
        ("永春州", MODERN, "外州、縣：正印官秉耒、佐貳執青箱播種"),
    ],
)
def test_gengji_ploughing_task_by_level(place: str, witness: str | None, task: str) -> None:
    tasks = [t for t in _texts("gengji", place, 1752, witness) if "秉耒" in t and "：" in t]
    assert task in tasks
    assert not [t for t in tasks if t.startswith(("省城", "府城", "外州")) and t != task]


@pytest.mark.parametrize(
    ("rite", "place", "witness", "offices"),
    [
        ("gengji", "臺灣府", None, {"巡臺滿漢御史", "總鎮", "巡道", "知府"}),
        ("gengji", "福州府", MODERN, {"督撫"}),
        ("longshen", "臺灣府", None, {"承祭官", "各官"}),
        ("longshen", "福州府", None, {"承祭官", "總督", "巡撫", "將軍"}),
        ("qidao", "臺灣府", None, {"鎮標暨城守及三營將士"}),
        ("qidao", "福州府", None, {"督撫標暨城守率八營將士"}),
        ("xiangyinjiu", "臺灣府", None, {"知府", "佐貳官"}),
        ("xiangyinjiu", "臺灣縣", None, {"知縣", "佐貳官"}),
    ],
)
def test_officiants_by_place(rite: str, place: str, witness: str | None, offices: set[str]) -> None:
    resolved = resolve_rite(rite, place, 1752, witness)
    assert {o.office for o in resolved.officiants} == offices


@pytest.mark.parametrize(
    ("witness", "call"), [("taiwan-fuzhi-9", "詣望瘞位"), ("fujian-tongzhi-14", "詣望燎位")]
)
def test_guandi_burning_place_per_witness(witness: str, call: str) -> None:
    calls = _texts("guandi", "臺灣府", 1752, witness)
    assert call in calls and ({"詣望瘞位", "詣望燎位"} - {call}).isdisjoint(calls)


def test_guandi_rear_hall_bows_two_kneelings() -> None:
    resolved = resolve_rite("guandi", "福州府", 1752)
    rear = {n.step.posture for n in resolved.steps if n.placed.part_id in ("hd-yingshen", "hd-songshen")}
    front = {n.step.posture for n in resolved.steps if n.placed.part_id in ("qd-yingshen", "qd-songshen")}
    assert "二跪六叩" in rear and "三跪九叩" not in rear and "三跪九叩" in front


@pytest.mark.parametrize(
    ("part", "silk"), [("qd-chuxian", True), ("qd-yaxian", False), ("qd-zhongxian", False)]
)
def test_guandi_later_offerings_without_silk_or_prayer(part: str, silk: bool) -> None:
    resolved = resolve_rite("guandi", "福州府", 1752)
    calls = [n.step.call for n in resolved.steps if n.placed.part_id == part]
    assert ("奠帛" in calls) is silk and ("讀祝" in calls) is silk


def test_longshen_includes_the_guandi_offerings() -> None:
    parts = [n.placed.part_id for n in resolve_rite("longshen", "福州府", 1752).steps]
    assert {"chuxian", "yaxian", "zhongxian", "chezhuan"} <= set(parts)


def test_shangyu_sixteen_articles_complete() -> None:
    texts = {t.id: t for t in resolve_rite("xiangyue", "臺灣府", 1752).texts}
    articles = sorted(i for i in texts if re.fullmatch(r"shangyu-\d\d", i))
    assert articles == [f"shangyu-{i:02d}" for i in range(1, 17)]
    assert texts["shangyu-01"].text == "敦孝弟，以重人倫"
    assert texts["shangyu-16"].text.startswith("解") and texts["shangyu-16"].text.endswith("忿，以重身命")
    assert all(len(texts[a].citations) >= 2 for a in articles)  # 001 and 000


@pytest.mark.parametrize(
    ("year", "ids"),
    [
        (1655, {"liuyu"}),
        (1665, {"liuyu"}),
        (1680, {"liuyu", "shiliutiao-preface"} | {f"shangyu-{i:02d}" for i in range(1, 17)}),
        (1730, {"liuyu", "shiliutiao-preface", "guangxun"} | {f"shangyu-{i:02d}" for i in range(1, 17)}),
    ],
)
def test_xiangyue_texts_by_year(year: int, ids: set[str]) -> None:
    rite = all_rites()["xiangyue"]
    in_force = {t.id for t in rite.texts if (t.from_year or 0) <= year}
    assert in_force == ids


@pytest.mark.parametrize(("year", "steps"), [(1660, 2), (1680, 3), (1690, 4), (1730, 5)])
def test_xiangyue_lecture_grows_with_the_edicts(year: int, steps: int) -> None:
    # 臺灣府 was set up in 1684, so the edicts' dates before it are read at 福州 in 001's words
    assert len(resolve_rite("xiangyue", "福州府", year, "taiwan-fuzhi-9").steps) == steps


def test_xiangyinjiu_seats_and_exclusion() -> None:
    resolved = resolve_rite("xiangyinjiu", "臺灣府", 1752)
    duties = {r.name: r.duty or "" for r in resolved.roles}
    for role, position in [("主", "東南"), ("大賓", "西北"), ("僎", "東北"), ("介", "西南")]:
        assert position in duties[role]
    assert {"三賓", "眾賓", "司正", "贊禮"} <= set(duties)
    rules = {t.id: t.text for t in resolved.texts}
    assert "不許干良善之席" in rules["zuoci"] and "恭惟朝廷率由舊章" in rules["sizheng"]


def test_jiuhu_maximum_repeats_the_kneelings_as_before() -> None:
    shishen = [n.step for n in resolve_rite("jiuhu", "臺灣府", 1752).steps if n.placed.part_id == "shishen"]
    assert [s.posture for s in shishen].count("三跪九叩") == 1
    assert not any(s.call == "日初食" for s in shishen)


@pytest.mark.parametrize(
    ("place", "count", "name"),
    [
        ("臺灣府", 35, "朱文公祠"),
        ("臺灣縣", 8, "忠義孝悌祠"),
        ("鳳山縣", 19, "八蜡祠"),
        ("淡水海防廳", 4, "天后廟"),
    ],
)
def test_temples_by_place(place: str, count: int, name: str) -> None:
    (entry,) = temples(place)
    assert len(entry.temples) == count
    assert name in [t.name for t in entry.temples]
    assert all(t.cite is not None for t in entry.temples)


def test_temple_founding_and_year() -> None:
    (entry,) = temples("臺灣府")
    zhu = next(t for t in entry.temples if t.name == "朱文公祠")
    assert zhu.founding is not None and zhu.founding.year == 1712 and "陳璸" in zhu.founding.text


@pytest.mark.parametrize("bad", ["福州府", "nowhere"])
def test_temples_bad_place_names_the_accepted(bad: str) -> None:
    with pytest.raises(UnknownValueError) as info:
        temples(bad)
    assert bad in str(info.value) and all(p in str(info.value) for p in temple_places())


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [(["temples", "--place", "彰化縣"], 0, "天后廟"), (["temples", "--place", "福州"], 2, "accepted")],
)
def test_temples_cli(args: list[str], code: int, needle: str) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == code
    assert needle in result.output + (result.stderr if result.stderr_bytes is not None else "")
