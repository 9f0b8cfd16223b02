"""cli/dataclass_code: a dataclass made with the kept code is the dataclass compiling its text makes — the
same code, method by method, the same behaviour — and a run with the tables kept compiles nothing."""

from __future__ import annotations

import dataclasses
import marshal
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from types import CodeType, FunctionType, ModuleType

import pytest

from dianli import cache
from dianli.cli import dataclass_code

CLASSES = {
    "frozen, slots": """
        @dataclass(frozen=True, slots=True)
        class C:
            a: int
            b: str = "x"
            c: tuple[int, ...] = ()
    """,
    "plain": """
        @dataclass
        class C:
            a: int
            b: list[int] = field(default_factory=list)
    """,
    "order, unsafe hash": """
        @dataclass(order=True, unsafe_hash=True)
        class C:
            a: int
            b: float = 1.5
    """,
    "keyword only, not in init, post-init": """
        @dataclass(kw_only=True)
        class C:
            a: int
            b: int = field(init=False, default=0)
            def __post_init__(self) -> None:
                self.b = self.a * 2
    """,
    "init vars and class vars": """
        @dataclass
        class C:
            a: int
            k: ClassVar[int] = 3
            scale: InitVar[int] = 1
            def __post_init__(self, scale: int) -> None:
                self.a *= scale
    """,
    "inherited, frozen": """
        @dataclass(frozen=True)
        class B:
            a: int
        @dataclass(frozen=True)
        class C(B):
            b: int = 2
    """,
}
HEADER = "from dataclasses import InitVar, dataclass, field\nfrom typing import ClassVar\n"


MODULE = "tests.made"


def _make(source: str, future: bool) -> type:
    """The class ``C`` of ``source``, made in a module of its own (dataclasses reads a string annotation in
    its module, and runs the generated code in the module's namespace)."""
    module = ModuleType(MODULE)
    header = ("from __future__ import annotations\n" if future else "") + HEADER
    sys.modules[MODULE] = module
    try:
        exec(compile(header + textwrap.dedent(source), "<made>", "exec", dont_inherit=True), vars(module))
    finally:
        del sys.modules[MODULE]
    made = vars(module)["C"]
    assert isinstance(made, type)
    return made


def _generated(cls: type) -> dict[str, CodeType]:
    """The methods dataclasses compiled for ``cls`` (and its bases): name → code."""
    return {
        f"{klass.__name__}.{name}": value.__code__
        for klass in cls.__mro__
        for name, value in vars(klass).items()
        if isinstance(value, FunctionType) and value.__code__.co_filename == "<string>"
    }


@pytest.fixture
def hooked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """dataclasses with the kept code's exec, this test's own tables and cache."""
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(dataclass_code, "_TABLES", {})
    monkeypatch.setattr(dataclass_code, "_USED", {})
    monkeypatch.setattr(dataclass_code, "_COMPILED", set())
    monkeypatch.setattr(dataclasses, "exec", dataclass_code._exec, raising=False)
    yield


@pytest.mark.parametrize("future", [False, True])
@pytest.mark.parametrize("name", list(CLASSES))
def test_a_class_made_with_kept_code_is_the_class_compiling_makes(
    name: str, future: bool, hooked: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = _make(CLASSES[name], future)
    dataclass_code.keep()  # the tables written
    dataclass_code._TABLES.clear()  # read back from the cache for the next class
    again = _make(CLASSES[name], future)
    assert not dataclass_code._COMPILED  # nothing compiled: every text was kept
    monkeypatch.delattr(dataclasses, "exec")
    plain = _make(CLASSES[name], future)
    for other in (made, again):
        codes, plain_codes = _generated(other), _generated(plain)
        assert codes.keys() == plain_codes.keys() and codes
        for method, code in codes.items():
            assert code == plain_codes[method], method
            assert (code.co_filename, code.co_flags, code.co_qualname) == (
                plain_codes[method].co_filename,
                plain_codes[method].co_flags,
                plain_codes[method].co_qualname,
            )
        init, plain_init = vars(other)["__init__"], vars(plain)["__init__"]
        assert init.__annotations__.keys() == plain_init.__annotations__.keys()
        assert [str(v) for v in init.__annotations__.values()] == [
            str(v) for v in plain_init.__annotations__.values()
        ]
        one, two = other(a=2), plain(a=2)
        assert repr(one) == repr(two) and one == other(a=2) and one != other(a=3)
        assert dataclasses.asdict(one) == dataclasses.asdict(two)


def test_a_table_keeps_the_texts_of_its_last_run(hooked: None) -> None:
    """A module's table is written with the texts its run executed: an edited class's old text goes."""
    _make(CLASSES["plain"], False)
    _make(CLASSES["frozen, slots"], False)
    dataclass_code.keep()
    dataclass_code._TABLES.clear()
    dataclass_code._USED.clear()
    _make(CLASSES["frozen, slots"], False)
    assert not dataclass_code._COMPILED
    _make(CLASSES["order, unsafe hash"], False)  # "edited": a text not kept
    dataclass_code.keep()
    kept = dataclass_code._read(MODULE)
    dataclass_code._TABLES.clear()
    dataclass_code._USED.clear()
    _make(CLASSES["frozen, slots"], False)
    _make(CLASSES["order, unsafe hash"], False)
    assert set(kept) == dataclass_code._USED[MODULE]
    assert not dataclass_code._COMPILED


def test_a_damaged_table_is_compiled_afresh(hooked: None) -> None:
    cache.write(dataclass_code.KIND, dataclass_code.table_key(MODULE), b"\x00not marshal")
    made = _make(CLASSES["frozen, slots"], False)
    assert made(a=1) == made(a=1) and dataclass_code._COMPILED == {MODULE}


def test_without_the_cache_every_text_is_compiled(monkeypatch: pytest.MonkeyPatch, hooked: None) -> None:
    monkeypatch.setenv("DIANLI_CACHE_DIR", "off")
    made = _make(CLASSES["plain"], False)
    dataclass_code.keep()
    assert made(a=1) == made(a=1)


def test_only_the_console_script_installs_it() -> None:
    dataclass_code.install()  # the test runner: not one command's process
    assert "exec" not in vars(dataclasses)


CALENDAR = ("written_dates", "day", "year_names", "timekeeping", "solar_terms", "eras", "lunisolar")
PROBE = f"""
import dataclasses, marshal, sys
from types import FunctionType
from dianli.cli import common, dataclass_code
if sys.argv[1] == "installed":
    common.ends_with_command()  # as the console script says
    dataclass_code.install()
modules = [__import__("dianli.calendar." + name, fromlist=["_"]) for name in {CALENDAR!r}]
codes = {{}}
for module in modules:
    for cls in vars(module).values():
        if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == module.__name__:
            for name, value in vars(cls).items():
                if isinstance(value, FunctionType) and value.__code__.co_filename == "<string>":
                    codes[cls.__module__ + "." + cls.__qualname__ + "." + name] = value.__code__
sys.stdout.buffer.write(marshal.dumps((sorted(dataclass_code._COMPILED), codes)))
"""


def _probe(how: str, cache_dir: Path) -> tuple[list[str], dict[str, CodeType]]:
    env = {**os.environ, "DIANLI_CACHE_DIR": str(cache_dir)}
    done = subprocess.run([sys.executable, "-c", PROBE, how], capture_output=True, env=env, check=True)
    compiled, codes = marshal.loads(done.stdout)
    return compiled, codes


def test_the_calendar_classes_of_a_second_run_are_compiled_by_none(tmp_path: Path) -> None:
    """The console script's second run makes every calendar class from kept code, the code compiling gives."""
    first_compiled, first = _probe("installed", tmp_path)
    second_compiled, second = _probe("installed", tmp_path)
    _, plain = _probe("plain", tmp_path)
    assert {f"dianli.calendar.{name}" for name in CALENDAR} <= set(first_compiled)
    assert second_compiled == []
    assert len(plain) > 50 and first.keys() == second.keys() == plain.keys()
    for method, code in plain.items():
        assert first[method] == code == second[method], method
