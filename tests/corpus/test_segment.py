"""Segmentation of transcribed gazetteers that a real chapter survives (dianli.corpus.draft), on excerpts
of the corpus's chapters (tests/fixtures/segment, each described in its README): a table of contents is
not the sections, a header line the format does not know is metadata and not text, an editorial mark is a
gap. The drafted anchors are checked as a drafted manifest uses them: resolved by
:func:`dianli.corpus.sections.sections_of` on the normalised text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dianli.corpus.dated_events import extract_dates
from dianli.corpus.draft import (
    DraftWarning,
    contents_lines,
    draft_folder,
    draft_manifest,
    find_anchors,
    read_header,
    witness_text,
)
from dianli.corpus.normalise import fold, normalise
from dianli.corpus.sections import Section, sections_of
from dianli.corpus.witnesses import WitnessManifest
from dianli.datafile import load_model_path

FIXTURES = Path(__file__).parent.parent / "fixtures" / "segment"


def _read(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def _drafted_sections(text: str) -> tuple[Section, ...]:
    norm = normalise(text)
    return sections_of("draft", norm, find_anchors(text), ((0, len(norm.text), None),), "a drafted manifest")


@pytest.mark.parametrize(
    ("name", "contents", "section", "heading", "follows"),
    [
        # 苗栗縣志: a list line, the parts' line, then every heading again one per line; the body opens at
        # the second 庆贺, followed by its text.
        (
            "miaoli_toc.txt",
            [
                "庆贺：接诏：迎春：耕耤：祭社稷：厉祭：救护：乡饮酒：乡约：",
                "祠祀：祠庙",
                "庆贺",
                "接诏",
                "迎春（鞭春附）",
                "耕耤",
                "祭社稷",
                "厉祭",
                "救护日月",
                "乡饮酒",
                "乡约",
                "祠祀",
                "祠庙",
            ],
            "qinghe",
            "庆贺",
            "万寿圣节",
        ),
        # 噶瑪蘭廳志: the headings written together on one line, then one per line.
        (
            "gemalan_toc.txt",
            ["庆贺迎诏迎春耕耤朔望行香救护日月", "庆贺", "迎诏", "迎春", "耕耤", "朔望行香", "救护日月"],
            "qinghe",
            "庆贺",
            "岁逢元旦",
        ),
        # 鳳山縣志: 「文庙坛庙祠」 before the preface, then 文庙 坛 庙 祠 and the 文庙 that heads 考祭义.
        ("fengshan_toc.txt", ["文庙坛庙祠", "文庙", "坛", "庙", "祠"], "xianshi", "文庙", "考祭义"),
        # 諸羅縣志: 文庙 坛祭 and the two written together, with the title lines above them.
        ("zhuluo_toc.txt", ["卷四", "祀典志", "文庙", "坛祭", "文庙坛祭"], "xianshi", "文庙", "释奠"),
        # 臺灣縣志: the list line with a note, then the run; the body opens at ·朝贺 (the heading as the
        # section holds it is its words, 朝贺).
        (
            "taiwan_xianzhi_toc.txt",
            ["朝贺祭祀公式乡饮酒礼讲约（附养老）", "朝贺", "祭祀", "公式", "乡饮酒礼", "讲约（附养老）"],
            "qinghe",
            "朝贺",
            "万寿节",
        ),
    ],
)
def test_a_table_of_contents_is_not_the_sections(
    name: str, contents: list[str], section: str, heading: str, follows: str
) -> None:
    text = _read(name)
    assert [line.text for line in contents_lines(text)] == contents
    drafted = _drafted_sections(text)
    norm = normalise(text)
    opened = next(s for s in drafted if s.id == section)
    assert opened.heading == heading
    after = fold(norm.text[opened.start : opened.start + len(heading) + len(follows) + 4])
    assert after.startswith(fold(heading) + fold(follows))
    # No section opens on the list: every drafted section starts at or after the body's first heading.
    last_list_line = text.rindex(contents[-1], 0, text.index(follows))
    assert all(norm.text_to_raw[s.start] > last_list_line for s in drafted if s.id != "front")


@pytest.mark.parametrize(
    ("name", "anchors"),
    [
        # Colon headings after a list of two parts (公式, 坛庙) that are no sections of the tree.
        ("chongxiu_fengshan_toc.txt", (("qinghe", "庆贺仪"), ("jiezhao", "接诏仪"), ("yingchun", "迎春仪"))),
        # Headings run into their text (城隍庙城隍神，…), a mark between two of them.
        (
            "penghu_jilue_marks.txt",
            (
                ("cisi", "·庙祀"),
                ("chenghuang", "城隍庙"),
                ("guandi", "关帝庙"),
                ("tianhou", "天后宫"),
                ("litan", "无祀祠"),
            ),
        ),
    ],
)
def test_drafted_anchors_of_an_excerpt(name: str, anchors: tuple[tuple[str, str], ...]) -> None:
    assert find_anchors(_read(name)) == anchors


NOTABLE = "光緒三十年 (1904) reprint consulted; 咸豐元年 restorations noted"


def test_other_header_lines_are_metadata_not_text(tmp_path: Path) -> None:
    path = FIXTURES / "penghu_tingzhi_notable.txt"
    text = path.read_text(encoding="utf-8")
    header = read_header(text)
    assert sorted(header.fields) == ["NOTE", "SECTIONS", "SOURCE", "WORK"]
    assert header.metadata == {"NOTABLE": NOTABLE}
    assert text[header.body_start :].startswith("　　●澎湖厅志卷二")
    # The whole header, NOTABLE: included, is one editorial gap: no key character, no text of the witness.
    norm = normalise(text)
    assert [g.kind for g in norm.editorial][:1] == ["header"]
    assert "reprint" not in norm.key and fold("光緒三十年") not in norm.key
    assert "NOTABLE" not in witness_text(text)
    with pytest.warns(DraftWarning, match="NOTABLE"):
        data = draft_manifest(path)
    assert f"NOTABLE: {NOTABLE}" in data["edition"]
    assert data["compiled"]["year"] == 1885  # the chapter's own latest date, not the NOTABLE line's 1904
    with pytest.warns(DraftWarning):
        folder = draft_folder(path, tmp_path)
    parsed = load_model_path(folder / "witness.yaml", WitnessManifest)
    assert parsed.edition == data["edition"]
    assert (folder / path.name).read_bytes() == path.read_bytes()


@pytest.mark.parametrize(
    ("name", "replace", "mark", "not_headings", "not_years"),
    [
        # [OMITTED: …] holding rite headings (真武庙 …) and an excerpt heading [卷之三 … (excerpt …)].
        ("penghu_jilue_marks.txt", None, "[OMITTED: 真武庙, 观音庙, 祖师庙", ["真武庙", "观音庙"], []),
        ("penghu_jilue_marks.txt", None, "[卷之三 官师纪 · 职事 (excerpt", ["官师纪"], []),
        # The same mark as [… omitted: …], with a date in its words (rewritten for the test).
        (
            "penghu_jilue_marks.txt",
            ("[OMITTED: 真武庙", "[真武庙 omitted: 乾隆四十年 rebuilt; 真武庙"),
            "[真武庙 omitted: 乾隆四十年",
            ["真武庙"],
            [1775],
        ),
        # 晉江縣志: an [OMITTED: 关帝庙 entry …] mark and the modern editor's notes under 〔校注〕.
        ("jinjiang_marks.txt", None, "[OMITTED: 关帝庙 entry", ["关帝庙"], []),
        ("jinjiang_marks.txt", None, "〔一〕“祝”疑当作“祀”。", [], []),
    ],
)
def test_editorial_marks_are_gaps(
    name: str,
    replace: tuple[str, str] | None,
    mark: str,
    not_headings: list[str],
    not_years: list[int],
) -> None:
    text = _read(name)
    if replace is not None:
        text = text.replace(*replace)
    assert mark in text
    norm = normalise(text)
    gap = next(g for g in norm.editorial if norm.text[g.start : g.end].startswith(re.sub(r"\s", "", mark)))
    own = witness_text(text)
    assert re.sub(r"\s", "", mark) not in own
    for heading in not_headings:
        assert all(heading not in a for _, a in find_anchors(text))
    years = {e.gregorian_year for e in extract_dates(own)}
    assert not years & set(not_years)
    # No drafted section opens inside the gap.
    assert all(not gap.start <= s.start < gap.end for s in _drafted_sections(text))


_PIECES = [
    "社稷坛",
    "文庙",
    "庆贺",
    "器具",
    "祭",
    "：",
    "。",
    "（附）",
    "\n",
    "\n\n",
    "　　",
    "每岁春秋致祭",
    "[OMITTED: 社稷坛 x]",
    "〔校注〕",
    "〔一〕",
    "□",
    "乾隆元年",
    "SOURCE: s\n",
    "=====\n",
]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40))
def test_drafted_anchors_always_resolve(pieces: list[str]) -> None:
    """Whatever the text, the drafted anchors are found again, in order, by the manifest's resolver (a
    drafted folder's sections always build)."""
    text = "".join(pieces)
    drafted = _drafted_sections(text)
    assert all(s.start <= s.end for s in drafted)
    read_header(text)
    witness_text(text)
