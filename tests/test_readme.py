"""The README's tour: every command in its examples block runs and succeeds, as a user would type it."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dianli.cli import app

README = Path(__file__).resolve().parents[1] / "README.md"


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


@pytest.mark.parametrize("line", EXAMPLES)
def test_example_runs(line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    words = shlex.split(line)
    assert words[0] == "dianli"
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, words[1:], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    written = [w for w in words if re.search(r"\.(wav|html|svg|ics|xml)$", w)]
    for name in written:
        assert (tmp_path / name).stat().st_size > 0
    assert result.output.strip() or written
