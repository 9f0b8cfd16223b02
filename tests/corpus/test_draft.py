"""Drafting a witness from a transcribed gazetteer: header, compiled year, script, place, anchors — and the
drafted anchors measured against the hand anchors of the curated witnesses (leave-one-out)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from dianli.corpus.draft import draft_folder, draft_manifest, find_anchors, measure_anchors, read_header
from dianli.corpus.witnesses import WitnessManifest, manifest
from dianli.datafile import load_model_path
from dianli.errors import UnknownValueError

UseRoots = Callable[..., None]


def _file(witness: str) -> Path:
    info = next(i for i in manifest() if i.id == witness)
    return info.folder / info.files[0].file


@pytest.mark.parametrize(
    ("witness", "short_title", "year", "place", "script"),
    [
        # 「康熙五十五年，北路营守备游崇功募建」 is the latest date of 諸羅縣志 (its curated manifest says 1717)
        ("zhuluo-xianzhi-4", "諸羅縣志", 1716, "zhuluo", "simplified"),
        ("jinjiang-xianzhi-15", "晉江縣志", 1828, "jinjiang", "simplified"),
        ("penghu-tingzhi-2", "澎湖廳志", 1885, "penghu", "simplified"),
    ],
)
def test_draft_manifest_of_a_transcribed_file(
    witness: str, short_title: str, year: int, place: str, script: str
) -> None:
    data = draft_manifest(_file(witness))
    assert data["short_title"] == short_title
    assert data["compiled"]["year"] == year and data["compiled"]["assumption"].startswith("draft:")
    assert data["script"] == script and data["punctuated"] is True
    assert [g["place"] for g in data["governs"]] == [place]
    assert all(g["assumption"].startswith("draft:") for g in data["governs"])
    assert data["anchors"], "a chapter with known headings gets anchors"


def test_the_draft_is_a_valid_witness_folder(tmp_path: Path) -> None:
    folder = draft_folder(_file("zhuluo-xianzhi-4"), tmp_path)
    parsed = load_model_path(folder / "witness.yaml", WitnessManifest)
    assert parsed.id == "zhuluo-xianzhi-juan4-sidian"
    assert (folder / parsed.fragments[0].file).read_bytes() == _file("zhuluo-xianzhi-4").read_bytes()
    assert ("sheji", "社稷坛") in parsed.anchors and ("qidao", "旗纛") in parsed.anchors


@pytest.mark.parametrize(
    ("text", "anchors"),
    [
        ("SOURCE: x\nWORK: y\n=====\n　　社稷坛\n　　祭社稷也。\n", (("sheji", "社稷坛"),)),
        # a heading with its own words before a colon, a note in brackets dropped
        ("　　旗纛庙（未有特建）：每岁霜降日祭之。\n", (("qidao", "旗纛庙"),)),
        # running text that mentions a heading is not one
        ("　　祭毕，奉主藏于城隍庙，每岁春、秋二祭，俱用仲月上戊日。\n", ()),
    ],
)
def test_find_anchors(text: str, anchors: tuple[tuple[str, str], ...]) -> None:
    assert find_anchors(text) == anchors


def test_read_header() -> None:
    header = read_header("SOURCE: a\nWORK: 某縣志 卷一 — complete\n=====\n正文")
    assert header.fields == {"SOURCE": "a", "WORK": "某縣志 卷一 — complete"}
    assert "SOURCE: a\nWORK: 某縣志 卷一 — complete\n=====\n正文"[header.body_start :] == "正文"
    assert read_header("正文").body_start == 0


def test_drafted_anchors_against_the_hand_anchors() -> None:
    """Leave-one-out over every curated witness with anchors: measured 224 of 417 hand-anchored sections
    found (54%), 224 of 248 drafted anchors right (90%) when written; with tables of contents, heading
    cores and run-in headings, 251 of 340 (74%) and 251 of 268 (94%). The floors hold the draft to the
    first; bench/segment.py measures the clauses."""
    measures = [measure_anchors(i.id) for i in manifest() if i.anchors and i.language == "classical"]
    hand = sum(m.hand for m in measures)
    drafted = sum(m.drafted for m in measures)
    correct = sum(m.correct for m in measures)
    assert correct / hand >= 0.5
    assert correct / drafted >= 0.85


def test_a_file_without_dates_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "undated.txt"
    path.write_text("　　社稷坛\n　　祭社稷也。\n", encoding="utf-8")
    with pytest.raises(UnknownValueError) as err:
        draft_manifest(path)
    assert "undated.txt" in str(err.value) and "reign date" in str(err.value)


def test_ingest_drafts_a_folder_of_gazetteers(tmp_path: Path) -> None:
    from dianli.comparison.ingest import draft_corpus, ingest

    raw = tmp_path / "raw"
    raw.mkdir()
    shutil.copy(_file("penghu-tingzhi-2"), raw)
    corpus = draft_corpus(raw, tmp_path / "drafts")
    run = ingest(corpus, workers=1)
    (result,) = run.results
    assert result.witness == "penghu-tingzhi-juan2-cimiao"
    assert result.clauses > 0


def test_a_draft_that_names_no_unit_says_why_it_governs_none(tmp_path: Path, use_roots: UseRoots) -> None:
    """金門志 names no unit of the places (金門 was a 縣丞 seat): the draft governs none and says why, as every
    manifest must, so the drafted folder loads with the corpus."""
    data = draft_manifest(_file("jinmen-zhi-4"))
    assert data["governs"] == []
    assert data["governs_no_place"].startswith("draft: the title 「金門志")
    folder = draft_folder(_file("jinmen-zhi-4"), tmp_path / "root")
    use_roots(tmp_path / "root")
    drafted = next(i for i in manifest() if i.folder == folder.resolve())
    assert drafted.governs == () and drafted.governs_no_place == data["governs_no_place"]
