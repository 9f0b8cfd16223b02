"""Plain text laid out for the width it is shown in: a line wider than the width is wrapped under its own
indent, its continuations two columns further in, and no word is ever cut.

A line breaks at its spaces, or between two wide characters (漢字 have no spaces); an address, a path or
another token without spaces wider than the room it has stands alone on its line, whole. Lines that fit
are left exactly as they are.
"""

from __future__ import annotations

import re
import unicodedata

TAB = 8
"""A tab moves to the next multiple of this many columns."""

OPENING = frozenset("「『（〔【《〈“‘")
"""Marks that do not end a line: a break never falls just after one."""
CLOSING = frozenset("」』）〕】》〉”’，。、；：！？…")
"""Marks that do not begin a line: a break never falls just before one."""

SHORT = 30
"""A word at most this many columns wide (a date, a name, a short quotation) moves to the next line whole
when it fits there, rather than break; a longer one fills the line first."""

_WORD = re.compile(r"( *)((?:[→←] +)?[^ ]+)")
"""A word and the spaces before it; an arrow stays with the word it points to."""


def _wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in "WF"


def shown_width(line: str) -> int:
    """Columns ``line`` takes in a terminal: a wide character (漢字) two, a tab to the next tab stop."""
    column = 0
    for char in line:
        column = (column // TAB + 1) * TAB if char == "\t" else column + (2 if _wide(char) else 1)
    return column


def expand_tabs(line: str) -> str:
    """``line`` with each tab turned into the spaces it shows as (wide characters counted as two)."""
    out: list[str] = []
    column = 0
    for char in line:
        if char == "\t":
            stop = (column // TAB + 1) * TAB
            out.append(" " * (stop - column))
            column = stop
        else:
            out.append(char)
            column += 2 if _wide(char) else 1
    return "".join(out)


def _breaks(word: str) -> list[int]:
    """Where ``word`` may break: between two wide characters, never before a closing or after an opening
    mark, and so that each part keeps at least two characters besides its marks (no 「之」 left alone)."""
    return [
        i
        for i in range(1, len(word))
        if _wide(word[i - 1])
        and _wide(word[i])
        and word[i] not in CLOSING
        and word[i - 1] not in OPENING
        and sum(c not in OPENING for c in word[:i]) >= 2
        and sum(c not in CLOSING for c in word[i:]) >= 2
    ]


def _head(word: str, room: int) -> int:
    """The longest break of ``word`` whose head fits in ``room`` columns (0: none does)."""
    best = 0
    for i in _breaks(word):
        if shown_width(word[:i]) > room:
            break
        best = i
    return best


def fit_line(line: str, width: int, hang: int = 2) -> list[str]:
    """``line`` as lines of at most ``width`` columns: continuations indented ``hang`` columns further in
    than the line itself; only a token without a break point wider than its room may stand out, alone."""
    if shown_width(line) <= width:
        return [line]
    line = expand_tabs(line)
    lead = len(line) - len(line.lstrip(" "))
    indent = lead + hang
    lines: list[str] = []
    current, used, empty = " " * lead, lead, True  # the line being filled, its width, and no word on it yet

    def flush() -> None:
        nonlocal current, used, empty
        lines.append(current.rstrip())
        current, used, empty = " " * indent, indent, True

    for gap, word in _WORD.findall(line[lead:]):
        space = "" if empty else gap
        size = shown_width(word)
        while word:
            room = width - used - shown_width(space)
            if size <= room:
                current, used, empty = current + space + word, used + shown_width(space) + size, False
                break
            fits_next = size <= width - indent
            cut = 0 if fits_next and size <= SHORT else _head(word, room)
            if cut:  # fill the line with the head of a run of wide characters
                lines.append((current + space + word[:cut]).rstrip())
                current, used, empty = " " * indent, indent, True
                word, space = word[cut:], ""
                size = shown_width(word)
                continue
            if not empty:  # begin a new line with the word
                flush()
                space = ""
                continue
            # alone on a line and still too wide: break it where it can, else let it stand whole
            cut = _head(word, room) or next(iter(_breaks(word)), 0)
            if cut:
                lines.append(current + word[:cut])
                current, used, empty = " " * indent, indent, True
                word = word[cut:]
                size = shown_width(word)
                continue
            if used + size > width and size <= width:  # in less than its indent it fits
                current = " " * (width - size)
            current, used, empty = current + word, width + 1, False  # nothing more goes on its line
            break
    if not empty or not lines:
        lines.append(current.rstrip())
    return lines
