"""Witness roots for the corpus tests: point ``DIANLI_WITNESSES`` at folders, with the corpus caches cleared.

The corpus reads the variable once and caches what it builds from the witnesses; a test that changes the
roots clears those caches before and after, so the tests around it see the package witnesses only.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

from dianli.corpus import cite, clauses, normalise, search, sections, tree, witnesses

FIXTURES = Path(__file__).parent.parent / "fixtures" / "witnesses"
"""The folder of test witnesses (the test fixture gazetteer)."""

_CACHED_MODULES: tuple[ModuleType, ...] = (witnesses, sections, clauses, search, cite, tree, normalise)


def clear_corpus_caches() -> None:
    """Forget every cached result of the corpus modules (manifests, texts, sections, clauses, citations)."""
    for module in _CACHED_MODULES:
        for value in vars(module).values():
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


@pytest.fixture()
def use_roots(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """Call with folders of witness folders: they become ``DIANLI_WITNESSES`` for the test."""

    def use(*roots: Path) -> None:
        monkeypatch.setenv(witnesses.ENV_VAR, os.pathsep.join(str(root) for root in roots))
        clear_corpus_caches()

    yield use
    monkeypatch.undo()
    clear_corpus_caches()
