"""The timeline's axis labels never run into each other (issue 27 item 6: 「15001600」)."""

from __future__ import annotations

import itertools

import pytest

from dianli.corpus.timeline_svg import BREAK_YEAR, TICK_DIGIT_PX, _scale, spaced


@pytest.mark.parametrize(
    ("first", "last"), [(619, 1740), (1368, 1895), (1540, 1911), (1590, 1605), (1644, 1911)]
)
def test_tick_labels_keep_apart(first: int, last: int) -> None:
    x_of, ticks, _broken = _scale(first, last)
    kept = spaced(ticks, x_of)
    assert kept and kept[0] == ticks[0]
    for a, b in itertools.pairwise(kept):
        assert x_of(b) - x_of(a) >= (len(str(a)) + len(str(b))) / 2 * TICK_DIGIT_PX


def test_the_break_is_kept_over_a_crowding_tick() -> None:
    def x_of(year: float) -> float:
        return {100: 0.0, 1500: 300.0, BREAK_YEAR: 310.0, 1700: 400.0}[int(year)]

    assert spaced([100, 1500, BREAK_YEAR, 1700], x_of) == [100, BREAK_YEAR, 1700]
