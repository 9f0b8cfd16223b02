"""The curated readings of 重修鳳山縣志 (chongxiu-fengshan-xianzhi-5), 澎湖紀略 (penghu-jilue-2), 澎湖廳志
(penghu-tingzhi-2) and 金門志 (jinmen-zhi-4), and the rite 祭天后 (rites/data/tianhou.yaml) built from them:
what each witness says differently, resolved for its place and year, and each witness's coverage."""

from __future__ import annotations

import datetime

import pytest

from dianli.comparison.coverage import clause_coverage, not_procedural
from dianli.rites.observances import observances_for
from dianli.rites.resolve import resolve_rite

FENGSHAN = "chongxiu-fengshan-xianzhi-5"
JILUE = "penghu-jilue-2"
TINGZHI = "penghu-tingzhi-2"
JINMEN = "jinmen-zhi-4"


@pytest.mark.parametrize("witness", [FENGSHAN, JILUE, TINGZHI, JINMEN])
def test_coverage_reaches_eighty_percent(witness: str) -> None:
    items = clause_coverage(witness)
    covered = sum(1 for item in items if item.covered_by is not None)
    assert 100 * covered / len(items) >= 80


@pytest.mark.parametrize("witness", [FENGSHAN, JILUE, TINGZHI, JINMEN])
def test_not_procedural_marks_resolve_with_reasons(witness: str) -> None:
    marks = not_procedural()[witness]
    assert marks and all(reason for _, _, reason in marks)


@pytest.mark.parametrize(
    ("text_id", "title", "opening"),
    [
        ("yuezhang-yingshen", "迎神樂 咸平之曲（有樂有舞）", "大哉孔子，先覺先知"),
        ("yuezhang-chuxian", "初獻樂 寧平之曲（有樂有舞）", "予懷明德，玉振金聲"),
        ("yuezhang-yaxian", "亞獻樂 安平之曲（有樂有舞）", "式禮莫愆，升堂再獻"),
        ("yuezhang-zhongxian", "終獻樂 景平之曲（有樂有舞）", "自古在昔，先民有作"),
        ("yuezhang-songshen", "送神樂 咸平之曲（有樂無舞；望瘞同）", "鳧繹峨峨，洙泗洋洋"),
        ("xianshi-zhu", "祝文", "維乾隆某年"),
    ],
)
def test_fengshan_reads_the_qianlong_hymns(text_id: str, title: str, opening: str) -> None:
    texts = {t.id: t for t in resolve_rite("xianshi", "鳳山縣", 1770).texts}
    assert texts[text_id].title == title
    assert texts[text_id].text.startswith(opening)
    # each hymn cites its whole line, with the paired 春調/秋調 工尺 after every character
    if text_id.startswith("yuezhang-") and text_id != "yuezhang-diao":
        assert "（伍、伬）" in texts[text_id].cite.quote


def test_fengshan_prayer_reads_guan_not_guan() -> None:
    texts = {t.id: t for t in resolve_rite("xianshi", "鳳山縣", 1770).texts}
    assert "維師道貫古今" in texts["xianshi-zhu"].text


@pytest.mark.parametrize(
    ("part", "call"),
    [
        ("yingshen", "樂奏咸平之章"),
        ("yaxian", "樂奏和平之章"),
        ("zhongxian", "樂奏景平之章"),
        ("songshen", "樂奏咸平之章"),
    ],
)
def test_fengshan_hymn_calls(part: str, call: str) -> None:
    steps = resolve_rite("xianshi", "鳳山縣", 1770).steps
    calls = [
        s.placed.step.call for s in steps if s.placed.part_id == part and s.placed.step.kind == "music_cue"
    ]
    assert call in calls


@pytest.mark.parametrize(
    ("name", "side"),
    [
        ("肇聖王", "正中，南向"),
        ("裕聖王", "東一室，南向"),
        ("詒聖王", "西一室，南向"),
        ("昌聖王", "東二室，南向"),
        ("啟聖王", "西二室，南向"),
    ],
)
def test_fengshan_chongsheng_has_the_five_kings(name: str, side: str) -> None:
    tablets = {t.name: t for t in resolve_rite("chongsheng", "鳳山縣", 1770).tablets}
    assert tablets[name].side == side
    assert tablets[name].from_year == 1723


@pytest.mark.parametrize(
    ("rite", "year", "posture"),
    [("jiuhu", 1770, "一跪三叩"), ("jiuhu", 1760, "三跪九叩")],
)
def test_fengshan_eclipse_kowtows_change_in_1761(rite: str, year: int, posture: str) -> None:
    steps = resolve_rite(rite, "鳳山縣", year, witness=FENGSHAN).steps
    postures = {s.placed.step.posture for s in steps if s.placed.step.posture in ("一跪三叩", "三跪九叩")}
    assert postures == {posture}


@pytest.mark.parametrize(
    ("rite", "year", "tablet"),
    [
        ("sheji", 1770, "縣社之神"),
        ("sheji", 1720, "社稷神牌（紅質金字）"),
        ("litan", 1770, "本縣境內無祀鬼神"),
    ],
)
def test_fengshan_tablets(rite: str, year: int, tablet: str) -> None:
    r = resolve_rite(rite, "鳳山縣", year, witness=FENGSHAN)
    names = {t.name for t in r.tablets} | {n for a in r.altars for n in a.tablets}
    assert tablet in names


@pytest.mark.parametrize(
    ("rite", "measure", "value"),
    [("sheji", "高", 3.4), ("shanchuan", "高", 3.4), ("litan", "方廣", 15.0)],
)
def test_fengshan_altar_sizes(rite: str, measure: str, value: float) -> None:
    venue = resolve_rite(rite, "鳳山縣", 1770).venues[0]
    assert {d.measure: d.value for d in venue.dimensions}[measure] == value


def test_fengshan_mang_god_height_is_cited() -> None:
    texts = {t.id: t for t in resolve_rite("yingchun", "鳳山縣", 1770).texts}
    assert "身高三尺六寸（按三百六十日）" in texts["mangshen-shi"].text


@pytest.mark.parametrize(
    ("rite", "observance", "month", "day"),
    [("qidao", "qidao", 10, 23), ("wanshouting", "wanshouting-dongzhi", 12, 22)],
)
def test_fengshan_calendar_follows_its_reading(rite: str, observance: str, month: int, day: int) -> None:
    days = {
        (o.observance_id, o.day)
        for o in observances_for("鳳山縣", 1770, rites=[rite], include_related=False)
        if o.day is not None
    }
    assert (observance, datetime.date(1770, month, day)) in days


@pytest.mark.parametrize(
    ("rite", "place", "year", "witness", "venue"),
    [
        ("wanshouting", "鳳山縣", 1770, FENGSHAN, "邑治關帝廟"),
        ("qidao", "鳳山縣", 1770, FENGSHAN, "演武廳"),
        ("xiangyue", "澎湖廳", 1770, JILUE, "媽祖宮公所"),
        ("xiangyue", "同安縣", 1840, JINMEN, "城廟前"),
        ("jiezhao", "同安縣", 1840, JINMEN, "書院"),
        ("wanshouting", "同安縣", 1840, JINMEN, "書院"),
    ],
)
def test_venues(rite: str, place: str, year: int, witness: str, venue: str) -> None:
    assert venue in {v.name for v in resolve_rite(rite, place, year, witness=witness).venues}


@pytest.mark.parametrize(
    ("year", "shrines"),
    [
        (1765, ["無祀祠（媽宮澳海邊 西垵仔）"]),
        (1770, ["無祀祠（媽宮澳海邊 西垵仔）", "無祀祠（西嶼內外塹）"]),
    ],
)
def test_penghu_holds_the_li_rite_in_shrines(year: int, shrines: list[str]) -> None:
    venues = [v.name for v in resolve_rite("litan", "澎湖廳", year, witness=JILUE).venues]
    assert venues == shrines


@pytest.mark.parametrize(("year", "tablet"), [(1767, "關帝"), (1768, "忠義神武靈佑關聖大帝")])
def test_penghu_guandi_tablet_takes_the_title_of_1768(year: int, tablet: str) -> None:
    front = [
        t.name for t in resolve_rite("guandi", "澎湖廳", year, witness=JILUE).tablets if t.hall == "前殿"
    ]
    assert front == [tablet]


@pytest.mark.parametrize(
    ("place", "year", "witness", "observance", "title"),
    [
        ("鳳山縣", 1770, FENGSHAN, "tianhou-chunqiu", "天后"),
        ("鳳山縣", 1730, FENGSHAN, "tianhou-chunqiu", "天妃（護國庇民妙靈昭應弘仁普濟天妃）"),
        ("澎湖廳", 1730, JILUE, "tianhou-chunqiu", "天后"),
        ("澎湖廳", 1770, JILUE, "tianhou-sanji", "天后（護國庇民妙靈昭應宏仁普濟福佑群生誠孚）"),
        ("澎湖廳", 1893, TINGZHI, "tianhou-sanji", "天后"),  # 澎湖 keeps its three rites (from 1739)
    ],
)
def test_tianhou_days_and_titles(place: str, year: int, witness: str, observance: str, title: str) -> None:
    r = resolve_rite("天后", place, year, witness=witness)
    assert [d.id for d in r.date_rules] == [observance]
    assert [t.name for t in r.tablets] == [title]


def test_tianhou_is_the_front_hall_of_guandi() -> None:
    r = resolve_rite("tianhou", "鳳山縣", 1770)
    parts = {s.placed.part_id for s in r.steps}
    assert parts == {
        "qd-yingshen",
        "qd-chuxian",
        "qd-yaxian",
        "qd-zhongxian",
        "qd-chezhuan",
        "qd-songshen",
        "qd-wangyi",
    }
    assert [o.office for o in r.officiants] == ["承祭官"]


@pytest.mark.parametrize(
    ("part", "posture"),
    [("qd-songshen", "三跪九叩"), ("hd-songshen", "二跪六叩"), ("hd-yingshen", "二跪六叩")],
)
def test_fengshan_guandi_rear_hall_kowtows(part: str, posture: str) -> None:
    steps = resolve_rite("guandi", "鳳山縣", 1770).steps
    postures = {s.placed.step.posture for s in steps if s.placed.part_id == part}
    assert posture in postures


@pytest.mark.parametrize(
    ("year", "duty_start"), [(1750, "an old and virtuous man"), (1770, "from 乾隆十九年")]
)
def test_fengshan_zhuan_rule_of_1754(year: int, duty_start: str) -> None:
    roles = resolve_rite("xiangyinjiu", "鳳山縣", year, witness=FENGSHAN).roles
    assert [r.duty[: len(duty_start)] for r in roles if r.name == "僎"] == [duty_start]


@pytest.mark.parametrize(
    ("rite", "function", "office"),
    [
        ("gengji", "秉耒", "正印官"),
        ("gengji", "執青箱播種", "佐貳官"),
        ("xiangyue", "宣講", "文武官"),
        ("sheji", "主祭官", "知縣"),
    ],
)
def test_fengshan_officiants(rite: str, function: str, office: str) -> None:
    officiants = resolve_rite(rite, "鳳山縣", 1770).officiants
    assert (function, office) in {(o.function, o.office) for o in officiants}
