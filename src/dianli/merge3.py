"""A three-way merge of lines: a curator's edits of a file dianli drafted, and dianli's new draft of it.

``base`` is what dianli wrote before, ``ours`` the file as the curator left it, ``theirs`` the new draft.
Where only one side changed a stretch of ``base``, that change is taken; where both changed it alike, once;
where both changed it differently (or changes touch), it is a *conflict*: the curator's lines are kept and
the stretch reported. Changes are found with :class:`difflib.SequenceMatcher` (no junk heuristic), line by
line, as ``diff3`` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

Hunk = tuple[int, int, list[str]]
"""A change of base lines ``[start, end)`` into the given lines."""


@dataclass(frozen=True)
class Merged:
    """The merged lines, and the conflicts as (first, last) line numbers (1-based) of ``ours``."""

    lines: list[str]
    conflicts: list[tuple[int, int]]

    @property
    def clean(self) -> bool:
        return not self.conflicts


def _hunks(base: list[str], other: list[str]) -> list[Hunk]:
    matcher = SequenceMatcher(None, base, other, autojunk=False)
    return [(i1, i2, other[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _apply(base: list[str], hunks: list[Hunk], start: int, end: int) -> list[str]:
    out: list[str] = []
    at = start
    for first, last, lines in hunks:
        out += base[at:first] + lines
        at = last
    return out + base[at:end]


def merge3(base: list[str], ours: list[str], theirs: list[str]) -> Merged:
    """Merge ``theirs``'s changes of ``base`` into ``ours`` (see the module docstring)."""
    mine, new = _hunks(base, ours), _hunks(base, theirs)
    out: list[str] = []
    conflicts: list[tuple[int, int]] = []
    at = 0  # the base line up to which the merge is written
    shift = 0  # lines of ours minus lines of base before ``at``
    i = j = 0
    while i < len(mine) or j < len(new):
        # a cluster: the next change, and every change of either side touching it
        first = min(h[0] for h in (mine[i : i + 1] + new[j : j + 1]))
        last = first
        ci, cj = i, j
        grown = True
        while grown:
            grown = False
            if ci < len(mine) and mine[ci][0] <= last and mine[ci][0] >= first:
                last = max(last, mine[ci][1])
                ci, grown = ci + 1, True
            if cj < len(new) and new[cj][0] <= last and new[cj][0] >= first:
                last = max(last, new[cj][1])
                cj, grown = cj + 1, True
        ours_hunks, theirs_hunks = mine[i:ci], new[j:cj]
        out += base[at:first]
        shift_before = shift
        ours_lines = _apply(base, ours_hunks, first, last)
        shift += len(ours_lines) - (last - first)
        if not theirs_hunks:
            out += ours_lines
        elif not ours_hunks:
            out += _apply(base, theirs_hunks, first, last)
        else:
            theirs_lines = _apply(base, theirs_hunks, first, last)
            out += ours_lines
            if theirs_lines != ours_lines:
                start = min(first + shift_before + 1, max(1, len(ours)))  # a deletion: the line after it
                conflicts.append((start, max(start, start + len(ours_lines) - 1)))
        at, i, j = last, ci, cj
    out += base[at:]
    return Merged(out, conflicts)
