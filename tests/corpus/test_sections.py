"""Every section id of the shared tree stands in each witness that holds it, in order."""

from __future__ import annotations

import itertools

import pytest

from dianli.corpus.sections import find_sections, resolve_section_id, section_defs, section_ids, sections
from dianli.errors import UnknownValueError

RITE_HEADINGS = [
    "qinghe", "jiezhao", "wanshouting", "yingchun", "gengji", "jiuhu", "xiangyinjiu", "xiangyue", "sheji",
    "shanchuan", "xianshi", "yue", "wupu", "guandi", "longshen", "litan", "qidao", "cisi",
]  # fmt: skip
XIANSHI_PARTS = [
    "xianshi.jiqi", "xianshi.zhaijie", "xianshi.shengsheng", "xianshi.zaisheng", "xianshi.jiqi-vessels",
    "xianshi.zhijiwu", "xianshi.xianguan", "xianshi.zhishi", "xianshi.chenshe", "xianshi.chongsheng",
    "xianshi.zhisheng", "xianshi.peisi",
]  # fmt: skip
BAYIN = [f"yue.yueqi.{p}" for p in ("jin", "shi", "si", "zhu", "pao", "tu", "ge", "mu")]
YUEZHANG = [
    f"yue.yuezhang.{m}"
    for m in ("yingshen", "chuxian", "yaxian", "zhongxian", "chezhuan", "songshen", "wangyi")
]
WUPU = [f"wupu.{m}" for m in ("yingshen", "chuxian", "yaxian", "zhongxian", "chezhuan", "songshen", "wangyi")]
YUE_RULES = ["yue.yuepu", "yue.tuogu", "yue.cues", "yue.gekoupu", "yue.xianggu", "yue.jingjie", "yue.yuedi"]
YINGCHUN = ["yingchun.tuniu", "yingchun.mangshen", "yingchun.yizhu", "yingchun.bianchun"]
GENGJI = ["gengji.tanwei", "gengji.riqi", "gengji.jipin", "gengji.qiju", "gengji.yizhu"]
GUANDI = ["guandi.qiandian", "guandi.houdian"]
CISI = [f"cisi.{p}" for p in ("taiwanfu", "taiwanxian", "fengshan", "zhuluo", "zhanghua", "danshui")]

# Which witness holds which section: the expected ids, witness by witness.
EXPECTED: dict[str, list[str]] = {
    "taiwan-fuzhi-9": [*RITE_HEADINGS, "qinghe.biaojian", "xiangyinjiu.yizhu", "xiangyinjiu.zuotu", "sheji.chenshe", "shanchuan.chenshe", "xianshi.weici", "yue.yueqi", "yue.yueqi.wuqi", "yue.yuezhang", *YINGCHUN, *GENGJI, *XIANSHI_PARTS, *BAYIN, *YUEZHANG, *WUPU, *YUE_RULES, *GUANDI, *CISI],
    "fujian-tongzhi-14-modern": [r for r in RITE_HEADINGS if r not in ("wanshouting", "cisi")]
        + ["xianshi.shicai", "xiangyinjiu.yizhu", "xiangyinjiu.zuotu", "sheji.chenshe", "shanchuan.chenshe",
           "yue.yueqi", "yue.yueqi.wuqi", "yue.yuezhang", "back"]
        + YINGCHUN + GENGJI + XIANSHI_PARTS + BAYIN + YUEZHANG + WUPU + YUE_RULES + GUANDI,
    "fujian-tongzhi-14": ["sheji", "sheji.chenshe", "shanchuan", "shanchuan.chenshe", "xianshi", "yue", "yue.yueqi", "yue.yueqi.jin", "xianshi.shicai", "yue.cues", "yue.gekoupu", "yue.xianggu", "yue.jingjie", "yue.yuedi", "wupu", "guandi", "longshen", "litan", "qidao", "back", *XIANSHI_PARTS, *WUPU, *GUANDI],
    "tingzhou-fuzhi": ["xianshi", "xianshi.chongsheng", "xianshi.zhisheng", "xianshi.peisi", "xianshi.shicai", "yue", "yue.yueqi", *BAYIN[:6]],
}  # fmt: skip

# Sections that a fragment begins inside (their start is lost).
MID_START = {
    ("fujian-tongzhi-14", "sheji"),
    ("fujian-tongzhi-14", "yue"),
    ("fujian-tongzhi-14", "yue.cues"),
    ("fujian-tongzhi-14-modern", "qinghe"),
    ("tingzhou-fuzhi", "xianshi"),
    ("tingzhou-fuzhi", "xianshi.chongsheng"),
}

# Sections a witness lacks although a neighbour has them (lost, or not in this gazetteer).
ABSENT = [
    ("taiwan-fuzhi-9", "xianshi.shicai"),
    ("fujian-tongzhi-14", "yingchun"),
    ("fujian-tongzhi-14", "yue.yuezhang"),
    ("tingzhou-fuzhi", "yue.yueqi.ge"),
    ("fujian-tongzhi-14-modern", "cisi"),
]


@pytest.mark.parametrize("witness", sorted(EXPECTED))
def test_expected_sections_present(witness: str) -> None:
    held = set(section_ids(witness))
    missing = sorted(set(EXPECTED[witness]) - held)
    assert not missing, f"{witness} lacks {missing}"


@pytest.mark.parametrize("witness", sorted(EXPECTED))
def test_every_held_section_is_expected(witness: str) -> None:
    extra = sorted(set(section_ids(witness)) - set(EXPECTED[witness]) - {"front"})
    assert not extra, f"{witness} holds unexpected {extra}"


@pytest.mark.parametrize(("witness", "section"), sorted(MID_START))
def test_fragment_starts_mid_section(witness: str, section: str) -> None:
    assert any(s.mid_start for s in find_sections(witness, section))


@pytest.mark.parametrize("witness", sorted(EXPECTED))
def test_only_listed_sections_start_mid(witness: str) -> None:
    mids = {(witness, s.id) for s in sections(witness) if s.mid_start}
    assert mids <= MID_START


@pytest.mark.parametrize(("witness", "section"), ABSENT)
def test_absent_section_is_an_error_naming_what_is_there(witness: str, section: str) -> None:
    with pytest.raises(UnknownValueError) as info:
        find_sections(witness, section)
    assert section in str(info.value)


@pytest.mark.parametrize("witness", sorted(EXPECTED))
def test_sections_nest_and_children_follow_parents(witness: str) -> None:
    defs = section_defs()
    secs = sections(witness)
    for sec in secs:
        assert sec.start < sec.end, sec
        parent = defs[sec.id].parent
        if parent is None:
            continue
        holders = [p for p in secs if p.id == parent and p.start <= sec.start and sec.end <= p.end]
        assert holders, f"{witness}: {sec.id} at {sec.start} is not inside its parent {parent}"


@pytest.mark.parametrize("witness", sorted(EXPECTED))
def test_top_level_sections_tile_each_fragment(witness: str) -> None:
    tops = [s for s in sections(witness) if s.depth == 0]
    for a, b in itertools.pairwise(tops):
        assert a.end <= b.start, (a.id, b.id)


@pytest.mark.parametrize(
    ("witness", "section", "heading"),
    [
        ("taiwan-fuzhi-9", "xianshi.zhisheng", "祭至聖先師儀注"),
        ("taiwan-fuzhi-9", "cisi.danshui", "淡水海防廳"),
        ("fujian-tongzhi-14", "shanchuan", "祭山川禮"),
        ("fujian-tongzhi-14", "guandi", "祭關帝禮"),
        ("fujian-tongzhi-14-modern", "yingchun.tuniu", "土牛式"),
        ("fujian-tongzhi-14-modern", "yue.yueqi.mu", "木器部"),
        ("tingzhou-fuzhi", "xianshi.shicai", "附释菜礼"),
    ],
)
def test_headings_as_the_witness_writes_them(witness: str, section: str, heading: str) -> None:
    (sec,) = find_sections(witness, section)
    assert sec.heading == heading


@pytest.mark.parametrize(
    ("name", "expected"),
    [("xianshi.chenshe", "xianshi.chenshe"), ("祀先師", "xianshi"), ("祀先师", "xianshi"), ("舞譜", "wupu"),
     ("土牛式", "yingchun.tuniu"), ("祭至聖先師儀注", "xianshi.zhisheng"), ("附释菜礼", "xianshi.shicai"),
     ("金類", "yue.yueqi.jin"), ("関帝", None), ("", None)],
)  # fmt: skip
def test_resolve_section_id(name: str, expected: str | None) -> None:
    if expected is None:
        with pytest.raises(UnknownValueError):
            resolve_section_id(name)
    else:
        assert resolve_section_id(name) == expected


def test_ambiguous_title_lists_the_ids() -> None:
    with pytest.raises(UnknownValueError) as info:
        resolve_section_id("陳設祭物圖")
    assert "sheji.chenshe" in str(info.value) and "shanchuan.chenshe" in str(info.value)


@pytest.mark.parametrize(
    ("section", "gloss"),
    [
        ("shanchuan", "altar of mountains and rivers (wind, clouds, thunder, rain; city god)"),
        ("yue.gekoupu", "singing, and the scale of the voice"),
        ("wupu.wangyi", "watching the burial (music, no dance)"),
        ("litan", "altar of the unworshipped dead"),
    ],
)
def test_glosses_are_whole(section: str, gloss: str) -> None:
    """sections.yaml is read strictly: a gloss with a comma is one value, not a gloss and stray keys."""
    assert section_defs()[section].gloss == gloss
