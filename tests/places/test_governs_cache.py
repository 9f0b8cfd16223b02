"""The governance entries (every ``governs`` entry of every witness manifest) depend on the manifests and
the places alone: they are kept in the on-disk cache as plain tuples, so a run does not validate every
manifest to know which witness governs a place (#14)."""

from __future__ import annotations

import io
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dianli import cache
from dianli.places import governs


class _NoClasses(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"not plain data: {module}.{name}")


def _plain_entries(folder: Path) -> list[Any]:
    found = []
    for path in (folder / cache.DERIVED).rglob("*.pickle"):
        try:
            found.append(_NoClasses(io.BytesIO(path.read_bytes())).load())
        except pickle.UnpicklingError:
            continue
    return found


def test_the_kept_entries_are_those_of_a_cold_read_as_plain_tuples(
    cold_and_warm: Callable[..., tuple[Any, Any]], tmp_path: Path
) -> None:
    cold, warm = cold_and_warm(governs._entries_for, False)
    assert warm == cold and cold
    assert all(isinstance(e, governs._Entry) for e in warm)
    rows = governs._entry_rows()
    assert tuple(governs._Entry(*row) for row in rows) == cold
    assert rows in _plain_entries(tmp_path)  # read back without any class


@pytest.mark.parametrize(
    ("place", "year", "witness", "unit", "stands_in"),
    [
        ("臺灣府", 1752, "taiwan-fuzhi-9", "taiwan-fu", False),
        ("晉江縣", 1830, "jinjiang-xianzhi-15", "jinjiang", False),
        ("臺灣府", 1690, "taiwan-fuzhi-9", "taiwan-fu", True),
        ("臺灣府", 1740, "fujian-tongzhi-14", "fujian", False),
    ],
)
def test_a_warm_run_answers_from_the_kept_entries_without_reading_the_manifests(
    place: str,
    year: int,
    witness: str,
    unit: str,
    stands_in: bool,
    cold_and_warm: Callable[..., tuple[Any, Any]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cold_and_warm(governs._entries_for, False)

    def refuse() -> Any:
        raise AssertionError("the governance entries were made again despite their cache entry")

    monkeypatch.setattr(governs, "_entry_rows", refuse)
    monkeypatch.setattr(governs, "manifest", refuse)
    governs._entries_for.cache_clear()
    governs._governance_with.cache_clear()
    try:
        found = governs.governance(place, year)
    finally:
        governs._governance_with.cache_clear()
    assert (found.witness, found.unit, found.stands_in) == (witness, unit, stands_in)
