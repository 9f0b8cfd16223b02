"""dianli.merge3: a curator's edits and a new draft merged line by line, conflicts reported."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dianli.merge3 import merge3

BASE = ["id: a\n", "title: 某志\n", "year: 1717\n", "place: x\n", "anchors: []\n"]


def _with(lines: list[str], at: int, new: list[str], drop: int = 1) -> list[str]:
    return lines[:at] + new + lines[at + drop :]


# (ours, theirs, merged, conflicts as lines of ours)
CASES = [
    (BASE, BASE, BASE, []),
    (_with(BASE, 1, ["title: 某志 (curated)\n"]), BASE, _with(BASE, 1, ["title: 某志 (curated)\n"]), []),
    (BASE, _with(BASE, 2, ["year: 1720\n"]), _with(BASE, 2, ["year: 1720\n"]), []),
    (  # each side changes its own line
        _with(BASE, 1, ["title: 某志 (curated)\n"]),
        _with(BASE, 3, ["place: y\n"]),
        _with(_with(BASE, 1, ["title: 某志 (curated)\n"]), 3, ["place: y\n"]),
        [],
    ),
    (  # both change one line alike
        _with(BASE, 2, ["year: 1720\n"]),
        _with(BASE, 2, ["year: 1720\n"]),
        _with(BASE, 2, ["year: 1720\n"]),
        [],
    ),
    (  # both change one line otherwise: the curator's is kept, the line reported
        _with(BASE, 2, ["year: 1718  # checked\n"]),
        _with(BASE, 2, ["year: 1720\n"]),
        _with(BASE, 2, ["year: 1718  # checked\n"]),
        [(3, 3)],
    ),
    (  # the curator added two lines above: the conflict is numbered in the curator's file
        _with(_with(BASE, 0, ["# curated\n", "# by me\n"], 0), 4, ["year: 1718\n"]),
        _with(BASE, 2, ["year: 1720\n"]),
        _with(_with(BASE, 0, ["# curated\n", "# by me\n"], 0), 4, ["year: 1718\n"]),
        [(5, 5)],
    ),
    ([], BASE, [], []),  # the curator emptied the file and the draft is as before: emptied it stays
    ([], _with(BASE, 2, ["year: 1720\n"]), [], [(1, 1)]),  # … but a new draft changes a line of it
    (["mine\n"], ["draft\n"], ["mine\n"], [(1, 1)]),  # no base (dianli's earlier draft not known)
]


@pytest.mark.parametrize(("ours", "theirs", "merged", "conflicts"), CASES)
def test_merge3(
    ours: list[str], theirs: list[str], merged: list[str], conflicts: list[tuple[int, int]]
) -> None:
    base = [] if ours == ["mine\n"] else BASE
    result = merge3(base, ours, theirs)
    assert result.lines == merged
    assert result.conflicts == conflicts


lines = st.lists(st.sampled_from(["a\n", "b\n", "c\n", "d\n", "e\n"]), max_size=12)


@given(lines, lines)
def test_one_sided_changes_are_taken_whole(base: list[str], other: list[str]) -> None:
    assert merge3(base, other, base).lines == other and merge3(base, other, base).clean
    assert merge3(base, base, other).lines == other and merge3(base, base, other).clean
    assert merge3(base, other, other).lines == other and merge3(base, other, other).clean


@given(lines, lines, lines)
def test_a_conflict_keeps_the_curators_lines(base: list[str], ours: list[str], theirs: list[str]) -> None:
    result = merge3(base, ours, theirs)
    for first, last in result.conflicts:
        assert 1 <= first <= max(1, len(ours)) and first <= last
    if result.clean:  # every line the curator added is in the merge
        for line in set(ours) - set(base):
            assert line in result.lines
