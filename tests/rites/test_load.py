"""The rites read once, validated and cross-checked, then kept in the on-disk cache: the cached rites are
exactly those a cold read gives."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dianli import cache
from dianli.rites import load
from dianli.rites.model import walk_elements


def test_the_cached_rites_are_those_of_a_cold_read(cold_and_warm: Callable[..., Any], tmp_path: Path) -> None:
    cold, warm = cold_and_warm(load.all_rites)  # read, validated, checked and stored; then read back
    stored = list((tmp_path / cache.DERIVED).rglob("*.pickle"))
    assert list(warm) == list(cold) == list(load.read_all())
    assert warm == cold
    assert {k: r.model_dump() for k, r in warm.items()} == {k: r.model_dump() for k, r in cold.items()}
    assert any(pickle.loads(p.read_bytes()) == cold for p in stored)
    # which fields the data set is read back too (a rite without date_rule inherits its base's)
    pairs = [
        (a, b)
        for rid in cold
        for a, b in zip(walk_elements(cold[rid]), walk_elements(warm[rid]), strict=True)
    ]
    assert pairs and all(a.model_fields_set == b.model_fields_set for a, b in pairs)


def test_with_the_cache_off_the_rites_are_read_all_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIANLI_CACHE_DIR", "off")
    load.all_rites.cache_clear()
    try:
        assert list(load.all_rites()) == list(load.read_all())
    finally:
        load.all_rites.cache_clear()
