"""Ingest: a folder of witness folders aligned in parallel — local processes and a two-worker LocalCluster —
giving the same classes as aligning one by one; and the errors of bad folders, witnesses and schedulers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dianli.comparison.align import align
from dianli.comparison.ingest import corpus_folder, ingest
from dianli.corpus.witnesses import ENV_VAR, package_root
from dianli.errors import UnknownValueError

FIXTURES = Path(__file__).parents[1] / "fixtures" / "witnesses"
PACKAGE = package_root()
SMALL = ("penghu-tingzhi-2", "jinmen-zhi-4")
"""Two small corpus witnesses of the package (43 and 40 clauses)."""


def test_corpus_folder_reads_the_manifests() -> None:
    root, found = corpus_folder(FIXTURES)
    assert root == FIXTURES.resolve()
    assert [w for w, _ in found] == ["test-fixture-gazetteer"]
    # one witness folder is its own corpus
    root, found = corpus_folder(FIXTURES / "test-fixture-gazetteer")
    assert root == FIXTURES.resolve() and [w for w, _ in found] == ["test-fixture-gazetteer"]


@pytest.mark.parametrize(
    ("folder", "accepted"),
    [
        (Path("/nonexistent/corpus"), "an existing folder of witness folders"),
        (Path(__file__).parents[1] / "golden", "witness.yaml"),
    ],
)
def test_bad_folder_names_what_is_accepted(folder: Path, accepted: str) -> None:
    with pytest.raises(UnknownValueError) as err:
        corpus_folder(folder)
    assert str(folder) in str(err.value) and accepted in str(err.value)


def test_unknown_witness_of_the_folder() -> None:
    with pytest.raises(UnknownValueError) as err:
        ingest(FIXTURES, witnesses=("nope",))
    assert "nope" in str(err.value) and "test-fixture-gazetteer" in str(err.value)


def test_local_processes_agree_with_aligning_one_by_one() -> None:
    done: list[str] = []
    before = os.environ.get(ENV_VAR)
    run = ingest(PACKAGE, witnesses=SMALL, workers=2, progress=done.append)
    assert os.environ.get(ENV_VAR) == before  # this process's corpus is left as it was
    assert sorted(done) == sorted(SMALL)
    assert [r.witness for r in run.results] == list(SMALL)
    assert run.workers == 2 and run.scheduler == "local processes"
    for result in run.results:
        expected = align(result.witness)
        assert result.clauses == len(expected.clauses)
        assert result.counts == dict(expected.counts())
        assert result.report["witness"] == result.witness
        assert result.alignment_yaml.startswith("#") or "witness:" in result.alignment_yaml


@pytest.mark.parametrize(
    ("folder", "given"),
    [
        (PACKAGE, True),  # the installed corpus: the model is built here once, for every worker
        (FIXTURES, False),  # a folder this process does not read: each worker builds the model it reads
    ],
)
def test_the_model_is_built_once_for_the_workers_where_it_is_theirs(folder: Path, given: bool) -> None:
    from dianli.comparison.align import the_model
    from dianli.comparison.ingest import _model_here

    model = _model_here(folder.resolve())
    assert (model is not None) is given
    if given:
        assert model == the_model() and len(model) > 1000


def test_a_worker_aligns_with_the_model_it_is_given() -> None:
    from dianli.comparison.align import the_model, use_model
    from dianli.comparison.ingest import ingest_witness

    mine = the_model()
    try:
        full = ingest_witness(str(PACKAGE), SMALL[1], model=mine)
        empty = ingest_witness(str(PACKAGE), SMALL[1], model=())
    finally:
        use_model(mine)
    assert full.counts == dict(align(SMALL[1]).counts()) and full.counts["same"] > 0
    assert empty.counts["new"] == empty.clauses  # no model: nothing agrees with anything


def test_a_local_cluster_of_two_workers_ingests_an_outside_folder() -> None:
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        run = ingest(FIXTURES, scheduler=cluster.scheduler_address)
    assert run.workers == 2 and run.scheduler.startswith("dask.distributed at tcp://")
    (result,) = run.results
    assert result.witness == "test-fixture-gazetteer"
    assert result.clauses > 0 and sum(result.counts[k] for k in ("same", "variant", "new")) == result.clauses
    assert result.folder == str((FIXTURES / "test-fixture-gazetteer").resolve())


def test_an_unreachable_scheduler_is_a_clear_error() -> None:
    with pytest.raises(UnknownValueError) as err:
        ingest(FIXTURES, scheduler="tcp://127.0.0.1:9", connect_timeout_s=1)
    assert "tcp://127.0.0.1:9" in str(err.value) and "dask scheduler" in str(err.value)


def test_cli_writes_reports_and_a_summary(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "dianli",
            "ingest",
            str(FIXTURES),
            "--workers",
            "1",
            "-o",
            str(out),
            "-f",
            "json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert [w["witness"] for w in summary["witnesses"]] == ["test-fixture-gazetteer"]
    assert (out / "test-fixture-gazetteer.alignment.json").is_file()
    assert (out / "test-fixture-gazetteer.draft.yaml").is_file()
    assert (
        (out / "summary.csv")
        .read_text(encoding="utf-8")
        .startswith("witness,clauses,same,variant,new,missing")
    )


def test_cli_bad_folder_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "dianli", "ingest", str(tmp_path)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "witness.yaml" in proc.stderr


def test_a_header_warning_is_words_not_code(tmp_path: Path) -> None:
    """A transcriber's extra header line (NOTABLE:) is reported in words, without Python's file and line."""
    import shutil

    from typer.testing import CliRunner

    from dianli.cli.application import app

    source = tmp_path / "gazetteers"
    source.mkdir()
    fixture = Path(__file__).parents[1] / "fixtures" / "segment" / "penghu_tingzhi_notable.txt"
    shutil.copy(fixture, source / fixture.name)
    result = CliRunner().invoke(app, ["ingest", str(source), "--drafts", str(tmp_path / "drafts")])
    assert result.exit_code == 0, result.output
    assert "warning: " in result.output and "NOTABLE" in result.output
    assert ".py:" not in result.output and "DraftWarning" not in result.output
