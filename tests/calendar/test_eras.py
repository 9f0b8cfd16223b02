"""The era table (read from chinesecalendar-py's labels) kept in the on-disk cache: a cache hit gives
exactly the table a cold read gives, and the table names the eras it should."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dianli import cache
from dianli.calendar import eras


@pytest.fixture()
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path))
    eras._tables.cache_clear()
    eras._aliases.cache_clear()
    eras.era_forms.cache_clear()
    yield tmp_path
    eras._tables.cache_clear()
    eras._aliases.cache_clear()
    eras.era_forms.cache_clear()


@pytest.mark.usefixtures("stable_package")
def test_the_cached_era_table_is_that_of_a_cold_read(fresh: Path) -> None:
    cold = eras.all_eras()
    cold_aliases = eras._aliases()
    cache.flush()  # written at the end of a process; here, now
    assert list(fresh.rglob("*.pickle"))  # stored
    eras._tables.cache_clear()
    eras._aliases.cache_clear()
    warm = eras.all_eras()
    assert warm is not cold
    assert warm == cold == eras._read_eras()
    assert eras._aliases() == cold_aliases == eras._read_aliases()


@pytest.mark.parametrize(
    ("name", "dynasty", "first_year", "last_year"),
    [("乾隆", "qing", 1736, 1795), ("萬曆", "ming", 1573, 1620), ("永曆", "southern-ming", 1647, 1683)],
)
def test_an_era_of_the_table(fresh: Path, name: str, dynasty: str, first_year: int, last_year: int) -> None:
    for _ in range(2):  # cold, then from the cache
        eras._tables.cache_clear()
        found = [e for e in eras.all_eras() if e.name == name and e.dynasty.id == dynasty]
        assert [(e.first_year, e.last_year) for e in found] == [(first_year, last_year)]
