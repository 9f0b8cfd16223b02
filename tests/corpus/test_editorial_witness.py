"""A witness with editorial marks, added through ``DIANLI_WITNESSES``: its gaps are never clauses, never
cited or searched into, and the reader shows them as gaps (``dianli texts show``, the web section page).
Then every gazetteer of ``../shared/gazetteers/`` (if it is beside the clone) normalised and cut the same way.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from dianli.cli import app as cli_app
from dianli.corpus.cite import CitationError, resolve
from dianli.corpus.clauses import clauses
from dianli.corpus.normalise import KEY_GAP, fold
from dianli.corpus.search import search
from dianli.corpus.sections import sections
from dianli.corpus.witnesses import load_witness
from dianli.web.app import app as web_app

UseRoots = Callable[..., None]
GAPS_ROOT = Path(__file__).parent.parent / "fixtures" / "witnesses-gaps"
FIXTURE = "test-fixture-gaps"
REPO = Path(__file__).resolve().parents[2]
GAZETTEERS = REPO.parent / "shared" / "gazetteers"
"""The gazetteer transcriptions; CI has ``../shared`` only as a sibling of the clone."""
MARK_WORDS = ("OMITTED", "NOT REPEATED", "excerpt", "SOURCE:", "=====")


@pytest.fixture()
def gaps_root(use_roots: UseRoots) -> None:
    use_roots(GAPS_ROOT)


@pytest.mark.usefixtures("gaps_root")
def test_the_gaps_of_the_fixture() -> None:
    norm = load_witness(FIXTURE).norm
    assert [(g.kind, g.words.split()[0]) for g in norm.editorial] == [
        ("header", "SOURCE:"),
        ("omitted", "祭厲壇文"),
        ("excerpt-heading", "卷之三"),
        ("not-repeated", "the"),
    ]
    assert norm.key.count(KEY_GAP) == 3  # the header opens the text: nothing before it to break


@pytest.mark.usefixtures("gaps_root")
def test_clauses_stop_at_a_gap_and_skip_it() -> None:
    found = [(c.section, c.kind, c.text) for c in clauses(FIXTURE)]
    assert found == [
        ("front", "sentence", "測試用文本：此篇為dianli測試而作，文字皆新撰，非史籍，不可引為典據。"),
        ("litan", "heading", "祭厲壇禮"),
        ("litan", "sentence", "本縣厲壇，在城北郊外。"),
        ("litan", "sentence", "每歲七月十五日祭厲壇"),
        ("litan", "sentence", "同知主祭，行一跪三叩之禮。"),
        ("litan", "sentence", "壇制舊碑[缺]一字。"),
        ("xianshi", "heading", "祀先師禮"),
        ("xianshi", "sentence", "每歲春、秋仲月上丁，知縣率諸生行禮"),
        ("xianshi", "sentence", "禮畢。"),
    ]
    norm = load_witness(FIXTURE).norm
    for clause in clauses(FIXTURE):
        assert all(g.end <= clause.start or clause.end <= g.start for g in norm.editorial)


@pytest.mark.usefixtures("gaps_root")
def test_anchors_are_not_found_in_the_header() -> None:
    # The header's SECTIONS: line names both headings; the sections start at the text's own headings.
    norm = load_witness(FIXTURE).norm
    header = norm.editorial[0]
    assert "祭厲壇禮" in norm.text[header.start : header.end]
    assert all(s.start >= header.end for s in sections(FIXTURE) if s.id != "front")


@pytest.mark.parametrize(
    ("quote", "raw_quote"),
    [
        ("每歲七月十五日祭厲壇", "每歲七月十五日祭厲壇"),
        ("同知主祭", "同知主祭"),
        ("舊碑缺一字", "舊碑[缺]一字"),
        ("知县率诸生行礼", "知縣率諸生行禮"),
    ],
)
@pytest.mark.usefixtures("gaps_root")
def test_quotes_beside_a_gap_resolve_to_raw_offsets(quote: str, raw_quote: str) -> None:
    found = resolve(FIXTURE, quote)
    assert load_witness(FIXTURE).norm.raw[found.raw_start : found.raw_end] == raw_quote


@pytest.mark.parametrize(
    "quote",
    [
        "祭厲壇同知主祭",
        "十五日祭厲壇祭厲壇文",
        "祭厲壇文",
        "一字卷之三",
        "諸生行禮禮畢",
        "OMITTED",
        "祀先師禮祀先師禮",
    ],
)
@pytest.mark.usefixtures("gaps_root")
def test_a_quote_inside_or_across_a_gap_does_not_resolve(quote: str) -> None:
    with pytest.raises(CitationError):
        resolve(FIXTURE, quote)


@pytest.mark.parametrize(
    ("query", "clauses_found"),
    [
        ("祭厲壇文", []),
        ("OMITTED", []),
        ("excerpt", []),
        ("prayer", []),
        ("學校志", []),
        ("迎神", []),
        ("SOURCE", []),
        ("缺", ["壇制舊碑[缺]一字。"]),
        ("同知 主祭", ["同知主祭，行一跪三叩之禮。"]),
    ],
)
@pytest.mark.usefixtures("gaps_root")
def test_search_never_finds_the_words_of_a_mark(query: str, clauses_found: list[str]) -> None:
    assert [h.clause.text for h in search(query, witness=FIXTURE)] == clauses_found


@pytest.mark.parametrize(
    ("args", "shown", "not_shown"),
    [
        (
            ["texts", "show", FIXTURE, "litan"],
            ["祭厲壇〔omitted: 祭厲壇文 (the prayer, <祭文> & its title; c. 200 characters), not ritual〕同知",
             "〔excerpt-heading: 卷之三 學校志 (excerpt: the 祀先師 item)〕"],
            ["[OMITTED", "(theprayer"],
        ),
        (["texts", "show", FIXTURE, "front"], ["〔header: SOURCE: TEST FIXTURE", "SECTIONS: 祭厲壇禮, 祀先師禮〕測試"], ["====="]),
        (["texts", "show", FIXTURE, "litan", "--raw"], ["[OMITTED: 祭厲壇文"], []),
        (["texts", "search", "缺", "-w", FIXTURE, "-c", "20"], ["\n〔omitted: 祭厲壇文", "一字。〔excerpt-heading: 卷之三"], ["[OMITTED"]),
    ],
)  # fmt: skip
@pytest.mark.usefixtures("gaps_root")
def test_texts_show_prints_gaps(args: list[str], shown: list[str], not_shown: list[str]) -> None:
    result = CliRunner().invoke(cli_app, args, env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    for fragment in shown:
        assert fragment in result.output
    for fragment in not_shown:
        assert fragment not in result.output


@pytest.mark.parametrize(
    ("section", "shown", "not_shown"),
    [
        (
            "litan",
            [
                '祭厲壇<span class="gap" data-kind="omitted"',
                '<b class="gap-kind">omitted</b> 祭厲壇文 (the prayer, &lt;祭文&gt; &amp; its title;',
                '<span class="gap" data-kind="excerpt-heading"',
                "壇制舊碑[缺]一字。",
            ],
            ["[OMITTED", "<祭文>"],
        ),
        ("front", ['<span class="gap" data-kind="header"', "SOURCE: TEST FIXTURE"], ["====="]),
        ("xianshi", ['<span class="gap" data-kind="not-repeated"', "諸生行禮<span"], ["[NOT REPEATED"]),
    ],
)
@pytest.mark.usefixtures("gaps_root")
def test_the_section_page_marks_gaps(section: str, shown: list[str], not_shown: list[str]) -> None:
    page = TestClient(web_app).get(f"/witnesses/{FIXTURE}/{section}")
    assert page.status_code == 200
    reading = page.text.split('<div class="reading">', 1)[1].split("</div>", 1)[0]
    for fragment in shown:
        assert fragment in reading
    for fragment in not_shown:
        assert fragment not in reading


def test_a_page_without_gaps_has_no_gap_markup() -> None:
    page = TestClient(web_app).get("/witnesses/fujian-tongzhi-14/xianshi.zhisheng")
    assert page.status_code == 200 and 'class="note"' in page.text
    assert 'class="gap"' not in page.text


_FILES = sorted(GAZETTEERS.glob("*.txt")) if GAZETTEERS.is_dir() else []
_MANIFEST = """\
id: {id}
title: {name} (gazetteer transcription, normalised for a test)
short_title: {id}
edition: a transcription of ../shared/gazetteers, for the test of editorial gaps
compiled: {{year: 1760, assumption: test of editorial gaps}}
script: simplified
language: classical
punctuated: true
authority: test-fixture
translation_of: null
base: taiwan-fuzhi-9
governs: []
governs_no_place: a test fixture of editorial gaps, written for no place
fragments:
  - {{file: {name}, note: the whole file}}
"""


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, id=p.stem) for p in _FILES]
    or [pytest.param(None, marks=pytest.mark.skip(reason=f"{GAZETTEERS} is absent (../shared beside the clone)"))],
)  # fmt: skip
def test_every_gazetteer_mark_is_a_gap(path: Path, tmp_path: Path, use_roots: UseRoots) -> None:
    witness = path.stem.replace("_", "-")
    folder = tmp_path / witness
    folder.mkdir()
    shutil.copy(path, folder / path.name)
    (folder / "witness.yaml").write_text(_MANIFEST.format(id=witness, name=path.name), encoding="utf-8")
    use_roots(tmp_path)
    norm = load_witness(witness).norm
    # The header, from SOURCE: to the ===== line, is the first gap.
    header = norm.editorial[0]
    r0, r1 = norm.raw_span(header.start, header.end)
    assert (header.kind, header.start, r0) == ("header", 0, 0)
    assert norm.raw[r0:r1].startswith("SOURCE:") and norm.raw[r0:r1].endswith("\n=====")
    # Every square bracket of the transcription is in a gap, one gap per mark.
    assert all(norm.in_editorial(i) for i, c in enumerate(norm.text) if c in "[]")
    kinds = [g.kind for g in norm.editorial]
    assert kinds.count("omitted") == norm.raw.count("[OMITTED: ")
    assert kinds.count("not-repeated") == norm.raw.count("[NOT REPEATED HERE: ")
    # No mark reaches the folding key or a clause.
    assert fold("[OMITTED") not in norm.key and fold("NOT REPEATED HERE") not in norm.key
    assert fold("SOURCE: GitHub repo") not in norm.key
    for clause in clauses(witness):
        assert not any(word in clause.text for word in MARK_WORDS), clause
        assert all(g.end <= clause.start or clause.end <= g.start for g in norm.editorial)
