"""The worked notebooks of the documentation (docs/notebooks) run from top to bottom against the code as
it is, and are saved with their outputs (what the site renders)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("nbclient")
pytest.importorskip("pandas")

FOLDER = Path(__file__).resolve().parents[2] / "docs" / "notebooks"
TITLES = {
    "shangding-century": "The 上丁 of a century",
    "variants-map": "Which counties differed, and when",
    "spring-ox": "The spring ox of any year",
    "reading-music": "Reading the music",
}


def _runner() -> ModuleType:
    spec = importlib.util.spec_from_file_location("notebook_runner", FOLDER / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_four_notebooks_are_there() -> None:
    assert {p.stem for p in _runner().notebooks()} >= set(TITLES)


@pytest.mark.parametrize("name", list(TITLES))
def test_a_notebook_runs_and_is_saved_with_its_outputs(name: str, tmp_path: Path) -> None:
    import nbformat

    path = FOLDER / f"{name}.ipynb"
    saved = nbformat.read(path, as_version=4)
    assert saved.cells[0].source.startswith(f"# {TITLES[name]}")
    code = [c for c in saved.cells if c.cell_type == "code"]
    assert code and all(c.outputs for c in code), "every code cell saved with its output"
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]
    ran = _runner().execute(path, tmp_path)  # raises on a cell's error
    fresh = [c for c in ran.cells if c.cell_type == "code"]
    assert [bool(c.outputs) for c in fresh] == [True] * len(fresh)
