"""The 樂章 as the witness lays it out: columns right to left, each character with its note as written."""

from __future__ import annotations

import re

import pytest
from lxml import etree

from dianli.music.columns import witness_columns_svg
from dianli.music.cues import character_times
from dianli.music.score import movement

SVG = "{http://www.w3.org/2000/svg}"
TINGZHOU = "tingzhou-fuzhi-11"


def _cells(svg: str) -> list[etree._Element]:
    return list(etree.fromstring(svg.encode()).iter(f"{SVG}g"))


@pytest.mark.parametrize(
    ("movement_id", "witness"),
    [("chuxian", None), ("yingshen", None), ("zhongxian", TINGZHOU), ("wangyi", None)],
)
def test_columns_read_right_to_left_down(movement_id: str, witness: str | None) -> None:
    cells = _cells(witness_columns_svg(movement_id, witness))
    chars = movement(movement_id, witness).characters
    assert len(cells) == len(chars) == 32
    xs = {}
    for cell, c in zip(cells, chars, strict=True):
        char, lu_text, gongche = (t.text for t in cell.iter(f"{SVG}text"))
        assert char in (c.char, f"〔{c.display.strip('[]')}〕")
        assert (lu_text, gongche) == (c.note_as_written[0], c.note_as_written[1])
        xs.setdefault(c.phrase, set()).add(float(cell.find(f"{SVG}rect").get("x")))
    # one column per phrase, each to the left of the one before
    lefts = [xs[p].pop() for p in sorted(xs)]
    assert all(len(x) == 0 for x in xs.values())
    assert lefts == sorted(lefts, reverse=True)


@pytest.mark.parametrize(
    ("movement_id", "witness", "cell", "expected"),
    [
        ("zhongxian", TINGZHOU, "col-p6c1", ("惟", "南", "二")),  # the note as written, not as emended
        ("yingshen", None, "col-p7c3", ("〔簠〕", "林", "尺")),  # not encoded in 001: the gloss's reading
        ("chezhuan", TINGZHOU, "col-p3c3", ("宣", "林", "尺")),
    ],
)
def test_cells_show_the_witness_as_written(
    movement_id: str, witness: str | None, cell: str, expected: tuple[str, str, str]
) -> None:
    found = next(g for g in _cells(witness_columns_svg(movement_id, witness)) if g.get("id") == cell)
    assert tuple(t.text for t in found.iter(f"{SVG}text")) == expected


def test_cells_are_timed_to_the_audio() -> None:
    svg = witness_columns_svg("chuxian")
    starts = [float(s) for s in re.findall(r'data-start="([0-9.]+)"', svg)]
    assert starts == [round(t[1], 3) for t in character_times("chuxian")]


def test_heading_is_the_witness_heading() -> None:
    svg = witness_columns_svg("chuxian", TINGZHOU)
    heading = "".join(
        t.text or "" for t in etree.fromstring(svg.encode()).iter(f"{SVG}text") if t.get("class") == "head"
    )
    assert heading == "初献奏宁平之曲"
