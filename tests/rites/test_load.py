"""The rites read once, validated and cross-checked, then kept in the on-disk cache: the cached rites are
exactly those a cold read gives."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from dianli import cache
from dianli.rites import load
from dianli.rites.model import walk_elements


def test_the_cached_rites_are_those_of_a_cold_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, stable_package: None
) -> None:
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path))
    load.all_rites.cache_clear()
    try:
        cold = load.all_rites()  # empty cache: read, validated, checked and stored
        cache.flush()  # written at the end of a process; here, now
        stored = list((tmp_path / cache.DERIVED).rglob("*.pickle"))
        load.all_rites.cache_clear()
        warm = load.all_rites()  # read back
        assert warm is not cold
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
    finally:
        load.all_rites.cache_clear()


def test_with_the_cache_off_the_rites_are_read_all_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIANLI_CACHE_DIR", "off")
    load.all_rites.cache_clear()
    try:
        assert list(load.all_rites()) == list(load.read_all())
    finally:
        load.all_rites.cache_clear()
