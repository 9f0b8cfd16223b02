"""``dianli harvest`` as a user runs it: files written and never replaced unasked, summaries, bad input."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from dianli.cli import app

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "sources" / "guwen"
runner = CliRunner()


def _said(output: str) -> str:
    return " ".join(output.split())


def test_a_work_s_pages_give_one_file(tmp_path: Path) -> None:
    out = tmp_path / "harvested"
    result = runner.invoke(app, ["harvest", str(SOURCES / "金门志"), "-o", str(out)], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    said = _said(result.output)
    assert "1 work(s) read, 1 with passages of the state rites" in said
    assert "金门志 2 6,536 512 1 jinmenzhi.txt" in said
    text = (out / "jinmenzhi.txt").read_text(encoding="utf-8")
    assert text.startswith(
        "SOURCE: GitHub repo lhw828/GuWen, commit 1dbb87ec4994a859a7513ee35edac48e37a12af7"
    )
    assert "\u3000\u3000祠祀\n\u3000\u3000城隍庙在后浦左营署旁" in text


def test_a_file_it_did_not_write_is_never_replaced(tmp_path: Path) -> None:
    args = ["harvest", str(SOURCES / "金门志"), "-o", str(tmp_path)]
    assert runner.invoke(app, args).exit_code == 0
    assert runner.invoke(app, args).exit_code == 0  # its own file, unchanged: replaced
    target = tmp_path / "jinmenzhi.txt"
    target.write_text("a curator's edits\n", encoding="utf-8")
    refused = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert refused.exit_code == 2
    assert "refusing to replace this file" in _said(refused.output) and "--force" in refused.output
    assert target.read_text(encoding="utf-8") == "a curator's edits\n"
    assert runner.invoke(app, [*args, "--force"]).exit_code == 0
    assert target.read_text(encoding="utf-8").startswith("SOURCE: ")


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_summaries(fmt: str, tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["harvest", str(SOURCES / "苗栗县志"), str(SOURCES / "金门志"), "-o", str(tmp_path), "-f", fmt]
    )
    assert result.exit_code == 0, result.output
    if fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(result.output)))
        got = [(r["work"], r["pages"], r["passages"], r["file"]) for r in rows]
    else:
        data = json.loads(result.output)
        assert data["workers"] == 2 and data["scheduler"] == "local processes"
        got = [(w["work"], str(w["pages"]), str(w["passages"]), w["file"]) for w in data["works"]]
    assert got == [("苗栗县志", "2", "1", "miaolixianzhi.txt"), ("金门志", "2", "1", "jinmenzhi.txt")]


def test_a_work_with_no_rites_writes_nothing(tmp_path: Path) -> None:
    page = tmp_path / "pages"
    page.mkdir()
    shutil.copy(SOURCES / "金门志" / "金门志_page1.txt", page)
    result = runner.invoke(app, ["harvest", str(page), "-o", str(tmp_path / "out")], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    assert "(nothing found)" in result.output and not (tmp_path / "out").exists()


BAD = [
    (["harvest"], "Missing argument"),
    (["harvest", "/nonexistent/pages"], "no such file or folder"),
    (["harvest", "{empty}"], "no *.txt or *.html file"),
    (["harvest", str(SOURCES / "金门志"), "-o", "-"], "names a folder"),
    (["harvest", str(SOURCES / "金门志"), "--workers", "0"], "--workers"),
    (["harvest", str(SOURCES / "金门志"), "-f", "yaml"], "'yaml' is not one of"),
    (
        ["harvest", str(SOURCES / "金门志"), str(SOURCES / "澎湖厅志"), "--scheduler", "tcp://127.0.0.1:9"],
        "scheduler",
    ),
    (["harvest", "{broken}"], "line 4 is not -----"),
    (["harvest", str(SOURCES / "金门志"), "-o", "{file}"], "File exists"),
]


@pytest.mark.parametrize(("args", "says"), BAD)
def test_bad_input_exits_2_with_a_message(args: list[str], says: str, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "broken.txt").write_text(
        "PAGE: lhw828/GuWen 史藏/地理/金门志_page6.html\nCOMMIT: "
        + "a" * 40
        + "\nTITLE: 金门志 - 第 6 页/共 13 页\nx\n",
        encoding="utf-8",
    )
    (tmp_path / "file").write_text("x", encoding="utf-8")
    filled = [
        a.format(empty=tmp_path / "empty", broken=tmp_path / "broken.txt", file=tmp_path / "file")
        for a in args
    ]
    result = runner.invoke(app, filled, env={"COLUMNS": "200"})
    assert result.exit_code == 2, result.output
    assert says in _said(result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output


_WORDS = st.sampled_from(
    [
        "-o",
        "--out",
        "-f",
        "--format",
        "--workers",
        "--force",
        "--scheduler",
        "json",
        "csv",
        "0",
        "2",
        "x",
        "",
        "-",
        "\u3000",
        "../x",
        "/nonexistent",
        "nope.txt",
        "[bold]x[/]",
    ]
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(_WORDS, max_size=6))
def test_any_arguments_end_in_0_or_2(
    words: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["harvest", *words], env={"COLUMNS": "80"})
    assert result.exit_code in (0, 2), (words, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), (words, result.exception)
