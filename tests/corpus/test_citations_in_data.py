"""Every citation in every YAML file of the package resolves in its witness.

A citation is any mapping with the keys ``witness`` and ``quote`` (and optionally ``section``) found at
any depth of any YAML document under ``src/dianli`` — rites, music, dance, spring ox, calendar, corpus.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml

from dianli.corpus.cite import Citation


def _yaml_files() -> list[Path]:
    root = Path(str(resources.files("dianli")))
    return sorted(p for p in root.rglob("*.yaml") if "__pycache__" not in p.parts)


def _citations(node: Any, path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        if "witness" in node and "quote" in node:
            yield path, node
        for key, value in node.items():
            yield from _citations(value, f"{path}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _citations(value, f"{path}[{index}]")


def _all() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for file in _yaml_files():
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
        rel = file.as_posix().split("/dianli/", 1)[-1]
        found.extend(_citations(data, rel))
    return found


CITATIONS = _all()


def test_there_are_citations() -> None:
    assert len(CITATIONS) >= 10


@pytest.mark.parametrize(("where", "cite"), CITATIONS, ids=[w for w, _ in CITATIONS])
def test_citation_resolves(where: str, cite: dict[str, Any]) -> None:
    fields = {k: cite[k] for k in ("witness", "quote", "section") if k in cite}
    Citation(**fields).resolve()
