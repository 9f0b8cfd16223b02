"""The corpus table: how each witness was made and reviewed, read from its own folder's files."""

from __future__ import annotations

import csv
import datetime
import io
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from tests.corpus.conftest import clear_corpus_caches
from typer.testing import CliRunner

from dianli.cli import app
from dianli.comparison.ingest import draft_corpus
from dianli.comparison.record import FIELDS, corpus_table, record
from dianli.corpus import harvest, witnesses
from dianli.corpus.clauses import clauses

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "sources" / "guwen"
DAY = datetime.date(2025, 1, 1)


def _yaml_file(path: Path, data: object, head: str = "") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(head + yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def _rule(text: str) -> dict[str, object]:
    return {"id": "x", "name": text, "rule": {"kind": "lunar_day", "month": 2, "day": 1}, "text": text}


@pytest.fixture()
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A root with the harvested 金门志 drafted (as ``dianli harvest`` then ``dianli ingest --drafts``
    make it), reviewed by hand: two decisions, one accepted reading edited since; and a text set aside."""
    harvested = tmp_path / "harvested"
    harvested.mkdir()
    (work,) = harvest.load_works([SOURCES / "金门志"])
    result = harvest.harvest_one(work, harvest.lexicon(), DAY)
    (harvested / result.name).write_text(result.text, encoding="utf-8")
    drafts = tmp_path / "drafts"
    draft_corpus(harvested, drafts)
    folder = drafts / "jinmenzhi"
    _yaml_file(
        folder / "readings" / "drafted.yaml",
        {"rites": [{"id": "guandi", "date_rule": [_rule("五月十三日")]}]},
    )
    _yaml_file(
        folder / "review.yaml",
        {
            "decisions": [
                {"rite": "chenghuang", "values": ["二月朔"], "decision": "accepted"},
                {"rite": "tianhou", "values": ["三月廿三"], "decision": "rejected"},
            ]
        },
    )
    # the accepted reading, edited by a curator since (its day is not the one accepted)
    _yaml_file(
        folder / "readings" / "reviewed.yaml",
        {"rites": [{"id": "chenghuang", "date_rule": [_rule("二月望")]}]},
    )
    # the same text again, set aside
    aside = drafts / "jinmenzhi-copy"
    aside.mkdir()
    (aside / "jinmenzhi.txt").write_text(result.text, encoding="utf-8")
    data = yaml.safe_load((folder / "witness.yaml").read_text(encoding="utf-8"))
    data["id"] = "jinmenzhi-copy"
    data["made"] = {"by": "harvest", "stays_out": "a second copy of the same pages"}
    _yaml_file(aside / "witness.yaml", data)
    monkeypatch.setenv(witnesses.ENV_VAR, str(drafts))
    clear_corpus_caches()
    yield drafts
    monkeypatch.undo()
    clear_corpus_caches()


def test_a_harvested_and_reviewed_draft_is_recorded(root: Path) -> None:
    row = record("jinmenzhi")
    assert (row.status, row.made_by, row.pages, row.harvested_on) == (
        "draft",
        "harvest",
        "史藏/地理/金门志_page6.html",
        "2025-01-01",
    )
    assert row.clauses == len(clauses("jinmenzhi")) > 10
    assert (row.aligned, row.pending, row.decisions, row.accepted, row.rejected, row.edited) == (
        0,
        1,
        2,
        1,
        1,
        1,
    )


def test_curated_by_hand_before_harvesting(root: Path) -> None:
    row = record("jinmen-zhi-4")
    assert (row.made_by, row.pages, row.harvested_on) == ("hand", "史藏/地理/金门志_page6.html", "")
    assert row.aligned == len({(c["quote"], c["section"]) for c in _same("jinmen-zhi-4")})
    assert row.share_aligned == f"{row.aligned / row.clauses:.2f}"  # type: ignore[operator]


def _same(witness: str) -> list[dict[str, str]]:
    folder = ROOT / "src" / "dianli" / "corpus" / "witnesses" / witness
    return list(yaml.safe_load((folder / "alignment.yaml").read_text(encoding="utf-8"))["same"])


def test_a_text_set_aside_is_no_witness_but_is_listed(root: Path) -> None:
    assert "jinmenzhi-copy" not in witnesses.witness_ids()
    last = corpus_table()[-1]
    assert (last.witness, last.status, last.stays_out) == (
        "jinmenzhi-copy",
        "stays out",
        "a second copy of the same pages",
    )


def test_the_table_as_csv(root: Path) -> None:
    result = CliRunner().invoke(app, ["texts", "list", "--format", "csv"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert tuple(rows[0]) == FIELDS
    by_id = {r["witness"]: r for r in rows}
    assert by_id["jinmenzhi"]["accepted"] == "1" and by_id["jinmenzhi"]["edited"] == "1"
    assert len(rows) == len(witnesses.witness_ids()) + 1


def test_a_curated_witness_with_readings_pending_fails_the_check(root: Path) -> None:
    from dianli.rites.check import _pending

    info = witnesses.witness_info("jinmenzhi")
    assert _pending([info]) == ()  # a draft may have them
    curated = info.model_copy(update={"status": "curated"})
    (problem,) = _pending([curated])
    assert (
        "status: curated, but 1 drafted reading(s)" in problem
        and "dianli align jinmenzhi --review" in problem
    )


def test_the_package_table_is_every_witness() -> None:
    if os.environ.get(witnesses.ENV_VAR):
        pytest.skip("extra witness roots are set")
    assert [r.witness for r in corpus_table()] == list(witnesses.witness_ids())


def test_a_damaged_folder_file_is_an_error_naming_it(tmp_path: Path) -> None:
    """A file left with merge markers (or any text that is no YAML mapping) is named, never a traceback."""
    from dianli.comparison.record import _yaml
    from dianli.errors import DataError

    for text in ("same:\n- quote: a\n<<<<<<< HEAD\n- quote: b\n", "- just\n- a list\n"):
        path = tmp_path / "alignment.yaml"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(DataError, match=r"alignment\.yaml"):
            _yaml(path, "same")
