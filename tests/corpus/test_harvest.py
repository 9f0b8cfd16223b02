"""Harvest: the ritual chapters found in the pages of whole works, against what the curators took."""

from __future__ import annotations

import datetime
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dianli.corpus import guwen, harvest
from dianli.corpus.draft import read_header, witness_text
from dianli.corpus.normalise import fold, normalise
from dianli.errors import DataError

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "sources" / "guwen"
WITNESSES = ROOT / "src" / "dianli" / "corpus" / "witnesses"
DAY = datetime.date(2025, 1, 1)

# work, the curated witness made from its pages, recall and precision measured with that witness's own
# manifest left out of the headings and its own quotations out of the vocabulary (bench/harvest.py prints
# them; a change that lowers one is a change to look at)
MEASURED = [
    ("晋江县志道光本", "jinjiang-xianzhi-15", 1.00, 0.89),
    ("澎湖厅志", "penghu-tingzhi-2", 0.74, 0.97),
    ("苗栗县志", "miaoli-xianzhi-10", 1.00, 0.95),
    ("金门志", "jinmen-zhi-4", 0.69, 1.00),
]


@pytest.fixture(scope="module")
def works() -> dict[str, harvest.Work]:
    return {w.title: w for w in harvest.load_works([SOURCES])}


def _curated(witness: str) -> str:
    text = next((WITNESSES / witness).glob("*.txt")).read_text(encoding="utf-8")
    return text[read_header(text).body_start :]


@pytest.mark.parametrize(("title", "witness", "recall", "precision"), MEASURED)
def test_the_harvest_finds_what_the_curator_took(
    works: dict[str, harvest.Work], title: str, witness: str, recall: float, precision: float
) -> None:
    found = harvest.harvest_work(works[title], harvest.build_lexicon(witness))
    extent = harvest.measure(found, _curated(witness))
    assert extent.curated > 400  # the curated text stands in the pages
    assert extent.recall >= recall - 0.02
    assert extent.precision >= precision - 0.02


@pytest.mark.parametrize("title", [t for t, *_ in MEASURED])
def test_the_table_of_contents_of_page_one_is_not_taken(works: dict[str, harvest.Work], title: str) -> None:
    """Page 1 opens the work with its table of contents, which lists the ritual chapters too (苗栗县志's
    「卷十典礼志 庆贺 接诏 …」): none of it is taken."""
    work = works[title]
    first = work.pages[0]
    assert first.number == 1
    found = harvest.harvest_work(work, harvest.lexicon())
    assert found.passages
    assert all(p.start >= first.end for p in found.passages)


def test_a_chapter_s_own_contents_are_no_sections(works: dict[str, harvest.Work]) -> None:
    """苗栗县志 卷十 lists its sections twice (「庆贺：接诏：…」 and one a line) before the text: each heading
    opens a block once, where its text stands."""
    work = works["苗栗县志"]
    found = harvest.blocks(work.text, harvest.lexicon())
    heads = [b.heads[-1] for b in found if b.heads]
    for heading in ("庆贺", "接诏", "乡饮酒", "乡约"):
        assert heads.count(heading) == 1
        block = next(b for b in found if b.heads and b.heads[-1] == heading)
        assert len(block.body_key) > 40


@pytest.mark.parametrize(
    ("heading", "section"),
    [
        ("祠祀", "cisi"),
        ("社稷", "sheji"),
        ("祭社稷坛", "sheji"),  # a known heading and a few characters more
        ("城隍庙", "chenghuang"),
        ("文庙", "xianshi"),
        ("救护日月", "jiuhu"),
    ],
)
def test_headings_are_read_from_the_data(heading: str, section: str) -> None:
    assert section in harvest.heading_match(fold(heading), harvest.lexicon())


@pytest.mark.parametrize("heading", ["潮汐消长时刻", "城池", "公署", "附考", "建置沿革", "卷首"])
def test_other_headings_are_not_ritual(heading: str) -> None:
    assert harvest.heading_match(fold(heading), harvest.lexicon()) == ()


@pytest.mark.parametrize(
    ("text", "share"),
    [("社稷坛", 1.0), ("潮汐消长时刻", 0.0), ("行三跪九叩礼", 1.0), ("", 0.0)],
)
def test_density(text: str, share: float) -> None:
    assert harvest.density(fold(text), harvest.lexicon().terms) == pytest.approx(share)


def test_the_names_of_places_of_worship_end_as_the_data_s_do() -> None:
    finals = harvest.lexicon().finals
    assert {"庙", "坛", "祠"} <= finals
    assert not {"城", "署", "仓"} & finals


def test_leaving_a_witness_out_drops_its_own_headings() -> None:
    """新官到任 heads a section only in 安溪縣志 康熙本's manifest (武庙, once 澎湖廳志's alone, heads 廈門志's
    關帝 too): measured on that work, it is unknown."""
    assert harvest.heading_match("新官到任", harvest.lexicon())
    assert harvest.heading_match("新官到任", harvest.build_lexicon("anxi-xianzhi-kangxi-9")) == ()


@pytest.fixture(scope="module")
def written(works: dict[str, harvest.Work]) -> tuple[harvest.Harvest, str]:
    found = harvest.harvest_work(works["澎湖厅志"], harvest.lexicon())
    return found, harvest.transcribed_file(found, harvest.lexicon(), DAY)


def test_the_file_says_what_was_taken_and_left_out(written: tuple[harvest.Harvest, str]) -> None:
    found, text = written
    header = read_header(text)
    assert header.fields["SOURCE"] == (
        "GitHub repo lhw828/GuWen, commit 1dbb87ec4994a859a7513ee35edac48e37a12af7, paths "
        "史藏/地理/澎湖厅志_page4.html"
    )
    assert header.fields["WORK"].startswith("澎湖厅志 — harvested by dianli harvest on 2025-01-01: ")
    assert "pages 1, 4 of 16 read" in header.fields["WORK"]
    assert "祠庙" in header.fields["SECTIONS"]
    body = text[header.body_start :]
    marks = re.findall(r"\[OMITTED: [^\]\n]+\]", body)
    assert len(marks) == len(normalise(text).editorial) - 1  # each mark is a gap, and so is the header
    runs = [r for r in re.split(r"\[OMITTED: [^\]\n]+\]\n", body) if r]
    assert runs == [found.work.text[p.start : p.end] for p in found.passages]  # verbatim, in order
    assert marks[0].startswith("[OMITTED: page 1: 澎湖厅志 清 林豪 纂修, ●序号   篇名, 唐序")
    assert marks[1].startswith(
        "[OMITTED: page 4: 潮汐消长时刻, 附考, 占验（附）, 封域志总论 — 4,522 characters"
    )


def test_the_source_s_script_is_kept(written: tuple[harvest.Harvest, str]) -> None:
    _, text = written
    assert "澎湖自归版图" in text and "澎湖自歸版圖" not in text


def test_the_file_drafts_a_witness(written: tuple[harvest.Harvest, str], tmp_path: Path) -> None:
    from dianli.corpus.draft import draft_manifest

    _, text = written
    path = tmp_path / harvest.file_name("澎湖厅志")
    path.write_text(text, encoding="utf-8")
    drafted = draft_manifest(path)
    assert (drafted["id"], drafted["title"], drafted["script"]) == ("penghutingzhi", "澎湖厅志", "simplified")
    assert [s for s, _ in drafted["anchors"]][:2] == ["cisi", "chenghuang"]
    assert "omitted" not in fold(witness_text(text))


@pytest.mark.parametrize(
    ("title", "name"),
    [
        ("金门志", "jinmenzhi.txt"),
        ("重修台湾县志", "chongxiutaiwanxianzhi.txt"),
        ("泉州府志选录", "quanzhoufuzhixuanlu.txt"),
    ],
)
def test_file_names(title: str, name: str) -> None:
    assert harvest.file_name(title) == name


def test_pages_are_joined_in_page_order(tmp_path: Path) -> None:
    for page in ("金门志_page6.txt", "金门志_page1.txt"):
        shutil.copy(SOURCES / "金门志" / page, tmp_path / f"x{page}")  # the file names do not order them
    (work,) = harvest.load_works([tmp_path])
    assert [p.number for p in work.pages] == [1, 6]
    assert work.text.startswith("金门志 清 林焜熿") and work.total_pages == 13


def test_a_plain_text_is_a_work(tmp_path: Path) -> None:
    extract = guwen.read_extract(SOURCES / "苗栗县志" / "苗栗县志_page15.txt")
    path = tmp_path / "miaoli.txt"
    path.write_text(
        "SOURCE: a test\nWORK: 苗栗縣志 — the page as text\n=====\n" + extract.text, encoding="utf-8"
    )
    (work,) = harvest.load_works([path])
    assert (work.title, work.pages, work.file) == ("苗栗縣志", (), str(path))
    found = harvest.harvest_work(work, harvest.lexicon())
    text = harvest.transcribed_file(found, harvest.lexicon(), DAY)
    assert read_header(text).fields["SOURCE"] == "the plain-text file miaoli.txt"
    taken = re.sub(r"\[OMITTED: [^\]\n]+\]", "", text[read_header(text).body_start :])
    assert "●苗栗县志卷十" in taken and "英才书院章程" not in taken


def _written(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _folder(path: Path) -> Path:
    path.mkdir()
    return path


def _copied(source: Path, into: Path) -> Path:
    shutil.copy(source, into)
    return into / source.name


BAD_SOURCES = [
    (lambda d: d / "none", "no such file or folder"),
    (lambda d: _folder(d / "empty"), "no *.txt or *.html file"),
    (lambda d: _written(d / "e.txt", b" \n"), "empty"),
    (lambda d: _written(d / "b.txt", b"\xff\xfe"), "not UTF-8"),
    (lambda d: _written(d / "p.txt", b"PAGE: x\n"), "line 2"),
    (lambda d: _written(d / "q.txt", "PAGE: 金门志\n".encode()), "line 2"),
    (lambda d: _copied(ROOT / "tests/fixtures/guwen/金门志_page6.html", d), "outside a git clone"),
]


@pytest.mark.parametrize(("make", "says"), BAD_SOURCES)
def test_bad_sources_are_clear_errors(make: Callable[[Path], Path], says: str, tmp_path: Path) -> None:
    with pytest.raises(DataError, match=re.escape(says)):
        harvest.load_works([make(tmp_path)])


def test_a_page_given_twice_is_refused(tmp_path: Path) -> None:
    page = SOURCES / "金门志" / "金门志_page6.txt"
    (tmp_path / "a").mkdir()
    shutil.copy(page, tmp_path / "a" / "one.txt")
    shutil.copy(page, tmp_path / "a" / "two.txt")
    with pytest.raises(DataError, match="page 6 of 「金门志」 is given twice"):
        harvest.load_works([tmp_path / "a"])


def test_the_pages_of_a_git_clone_are_read_with_their_commit(tmp_path: Path) -> None:
    clone = tmp_path / "GuWen"
    (clone / "史藏" / "地理").mkdir(parents=True)
    shutil.copy(ROOT / "tests/fixtures/guwen/金门志_page6.html", clone / "史藏" / "地理")
    (clone / ".git" / "refs" / "heads").mkdir(parents=True)
    (clone / ".git" / "HEAD").write_text("ref: refs/heads/master\n", encoding="utf-8")
    (clone / ".git" / "refs" / "heads" / "master").write_text("ab" * 20 + "\n", encoding="utf-8")
    (clone / ".git" / "config").write_text(
        '[remote "origin"]\n\turl = https://github.com/lhw828/GuWen.git\n', encoding="utf-8"
    )
    (work,) = harvest.load_works([clone])
    assert work.pages[0].source == "lhw828/GuWen 史藏/地理/金门志_page6.html"
    assert work.pages[0].commit == "ab" * 20
    assert work.text == guwen.read_extract(SOURCES / "金门志" / "金门志_page6.txt").text


def test_many_works_on_dask_give_what_one_process_gives() -> None:
    lex = harvest.lexicon()
    works = harvest.load_works([SOURCES / "金门志", SOURCES / "澎湖厅志"])
    run = harvest.harvest_sources([SOURCES / "金门志", SOURCES / "澎湖厅志"], workers=2, today=DAY)
    assert (run.workers, run.scheduler) == (2, "local processes")
    assert [r.text for r in run.results] == [harvest.harvest_one(w, lex, DAY).text for w in works]


_LINES = st.lists(
    st.one_of(
        st.sampled_from(
            ["祠祀", "●某志卷三", "社稷坛：每岁春秋致祭，行三跪九叩礼。", "城池", "附考", "", "　　"]
        ),
        st.text(st.characters(blacklist_categories=("Cs",)), max_size=40),
    ),
    max_size=30,
)


@settings(max_examples=150, deadline=None)
@given(lines=_LINES)
def test_any_text_harvests_to_passages_inside_it(lines: list[str]) -> None:
    text = "\n".join(lines)
    found = harvest.harvest_work(harvest.Work("某志", text, file="x.txt"), harvest.lexicon())
    ends = [0]
    for passage in found.passages:
        assert ends[-1] <= passage.start < passage.end <= len(text)
        ends.append(passage.end)
    out = harvest.transcribed_file(found, harvest.lexicon(), DAY)
    assert read_header(out).fields["WORK"].startswith("某志 — harvested")


FIXTURES = ROOT / "tests" / "fixtures" / "guwen-harvest"

# the mis-harvests the helpers reported on new works: the work's pages, what must be taken, what must not
MISHARVESTS = [
    (  # a geographic 山川 (mountains and rivers, no rite) under the heading of the 山川 altar
        SOURCES / "永定县志康熙本",
        ["文昌祠  在儒学前", "祀  典 附（校注", "名宦祠【在戟门左】", "　　祭器\n　　铜爵"],
        ["星   野 【隶于汀属】", "二狮石 在金丰里大溪岐岭"],
    ),
    (  # 「庙　　坛」 spaced with full-width spaces, and its first entry a list of buildings
        SOURCES / "永安县志 顺治本",
        ["庙　　坛", "先师庙　两庑　戟门　棂星门", "启圣公祠　在先师庙之右"],
        [],
    ),
    (  # 卷之五十八 (壇壝, then the 祠廟 of every prefecture) opens page 122, after the contents of page 1
        SOURCES / "八闽通志",
        ["卷之五十八", "社稷坛在府城北天王山", "怀安县　城隍庙在威灵坊内"],
        [],
    ),
    (  # 廟祀's thirteen temples, each under its own heading, and the 書院 with its 文昌 and 丁祭 rites; not the
        # 歲貢 of 貢途 (a list of graduates by year)
        SOURCES / "澎湖续编",
        [
            "　　祖师庙\n",
            "征饷报充春秋二祭",
            "附祭各木主于此以报之",
            "　　武忠庙\n",
            "用少牢，厅主率士子致祭先贤五子、魁星",
        ],
        ["颜我扬（台湾县学", "妈宫市：仓前街"],
    ),
    (  # 祠祀's entries 「名【注】」 with no colon: those stating a rite kept, a temple of none left out
        SOURCES / "福建通志",
        [
            "刘巡检庙【在郡北门外",
            "二忠祠【在城隍庙左祀宋陈文龙陈瓒",
            "烈女节妇祠【国朝雍正元年各县奉防俱建有司春秋致祭】",
        ],
        ["真人庙【在澎湖奎璧港】"],
    ),
    (  # 祠祀志's 特祠, a heading between the 壇廟 taken and the 關帝三公祠
        SOURCES / "南平县志",
        ["道南祠在城北龙山巅", "详定闽省祀典"],
        [],
    ),
    (  # the mountains of 樹杞林 under 「山川」
        FIXTURES / "树杞林志",
        [],
        ["上堡山", "马鞍凹山署东二十三里"],
    ),
]


@pytest.mark.parametrize(("pages", "taken", "left"), MISHARVESTS, ids=[p.name for p, *_ in MISHARVESTS])
def test_reported_misharvests(pages: Path, taken: list[str], left: list[str]) -> None:
    (work,) = harvest.load_works([pages])
    found = harvest.harvest_work(work, harvest.lexicon())
    text = "\n".join(work.text[p.start : p.end] for p in found.passages)
    for quote in [*taken, *left]:
        assert quote in work.text  # the quotations are the work's own
    assert [q for q in taken if q not in text] == []
    assert [q for q in left if q in text] == []


@pytest.mark.parametrize(
    ("heading", "section"),
    [("祀  典 附", "cisi"), ("廟　　壇", "cisi"), ("壇　壝", "sheji"), ("祠　庙", "cisi"), ("祠", "cisi")],
)
def test_chapter_headings_are_read_from_the_harvest_data(heading: str, section: str) -> None:
    lex = harvest.lexicon()
    assert section in harvest.heading_match(fold(heading), lex)


def test_chapter_headings_name_sections_of_the_tree() -> None:
    from dianli.corpus.tree import section_defs

    defs = section_defs()
    assert all(defs[s].parent is None for s in harvest.chapter_headings().values())


# the shapes of the ritual entries and headings the helpers reported left out (or wrongly taken), as the
# works write them: the text, what must be taken, what must be left out
SHAPES = [
    (  # a 廟祀 whose temples each stand under a heading of their own (澎湖續編 卷上): the run is taken,
        # with one heading that is no temple's between two (「嘉荫亭」), to the first heading that is none
        "庙祀（新增十三条）\n\n　　关帝庙\n\n　　庙在妈宫澳西偏。乾隆三十一年，前厅胡建伟会营增修。\n\n"
        "　　祖师庙\n\n　　庙在厅治西，载「纪略」。嘉庆十六年十月，里人陈文、陈老等劝捐重修。\n\n"
        "　　嘉荫亭（即五里亭）\n\n　　亭在厅治西二里许，载「纪略」。嘉庆元年，前厅蒋曾年重修。\n\n"
        "　　风神庙\n\n　　庙在妈宫澳城隍庙东。道光五年，通判蒋镛查出小船一百号，征饷报充春秋二祭。\n\n"
        "　　施将军庙\n\n　　庙在妈宫澳东街。通判蒋镛查在澎奉差因公遭风殁于王事者，皆无专祀，附祭各木主于此以报之。\n\n"
        "　　街市\n\n　　妈宫市：仓前街、左营街、大井街、右营直街、右营横街、渡头街。\n",
        ["里人陈文", "亭在厅治西二里许", "征饷报充春秋二祭", "附祭各木主于此以报之"],
        ["妈宫市：仓前街"],
    ),
    (  # a heading of two characters names a kind of shrines, not a temple (金門志's 「丛祠」 after 祠祀)
        "祠祀\n\n　　城隍庙：在后浦。每岁春秋致祭，行三跪九叩礼。\n\n"
        "丛祠\n\n　　北镇庙在后浦北门。祀真武。\n\n　　保生庙在后浦北门。祀吴真人。\n",
        ["每岁春秋致祭"],
        ["北镇庙在后浦北门"],
    ),
    (  # entries 「名【注】」 with no colon, several on a line (福建通志 卷十五): a known altar and a shrine
        # whose note states its rite are kept, a shrine of no rite left out
        "祠祀\n　　福州府\n　　社稷坛【在郡城北天王山下嵗以春秋二仲上戊日太守涖祭】"
        "刘巡检庙【在郡北门外元至正间勅建祀巡检刘濬有司春秋致祭今废为里社】"
        "慈济宫【郡有二一在西安坊一在镇北坊又凤山县有二一在县治安平镇一在土墼埕保】真人庙【在澎湖奎璧港】\n",
        ["春秋二仲上戊日太守涖祭", "有司春秋致祭今废为里社"],
        ["慈济宫", "真人庙"],
    ),
    (  # 「●宮廟」 heads the temples of a short work (澎湖臺灣紀略)
        "●宫庙\n\n　　关帝庙、天后宫、真武庙、水仙宫，俱在协营。\n\n●户口、钱粮\n\n"
        "　　澎湖共一千六百八十三户，一万三千四百一十七丁。\n",
        ["俱在协营"],
        ["一千六百八十三户"],
    ),
    (  # a list of 歲貢 by year is dense in dates, not in rites (澎湖續編 卷下 貢途)
        "　　贡途（载「纪略」，今增六条）\n\n　　副榜（阙）\n\n　　恩贡（阙）\n\n　　拔贡（阙）\n\n　　岁贡\n\n"
        "　　康熙五十二年：颜我扬（台湾县学。任归化县训导）。\n\n　　乾隆十七年：吕昆玉（台湾县学）。\n\n"
        "　　——以上二名载「纪略」。\n\n　　乾隆三十六年：许腾龙（台湾县学）。\n\n"
        "　　乾隆五十年：陈元辉（台湾县学）。\n\n　　嘉庚六年：辛齐光（台湾府学。嘉庆癸酉科钦赐举人）。\n",
        [],
        ["颜我扬", "陈元辉"],
    ),
]


@pytest.mark.parametrize(("text", "taken", "left"), SHAPES, ids=["廟祀", "丛祠", "名【注】", "●宮廟", "歲貢"])
def test_ritual_shapes(text: str, taken: list[str], left: list[str]) -> None:
    found = harvest.harvest_work(harvest.Work("某志", text, file="x.txt"), harvest.lexicon())
    kept = "\n".join(text[p.start : p.end] for p in found.passages)
    assert [q for q in taken if q not in kept] == []
    assert [q for q in left if q in kept] == []


def test_temples_end_as_the_temples_of_the_data_do() -> None:
    """The headings of a run of temples end as two or more temples of ``rites/data/temples`` do — narrower
    than the finals of every heading (乐, 表 …)."""
    lex = harvest.lexicon()
    assert lex.shrines == frozenset("庙祠坛宫")
    assert lex.shrines < lex.finals


@pytest.mark.parametrize(
    ("word", "dates"), [("干隆", True), ("五年", True), ("致祭", False), ("二祭", False)]
)
def test_dates_are_no_evidence_for_a_block_with_no_heading(word: str, dates: bool) -> None:
    lex = harvest.lexicon()
    assert word in lex.terms
    assert (word not in lex.undated) == dates
