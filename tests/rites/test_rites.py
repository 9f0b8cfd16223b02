"""Rites: schema errors, goldens of every rite's order of service, dated rules, places, witnesses."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dianli.errors import DataError, DianliError
from dianli.rites.load import all_rites, parse_rite_file
from dianli.rites.render import to_data
from dianli.rites.resolve import find_rite, resolve_rite

GOLDEN = Path(__file__).parent.parent / "golden" / "rites"
REGEN = os.environ.get("DIANLI_REGEN_GOLDENS") == "1"
GOLDEN_YEAR = 1752

MINIMAL = """
family: test
rites:
  - id: demo
    cite: {witness: taiwan-fuzhi-9, quote: 祭社稷禮}
    names: {classical: [祭社稷禮], gloss: demo, cite: {witness: taiwan-fuzhi-9, quote: 祭社稷禮}}
    parts:
      - id: p
        title: P
        cite: {witness: taiwan-fuzhi-9, quote: 行初獻禮}
        steps:
          - {kind: call, role: 通贊, call: 迎神, cite: {witness: taiwan-fuzhi-9, quote: 迎神}}
"""


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("call: 迎神,", "call: 迎神, posture: 五跪,", "parts[0].steps[0]"),
        ("call: 迎神,", "call: 迎神, colour: red,", "parts[0].steps[0].colour"),
        ("kind: call", "kind: shout", "parts[0].steps[0].kind"),
        ("title: P\n", "title: P\n        bogus: 1\n", "parts[0].bogus"),
        ("    names:", "    venue: [{name: 文廟}]\n    names:", "venue[0]"),
    ],
)
def test_schema_errors_name_file_rite_and_field(old: str, new: str, field: str) -> None:
    assert parse_rite_file("demo.yaml", MINIMAL).rites[0].id == "demo"
    with pytest.raises(DataError) as info:
        parse_rite_file("demo.yaml", MINIMAL.replace(old, new))
    message = str(info.value)
    assert "demo.yaml" in message and "rite 'demo'" in message and f"field {field}" in message


def _golden_year(rite_id: str) -> int:
    """1752, or the rite's first year where it begins later (文昌 1801, 昭忠 1815)."""
    first = all_rites()[rite_id].from_year
    return max(GOLDEN_YEAR, first) if first is not None else GOLDEN_YEAR


def _golden_place(rite_id: str) -> str:
    rite = all_rites()[rite_id]
    return rite.places[0] if rite.places else "臺灣府"


@pytest.mark.parametrize("rite_id", sorted(all_rites()))
def test_golden_order_of_service(rite_id: str) -> None:
    data = to_data(resolve_rite(rite_id, _golden_place(rite_id), _golden_year(rite_id)))
    path = GOLDEN / f"{rite_id}.json"
    text = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    if REGEN or not path.exists():
        if not REGEN:
            pytest.fail(f"no golden {path.name}; run with DIANLI_REGEN_GOLDENS=1 to write it")
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "tablet", "year", "hall"),
    [
        ("先賢朱子（熹）", "朱子", 1700, "西廡"),
        ("先賢朱子（熹）", "朱子", 1720, "正殿（西哲）"),
        ("先賢有子（若）", "有子", 1730, "東廡"),
        ("先賢有子（若）", "有子", 1740, "正殿（東哲）"),
    ],
)
def test_dated_tablets(name: str, tablet: str, year: int, hall: str) -> None:
    tablets = [t for t in resolve_rite("xianshi", "臺灣府", year).tablets if t.name == name]
    assert [t.hall for t in tablets] == [hall]


@pytest.mark.parametrize(("year", "joins"), [(1709, False), (1710, True), (1752, True)])
def test_military_officers_join_from_1710(year: int, joins: bool) -> None:
    r = resolve_rite("xianshi", "福州", year)
    assert any("把總" in o.office for o in r.officiants) is joins
    assert any("把總" in "".join(n.step.actors) for n in r.steps) is joins


@pytest.mark.parametrize(
    ("place", "chief"),
    [
        ("福州", "福建布政使司"),
        ("汀州府", "知府（本府）"),  # 汀州府志 卷十一: 「正献官　本府知府」
        ("臺灣府", "知府"),
        ("長汀縣", "知縣"),
        ("鳳山縣", "知縣"),
        ("淡水海防廳", "同知（廳之掌印官）"),
    ],
)
def test_chief_officiant_by_place(place: str, chief: str) -> None:
    chiefs = [o for o in resolve_rite("xianshi", place, 1752).officiants if o.function == "正獻官"]
    assert [o.office for o in chiefs] == [chief]
    # stated for 福州 (the 通志) and 汀州府 (its own 府志); elsewhere the office follows from the place's level
    assert (chiefs[0].assumption is not None) is (place not in ("福州", "汀州府"))


@pytest.mark.parametrize(
    ("rite", "place", "ok"),
    [
        ("changgong", "福州", True),
        ("changgong", "汀州府", False),
        ("常公祠", "臺灣府", False),
        ("zhuwengong", "臺灣府", True),
    ],
)
def test_local_shrines(rite: str, place: str, ok: bool) -> None:
    if ok:
        assert resolve_rite(rite, place, 1752).steps
    else:
        with pytest.raises(DianliError, match="accepted"):
            resolve_rite(rite, place, 1752)


@pytest.mark.parametrize(
    ("witness", "door"),
    [("taiwan-fuzhi-9", "西角門"), ("fujian-tongzhi-14", "西角門"), ("tingzhou-fuzhi", "兩角門")],
)
def test_witness_readings(witness: str, door: str) -> None:
    doors = {n.step.door for n in resolve_rite("xianshi", "臺灣府", 1752, witness).steps if n.step.door}
    assert door in doors and ({"西角門", "兩角門"} - {door}).isdisjoint(doors)


def test_subsequent_offerings_drop_silk_and_prayer() -> None:
    steps = resolve_rite("xianshi", "臺灣府", 1752).steps
    by_part: dict[str, list[str]] = {}
    for n in steps:
        by_part.setdefault(n.placed.part_title, []).append(n.step.call or "")
    assert "奠帛" in by_part["初獻"] and "讀祝文" in by_part["初獻"]
    for part in ("亞獻", "終獻"):
        assert (
            "奠帛" not in by_part[part] and "讀祝文" not in by_part[part] and "詣盥洗所" not in by_part[part]
        )
    assert "樂奏安平之章" in by_part["亞獻"] and "樂奏景平之章" in by_part["終獻"]
    assert (
        steps[0].step.action and steps[0].step.action.startswith("鼓初嚴") and steps[-2].step.call == "禮畢"
    )


@pytest.mark.parametrize("name", ["祀先師", "祀先师", "釋奠", "xianshi", "文廟"])
def test_rite_names(name: str) -> None:
    assert find_rite(name) == "xianshi"


@pytest.mark.parametrize(
    ("args", "kind"),
    [
        (("nosuch", "臺灣府", 1752), "rite"),
        (("xianshi", "京師", 1752), "place"),
        (("xianshi", "臺灣府", 1600), "year"),
    ],
)
def test_bad_input_names_value(args: tuple[str, str, int], kind: str) -> None:
    with pytest.raises(DianliError, match=kind):
        resolve_rite(*args)


def test_every_citation_resolves() -> None:
    from dianli.rites.model import walk_paths

    for rite in all_rites().values():
        for path, element in walk_paths(rite, rite.id):
            for cite in element.citations:
                assert cite.resolve(), path


# --- 社稷 and 山川: composition by extends, replace_text, mirror_positions and like ---

SHANCHUAN_PLACES = ("福州", "臺灣府", "長汀縣", "淡水海防廳", "永春州")


def _texts(rite: str, place: str, witness: str | None = None) -> str:
    r = resolve_rite(rite, place, 1752, witness)
    return "\n".join(
        f"{n.placed.part_title} {n.step.call or ''} {n.step.action or ''} {n.step.place or ''}"
        for n in r.steps
    )


@pytest.mark.parametrize("place", SHANCHUAN_PLACES)
@pytest.mark.parametrize(
    ("rite", "present", "absent"), [("sheji", "望瘞", "望燎"), ("shanchuan", "望燎", "望瘞")]
)
def test_shanchuan_burns_where_sheji_buries(place: str, rite: str, present: str, absent: str) -> None:
    text = _texts(rite, place)
    assert present in text and absent not in text


def _swap(text: str | None) -> str | None:
    return None if text is None else text.translate(str.maketrans("南北", "北南"))


@pytest.mark.parametrize("altar", ["fengyun", "shanchuan", "chenghuang"])
def test_shanchuan_offerings_mirror_sheji(altar: str) -> None:
    she = next(a for a in resolve_rite("sheji", "臺灣府", 1752).altars if a.id == "she")
    mine = next(a for a in resolve_rite("shanchuan", "臺灣府", 1752).altars if a.id == altar)
    assert [(o.vessel, o.count, o.contents) for o in mine.offerings] == [
        (o.vessel, o.count, o.contents) for o in she.offerings
    ]
    assert [o.position for o in mine.offerings] == [_swap(o.position) for o in she.offerings]
    assert [(v.animal, _swap(v.position)) for v in she.victims] == [
        (v.animal, v.position) for v in mine.victims
    ]
    assert any(o.position and "北" in o.position for o in mine.offerings)


@pytest.mark.parametrize(("rite", "across"), [("sheji", ("南", "北")), ("shanchuan", ("北", "南"))])
def test_plan_axes(rite: str, across: tuple[str, str]) -> None:
    from dianli.rites.render import plan_lines

    r = resolve_rite(rite, "臺灣府", 1752)
    assert r.plan is not None and r.plan.across == across
    middle = next(line for line in plan_lines(r) if "獻官位" in line)
    assert middle.startswith(across[0]) and middle.endswith(across[1])


@pytest.mark.parametrize(("altar", "silk"), [("fengyun", 4), ("shanchuan", 2), ("chenghuang", 1)])
def test_shanchuan_silk(altar: str, silk: int) -> None:
    a = next(a for a in resolve_rite("shanchuan", "臺灣府", 1752).altars if a.id == altar)
    assert [(s.count, s.colour) for s in a.silk] == [(silk, "白")]


@pytest.mark.parametrize(
    ("rite", "place", "witness", "chief", "assumed"),
    [
        ("sheji", "福州", None, "福建布政使司", False),
        ("sheji", "臺灣府", None, "知府", True),
        ("sheji", "永春州", None, "知州", True),
        ("sheji", "長汀縣", None, "知縣", True),
        ("sheji", "鳳山縣", None, "知縣", True),
        ("sheji", "淡水海防廳", None, "同知（淡水海防同知）", True),
        ("shanchuan", "福州", None, "福建按察使司", False),
        ("shanchuan", "福州", "taiwan-fuzhi-9", "福建布政使司", False),
        ("shanchuan", "彰化縣", None, "知縣", True),
    ],
)
def test_sheji_officiants_by_place(
    rite: str, place: str, witness: str | None, chief: str, assumed: bool
) -> None:
    chiefs = [o for o in resolve_rite(rite, place, 1752, witness).officiants if o.function == "主祭官"]
    assert [o.office for o in chiefs] == [chief]
    assert (chiefs[0].assumption is not None) is assumed


@pytest.mark.parametrize(("year", "monitors"), [(1737, 0), (1738, 3)])
def test_sheji_monitors_from_1738(year: int, monitors: int) -> None:
    roles = [r.name for r in resolve_rite("sheji", "臺灣府", year).roles]
    assert sum(name in ("監禮官", "監視官", "監宰官") for name in roles) == monitors


@pytest.mark.parametrize(
    ("rite", "tablets"),
    [("sheji", ["社", "稷"]), ("shanchuan", ["風雲雷雨", "山川", "城隍"])],
)
def test_offerings_visit_each_tablet(rite: str, tablets: list[str]) -> None:
    steps = resolve_rite(rite, "臺灣府", 1752).steps
    for part in ("初獻", "亞獻", "終獻"):
        calls = [n.step.call for n in steps if n.placed.part_title == part and n.step.call]
        assert [c[1:-3] for c in calls if c.startswith("詣") and c.endswith("神位前")] == tablets
        assert ("讀祝" in calls) is (part == "初獻") and ("奠帛" in calls) is (part == "初獻")


# --- 崇聖祠 and 釋菜 ---


def _calls(rite: str, place: str, part: str | None = None, witness: str | None = None) -> list[str]:
    steps = resolve_rite(rite, place, 1752, witness).steps
    return [n.step.call for n in steps if n.step.call and (part is None or n.placed.part_title == part)]


KINGS = ["肇聖王", "裕聖王", "詒聖王", "昌聖王", "啟聖王"]


@pytest.mark.parametrize(("place", "witness"), [("臺灣府", None), ("福州", None), ("汀州府", None)])
@pytest.mark.parametrize("part", ["初獻", "亞獻", "終獻"])
def test_chongsheng_visits_five_kings_then_correlates(place: str, witness: str | None, part: str) -> None:
    visits = [
        c[1:-3]
        for c in _calls("chongsheng", place, part, witness)
        if c.startswith("詣") and c.endswith("神位前")
    ]
    assert visits == [*KINGS, "東配先賢顏氏", "西配先賢曾氏", "東配先賢孔氏", "西配先賢孟孫氏"]
    calls = _calls("chongsheng", place, part, witness)
    assert ("讀祝文" in calls) is (part == "初獻") and ("奠帛" in calls) is (part == "初獻")
    assert ("詣盥洗所" in calls) is (part == "初獻")


@pytest.mark.parametrize(("place", "zhu"), [("臺灣府", True), ("福州", False), ("汀州府", False)])
def test_chongsheng_zhu_shi_only_in_001(place: str, zhu: bool) -> None:
    visits = _calls("chongsheng", place, "分獻")
    assert ("詣先儒朱氏神位前" in visits) is zhu
    assert visits[1] == "詣先儒周氏神位前" and "詣先儒蔡氏神位前" in visits


def test_a_governing_witness_without_the_rite_reads_it_through_its_base() -> None:
    """福州 in 1752 is governed by 福州府志 (乾隆), whose 壇廟 refers 崇聖祠 to 學校 and states none of it: the
    rite is read through its base, 福建通志 — not from every witness, which would bring in 臺灣府志's 朱氏."""
    resolved = resolve_rite("chongsheng", "福州", 1752)
    assert resolved.witness == "fuzhou-fuzhi-qianlong-14"
    calls = [n.step.call for n in resolved.steps]
    assert calls == [n.step.call for n in resolve_rite("chongsheng", "福州", 1752, "fujian-tongzhi-14").steps]
    assert "詣先儒朱氏神位前" not in calls


def test_chongsheng_order_of_service() -> None:
    calls = _calls("chongsheng", "臺灣府")
    steps = resolve_rite("chongsheng", "臺灣府", 1752).steps
    assert steps[0].step.action == "與祭畢集祠中" and calls[-1] == "復位，禮畢"
    order = [
        "瘞毛血",
        "迎神",
        "行初獻禮",
        "讀祝文",
        "行分獻禮",
        "行亞獻禮",
        "行終獻禮",
        "飲福受胙",
        "徹饌",
        "送神",
        "望瘞",
    ]
    assert [calls.index(c) for c in order] == sorted(calls.index(c) for c in order)


@pytest.mark.parametrize(("altar", "silk", "cups"), [("wuan", 5, 3), ("sipei", 2, 3), ("liangwu", 2, 3)])
def test_chongsheng_layout(altar: str, silk: int, cups: int) -> None:
    a = next(a for a in resolve_rite("chongsheng", "福州", 1752).altars if a.id == altar)
    assert a.silk[0].count == silk and a.cups[0].count == cups


@pytest.mark.parametrize("place", ["福州", "汀州府", "長汀縣"])
def test_shicai_sequence(place: str) -> None:
    calls = _calls("shicai", place)
    assert calls[:2] == ["排班", "闢戶"] and calls[-1] == "禮畢"
    visits = [c[1:-3] for c in calls if c.startswith("詣") and c.endswith("神位前")]
    assert visits == ["至聖孔先師", "復聖顏子", "宗聖曾子", "述聖子思子", "亞聖孟子"]
    assert calls.index("行分獻禮") < calls.index("詣亞聖孟子神位前")


@pytest.mark.parametrize(("altar", "items"), [("xianshi", 4), ("sipei", 4), ("shiyizhe", 3), ("liangwu", 3)])
def test_shicai_offerings(altar: str, items: int) -> None:
    a = next(a for a in resolve_rite("shicai", "福州", 1752).altars if a.id == altar)
    assert len(a.offerings) == items and a.cups[0].count == 3
