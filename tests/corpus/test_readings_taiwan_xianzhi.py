"""The reading of 臺灣縣志 (taiwan-xianzhi-6, c.1720): its own order of service for the 先師廟 (the Ming
四拜 service with a separate 奠帛 to the 寧和 hymn), its offerings (八籩八豆), its 齋戒/省牲, the 先師
忌辰/誕辰 釋菜 and the 朱文公祠."""

from __future__ import annotations

import pytest

from dianli.rites.observances import observances_for
from dianli.rites.resolve import ResolvedRite, resolve_rite

TAIWAN_XIAN = "taiwan-xianzhi-6"


def _xianshi() -> ResolvedRite:
    return resolve_rite("xianshi", "臺灣縣", 1720, TAIWAN_XIAN)


def test_order_of_service_parts_in_the_witness_order() -> None:
    titles = list(dict.fromkeys(s.placed.part_title for s in _xianshi().steps))
    assert titles == [
        "嚴鼓",
        "就位",
        "迎神",
        "奠帛・初獻",
        "亞獻",
        "終獻",
        "飲福受胙",
        "徹饌",
        "送神",
        "望瘞",
    ]


def test_every_step_cites_the_witness() -> None:
    steps = _xianshi().steps
    assert len(steps) > 80
    assert all(s.step.cite is not None and s.step.cite.witness == TAIWAN_XIAN for s in steps)


def test_silk_is_its_own_step_with_the_ninghe_hymn_before_the_first_offering() -> None:
    calls = [s.step.call for s in _xianshi().steps]
    assert calls.index("奠帛") < calls.index("樂奏寧和之曲") < calls.index("行初獻禮")
    (ninghe,) = [s.step for s in _xianshi().steps if s.step.call == "樂奏寧和之曲"]
    assert ninghe.music is None  # the base score has no movement for the silk
    assert ninghe.cite is not None and "宁和之曲" in ninghe.cite.quote


@pytest.mark.parametrize(
    ("part", "tablets"),
    [
        # the text calls the 分獻 between 子思子 and 孟子, and is followed as written
        ("奠帛・初獻", ["至聖先師孔子", "復聖顏子", "宗聖曾子", "述聖子思子", "亞聖孟子"]),
        ("亞獻", ["至聖先師孔子", "復聖顏子", "宗聖曾子", "述聖子思子", "亞聖孟子"]),
        ("終獻", ["至聖先師孔子", "復聖顏子", "宗聖曾子", "述聖子思子", "亞聖孟子"]),
    ],
)
def test_offerings_go_to_the_sage_then_the_four_correlates(part: str, tablets: list[str]) -> None:
    calls = [s.step.call or "" for s in _xianshi().steps if s.placed.part_title == part]
    visited = [
        c.removeprefix("詣").removesuffix("神位前")
        for c in calls
        if c.startswith("詣") and c.endswith("神位前")
    ]
    assert visited == tablets


@pytest.mark.parametrize(("part", "silk_calls"), [("奠帛・初獻", 6), ("亞獻", 0), ("終獻", 0)])
def test_silk_only_at_the_first_offering(part: str, silk_calls: int) -> None:
    steps = [s.step for s in _xianshi().steps if s.placed.part_title == part]
    assert len([s for s in steps if s.call == "奠帛"]) == silk_calls


def test_the_sharing_offering_comes_before_mencius() -> None:
    calls = [s.step.call for s in _xianshi().steps]
    assert calls.index("詣述聖子思子神位前") < calls.index("行分獻禮") < calls.index("詣亞聖孟子神位前")


@pytest.mark.parametrize(
    ("movement", "actions"),
    [
        ("yingshen", ["start", "stop"]),
        ("chuxian", ["start", "pause", "resume", "stop"]),
        ("yaxian", ["start", "stop"]),
        ("zhongxian", ["start", "stop"]),
        ("chezhuan", ["start", "stop"]),
        ("songshen", ["start", "stop"]),
        ("wangyi", ["start", "stop"]),
    ],
)
def test_music_cues(movement: str, actions: list[str]) -> None:
    assert [s.step.music_action for s in _xianshi().steps if s.step.music == movement] == actions


@pytest.mark.parametrize(
    ("altar", "kind", "name", "count"),
    [
        ("zhengdian", "offerings", "籩", 8),  # 八籩八豆, against the base's 籩十豆十
        ("zhengdian", "offerings", "豆", 8),
        ("zhengdian", "cups", None, 3),
        ("sipei", "offerings", "籩", 6),
        ("sipei", "offerings", "登", 1),
        ("dongzhe", "offerings", "豆", 4),
        ("dongwu", "cups", None, 4),
        ("zunjiu", "items", "象樽（以盛亞獻酒）", 1),
    ],
)
def test_altars(altar: str, kind: str, name: str | None, count: int) -> None:
    (found,) = [a for a in _xianshi().altars if a.id == altar]
    items = getattr(found, kind)
    counts = [i.count for i in items if name is None or i.vessel == name]
    assert counts == [count]
    assert all(i.cite is not None and i.cite.witness == TAIWAN_XIAN for i in items)


def test_preparations() -> None:
    preps = _xianshi().preparations
    assert [(p.kind, p.when) for p in preps] == [
        ("致齋", "丁前三日"),
        ("齋戒", "丁前一日"),
        ("習儀", "正祭前一日"),
        ("省牲", "正祭前一日"),
        ("宰牲", "正祭前一日"),
    ]
    assert "牛、羊、豕、鹿、兔" in (preps[3].text or "")


@pytest.mark.parametrize(
    ("observance", "month", "day"),
    [("shicai-xianshi-jichen", 2, 18), ("shicai-xianshi-danchen", 8, 21)],
)
def test_shicai_on_the_sages_death_and_birth_days(observance: str, month: int, day: int) -> None:
    r = resolve_rite("shicai", "臺灣縣", 1720, TAIWAN_XIAN)
    (rule,) = [d for d in r.date_rules if d.id == observance]
    assert (rule.rule.kind, rule.rule.month, rule.rule.day) == ("lunar_day", month, day)  # type: ignore[union-attr]
    assert [o.office for o in r.officiants] == ["學官"]
    (occ,) = [o for o in observances_for("臺灣縣", 1720, rites=["shicai"]) if o.observance_id == observance]
    assert occ.chinese_date is not None and (occ.chinese_date.month, occ.chinese_date.day) == (month, day)


@pytest.mark.parametrize(
    ("text_id", "start"),
    [("shicai-jichen-zhu", "于維聖師，諱以是日"), ("shicai-danchen-zhu", "追惟聖師，生以是日")],
)
def test_shicai_prayers(text_id: str, start: str) -> None:
    r = resolve_rite("shicai", "臺灣縣", 1720, TAIWAN_XIAN)
    (text,) = [t for t in r.texts if t.id == text_id]
    assert text.text.startswith(start)


def test_zhuwengong() -> None:
    r = resolve_rite("zhuwengong", "臺灣府", 1720, TAIWAN_XIAN)
    assert [o.office for o in r.officiants] == ["教官"]
    days = {
        d.id: (d.rule.kind, getattr(d.rule, "month", None), getattr(d.rule, "day", None))
        for d in r.date_rules
    }
    assert days["zhuwengong-shengchen"] == ("lunar_day", 9, 15)
    assert days["zhuwengong-jichen"] == ("lunar_day", 3, 9)
    names = [t.name for t in r.tablets]
    assert len(names) == 5 and names[0] == "先賢朱子文公"
    (prayer,) = r.texts
    assert "道宗孔孟，學繼周程" in prayer.text
    (zheng,) = [a for a in r.altars if a.id == "an"]
    assert [(c.material, c.count) for c in zheng.cups] == [("主爵", 1), ("獻爵", 3)]


@pytest.mark.parametrize(
    ("role", "count"),
    [("樂生", 36), ("工歌", 6), ("舞生", 36), ("執事生員", None)],
)
def test_musicians_and_dancers(role: str, count: int | None) -> None:
    (found,) = [r for r in _xianshi().roles if r.name == role]
    assert found.count == count


@pytest.mark.parametrize(
    ("rite", "place", "venues"),
    [
        ("wanshouting", "臺灣府", ["萬壽亭（永康里之北）", "府學明倫堂"]),
        ("jiezhao", "臺灣縣", ["大井下海濱", "府學明倫堂"]),
        ("yingchun", "臺灣縣", ["東郊"]),
        ("bianchun", "臺灣縣", ["儀門"]),
        ("xiangyue", "臺灣縣", ["明倫堂"]),
        ("xiangyinjiu", "臺灣縣", ["儒學"]),
    ],
)
def test_venues(rite: str, place: str, venues: list[str]) -> None:
    r = resolve_rite(rite, place, 1720, TAIWAN_XIAN)
    assert [v.name for v in r.venues] == venues
    assert all(v.cite is not None and v.cite.witness == TAIWAN_XIAN for v in r.venues)


@pytest.mark.parametrize(
    ("rite", "place", "action"),
    [
        ("wanshouting", "臺灣府", "行九叩禮"),
        ("wanshouting", "臺灣府", "不理刑名凡七日"),
        ("jiezhao", "臺灣縣", "既至，陞馬前導，以位為序，尊者居後"),
        ("yingchun", "臺灣縣", "置諸儀門，西向"),
        ("bianchun", "臺灣縣", "鞭土牛以畢寒氣"),
        ("xiangyinjiu", "臺灣縣", "酒七巡"),
        ("xiangyinjiu", "臺灣縣", "禮畢，知縣率賓望北謝恩，賓乃退"),
    ],
)
def test_brief_rites_steps(rite: str, place: str, action: str) -> None:
    steps = [s.step for s in resolve_rite(rite, place, 1720, TAIWAN_XIAN).steps if s.step.action == action]
    assert len(steps) == 1
    assert steps[0].cite is not None and steps[0].cite.witness == TAIWAN_XIAN


@pytest.mark.parametrize(
    ("year", "text_ids_tail"),
    [
        (1720, ["shangyu-15", "shangyu-16"]),
        (1730, ["shangyu-16", "guangxun"]),  # the 聖諭廣訓 of 雍正元年, from taiwan-fuzhi-9
    ],
)
def test_xiangyue_texts(year: int, text_ids_tail: list[str]) -> None:
    r = resolve_rite("xiangyue", "臺灣縣", year, TAIWAN_XIAN)
    ids = [t.id for t in r.texts]
    assert ids[-2:] == text_ids_tail
    words = {t.id: t.text for t in r.texts}
    assert words["liuyu"] == "孝順父母，尊敬長上，和睦鄉里，教訓子孫，各安生理，莫作非為"
    assert words["shangyu-12"] == "息誣訟，以全良善"
