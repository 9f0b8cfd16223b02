"""The code :mod:`dataclasses` generates for a class, compiled once and kept in the on-disk cache.

Making a dataclass compiles its methods (``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, and for a
frozen class ``__setattr__`` and ``__delattr__``) from text, one :func:`exec` of a text each: 0.4–0.7 ms a
class here. The calendar's 27 classes took 15 ms of ``dianli date`` of a day not asked before (a fifth of
its run), the classes a booklet loads some 70 ms. Python keeps the compiled code of a module (its
``.pyc``), never that of these texts.

:func:`install` — called by the console script when it loads a command's modules (:mod:`dianli.cli.lazy`,
:mod:`dianli.cli.date_view`) — gives :mod:`dataclasses` an ``exec`` that runs, for a text it compiled
before, the code object compiled from that same text by an earlier run, and compiles only a text not
kept, as :func:`exec` compiles one: file name ``<string>``, no ``__future__`` flag of the caller
(dataclasses has none). The text is the whole of its code's source, so the code read back is the code
compiling it gives (tested, class by class); only the compiling is saved.

The texts are kept by the module that defines the class (dataclasses runs them in its namespace): one
table each, under a key naming the module and the interpreter's version and optimisation level, read
when the module's first class is made. A module makes its classes when it is imported, so a table is
written back, with the texts of this run only, when the run compiled one it lacked (a class edited or
added): an edited class's old text goes. Without the cache (``DIANLI_CACHE_DIR=off``, a damaged or
unreadable table) every text is compiled, as without this module. Only the console script installs it: the
test runner, and a program that imports dianli, compile as ever."""

from __future__ import annotations

import atexit
import builtins
import marshal
import sys
from collections.abc import Mapping
from types import CodeType
from typing import Any

from dianli import cache
from dianli.cli.common import one_command

KIND = "code"
"""The cache's folder of code tables."""
_TABLES: dict[str, dict[str, CodeType]] = {}
"""Module → its texts and the code compiled from each: read from the cache, and what this run compiled."""
_USED: dict[str, set[str]] = {}
"""Module → the texts this run executed in its namespace."""
_COMPILED: set[str] = set()
"""The modules whose table lacked a text this run executed."""
_INSTALLED: list[bool] = []


def table_key(module: str) -> str:
    """The cache key of the code table of ``module``: the interpreter's version (its bytecode and marshal
    format) and optimisation level name it."""
    return cache.key("dataclass code", module, sys.version, str(sys.flags.optimize))


def _read(module: str) -> dict[str, CodeType]:
    stored = cache.read(KIND, table_key(module))
    if not stored:
        return {}
    try:
        table = marshal.loads(stored)
    except (EOFError, ValueError, TypeError):  # damaged: compiled afresh, and written again
        return {}
    if not isinstance(table, dict):
        return {}
    return {
        text: code for text, code in table.items() if isinstance(text, str) and isinstance(code, CodeType)
    }


def install() -> None:
    """Have :mod:`dataclasses` compile a class's text once, across runs (see the module's doc), in the
    console script's process (:func:`dianli.cli.common.one_command`); elsewhere, and after the first call,
    nothing changes."""
    if _INSTALLED or not one_command():
        return
    _INSTALLED.append(True)
    dataclasses = sys.modules.get("dataclasses")
    if dataclasses is None:
        import dataclasses
    setattr(dataclasses, "exec", _exec)  # noqa: B010 - a global of the module, found before the builtin
    atexit.register(keep)


def compiled(text: str, module: str) -> CodeType:
    """The code of ``text`` (run in the namespace of ``module``) as :func:`exec` compiles a text: kept, or
    compiled now."""
    table = _TABLES.get(module)
    if table is None:
        table = _TABLES[module] = _read(module)
    _USED.setdefault(module, set()).add(text)
    code = table.get(text)
    if code is None:
        code = compile(text, "<string>", "exec", dont_inherit=True)
        table[text] = code
        _COMPILED.add(module)
    return code


def _exec(
    source: str | CodeType,
    globals: dict[str, Any] | None = None,
    locals: Mapping[str, object] | None = None,
    /,
) -> None:
    """:func:`exec` as :mod:`dataclasses` calls it (a text, the namespace of its class's module, a new one),
    the text run as its compiled code (:func:`compiled`); called otherwise, exec itself, in the caller's
    namespaces."""
    if globals is None:  # exec's defaults are its caller's namespaces (dataclasses always gives its own)
        caller = sys._getframe(1)
        globals, locals = caller.f_globals, caller.f_locals if locals is None else locals
    if type(source) is str:
        source = compiled(source, str(globals.get("__name__", "")))
    builtins.exec(source, globals, locals)


MAX_BYTES = 32 << 20
"""How much the code tables may take on disk (a module gone leaves its table; past this, the least recently
written go)."""


def keep() -> None:
    """Write back the table of each module whose table lacked a text this run executed, with this run's texts
    only (run when the process ends)."""
    for module in sorted(_COMPILED):
        table = _TABLES[module]
        cache.write(
            KIND, table_key(module), marshal.dumps({text: table[text] for text in sorted(_USED[module])})
        )
    if _COMPILED:
        cache.prune(KIND, MAX_BYTES)
    _COMPILED.clear()
