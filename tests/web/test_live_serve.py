"""``dianli serve`` and the live hub: the conduct code it prints (the one its hub accepts), and a live state
file of another shape refused before serving (exit 2, the path and what is expected named, the file kept)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

from dianli.cli import app
from dianli.web import live

runner = CliRunner()


def test_serve_prints_the_code_its_hub_accepts(monkeypatch: pytest.MonkeyPatch) -> None:
    served: dict[str, Any] = {}
    monkeypatch.setattr(
        uvicorn, "run", lambda application, **options: served.update(app=application, **options)
    )
    result = runner.invoke(app, ["serve", "--port", "8123", "--host", "127.0.0.1"])
    assert result.exit_code == 0, result.output
    code = served["app"].state.live_hub.code
    lines = result.output.splitlines()
    assert f"dianli: conduct code for the live run sheets: {code}" in lines
    assert any("http://127.0.0.1:8123/live/" in line for line in lines)
    assert "█" not in result.output  # the QR code is drawn on a terminal only, never into a pipe
    assert served["ws_max_size"] == live.FRAME_LIMIT
    assert all(len(line) <= 80 for line in lines)


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("[1, 2, 3]", "holds list"),
        ('{"xianshi|taiwan-fu|1752|spring|taiwan-fuzhi-9": {"step": 3, "seq": 1}}', "another format"),
        ('{"format": "dianli-live-state", "version": 9, "ceremonies": {}}', "version 9"),
    ],
)
def test_a_foreign_state_file_stops_serve(tmp_path: Path, content: str, problem: str) -> None:
    path = tmp_path / "notes.json"
    path.write_text(content, encoding="utf-8")
    result = runner.invoke(app, ["serve", "--port", "1", "--live-state", str(path)])
    said = " ".join(result.output.split())
    assert result.exit_code == 2 and problem in said and "notes.json" in said and live.STATE_FORMAT in said
    assert "Traceback" not in said
    assert path.read_text(encoding="utf-8") == content
