"""One character in simplified script, as OpenCC's ``t2s`` converts it on its own: the first step of the
folding key (:mod:`dianli.corpus.normalise`) and of reading written dates
(:mod:`dianli.calendar.written_dates`).

Loading OpenCC's dictionaries costs a run 0.02–0.06 s. The characters of :data:`TABLED` (the Basic
Multilingual Plane but its surrogates: every ideograph of the texts but the rare ones of the supplementary
planes, and the letters, digits and marks of ids and notes) are converted once for all (0.2 s) and the
conversions kept in the on-disk cache (:mod:`dianli.cache`) under a key naming the package's files and
OpenCC's version, so that a run reads a table (3 ms) and loads OpenCC only for a character beyond it.
Light on purpose: no pydantic, no data file."""

from __future__ import annotations

import functools
from collections.abc import Callable

from dianli import cache

TABLED = ((0x0000, 0xD7FF), (0xE000, 0xFFFF))
"""The characters converted once for all: the Basic Multilingual Plane without the surrogates (which are
no characters of a text; the 4,221 OpenCC changes are ideographs)."""


def is_tabled(char: str) -> bool:
    """Whether ``char`` is one of :data:`TABLED` (its conversion is in the table)."""
    code = ord(char)
    return any(first <= code <= last for first, last in TABLED)


@functools.lru_cache(maxsize=65536)
def simplified(char: str) -> str:
    """``char`` in simplified script: OpenCC's conversion when it is one character, else ``char``."""
    if is_tabled(char):
        return _table().get(char, char)
    return by_opencc(char)


def by_opencc(char: str) -> str:
    """:func:`simplified` of ``char`` computed by OpenCC (what the table holds)."""
    converted = str(_opencc_t2s().convert(char))  # type: ignore[attr-defined]
    return converted if len(converted) == 1 else char


@functools.lru_cache(maxsize=1)
def _table() -> dict[str, str]:
    """Each character whose simplified form is another → that character (one absent is its own)."""
    entry = cache.installed_key("corpus.simplified.table", cache.versions("opencc"))
    return cache.pickled(cache.DERIVED, entry, _make_table)


def table() -> dict[str, str]:
    """Each character of :data:`TABLED` whose simplified form is another → that form (every other one of
    them is its own)."""
    return _table()


_LINE = "\n"
"""What parts the characters given to OpenCC at once: no phrase of its dictionaries holds it."""


def _make_table() -> dict[str, str]:
    """:func:`table_of` :func:`by_opencc`, made in one call of OpenCC (a hundredth of the time of 63,000):
    every character on a line of its own, so that none is read with its neighbours as a phrase."""
    chars = [chr(code) for first, last in TABLED for code in range(first, last + 1) if chr(code) != _LINE]
    lines = str(_opencc_t2s().convert(_LINE.join(chars))).split(_LINE)  # type: ignore[attr-defined]
    if len(lines) != len(chars):  # pragma: no cover - an OpenCC that made or joined lines
        return table_of(by_opencc)
    made = {char: line for char, line in zip(chars, lines, strict=True) if line != char and len(line) == 1}
    if (alone := by_opencc(_LINE)) != _LINE:  # pragma: no cover - the parting character itself
        made[_LINE] = alone
    return made


def table_of(convert: Callable[[str], str]) -> dict[str, str]:
    """Each character of :data:`TABLED` that ``convert`` changes → what it becomes (the tables of this
    module and of the folding key)."""
    table: dict[str, str] = {}
    for first, last in TABLED:
        for code in range(first, last + 1):
            char = chr(code)
            converted = convert(char)
            if converted != char:
                table[char] = converted
    return table


@functools.lru_cache(maxsize=1)
def _opencc_t2s() -> object:
    import opencc  # only for a character outside the table, or to make it

    return opencc.OpenCC("t2s.json")
