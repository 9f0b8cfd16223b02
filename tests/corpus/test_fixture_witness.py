"""The test fixture gazetteer, added as a folder through ``DIANLI_WITNESSES``, is read, sectioned, searched
and cited like the packaged witnesses — by the library and by the command line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dianli.corpus.cite import Citation
from dianli.corpus.clauses import clauses
from dianli.corpus.search import search
from dianli.corpus.sections import find_sections, resolve_section_id, section_ids
from dianli.corpus.witnesses import load_witness, reading_files, witness_ids, witness_info

FIXTURES = Path(__file__).parent.parent / "fixtures" / "witnesses"
FIXTURE = "test-fixture-gazetteer"
SHARED = "先期三日，主祭官齋沐更衣(用常服)，備香燭、酒果、牒告本處城隍"
"""The clause the fixture copies from 重修福建臺灣府志's 厲壇 section."""
UseRoots = Callable[..., None]


@pytest.fixture()
def fixture_root(use_roots: UseRoots) -> None:
    use_roots(FIXTURES)


@pytest.mark.usefixtures("fixture_root")
def test_the_fixture_loads_after_the_package_witnesses() -> None:
    assert witness_ids()[-1] == FIXTURE
    info = witness_info(FIXTURE)
    assert info.authority == "test-fixture" and info.title.startswith("TEST FIXTURE — not a historical text")
    assert (info.compiled_year, info.compiled_source, info.base) == (
        1760,
        "assumption: fixture",
        "taiwan-fuzhi-9",
    )
    assert [(g.place, g.from_year, g.until_year, g.source) for g in info.governs] == [
        ("danshui", 1760, None, "assumption: test fixture")
    ]
    wit = load_witness(FIXTURE)
    assert wit.raw.splitlines()[0].startswith("測試用文本 TEST FIXTURE")
    assert 300 <= len(wit.raw) <= 600
    assert all(p.parent.name == "readings" for p in reading_files(FIXTURE))


@pytest.mark.usefixtures("fixture_root")
@pytest.mark.parametrize(
    ("section", "heading", "holds"),
    [
        ("litan", "祭厲壇禮", "每歲七月十五日祭厲壇"),
        ("xianshi", "祀先師禮", "同知率諸生望拜於書院"),
    ],
)
def test_sections_are_found(section: str, heading: str, holds: str) -> None:
    (found,) = find_sections(FIXTURE, section)
    assert found.heading == heading and not found.mid_start
    assert holds in load_witness(FIXTURE).norm.text[found.start : found.end]
    assert section in section_ids(FIXTURE)
    assert {c.section for c in clauses(FIXTURE)} == {"front", "litan", "xianshi"}


@pytest.mark.usefixtures("fixture_root")
@pytest.mark.parametrize(
    ("query", "witnesses"),
    [
        ("七月十五日祭厲壇", {FIXTURE}),
        ("七月十五日", {FIXTURE, "taiwan-fuzhi-9", "fujian-tongzhi-14", "fujian-tongzhi-14-modern"}),
        ("牒告本处城隍", {FIXTURE, "taiwan-fuzhi-9", "fujian-tongzhi-14"}),
        ("望拜於書院", {FIXTURE}),
    ],
)
def test_search_finds_its_words(query: str, witnesses: set[str]) -> None:
    """Among the fixture and the seeds (other witnesses of the package may hold the words too)."""
    seeds = {FIXTURE, "taiwan-fuzhi-9", "fujian-tongzhi-14", "fujian-tongzhi-14-modern", "tingzhou-fuzhi"}
    assert {hit.witness for hit in search(query)} & seeds == witnesses


@pytest.mark.usefixtures("fixture_root")
@pytest.mark.parametrize(
    ("witness", "quote", "section"),
    [
        (FIXTURE, "每歲七月十五日祭厲壇", "litan"),
        (FIXTURE, SHARED, "litan"),
        ("taiwan-fuzhi-9", SHARED, "litan"),
        (FIXTURE, "本廳未建文廟", "xianshi"),
    ],
)
def test_citations_resolve(witness: str, quote: str, section: str) -> None:
    resolved = Citation(witness=witness, quote=quote, section=section).resolve()
    assert resolved.section.id == section and resolved.occurrences == 1
    assert resolve_section_id(section) == section


@pytest.mark.usefixtures("fixture_root")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["texts", "list"], [FIXTURE, "1760", "danshui 1760–", "taiwan-fu 1742–", "test-fixture"]),
        (["texts", "show", FIXTURE], ["litan", "xianshi", "TEST FIXTURE"]),
        (["texts", "search", "七月十五日祭厲壇"], [f"{FIXTURE} · litan"]),
        (["texts", "search", "牒告本處城隍", "--witness", FIXTURE], [f"{FIXTURE} · litan"]),
        (["cite", FIXTURE, "每岁七月十五日祭厉坛"], ["litan", "每歲七月十五日祭厲壇"]),
    ],
)
def test_the_command_line_sees_it(args: list[str], expected: list[str]) -> None:
    from dianli.cli import app

    result = CliRunner().invoke(app, args, env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    for fragment in expected:
        assert fragment in result.output, result.output


def test_without_the_variable_it_is_unknown() -> None:
    assert FIXTURE not in witness_ids()
