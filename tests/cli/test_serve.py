"""``dianli serve``'s options that are checked before serving: the live state file."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from dianli.cli import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("state", "message"),
    [
        ("missing-folder/live.json", "no folder"),
        ("broken.json", "not readable as JSON"),
    ],
)
def test_a_bad_live_state_file_is_refused_before_serving(tmp_path: Path, state: str, message: str) -> None:
    (tmp_path / "broken.json").write_text("[1, 2", encoding="utf-8")
    result = runner.invoke(app, ["serve", "--port", "1", "--live-state", str(tmp_path / state)])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
