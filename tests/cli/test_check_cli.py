"""A reading whose quote is not in its witness stops every command that loads it (exit 2, the message naming
the file, the element and the closest passage), and ``dianli check`` lists every such problem.

The fixture gazetteer is copied and two of its quotes are changed to words its text does not hold; each
command runs in a fresh process with ``DIANLI_WITNESSES`` naming the copy, as a curator would run it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent.parent / "fixtures" / "witnesses"
FIXTURE = "test-fixture-gazetteer"
BAD = [
    ("quote: 同知主祭}", "quote: 知府主祭於城外}", "officiants[主祭].cite", "知府主祭於城外"),
    (
        "quote: 先期三日，主祭官齋沐更衣}",
        "quote: 先期五日，主祭官齋沐}",
        "date_rule[litan-zhongyuan].related[gao-chenghuang].cite",
        "先期五日，主祭官齋沐",
    ),
]


def dianli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DIANLI_WITNESSES": str(root), "COLUMNS": "200"}
    code = "import sys; from dianli.cli import main; sys.argv = ['dianli', *sys.argv[1:]]; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=600
    )


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("witnesses")
    shutil.copytree(FIXTURES / FIXTURE, root / FIXTURE)
    path = root / FIXTURE / "readings" / "litan.yaml"
    text = path.read_text(encoding="utf-8")
    for old, new, _, _ in BAD:
        assert old in text
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    # an alignment whose one agreeing clause is not in the witness
    (root / FIXTURE / "alignment.yaml").write_text(
        f"witness: {FIXTURE}\nmodel: [taiwan-fuzhi-9]\nsame:\n"
        f"- {{element: 'litan.parts[0]', witness: {FIXTURE}, quote: 城隍神位在北, score: 100.0}}\n",
        encoding="utf-8",
    )
    marks = root / FIXTURE / "not_procedural.yaml"
    marks.write_text(
        marks.read_text(encoding="utf-8").replace("本廳厲壇，在城北郊外", "本廳厲壇，在城南"),
        encoding="utf-8",
    )
    return root


def _one_line(text: str) -> str:
    return " ".join(line.strip() for line in text.splitlines())


@pytest.mark.parametrize(
    "args",
    [
        ["calendar", "1760", "--place", "淡水廳"],
        ["rites", "show", "厲壇", "--place", "淡水廳", "--year", "1760"],
        ["rites", "diff", "厲壇"],
        ["variants"],
        ["coverage", "--witness", FIXTURE],
        ["program", "厲壇", "--place", "淡水廳", "--year", "1760", "--no-audio", "--out", "{out}"],
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_a_command_that_loads_a_false_quote_fails(broken: Path, tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "booklet.html"
    done = dianli(broken, *(a.replace("{out}", str(out)) for a in args))
    assert done.returncode == 2, done.stdout[-2000:] + done.stderr[-2000:]
    message = _one_line(done.stderr)
    path = broken / FIXTURE / "readings" / "litan.yaml"
    assert f"error: {path}: rite 'litan': " in message
    assert "not found in witness 'test-fixture-gazetteer'; closest passage: '" in message
    assert "Traceback" not in done.stderr
    assert not out.exists()


def test_check_lists_every_problem(broken: Path) -> None:
    done = dianli(broken, "check", "--witness", FIXTURE)
    assert done.returncode == 2
    text = _one_line(done.stdout)
    for _, _, element, quote in BAD:
        assert f"rite 'litan': {element}: quote '{quote}' not found in witness '{FIXTURE}'" in text
    alignment = broken / FIXTURE / "alignment.yaml"
    assert f"{alignment}: same[0] (litan.parts[0]): quote '城隍神位在北' not found in witness" in text
    marks = broken / FIXTURE / "not_procedural.yaml"
    assert f"{marks}: clauses[0]: quote '本廳厲壇，在城南' not found in witness" in text
    assert "FAIL the readings, alignment and not-procedural marks of 測試用廳志: 5 quotes" in " ".join(
        text.split()
    )
    assert "ok the witness manifests" in " ".join(text.split())
    assert "4 problem(s) in 1 of 6 checks" in _one_line(done.stderr)


def test_check_passes_on_the_package_and_a_sound_folder() -> None:
    done = dianli(FIXTURES, "check")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1].startswith("all ") and lines[-1].endswith(" checks passed")
    assert all(len(line) <= 80 for line in lines)
    text = " ".join(done.stdout.split())
    assert "the readings, alignment and not-procedural marks of 重修鳳山縣志: " in text and "FAIL" not in text
    assert "chongxiu-fengshan-xianzhi-5" not in text  # witnesses by title, not by id


def test_an_unknown_witness_is_refused() -> None:
    done = dianli(FIXTURES, "check", "--witness", "no-such-witness")
    assert done.returncode == 2
    assert "unknown witness 'no-such-witness'; accepted: " in _one_line(done.stderr)
