"""Tables derived from the rite data and the witness manifests alone are kept in the on-disk cache as plain
data (strings, numbers, tuples, dicts, frozensets: read back without any class), so a run reads them back
instead of walking every rite and reading every manifest (#14): a warm read gives what a cold one gives,
and does not compute again."""

from __future__ import annotations

import io
import pickle
from collections.abc import Callable
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Case:
    """A cached function, the function that makes its entry (with the arguments it is given), a value the
    result must hold, and how the result is read from the entry (the entry itself unless said: a table
    of every witness's relations is one entry, each witness's chain a part of it)."""

    module: ModuleType
    function: str
    maker: str
    args: tuple[Any, ...]
    holds: Callable[[Any], bool]
    maker_args: tuple[Any, ...] | None = None
    part: Callable[[Any], Any] = lambda entry: entry

    def made(self) -> Any:
        """The entry, made directly."""
        return getattr(self.module, self.maker)(*(self.args if self.maker_args is None else self.maker_args))


CASES = [
    Case(
        readings, "witnesses_with_rite", "_witnesses_with_rite", ("xianshi",), lambda r: "taiwan-fuzhi-9" in r
    ),
    Case(
        readings, "witnesses_with_rite", "_witnesses_with_rite", ("litan",), lambda r: "penghu-jilue-2" in r
    ),
    Case(
        readings,
        "reading_chain",
        "_witness_relations",
        ("tingzhou-fuzhi",),
        lambda r: r[1] == "fujian-tongzhi-14",
        maker_args=("",),
        part=lambda table: table["tingzhou-fuzhi"][0],
    ),
    Case(
        readings,
        "translation_family",
        "_witness_relations",
        ("fujian-tongzhi-14",),
        lambda r: r == ("fujian-tongzhi-14", "fujian-tongzhi-14-modern"),
        maker_args=("",),
        part=lambda table: table["fujian-tongzhi-14"][1],
    ),
    Case(readings, "own_readings", "_own_readings", ("taiwan-xianzhi-6",), lambda r: "xianshi" in r),
    Case(readings, "own_readings", "_own_readings", ("penghu-tingzhi-2",), lambda r: set(r) == {"guandi"}),
    Case(resolve, "_name_index", "_make_name_index", (), lambda r: r[fold("祀先師")] == "xianshi"),
    Case(resolve, "_variant_witnesses", "_find_variant_witnesses", (), lambda r: bool(r)),
]
IDS = [f"{case.function}{case.args}" for case in CASES]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_warm_read_gives_the_cold_result_as_plain_data(
    case: Case, cold_and_warm: Callable[..., tuple[Any, Any]], tmp_path: Path
) -> None:
    cold, warm = cold_and_warm(getattr(case.module, case.function), *case.args)
    made = case.made()
    assert warm == cold == case.part(made) and case.holds(warm)
    assert made in stored_plain(tmp_path)  # kept as plain data, read back without any class


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_warm_read_does_not_compute_again(
    case: Case, cold_and_warm: Callable[..., tuple[Any, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    cached = getattr(case.module, case.function)
    cold, _ = cold_and_warm(cached, *case.args)

    def refuse(*_args: Any) -> Any:
        raise AssertionError(f"{case.function}{case.args} computed again despite its cache entry")

    monkeypatch.setattr(case.module, case.maker, refuse)
    cached.cache_clear()  # a new process: only the disk holds it
    assert cached(*case.args) == cold and case.holds(cold)


def test_one_entry_holds_every_witness_s_relations(cold_and_warm: Callable[..., tuple[Any, Any]]) -> None:
    """A booklet in another witness than the last finds its chain in the entry the last one wrote."""
    cold_and_warm(readings.reading_chain, "tingzhou-fuzhi")

    def refuse(*_args: Any) -> Any:
        raise AssertionError("the witnesses' relations computed again for another witness")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(readings, "_witness_relations", refuse)
        readings.reading_chain.cache_clear()
        assert readings.reading_chain("taiwan-fuzhi-9") == ("taiwan-fuzhi-9",)


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
