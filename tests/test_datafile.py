"""Package data files load through one helper; a broken file names itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict

from dianli.datafile import load_model
from dianli.errors import DataError


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rows: tuple[int, ...]


@pytest.fixture()
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A throw-away package dianli.<name> on sys.path, so load_model reads files we write."""
    import sys

    import dianli

    monkeypatch.setattr(dianli, "__path__", [*dianli.__path__, str(tmp_path)])
    monkeypatch.delitem(sys.modules, "dianli._test_datafile_pkg", raising=False)
    pkg = tmp_path / "_test_datafile_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    return pkg


@pytest.mark.parametrize(
    ("text", "result"),
    [
        ("rows: [1, 2, 3]\n", (1, 2, 3)),
        ("rows: [1, x]\n", "rows.1"),
        ("rows: [1]\nextra: 1\n", "extra"),
        ("rows: [1\n", "not valid YAML"),
    ],
)
def test_load_model(package: Path, text: str, result: object) -> None:
    (package / "t.yaml").write_text(text, encoding="utf-8")
    if isinstance(result, tuple):
        assert load_model("_test_datafile_pkg", "t.yaml", _Table).rows == result
    else:
        with pytest.raises(DataError) as info:
            load_model("_test_datafile_pkg", "t.yaml", _Table)
        assert "dianli/_test_datafile_pkg/t.yaml" in str(info.value) and str(result) in str(info.value)
