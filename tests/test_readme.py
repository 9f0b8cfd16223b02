"""The README's tour: every command in its examples block runs and succeeds, as a user would type it."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dianli.cli import app
from dianli.cli.common import console, display_width

README = Path(__file__).resolve().parents[1] / "README.md"
SOURCES = README.parent / "sources"
"""The tour's inputs (page extracts for `dianli harvest`): linked into the scratch folder, where a user
typing the tour in the repository finds them."""


def enter_scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run in the scratch folder ``tmp_path``, the tour's inputs (``sources/``) linked into it."""
    (tmp_path / SOURCES.name).symlink_to(SOURCES, target_is_directory=True)
    monkeypatch.chdir(tmp_path)


def _examples() -> list[str]:
    text = README.read_text(encoding="utf-8")
    block = re.search(r"<!--\s*examples\s*-->\s*```bash\n(.*?)```", text, re.S)
    assert block, "README.md has no <!-- examples --> block"
    lines = [re.split(r"\s#\s", line, maxsplit=1)[0].strip() for line in block.group(1).splitlines()]
    return [line for line in lines if line]


EXAMPLES = _examples()


def test_the_tour_covers_every_command_group() -> None:
    used = {shlex.split(line)[1] for line in EXAMPLES}
    groups = {c.name for c in app.registered_commands} | {g.name for g in app.registered_groups}
    assert groups - used <= {"program", "serve"}, groups - used  # both shown in the Quickstart and below


# A word cut to fit: rich ends the visible part of a cell with "…" just before its border, or of a line at the
# edge of the screen. The texts' own ellipses (「大哉孔聖……」, (今制…)) are followed by text or a bracket, and
# an excerpt's closing "…" (dianli cite) ends a line well short of the edge.
WIDTH = 80
BORDERED = re.compile(r"…[ \t]*[│┃║]")


def _cut(output: str) -> list[str]:
    return [
        line
        for line in output.splitlines()
        if BORDERED.search(line)
        or (line.rstrip().endswith("…") and display_width(line.rstrip()) >= WIDTH - 1)
    ]


def _files_written(words: list[str]) -> list[str]:
    return [w for w in words if re.search(r"\.(wav|html|svg|ics|xml)$", w)]


@pytest.mark.parametrize("line", EXAMPLES)
def test_example_runs(line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Piped at 80 columns: it succeeds and no word is cut."""
    words = shlex.split(line)
    assert words[0] == "dianli"
    enter_scratch(tmp_path, monkeypatch)
    result = CliRunner().invoke(app, words[1:], env={"COLUMNS": str(WIDTH)})
    assert result.exit_code == 0, result.output
    written = _files_written(words)
    for name in written:
        assert (tmp_path / name).stat().st_size > 0
    assert result.output.strip() or written
    assert not _cut(result.output), _cut(result.output)[:5]


TEXT_EXAMPLES = [line for line in EXAMPLES if not _files_written(shlex.split(line)) and " --out " not in line]


@pytest.mark.parametrize("line", TEXT_EXAMPLES)
def test_example_in_an_80_column_terminal(line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a terminal 80 columns wide no word is cut either (tables fold, or turn into records)."""
    enter_scratch(tmp_path, monkeypatch)
    monkeypatch.setattr(console, "_force_terminal", True)
    result = CliRunner().invoke(app, shlex.split(line)[1:], env={"COLUMNS": str(WIDTH)})
    assert result.exit_code == 0, result.output
    assert not _cut(result.output), _cut(result.output)[:5]
