"""Bad input ends in one clear error naming the bad value and what is accepted: exit 2, no traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dianli.cli import app

runner = CliRunner()

CASES = [
    # (arguments, the bad value the message must name, a word the accepted list must contain)
    (["spring-ox", "1752", "--svg", "/nonexistent/dir/ox.svg"], "/nonexistent/dir/ox.svg", "writable folder"),
    (["calendar", "1752", "--ics", "/nonexistent/x.ics"], "/nonexistent/x.ics", "writable folder"),
    (["music", "寧平", "-o", "/nonexistent/a.wav"], "/nonexistent/a.wav", "writable folder"),
    (["dance", "寧平", "--html", "/nonexistent/a.html"], "/nonexistent/a.html", "writable folder"),
    (["dance", "寧平", "--out", "/nonexistent/a.txt"], "/nonexistent/a.txt", "writable folder"),
    (["music", "寧平", "-o", "/"], "/", "writable folder"),
    (["cite", "nope-witness", "文廟"], "nope-witness", "taiwan-fuzhi-9"),
    (["cite", "taiwan-fuzhi-9", ""], "quote ''", "either script"),
    (["cite", "taiwan-fuzhi-9", "，。"], "，。", "either script"),
    (["coverage", "--section", "nope"], "nope", "xianshi"),
    (["dance", "迎神"], "迎神", "初獻 寧平 (chuxian)"),
    (["dance", "望瘞"], "望瘞", "終獻 景平 (zhongxian)"),
    (["calendar"], "no year given", "--from Y1 and --to Y2"),
    (["calendar", "--from", "1750"], "--from 1750 without --to", "1644"),
]


def _flat(text: str) -> str:
    """The output with rich's line wrapping undone."""
    return re.sub(r"\s*\n\s*", " ", text)


@pytest.mark.parametrize(("args", "bad", "accepted"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_bad_input_is_one_clear_error(args: list[str], bad: str, accepted: str) -> None:
    result = runner.invoke(app, args)
    output = _flat(result.output)
    assert result.exit_code == 2, output
    assert "Traceback" not in output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "error:" in output
    assert bad in output
    listed = output.split("accepted:", 1)[1].strip() if "accepted:" in output else ""
    assert listed and not listed.startswith((";", ".", ",")), output
    assert accepted in listed


def test_not_danced_is_said_as_such() -> None:
    output = _flat(runner.invoke(app, ["dance", "迎神"]).output)
    assert "not danced (有樂無舞)" in output
    assert "unknown movement" not in output


@pytest.mark.parametrize("year", ["1643", "2201"])
def test_a_year_out_of_range_names_the_range_the_help_states(year: str) -> None:
    """spring-ox takes 1644..2200, as its help says and as the web page takes (tests/web/test_year_ranges.py)."""
    result = runner.invoke(app, ["spring-ox", year])
    assert result.exit_code == 2
    assert _flat(result.output).strip() == f"error: year {year} is out of range; valid: 1644..2200"
    assert "(1644–2200)" in _flat(runner.invoke(app, ["spring-ox", "--help"], env={"COLUMNS": "200"}).output)


LONG_NAME = "x" * 300
"""A file name longer than the file system takes (ENAMETOOLONG: pathlib raises where os.path says False)."""


@pytest.mark.parametrize(
    "args",
    [
        ["ingest", LONG_NAME],
        ["ingest", LONG_NAME, "--drafts", "drafts"],
        ["ingest", ".", "--drafts", f"/proc/{LONG_NAME}"],
        ["export", "--out", f"/proc/{LONG_NAME}", "--years", "1752"],
        ["export", "--out", "/proc/nope", "--years", "1752"],
        ["harvest", LONG_NAME],  # found by the fuzz test: a traceback from the file system's refusal
        ["harvest", "gazetteer.txt", LONG_NAME],
    ],
)
def test_a_name_the_file_system_refuses_is_an_error_not_a_traceback(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gazetteer.txt").write_text("祀先師", encoding="utf-8")
    result = CliRunner().invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "error:" in result.output and "accepted:" in result.output


def test_any_path_the_system_refuses_is_one_clear_error() -> None:
    """The last guard of every command: an OSError naming a path that no check caught first is the path and
    the system's reason (exit 2), never a traceback; one naming no path is left to surface."""
    import typer

    from dianli.cli.common import run_guarded

    @run_guarded
    def refused() -> None:
        raise OSError(36, "File name too long", "a" * 300)

    with pytest.raises(typer.Exit) as stop:
        refused()
    assert stop.value.exit_code == 2

    @run_guarded
    def unnamed() -> None:
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        unnamed()
