"""The readings curated for 苗栗縣志 (miaoli-xianzhi-10) — 迎春/鞭春, 耕耤, 救護, 鄉約, 慶賀, 接詔 — and for
晉江縣志 道光本 (jinjiang-xianzhi-15) — 府縣城隍 and 天上聖母 with their prayers."""

from __future__ import annotations

import pytest

from dianli.comparison.coverage import section_figures
from dianli.rites.readings import rites_for
from dianli.rites.resolve import resolve_rite

MIAOLI = "miaoli-xianzhi-10"
JINJIANG = "jinjiang-xianzhi-15"


def _sequence(rite: str, place: str, year: int, witness: str) -> list[str]:
    r = resolve_rite(rite, place, year, witness=witness)
    return [str(n.step.call or n.step.action) for n in r.steps]


@pytest.mark.parametrize(
    ("rite", "expected"),
    [
        # one kneeling and three kowtows, three cups, three kowtows: no prayer, no banquet, no flowers
        (
            "yingchun",
            [
                "先立春一日，正官率屬俱盛服詣東郊",
                "設案於芒神、春牛前，陳香燭鼓酒，布拜席",
                "通贊導至拜位",
                "行一跪三叩禮",
                "三獻爵",
                "復行三叩禮",
                "屬官先行，長官次之；乃舁芒神、土牛隨後",
                "迎置廳頭門外，土牛南向、芒神西向",
            ],
        ),
        # on 立春 no second offering: the staves, the drum, 「鞭春」, the bow
        ("bianchun", ["屆立春時，各官執釆杖排立", "樂工擊鼓", "鞭春", "揖退"]),
        # 初虧 and 復圓 only (no 食甚 in the 會典 rule of this witness)
        (
            "jiuhu",
            [
                "初虧",
                "行三跪九叩禮",
                "三上香",
                "伐鼓三聲",
                "儀門外金鼓振作",
                "復圓",
                "金鼓聲止",
                "行禮如初（三跪九叩）",
                "畢，各退",
            ],
        ),
        (
            "wanshouting",
            [
                "五鼓，庭燎，穿朝服到龍亭前",
                "文武分東、西班行三跪九叩禮",
                "分班、坐班",
                "萬壽聖節前後三日，各官俱穿朝服坐班",
            ],
        ),
    ],
)
def test_miaoli_order_of_service(rite: str, expected: list[str]) -> None:
    assert _sequence(rite, "miaoli", 1893, MIAOLI) == expected


@pytest.mark.parametrize(
    ("rite", "tail"),
    [
        ("gengji", ["禮畢，各官易蟒袍詣耤田", "正官就耕所，執事者授耒耜與鞭", "皆左秉耒、右執鞭進耕"]),
        (
            "jiezhao",
            ["詣開讀案前宣讀；眾官跪聽", "讀畢，展讀官捧詔授齎官捧置龍亭", "眾官行三跪九叩禮；畢，退"],
        ),
        ("xiangyue", ["兵民圜聽", "宣畢，各退", "學宮朔、望一體宣讀「大學訓飭士子文」"]),
    ],
)
def test_miaoli_steps_in_order(rite: str, tail: list[str]) -> None:
    seq = _sequence(rite, "miaoli", 1893, MIAOLI)
    at = seq.index(tail[0])
    assert seq[at : at + len(tail)] == tail


def test_jiezhao_read_at_the_gongsuo_not_the_minglun_hall() -> None:
    venues = [v.name for v in rites_for(MIAOLI)["jiezhao"].venue]
    assert "公所" in venues and "明倫堂" not in venues


@pytest.mark.parametrize(
    ("witness", "rite", "observance", "expected"),
    [
        (MIAOLI, "yingchun", "yingchun", {"kind": "solar_term", "term": "立春", "days_before": 1}),
        (
            MIAOLI,
            "yingchun",
            "yingchun-songniu",
            {"kind": "branch_day_after_term", "term": "冬至", "branch": "辰"},
        ),
        (MIAOLI, "bianchun", "bianchun", {"kind": "solar_term", "term": "立春", "days_before": 0}),
        (
            MIAOLI,
            "gengji",
            "gengji",
            {"kind": "branch_day_of_month", "month": 2, "branch": "亥", "nth": 1, "within_days": None},
        ),
        (
            MIAOLI,
            "wanshouting",
            "wanshouting-dongzhi",
            {"kind": "solar_term", "term": "冬至", "days_before": 0},
        ),
        (MIAOLI, "xiangyue", "xiangyue", {"kind": "monthly", "days": (1, 15)}),
    ],
)
def test_date_rules(witness: str, rite: str, observance: str, expected: dict[str, object]) -> None:
    rule = next(d for d in rites_for(witness)[rite].date_rule if d.id == observance)
    got = rule.rule.model_dump()
    assert {k: got[k] for k in expected} == expected


@pytest.mark.parametrize(
    ("rite", "observances"),
    [
        ("chenghuang", ["chenghuang-spring", "chenghuang-autumn"]),
        ("tianhou", ["tianhou-chunqiu"]),
    ],
)
def test_jinjiang_days_are_chosen_days(rite: str, observances: list[str]) -> None:
    rules = rites_for(JINJIANG)[rite].date_rule
    assert [d.id for d in rules] == observances
    assert all(d.rule.kind == "open" and d.cite is not None and d.cite.witness == JINJIANG for d in rules)


@pytest.mark.parametrize(
    ("rite", "text_id", "opening", "close"),
    [
        ("chenghuang", "chenghuang-zhu", "維神赫濯，炳古爍今", "永享昇平。尚饗！"),
        ("tianhou", "tianhou-zhuwen", "維神菩薩化身，至聖至誠", "海晏河清。尚饗！"),
        ("tianhou", "tianhou-jiqinggong-zhuwen", "維公德能昌後，篤生神聖之英", "神其格歆。尚饗！"),
    ],
)
def test_jinjiang_prayers(rite: str, text_id: str, opening: str, close: str) -> None:
    (text,) = [t for t in rites_for(JINJIANG)[rite].texts if t.id == text_id]
    assert text.text.startswith(opening) and text.text.endswith(close)
    assert text.cite is not None and text.cite.witness == JINJIANG


def test_jinjiang_tianhou_offerings_have_no_ox() -> None:
    (altar,) = [a for a in rites_for(JINJIANG)["tianhou"].altars if a.id == "tianhou-chunqiu"]
    assert [(v.animal, v.count) for v in altar.victims] == [("羊", 1), ("豕", 1)]
    assert [(o.vessel, o.count) for o in altar.offerings] == [
        ("鉶", 1),
        ("簠", 2),
        ("簋", 2),
        ("籩", 4),
        ("豆", 4),
    ]
    assert [(s.count, s.colour) for s in altar.silk] == [(1, "白")]


def test_jinjiang_tianhou_tablets_and_year() -> None:
    r = rites_for(JINJIANG)["tianhou"]
    assert [t.name for t in r.tablets] == ["天上聖母", "積慶公", "積慶公夫人"]
    assert r.date_rule[0].from_year == 1720


@pytest.mark.parametrize("witness", [MIAOLI, JINJIANG])
def test_coverage_at_least_80_percent(witness: str) -> None:
    figures = section_figures(witness)
    covered, total = sum(f.covered for f in figures), sum(f.total for f in figures)
    assert covered / total >= 0.8
