"""Tables derived from the rite data and the witness manifests alone are kept in the on-disk cache as plain
data (strings, numbers, tuples, dicts, frozensets: read back without any class), so a run reads them back
instead of walking every rite and reading every manifest (#14): a warm read gives what a cold one gives,
and does not compute again."""

from __future__ import annotations

import io
import pickle
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from dianli import cache
from dianli.corpus.normalise import fold
from dianli.errors import UnknownValueError
from dianli.rites import readings, resolve


class _NoClasses(pickle.Unpickler):
    """An unpickler that refuses every class: only plain data reads back."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"not plain data: {module}.{name}")


def plain(blob: bytes) -> Any:
    """The stored value, read back without importing any class (an error if it needs one)."""
    return _NoClasses(io.BytesIO(blob)).load()


def stored_plain(folder: Path) -> list[Any]:
    """Every entry of the derived cache in ``folder`` that reads back as plain data."""
    found = []
    for path in (folder / cache.DERIVED).rglob("*.pickle"):
        try:
            found.append(plain(path.read_bytes()))
        except pickle.UnpicklingError:
            continue  # a result of another function, holding models (the rites themselves)
    return found


# (module, cached function, the function that makes it, arguments, a value the result must hold)
CASES: list[tuple[ModuleType, str, str, tuple[Any, ...], Callable[[Any], bool]]] = [
    (readings, "witnesses_with_rite", "_witnesses_with_rite", ("xianshi",), lambda r: "taiwan-fuzhi-9" in r),
    (readings, "witnesses_with_rite", "_witnesses_with_rite", ("litan",), lambda r: "penghu-jilue-2" in r),
    (readings, "reading_chain", "_reading_chain", ("tingzhou-fuzhi",), lambda r: r[1] == "fujian-tongzhi-14"),
    (
        readings,
        "translation_family",
        "_translation_family",
        ("fujian-tongzhi-14",),
        lambda r: r == ("fujian-tongzhi-14", "fujian-tongzhi-14-modern"),
    ),
    (readings, "own_readings", "_own_readings", ("taiwan-xianzhi-6",), lambda r: "xianshi" in r),
    (readings, "own_readings", "_own_readings", ("penghu-tingzhi-2",), lambda r: set(r) == {"guandi"}),
    (resolve, "_name_index", "_make_name_index", (), lambda r: r[fold("祀先師")] == "xianshi"),
    (resolve, "_variant_witnesses", "_find_variant_witnesses", (), lambda r: bool(r)),
]
IDS = [f"{function}{args}" for _, function, _, args, _ in CASES]


@pytest.mark.parametrize(("module", "function", "maker", "args", "holds"), CASES, ids=IDS)
def test_a_warm_read_gives_the_cold_result_as_plain_data(
    module: ModuleType,
    function: str,
    maker: str,
    args: tuple[Any, ...],
    holds: Callable[[Any], bool],
    cold_and_warm: Callable[..., tuple[Any, Any]],
    tmp_path: Path,
) -> None:
    cold, warm = cold_and_warm(getattr(module, function), *args)
    made = getattr(module, maker)(*args)
    assert warm == cold == made and holds(warm)
    assert made in stored_plain(tmp_path)  # kept as plain data, read back without any class


@pytest.mark.parametrize(("module", "function", "maker", "args", "holds"), CASES, ids=IDS)
def test_a_warm_read_does_not_compute_again(
    module: ModuleType,
    function: str,
    maker: str,
    args: tuple[Any, ...],
    holds: Callable[[Any], bool],
    cold_and_warm: Callable[..., tuple[Any, Any]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cached = getattr(module, function)
    cold, _ = cold_and_warm(cached, *args)

    def refuse(*_args: Any) -> Any:
        raise AssertionError(f"{function}{args} computed again despite its cache entry")

    monkeypatch.setattr(module, maker, refuse)
    cached.cache_clear()  # a new process: only the disk holds it
    assert cached(*args) == cold and holds(cold)


@pytest.mark.parametrize(
    ("function", "value"),
    [
        (readings.witnesses_with_rite, "no-such-rite"),
        (readings.reading_chain, "no-such-witness"),
        (readings.translation_family, "no-such-witness"),
        (readings.own_readings, "no-such-witness"),
        (readings.aligned_citations, "no-such-witness"),
    ],
)
def test_an_unknown_value_is_an_error_and_is_not_kept(
    function: Any, value: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, stable_package: None
) -> None:
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path))
    function.cache_clear()
    with pytest.raises(UnknownValueError, match=value):
        function(value)
    cache.flush()
    assert not list((tmp_path / cache.DERIVED).rglob("*.pickle")) or all(
        value not in repr(entry) for entry in stored_plain(tmp_path)
    )
    with pytest.raises(UnknownValueError, match=value):  # asked again, still the error
        function.cache_clear()
        function(value)


@pytest.mark.parametrize(
    ("name", "rite"), [("祀先師", "xianshi"), ("社稷", "sheji"), ("厲壇", "litan"), ("先師", "xianshi")]
)
def test_find_rite_reads_the_kept_name_index(
    name: str, rite: str, cold_and_warm: Callable[..., tuple[Any, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    cold_and_warm(resolve._name_index)
    monkeypatch.setattr(resolve, "_make_name_index", lambda: pytest.fail("the name index was made again"))
    resolve._name_index.cache_clear()
    assert resolve.find_rite(name) == rite
