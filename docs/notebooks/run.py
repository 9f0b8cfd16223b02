"""Execute the worked notebooks and save them with their outputs: ``python docs/notebooks/run.py [NAME…]``.

Each runs in a scratch folder (what a notebook writes, a MusicXML or a sound file, stays out of the
repository); the saved notebook is what the documentation site renders. tests/api/test_api_notebooks.py
executes them the same way (:func:`execute`).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
CELL_TIMEOUT_S = 600


def notebooks() -> list[Path]:
    """The worked notebooks, by file name."""
    return sorted(HERE.glob("*.ipynb"))


def execute(path: Path, folder: Path) -> nbformat.NotebookNode:
    """The notebook at ``path`` executed in ``folder`` (a cell's error raises nbclient's CellExecutionError)."""
    book = nbformat.read(path, as_version=4)
    NotebookClient(
        book, timeout=CELL_TIMEOUT_S, kernel_name="python3", resources={"metadata": {"path": str(folder)}}
    ).execute()
    return book


def main(names: list[str]) -> None:
    for path in notebooks():
        if names and path.stem not in names:
            continue
        with tempfile.TemporaryDirectory() as folder:
            book = execute(path, Path(folder))
        nbformat.write(book, path)
        print(f"ran and saved {path.name}")


if __name__ == "__main__":
    main(sys.argv[1:])
